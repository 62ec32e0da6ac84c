"""The bot's log lines: readable text (the default), or with LOG_FORMAT=json one JSON object per line.

A JSON line has the time (ISO 8601, UTC), level, logger and message, an exception's traceback as one string
field, and where known the shard, guild, channel and game the line is about (bot/service/where.py: set where
an interaction, a computer's move or a deadline begins). A small Formatter of our own rather than a library:
the fields are few and fixed, and the standard library's json does it.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

from ..service.where import where

TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(where())
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def set_up_logging(level: str, form: str) -> None:
    """The root logger writes to stderr in `form` ("text" or "json") from `level` up."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if form == "json" else logging.Formatter(TEXT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
