"""Answer windows in Summoner (protocol 5b): the source's timing by default, the old rulings with mail-shortcuts.

Each test names the digest rule it checks (seeds/summoner.md): S-21 (direct damage counts at once, a joker
stop sends the attacker to post-summoning), S-18 (the defender's replacement right after the battle), S-22
(the instant win has no timing limit), S-23 (no window when no answer is possible).
"""

from __future__ import annotations

import pytest

from duelmail.errors import IllegalMove
from duelmail.games.cards import CardRef
from duelmail.games.summoner.rules import BATTLE, CHAIN, CLAIM, POST, PRE, WINDOW

SHORT = {"mail-shortcuts": True}


def refused(rule, play, t, seat, text):
    with pytest.raises(IllegalMove) as err:
        play(t, seat, text)
    assert err.value.rule == rule, str(err.value)
    return str(err.value)


def r(text):
    return CardRef.parse(text)


def test_s21_lethal_direct_damage_wins_at_once(rig, play):
    """The hit that brings life to zero wins before the attacker does anything else (S-21, S-24)."""
    t = rig("2C", "KS", options={"life": 13})
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    st = t.state
    assert st.phase == WINDOW and st.deciders() == (0,) and not st.is_terminal()  # nothing fixed while answerable
    (w,) = st.windows()
    assert (w.seat, w.rule, w.answers) == (0, "S-21", ("pass", "stop", "win"))
    play(t, 0, "pass")
    assert st.is_terminal() and st.outcome().winners == (1,) and "S-24" in st.outcome().reason


def test_s21_lethal_hit_cannot_be_lost_to_an_empty_pile_afterwards(rig, play):
    """The issue's case: with a one-card pile the attacker's post-summoning draw would lose (S-7); the damage
    counts first, so the attacker has already won."""
    t = rig("2C", "KS 3S", options={"life": 13}, size=1)
    play(t, 0, "end")  # seat 0 draws nothing: it played no card
    play(t, 1, "summon s#5=ks")  # seat 1 draws the last card
    assert t.state.pile == []
    play(t, 1, "attack s#5 life")
    play(t, 0, "pass")
    assert t.state.outcome().winners == (1,) and "S-24" in t.state.outcome().reason


def test_s21_damage_counts_before_the_next_attack(rig, play):
    t = rig("2C", "KS QS")
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    play(t, 0, "pass")
    assert t.state.life == [67, 80] and t.state.phase == BATTLE and t.state.deciders() == (1,)


def test_s21_a_joker_stop_sends_the_attacker_to_post_summoning(rig, play):
    t = rig("XR", "9S 5S")
    play(t, 0, "end")
    play(t, 1, "summon s#5=9s", "summon s#6=5s", "attack s#5 life")
    play(t, 0, "stop s#0=xr")
    assert t.state.phase == CHAIN and t.state.deciders() == (1,)
    play(t, 1, "pass")
    st = t.state
    assert st.life == [80, 80] and st.phase == POST and st.deciders() == (1,)
    refused("S-12", play, t, 1, "attack s#6 life")  # the attacks are cancelled
    play(t, 1, "end")
    assert t.state.current == 0


def test_s21_a_countered_stop_lets_the_hit_through_and_the_battle_goes_on(rig, play):
    t = rig("XR", "KS 5S XB")
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    play(t, 0, "stop s#0=xr")
    play(t, 1, "counter s#7=xb")
    play(t, 0, "pass")
    assert t.state.life == [67, 80] and t.state.phase == BATTLE and t.state.deciders() == (1,)


def test_s21_a_window_answers_only_with_its_answers(rig, play):
    t = rig("XR 9C", "KS")
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    refused("S-21", play, t, 0, "summon s#1=9c")
    refused("S-8", play, t, 1, "end")  # the attacker waits for the answer


def test_s21_s23_no_window_once_every_joker_is_out(rig, play):
    t = rig("XB XB XB 2C", "XB XR XR KS")
    play(t, 0, "summon s#3=2c", "end")
    play(t, 1, "summon s#8=ks", "joker s#5=xb s#3")
    for seat, ref in ((0, "s#0"), (1, "s#6"), (0, "s#1"), (1, "s#7"), (0, "s#2")):
        play(t, seat, f"counter {ref}={'xr' if seat else 'xb'}")
    assert t.state.field[0] == [r("s#3")] or t.state.field[0][0].refs == [r("s#3")]  # six jokers: countered
    play(t, 1, "end")
    play(t, 0, "end")
    play(t, 1, "attack s#8 s#3")  # a 13 against the 2: the winner could be replaced (an 11)
    play(t, 0, "pass")
    play(t, 1, "end")
    play(t, 0, "end")
    play(t, 1, "attack s#8 life")  # no joker is left anywhere: no window, the damage counts at once
    assert t.state.phase == BATTLE and t.state.life[0] == 67


