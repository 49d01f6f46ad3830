"""Grid Duel notation: every action reads back from its text form; bad text is refused clearly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duelmail.errors import NotationError
from duelmail.games.cards import CardRef
from duelmail.games.grid.notation import Concede, End, Move, Orient, Pass, Place, Reveal, parse_action

refs = st.builds(CardRef, st.sampled_from(["a", "b"]), st.integers(0, 60))
spaces = st.builds(lambda c, r: f"{c}{r}", st.sampled_from("abcde"), st.integers(1, 5))
orients = st.integers(0, 3)
places = st.one_of(
    st.builds(Place, st.sampled_from(["play", "ally", "merge"]), refs, spaces, st.just(False), orients),
    st.builds(Place, st.sampled_from(["play", "ally", "merge"]), refs, spaces, st.just(True), st.just(0)),
)
actions = st.one_of(
    places,
    st.builds(Move, spaces, spaces, orients),
    st.builds(Reveal, refs, orients),
    st.builds(Orient, refs, orients),
    st.builds(Concede, spaces),
    st.just(End()),
    st.just(Pass()),
)


@given(actions)
def test_notation_round_trip(action):
    assert parse_action(str(action)) == action


@pytest.mark.parametrize("text, action", [
    ("play a#3 c3 hidden", Place("play", CardRef("a", 3), "c3", True)),
    ("play a#3 d3 left", Place("play", CardRef("a", 3), "d3", False, 3)),
    ("play a#3 d3", Place("play", CardRef("a", 3), "d3")),
    ("play a#3 d3 upright", Place("play", CardRef("a", 3), "d3")),
    ("ally b#5 c3", Place("ally", CardRef("b", 5), "c3")),
    ("merge a#6 c3 right", Place("merge", CardRef("a", 6), "c3", False, 1)),
    ("  MOVE c3   c4 ", Move("c3", "c4")),
    ("move c3 d3 inverted", Move("c3", "d3", 2)),
    ("move a#5 c2", Move("", "c2", 0, CardRef.parse("a#5"))),  # G-23: the card named (rules version 6)
    ("reveal a#3", Reveal(CardRef("a", 3))),
    ("reveal a#3 inverted", Reveal(CardRef("a", 3), 2)),
    ("orient b#2 left", Orient(CardRef("b", 2), 3)),
    ("concede d3", Concede("d3")),
    ("end", End()),
    ("pass", Pass()),
])
def test_notation_examples(text, action):
    assert parse_action(text) == action


@pytest.mark.parametrize("text", ["", "attack a#1 c3", "play a#1", "play a#1 f3", "play a#1 c6", "play c3 a#1",
                                  "play a#1 c3 sideways", "move c3", "move c3 c4 hidden", "move a#5 z9", "orient a#1",
                                  "reveal c3", "concede a#1", "end now", "pass c3", "ally a17 c3"])
def test_notation_refuses_bad_text_quoting_it(text):
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert repr(text) in str(err.value)


def test_notation_docstring_examples_parse():
    from duelmail.games.grid import notation

    lines = [ln.strip() for ln in notation.__doc__.splitlines() if ln.startswith("    ") and "  " in ln.strip()]
    texts = [ln.split("  ")[0] for ln in lines if ln.split()[0] in ("play", "ally", "merge", "move", "reveal",
                                                                     "orient", "concede", "end", "pass")]
    assert len(texts) >= 10
    for text in texts:
        assert parse_action(str(parse_action(text))) == parse_action(text)
