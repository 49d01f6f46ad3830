"""Cards and card references: a face is one value however it was made (parsed, built, unpickled, copied), orders
and hashes by (rank, suit) as it always did, and anything else is refused with one line."""

from __future__ import annotations

import copy
import pickle

import pytest

from duelmail.errors import NotationError
from duelmail.games.cards import JOKER, Card, CardRef, standard_deck


def test_a_face_is_one_object_however_it_is_made():
    made = Card(10, "S")
    for again in (Card.parse("10s"), Card.parse("TS"), pickle.loads(pickle.dumps(made)), copy.deepcopy(made),
                  copy.copy(made)):
        assert again is made and again == made and hash(again) == hash(made)
    assert str(made) == "10S" and repr(made) == "Card.parse('10S')" and (made.rank, made.suit) == (10, "S")
    assert str(Card(JOKER, "R")) == "XR" and Card(JOKER, "B").is_joker and not made.is_joker


def test_faces_order_and_hash_by_rank_then_suit():
    deck = standard_deck("RB")
    assert sorted(deck) == sorted(deck, key=lambda c: (c.rank, c.suit))
    assert sorted(deck)[:3] == [Card.parse("XB"), Card.parse("XR"), Card.parse("2C")]
    assert hash(Card(14, "H")) == hash((14, "H")) and len(set(deck)) == 54
    assert Card(2, "S") != CardRef("a", 2) and Card(2, "S") < Card(3, "C")


@pytest.mark.parametrize("rank, suit, words", [
    (1, "S", "no such card"), (15, "S", "no such card"), (2, "SH", "no such card"), (2, "", "no such card"),
    (2, "X", "no such card"), (True, "S", "no such card"), (JOKER, "S", "joker colour"), (JOKER, "", "joker colour"),
])
def test_anything_else_is_refused_in_one_line(rank, suit, words):
    with pytest.raises(NotationError, match=words) as e:
        Card(rank, suit)
    assert "\n" not in str(e.value)
