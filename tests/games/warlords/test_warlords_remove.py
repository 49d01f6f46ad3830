"""W-32: a seat removed by escrow (protocol section 6c) leaves the circle; the others play on to a legal end."""

from __future__ import annotations

import random

import pytest
from positions import first_position

from duelmail.errors import SeatNotRemovable
from duelmail.games.base import PUBLIC, Violation, get_game
from duelmail.games.simulate import Table
from duelmail.games.warlords.terms import (
    A_SUPPORT,
    D_SUPPORT,
    DEFEND,
    EMERGENCY,
    LAST_CHANCE,
    OUTSIDE,
    PREP,
    SHUFFLE,
)

GAME = get_game("warlords")
OPTIONS = ({}, {"reinforcements": True}, {"reinforcements": True, "hidden-ally": True, "mail-shortcuts": True})


def bots(n: int, rng: random.Random):
    names = ("heuristic", "random")
    return [GAME.bots[names[rng.randrange(2)]]() for _ in range(n)]


def find(pred, n: int, options: dict, seeds=range(40), limit: int = 600):
    """A table (and its bots) at the first position where ``pred(state)`` holds, over seeded bot games."""
    return first_position(pred, lambda seed: Table.deal(GAME, n, options, seed), lambda rng: bots(n, rng), seeds,
                          limit)


def removed_hand_is_public(t: Table, seat: int, hand) -> None:
    """W-32: the removed seat's hand is face up, in its discard pile, for everyone."""
    vis = t.state.visibility()
    for r in hand:
        assert r in t.state.discards[seat] and vis[r] == PUBLIC and t.state.public_faces()[r] == t.truth[r]
    assert t.state.hands[seat] == [] and t.state.warlords[seat] == []


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_w32_removal_at_many_points_then_the_rest_play_to_the_end(n, removal):
    rng = random.Random(n)
    for trial in range(12):
        options = OPTIONS[trial % len(OPTIONS)]
        t = Table.deal(GAME, n, options, seed=100 * n + trial)
        bs = bots(n, rng)
        removal.advance(t, bs, rng.randrange(0, 150))
        if t.state.is_terminal():
            continue
        st = t.state
        ins = [s for s in range(n) if st.active[s]]
        seat = rng.choice([st.deciders()[0], *ins]) if st.deciders() else rng.choice(ins)
        hand = list(st.hands[seat])
        t.remove(seat)
        assert not t.state.active[seat]
        removed_hand_is_public(t, seat, hand)
        out = removal.play_on(t, bs, {seat})
        assert out.winners and seat not in out.winners


def test_w32_two_removals_one_after_the_other_in_a_game_of_five(removal):
    rng = random.Random(5)
    for trial in range(8):
        t = Table.deal(GAME, 5, OPTIONS[trial % 3], seed=500 + trial)
        removal.one_after_another(t, bots(5, rng), rng, 2, (5, 80), lambda st: [s for s in range(5) if st.active[s]])


def test_w32_removing_the_seat_whose_turn_it_is_passes_the_turn_to_the_next_seat_in(removal):
    t, bs = find(lambda st: st.phase == PREP and st.turn > 4, 4, {})
    seat = t.state.current
    nxt = t.state.target(seat)
    t.remove(seat)
    assert t.state.current == nxt and t.state.phase == PREP and t.state.deciders() == (nxt,)
    assert any(e.kind == "removed" and e.rule == "W-32" for e in t.told)
    removal.play_on(t, bs, {seat})


@pytest.mark.parametrize("phase", [DEFEND, A_SUPPORT, D_SUPPORT, LAST_CHANCE])
def test_w32_a_removed_defender_calls_the_battle_off_and_the_attacker_prepares_again(phase, removal):
    t, bs = find(lambda st: st.phase == phase, 4, {})
    b = t.state.battle
    attacker, defender = b.attacker, b.defender
    back = [r for r in (b.a_army, b.a_support) if r is not None]
    piles = [len(p) for p in t.state.piles]
    t.remove(defender)
    st = t.state
    assert st.battle is None and st.phase == PREP and st.current == attacker and st.deciders() == (attacker,)
    assert all(r in st.hands[attacker] for r in back)  # the attacker takes its cards back
    assert [len(p) for p in st.piles] == piles  # no damage, no price
    assert st.target(attacker) != defender
    removal.play_on(t, bs, {defender})


