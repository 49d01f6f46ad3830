"""Summoner actions and their text form: one verb, then card references.

A card played face up from the hand is written ``REF=face``: the position and the face its
player claims for it (``s#23=8h``). Faces are written in lower case so that the CLI's shortcut
(an upper-case face of your own card becomes its ref) leaves the claim alone. Every action is a
small frozen dataclass whose ``str`` parses back to an equal action::

    summon s#23=8h             summon the 8 of hearts s#23 (S-9)
    double s#31=8h s#23        lay s#31 on your summoned twin s#23: a double card (S-11)
    joker s#40=xb s#12         throw a joker to destroy the opponent's card s#12 (S-19)
    win s#3=xr s#9=xr          claim the instant win with jokers worth 4 (S-22)
    attack s#23 s#12           the card s#23 attacks the opponent's card s#12 (S-14)
    attack s#23+s#25 s#12      a combined attack of equal cards (S-16)
    attack s#23 life           a direct attack on an empty field (S-15)
    replace s#23 s#31=3c       replace the battle winner s#23 by s#31 (S-17, S-18)
    look                       see the cards drawn this turn now: the opponent's key shares first (S-6)
    end                        end the turn
    take                       take the direct damage of the opponent's last turn (S-21)
    stop s#40=xr               stop that damage with a joker (S-21)
    counter s#40=xr            answer a joker with a joker (S-20); several cards answer a win claim (S-22)
    pass                       let the joker (or the win claim) stand

>>> parse_action("attack s#3+s#4 s#12")
Attack(attackers=(CardRef.parse('s#3'), CardRef.parse('s#4')), target=CardRef.parse('s#12'))
>>> str(parse_action("SUMMON s#23=8H"))
'summon s#23=8h'
"""

from __future__ import annotations

from duelmail.errors import NotationError
from duelmail.games.base import Action, played_word, ref_word, split_verb
from duelmail.games.cards import Card, CardRef
from duelmail.util.classes import dataclass

LIFE = "life"


def face_text(face: Card) -> str:
    return str(face).lower()


def played(ref: CardRef, face: Card) -> str:
    return f"{ref}={face_text(face)}"


@dataclass(frozen=True)
class Summon(Action):
    card: CardRef
    face: Card

    def __str__(self) -> str:
        return f"summon {played(self.card, self.face)}"


@dataclass(frozen=True)
class Double(Action):
    card: CardRef
    face: Card
    target: CardRef

    def __str__(self) -> str:
        return f"double {played(self.card, self.face)} {self.target}"


@dataclass(frozen=True)
class Joker(Action):
    card: CardRef
    face: Card
    target: CardRef

    def __str__(self) -> str:
        return f"joker {played(self.card, self.face)} {self.target}"


@dataclass(frozen=True)
class Win(Action):
    cards: tuple[tuple[CardRef, Card], ...]

    def __str__(self) -> str:
        return "win " + " ".join(played(r, f) for r, f in self.cards)


@dataclass(frozen=True)
class Attack(Action):
    attackers: tuple[CardRef, ...]
    target: CardRef | None  # None: the opponent's life points

    def __str__(self) -> str:
        return f"attack {'+'.join(map(str, self.attackers))} {LIFE if self.target is None else self.target}"


@dataclass(frozen=True)
class Replace(Action):
    winner: CardRef
    card: CardRef
    face: Card

    def __str__(self) -> str:
        return f"replace {self.winner} {played(self.card, self.face)}"


@dataclass(frozen=True)
class End(Action):
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Look(Action):
    def __str__(self) -> str:
        return "look"


@dataclass(frozen=True)
class Take(Action):
    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True)
class Stop(Action):
    card: CardRef
    face: Card

    def __str__(self) -> str:
        return f"stop {played(self.card, self.face)}"


@dataclass(frozen=True)
class Counter(Action):
    cards: tuple[tuple[CardRef, Card], ...]

    def __str__(self) -> str:
        return "counter " + " ".join(played(r, f) for r, f in self.cards)


@dataclass(frozen=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


SummonerAction = Summon | Double | Joker | Win | Attack | Replace | End | Look | Take | Stop | Counter | Pass

_USAGE = {
    "summon": "summon REF=FACE",
    "double": "double REF=FACE TARGET",
    "joker": "joker REF=FACE TARGET",
    "win": "win REF=FACE REF=FACE ...",
    "attack": "attack REF[+REF...] TARGET|life",
    "replace": "replace WINNER REF=FACE",
    "end": "end",
    "look": "look",
    "take": "take",
    "stop": "stop REF=FACE",
    "counter": "counter REF=FACE [REF=FACE ...]",
    "pass": "pass",
}


def parse_action(text: str) -> SummonerAction:
    """Parse one action; raise ``NotationError`` quoting the text."""
    verb, args = split_verb(text, "Summoner", _USAGE)

    def usage() -> NotationError:
        return NotationError(f"{text!r}: expected '{_USAGE[verb]}'")

    def need(count: int) -> None:
        if len(args) != count:
            raise usage()

    def ref(word: str) -> CardRef:
        return ref_word(text, word, "s#17")

    def play(word: str) -> tuple[CardRef, Card]:
        return played_word(text, word, "s", "8h, 10s, qd, xr")

    if verb in ("summon", "stop"):
        need(1)
        r, f = play(args[0])
        return Summon(r, f) if verb == "summon" else Stop(r, f)
    if verb in ("double", "joker"):
        need(2)
        r, f = play(args[0])
        return Double(r, f, ref(args[1])) if verb == "double" else Joker(r, f, ref(args[1]))
    if verb in ("win", "counter"):
        if not args:
            raise usage()
        cards = tuple(play(w) for w in args)
        return Win(cards) if verb == "win" else Counter(cards)
    if verb == "attack":
        need(2)
        if not args[0] or any(not p for p in args[0].split("+")):
            raise usage()
        attackers = tuple(ref(p) for p in args[0].split("+"))
        target = None if args[1].lower() == LIFE else ref(args[1])
        return Attack(attackers, target)
    if verb == "replace":
        need(2)
        r, f = play(args[1])
        return Replace(ref(args[0]), r, f)
    need(0)
    return {"end": End, "look": Look, "take": Take, "pass": Pass}[verb]()
