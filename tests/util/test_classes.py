"""The lazy ``dataclass``: the same classes as the standard decorator makes, their methods compiled on first use."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from duelmail.util.classes import dataclass


@dataclass(frozen=True)
class Card:
    rank: int
    suit: str = "S"
    tags: tuple = dataclasses.field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Joker(Card):
    wild: bool = True


@dataclass
class Pile:
    cards: list = dataclasses.field(default_factory=list)
    name: str = "pile"

    def __post_init__(self):
        self.name = self.name.upper()


@dataclass(frozen=True, order=True)
class Rank:
    value: int


@dataclass(frozen=True)
class Own:
    a: int

    def __eq__(self, other):
        return True

    def __hash__(self):
        return 7


def standard(cls, **options):
    """The same class made by the standard decorator."""
    namespace = {"__annotations__": dict(cls.__annotations__), "__qualname__": cls.__qualname__,
                 "__module__": cls.__module__}
    for f in dataclasses.fields(cls):
        if f.name in cls.__annotations__:
            namespace[f.name] = dataclasses.field(**{k: getattr(f, k) for k in (
                "default", "default_factory", "init", "repr", "hash", "compare", "metadata", "kw_only")})
    return dataclasses.dataclass(type(cls.__name__, cls.__bases__, namespace), **options)


def test_the_methods_are_stubs_until_first_used_then_the_standard_ones():
    @dataclass(frozen=True)
    class Fresh:
        x: int

    assert Fresh.__init__.__qualname__ == "__init__"  # a stub: nothing compiled at import
    a, b = Fresh(1), Fresh(1)
    assert "Fresh.__init__" in Fresh.__init__.__qualname__
    assert a == b and hash(a) == hash(b) and repr(a).endswith("Fresh(x=1)")


def test_same_behaviour_as_the_standard_decorator():
    ref = standard(Card, frozen=True)
    for args in ((1,), (2, "H"), (3, "D", ("x",))):
        ours, theirs = Card(*args), ref(*args)
        assert repr(ours) == repr(theirs)
        assert dataclasses.astuple(ours) == dataclasses.astuple(theirs)
        assert hash(ours) == hash(theirs)
    assert Card(1, "S", ("a",)) == Card(1, "S", ("b",))  # compare=False is kept
    assert Card(1) != Card(2) and Card(1) != ref(1)  # another class is never equal, as in the standard one
    with pytest.raises(TypeError):
        Card()


def test_frozen_refuses_assignment_from_the_start():
    c = Card(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.rank = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        del c.suit
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.other = 1


def test_fields_replace_pickle_and_subclasses():
    j = Joker(5)
    assert [f.name for f in dataclasses.fields(j)] == ["rank", "suit", "tags", "wild"]
    assert dataclasses.replace(j, suit="H") == Joker(5, "H")
    assert pickle.loads(pickle.dumps(j)) == j
    assert repr(j) == "Joker(rank=5, suit='S', wild=True)"
    assert Joker(5) != Card(5)


def test_mutable_classes_default_factory_post_init_and_no_hash():
    p, q = Pile(), Pile()
    p.cards.append(1)
    assert q.cards == [] and p.name == "PILE"
    assert Pile([1]) == p
    with pytest.raises(TypeError):
        hash(p)


def test_order_and_an_explicit_eq_and_hash_are_kept():
    assert sorted([Rank(3), Rank(1), Rank(2)]) == [Rank(1), Rank(2), Rank(3)]
    assert Rank(1) < Rank(2) <= Rank(2) and Rank(3) > Rank(2) >= Rank(2)
    assert Own(1) == Own(2) and hash(Own(1)) == 7
