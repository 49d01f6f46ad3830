"""The terms of Wizard Duel that the rules, the text view and the picture share: the phases.

Kept apart so that ``render.py`` and ``picture.py`` never import ``rules.py`` (which imports them).
"""

TURN, DEFEND, RETARGET, WINDOW, OVER = range(5)
PHASE_NAMES = ("turn", "defence", "new target", "attack window", "game over")
