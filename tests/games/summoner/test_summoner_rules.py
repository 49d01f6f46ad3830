"""Rule tests for Summoner; each test names the digest rule (seeds/summoner.md) it checks.

Seat 0 holds s#0..s#4, seat 1 s#5..s#9; draws come from s#10 on. Seat 0 cannot attack in the
game's first turn (S-13), so most battles have seat 1 attacking in turn 2.
"""

from __future__ import annotations

import pytest

from duelmail.errors import DuelmailError, IllegalMove
from duelmail.games.base import PUBLIC
from duelmail.games.cards import Card, CardRef
from duelmail.games.summoner.notation import Look, Summon
from duelmail.games.summoner.rules import ANSWER, BATTLE, CHAIN, CLAIM, OVER, POST, PRE, WINDOW, SummonerState

SHORT = {"mail-shortcuts": True}  # the by-mail rulings that change the game (S-6, S-18, S-21, S-22), as an option


def refused(rule, play, t, seat, text):
    with pytest.raises(IllegalMove) as err:
        play(t, seat, text)
    assert err.value.rule == rule, str(err.value)
    assert f"(rule {rule})" in str(err.value) and text in str(err.value)
    return str(err.value)


def r(text):
    return CardRef.parse(text)


def field(t, seat):
    st = t.state
    return [(str(st.face(u.refs[0])), st.value(u)) for u in st.field[seat]]


# -- S-1 .. S-8: deck, life, deal, values, drawing, turns -------------------------------------------------

def test_s1_one_shared_deck_of_110_locked_by_both(game):
    (deck,) = game.decks(2, {})
    assert deck.id == "s" and len(deck.faces) == 110 and deck.owner is None and deck.lockers is None
    assert deck.faces.count(Card.parse("XB")) == 4 and deck.faces.count(Card.parse("XR")) == 2
    assert deck.faces.count(Card.parse("QH")) == 2
    assert game.spec.id == "summoner" and game.spec.digest == "seeds/summoner.md"
    assert (game.spec.min_players, game.spec.max_players) == (2, 2)


def test_s2_life_points_and_the_life_option(game, rig):
    assert game.spec.resolve_options({}) == {"life": 80, "mail-shortcuts": False}
    assert rig().state.life == [80, 80]
    assert rig(options={"life": "30"}).state.life == [30, 30]
    with pytest.raises(DuelmailError):
        SummonerState(0)


def test_s3_deal_and_seat_0_first(rig):
    t = rig()
    st = t.state
    assert st.hands == [[r(f"s#{i}") for i in range(5)], [r(f"s#{i}") for i in range(5, 10)]]
    assert st.pile[-1] == r("s#10") and len(st.pile) == 100
    assert st.deciders() == (0,) and st.phase == PRE and st.turn == 1


def test_s4_values_and_jokers_are_never_summoned(rig, play):
    t = rig("JC QC 2C XB")
    play(t, 0, "summon s#0=jc")
    assert field(t, 0) == [("JC", 11)]
    refused("S-4", play, t, 0, "summon s#3=xb")


def test_s5_every_card_leaving_the_hand_is_replaced_at_once(rig, play):
    t = rig("8C 6C")
    play(t, 0, "summon s#0=8c")
    assert t.state.hands[0] == [r("s#1"), r("s#2"), r("s#3"), r("s#4"), r("s#10")]
    play(t, 0, "summon s#1=6c")
    assert len(t.state.hands[0]) == 5 and t.state.hands[0][-1] == r("s#11") and len(t.state.pile) == 98


def test_s6_a_drawn_card_is_seen_once_the_opponent_moves(rig, play):
    t = rig("8C", pile="5H")
    play(t, 0, "summon s#0=8c")
    assert r("s#10") not in t.known(0) and r("s#10") not in t.state.visibility()
    assert Summon(r("s#10"), Card.parse("5H")) not in t.state.legal_actions(0, t.truth)
    refused("S-6", play, t, 0, "summon s#10=5h")
    play(t, 0, "end")
    assert t.state.visibility()[r("s#10")] == 0 and t.known(0)[r("s#10")] == Card.parse("5H")
    assert r("s#10") not in t.known(1)


