"""A channel that stays clean (issue 43): `python tests/clean_channel.py`.

Plays whole games through the bot and the project's fake Discord as tests/clicks_per_decision.py plays them
(people decide on the panel on their screen, `--think` seconds a decision), with the bot's own pace as in
production (CHANNEL_OPS_PER_5S=4) and Discord's rate limits modelled (5 message operations per channel
per window). Discord's window is 5 seconds; here it lasts `--window` seconds (the bot's pace and the fake's
limits both), so that a game takes seconds, as tests/test_pacing.py shortens it: what is counted is how
many operations fall in one window, whatever its length.

Prints, per game: the ping messages posted (public lines without an embed: "your move", reminders,
heads-up lines; not the table, not the standings), those left in the channel at the end and how many of
those still notify someone, the messages deleted; and the most message operations (creates, edits,
deletes) the channel saw within one window, two ways:

- as Discord counts them (its channel bucket, limit 5): those through the channel's routes, by when they
  reached it;
- as the bot counts them (its budget, CHANNEL_OPS_PER_5S=4): every public one, follow-ups through an
  interaction's token too, at the turn the bot's pace gave it (pacing.py; each operation is matched to
  the earliest turn before it not yet matched, and one with none left is counted as unpaced).

The two differ: the bot counts an operation when it takes its turn, and the request reaches Discord some
milliseconds later (a table edit reads and draws the game in between; discord.py holds a request while
Discord's bucket says it is empty), so a window as Discord counts it can hold one more than the bot's.
Also the 429s Discord gave. `--window 0` plays unpaced, as the other tests do (only pings are counted).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

from clicks_per_decision import DAN, EVE, play  # noqa: E402
from support.bot_support import ADA, BEN, CLEO  # noqa: E402
from support.fake_discord import Harness, RateLimits  # noqa: E402
from support.interaction_routes import WEBHOOK  # noqa: E402
from support.ratelimits import MESSAGE_OPS  # noqa: E402

PACE = 4  # CHANNEL_OPS_PER_5S, the bot's default
EPHEMERAL = 64
SETUPS = {"3+2": ((ADA, BEN, CLEO), 2), "5": ((ADA, BEN, CLEO, DAN, EVE), 0)}


@dataclass
class Figures:
    decisions: int = 0
    posted: int = 0  # ping messages posted in the game's channel
    left: int = 0  # ... still there at the end
    notifying: int = 0  # ... of those, still notifying someone
    deleted: int = 0  # public messages the bot deleted
    as_discord_counts: int = 0  # most operations through the channel's routes within one window, on arrival
    as_the_bot_counts: int = 0  # most public operations of any route within one window, at their turns
    unpaced: int = 0  # public operations that went out on no turn of the bot's pace
    rate_limited: int = 0  # 429s Discord gave
    paced: bool = True

    def line(self, label: str) -> str:
        pace = (f" most_ops_per_window: as_discord_counts={self.as_discord_counts} (its limit: 5) "
                f"as_the_bot_counts={self.as_the_bot_counts} (it keeps {PACE}) unpaced={self.unpaced} "
                f"429s={self.rate_limited}")
        return (f"{label}: decisions={self.decisions} ping_messages_posted={self.posted} left_at_end={self.left} "
                f"(notifying {self.notifying}) deleted={self.deleted}" + (pace if self.paced else " (unpaced)"))


def _ping_lines(h: Harness, channel_id: int, live: bool) -> list:
    """The public lines without an embed in the channel: those still there (`live`), or all ever posted."""
    found = h.messages_in(channel_id).values() if live else [m for m in h.messages.values()
                                                              if m.channel_id == channel_id]
    return [m for m in found if not m.ephemeral and not m.embeds]


def turns_taken(times: list[float], turns: list[float]) -> tuple[list[float], int]:
    """The turn of the bot's pace each operation went out on (`times`: when each reached Discord): the
    earliest turn before it not yet taken; and how many operations found none (unpaced)."""
    taken, unpaced, waiting = [], 0, deque(sorted(turns))
    for at in sorted(times):
        if waiting and waiting[0] <= at:
            taken.append(waiting.popleft())
        else:
            unpaced += 1
    return taken, unpaced


def public_ops(h: Harness, channel_id: int) -> tuple[list[float], list[float]]:
    """When each public message operation in the channel reached Discord: through the channel's routes, and
    of any route (an interaction's follow-ups too; its callbacks are answers, which the bot never paces)."""
    channel, every = [], []
    for req in h.requests:
        if not 200 <= req.status < 300:
            continue
        if (req.method, req.route) in MESSAGE_OPS:
            if req.channel_id == channel_id:
                channel.append(req.at)
                every.append(req.at)
            continue
        if not req.route.startswith(WEBHOOK) or req.method not in ("POST", "PATCH", "DELETE"):
            continue
        if req.method == "POST":
            if int((req.json or {}).get("flags") or 0) & EPHEMERAL:
                continue
            mid = int(req.response["id"]) if isinstance(req.response, dict) else None
        else:
            token = h.interactions.get(req.params["webhook_token"])
            raw = req.params.get("message_id")
            mid = int(raw) if raw is not None else token.original_id if token is not None else None
        msg = h.messages.get(mid) if mid is not None else None
        if msg is not None and not msg.ephemeral and msg.channel_id == channel_id:
            every.append(req.at)
    return channel, every


def busiest(times: list[float], window: float) -> int:
    """The most of `times` within any one `window` (as Discord counts: those after `now - window`)."""
    seen: deque[float] = deque()
    most = 0
    for at in sorted(times):
        seen.append(at)
        while seen[0] <= at - window:
            seen.popleft()
        most = max(most, len(seen))
    return most


async def measure(folder: Path, setup: str, seed: int = 1, window: float = 0.25, think: float = 30.0,
                  rounds: int | None = None, end=None) -> Figures:
    """One game of `setup` ("3+2" or "5") played to its end (or through `rounds` rounds), and its figures;
    `window` 0: unpaced. `end(h)`: called at the end, before the bot and the fake close."""
    players, computers = SETUPS[setup]
    figures = Figures(paced=bool(window))
    turns: dict[int, list[float]] = {}  # per channel: when the bot's pace gave a turn

    def tune(h: Harness) -> None:
        pacing = h.bot.get_cog("Augsburg").presenter.pacing
        pacing.window = window  # the bot's pace, in the same short window
        turn = pacing.turn

        async def noted(channel_id: int, counted: bool = True) -> None:
            await turn(channel_id, counted)
            turns.setdefault(channel_id, []).append(time.monotonic())  # (the fake's clock for requests)

        pacing.turn = noted

    async def watch(h: Harness, user: int, chosen: str) -> None:  # after the last decision: the end
        channel = h.channel_id
        figures.posted = len(_ping_lines(h, channel, live=False))
        left = _ping_lines(h, channel, live=True)
        figures.left, figures.notifying = len(left), sum(bool(m.notified(players)) for m in left)
        figures.deleted = sum(1 for m in h.posted_in(channel).values() if m.deleted)
        if window:
            through_channel, every = public_ops(h, channel)
            figures.as_discord_counts = busiest(through_channel, window)
            taken, figures.unpaced = turns_taken(every, turns.get(channel, []))
            figures.as_the_bot_counts = busiest(taken, window)
            figures.rate_limited = h.stats()["rate_limited"]
        if end is not None:
            end(h)

    until = None if rounds is None else (lambda record: record.state is not None and record.state.round > rounds)
    paced = {"settings": {"channel_ops_per_5s": PACE, "requests_per_second": 35.0}, "tune": tune,
             "fake": {"rate_limits": RateLimits(message_period=window)}} if window else {}
    folder = folder / f"{setup}.{seed}.{window}"  # a database of its own: commands sync to each fake
    folder.mkdir()
    counts = await play(folder, players, computers, seed, watch=watch, think=think, until=until, **paced)
    figures.decisions = counts.decisions
    return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="*", default=[1])
    parser.add_argument("--only", choices=tuple(SETUPS))
    parser.add_argument("--window", type=float, default=0.25, help="seconds that stand in for Discord's 5")
    parser.add_argument("--think", type=float, default=30.0, help="seconds each decision takes its person")
    parser.add_argument("--rounds", type=int, help="stop after this many rounds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for setup in SETUPS:
            if args.only not in (None, setup):
                continue
            for seed in args.seeds:
                figures = await measure(Path(folder), setup, seed, args.window, args.think, args.rounds)
                print(figures.line(f"{setup}, seed {seed}"))


if __name__ == "__main__":
    asyncio.run(main())
