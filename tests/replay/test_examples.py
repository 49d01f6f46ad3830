"""The shipped example archives: one finished game of every registered game, each verifying, and the cheat
archive whose audit names the cheat."""

from __future__ import annotations

from pathlib import Path

import pytest

from duelmail.app import verify_archive
from duelmail.games.base import game_names, get_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SHIPPED = [g for g in game_names() if type(get_game(g)).__module__.startswith("duelmail.games.")]


def test_the_five_games_are_shipped():
    assert SHIPPED == ["grid", "skirmish", "summoner", "warlords", "wizard"]


@pytest.mark.parametrize("game", SHIPPED)
def test_every_game_has_a_finished_audited_example(game):
    folder = EXAMPLES / f"{game}-game"
    assert (folder / "genesis.toml").is_file(), f"no example archive for {game}: run examples/make_examples.py"
    verdict = verify_archive(folder)
    assert verdict.ok, verdict.lines
    assert "audit: PASSED" in verdict.lines and any("won" in line or "draw" in line for line in verdict.lines)


def test_the_cheat_example_names_the_cheat():
    verdict = verify_archive(EXAMPLES / "warlords-cheat")
    assert not verdict.ok
    assert any("CHEAT" in line and "bob" in line for line in verdict.lines)