def test_s6_summon_draw_summon_after_a_look(rig, play):
    """S-6 by default: the card drawn after a summon may be seen at once ('look') and summoned in the same turn."""
    t = rig("8C", pile="5H")
    play(t, 0, "summon s#0=8c")
    assert Look() in t.state.legal_actions(0, t.truth)
    refused("S-6", play, t, 0, "summon s#10=5h")
    play(t, 0, "look")
    assert t.state.visibility()[r("s#10")] == 0 and t.state.deciders() == (0,)
    play(t, 0, "summon s#10=5h")  # 8 + 5 within the 14 of S-9
    assert [u.refs for u in t.state.field[0]] == [[r("s#0")], [r("s#10")]] and t.state.budget == 13
    assert r("s#11") in t.state.unseen[0] and Look() in t.state.legal_actions(0, t.truth)


def test_s6_with_mail_shortcuts_a_drawn_card_waits_for_the_next_turn(rig, play):
    t = rig("8C", pile="5H", options={"mail-shortcuts": True})
    play(t, 0, "summon s#0=8c")
    assert Look() not in t.state.legal_actions(0, t.truth)
    refused("S-6", play, t, 0, "look")
    refused("S-6", play, t, 0, "summon s#10=5h")


def test_s7_drawing_from_an_empty_pile_loses(rig, play):
    t = rig("8C 2C", size=1)
    play(t, 0, "summon s#0=8c")
    assert not t.state.is_terminal() and t.state.pile == []
    play(t, 0, "summon s#1=2c")
    st = t.state
    assert st.is_terminal() and st.outcome().winners == (1,) and "S-7" in st.outcome().reason


def test_s8_only_the_awaited_seat_acts_and_end_passes_the_turn(rig, play):
    t = rig()
    refused("S-8", play, t, 1, "end")
    play(t, 0, "end")
    assert t.state.deciders() == (1,) and t.state.turn == 2 and t.state.phase == PRE


# -- S-9 .. S-13: summoning, field, doubles, phases -------------------------------------------------------

def test_s9_at_most_14_summoned_per_turn(rig, play):
    t = rig("KC 2C 8D 6D 7S")
    play(t, 0, "summon s#0=kc")
    msg = refused("S-9", play, t, 0, "summon s#1=2c")
    assert "13 of 14" in msg
    play(t, 0, "end")
    play(t, 1, "end")
    play(t, 0, "summon s#2=8d", "summon s#3=6d")
    assert t.state.budget == 14
    refused("S-9", play, t, 0, "summon s#4=7s")


def test_s10_at_most_five_cards_on_a_field(rig, play):
    t = rig("2C 3C 4C 5C 2D", pile="3D 9H 9S 9D 10H")
    play(t, 0, "summon s#0=2c", "summon s#1=3c", "summon s#2=4c", "summon s#3=5c", "end")
    play(t, 1, "end")
    play(t, 0, "summon s#4=2d")
    assert len(t.state.field[0]) == 5
    refused("S-10", play, t, 0, "summon s#10=3d")


def test_s11_double_card_doubles_and_is_not_a_summon(rig, play):
    t = rig("JC JC JH")
    play(t, 0, "summon s#0=jc")
    refused("S-11", play, t, 0, "double s#2=jh s#0")  # same rank, wrong suit
    play(t, 0, "double s#1=jc s#0")
    assert field(t, 0) == [("JC", 22)] and t.state.budget == 11
    assert t.state.field[0][0].refs == [r("s#0"), r("s#1")]
    assert t.state.visibility()[r("s#1")] == PUBLIC