def test_s21_shortcuts_keep_the_next_turn_answer(rig, play):
    t = rig("2C", "KS", options={"life": 13, **SHORT})
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    assert t.state.phase == BATTLE and not t.state.is_terminal() and t.state.windows() == ()
    play(t, 1, "end")
    play(t, 0, "take")
    assert t.state.outcome().winners == (1,)


def test_s18_the_defender_replaces_right_after_the_battle(rig, play):
    """'Both the players can apply this rule after battles': the source's first example, from the defender."""
    t = rig("5C 3D", "AS")
    play(t, 0, "summon s#0=5c", "end")
    play(t, 1, "summon s#5=as", "attack s#5 s#0")  # the ace beats the 5 by 9
    (w,) = t.state.windows()
    assert (w.seat, w.rule) == (0, "S-18") and t.state.deciders() == (0,)
    t2 = rig("5C 9D", "AS")
    play(t2, 0, "summon s#0=5c", "end")
    play(t2, 1, "summon s#5=as", "attack s#5 s#0")
    play(t2, 0, "replace s#5 s#1=9d")  # a 9 from seat 0's hand takes the ace's place on seat 1's side
    st = t2.state
    assert [u.refs for u in st.field[1]] == [[r("s#1")]] and r("s#5") in st.gone
    assert st.phase == BATTLE and st.deciders() == (1,) and len(st.hands[0]) == 5
    refused("S-18", play, t2, 1, "replace s#5 s#6=9s")  # replaced once only


def test_s18_a_pass_leaves_the_attackers_own_right(rig, play):
    t = rig("7C 5C", "KS 8H")
    play(t, 0, "summon s#0=7c", "summon s#1=5c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#1")
    play(t, 0, "pass")
    play(t, 1, "replace s#5 s#6=8h")
    assert [u.refs for u in t.state.field[1]] == [[r("s#6")]]


def test_s18_no_next_turn_replacement_by_default(rig, play):
    t = rig("5C 8D", "KS")
    play(t, 0, "summon s#0=5c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#0")
    play(t, 0, "pass")
    play(t, 1, "end")
    refused("S-18", play, t, 0, "replace s#5 s#1=8d")  # the right was after the battle


def test_s18_shortcuts_no_window_the_answer_waits(rig, play):
    t = rig("5C 8D", "KS", options=SHORT)
    play(t, 0, "summon s#0=5c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#0")
    assert t.state.windows() == () and t.state.deciders() == (1,)
    play(t, 1, "end")
    play(t, 0, "replace s#5 s#1=8d")


def test_s22_instant_win_in_an_answer_window(rig, play):
    """No timing limit: the attacked player claims the win instead of answering the direct attack."""
    t = rig("XR XR", "KS")
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    play(t, 0, "win s#0=xr s#1=xr")
    assert t.state.phase == CLAIM and t.state.deciders() == (1,)
    play(t, 1, "pass")
    assert t.state.outcome().winners == (0,) and "S-22" in t.state.outcome().reason


def test_s22_instant_win_in_a_joker_chain_and_in_battle(rig, play):
    t = rig("XB 2C", "KS XR XR")
    play(t, 0, "summon s#1=2c", "end")
    play(t, 1, "summon s#5=ks", "end")
    play(t, 0, "joker s#0=xb s#5")
    play(t, 1, "win s#6=xr s#7=xr")  # instead of a counter-joker; three black jokers left make no counter set
    assert t.state.outcome().winners == (1,)
    t = rig("9C", "KS XR XR")
    play(t, 0, "summon s#0=9c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#0")
    play(t, 0, "pass")
    assert t.state.phase == BATTLE
    play(t, 1, "win s#6=xr s#7=xr")
    assert t.state.phase == CLAIM


def test_s22_shortcuts_only_in_ones_own_summoning_phases(rig, play):
    t = rig("XB 2C", "KS XR XR", options=SHORT)
    play(t, 0, "summon s#1=2c", "end")
    play(t, 1, "summon s#5=ks", "end")
    play(t, 0, "joker s#0=xb s#5")
    refused("S-22", play, t, 1, "win s#6=xr s#7=xr")
    play(t, 1, "pass")
    assert t.state.phase == PRE
