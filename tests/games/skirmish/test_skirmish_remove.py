"""K-37: a seat removed by escrow (protocol section 6c): its character leaves the fight; the rest play to the end."""

from __future__ import annotations

import random

import pytest
from positions import first_position

from duelmail.errors import SeatNotRemovable
from duelmail.games.base import get_game
from duelmail.games.simulate import Table

GAME = get_game("skirmish")
FIELDS = ("open-field", "ruined-keep", "cliff-top")


def bots(n: int, rng: random.Random):
    names = ("heuristic", "random")
    return [GAME.bots[names[rng.randrange(2)]]() for _ in range(n)]


def deal(n: int, seed: int, turns: int = 12) -> Table:
    return Table.deal(GAME, n, {"battlefield": FIELDS[seed % len(FIELDS)], "turns": turns}, seed)


def find(pred, n: int, seeds=range(60), limit: int = 3000):
    """A table (and its bots) at the first position where ``pred(state)`` holds, over seeded bot games."""
    return first_position(pred, lambda seed: deal(n, seed), lambda rng: bots(n, rng), seeds, limit)


def removed_ok(t: Table, seat: int) -> None:
    st = t.state
    assert not st.alive[seat] and seat in st.removed and seat in st.retired()
    assert any(e.kind == "removed" and e.rule == "K-37" for e in t.told)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_k37_removal_at_many_points_then_the_rest_play_to_the_end(n, removal):
    rng = random.Random(n)
    for trial in range(8):
        t = deal(n, 100 * n + trial)
        bs = bots(n, rng)
        removal.advance(t, bs, rng.randrange(0, 120))
        if t.state.is_terminal():
            continue
        st = t.state
        seat = rng.choice([*st.deciders(), *(s for s in range(n) if st.alive[s])])
        t.remove(seat)
        removed_ok(t, seat)
        out = removal.play_on(t, bs, {seat})
        assert seat not in out.winners


def test_k37_two_removals_one_after_the_other_in_a_game_of_five(removal):
    rng = random.Random(5)
    for trial in range(6):
        t = deal(5, 500 + trial)
        removal.one_after_another(t, bots(5, rng), rng, 2, (0, 60), lambda st: [s for s in range(5) if st.alive[s]])


def test_k37_removed_during_the_building_the_others_open_their_start_without_it(removal):
    t, bs = find(lambda st: st.wait[0] == "build" and len(st.built[1]) == 5 and len(st.built[2]) == 2, 4)
    t.remove(2)
    st = t.state
    assert 2 not in st.deciders()
    while st.wait and st.wait[0] == "build":
        seat = st.deciders()[0]
        t.play(seat, bs[seat].choose(st, seat, t.known(seat), t.rng))
    assert 2 not in (st.wait[1] if st.wait else ())
    assert st.rev[2] == dict.fromkeys(st.rev[2], 0)  # its character never entered
    removal.play_on(t, bs, {2})


@pytest.mark.parametrize("committed", [True, False])
def test_k37_a_sealed_dual_reveal_goes_on_without_the_removed_seat(committed, removal):
    def half_done(st):
        w = st.wait
        return (w[0] == "dual" and len(w[1]) >= 3 and 0 < len(st.committed) < len(w[1])
                and w[3] != "d0")

    t, bs = find(half_done, 4)
    w = t.state.wait
    seat = next(s for s in w[1] if (s in t.state.committed) == committed)
    label = w[3]
    t.remove(seat)
    st = t.state
    if st.wait and st.wait[0] == "dual" and st.wait[3] == label:
        assert seat not in st.wait[1] and seat not in st.committed
    assert label not in st.openings().get(seat, ())
    removal.play_on(t, bs, {seat})


@pytest.mark.parametrize("committed", [True, False])
def test_k37_a_round_of_fight_plans_goes_on_without_the_removed_seat(committed, removal):
    def plans(st):
        w = st.wait
        return w[0] == "plan" and 0 < len(st.committed) < len(w[1])

    t, bs = find(plans, 3, seeds=range(200))
    w = t.state.wait
    seat = next(s for s in w[1] if (s in t.state.committed) == committed)
    t.remove(seat)
    st = t.state
    if st.wait and st.wait[0] == "plan":
        assert seat not in st.wait[1]
    removal.play_on(t, bs, {seat})


@pytest.mark.parametrize("kind", ["reveal", "move", "endure"])
def test_k37_the_seat_the_rules_wait_for_is_removed_and_the_sequence_goes_on(kind, removal):
    t, bs = find(lambda st: st.wait[0] == kind and sum(st.alive) >= 3, 3, seeds=range(200))
    seat = t.state.wait[1]
    t.remove(seat)
    removed_ok(t, seat)
    removal.play_on(t, bs, {seat})


def test_k37_a_stat_shown_exhausted_is_left_for_the_audit():
    t, _ = find(lambda st: st.turn >= 1 and sum(st.alive) == 3, 3)
    # the simulator opens an exhausted stat's total at once: in a clone, a flag still awaiting its opening
    seat = 1
    st = t.state.clone()
    stat = next(s for s in ("str", "spd", "end", "dex") if s not in st.totals[seat] and s not in st.flagged[seat])
    st.flagged[seat].add(stat)
    assert stat in st.openings().get(seat, ())
    st.remove(seat)
    assert seat not in st.openings()


def test_k37_the_last_character_standing_wins():
    t = deal(3, 1)
    t.remove(0)
    assert not t.state.is_terminal()
    t.remove(2)
    assert t.state.is_terminal() and t.state.outcome().winners == (1,) and "K-37" in t.state.outcome().reason
    with pytest.raises(SeatNotRemovable, match="the game is over"):
        t.state.remove(1)


def test_k37_removal_while_sealed_choices_await_their_opening(removal):
    """The engine removes a seat when its removal round closes: perhaps with a round's sealed choices all committed
    and not yet opened."""
    rng = random.Random(7)
    waiting = 0
    for trial in range(24):
        n = 3 + trial % 4
        t = deal(n, 700 + trial)
        bs = bots(n, rng)
        removal.advance(t, bs, rng.randrange(0, 120))
        if t.state.is_terminal() or not removal.unsettled(t, bs, rng):
            continue
        waiting += bool(t.state.openings())
        seat = rng.choice([s for s in range(n) if t.state.alive[s]])
        t.remove(seat)
        removal.play_on(t, bs, {seat})
    assert waiting >= 2
