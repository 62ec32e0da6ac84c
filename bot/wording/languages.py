"""The languages the game is written in, and which one a locale asks for (Discord's or the system's)."""

from __future__ import annotations

LANGUAGES = ("en", "de", "it")  # English is the source: its catalogue is the code itself


def language_of(locale: object) -> str:
    """One of LANGUAGES for a Discord locale ('de', 'it', 'en-US', discord.Locale.german...) or a system one
    ('de_DE.UTF-8'); English for anything else."""
    text = str(getattr(locale, "value", locale) or "").lower().replace("_", "-")
    lang = text.split("-")[0].split(".")[0]
    return lang if lang in LANGUAGES else "en"
