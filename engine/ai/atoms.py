"""Numbers standing for the edition, the horizon and the weights in the keys of the computer players'
remembered answers.

A key tuple that holds such an object (a class instance) stays an object Python's garbage collector walks at
every full collection; a tuple of numbers and text only is let go of by the collector the first time it sees
it. A bot playing thousands of games remembers thousands of answers between two forgettings (memory.py):
keyed by the objects themselves they were a fifth of what its full collections walked (issue 44). The
numbers are never reused: there are few editions and weights, and a few hundred horizons in a process.
"""

from __future__ import annotations

from collections.abc import Hashable

_NUMBERS: dict[Hashable, int] = {}


def atom(value: Hashable) -> int:
    """The same number for equal values, a new one for a value not seen before."""
    number = _NUMBERS.get(value)
    if number is None:
        number = _NUMBERS[value] = len(_NUMBERS)
    return number
