"""Skirmish actions and their text form (digest ``seeds/skirmish.md``). Every ``str`` parses back::

    build str 3            commit secretly to 3 Strength cards (sealed, label 'str'; K-2)
    reveal spd2 dex1!      reveal 2 Speed and 1 Dexterity cards; '!' claims that stat is now exhausted (K-5, K-6)
    reveal -               reveal nothing
    dual d7: spd1          the same, in dual reveal d7 (sealed until everyone in it has committed; K-9)
    plan p3: 1 3 2         a fight plan, one action (1-6) per point of speed (sealed; K-16)
    plan p3: 1>2 4>0 6     with a target seat per attack when more than two fight (K-16)
    run 12.5,3             move in a straight line to (12.5, 3) over level ground (K-11)
    climb 10,4.25          move over uneven ground (K-12)
    stay                   do not move
    cancel 1:2             cancel seat 1's second planned action (K-19)
    cancel none
    smash gate             destroy a destructible piece (K-27)
    throw boulder at 1     throw a projectile piece at seat 1 (K-28)
    pass                   do not interact with terrain

>>> str(parse_action("REVEAL dex1! spd2"))
'reveal spd2 dex1!'
>>> str(parse_action("plan p3: 1>2 4>0 6"))
'plan p3: 1>2 4>0 6'
"""

from __future__ import annotations

import re

from duelmail.errors import NotationError
from duelmail.games.base import Action, check_notation
from duelmail.games.skirmish.geometry import Point, pfmt, pt
from duelmail.util.classes import dataclass

STATS = ("str", "spd", "end", "dex")
STAT_NAMES = {"str": "Strength", "spd": "Speed", "end": "Endurance", "dex": "Dexterity"}
ACTIONS = {1: "swing high", 2: "swing low", 3: "block", 4: "grapple", 5: "evade", 6: "retreat"}
TARGETED = (1, 2, 4)
LABEL = re.compile(r"[dp][0-9]{1,5}")

Item = tuple[str, int, bool]  # (stat, cards, exhausts)

# Every sealed choice travels in a memo block of a fixed size for its kind (2 bytes of it the length), so a
# memo's size never tells its value (protocol §6a). The longest texts: 'build dex 10' (12 bytes; K-2),
# 'dual d99999: str10! spd10! end10! dex10!' (40; K-9), 'plan p99999: ' and 10 steps '1>5' (52; K-16, a
# plan has one action per point of Speed, at most 10). A longer text is refused at its author.
SEALED_BYTES = {"build": 16, "dual": 48, "plan": 64}


def sealed_kind(label: str) -> str:
    """The kind of a sealed choice from its label: a stat's ``build``, a ``dN`` dual reveal, a ``pN`` plan."""
    if label in STATS:
        return "build"
    if LABEL.fullmatch(label):
        return "dual" if label[0] == "d" else "plan"
    raise NotationError(f"not a skirmish sealed-choice label: {label!r} (str, spd, end, dex, dN or pN)")


def items_text(items: tuple[Item, ...]) -> str:
    return " ".join(f"{s}{n}{'!' if last else ''}" for s, n, last in items) or "-"


def parse_items(text: str, where: str) -> tuple[Item, ...]:
    words = text.split()
    if words == ["-"]:
        return ()
    out: dict[str, Item] = {}
    for w in words:
        m = re.fullmatch(r"(str|spd|end|dex)([0-9]{1,2})(!?)", w)
        if not m or int(m.group(2)) < 1 or m.group(1) in out:
            raise NotationError(f"not a reveal item in {where!r}: {w!r} (e.g. spd2, or dex1! when it exhausts)")
        out[m.group(1)] = (m.group(1), int(m.group(2)), bool(m.group(3)))
    if not out:
        raise NotationError(f"nothing to reveal in {where!r}: write '-' to reveal nothing")
    return tuple(out[s] for s in STATS if s in out)


@dataclass(frozen=True)
class Build(Action):
    stat: str
    cards: int

    def __str__(self) -> str:
        return f"build {self.stat} {self.cards}"

    def sealed(self) -> str:
        return self.stat


