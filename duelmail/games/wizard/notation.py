"""Wizard Duel actions and their text form: one verb, card references with their faces, a seat number.

A card played from the hand is written ``REF=face`` (``w#23=8h``): its position and the face its
player claims for it, checked when the card is turned up (Z-24). Faces are lower case, so the CLI's
shortcut (an upper-case face of your own card becomes its ref) leaves a claim alone. Seats are
numbers. Every action is a frozen dataclass whose ``str`` parses back to an equal action::

    pass                                  end the turn without attacking (Z-5); let an attack window go (Z-22)
    attack w#3=7h w#9=qh at 2             two cards of one suit at seat 2 (Z-7)
    defend w#12=9s w#30=2c                defend; the first card names the effect (Z-9, Z-10)
    defend w#12=9h at 0                   a hearts defence deflects at seat 0 (Z-12)
    take                                  no defence: lose a Life (Z-15)
    target 3                              the protected target's attacker picks a new one (Z-11)

>>> parse_action("attack w#3=7H w#9=QH at 2")
Attack(cards=((CardRef.parse('w#3'), Card.parse('7H')), (CardRef.parse('w#9'), Card.parse('QH'))), target=2)
>>> str(parse_action("DEFEND w#12=9H AT 0"))
'defend w#12=9h at 0'
"""

from __future__ import annotations

from duelmail.errors import NotationError
from duelmail.games.base import Action, played_word, split_verb
from duelmail.games.cards import Card, CardRef
from duelmail.util.classes import dataclass

Played = tuple[tuple[CardRef, Card], ...]


def face_text(face: Card) -> str:
    return str(face).lower()


def played(cards: Played) -> str:
    return " ".join(f"{r}={face_text(f)}" for r, f in cards)


@dataclass(frozen=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Attack(Action):
    cards: Played
    target: int

    def __str__(self) -> str:
        return f"attack {played(self.cards)} at {self.target}"


@dataclass(frozen=True)
class Defend(Action):
    cards: Played  # the first card decides the effect (Z-10)
    target: int | None = None  # the seat a hearts defence deflects at (Z-12)

    def __str__(self) -> str:
        return f"defend {played(self.cards)}" + ("" if self.target is None else f" at {self.target}")


@dataclass(frozen=True)
class Take(Action):
    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True)
class Target(Action):
    seat: int

    def __str__(self) -> str:
        return f"target {self.seat}"


WizardAction = Pass | Attack | Defend | Take | Target

_USAGE = {
    "pass": "pass",
    "attack": "attack REF=FACE REF=FACE at SEAT",
    "defend": "defend REF=FACE [REF=FACE ...] [at SEAT]",
    "take": "take",
    "target": "target SEAT",
}


def parse_action(text: str) -> WizardAction:
    """Parse one action; raise ``NotationError`` quoting the text."""
    verb, args = split_verb(text, "Wizard Duel", _USAGE)

    def usage() -> NotationError:
        return NotationError(f"{text!r}: expected '{_USAGE[verb]}'")

    def seat(word: str) -> int:
        if not (word.isascii() and word.isdigit() and len(word) <= 2):
            raise NotationError(f"{text!r}: {word!r} is not a seat number")
        return int(word)

    def play(word: str) -> tuple[CardRef, Card]:
        ref, face = played_word(text, word, "w", "8h, 10s, qd", fold_case=True)
        if face.is_joker:
            raise NotationError(f"{text!r}: Wizard Duel has no jokers")
        return ref, face

    target = None
    if len(args) >= 2 and args[-2].lower() == "at":
        target = seat(args[-1])
        args = args[:-2]
    if verb == "attack":
        if len(args) != 2 or target is None:
            raise usage()
        return Attack(tuple(play(w) for w in args), target)
    if verb == "defend":
        if not args:
            raise usage()
        return Defend(tuple(play(w) for w in args), target)
    if target is not None:
        raise usage()
    if verb == "target":
        if len(args) != 1:
            raise usage()
        return Target(seat(args[0]))
    if args:
        raise usage()
    return Pass() if verb == "pass" else Take()
