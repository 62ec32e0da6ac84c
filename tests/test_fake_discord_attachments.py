"""File attachments in the fake Discord (tests/support/attachments.py), through discord.py's own upload paths:
uploads become attachment objects with their bytes kept, ``attachment://`` embed images are resolved, edits
keep or replace attachments as their ``attachments`` list says, and Discord's upload limits are applied."""

from __future__ import annotations

import io
import json

import aiohttp
import discord
import pytest
from PIL import Image
from support.attachments import MAX_FILE_SIZE, Upload
from support.errors import DiscordError
from support.fake_discord import FakeUser, Harness
from support.toy_bot import ToyBot
from support.validation import check_message

ALICE = 101
SEND = "/channels/{channel_id}/messages"


@pytest.fixture
async def h():
    harness = await Harness.create(ToyBot(), users=[FakeUser(ALICE, "alice")])
    yield harness
    await harness.close()


def png(width: int = 3, height: int = 2, color: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, "PNG")
    return out.getvalue()


def file(name: str, data: bytes, description: str | None = None) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name, description=description)


def showing(name: str, **more: str) -> discord.Embed:
    return discord.Embed(title="table", **more).set_image(url=f"attachment://{name}")


def names(msg) -> list[str]:
    return [a["filename"] if isinstance(a, dict) else a.filename for a in msg.attachments]


async def test_a_file_becomes_an_attachment_and_the_embed_image_points_at_it(h: Harness) -> None:
    table = png(3, 2)
    channel = h.bot.get_channel(h.channel_id)
    sent = await channel.send("the table", file=file("a.png", table, "the table"), embed=showing("a.png"))
    stored = h.message(sent.id)
    (att,) = stored.attachments
    aid = int(att["id"])
    assert att["url"] == f"https://cdn.discordapp.com/attachments/{h.channel_id}/{aid}/a.png"
    assert att["proxy_url"] == f"https://media.discordapp.net/attachments/{h.channel_id}/{aid}/a.png"
    assert (att["filename"], att["description"], att["size"], att["content_type"]) == (
        "a.png", "the table", len(table), "image/png")
    assert (att["width"], att["height"]) == (3, 2) and stored.attachment_bytes("a.png") == table
    assert stored.embeds[0]["image"] == {"url": att["url"], "proxy_url": att["proxy_url"], "width": 3, "height": 2,
                                         "content_type": "image/png"}
    (upload,) = h.requests_to("POST", SEND)[-1].files
    assert (upload.index, upload.filename, upload.data) == (0, "a.png", table)
    assert h.outputs[-1].attachments == stored.attachments and "files" not in h.outputs[-1].payload
    # discord.py reads them from the REST answer and from MESSAGE_CREATE alike
    assert sent.attachments[0].url == att["url"] and sent.attachments[0].content_type == "image/png"
    assert sent.embeds[0].image.url == att["url"] and sent.attachments[0].description == "the table"
    cached = discord.utils.get(h.bot.cached_messages, id=sent.id)
    assert cached is not None and cached.attachments[0].id == aid and cached.attachments[0].width == 3
    h.assert_no_errors()


async def test_an_embed_image_naming_no_attachment_is_left_out(h: Harness) -> None:
    channel = h.bot.get_channel(h.channel_id)
    embed = showing("missing.png", description="d").set_thumbnail(url="attachment://a.png")
    sent = await channel.send(file=file("a.png", png()), embed=embed)  # a file and no content: allowed
    (shown,) = h.message(sent.id).embeds
    assert "image" not in shown and shown["description"] == "d"
    assert shown["thumbnail"]["url"] == h.message(sent.id).attachment("a.png")["url"]
    plain = await channel.send(embed=discord.Embed(title="t").set_image(url="https://example.com/x.png"))
    assert h.message(plain.id).embeds[0]["image"] == {"url": "https://example.com/x.png"}
    h.assert_no_errors()


