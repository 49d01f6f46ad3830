"""Two different files a seat signed for one round end the game against it in every home that holds both
(issue 27 item 4, protocol §5 "Equivocation to different seats")."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from helpers import Players

from duelmail.errors import FileRefused
from duelmail.protocol.turnfile import SignedFile
from duelmail.transport.archive import fold


def split(p: Players):
    """The decider of a 3-seat game signs its move and a second file for the same round, to two seats."""
    p.run(until=lambda m: m.round > 3 and any(d.decide for d in m.duties.values()))
    x = next(s for s, d in sorted(p.match.duties.items()) if d.decide)
    a = p.compose(x)
    b = SignedFile.sign({**a.content, "time": (p.clock + timedelta(seconds=30)).isoformat()}, p.ids[x])
    return x, a, b


def test_the_other_file_reaching_the_third_seat_ends_the_game_against_the_equivocator():
    p = Players(n=3, seed=2)
    x, a, b = split(p)
    first, third = [s for s in range(3) if s != x]
    p.matches[first].apply(a, "a.toml")
    p.matches[third].apply(b, "b.toml")
    assert p.matches[first].prev != p.matches[third].prev  # the branches parted
    with pytest.raises(FileRefused, match=r"EQUIVOCATION.*\[P-equivocation\]"):
        p.matches[third].apply(a, "a.toml")  # the file forwarded by the first seat's home
    log = [(f"f{i}", f) for i, f in enumerate(p.files)]
    ends = set()
    for held in ([("a", a), ("b", b)], [("b", b), ("a", a)]):  # the first seat's home, the third's: both files
        files = log + held
        random.Random(len(held)).shuffle(files)
        m = fold(files)
        assert m.over() and m.outcome().winners == (first, third)
        assert m.describe_outcome().endswith(f"{m.cards[x].name} signed two different files for round {a.round} "
                                             "(an equivocation, proven by both signatures)")
        assert {a.file_hash, b.file_hash} <= set(m.void) and all(s != x for s in m.rounds[a.round])
        ends.add(m.prev)
    assert len(ends) == 1  # the same end and round hash in every home


def test_a_second_file_that_does_not_verify_proves_nothing():
    p = Players(n=3, seed=2)
    x, a, b = split(p)
    forged = SignedFile({**b.content}, a.signature)  # another file under the first one's signature
    m = fold([(f"f{i}", f) for i, f in enumerate(p.files)] + [("a", a)])
    with pytest.raises(FileRefused, match=r"\[P-signature\]"):
        fold([(f"f{i}", f) for i, f in enumerate(p.files)] + [("a", a), ("forged", forged)])
    assert not m.over()
