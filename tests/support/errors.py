"""The two ways a test can go wrong against the fake: Discord refuses a request, or the test asks the impossible."""

from __future__ import annotations

from typing import Any


class HarnessError(AssertionError):
    """The test asked for something a real user or Discord could not do (or misused the fake)."""


class SettleTimeout(HarnessError):
    """Tasks started by a dispatch were still running when the settle timeout expired."""


class DiscordError(Exception):
    """An error answer as Discord sends it: HTTP status, JSON error code, message and (for 50035) the
    per-field ``errors`` tree, which discord.py flattens into "In data.embeds.0.title: ..." lines."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict | None = None, *, retry_after: float | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message = status, code, message
        self.errors = errors or {}
        self.retry_after = retry_after
        self.injected = False  # raised by a test's fail_next/on_route, not by the fake's own rules
        self.global_ = False  # a 429 of the global limit
        self.headers: dict[str, str] = {}  # sent with the answer (a 429's Retry-After, scope, bucket)

    def body(self) -> dict[str, Any]:
        if self.status == 429:
            return {"message": self.message, "retry_after": float(self.retry_after or 0.0), "global": self.global_}
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body

    def describe(self) -> str:
        """One line: status, code, message and every field error ("embeds.0.title: Must be ...")."""
        details = "; ".join(f"{path}: {text}" for path, text in _flatten(self.errors))
        return f"{self.status} {self.code} {self.message}" + (f": {details}" if details else "")


def invalid_form(problems: list[tuple[str, str]]) -> DiscordError:
    """400 / 50035 "Invalid Form Body" with Discord's nested ``{"a": {"0": {"_errors": [...]}}}`` tree."""
    tree: dict[str, Any] = {}
    for path, text in problems:
        node = tree
        for part in path.split(".") if path else ["_root"]:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "INVALID_FORM_BODY", "message": text})
    return DiscordError(400, 50035, "Invalid Form Body", tree)


def _flatten(tree: dict, prefix: str = "") -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key, node in tree.items():
        path = f"{prefix}.{key}" if prefix else key
        if key == "_errors":
            out.append((prefix, " ".join(e["message"] for e in node)))
        else:
            out.extend(_flatten(node, path))
    return out
