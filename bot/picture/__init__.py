"""The table as a picture (issue 15): pure functions from views to PNG bytes, no Discord, no I/O.

    table_picture(spectator_view(state), people, w) -> bytes   # the public table
    table_alt_text(spectator_view(state), people, w) -> str    # the same, for screen readers
    hand_picture(player_view(state, player), w) -> bytes        # one player's own hand, for them alone
"""

from .hand import hand_picture
from .table import table_alt_text, table_picture

__all__ = ["hand_picture", "table_alt_text", "table_picture"]
