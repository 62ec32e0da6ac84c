"""Interaction callbacks and the interaction webhook (``@original``, followups), with Discord's timing rules.

* the first callback must come within ``response_deadline`` seconds (3 on Discord): later, 404 10062;
* only one callback: a second one gets 400 40060;
* followups and webhook edits need an acknowledged interaction (404 10015), and the token lives 15
  minutes: after that, 401 50027 "Invalid Webhook Token", which is what Discord answers then;
* the first followup after a "thinking" defer fills the loading message and keeps its ephemerality.
"""

from __future__ import annotations

from typing import Any

from .command_limits import check_autocomplete
from .errors import DiscordError, invalid_form
from .model import TOKEN_LIFETIME
from .records import CALLBACK_KINDS, Interaction, RecordedRequest, StoredMessage
from .routes import attachment_ids, checked, route, truthy
from .validation import EPHEMERAL, check_message

# Which callback types may answer which interaction types (command, component, autocomplete, modal).
ALLOWED = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"


def _ephemeral(body: dict) -> bool:
    return bool(int(body.get("flags") or 0) & EPHEMERAL)


def _by_token(fake: Any, req: RecordedRequest) -> Interaction:
    """The interaction a webhook route names, if its token is still good for followups and edits."""
    interaction = fake.interactions.get(req.params["webhook_token"])
    if interaction is None or int(req.params["webhook_id"]) != fake.application_id:
        raise DiscordError(404, 10015, "Unknown Webhook")
    if fake.now() - interaction.created_at > TOKEN_LIFETIME:
        raise DiscordError(401, 50027, "Invalid Webhook Token")
    if interaction.callback is None:
        raise DiscordError(404, 10015, "Unknown Webhook")
    return interaction


def _common(interaction: Interaction) -> dict:
    return {"user_id": interaction.user.id, "interaction_id": interaction.id}


@route("POST", CALLBACK)
def callback(fake: Any, req: RecordedRequest) -> dict | None:
    interaction = fake.interactions.get(req.params["webhook_token"])
    if interaction is None or str(interaction.id) != req.params["webhook_id"]:
        raise DiscordError(404, 10062, "Unknown interaction")
    if interaction.callback is not None:
        raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
    if fake.response_deadline is not None and fake.now() - interaction.created_at > fake.response_deadline:
        raise DiscordError(404, 10062, "Unknown interaction")
    body = req.json or {}
    kind, data = int(body.get("type") or 0), body.get("data") or {}
    if kind not in ALLOWED.get(interaction.type, ()):
        raise invalid_form([("type", f"Callback type {kind} cannot answer an interaction of type {interaction.type}.")])
    if kind in (6, 7) and interaction.message_id is None:
        raise invalid_form([("type", "This interaction has no message to update.")])
    if kind in (4, 7):
        existing = attachment_ids(fake.messages[interaction.message_id] if kind == 7 else None)
        check_message(data, creating=kind == 4, prefix="data", files=req.files, existing=existing)
    if kind == 8:
        check_autocomplete(data)
    interaction.callback, interaction.answered_at = body, req.at
    msg: StoredMessage | None = None
    if kind in (4, 5):  # a new message (5: a "thinking" one)
        msg = fake.new_message(
            data, ephemeral=_ephemeral(data), owner=interaction.user, interaction=interaction, loading=kind == 5,
            files=req.files,
        )  # fmt: skip
        interaction.loading = kind == 5
    elif kind in (6, 7):  # (deferred) update of the component's message
        msg = fake.messages[interaction.message_id]
        if kind == 7:
            fake.edit_message(msg, data, req.files)
    interaction.original_id = msg.id if msg else None
    extra = {"choices": data.get("choices")} if kind == 8 else {"modal": data} if kind == 9 else {}
    interaction.output = fake.record(CALLBACK_KINDS[kind], msg, data, **extra, **_common(interaction))
    return _callback_answer(interaction, kind, msg) if truthy(req.query.get("with_response")) else None


def _callback_answer(interaction: Interaction, kind: int, msg: StoredMessage | None) -> dict:
    answer: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
    resource: dict[str, Any] = {"type": kind}
    if msg is not None:
        answer.update(
            response_message_id=str(msg.id),
            response_message_loading=msg.loading,
            response_message_ephemeral=msg.ephemeral,
        )
        if kind in (4, 5, 7):
            resource["message"] = msg.data
    return {"interaction": answer, "resource": resource}


# ------------------------------------------------------------------ followups


@route("POST", WEBHOOK)
def followup(fake: Any, req: RecordedRequest) -> dict | None:
    interaction = _by_token(fake, req)
    body = checked(req, creating=True)
    if interaction.loading:
        msg = fake.edit_message(fake.messages[interaction.original_id], {**body, "flags": None}, req.files)
        interaction.loading = False
    else:
        msg = fake.new_message(
            body, ephemeral=_ephemeral(body), owner=interaction.user, interaction=interaction, files=req.files
        )
    fake.record("followup", msg, body, **_common(interaction))
    return msg.data if truthy(req.query.get("wait")) else None


# ------------------------------------------------------------------ the interaction's own messages


def _webhook_message(fake: Any, req: RecordedRequest) -> tuple[Interaction, StoredMessage]:
    interaction = _by_token(fake, req)
    mid = req.params.get("message_id")
    msg = fake.messages.get(interaction.original_id if mid is None else int(mid))
    ours = msg is not None and (msg.id == interaction.original_id or msg.interaction_id == interaction.id)
    if not ours or msg.deleted:
        raise DiscordError(404, 10008, "Unknown Message")
    return interaction, msg


@route("GET", WEBHOOK + "/messages/@original")
@route("GET", WEBHOOK + "/messages/{message_id}")
def get_webhook_message(fake: Any, req: RecordedRequest) -> dict:
    return _webhook_message(fake, req)[1].data


@route("PATCH", WEBHOOK + "/messages/@original")
@route("PATCH", WEBHOOK + "/messages/{message_id}")
def edit_webhook_message(fake: Any, req: RecordedRequest) -> dict:
    interaction, msg = _webhook_message(fake, req)
    body = checked(req, creating=False, msg=msg)
    fake.edit_message(msg, body, req.files)
    _changed(fake, req, interaction, msg, body, "edit_original", "followup_edit")
    return msg.data


@route("DELETE", WEBHOOK + "/messages/@original")
@route("DELETE", WEBHOOK + "/messages/{message_id}")
def delete_webhook_message(fake: Any, req: RecordedRequest) -> None:
    interaction, msg = _webhook_message(fake, req)
    fake.delete_message(msg)
    _changed(fake, req, interaction, msg, None, "delete_original", "followup_delete")


def _changed(
    fake: Any, req: RecordedRequest, interaction: Interaction, msg: StoredMessage, body: Any, *kinds: str
) -> None:
    """Record an edit or delete through the webhook; either one ends a "thinking" original."""
    if msg.id == interaction.original_id:
        interaction.loading = False
    fake.record(kinds[0] if req.route.endswith("@original") else kinds[1], msg, body, **_common(interaction))
