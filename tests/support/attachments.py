"""File attachments as Discord keeps them: uploads become attachment objects, edits keep or replace them,
and an embed's ``attachment://NAME`` image is resolved to the attachment's url.

A message with files comes as multipart: ``payload_json`` (the JSON body) and one part per file, named
``files[N]`` (what discord.py sends). The body's ``attachments`` lists ``{"id": N, "filename", "description"}``
for the new file ``files[N]`` and ``{"id": snowflake, ...}`` for an attachment the message already has.

* create: every uploaded file becomes an attachment (an ``attachments`` entry for it gives its filename
  and description);
* edit (channel PATCH, webhook edits, callback 7): with ``attachments``, the message keeps exactly the
  listed ones, existing and new, in that order (a new file left out of the list is dropped, as Discord's
  "only files listed in attachments will be appended"); without it, it keeps all it had and adds the
  new files;
* ``embeds[].image.url`` / ``thumbnail.url`` of ``attachment://NAME`` becomes that attachment's url when
  the embeds are stored; with no attachment of that name, Discord leaves the image out, and so does the
  fake.

The stored message keeps each live attachment's bytes (``StoredMessage.attachment_bytes``); those of a
removed attachment are forgotten. Limits (10 files, 10 MiB each, 1024-character descriptions, ids that
name nothing) are checked in ``validation``. Not modelled: Discord's filename clean-up, the signed
``?ex=&is=&hm=`` query of CDN urls, images other than PNG getting ``width``/``height``, media proxying.
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

MAX_FILES = 10
MAX_FILE_SIZE = 10 * 1024 * 1024  # Discord's default upload limit for bots (10 MiB)
MAX_DESCRIPTION = 1024
CDN, MEDIA = "https://cdn.discordapp.com", "https://media.discordapp.net"
SCHEME = "attachment://"
_FIELD = re.compile(r"files\[(\d+)\]")
PNG = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Upload:
    """One uploaded file part: ``index`` is N of its ``files[N]`` part name (else its position)."""

    index: int
    filename: str
    data: bytes
    content_type: str | None = None  # as the client declared it (discord.py: application/octet-stream)
    description: str | None = None  # from its ``attachments`` entry

    @property
    def size(self) -> int:
        return len(self.data)


def upload(name: str | None, filename: str | None, data: bytes, content_type: str | None, position: int) -> Upload:
    """An :class:`Upload` from a multipart part named ``name`` (``files[N]``)."""
    match = _FIELD.fullmatch(name or "")
    return Upload(int(match[1]) if match else position, filename or name or "file", data, content_type)


def entry_id(entry: Any) -> int | None:
    """The id of an ``attachments`` entry as an int (discord.py sends ints, raw clients may send strings)."""
    raw = entry.get("id") if isinstance(entry, dict) else None
    return int(raw) if isinstance(raw, int) or (isinstance(raw, str) and raw.isdigit()) else None


def apply(msg: Any, body: dict, files: Sequence[Upload], new_id: Callable[[], int], *, editing: bool) -> None:
    """Set ``msg``'s attachments (and their bytes) from a create or edit ``body`` with ``files`` uploaded,
    then resolve ``attachment://`` embed images if ``body`` set the embeds. The body is already valid."""
    if "attachments" in body or files:
        chosen: list[dict | Upload]
        if "attachments" not in body:
            chosen = [*(msg.data.get("attachments") or []), *files]
        else:
            chosen = _listed(msg, body.get("attachments") or [], files, editing=editing)
        kept: list[dict] = []
        store: dict[int, bytes] = {}
        for item in chosen:
            if isinstance(item, Upload):
                item, data = _attachment(msg, item, new_id()), item.data
            else:
                data = msg.file_bytes.get(int(item["id"]), b"")
            kept.append(item)
            store[int(item["id"])] = data
        msg.data["attachments"], msg.file_bytes = kept, store
    if body.get("embeds"):
        msg.data["embeds"] = resolve(msg.data["embeds"], msg.data["attachments"])


def _listed(msg: Any, listed: list[dict], files: Sequence[Upload], *, editing: bool) -> list[dict | Upload]:
    """What an ``attachments`` list keeps: new files (named and described by their entry) and existing
    attachments, in its order; on create, files it does not list come after."""
    old = {int(a["id"]): a for a in msg.data.get("attachments") or []}
    uploads = {f.index: f for f in files}
    chosen: list[dict | Upload] = []
    for entry in listed:
        key = entry_id(entry)
        if key in uploads:
            found = uploads.pop(key)
            filename = entry.get("filename") or found.filename
            chosen.append(Upload(found.index, filename, found.data, found.content_type, entry.get("description")))
        else:
            chosen.append(old[key])  # type: ignore[index]  # validation refused ids naming nothing
    return chosen if editing else [*chosen, *uploads.values()]


def _attachment(msg: Any, file: Upload, aid: int) -> dict:
    where = f"attachments/{msg.channel_id}/{aid}/{file.filename}"
    out: dict[str, Any] = {"id": str(aid), "filename": file.filename}
    if file.description is not None:
        out["description"] = file.description
    out.update(size=file.size, url=f"{CDN}/{where}", proxy_url=f"{MEDIA}/{where}")
    content_type = mimetypes.guess_type(file.filename)[0]
    if content_type:
        out["content_type"] = content_type
    if file.data[:8] == PNG and file.data[12:16] == b"IHDR":
        out["width"], out["height"] = int.from_bytes(file.data[16:20], "big"), int.from_bytes(file.data[20:24], "big")
    if msg.ephemeral:
        out["ephemeral"] = True
    return out


def resolve(embeds: list[dict], attachments: list[dict]) -> list[dict]:
    """``embeds`` with each ``attachment://NAME`` image and thumbnail pointing at that attachment, or left
    out when the message has no attachment of that name; other embeds are returned as they are."""
    by_name = {a["filename"]: a for a in attachments}
    out = []
    for embed in embeds:
        changed = dict(embed)
        for key in ("image", "thumbnail"):
            url = str((embed.get(key) or {}).get("url") or "")
            if not url.startswith(SCHEME):
                continue
            found = by_name.get(url.removeprefix(SCHEME))
            if found is None:
                del changed[key]
                continue
            changed[key] = {"url": found["url"], "proxy_url": found["proxy_url"]}
            changed[key].update({k: found[k] for k in ("width", "height", "content_type") if k in found})
        out.append(changed if changed != embed else embed)
    return out