@dataclass(frozen=True)
class Reveal(Action):
    items: tuple[Item, ...] = ()

    def __str__(self) -> str:
        return f"reveal {items_text(self.items)}"

    def count(self, stat: str) -> int:
        return sum(n for s, n, _ in self.items if s == stat)


@dataclass(frozen=True)
class Dual(Action):
    label: str
    items: tuple[Item, ...] = ()

    def __str__(self) -> str:
        return f"dual {self.label}: {items_text(self.items)}"

    def sealed(self) -> str:
        return self.label


Step = tuple[int, int | None]  # (action 1-6, target seat or None)


@dataclass(frozen=True)
class Plan(Action):
    label: str
    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return f"plan {self.label}: " + " ".join(f"{a}>{t}" if t is not None else str(a) for a, t in self.steps)

    def sealed(self) -> str:
        return self.label


@dataclass(frozen=True)
class Move(Action):
    mode: str  # run | climb
    to: Point

    def __str__(self) -> str:
        return f"{self.mode} {pfmt(self.to)}"


@dataclass(frozen=True)
class Word(Action):
    word: str  # stay | pass

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class Cancel(Action):
    seat: int | None
    index: int = 0  # 1-based

    def __str__(self) -> str:
        return "cancel none" if self.seat is None else f"cancel {self.seat}:{self.index}"


@dataclass(frozen=True)
class Smash(Action):
    piece: str

    def __str__(self) -> str:
        return f"smash {self.piece}"


@dataclass(frozen=True)
class Throw(Action):
    piece: str
    target: int

    def __str__(self) -> str:
        return f"throw {self.piece} at {self.target}"


SkirmishAction = Build | Reveal | Dual | Plan | Move | Word | Cancel | Smash | Throw


_COORD = r"-?(?:[0-9]{1,6}(?:\.[0-9]{0,2})?|\.[0-9]{1,2})"  # inches: a table is at most 120 a side


def parse_action(text: str) -> SkirmishAction:
    """Parse one action; raise ``NotationError`` quoting the text."""
    t = " ".join(check_notation(text, "skirmish").strip().lower().split())
    verb, _, rest = t.partition(" ")
    try:
        if verb == "build":
            m = re.fullmatch(r"(str|spd|end|dex) ([0-9]{1,2})", rest)
            if m:
                return Build(m.group(1), int(m.group(2)))
        elif verb == "reveal" and rest:
            return Reveal(parse_items(rest, text))
        elif verb == "dual":
            label, colon, items = rest.partition(": ")
            if colon and LABEL.fullmatch(label) and label[0] == "d":
                return Dual(label, parse_items(items, text))
        elif verb == "plan":
            label, colon, steps = rest.partition(": ")
            if colon and LABEL.fullmatch(label) and label[0] == "p":
                return Plan(label, tuple(_step(w, text) for w in steps.split()))
        elif verb in ("run", "climb"):
            m = re.fullmatch(rf"({_COORD}),({_COORD})", rest)
            if m:
                return Move(verb, pt(m.group(1), m.group(2)))
        elif verb in ("stay", "pass") and not rest:
            return Word(verb)
        elif verb == "cancel":
            if rest == "none":
                return Cancel(None)
            m = re.fullmatch(r"([0-9]):([0-9]{1,2})", rest)
            if m and int(m.group(2)) >= 1:
                return Cancel(int(m.group(1)), int(m.group(2)))
        elif verb == "smash" and re.fullmatch(r"[a-z][a-z0-9-]*", rest):
            return Smash(rest)
        elif verb == "throw":
            m = re.fullmatch(r"([a-z][a-z0-9-]*) at ([0-9])", rest)
            if m:
                return Throw(m.group(1), int(m.group(2)))
    except NotationError as e:
        if repr(text) in str(e):
            raise
        raise NotationError(f"{text!r}: {e}") from None
    raise NotationError(f"not a skirmish action: {text!r} (e.g. 'reveal spd1', 'run 10,4.5', 'plan p3: 1 3')")


def _step(word: str, text: str) -> Step:
    m = re.fullmatch(r"([1-6])(?:>([0-9]))?", word)
    if not m:
        raise NotationError(f"not a planned action in {text!r}: {word!r} (1-6, optionally >SEAT)")
    return (int(m.group(1)), int(m.group(2)) if m.group(2) is not None else None)
