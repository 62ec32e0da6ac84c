"""Every sentence a player reads, free of discord.py: used by the Discord bot and the terminal game alike.

The engine returns codes and data; storage keeps events, never sentences.
Here they become words: `Words` (words.py) carries the language; the modules
are named for what they word: names of things, the log of events, phases,
moves and their labels, notices (refusals by code), the table, the rules.
"""

from .languages import LANGUAGES, language_of
from .words import ENGLISH, People, Words, words

__all__ = ["ENGLISH", "LANGUAGES", "People", "Words", "language_of", "words"]
