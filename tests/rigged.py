"""Real games with a chosen deal, for playing the sources' worked examples through the engine with signed files.

The shuffle permutation is the one piece of chance a seat's seed decides alone (``LockerSecrets.perm``). Here one
locker of each rigged deck shuffles by a chosen permutation and every other locker of it by none, so the deck
comes out in the chosen order. Everything else is real: every pass is proved and checked, every card opens by
key shares, and the end-of-game audit, which derives the passes again in this process, agrees.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from duelmail.crypto.deck import LockerSecrets
from duelmail.crypto.derive import hkdf
from duelmail.crypto.encoding import lp
from duelmail.engine import toss
from duelmail.games.cards import Card
from duelmail.testing.selfplay import SelfPlay


def order_of(faces: Sequence[Card], top: Sequence[Card | str]) -> list[int]:
    """The permutation that puts ``top`` first (refs #0, #1, ...), the other faces after it in the deck's order."""
    free = list(range(len(faces)))
    head = []
    for want in top:
        card = Card.parse(want) if isinstance(want, str) else want
        i = next((i for i in free if faces[i] == card), None)
        if i is None:
            raise ValueError(f"the deck has no more {card} to deal")
        free.remove(i)
        head.append(i)
    return head + free


def starter(sp: SelfPlay) -> int:
    """The seat the coin toss of a game that draws lots will choose (it depends on the seats' secrets, never on the
    deal): the creator's value from its master secret and the genesis nonce, each other seat's from its seed."""
    m = sp.match
    values = {s: toss.call(sp.matches[s].own[s]) for s in range(m.n) if s != m.creator}
    values[m.creator] = toss.creator_secret(sp.ids[m.creator].master, m.nonce)[1]
    return toss.starter(values, m.n)


Tops = Mapping[str, Sequence[Card | str]]


def rigged(monkeypatch: pytest.MonkeyPatch, game: str, tops: Tops | Callable[[SelfPlay], Tops], n: int = 2,
           options: dict | None = None, seed: int = 0) -> SelfPlay:
    """A ``SelfPlay`` whose decks (id -> faces from ``#0`` on) come out of their first shuffle in that order;
    ``tops`` may be a function of the ``SelfPlay`` (to deal by who the coin toss will choose, ``starter``)."""
    sp = SelfPlay(game, n, options, seed=seed)
    m = sp.match
    if callable(tops):
        tops = tops(sp)
    chosen: dict[bytes, list[int]] = {}
    for deck_id, top in tops.items():
        faces = m.specs[deck_id].faces
        lockers = m.book.decks[deck_id].lockers
        perm = order_of(faces, top)
        for s in lockers:
            key = hkdf(sp.matches[s].own[s], lp("duelmail/deck-seed/v2", deck_id, len(faces), 0))
            chosen[key] = perm if s == lockers[0] else list(range(len(faces)))
    real = LockerSecrets.perm.func

    def perm(self: LockerSecrets) -> list[int]:
        if self._seed in chosen:
            return chosen[self._seed]
        return self.__dict__.get("perm") or self.__dict__.setdefault("perm", real(self))

    monkeypatch.setattr(LockerSecrets, "perm", property(perm))
    return sp