def test_s11_only_on_your_own_single_card(rig, play):
    t = rig("9S 9S", "9H 9H")
    play(t, 0, "summon s#0=9s", "end")
    refused("S-11", play, t, 1, "double s#5=9h s#0")
    play(t, 1, "summon s#5=9h", "double s#6=9h s#5")
    assert field(t, 1) == [("9H", 18)]


def test_s12_a_summon_after_attacking_ends_the_battle_phase(rig, play):
    t = rig("5C", "QS 8S 2S")
    play(t, 0, "summon s#0=5c", "end")
    play(t, 1, "summon s#5=qs")
    assert t.state.phase == PRE
    play(t, 1, "attack s#5 s#0")
    assert t.state.phase == WINDOW  # seat 0 may replace the winner (S-18)
    play(t, 0, "pass")
    assert t.state.phase == BATTLE
    play(t, 1, "summon s#7=2s")
    assert t.state.phase == POST
    refused("S-12", play, t, 1, "attack s#7 life")


def test_s13_no_attack_in_the_games_first_turn(rig, play):
    t = rig("KC")
    play(t, 0, "summon s#0=kc")
    refused("S-13", play, t, 0, "attack s#0 life")


# -- S-14 .. S-18: battles, direct and combined attacks, replacements ----------------------------------------

def test_s14_higher_value_wins_loser_leaves_each_card_attacks_once(rig, play):
    t = rig("5C 9C", "KS")
    play(t, 0, "summon s#0=5c", "summon s#1=9c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#0")
    assert field(t, 0) == [("9C", 9)] and r("s#0") in t.state.gone and field(t, 1) == [("KS", 13)]
    play(t, 0, "pass")
    refused("S-14", play, t, 1, "attack s#5 s#1")


def test_s14_equal_values_both_leave(rig, play):
    t = rig("9C", "9S")
    play(t, 0, "summon s#0=9c", "end")
    play(t, 1, "summon s#5=9s", "attack s#5 s#0")
    assert t.state.field == [[], []] and {r("s#0"), r("s#5")} <= set(t.state.gone)
    assert t.state.won == []  # no winner: nothing to replace


def test_s15_direct_attack_only_on_an_empty_field(rig, play):
    t = rig("2C", "KS QS", options=SHORT)
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    assert t.state.damage == [(r("s#5"), 13)] and t.state.life == [80, 80]  # settled later (S-21, mail-shortcuts)
    t = rig("2C", "KS")
    play(t, 0, "summon s#0=2c", "end")
    play(t, 1, "summon s#5=ks")
    refused("S-15", play, t, 1, "attack s#5 life")


def three_sevens_against(rig, play, twins: str):
    """The source's example: a 7 on the field, two more summoned, against a double card of seat 1."""
    t = rig("7C 7D 7H", f"{twins} {twins}")
    play(t, 0, "summon s#0=7c", "summon s#1=7d", "end")
    low = twins.lower()
    play(t, 1, f"summon s#5={low}", f"double s#6={low} s#5", "end")
    play(t, 0, "summon s#2=7h")
    return t


def test_s16_three_sevens_are_worth_28(rig, play):
    t = three_sevens_against(rig, play, "KS")
    play(t, 0, "attack s#0+s#1+s#2 s#5")  # 28 against a double king (26)
    play(t, 1, "pass")
    assert t.state.field[1] == [] and len(t.state.field[0]) == 3
    assert t.state.won[-1].diff == 2 and t.state.won[-1].side == 0


def test_s16_three_sevens_beat_the_double_ace(rig, play):
    """The source: the three 7s "worth 28 ... can beat any card or double card, including the double ace" (28):
    a combined attack wins a tie (rules version 4); the winner is worth the difference, 0, so nobody replaces it."""
    t = three_sevens_against(rig, play, "AS")
    play(t, 0, "attack s#0+s#1+s#2 s#5")
    st = t.state
    assert st.field[1] == [] and len(st.field[0]) == 3 and st.phase != WINDOW
    assert all(w.side != 0 for w in st.won)
    (battle,) = [e for e in t.told if e.kind == "battle"]
    assert battle.numbers == (28, 28) and "a combined attack wins" in battle.text