async def test_an_edit_with_a_new_picture_replaces_the_old_one_and_other_edits_keep_it(h: Harness) -> None:
    channel = h.bot.get_channel(h.channel_id)
    first, second = png(color="red"), png(4, 4, color="blue")
    sent = await channel.send("table", file=file("a.png", first), embed=showing("a.png"))
    old_id = int(h.message(sent.id).attachments[0]["id"])
    edited = await sent.edit(attachments=[file("b.png", second)], embed=showing("b.png"))
    stored = h.message(sent.id)
    assert names(stored) == ["b.png"] and stored.attachment_bytes("b.png") == second
    assert list(stored.file_bytes) == [int(stored.attachments[0]["id"])] != [old_id]  # the old bytes are gone
    assert stored.embeds[0]["image"]["url"] == stored.attachment("b.png")["url"]
    assert names(edited) == ["b.png"] and edited.embeds[0].image.url == stored.attachment("b.png")["url"]
    with pytest.raises(KeyError):
        stored.attachment("a.png")

    await edited.edit(content="table, later")  # no ``attachments``: the picture stays
    assert names(h.message(sent.id)) == ["b.png"] and h.message(sent.id).attachment_bytes("b.png") == second
    cached = discord.utils.get(h.bot.cached_messages, id=sent.id)  # MESSAGE_UPDATE carried them
    assert [a.filename for a in cached.attachments] == ["b.png"] and cached.content == "table, later"

    both = await edited.edit(attachments=[*edited.attachments, file("c.png", b"c")])  # keep one, add one
    assert names(h.message(sent.id)) == names(both) == ["b.png", "c.png"]
    assert h.message(sent.id).attachments[0] == stored.attachments[0]  # the kept one is the same attachment
    await both.edit(attachments=[])
    assert h.message(sent.id).attachments == [] and h.message(sent.id).file_bytes == {}
    h.assert_no_errors()


async def test_files_without_an_attachments_list_are_added_to_what_the_message_has(h: Harness) -> None:
    sent = await h.bot.get_channel(h.channel_id).send("x", file=file("a.png", b"a"))
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "y"}), content_type="application/json")
    form.add_field("files[0]", b"bb", filename="b.txt", content_type="application/octet-stream")
    url = f"{h.api_base}/channels/{h.channel_id}/messages/{sent.id}"
    async with aiohttp.ClientSession() as http, http.patch(url, data=form, headers={"Authorization": "Bot t"}) as r:
        answer = await r.json()
    assert r.status == 200 and [a["filename"] for a in answer["attachments"]] == ["a.png", "b.txt"]
    assert answer["attachments"][1]["content_type"] == "text/plain"
    stored = h.message(sent.id)
    assert stored.attachment_bytes("b.txt") == b"bb" and stored.attachment_bytes("a.png") == b"a"
    h.assert_no_errors()


async def test_interaction_answers_edits_updates_and_followups_carry_files(h: Harness) -> None:
    r = await h.slash(ALICE, "toy picture")
    (att,) = r.response.attachments
    board = h.message(r.response.message_id)
    assert att["filename"] == "first.png" and att["description"] == "picture first.png"
    assert board.attachment_bytes("first.png") == b"first picture"
    assert board.embeds[0]["image"]["url"] == att["url"]
    interaction = next(seen[1] for seen in h.bot.seen if seen[0] == "picture")

    second = png(5, 5)
    message = await interaction.edit_original_response(attachments=[file("second.png", second)],
                                                       embed=showing("second.png"))
    assert names(h.message(board.id)) == names(message) == ["second.png"]
    assert h.message(board.id).attachment_bytes("second.png") == second
    assert h.outputs[-1].kind == "edit_original" and names(h.outputs[-1]) == ["second.png"]

    clicked = await h.click(ALICE, board.id, "toy:picture:next")  # callback 7 with a file
    assert clicked.response.kind == "update" and names(h.message(board.id)) == ["next.png"]
    assert h.message(board.id).embeds[0]["image"]["url"] == h.message(board.id).attachment("next.png")["url"]

    extra = await interaction.followup.send("more", file=file("f.png", b"f"), wait=True)
    assert names(h.message(extra.id)) == ["f.png"] and h.message(extra.id).attachment_bytes("f.png") == b"f"
    await extra.edit(attachments=[file("g.png", b"g")])  # a followup's own edit
    assert names(h.message(extra.id)) == ["g.png"] and h.outputs[-1].kind == "followup_edit"
    await interaction.edit_original_response(content="just text")  # keeps the picture
    assert names(h.message(board.id)) == ["next.png"]
    h.assert_all_answered()
    h.assert_no_errors()


