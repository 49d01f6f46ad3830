"""Summoner notation: every action reads back from its text form; bad text is refused clearly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duelmail.errors import NotationError
from duelmail.games.cards import Card, CardRef, standard_deck
from duelmail.games.summoner.notation import (
    Attack,
    Counter,
    Double,
    End,
    Joker,
    Pass,
    Replace,
    Stop,
    Summon,
    Take,
    Win,
    parse_action,
)

refs = st.builds(CardRef, st.from_regex(r"[a-z](\.[1-9][0-9]?)?", fullmatch=True), st.integers(0, 999))
faces = st.sampled_from(standard_deck("RB"))
plays = st.tuples(refs, faces)
actions = st.one_of(
    st.builds(Summon, refs, faces),
    st.builds(Double, refs, faces, refs),
    st.builds(Joker, refs, faces, refs),
    st.builds(Win, st.lists(plays, min_size=1, max_size=4).map(tuple)),
    st.builds(Attack, st.lists(refs, min_size=1, max_size=5).map(tuple), st.none() | refs),
    st.builds(Replace, refs, refs, faces),
    st.just(End()),
    st.just(Take()),
    st.builds(Stop, refs, faces),
    st.builds(Counter, st.lists(plays, min_size=1, max_size=4).map(tuple)),
    st.just(Pass()),
)


@given(actions)
def test_notation_round_trip(action):
    assert parse_action(str(action)) == action


def c(text):
    return Card.parse(text)


def r(text):
    return CardRef.parse(text)


@pytest.mark.parametrize("text, action", [
    ("summon s#23=8h", Summon(r("s#23"), c("8H"))),
    ("SUMMON s#23=8H", Summon(r("s#23"), c("8H"))),
    ("double s#31=10d s#23", Double(r("s#31"), c("10D"), r("s#23"))),
    ("joker s#40=xb s#12", Joker(r("s#40"), c("XB"), r("s#12"))),
    ("win s#3=xr s#9=xr", Win(((r("s#3"), c("XR")), (r("s#9"), c("XR"))))),
    ("attack s#23 s#12", Attack((r("s#23"),), r("s#12"))),
    ("attack s#23+s#25+s#26 s#12", Attack((r("s#23"), r("s#25"), r("s#26")), r("s#12"))),
    ("attack s#23 LIFE", Attack((r("s#23"),), None)),
    ("replace s#23 s#31=3c", Replace(r("s#23"), r("s#31"), c("3C"))),
    ("  end ", End()),
    ("take", Take()),
    ("stop s#40=xr", Stop(r("s#40"), c("XR"))),
    ("counter s#41=xr", Counter(((r("s#41"), c("XR")),))),
    ("pass", Pass()),
])
def test_notation_examples(text, action):
    assert parse_action(text) == action


def test_faces_are_written_in_lower_case():
    """The CLI turns an upper-case face of your own card into its ref; claims must not be touched."""
    assert str(Summon(r("s#2"), c("QS"))) == "summon s#2=qs"
    assert str(Win(((r("s#1"), c("XR")), (r("s#2"), c("XR"))))) == "win s#1=xr s#2=xr"


@pytest.mark.parametrize("text", ["", "cast s#1", "summon", "summon s#1", "summon s#1=", "summon s#1=1h",
                                  "summon 8h", "double s#1=8h", "joker s#1=xb", "win", "counter",
                                  "attack s#1", "attack s#1+ s#2", "attack +s#1 s#2", "attack s#1 face",
                                  "replace s#1", "end now", "take 3", "pass s#1", "stop s#1"])
def test_notation_refuses_bad_text_quoting_it(text):
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert repr(text) in str(err.value)