def test_s16_a_single_card_still_ties(rig, play):
    """S-14: "If the value of the two cards is the same, both cards are removed" (one card against one)."""
    t = rig("9C", "9S")
    play(t, 0, "summon s#0=9c", "end")
    play(t, 1, "summon s#5=9s", "end")
    play(t, 0, "attack s#0 s#5")
    assert t.state.field == [[], []]


def test_s16_a_game_begun_under_rules_version_3_ties_against_the_double_ace(rig, play):
    """Version 3 (the old reading, the table over the example): 28 against 28 is a tie, all leave play."""
    t = three_sevens_against(lambda *a, **k: rig(*a, **k, rules_version=3), play, "AS")
    play(t, 0, "attack s#0+s#1+s#2 s#5")
    assert t.state.field == [[], []]


def test_s16_combined_attacks_need_equal_values_and_a_card_target(rig, play):
    t = rig("7C 7D 6H", "QS")
    play(t, 0, "summon s#0=7c", "summon s#2=6h", "end")
    play(t, 1, "summon s#5=qs", "end")
    refused("S-16", play, t, 0, "attack s#0+s#2 s#5")
    play(t, 0, "summon s#1=7d", "attack s#0+s#1 s#5")  # 14 against 12
    play(t, 1, "pass")
    assert t.state.field[1] == []


def test_s16_combined_attack_never_direct_and_loses_all(rig, play):
    t = rig("7C 7D", "AS 6S")
    play(t, 0, "summon s#0=7c", "summon s#1=7d", "end")
    play(t, 1, "end")
    refused("S-16", play, t, 0, "attack s#0+s#1 life")
    t = rig("6C 6D", "AS")
    play(t, 0, "summon s#0=6c", "summon s#1=6d", "end")
    play(t, 1, "summon s#5=as", "end")
    play(t, 0, "attack s#0+s#1 s#5")  # 12 against 14: both sixes leave
    play(t, 1, "pass")
    assert t.state.field[0] == [] and field(t, 1) == [("AS", 14)] and t.state.won[-1].diff == 2


def test_s17_source_example_1_jack_loses_to_the_ace_and_a_3_replaces_it(rig, play):
    """The jack loses to the ace; its player throws in a 3 that replaces the ace, then beats the 3."""
    t = rig("AH", "5S JS 3D")
    play(t, 0, "summon s#0=ah", "end")
    play(t, 1, "summon s#5=5s", "end")
    play(t, 0, "end")
    play(t, 1, "summon s#6=js", "attack s#6 s#0")
    assert field(t, 0) == [("AH", 14)] and field(t, 1) == [("5S", 5)]
    play(t, 0, "pass")
    play(t, 1, "replace s#0 s#7=3d")
    assert field(t, 0) == [("3D", 3)] and r("s#0") in t.state.gone
    assert t.state.field[0][0].refs == [r("s#7")]  # seat 1's card, now on seat 0's side
    assert t.state.budget == 11  # a replacement is not a summon
    play(t, 1, "attack s#5 s#7")
    play(t, 0, "pass")
    assert t.state.field[0] == [] and field(t, 1) == [("5S", 5)]


def test_s17_source_example_2_king_beats_5_an_8_replaces_it_and_beats_7(rig, play):
    """The king beats the 5; an 8 from the hand replaces the king and attacks again, beating the 7."""
    t = rig("7C 5C", "KS 8H")
    play(t, 0, "summon s#0=7c", "summon s#1=5c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#1")
    play(t, 0, "pass")
    play(t, 1, "replace s#5 s#6=8h")
    assert field(t, 1) == [("8H", 8)] and not t.state.field[1][0].attacked
    play(t, 1, "attack s#6 s#0")  # 8 beats 7 by 1: no card is worth 1, so no window (S-18, S-23)
    assert t.state.field[0] == [] and field(t, 1) == [("8H", 8)]
    assert {r("s#0"), r("s#1"), r("s#5")} <= set(t.state.gone)


