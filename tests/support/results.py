"""What one action (a slash command, a click, ...) led to: what the acting user and the channel saw, and DMs."""

from __future__ import annotations

import dataclasses
from typing import Any

from .errors import HarnessError
from .records import CALLBACK_KINDS, ComponentQueries, Interaction, Output

_HIDDEN = {"defer", "defer_update", "autocomplete", "modal", "pong"}  # outputs that show no message


class Result(ComponentQueries):
    """The outputs recorded from the dispatch until the action settled (channel posts and DMs included).

    ``unanswered`` is True when Discord would show "This interaction failed" (no accepted callback). A
    result of the subprocess door is live: its outputs grow until the test stops looking (and, with the
    fake's ``keep_outputs``, lose those the fake dropped; ``response`` stays). ``latency`` is the time from
    sending the interaction to the arrival of the callback Discord accepted.
    """

    def __init__(self, fake: Any, action: str, interaction: Interaction) -> None:
        self._fake, self.action, self._interaction = fake, action, interaction
        self.interaction_id, self.user_id = interaction.id, interaction.user.id
        self._start, self._errors_start = self._outputs_seen(), len(fake.errors)
        self._end: int | None = None
        self._errors_end: int | None = None

    @property
    def token(self) -> str:
        """The interaction's token."""
        return self._interaction.token

    def _outputs_seen(self) -> int:
        """Outputs recorded so far, dropped ones included: positions that survive ``keep_outputs``."""
        return len(self._fake.outputs) + self._fake.outputs_dropped

    def finish(self) -> None:
        self._end, self._errors_end = self._outputs_seen(), len(self._fake.errors)

    @property
    def outputs(self) -> list[Output]:
        dropped = self._fake.outputs_dropped
        end = None if self._end is None else max(self._end - dropped, 0)
        return self._fake.outputs[max(self._start - dropped, 0) : end]

    @property
    def sent_at(self) -> float | None:
        """time.monotonic() when the interaction was sent to the bot."""
        return self._interaction.sent_at

    @property
    def answered_at(self) -> float | None:
        """time.monotonic() when the callback Discord accepted arrived (None: none yet)."""
        return self._interaction.answered_at

    @property
    def latency(self) -> float | None:
        """Seconds from sending to the accepted callback's arrival; None while unanswered."""
        sent, answered = self.sent_at, self.answered_at
        return None if sent is None or answered is None else answered - sent

    @property
    def errors(self) -> list[str]:
        """Errors the bot logged during this action."""
        return self._fake.errors[self._errors_start : self._errors_end]

    @property
    def callback_type(self) -> int | None:
        return self._interaction.callback_type

    @property
    def unanswered(self) -> bool:
        return self._interaction.callback is None

    @property
    def still_thinking(self) -> bool:
        """Deferred with "thinking" and never filled: the user sees a spinner forever."""
        return self._interaction.loading

    @property
    def components(self) -> list[dict]:  # type: ignore[override]
        return [c for out in self.outputs for c in out.components]

    @property
    def response(self) -> Output | None:
        """The interaction callback output (response, defer, update, ...), if any."""
        return self._interaction.output

    @property
    def answer(self) -> Output | None:
        """The answer as the user sees it: the callback's own message, or, when the bot deferred, what it
        then answered with: an edit of the clicked message ("update") or a new message ("response"; after
        a deferred update, a followup). None while a deferred answer is still empty."""
        first = self.response
        if first is None or first.kind not in ("defer", "defer_update"):
            return first
        filled = next((o for o in self.outputs if o.interaction_id == self.interaction_id
                       and o.kind in ("edit_original", "followup")), None)
        if filled is None:
            return None
        update = first.kind == "defer_update" and filled.kind == "edit_original"
        return dataclasses.replace(filled, kind="update" if update else "response")

    @property
    def messages(self) -> list[Output]:
        """Outputs that show message content (not defers, deletes, autocomplete or modals)."""
        return [
            o for o in self.outputs if o.message_id is not None and o.kind not in _HIDDEN and "delete" not in o.kind
        ]

    @property
    def ephemeral(self) -> list[Output]:
        return [o for o in self.messages if o.ephemeral]

    @property
    def public(self) -> list[Output]:
        """Messages everyone in the channel sees (not ephemeral, not in a DM)."""
        return [o for o in self.messages if not o.ephemeral and o.recipient_id is None]

    @property
    def dms(self) -> list[Output]:
        """Messages in DMs (``recipient_id`` says whose), ephemeral answers to a click in a DM excepted."""
        return [o for o in self.messages if not o.ephemeral and o.recipient_id is not None]

    @property
    def contents(self) -> list[str]:
        return [o.content or "" for o in self.messages]

    @property
    def text(self) -> str:
        """Message contents, embed titles, descriptions and fields joined, for ``in`` assertions."""
        parts: list[str] = []
        for out in self.messages:
            parts.append(out.content or "")
            for embed in out.embeds:
                parts.extend(str(embed.get(k) or "") for k in ("title", "description"))
                parts.extend(f"{f.get('name')} {f.get('value')}" for f in embed.get("fields", []))
        return "\n".join(p for p in parts if p)

    @property
    def choices(self) -> list[dict] | None:
        return next((o.choices for o in self.outputs if o.kind == "autocomplete"), None)

    def message_with(self, custom_id: str | None = None, *, label: str | None = None) -> Output:
        """The last output with a matching component (custom_id exact, or a prefix ending in ':')."""
        found = next((o for o in reversed(self.messages) if o.has(custom_id, label=label, prefix=True)), None)
        if found is None:
            raise HarnessError(f"no output with custom_id={custom_id!r} label={label!r}; outputs: {self.outputs}")
        return found

    def __repr__(self) -> str:
        state = "unanswered" if self.unanswered else CALLBACK_KINDS.get(self.callback_type or 0, self.callback_type)
        return f"<Result {self.action} user={self.user_id} {state} outputs={self.outputs} errors={len(self.errors)}>"