@pytest.mark.parametrize("phase", [DEFEND, D_SUPPORT, LAST_CHANCE])
def test_w32_a_removed_attacker_calls_the_battle_off_and_the_defender_keeps_its_cards(phase, removal):
    t, bs = find(lambda st: st.phase == phase, 5, {})
    b = t.state.battle
    attacker, defender = b.attacker, b.defender
    back = [r for r in (b.d_army, b.d_support) if r is not None]
    nxt = t.state.target(attacker)
    t.remove(attacker)
    st = t.state
    assert st.battle is None and all(r in st.hands[defender] for r in back)
    assert st.current == nxt and st.phase == PREP
    removal.play_on(t, bs, {attacker})


def test_w32_a_seat_answering_the_emergency_window_is_removed_and_the_attackers_turn_ends(removal):
    """W-32, W-25: the window closes unanswered; the attacker's turn ends, after its own renewal window if its
    joker is still unplayed (a window of its own turn, not the removed seat's)."""
    t, bs = find(lambda st: st.phase == EMERGENCY, 3, {"reinforcements": True}, seeds=range(200), limit=800)
    seat, attacker = t.state.emergency, t.state.current
    assert t.state.windows()[0].seat == seat
    t.remove(seat)
    st = t.state
    assert st.emergency is None and all(w.seat == attacker and w.rule == "W-25" for w in st.windows())
    if st.windows():
        t.play(attacker, t.game.parse_action("pass"))
        st = t.state
    if not st.is_terminal():
        assert st.current == st.target(attacker)
    removal.play_on(t, bs, {seat})


def test_w32_the_attacker_removed_while_another_seat_answers_its_emergency_window(removal):
    t, bs = find(lambda st: st.phase == EMERGENCY, 4, {"reinforcements": True}, seeds=range(200), limit=800)
    seat, attacker = t.state.emergency, t.state.current
    t.remove(attacker)
    st = t.state
    assert st.phase == EMERGENCY and st.windows()[0].seat == seat and st.deciders() == (seat,)
    removal.play_on(t, bs, {attacker})


def test_w32_removed_while_its_reinforcement_is_being_shuffled(removal):
    # a reinforcement shuffle pending in the rules: the seat playing it is removed before the shuffle is done
    for seed in range(200):
        rng = random.Random(seed)
        bs = bots(4, rng)
        t = Table.deal(GAME, 4, {"reinforcements": True}, seed)
        hit = None
        for _ in range(800):
            st = t.state
            if st.is_terminal():
                break
            seat = st.deciders()[0]
            action = bs[seat].choose(st, seat, t.known(seat), t.rng)
            trial = st.clone()
            trial.apply(seat, action)
            if trial.phase == SHUFFLE:
                t.state = trial
                t.told += trial.take_told()
                hit = seat
                break
            t.play(seat, action)
        if hit is not None:
            break
    else:
        pytest.fail("no reinforcement in 200 games")
    mine = set(t.state.pending[0].refs)
    t.remove(hit)
    st = t.state
    assert st.chance() is None and not st.pending
    assert mine <= set(st.piles[hit]) | set(st.discards[hit])
    removal.play_on(t, bs, {hit})


def test_w32_the_last_seat_in_the_circle_wins():
    t = Table.deal(GAME, 3, {}, seed=1)
    t.remove(1)
    assert not t.state.is_terminal()
    t.remove(0)
    assert t.state.is_terminal() and t.state.outcome().winners == (2,)
    assert "W-32" in t.state.outcome().reason
    with pytest.raises(SeatNotRemovable, match="the game is over"):
        t.state.remove(2)


