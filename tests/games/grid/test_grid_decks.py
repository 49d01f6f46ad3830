"""Grid Duel deck files (G-2, G-3): at least four designed decks and the ordinary pack, as data."""

from __future__ import annotations

from pathlib import Path

import pytest

from duelmail.errors import DuelmailError
from duelmail.games.cards import Card, standard_deck
from duelmail.games.grid.library import RARE, library, parse_deck

DECK_DIR = Path(__file__).resolve().parents[3] / "duelmail" / "games" / "grid" / "decks"


def test_g2_four_designed_decks_and_the_pack_ship_as_toml():
    files = sorted(p.stem for p in DECK_DIR.glob("*.toml"))
    assert files == sorted(library()) and len(files) >= 5 and "pack" in files
    designed = [d for d in library().values() if not d.pack]
    assert len(designed) >= 4
    for d in library().values():
        assert d.description and len(d.notes) > 100 and d.name
    assert len({tuple(sorted((c.strength, c.abilities().__repr__()) for _, c in d.entries)) for d in designed}) == \
        len(designed)  # every deck has its own character


@pytest.mark.parametrize("name", sorted(library()))
def test_g3_every_deck_maps_to_distinct_french_faces(name):
    d = library()[name]
    for seat in (0, 1):
        cards = d.cards(seat)
        faces = [f for f, _ in cards]
        assert len(faces) == len(set(faces)) == len(d.entries)
        if not d.pack:
            assert tuple(faces) == standard_deck()[:len(faces)]
    for _, c in d.entries:
        assert c.strength >= 1
        if c.rare:
            assert c.rare in RARE and c.text  # a rare ability is written on its card
        if c.strike or c.boost:
            assert c.arrows


def test_g3_the_pack_is_red_for_seat_0_and_black_for_seat_1():
    pack = library()["pack"]
    red, black = pack.table(0), pack.table(1)
    assert {f.suit for f in red} == {"H", "D"} and {f.suit for f in black} == {"S", "C"}
    assert len(red) == len(black) == 26
    for rank in range(2, 15):
        for r_suit, b_suit in (("H", "S"), ("D", "C")):
            a, b = red[Card(rank, r_suit)], black[Card(rank, b_suit)]
            assert (a.strength, a.abilities()) == (b.strength, b.abilities())
    assert red[Card.parse("QH")].arrows != red[Card.parse("QD")].arrows  # the suit sets the arrows
    assert "of hearts" in red[Card.parse("7H")].name and "of clubs" in black[Card.parse("7C")].name


def test_g3_top_end_is_shared_by_every_deck():
    for d in library().values():
        top = sorted((c.strength for _, c in d.entries), reverse=True)[:4]
        assert top == [8, 8, 7, 7], d.id


@pytest.mark.parametrize("text, why", [
    ('id="x"\nname="X"\ndescription="d"\nnotes="n"\n[[cards]]\nname="A"\nstrength=2\nrare="flying"\ntext="t"\n',
     "rare ability"),
    ('id="x"\nname="X"\ndescription="d"\nnotes="n"\n[[cards]]\nname="A"\nstrength=2\nrare="swift"\n',
     "written on the card"),
    ('id="x"\nname="X"\ndescription="d"\nnotes="n"\n[[cards]]\nname="A"\nstrength=2\nstrike=2\n', "arrows"),
    ('id="x"\nname="X"\ndescription="d"\nnotes="n"\n[[cards]]\nname="A"\nstrength=2\nwings=2\n', "unknown field"),
    ('id="x"\nname="X"\ndescription="d"\n[[cards]]\nname="A"\nstrength=2\n', "missing 'notes'"),
])
def test_bad_deck_files_are_refused_with_the_reason(text, why):
    with pytest.raises(DuelmailError) as err:
        parse_deck(text, "decks/x.toml")
    assert why in str(err.value) and "decks/x.toml" in str(err.value)
