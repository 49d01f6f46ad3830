"""The terms of DUEL skirmish that the rules and the picture share: the size of a base.

Kept apart so that ``picture.py`` never imports ``rules.py`` (which imports them).
"""

from fractions import Fraction

BASE_RADIUS = Fraction(1, 2)  # K-32: bases are 1 inch across


_COMPASS = {"n": "north", "s": "south", "e": "east", "w": "west", "ne": "north-east", "nw": "north-west",
            "se": "south-east", "sw": "south-west"}


def piece_words(pid: str, short: bool = False) -> str:
    """A terrain piece's id as a player says it: ``wall-ne`` is the north-east wall, ``wall-south`` the south wall,
    ``old-tree`` the old tree. ``short``: the side as a map writes it, for a label on the picture (``NE wall``)."""
    head, _, side = pid.rpartition("-")
    side = _COMPASS.get(side, side)
    if head and side in _COMPASS.values():
        if short:
            side = "".join(w[0] for w in side.split("-")).upper()
        return f"{side} {head.replace('-', ' ')}"
    return pid.replace("-", " ")
