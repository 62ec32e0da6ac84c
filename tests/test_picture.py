"""The table as a picture (issue 15): golden pictures, drawn from public information only, small enough
for Discord, in every language, and `augsburg play --picture`.

After a deliberate change of the drawing, `UPDATE_GOLDEN=1 pytest tests/test_picture.py` draws the golden
pictures again (then look at them).
"""

from __future__ import annotations

import asyncio
import gc
import io
import os
import random
import threading
import unicodedata
from pathlib import Path

import pytest
from bench_picture import NAMES, names_of, played, position
from PIL import Image, ImageChops, ImageStat

from bot.picture import glyphs, hand_picture, table_alt_text, table_picture
from bot.picture.layout import WIDTH, tokens
from bot.terminal.game import run
from bot.wording import words
from engine import player_view, spectator_view
from engine.editions import default

CARD_PRICE = default().card_price  # the shipped edition's

GOLDEN = Path(__file__).parent / "golden" / "pictures"
CASES = [(players, stage) for players in (2, 5) for stage in ("start", "mid", "end")]
LIMIT = 150 * 1024


@pytest.fixture(scope="module")
def states():
    return {case: position(*case) for case in CASES}


@pytest.fixture(scope="module")
def stories():
    return {case: played(*case)[1] for case in CASES}


def picture(state, lang="en", told=None) -> bytes:
    return table_picture(spectator_view(state), names_of(state), words(lang), told)


def opened(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}p-{c[1]}")
def test_golden_pictures(states, stories, case):
    data = picture(states[case], told=stories[case])  # who won what this round; at the end, the breakdown
    path = GOLDEN / f"table_{case[0]}p_{case[1]}.png"
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    got, want = opened(data), opened(path.read_bytes())
    assert got.size == want.size
    difference = sum(ImageStat.Stat(ImageChops.difference(got, want)).mean) / 3
    assert difference < 1.0, f"{path.name} changed: mean difference {difference:.2f}"


def test_golden_hand(states):
    state = states[(5, "mid")]
    data = hand_picture(player_view(state, state.players[0].id), words("en"))
    path = GOLDEN / "hand_5p_mid.png"
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        path.write_bytes(data)
    got, want = opened(data), opened(path.read_bytes())
    assert got.size == want.size and sum(ImageStat.Stat(ImageChops.difference(got, want)).mean) / 3 < 1.0


def test_a_picture_drawn_where_a_taller_one_was_drawn_is_the_picture_drawn_on_a_new_sheet(states):
    """Each drawing thread draws every picture on one sheet, wiped between them (layout.canvas): nothing of
    the picture before may show, below the new one's end nor under it."""
    def fresh(draw) -> bytes:  # on a thread of its own: a sheet never drawn on
        drawn: list[bytes] = []
        thread = threading.Thread(target=lambda: drawn.append(draw()))
        thread.start()
        thread.join()
        return drawn[0]

    short, tall = states[(2, "start")], states[(5, "end")]
    hand = player_view(short, short.players[0].id)
    for draw in (lambda: picture(short), lambda: hand_picture(hand, words("en"))):
        picture(tall)  # a taller picture first, on this thread's sheet
        again = draw()
        assert again == fresh(draw) and opened(again).size[1] < opened(picture(tall)).size[1]


def test_a_players_view_is_refused(states):
    state = states[(2, "mid")]
    view = player_view(state, state.players[0].id)
    with pytest.raises(ValueError):
        table_picture(view, names_of(state), words("en"))
    with pytest.raises(ValueError):
        table_alt_text(view, names_of(state), words("en"))
    with pytest.raises(ValueError):
        hand_picture(spectator_view(state), words("en"))


@pytest.mark.parametrize("case", [(2, "start"), (5, "mid"), (5, "end")], ids=str)
def test_hidden_information_does_not_change_the_picture(states, case):
    state = states[case]
    secret = state.model_copy(deep=True)
    rnd = random.Random(1)
    for p in secret.players:
        p.money += 1234
        p.hand = (*p.hand[1:], "joker", "joker")
        p.offered = ("joker",) * len(p.offered)  # who still must choose is public; what they were offered is not
    top, rest = secret.deck[:1], list(secret.deck[1:])
    rnd.shuffle(rest)
    secret.deck = (*top, *rest)
    assert secret != state
    assert picture(secret) == picture(state)
    # ... while a public change shows.
    public = state.model_copy(deep=True)
    public.players[0].score += 3
    assert picture(public) != picture(state)
    if state.deck:  # the deck's top card shows its price, not which card it is
        same_price = next(c for c in set(CARD_PRICE) if CARD_PRICE[c] == CARD_PRICE[state.deck[0]]
                          and c != state.deck[0])
        swapped = state.model_copy(deep=True)
        swapped.deck = (same_price, *swapped.deck[1:])
        assert picture(swapped) == picture(state)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}p-{c[1]}")
def test_size_and_width(states, case):
    data = picture(states[case])
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) <= LIMIT
    assert Image.open(io.BytesIO(data)).width == WIDTH <= 800


def test_every_language_draws_its_own_picture(states):
    state = states[(5, "mid")]
    drawn = {lang: picture(state, lang) for lang in ("en", "de", "it")}
    assert len(set(drawn.values())) == 3
    for lang in ("de", "it"):
        alt = table_alt_text(spectator_view(state), names_of(state), words(lang))
        assert alt != table_alt_text(spectator_view(state), names_of(state), words("en")) and len(alt) <= 1000