def test_s17_the_replacement_must_be_worth_the_difference(rig, play):
    t = rig("7C 5C", "KS 9H 8H")
    play(t, 0, "summon s#0=7c", "summon s#1=5c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#1")
    play(t, 0, "pass")
    msg = refused("S-17", play, t, 1, "replace s#5 s#6=9h")
    assert "difference, 8" in msg
    refused("S-18", play, t, 1, "replace s#0 s#7=8h")  # the 7 won no battle


def test_s18_shortcuts_the_defender_replaces_at_the_start_of_its_next_turn(rig, play):
    t = rig("5C 8D 9D", "KS", options=SHORT)
    play(t, 0, "summon s#0=5c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#0")
    refused("S-8", play, t, 0, "replace s#5 s#1=8d")  # not in the attacker's turn
    play(t, 1, "end")
    assert t.state.phase == PRE and t.state.deciders() == (0,)
    play(t, 0, "replace s#5 s#1=8d")
    assert field(t, 1) == [("8D", 8)] and r("s#5") in t.state.gone


def test_s18_shortcuts_the_defenders_right_ends_with_its_first_other_action(rig, play):
    t = rig("5C 8D 2D", "KS", options=SHORT)
    play(t, 0, "summon s#0=5c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#0", "end")
    play(t, 0, "summon s#2=2d")
    refused("S-18", play, t, 0, "replace s#5 s#1=8d")


def test_s18_the_attacker_may_not_replace_a_winner_changed_since(rig, play):
    t = rig("5C", "KS KS 8H")
    play(t, 0, "summon s#0=5c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#0")
    play(t, 0, "pass")
    play(t, 1, "double s#6=ks s#5")
    refused("S-18", play, t, 1, "replace s#5 s#7=8h")


# -- S-19 .. S-23: jokers ---------------------------------------------------------------------------------

def test_s19_joker_destroys_a_card_after_the_window(rig, play):
    t = rig("XB 2C", "KS 2S")
    play(t, 0, "summon s#1=2c", "end")
    play(t, 1, "summon s#5=ks", "end")
    play(t, 0, "joker s#0=xb s#5")
    st = t.state
    assert st.phase == CHAIN and st.deciders() == (1,) and field(t, 1) == [("KS", 13)]
    play(t, 1, "pass")
    assert t.state.field[1] == [] and t.state.deciders() == (0,) and t.state.phase == PRE
    assert {r("s#0"), r("s#5")} <= set(t.state.gone)


def test_s19_joker_needs_a_joker_and_an_opponents_card(rig, play):
    t = rig("XB 2C 9C", "KS")
    play(t, 0, "summon s#1=2c", "end")
    play(t, 1, "summon s#5=ks", "end")
    refused("S-19", play, t, 0, "joker s#2=9c s#5")
    refused("S-19", play, t, 0, "joker s#0=xb s#1")


def test_s20_counter_and_counter_counter(rig, play):
    t = rig("XB XB 2C", "KS XR")
    play(t, 0, "summon s#2=2c", "end")
    play(t, 1, "summon s#5=ks", "end")
    play(t, 0, "joker s#0=xb s#5")
    play(t, 1, "counter s#6=xr")
    assert t.state.deciders() == (0,) and t.state.phase == CHAIN
    play(t, 0, "counter s#1=xb")
    assert t.state.deciders() == (1,)
    play(t, 1, "pass")  # three jokers: the first one holds
    assert t.state.field[1] == [] and t.state.phase == PRE


def test_s20_a_countered_joker_does_nothing(rig, play):
    t = rig("XB 2C", "KS XR")
    play(t, 0, "summon s#1=2c", "end")
    play(t, 1, "summon s#5=ks", "end")
    play(t, 0, "joker s#0=xb s#5")
    play(t, 1, "counter s#6=xr")
    play(t, 0, "pass")
    assert field(t, 1) == [("KS", 13)] and t.state.deciders() == (0,)


