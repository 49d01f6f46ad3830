"""The terms of DUEL skirmish that the rules and the picture share: the size of a base.

Kept apart so that ``picture.py`` never imports ``rules.py`` (which imports them).
"""

from fractions import Fraction

BASE_RADIUS = Fraction(1, 2)  # K-32: bases are 1 inch across
