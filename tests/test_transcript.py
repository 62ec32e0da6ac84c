"""What players read, as one text (issue 13): a seeded 2-player game played through the bot by clicks.

The transcript holds every public message and table, and for the first round every private panel after
each decision; later rounds list the decisions and public messages. It was read by eye once and is
compared from then on: a change in wording shows up as a diff to review. After a deliberate change,
`UPDATE_GOLDEN=1 pytest tests/test_transcript.py` writes it again (then read the diff).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from clicks_per_decision import NAMES, play
from support.bot_support import ADA, BEN, game

GOLDEN = Path(__file__).parent / "golden" / "transcript_2p.txt"
VOLATILE = [(re.compile(r"<t:\d+(:\w)?>"), "<t:…>"), (re.compile(r"channels/\d+/\d+/\d+"), "channels/…")]


def shown(msg) -> str:
    """A message as its reader sees it: text, embeds, and its controls as [buttons] and [▾ menus]."""
    parts = [msg.content or ""]
    for e in msg.embeds:
        parts += [f"## {e['title']}" if e.get("title") else "", e.get("description", "")]
        parts += [f"### {f['name']}\n{f['value']}" for f in e.get("fields", [])]
        parts += [(e.get("footer") or {}).get("text", "")]
    controls = []
    for c in msg.all_components():
        if c.get("type") == 2:
            controls.append(f"[{c.get('label', '')}{' (disabled)' if c.get('disabled') else ''}]")
        elif "options" in c:
            controls.append(f"[▾ {c.get('placeholder', '')}: {' | '.join(o['label'] for o in c['options'])}]")
    return plain("\n".join([p for p in parts if p] + ([" ".join(controls)] if controls else [])))


def plain(text: str) -> str:
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


class Transcript:
    def __init__(self):
        self.lines: list[str] = []
        self.seen: set[int] = set()  # public messages already written
        self.table: str = ""
        self.round = 0

    async def watch(self, h, user: int, chosen: str) -> None:
        record = game(h)
        state = record.state if record is not None else None
        if user:
            self.lines.append(f"\n>>> {NAMES[user]}: {chosen}")
        if user and self.round <= 1:
            panel = h.message(max(h.ephemeral_messages(user)))
            self.lines.append(f"[{NAMES[user]}'s panel, only they see it]\n{shown(panel)}")
        for msg_id in sorted(set(h.channel_messages) - self.seen):
            msg = h.message(msg_id)
            if msg_id == min(h.channel_messages):  # the table, written when the round changes
                continue
            self.seen.add(msg_id)
            self.lines.append(f"[public]\n{shown(msg)}")
        now_round = state.round if state is not None else 99
        if now_round != self.round:
            self.round = now_round
            self.lines.append(f"[public table]\n{shown(h.message(min(h.channel_messages)))}")


async def test_a_seeded_game_reads_as_it_was_reviewed(tmp_path):
    transcript = Transcript()
    await play(tmp_path, (ADA, BEN), computers=0, seed=11, watch=transcript.watch)
    text = "\n".join(transcript.lines).strip() + "\n"
    assert "final standings" in text and not re.search(r"\bai\d\b", text)
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text)
    assert GOLDEN.exists(), "no golden transcript yet: run with UPDATE_GOLDEN=1, read it, and commit it"
    expected = GOLDEN.read_text()
    assert text == expected, "what players read has changed: compare with tests/golden/transcript_2p.txt"
