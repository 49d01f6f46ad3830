"""Z-29: a player removed by escrow (protocol section 6c) leaves play; the others play on to a legal end."""

from __future__ import annotations

import random

import pytest
from positions import first_position

from duelmail.errors import SeatNotRemovable
from duelmail.games.base import PUBLIC, Violation, get_game
from duelmail.games.simulate import Table
from duelmail.games.wizard.terms import DEFEND, RETARGET, TURN, WINDOW

GAME = get_game("wizard")
OPTIONS = ({}, {"anytime": True}, {"anytime": True, "sudden-death": True}, {"mail-shortcuts": True})


def bots(n: int, rng: random.Random):
    names = ("heuristic", "random")
    return [GAME.bots[names[rng.randrange(2)]]() for _ in range(n)]


def find(pred, n: int, options: dict, seeds=range(60), limit: int = 600):
    """A table (and its bots) at the first position where ``pred(state)`` holds, over seeded bot games."""
    return first_position(pred, lambda seed: Table.deal(GAME, n, options, seed), lambda rng: bots(n, rng), seeds,
                          limit)


def remove_and_check_hand(t: Table, seat: int) -> None:
    """Z-29: the removed player's Lives join the hand, and the whole hand is face up for everyone."""
    cards = list(t.state.hands[seat]) + list(t.state.lives[seat])
    t.remove(seat)
    st = t.state
    assert seat not in st.alive and st.lives[seat] == []
    vis = st.visibility()
    for r in cards:
        assert r in st.hands[seat] and vis[r] == PUBLIC and st.public_faces()[r] == t.truth[r]


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8])
def test_z29_removal_at_many_points_then_the_rest_play_to_the_end(n, removal):
    rng = random.Random(n)
    for trial in range(12):
        t = Table.deal(GAME, n, OPTIONS[trial % len(OPTIONS)], seed=100 * n + trial)
        bs = bots(n, rng)
        removal.advance(t, bs, rng.randrange(0, 60))
        if t.state.is_terminal():
            continue
        st = t.state
        seat = rng.choice([*st.deciders(), *st.alive])
        remove_and_check_hand(t, seat)
        out = removal.play_on(t, bs, {seat})
        assert seat not in out.winners


def test_z29_two_removals_one_after_the_other_in_a_game_of_five(removal):
    rng = random.Random(5)
    for trial in range(10):
        t = Table.deal(GAME, 5, OPTIONS[trial % len(OPTIONS)], seed=500 + trial)
        removal.one_after_another(t, bots(5, rng), rng, 2, (0, 25), lambda st: st.alive, remove_and_check_hand)


def test_z29_removing_the_player_on_turn_passes_the_turn_and_the_next_player_draws(removal):
    t, bs = find(lambda st: st.phase == TURN and st.turn > 3, 4, {})
    seat = t.state.current
    nxt = t.state.next_alive(seat)
    hand = len(t.state.hands[nxt])
    t.remove(seat)
    st = t.state
    assert st.current == nxt and st.phase == TURN and st.deciders() == (nxt,) and len(st.hands[nxt]) == hand + 1
    removal.play_on(t, bs, {seat})


def test_z29_a_removed_target_makes_the_spell_fizzle(removal):
    t, bs = find(lambda st: st.phase == DEFEND and not st.spell.window, 4, {})
    sp = t.state.spell
    cards, current = list(sp.cards), t.state.current
    t.remove(sp.target)
    st = t.state
    assert st.spell is None and all(r in st.used for r in cards)
    assert any(e.kind == "fizzle" and e.rule == "Z-29" for e in t.told)
    assert st.current == st.next_alive(current) or st.is_terminal()
    removal.play_on(t, bs, {sp.target})


def test_z29_a_removed_caster_choosing_a_new_target_makes_the_spell_fizzle(removal):
    t, bs = find(lambda st: st.phase == RETARGET, 5, {}, seeds=range(300))
    caster = t.state.spell.attacker
    t.remove(caster)
    assert t.state.spell is None
    removal.play_on(t, bs, {caster})


def test_z29_a_spell_between_others_goes_on(removal):
    t, bs = find(lambda st: st.phase == DEFEND and len(st.alive) >= 4, 5, {})
    sp = t.state.spell
    other = next(s for s in t.state.alive if s not in (sp.attacker, sp.target, sp.owner, t.state.current))
    t.remove(other)
    st = t.state
    assert st.spell is not None and st.spell.target == sp.target and st.deciders() == (sp.target,)
    removal.play_on(t, bs, {other})


