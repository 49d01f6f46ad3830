"""Skirmish notation and geometry numbers: every action reads back from its text; bad text is refused clearly."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duelmail.errors import NotationError
from duelmail.games.skirmish.geometry import fmt, num
from duelmail.games.skirmish.notation import (
    STATS,
    Build,
    Cancel,
    Dual,
    Move,
    Plan,
    Reveal,
    Smash,
    Throw,
    Word,
    parse_action,
)

hundredths = st.integers(-5000, 5000).map(lambda k: Fraction(k, 100))
items = st.lists(st.tuples(st.sampled_from(STATS), st.integers(1, 10), st.booleans()), max_size=4,
                 unique_by=lambda i: i[0]).map(lambda xs: tuple(sorted(xs, key=lambda i: STATS.index(i[0]))))
steps = st.lists(st.tuples(st.integers(1, 6), st.one_of(st.none(), st.integers(0, 5))), min_size=1, max_size=10)
actions = st.one_of(
    st.builds(Build, st.sampled_from(STATS), st.integers(1, 10)),
    st.builds(Reveal, items),
    st.builds(Dual, st.integers(1, 999).map(lambda k: f"d{k}"), items),
    st.builds(Plan, st.integers(1, 999).map(lambda k: f"p{k}"), steps.map(tuple)),
    st.builds(Move, st.sampled_from(["run", "climb"]), st.tuples(hundredths, hundredths)),
    st.builds(Word, st.sampled_from(["stay", "pass"])),
    st.builds(Cancel, st.integers(0, 5), st.integers(1, 10)),
    st.just(Cancel(None)),
    st.builds(Smash, st.sampled_from(["gate", "wall-2"])),
    st.builds(Throw, st.sampled_from(["boulder", "stone"]), st.integers(0, 5)),
)


@given(actions)
def test_every_action_reads_back_from_its_text(action):
    assert parse_action(str(action)) == action


@given(hundredths)
def test_coordinates_round_trip_exactly(x):
    """K-30: a coordinate is a multiple of 1/100 inch and its text gives it back exactly."""
    assert num(fmt(x)) == x


def test_examples_from_the_docstring():
    assert str(parse_action("REVEAL dex1! spd2")) == "reveal spd2 dex1!"
    assert parse_action("reveal -") == Reveal(())
    assert parse_action("plan p3: 1>2 4>0 6").steps == ((1, 2), (4, 0), (6, None))
    assert parse_action("run 12.50,3").to == (Fraction(25, 2), Fraction(3))
    assert str(parse_action("run 12.50,3")) == "run 12.5,3"
    assert parse_action("build end 5").sealed() == "end"
    assert parse_action("dual d7: spd1").sealed() == "d7" and parse_action("reveal spd1").sealed() is None


@pytest.mark.parametrize("text", ["reveal", "reveal spd0", "reveal spd1 spd2", "reveal luck1", "build str",
                                  "dual x1: -", "plan p1:", "plan p1: 7", "run 1.234,2", "run 1,2,3",
                                  "cancel 1:0", "throw boulder 1", "stay now", "swing high"])
def test_bad_text_is_refused_quoting_it(text):
    with pytest.raises(NotationError) as e:
        parse_action(text)
    assert repr(text) in str(e.value) or text.split()[-1] in str(e.value)
