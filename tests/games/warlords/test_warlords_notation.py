"""Warlords notation: every action reads back from its text form; bad text is refused clearly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duelmail.errors import NotationError
from duelmail.games.cards import CardRef
from duelmail.games.warlords.notation import (
    Accept,
    Attack,
    Defend,
    EndTurn,
    Exchange,
    PlayAce,
    PlayWarlord,
    Reinforce,
    Support,
    parse_action,
)

refs = st.builds(CardRef, st.from_regex(r"[a-f](\.[1-9][0-9]?)?", fullmatch=True), st.integers(0, 999))
maybe = st.none() | refs
actions = st.one_of(
    st.builds(PlayWarlord, refs),
    st.builds(Exchange, refs, refs),
    st.builds(PlayAce, refs, maybe),
    st.builds(Reinforce, refs),
    st.builds(Attack, maybe, refs),
    st.just(EndTurn()),
    st.builds(Defend, maybe, maybe),
    st.builds(Support, maybe),
    st.just(Accept()),
)


@given(actions)
def test_notation_round_trip(action):
    assert parse_action(str(action)) == action


@pytest.mark.parametrize("text, action", [
    ("warlord a#3", PlayWarlord(CardRef("a", 3))),
    ("exchange a#3 a#9", Exchange(CardRef("a", 3), CardRef("a", 9))),
    ("ace a#9 b#4", PlayAce(CardRef("a", 9), CardRef("b", 4))),
    ("ace b#9", PlayAce(CardRef("b", 9))),
    ("joker a.1#5", Reinforce(CardRef("a.1", 5))),
    ("attack - a#17", Attack(None, CardRef("a", 17))),
    ("  ATTACK a#3   a#17 ", Attack(CardRef("a", 3), CardRef("a", 17))),
    ("defend - -", Defend(None, None)),
    ("defend b#2 -", Defend(CardRef("b", 2), None)),
    ("support -", Support(None)),
    ("end", EndTurn()),
    ("accept", Accept()),
])
def test_notation_examples(text, action):
    assert parse_action(text) == action


@pytest.mark.parametrize("text", ["", "charge a#1", "warlord", "warlord -", "attack a#1", "attack a#1 -",
                                  "ace", "exchange a#1", "support a#1 a#2", "end now", "defend A1 -",
                                  "warlord a17"])
def test_notation_refuses_bad_text_quoting_it(text):
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert repr(text) in str(err.value)
