"""The games registry loads a game only when its name is asked for (issue 18: a command loads the game it plays
and no other)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from duelmail.errors import NotationError
from duelmail.games.base import game_names, get_game

GAMES = ["grid", "skirmish", "summoner", "warlords", "wizard"]


def test_every_game_is_named_and_found():
    assert set(GAMES) <= set(game_names())
    for name in GAMES:
        assert get_game(name).spec.id == name


def test_an_unknown_game_names_the_games():
    with pytest.raises(NotationError, match="no game called 'chess' \\(games: grid, "):
        get_game("chess")


def test_a_game_is_imported_when_asked_for_and_no_other():
    code = ("import sys; from duelmail.games.base import game_names, get_game; names = game_names(); "
            "get_game('warlords'); print(' '.join(names)); "
            "print(' '.join(sorted({m.split('.')[2] for m in sys.modules if m.startswith('duelmail.games.') "
            "and m.count('.') >= 2 and m.split('.')[2] in names})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0].split() == GAMES and out[1] == "warlords"


@pytest.mark.parametrize("name", GAMES)
def test_a_games_bots_are_imported_when_first_played(name):
    """``Game.bots`` names each bot without importing it (``base.Bots``); asking for one imports its class."""
    code = (f"import sys; from duelmail.games.base import Bot, get_game; g = get_game({name!r}); "
            "before = any(m.endswith('.bots') for m in sys.modules if m.startswith('duelmail.games.')); "
            "bots = {n: g.bots[n] for n in g.bots}; "
            "print(before, sorted(bots), all(isinstance(b(), Bot) for b in bots.values()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "False" and "'heuristic'" in " ".join(out) and out[-1] == "True"
