"""Grid Duel actions and their text form: a verb, then card references, spaces and an orientation.

Spaces are named ``a1`` .. ``e5`` (columns a-e from seat 0's left, rows 1-5 from seat 0's side, G-5).
An orientation is ``upright`` (the default, never written), ``right``, ``inverted`` or ``left``: where
the card's top points, seen from its owner's seat (G-22). ``hidden`` plays a card face down::

    play a#3 c3 hidden        play a#3 face down to the empty space c3 (G-9)
    play a#3 d3 left          play a#3 face up, lying to the left, to d3: an empty space, an enemy
                              space (an attack, G-10) or a battle you attack (G-11)
    ally a#5 c3               play the Ally a#5 face up onto your card at c3 (G-23)
    merge a#6 c3 right        merge a#6 face up, lying right, into your card at c3 (G-24)
    move c3 c4                move your card at c3 one space (G-12; two with Swift, G-25)
    move c3 d3 right          ... into an enemy space: the card turns face up, lying to the right
    move a#5 c2               move the card named: an Ally steps off the card it lies on (G-23)
    reveal a#3 inverted       turn your face-down a#3 face up, upside down (G-15)
    orient b#2 left           orient your card that a battle turned face up (G-8)
    concede d3                give up the battle you defend at d3 (G-16)
    end                       end the game (G-13)
    pass                      only when no other action is possible (G-14)

>>> parse_action("play a#3 d3 left")
Place(how='play', card=CardRef.parse('a#3'), to='d3', hidden=False, orient=3)
>>> str(parse_action("  MOVE  c3   c4 upright "))
'move c3 c4'
"""

from __future__ import annotations

import re

from duelmail.errors import NotationError
from duelmail.games.base import Action, split_verb
from duelmail.games.cards import CardRef
from duelmail.util.classes import dataclass

ORIENTS = ("upright", "right", "inverted", "left")
HIDDEN = "hidden"
PLACES = ("play", "ally", "merge")
_POS = re.compile(r"[a-e][1-5]")


def orient_word(o: int) -> str:
    return ORIENTS[o]


def _suffix(o: int) -> str:
    return "" if o == 0 else f" {ORIENTS[o]}"


@dataclass(frozen=True)
class Place(Action):
    """Play a card from the hand: ``how`` is ``play``, ``ally`` or ``merge``."""

    how: str
    card: CardRef
    to: str
    hidden: bool = False
    orient: int = 0

    def __str__(self) -> str:
        tail = f" {HIDDEN}" if self.hidden else _suffix(self.orient)
        return f"{self.how} {self.card} {self.to}{tail}"


@dataclass(frozen=True)
class Move(Action):
    """Move the card holding the space ``frm``, or (``card``, rules version 6) the card named, ``frm`` then ""."""

    frm: str
    to: str
    orient: int = 0
    card: CardRef | None = None

    def __str__(self) -> str:
        return f"move {self.card or self.frm} {self.to}{_suffix(self.orient)}"


@dataclass(frozen=True)
class Reveal(Action):
    card: CardRef
    orient: int = 0

    def __str__(self) -> str:
        return f"reveal {self.card}{_suffix(self.orient)}"


@dataclass(frozen=True)
class Orient(Action):
    card: CardRef
    orient: int

    def __str__(self) -> str:
        return f"orient {self.card} {ORIENTS[self.orient]}"


@dataclass(frozen=True)
class Concede(Action):
    at: str

    def __str__(self) -> str:
        return f"concede {self.at}"


@dataclass(frozen=True)
class End(Action):
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


GridAction = Place | Move | Reveal | Orient | Concede | End | Pass
FREE = (Reveal, Orient, Concede)  # extra actions: any number, before the turn's one action (G-7)

_USAGE = {
    "play": "play REF SPACE [ORIENTATION|hidden]",
    "ally": "ally REF SPACE [ORIENTATION|hidden]",
    "merge": "merge REF SPACE [ORIENTATION|hidden]",
    "move": "move FROM|REF TO [ORIENTATION]",
    "reveal": "reveal REF [ORIENTATION]",
    "orient": "orient REF ORIENTATION",
    "concede": "concede SPACE",
    "end": "end",
    "pass": "pass",
}


def parse_action(text: str) -> GridAction:
    """Parse one action; raise ``NotationError`` quoting the text."""
    verb, args = split_verb(text, "Grid Duel", _USAGE)
    args = [w.lower() for w in args]

    def bad(why: str) -> NotationError:
        return NotationError(f"{text!r}: {why} (expected '{_USAGE[verb]}'; orientations: "
                             f"{', '.join(ORIENTS)})")

    def need(lo: int, hi: int) -> None:
        if not lo <= len(args) <= hi:
            raise bad(f"{len(args)} word(s) after {verb!r}")

    def ref(word: str) -> CardRef:
        try:
            return CardRef.parse(word)
        except NotationError:
            raise bad(f"{word!r} is not a card reference like a#17") from None

    def pos(word: str) -> str:
        if not _POS.fullmatch(word):
            raise bad(f"{word!r} is not a space a1..e5")
        return word

    def orient(word: str) -> int:
        if word not in ORIENTS:
            raise bad(f"{word!r} is not an orientation")
        return ORIENTS.index(word)

    if verb in PLACES:
        need(2, 3)
        card, to = ref(args[0]), pos(args[1])
        if len(args) == 3 and args[2] == HIDDEN:
            return Place(verb, card, to, True, 0)
        return Place(verb, card, to, False, orient(args[2]) if len(args) == 3 else 0)
    if verb == "move":
        need(2, 3)
        to, how = pos(args[1]), orient(args[2]) if len(args) == 3 else 0
        if "#" in args[0]:
            return Move("", to, how, ref(args[0]))
        return Move(pos(args[0]), to, how)
    if verb == "reveal":
        need(1, 2)
        return Reveal(ref(args[0]), orient(args[1]) if len(args) == 2 else 0)
    if verb == "orient":
        need(2, 2)
        return Orient(ref(args[0]), orient(args[1]))
    if verb == "concede":
        need(1, 1)
        return Concede(pos(args[0]))
    need(0, 0)
    return End() if verb == "end" else Pass()