def test_alt_text_says_what_the_picture_shows(states):
    state = states[(5, "mid")]
    alt = table_alt_text(spectator_view(state), names_of(state), words("en"))
    assert len(alt) <= 1000 and "round" in alt
    assert all(name in alt for name in NAMES)


def test_the_shipped_font_draws_every_letter_the_game_writes_and_comes_with_its_licence():
    from babel.messages.pofile import read_po

    from bot.wording.words import CATALOGUES

    letters = set(" ".join(NAMES)) | set("—–…·")
    for lang in ("de", "it"):
        with open(CATALOGUES / lang / "LC_MESSAGES" / "augsburg.po", "rb") as po:
            for message in read_po(po, locale=lang):
                texts = message.string if isinstance(message.string, tuple) else (message.string,)
                letters |= set("".join(t for t in texts if t))
    letters = {c for c in letters if unicodedata.category(c)[0] in "LNP"}  # not the emoji of messages
    assert not [c for c in letters if not glyphs.has(c)], "every letter is the font's own: nothing composed"
    assert glyphs.FONT.name == "DejaVuSans.ttf" and glyphs.FONT.exists()
    licence = (glyphs.FONT.parent / "LICENSE-DejaVu.txt").read_text()
    assert "Bitstream Vera Fonts Copyright" in licence and "DejaVu changes are in public domain" in licence
    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    assert '"picture/fonts/*"' in pyproject, "the font is installed with the package"


def test_text_is_readable_on_a_phone():
    from bot.picture.layout import PHONE, SMALL

    scale = PHONE / WIDTH  # a phone shows the picture 360 px wide
    assert SMALL * scale >= 13, "the smallest text, on a phone"
    top, bottom = glyphs.ink("H", SMALL)[1::2]
    assert (bottom - top) * scale >= 9.5, "its capitals, on a phone"


def test_the_end_ranks_the_players_and_the_track_tells_high_scores_apart(states):
    from bot.picture import players

    state = states[(5, "end")].model_copy(deep=True)
    view = spectator_view(state)
    order = players.order(view)
    scores = [view.players[seat].score for _, seat in order]
    assert view.players[order[0][1]].id in view.winners and scores[1:] == sorted(scores[1:], reverse=True)
    assert [place for place, _ in order] == sorted(place for place, _ in order)
    for s, p in zip((59, 89, 20, 10, 5), state.players):
        p.score = s
    assert players.track_end(spectator_view(state)) == 90  # 59 and 89 no longer both sit at the end (45)
    assert players.track_end(spectator_view(states[(5, "mid")])) == 45  # as on the board, while scores are low


def test_tokens_tell_players_apart():
    assert tokens(["Ada", "Ben"]) == ["A", "B"]
    assert tokens(["Computer 1", "Computer 2", "Cleo"]) == ["C1", "C2", "CO"]
    assert len(set(tokens(["Ann", "Ann", "Bob"]))) == 3


def test_the_terminal_game_draws_the_table(tmp_path):
    target = tmp_path / "table.png"
    out = io.StringIO()
    code = asyncio.run(run(str(tmp_path / "t.sqlite3"), 1, False, True, 5, stdin=io.StringIO("\n1\n" * 300),
                           stdout=out, picture=str(target)))
    assert code == 0
    image = Image.open(target)
    assert image.format == "PNG" and image.width == WIDTH
    assert not (tmp_path / "table.png.part").exists()


def test_a_cached_run_of_text_is_nothing_for_the_garbage_collector_to_walk():
    """Up to 4,096 laid-out runs are kept: as Images they were some 8,000 objects more for every full
    collection to walk (issue 44). Kept as their pixels, a run is no object the collector tracks, and
    stamping it gives the same picture (the golden pictures above)."""
    from PIL import Image, ImageDraw

    from bot.picture import glyphs

    im = Image.new("RGB", (200, 40), (255, 255, 255))
    end = glyphs.draw(ImageDraw.Draw(im), (4, 4), "Fugger: 12 Gulden", 18, (0, 0, 0))
    assert end > 4 and im.getbbox() is not None  # it wrote something
    gc.collect()
    gc.collect()  # (the first untracks the size's tuple inside, the second the run's)
    assert not gc.is_tracked(glyphs._run("Fugger: 12 Gulden", 18))


def test_the_runs_of_text_kept_stay_within_their_bytes_however_many_texts_are_drawn():
    """A run's mask is some 10-50 KB. Kept by their count (4,096), the texts of a thousand tables (names,
    numbers, the story's lines) grew the pictures' worker by 60 MB over ten minutes of the load benchmark
    (issue 44). Kept within RUN_BYTES, new texts push the oldest out, and the memory they hold stays put."""
    import tracemalloc

    from PIL import ImageDraw

    d = ImageDraw.Draw(Image.new("RGB", (1200, 80), (255, 255, 255)))
    glyphs.draw(d, (4, 4), "Fugger", 40, (0, 0, 0))  # the font loaded before the count starts
    tracemalloc.start()
    try:
        drawn = 0
        for i in range(1000):  # some 50 KB each: three times what may be kept
            text = f"Welser {i:04d} lent the Emperor a small fortune at last"
            drawn += len(glyphs._run(text, 40)[0])
            glyphs.draw(d, (4, 4), text, 40, (0, 0, 0))
        held, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert drawn > 3 * glyphs.RUN_BYTES  # (the texts were big enough to overflow it)
    assert held < glyphs.RUN_BYTES + 2**20
