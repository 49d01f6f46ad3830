"""The terms of Summoner that the rules, the text view and the picture share: the summoning budget, the
phases and a unit on the table.

Kept apart so that ``render.py`` and ``picture.py`` never import ``rules.py`` (which imports them).
"""

from __future__ import annotations

from duelmail.games.cards import CardRef
from duelmail.util.classes import dataclass

SUMMON_BUDGET = 14

# Phases. PRE, BATTLE, POST and ANSWER wait for the seat whose turn it is; CHAIN for the seat
# that may answer the last joker; CLAIM for the opponent of the seat that claimed the instant win;
# WINDOW for the opponent of the seat whose turn it is, answering a direct attack (S-21) or a battle (S-18).
# ANSWER happens only with the option mail-shortcuts, WINDOW only without it.
PRE, BATTLE, POST, ANSWER, CHAIN, CLAIM, OVER, WINDOW = range(8)
PHASE_NAMES = ("pre-summoning", "battle", "post-summoning", "answer to the direct attacks", "joker answer",
               "answer to the instant win claim", "game over", "answer window")


@dataclass(slots=True)
class Unit:
    """A summoned card or a double card (S-11). ``refs[0]`` names it."""

    refs: list[CardRef]
    attacked: bool = False

    def copy(self) -> Unit:
        return Unit(list(self.refs), self.attacked)