def test_s20_counter_joker_outside_its_window_is_refused(rig, play):
    t = rig("XB 2C", "KS XR")
    refused("S-20", play, t, 0, "counter s#0=xb")
    play(t, 0, "summon s#1=2c", "end")
    refused("S-20", play, t, 1, "counter s#6=xr")
    play(t, 1, "summon s#5=ks", "end")
    play(t, 0, "joker s#0=xb s#5")
    refused("S-20", play, t, 1, "counter s#5=ks")  # not a joker


def test_s21_shortcuts_direct_damage_is_taken_at_the_start_of_the_next_turn(rig, play):
    t = rig("2C", "KS 9S", options=SHORT)
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life", "end")
    st = t.state
    assert st.phase == ANSWER and st.deciders() == (0,) and st.life == [80, 80]
    refused("S-21", play, t, 0, "summon s#0=2c")
    play(t, 0, "take")
    assert t.state.life == [67, 80] and t.state.phase == PRE


def test_s21_shortcuts_a_joker_stops_the_direct_attacks(rig, play):
    t = rig("XR", "KS", options=SHORT)
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life", "end")
    play(t, 0, "stop s#0=xr")
    assert t.state.phase == CHAIN and t.state.deciders() == (1,)
    play(t, 1, "pass")
    assert t.state.life == [80, 80] and t.state.phase == PRE and t.state.deciders() == (0,)


def test_s21_shortcuts_a_countered_stop_lets_the_damage_through(rig, play):
    t = rig("XR", "KS XB", options=SHORT)
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life", "end")
    play(t, 0, "stop s#0=xr")
    play(t, 1, "counter s#6=xb")
    play(t, 0, "pass")
    assert t.state.life == [67, 80] and t.state.deciders() == (0,)


def test_s22_instant_win_claim_with_two_red_jokers(rig, play):
    t = rig("XR XR")
    play(t, 0, "win s#0=xr s#1=xr")
    st = t.state
    assert st.phase == CLAIM and st.deciders() == (1,)  # four black jokers are still unseen
    play(t, 1, "pass")
    assert t.state.outcome().winners == (0,) and "S-22" in t.state.outcome().reason


def test_s22_a_counter_set_wins_instead(rig, play):
    t = rig("XB XB XR", "XB XB XR")
    play(t, 0, "win s#0=xb s#1=xb s#2=xr")
    play(t, 1, "counter s#5=xb s#6=xb s#7=xr")
    assert t.state.outcome().winners == (1,) and "countered" in t.state.outcome().reason


def test_s22_claims_need_jokers_worth_4(rig, play):
    t = rig("XR XB XB XB", "XB")
    refused("S-22", play, t, 0, "win s#0=xr s#1=xb")
    refused("S-22", play, t, 0, "win s#0=xr s#0=xr")
    play(t, 0, "win s#0=xr s#1=xb s#2=xb")
    refused("S-22", play, t, 1, "counter s#5=xb")  # one joker does not answer a claim


def test_s22_a_false_claim_is_a_cheat(rig, play):
    t = rig("XR KH")
    play(t, 0, "win s#0=xr s#1=xr")
    assert [(v.seat, v.rule) for v in t.violations] == [(0, "S-22")]
    assert "s#1 as XR, but it is KH" in t.violations[0].message
    out = t.state.outcome()
    assert t.state.is_terminal() and out.winners == (1,) and out.cheaters == (0,)


def test_s23_no_window_when_no_counter_is_possible(rig, play):
    t = rig("XR XR XB 2C", "5S")
    play(t, 0, "summon s#3=2c", "end")
    play(t, 1, "summon s#5=5s", "end")
    play(t, 0, "joker s#2=xb s#5")
    play(t, 1, "pass")
    play(t, 0, "win s#0=xr s#1=xr")  # three black jokers left: never worth 4
    assert t.state.is_terminal() and t.state.outcome().winners == (0,)