def test_z29_a_player_answering_an_attack_window_is_removed_and_the_window_closes_without_it(removal):
    t, bs = find(lambda st: st.phase == WINDOW and len(st.window) >= 2 and not st.declared, 5, {"anytime": True})
    seat = t.state.window[0]
    t.remove(seat)
    st = t.state
    assert seat not in st.window and seat not in st.deciders()
    removal.play_on(t, bs, {seat})


def test_z29_the_last_player_to_answer_a_window_removed_resolves_the_window(removal):
    def last_one(st):
        return st.phase == WINDOW and len(st.window) >= 2 and len(st.declared) == len(st.window) - 1

    t, bs = find(last_one, 5, {"anytime": True})
    seat = next(s for s in t.state.window if s not in t.state.declared)
    t.remove(seat)
    assert t.state.phase != WINDOW or seat not in t.state.window
    removal.play_on(t, bs, {seat})


def test_z29_removed_while_the_stock_is_reshuffled_the_next_player_draws_the_first_card(removal):
    def reshuffle(st):
        return st.phase == TURN and len(st.stock) == 0 and st.generation == 0 and st.used and len(st.alive) >= 3

    t, bs = find(reshuffle, 4, {}, seeds=range(200), limit=2000)
    # the next pass of the turn asks for the reshuffle: remove the player it would pass to, in the shuffle
    seat = t.state.current
    st = t.state.clone()
    st.apply(seat, GAME.parse_action("pass"))
    assert st.chance() is not None
    t.state = st
    t.told += st.take_told()
    drawer = st.current
    nxt = st.next_alive(drawer)
    t.remove(drawer)
    assert t.state.current == nxt and t.state.chance() is None and t.state.deciders() == (nxt,)
    removal.play_on(t, bs, {drawer})


def test_z29_the_last_player_in_play_wins():
    t = Table.deal(GAME, 3, {}, seed=1)
    t.remove(0)
    assert not t.state.is_terminal() and t.state.current == 1
    t.remove(2)
    assert t.state.is_terminal() and t.state.outcome().winners == (1,) and "Z-29" in t.state.outcome().reason
    with pytest.raises(SeatNotRemovable, match="the game is over"):
        t.state.remove(1)


def test_z29_removing_a_player_already_out_changes_nothing_in_play():
    t, _ = find(lambda st: len(st.alive) < st.n and len(st.alive) > 2, 5, {"sudden-death": True})
    out = next(s for s in range(5) if s not in t.state.alive)
    before = (t.state.phase, t.state.current, list(t.state.alive), t.state.deciders())
    t.remove(out)
    assert (t.state.phase, t.state.current, list(t.state.alive), t.state.deciders()) == before
    assert out in t.state.removed and out in t.state.retired()
    with pytest.raises(SeatNotRemovable, match="removed already"):
        t.state.remove(out)


def test_z29_a_removed_player_with_an_attack_declared_in_an_open_window_sees_it_fizzle(removal):
    def declared_attack(st):
        return (st.phase == WINDOW and len(st.declared) < len(st.window)
                and any(q[0] in st.declared for q in st.queue))

    t, bs = find(declared_attack, 5, {"anytime": True}, seeds=range(300))
    seat, cards, target = next((q[0], [r for r, _ in q[1]], q[2]) for q in t.state.queue)
    t.remove(seat)
    st = t.state
    assert all(q[0] != seat for q in st.queue) and all(r in st.used for r in cards)
    assert any(e.kind == "fizzle" and e.rule == "Z-29" and e.seats == (seat, target) for e in t.told)
    removal.play_on(t, bs, {seat})


def test_z29_removal_while_the_rules_await_a_shuffle_or_reveals(removal):
    """The engine removes a seat when its removal round closes: perhaps with laid cards not yet turned up."""
    rng = random.Random(7)
    waiting = 0
    for trial in range(120):
        n = 3 + trial % 6
        t = Table.deal(GAME, n, OPTIONS[trial % len(OPTIONS)], seed=700 + trial)
        bs = bots(n, rng)
        removal.advance(t, bs, rng.randrange(0, 40))
        if t.state.is_terminal() or not removal.unsettled(t, bs, rng):
            continue
        waiting += bool(t.state.unrevealed) or t.state.chance() is not None
        seat = rng.choice(t.state.alive)
        t.remove(seat)
        removal.play_on(t, bs, {seat})
    assert waiting >= 3


def test_z29_a_cheat_proven_after_a_removal_never_makes_the_removed_player_a_winner():
    t = Table.deal(GAME, 4, {}, seed=4)
    t.remove(3)
    t.state._forfeit(Violation(2, "Z-24", "seat 2 played w#40 as 9H, but it is 2C"))
    out = t.state.outcome()
    assert out.cheaters == (2,) and 3 not in out.winners and set(out.winners) == {0, 1}
