"""Warlords actions and their text form: one verb, then card references (``-`` for none).

Every action is a small frozen dataclass whose ``str`` parses back to an equal action::

    warlord a#3          play a#3 face down as a Warlord (W-7)
    exchange a#3 a#9     discard the Warlord a#3, play a#9 face down in its place (W-8)
    ace a#9 b#4          outside battle: play the Ace a#9, discarding the Warlord b#4 (W-18)
    ace a#9              in battle, as the defender: play the Ace a#9 (W-19)
    joker a#52           play a Reinforcements joker (W-25, W-26)
    attack a#3 a#17      attack with the Warlord a#3 leading the Army a#17 (W-10)
    attack - a#17        attack with the Army a#17 and no Warlord
    end                  end the turn without attacking
    defend a#3 a#20      defend with a Warlord and an Army (W-11); either may be ``-``
    defend - -           take the attack without defending
    support a#22         add a Support card (W-12); ``support -`` adds none
    accept               the defender takes the damage (W-20) and begins its own turn

>>> parse_action("attack - a#17")
Attack(warlord=None, army=CardRef.parse('a#17'))
>>> str(parse_action("  DEFEND  b#3   - "))
'defend b#3 -'
"""

from __future__ import annotations

from duelmail.errors import NotationError
from duelmail.games.base import Action, ref_word, split_verb
from duelmail.games.cards import CardRef
from duelmail.util.classes import dataclass

NONE = "-"


def _ref(ref: CardRef | None) -> str:
    return NONE if ref is None else str(ref)


@dataclass(frozen=True)
class PlayWarlord(Action):
    card: CardRef

    def __str__(self) -> str:
        return f"warlord {self.card}"


@dataclass(frozen=True)
class Exchange(Action):
    old: CardRef
    new: CardRef

    def __str__(self) -> str:
        return f"exchange {self.old} {self.new}"


@dataclass(frozen=True)
class PlayAce(Action):
    """An Ace: with a ``target`` Warlord outside battle, without one in battle."""

    card: CardRef
    target: CardRef | None = None

    def __str__(self) -> str:
        return f"ace {self.card}" + ("" if self.target is None else f" {self.target}")


@dataclass(frozen=True)
class Reinforce(Action):
    card: CardRef

    def __str__(self) -> str:
        return f"joker {self.card}"


@dataclass(frozen=True)
class Attack(Action):
    warlord: CardRef | None
    army: CardRef

    def __str__(self) -> str:
        return f"attack {_ref(self.warlord)} {self.army}"


@dataclass(frozen=True)
class EndTurn(Action):
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Defend(Action):
    warlord: CardRef | None
    army: CardRef | None

    def __str__(self) -> str:
        return f"defend {_ref(self.warlord)} {_ref(self.army)}"


@dataclass(frozen=True)
class Support(Action):
    card: CardRef | None
    accept: bool = False  # the defender waives its last chance in advance (W-20)

    def __str__(self) -> str:
        return f"support {_ref(self.card)}" + (" accept" if self.accept else "")


@dataclass(frozen=True)
class Accept(Action):
    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True)
class Pass(Action):
    """The answer that lets an answer window go by (W-26: no emergency joker)."""

    def __str__(self) -> str:
        return "pass"


WarlordsAction = PlayWarlord | Exchange | PlayAce | Reinforce | Attack | EndTurn | Defend | Support | Accept | Pass

_USAGE = {
    "warlord": "warlord REF",
    "exchange": "exchange OLD NEW",
    "ace": "ace REF [TARGET]",
    "joker": "joker REF",
    "attack": "attack WARLORD|- ARMY",
    "end": "end",
    "defend": "defend WARLORD|- ARMY|-",
    "support": "support REF|- [accept]",
    "accept": "accept",
    "pass": "pass",
}


def parse_action(text: str) -> WarlordsAction:
    """Parse one action; raise ``NotationError`` quoting the text."""
    verb, args = split_verb(text, "Warlords", _USAGE)

    def need(*counts: int) -> None:
        if len(args) not in counts:
            raise NotationError(f"{text!r}: expected '{_USAGE[verb]}'")

    def ref(word: str) -> CardRef:
        if word == NONE:
            raise NotationError(f"{text!r}: '-' is not allowed here (expected '{_USAGE[verb]}')")
        return ref_word(text, word, "a#17")

    def opt(word: str) -> CardRef | None:
        return None if word == NONE else ref(word)

    if verb == "warlord":
        need(1)
        return PlayWarlord(ref(args[0]))
    if verb == "exchange":
        need(2)
        return Exchange(ref(args[0]), ref(args[1]))
    if verb == "ace":
        need(1, 2)
        return PlayAce(ref(args[0]), ref(args[1]) if len(args) == 2 else None)
    if verb == "joker":
        need(1)
        return Reinforce(ref(args[0]))
    if verb == "attack":
        need(2)
        return Attack(opt(args[0]), ref(args[1]))
    if verb == "defend":
        need(2)
        return Defend(opt(args[0]), opt(args[1]))
    if verb == "support":
        if len(args) == 2 and args[1].lower() == "accept":
            return Support(opt(args[0]), True)
        need(1)
        return Support(opt(args[0]))
    need(0)
    return {"end": EndTurn, "accept": Accept, "pass": Pass}[verb]()