def test_s23_no_counter_window_once_all_six_jokers_are_out(rig, play):
    t = rig("XB XB XB XB 2C", "XR XR 5S 6S")
    play(t, 0, "summon s#4=2c", "end")
    play(t, 1, "summon s#7=5s", "summon s#8=6s", "end")
    play(t, 0, "joker s#0=xb s#7")
    play(t, 1, "counter s#5=xr")
    play(t, 0, "counter s#1=xb")
    play(t, 1, "counter s#6=xr")
    play(t, 0, "counter s#2=xb")
    assert t.state.phase == CHAIN and t.state.deciders() == (1,)  # one joker is still unaccounted for
    play(t, 1, "pass")
    assert field(t, 1) == [("6S", 6)]
    play(t, 0, "joker s#3=xb s#8")  # the sixth joker: no answer is possible
    assert t.state.field[1] == [] and t.state.phase == PRE and t.state.deciders() == (0,)


# -- S-24 .. S-28: the end, claims, visibility ---------------------------------------------------------------

def test_s24_life_points_at_zero_lose(rig, play):
    t = rig("2C", "KS", options={"life": 13})
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    play(t, 0, "pass")
    st = t.state
    assert st.is_terminal() and st.life[0] == 0 and st.outcome().winners == (1,) and "S-24" in st.outcome().reason


def test_s25_stalemate_after_six_idle_turns(rig, play):
    t = rig()
    for _ in range(5):
        play(t, t.state.current, "end")
    assert not t.state.is_terminal()
    play(t, t.state.current, "end")
    assert t.state.is_terminal() and t.state.outcome().winners == () and "S-25" in t.state.outcome().reason
    t = rig("2C", "KS")
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    play(t, 0, "pass")
    play(t, 1, "end")
    for _ in range(6):
        play(t, t.state.current, "end")
    assert t.state.outcome().winners == (1,)


def test_s26_a_false_face_loses_when_the_file_ends(rig, play):
    t = rig("2C")
    play(t, 0, "summon s#0=ah")
    assert [(v.seat, v.rule) for v in t.violations] == [(0, "S-9")]
    st = t.state
    assert st.outcome().cheaters == (0,) and not st.is_terminal() and st.deciders() == (0,)
    play(t, 0, "end")  # the cheater's file ends: so does the game
    assert t.state.is_terminal() and t.state.outcome().winners == (1,)
    assert [(v.seat, v.rule) for v in t.state.audit(t.truth)] == [(0, "S-9")]


def test_s26_the_opponent_never_decides_before_a_reveal(game):
    st = game.new_state(2, {})
    st.apply(0, game.parse_action("summon s#0=8h"))
    assert st.deciders() == (0,)  # its own claims never stop the player who made them
    st.apply(0, game.parse_action("end"))
    assert st.deciders() == () and st.visibility()[r("s#0")] == PUBLIC
    assert st.reveal(r("s#0"), Card.parse("8H")) == []
    assert st.deciders() == (1,)


def test_s27_each_seat_sees_its_hand_everyone_sees_the_field(rig, play):
    t = rig("8C")
    play(t, 0, "summon s#0=8c")
    vis = t.state.visibility()
    assert vis[r("s#0")] == PUBLIC and t.state.public_faces()[r("s#0")] == Card.parse("8C")
    assert all(vis[r(f"s#{i}")] == 0 for i in range(1, 5))
    assert all(vis[r(f"s#{i}")] == 1 for i in range(5, 10))
    assert r("s#11") not in vis and set(t.known(1)) & {r(f"s#{i}") for i in range(1, 5)} == set()


def test_s28_nothing_after_the_end(rig, play):
    t = rig("XR XR")
    play(t, 0, "win s#0=xr s#1=xr")
    play(t, 1, "pass")
    assert t.state.phase == OVER and t.state.deciders() == ()
    refused("S-28", play, t, 1, "end")
