"""``duelmail show --svg`` and ``--html`` for every two-player game, through the CLI between two homes (Wizard Duel,
three players at least, is drawn in test_pictures.py)."""

from __future__ import annotations

from xml.etree import ElementTree

import clitable
import pytest
from clitable import dm

GAMES = {"warlords": (), "summoner": (), "grid": ("deck1=hive",), "skirmish": ("battlefield=ruined-keep",)}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_show_writes_the_picture_and_a_page_for_every_game(tmp_path, game):
    """The SVG is the game's picture from bob's seat (names, not seat numbers); the page holds it inline with the
    text table under it, and opens nothing when not run in a terminal."""
    table = type("T", (clitable.Table,), {"game": game})(tmp_path, *GAMES[game])
    table.play_turns(4)
    svg_path, page_path = tmp_path / "table.svg", tmp_path / "table.html"
    out = dm(table.bob, "show", "--svg", str(svg_path), "--html", str(page_path))
    assert f"wrote {svg_path}" in out and f"wrote {page_path}" in out
    svg = svg_path.read_text()
    root = ElementTree.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and "bob" in svg and "(you)" in svg and "alice" in svg
    page = page_path.read_text()
    assert page.startswith("<!DOCTYPE html>") and '<div class="picture"' in page and "(you)" in page
    assert "<svg version=" in page and "http" not in page.split("<svg", 1)[1].split("</svg>")[0]
    assert "<pre" in page and "Seat 0 (alice)" not in page.split("<pre", 1)[0]  # the text view follows the picture