def test_w32_refusals_name_the_seat_and_change_nothing():
    t = Table.deal(GAME, 4, {}, seed=2)
    t.remove(3)
    before = t.state.clone()
    for seat, why in ((3, "removed already"), (4, "the seats are 0 to 3"), (-1, "the seats are 0 to 3")):
        with pytest.raises(SeatNotRemovable, match=why):
            t.state.remove(seat)
    assert t.state.__dict__.keys() == before.__dict__.keys()
    assert t.state.active == before.active and t.state.removed == before.removed


def test_w32_removal_while_the_rules_await_a_shuffle_or_reveals(removal):
    """The engine removes a seat when its removal round closes: perhaps with a battle's cards half revealed or a
    reinforcement waiting for its shuffle."""
    rng = random.Random(7)
    seen = set()
    for trial in range(40):
        n = 3 + trial % 4
        t = Table.deal(GAME, n, OPTIONS[trial % len(OPTIONS)], seed=700 + trial)
        bs = bots(n, rng)
        removal.advance(t, bs, rng.randrange(0, 150))
        if t.state.is_terminal() or not removal.unsettled(t, bs, rng):
            continue
        seen.add(t.state.phase)
        seat = rng.choice([s for s in range(n) if t.state.active[s]])
        t.remove(seat)
        removal.play_on(t, bs, {seat})
    assert len(seen) >= 3, seen


def test_w32_a_cheat_proven_after_the_end_never_makes_a_removed_seat_a_winner():
    t = Table.deal(GAME, 4, {}, seed=4)
    t.remove(3)
    t.remove(2)
    t.remove(1)
    assert t.state.outcome().winners == (0,)
    t.state._forfeit(Violation(0, "W-30", "seat 0 played a#3 face down as a Warlord, but it is 7H"))
    out = t.state.outcome()
    assert out.cheaters == (0,) and not set(out.winners) & {1, 2, 3}


def test_w32_a_seat_already_out_is_removed_and_only_its_cards_move(removal):
    t, bs = find(lambda st: st.phase == PREP and sum(st.active) >= 3 and not all(st.active), 5, {},
                 seeds=range(200), limit=3000)
    out = next(s for s in range(5) if not t.state.active[s])
    before = (t.state.phase, t.state.current, list(t.state.active), t.state.deciders())
    hand = list(t.state.hands[out])
    t.remove(out)
    assert (t.state.phase, t.state.current, list(t.state.active), t.state.deciders()) == before
    removed_hand_is_public(t, out, hand)
    removal.play_on(t, bs, {out})


def test_w32_the_seat_asked_about_an_attack_is_removed_and_the_next_is_asked(removal):
    """W-32, W-18: a seat removed while its Ace-outside-battle window is open loses that window; the next seat not
    in the battle is asked, or the defender defends."""
    t, bs = find(lambda st: st.phase == OUTSIDE, 4, {}, seeds=range(200), limit=800)
    asked, b = t.state.bystanders[0], t.state.battle
    t.remove(asked)
    st = t.state
    assert asked not in st.bystanders and st.battle is b and asked not in st.deciders()
    assert st.phase == (OUTSIDE if st.bystanders else DEFEND)
    removal.play_on(t, bs, {asked})


def test_w32_the_defender_removed_while_a_bystander_is_asked_calls_the_attack_off(removal):
    """W-32, W-18: the battle is called off, so nobody is asked about it any more; the attacker prepares on."""
    t, bs = find(lambda st: st.phase == OUTSIDE, 3, {}, seeds=range(200), limit=800)
    attacker, defender = t.state.battle.attacker, t.state.battle.defender
    t.remove(defender)
    st = t.state
    assert st.battle is None and not st.bystanders and not st.windows()
    if not st.is_terminal():
        assert st.phase == PREP and st.deciders() == (attacker,)
    removal.play_on(t, bs, {defender})
