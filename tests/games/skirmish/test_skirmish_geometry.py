"""The exact geometry (K-30..K-32) and the battlefield scenarios (K-33)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from duelmail.errors import DuelmailError, NotationError
from duelmail.games.skirmish.battlefield import SHIPPED, load, parse_battlefield
from duelmail.games.skirmish.geometry import Circle, Polygon, convex, dist2, pt, step_away, toward, within

SQUARE = Polygon((pt(0, 0), pt(4, 0), pt(4, 4), pt(0, 4)))
ROOT = Path(__file__).resolve().parents[3]


def test_inside_on_the_edge_and_outside_are_exact_K30():
    assert SQUARE.where(pt(2, 2)) == 1
    assert SQUARE.where(pt(4, "2.37")) == 0 and SQUARE.where(pt(0, 0)) == 0
    assert SQUARE.where(pt("4.01", 2)) == -1
    disc = Circle(pt(0, 0), Fraction(5))
    assert disc.where(pt(3, 4)) == 0 and disc.where(pt("2.99", 4)) == 1 and disc.where(pt("3.01", 4)) == -1


def test_a_line_along_an_edge_or_touching_a_corner_does_not_enter_K31():
    assert not SQUARE.enters(pt(4, -2), pt(4, 6))  # along the edge
    assert not SQUARE.enters(pt(3, 5), pt(5, 3))  # passes the corner (4, 4) outside
    assert SQUARE.enters(pt(-1, 2), pt(5, 2))  # straight through
    assert SQUARE.enters(pt(-1, 2), pt("0.01", 2))  # just inside
    assert not SQUARE.enters(pt(-1, 2), pt(0, 2))  # up to the edge
    assert not Circle(pt(0, 0), Fraction(1)).enters(pt(-2, 1), pt(2, 1))  # tangent
    assert Circle(pt(0, 0), Fraction(1)).enters(pt(-2, "0.99"), pt(2, "0.99"))


def test_holding_a_segment_and_base_contact_K12_K32():
    assert SQUARE.holds(pt(0, 1), pt(4, 3)) and not SQUARE.holds(pt(0, 1), pt("4.01", 3))
    assert within(SQUARE, pt("4.5", 2), Fraction(1, 2)) and not within(SQUARE, pt("4.51", 2), Fraction(1, 2))
    assert within(Circle(pt(0, 0), Fraction(1)), pt("1.5", 0), Fraction(1, 2))
    assert convex(SQUARE) and not convex(Polygon((pt(0, 0), pt(4, 0), pt(1, 1), pt(0, 4))))


def test_a_retreat_step_is_rounded_to_hundredths_K25():
    p = step_away(pt(0, 0), pt(1, 1), Fraction(5, 2))
    assert p == (Fraction(-177, 100), Fraction(-177, 100))  # 2.5 / sqrt 2 = 1.7677...
    assert step_away(pt(3, 0), pt(0, 0), Fraction(5, 2)) == pt("5.5", 0)
    q = toward(pt(0, 0), pt(10, 3), Fraction(3))
    assert dist2(pt(0, 0), q) <= 9 and (q[0] * 100).denominator == 1


def test_shipped_battlefields_parse_and_match_the_examples_K33():
    assert set(SHIPPED) == {"open-field", "ruined-keep", "cliff-top"}
    for name, text in SHIPPED.items():
        field = load(name)
        assert len(field.starts) >= 6
        assert (ROOT / "examples" / "battlefields" / f"{name}.toml").read_text() == text
    keep = load("ruined-keep")
    assert keep.piece("gate").destructible == 3 and keep.piece("gate").kind == "blocking"
    assert any(p.kind == "uneven" and p.id.startswith("wall") for p in keep.pieces)
    assert load("cliff-top").piece("boulder").projectile == 2


@pytest.mark.parametrize(("text", "needle"), [
    ('name = "x"\nwidth = 20\nheight = 20\nstarts = [[1, 1], [2, 2]]\n[[terrain]]\nid = "w"\nkind = "uneven"\n'
     'polygon = [[0, 0], [4, 0], [1, 1], [0, 4]]', "convex (K-31)"),
    ('name = "x"\nwidth = 20\nheight = 20\nstarts = [[1, 1], [2, 2]]\n[[terrain]]\nid = "b"\nkind = "uneven"\n'
     'polygon = [[0, 0], [4, 0], [4, 4]]\nprojectile = 2', "a projectile is a circle (K-29)"),
    ('name = "x"\nwidth = 20\nheight = 20\nstarts = [[1, 1], [2, 2]]\n[[terrain]]\nid = "s"\nkind = "lava"\n'
     'circle = [5, 5, 1]', "kind must be one of"),
    ('name = "x"\nwidth = 20\nheight = 20\nstarts = [[1, 1.234], [2, 2]]', "at most two decimals"),
    ('name = "x"\nwidth = 20\nheight = 20\nstarts = [[5, 5], [2, 2]]\n[[terrain]]\nid = "s"\nkind = "blocking"\n'
     'circle = [5, 5, 1]', "inside blocking terrain"),
])
def test_a_bad_scenario_is_refused_naming_the_entry_K33(text, needle):
    with pytest.raises(NotationError) as e:
        parse_battlefield(text, "my.toml")
    assert needle in str(e.value) and "my.toml" in str(e.value)


def test_an_unknown_shipped_name_lists_the_others():
    with pytest.raises(DuelmailError, match="open-field"):
        load("moon-base")