async def test_discord_py_meets_the_upload_limits(h: Harness) -> None:
    channel = h.bot.get_channel(h.channel_id)
    ten = await channel.send(files=[file(f"{i}.png", b"x") for i in range(10)])
    assert len(h.message(ten.id).attachments) == 10
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(files=[file(f"{i}.png", b"x") for i in range(11)])
    assert (refused.value.status, refused.value.code) == (400, 50035)
    big = await channel.send(file=file("big.png", bytes(MAX_FILE_SIZE)))
    assert h.message(big.id).attachment("big.png")["size"] == MAX_FILE_SIZE
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(file=file("big.png", bytes(MAX_FILE_SIZE + 1)))
    assert (refused.value.status, refused.value.code, refused.value.text) == (413, 40005, "Request entity too large")
    with pytest.raises(discord.HTTPException) as refused:  # the eleventh attachment on an edit
        await ten.edit(attachments=[*ten.attachments, file("more.png", b"x")])
    assert refused.value.code == 50035 and "attachments" in str(refused.value)
    assert len(h.problems) == 3
    h.problems.clear()


def uploads(n: int, size: int = 1) -> list[Upload]:
    return [Upload(i, f"{i}.png", bytes(size)) for i in range(n)]


def listed(n: int, **entry) -> dict:
    return {"attachments": [{"id": i, "filename": f"{i}.png", **entry} for i in range(n)]}


EXISTING = set(range(1000, 1010))
# (what, check for n, n accepted, n refused, the field the refusal names)
CASES = [
    ("files", lambda n: check_message(listed(n), creating=True, files=uploads(n)), 10, 11, "attachments"),
    ("files unlisted", lambda n: check_message({}, creating=True, files=uploads(n)), 10, 11, "attachments"),
    ("description", lambda n: check_message(listed(1, description="d" * n), creating=True, files=uploads(1)),
     1024, 1025, "attachments.0.description"),
    ("new id", lambda n: check_message({"attachments": [{"id": n}]}, creating=True, files=uploads(1)),
     0, 1, "attachments.0.id"),
    ("kept id", lambda n: check_message({"attachments": [{"id": 1009 + n}]}, creating=False, existing=EXISTING),
     0, 1, "attachments.0.id"),
    ("kept and new", lambda n: check_message(
        {"attachments": [{"id": i} for i in sorted(EXISTING)[:n]] + [{"id": 0}]},
        creating=False, files=uploads(1), existing=EXISTING), 9, 10, "attachments"),
    ("added to kept", lambda n: check_message({}, creating=False, files=uploads(1), existing=set(range(n))),
     9, 10, "attachments"),
]


@pytest.mark.parametrize(("what", "check", "ok", "bad", "path"), CASES, ids=[c[0] for c in CASES])
def test_each_attachment_limit_is_accepted_and_refused_one_step_past_it(what, check, ok, bad, path) -> None:
    check(ok)
    with pytest.raises(DiscordError) as refused:
        check(bad)
    assert (refused.value.status, refused.value.code, refused.value.message) == (400, 50035, "Invalid Form Body")
    assert path in refused.value.describe(), refused.value.describe()


def test_a_file_past_10_mib_is_refused_as_discord_does_with_413() -> None:
    check_message({}, creating=True, files=uploads(1, MAX_FILE_SIZE))
    with pytest.raises(DiscordError) as refused:
        check_message({}, creating=True, files=uploads(1, MAX_FILE_SIZE + 1))
    assert (refused.value.status, refused.value.code) == (413, 40005)


def test_a_message_with_only_a_file_is_no_empty_message() -> None:
    check_message({"attachments": [{"id": 0}]}, creating=True, files=uploads(1))
    with pytest.raises(DiscordError) as refused:  # an entry naming no upload is no attachment
        check_message({"attachments": [{"id": 0}]}, creating=True)
    assert refused.value.code == 50035
    with pytest.raises(DiscordError) as refused:
        check_message({}, creating=True)
    assert refused.value.code == 50006
