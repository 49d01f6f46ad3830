"""The rules contract for a seat removed by escrow (protocol section 6c; W-32, Z-29, K-37): a game says whether it
can remove a seat, and one that cannot refuses with ``SeatNotRemovable`` and changes nothing."""

from __future__ import annotations

import pytest

from duelmail.errors import DuelmailError, SeatNotRemovable
from duelmail.games.base import GameState, get_game
from duelmail.games.simulate import Table

GAMES = ["grid", "skirmish", "summoner", "warlords", "wizard"]
REMOVES = {"warlords": "W-32", "wizard": "Z-29", "skirmish": "K-37"}


@pytest.mark.parametrize("name", GAMES)
def test_the_spec_says_whether_the_rules_remove_a_seat(name):
    game = get_game(name)
    n = max(3, game.spec.min_players) if name in REMOVES else 2
    state = game.new_state(n, game.spec.resolve_options({}))
    assert game.spec.removes_seats == (name in REMOVES)
    assert (type(state).remove is not GameState.remove) == game.spec.removes_seats
    assert state.removed == frozenset()


@pytest.mark.parametrize("name", ["grid", "summoner"])
def test_a_two_player_game_refuses_a_removal_and_keeps_the_forfeit(name):
    t = Table.deal(get_game(name), 2, {}, seed=0)
    deciders = t.state.deciders()
    with pytest.raises(SeatNotRemovable, match="cannot remove seat 1; a seat that stops answering forfeits"):
        t.state.remove(1)
    assert issubclass(SeatNotRemovable, DuelmailError)
    assert t.state.deciders() == deciders and t.state.removed == frozenset() and not t.state.is_terminal()


@pytest.mark.parametrize("name", sorted(REMOVES))
def test_a_removal_names_its_rule_and_refuses_what_it_cannot_remove(name):
    rule = REMOVES[name]
    t = Table.deal(get_game(name), 4, {}, seed=3)
    for seat in (4, -1, "1", True):
        with pytest.raises(SeatNotRemovable, match=f"the seats are 0 to 3 \\(rule {rule}\\)"):
            t.state.remove(seat)
    assert t.state.removed == frozenset()
    t.remove(2)
    assert any(e.rule == rule and 2 in e.seats for e in t.told)
    with pytest.raises(SeatNotRemovable, match=f"seat 2: it was removed already \\(rule {rule}\\)"):
        t.state.remove(2)
    assert t.state.removed == frozenset({2}) and 2 in t.state.retired()
