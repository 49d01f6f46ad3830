"""French playing cards and card references, shared by every game.

A ``Card`` is a face (``KH``, ``10S``, ``AD``, jokers ``XR``/``XB``). A ``CardRef`` is a
position in a locked deck (``a#17`` = deck ``a``, position 17): the rules move refs around
and learn a ref's face only when the engine reveals it.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from duelmail.errors import NotationError

SUITS = "SHDC"  # spades, hearts, diamonds, clubs
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_VALUES = {v: k for k, v in RANK_NAMES.items()}
JOKER = 0


_MADE: dict[tuple[int, str], Card] = {}


class _Face(NamedTuple):
    rank: int
    suit: str


class Card(_Face):
    """A card face. ``rank`` is 2..14 (J=11, Q=12, K=13, A=14) or 0 for a joker.

    For a joker, ``suit`` is ``R`` (red) or ``B`` (black).

    >>> Card.parse("QH")
    Card.parse('QH')
    >>> str(Card(10, "S"))
    '10S'
    """

    # A named tuple, as ``CardRef``: equality, hashing and order by (rank, suit) run in C (a replay page hashes
    # cards some hundred thousand times as the keys of its drawing memos).
    __slots__ = ()

    def __new__(cls, rank: int, suit: str) -> Card:
        card = _MADE.get((rank, suit))  # one object a face: a pickle (the kept state) holds each face once
        if card is not None:
            return card
        if rank == JOKER:
            if suit not in ("R", "B"):
                raise NotationError(f"joker colour must be R or B, not {suit!r}")
        elif not (type(rank) is int and 2 <= rank <= 14) or suit not in tuple(SUITS):
            raise NotationError(f"no such card: rank {rank!r}, suit {suit!r}")
        return _MADE.setdefault((rank, suit), super().__new__(cls, rank, suit))

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        t = text.strip().upper()
        if t in ("XR", "XB"):
            return cls(JOKER, t[1])
        m = re.fullmatch(r"(10|[2-9]|[JQKA]|T)([SHDC])", t)
        if not m:
            raise NotationError(f"not a card: {text!r} (examples: KH, 10S, 7D, AC, XR)")
        r = m.group(1)
        rank = 10 if r == "T" else RANK_VALUES.get(r) or int(r)
        return cls(rank, m.group(2))


_NAMES = {Card(rank, suit): RANK_NAMES.get(rank, str(rank)) + suit for suit in SUITS for rank in range(2, 15)}
_NAMES.update({Card(JOKER, colour): "X" + colour for colour in "RB"})


def standard_deck(jokers: str = "") -> tuple[Card, ...]:
    """The 52 cards in a fixed canonical order (suit by suit, 2..A), then jokers in the given colours."""
    cards = [Card(rank, suit) for suit in SUITS for rank in range(2, 15)]
    cards += [Card(JOKER, colour) for colour in jokers]
    return tuple(cards)


_REF = re.compile(r"([a-z]+[0-9]*(?:\.[0-9]{1,6})?)#([0-9]{1,6})")


class CardRef(NamedTuple):
    """A position in a locked deck: ``deck`` id and ``index``. Text form ``deck#index``.

    Deck ids are lowercase letters, optionally followed by digits and ``.generation``
    (a reshuffled pile gets a new id such as ``a.1``). A named tuple, so hashing and comparing
    (every visibility map and known-faces lookup) run in C.

    >>> CardRef.parse("a#17")
    CardRef.parse('a#17')
    """

    deck: str
    index: int

    def __str__(self) -> str:
        return f"{self.deck}#{self.index}"

    def __repr__(self) -> str:
        return f"CardRef.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> CardRef:
        m = _REF.fullmatch(text.strip())
        if not m:
            raise NotationError(f"not a card reference: {text!r} (expected deck#index, e.g. a#17)")
        return cls(m.group(1), int(m.group(2)))
