"""A computer player for Augsburg 1520 that sees only its own player_view.

    from engine.ai import ComputerPlayer
    bot = ComputerPlayer(seed=7)
    action = bot.decide(player_view(state, "ada"))   # an action model, always a legal one

Benchmark: python -m engine.ai.simulate --players 4 --games 1000 --opponents random --seed 1
"""

from .player import ComputerPlayer

__all__ = ["ComputerPlayer"]
