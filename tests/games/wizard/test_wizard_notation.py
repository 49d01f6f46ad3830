"""Wizard Duel notation: every action's text parses back to it; malformed text is refused, quoting it."""

from __future__ import annotations

import pytest

from duelmail.errors import NotationError
from duelmail.games.cards import Card, CardRef
from duelmail.games.wizard.notation import Attack, Defend, Pass, Take, Target, parse_action


def c(ref: str, face: str):
    return CardRef.parse(ref), Card.parse(face)


@pytest.mark.parametrize("action, text", [
    (Pass(), "pass"),
    (Take(), "take"),
    (Target(3), "target 3"),
    (Attack((c("w#3", "7h"), c("w#9", "qh")), 2), "attack w#3=7h w#9=qh at 2"),
    (Defend((c("w#12", "9s"), c("w.1#4", "2c"))), "defend w#12=9s w.1#4=2c"),
    (Defend((c("w#12", "9h"),), 0), "defend w#12=9h at 0"),
])
def test_text_round_trip(action, text):
    assert str(action) == text and parse_action(text) == action and parse_action(text.upper()) == action


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("hex w#1=2c", "unknown Wizard Duel verb"),
    ("attack w#3=7h at 2", "expected 'attack REF=FACE REF=FACE at SEAT'"),
    ("attack w#3=7h w#4=8h", "expected 'attack"),
    ("attack w#3 w#4=8h at 1", "must name the card and its face"),
    ("defend w#3=zz", "is not a card face"),
    ("defend w#3=xr", "no jokers"),
    ("defend x=7h", "is not a card reference"),
    ("take at 2", "expected 'take'"),
    ("target two", "is not a seat number"),
    ("target \u00b2", "is not a seat number"),  # '²'.isdigit() is True, int('²') a ValueError (issue 14)
    ("target \u0663", "is not a seat number"),  # Arabic-Indic three
    ("target " + "9" * 30, "is not a seat number"),
    ("pass now", "expected 'pass'"),
])
def test_malformed_text_is_refused_quoting_it(text, words):
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert words in str(err.value) and repr(text) in str(err.value)
