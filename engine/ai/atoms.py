"""Numbers standing for the edition, the horizon and the weights in the keys of the computer players'
remembered answers.

A key tuple that holds such an object (a class instance) stays an object Python's garbage collector walks at
every full collection; a tuple of numbers and text only is let go of by the collector once it has seen it
(issue 44: a process that played 100 games without forgetting its answers tracked 87,717 objects with the
objects in the keys, 35,878 with numbers). The numbers are never reused: there are few editions and
weights, and a few hundred horizons in a process.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable

_NUMBERS: dict[Hashable, int] = {}
_NEW = threading.Lock()  # heavy decisions may run in a thread: two new values must not get one number


def atom(value: Hashable) -> int:
    """The same number for equal values, a new one for a value not seen before."""
    number = _NUMBERS.get(value)
    if number is None:
        with _NEW:
            number = _NUMBERS.setdefault(value, len(_NUMBERS))
    return number
