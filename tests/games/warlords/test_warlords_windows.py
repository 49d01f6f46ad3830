"""Timing by mail in Warlords (protocol 5b): the source's timing by default, the old rulings with mail-shortcuts.

Each test names the digest rule it checks (seeds/warlords.md): W-18 (an Ace outside battle, also in the
opponent's turn), W-25 (Reinforcements any time during your turn), W-26 (the emergency joker at once, even out
of turn, for 8 cards).
"""

from __future__ import annotations

import pytest

from duelmail.errors import IllegalMove
from duelmail.games.cards import CardRef
from duelmail.games.warlords.rules import A_SUPPORT, DEFEND, EMERGENCY, LAST_CHANCE, OUTSIDE, PREP, RENEWAL, SHUFFLE

SHORT = {"mail-shortcuts": True}
REINF = {"reinforcements": True}


def refused(rule, play, t, seat, text):
    with pytest.raises(IllegalMove) as err:
        play(t, seat, text)
    assert err.value.rule == rule, str(err.value)
    return str(err.value)


def r(text):
    return CardRef.parse(text)


def _fill_discard(t, seat, k):
    st = t.state
    st.discards[seat].extend(st.piles[seat].pop(0) for _ in range(k))
    st._vis = None  # changed by hand: drop the visibility kept
    t.settle()


def test_w18_an_ace_in_the_opponents_turn_before_the_battle(rig, play):
    """Seat 0, attacked, first discards seat 1's other Warlord with an Ace, then defends."""
    t = rig(2, {0: "AH 9H", 1: "KS QS 10S"})
    play(t, 0, "end")
    play(t, 1, "warlord b#0", "warlord b#1", "attack b#0 b#2")
    assert t.state.phase == DEFEND
    refused("W-18", play, t, 0, "ace a#0 b#0")  # the attacking King is in battle: the in-battle Ace (W-19)
    play(t, 0, "ace a#0 b#1")
    st = t.state
    assert st.warlords[1] == [r("b#0")] and r("b#1") in st.discards[1] and st.phase == DEFEND
    play(t, 0, "defend - a#1")
    assert t.state.phase == A_SUPPORT


def test_w18_shortcuts_no_ace_outside_battle_in_the_opponents_turn(rig, play):
    t = rig(2, {0: "AH 9H", 1: "KS QS 10S"}, SHORT)
    play(t, 0, "end")
    play(t, 1, "warlord b#0", "warlord b#1", "attack b#0 b#2")
    refused("W-19", play, t, 0, "ace a#0 b#1")


def test_w25_reinforcements_during_the_attack(rig, play):
    """'Any time during your turn': the attacker plays its joker in the battle, before its Support."""
    t = rig(2, {1: "XR 10S"}, REINF)
    _fill_discard(t, 1, 6)
    play(t, 0, "end")
    play(t, 1, "attack - b#1")
    play(t, 0, "defend - -")
    assert t.state.phase == A_SUPPORT
    n = len(t.state.piles[1])
    play(t, 1, "joker b#0")
    st = t.state
    assert st.phase == A_SUPPORT and len(st.piles[1]) == n + 6 and st.deciders() == (1,)
    play(t, 1, "support -")


def test_w25_shortcuts_only_in_preparation(rig, play):
    t = rig(2, {1: "XR 10S"}, {**REINF, **SHORT})
    _fill_discard(t, 1, 6)
    play(t, 0, "end")
    play(t, 1, "attack - b#1")
    play(t, 0, "defend - -")
    refused("W-25", play, t, 1, "joker b#0")


def damage_empties_the_pile(rig, play, options):
    """Seat 1 attacks with 10 + King against nothing: 7 damage mills seat 0's last 7 cards."""
    t = rig(2, {0: "XR 10H", 1: "KS 10S"}, options)
    _fill_discard(t, 0, 3)
    del t.state.piles[0][:-7]
    play(t, 0, "end")  # seat 0 drew: 6 cards left
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    play(t, 0, "defend - -")
    play(t, 1, "support -")
    play(t, 0, "support -")
    assert t.state.phase == LAST_CHANCE and t.state.battle.damage == 7
    play(t, 0, "accept")
    return t


def test_w26_the_emergency_joker_at_once_with_eight_cards(rig, play):
    t = damage_empties_the_pile(rig, play, REINF)
    st = t.state
    assert st.phase == EMERGENCY and st.piles[0] == [] and st.current == 1  # still seat 1's turn
    (w,) = st.windows()
    assert (w.seat, w.rule, w.answers) == (0, "W-26", ("pass", "joker")) and st.deciders() == (0,)
    play(t, 0, "joker a#0")
    st = t.state
    assert st.current == 1 and st.phase == RENEWAL  # then the attacker's renewal (W-25), its joker unplayed
    play(t, 1, "pass")
    st = t.state
    assert st.current == 0 and st.phase == PREP and not st.revenge  # rescued, then its turn's draw
    assert len(st.piles[0]) == 8 - 1


def test_w26_a_passed_emergency_means_the_revenge_turn(rig, play):
    t = damage_empties_the_pile(rig, play, REINF)
    play(t, 0, "pass")
    play(t, 1, "pass")  # the attacker's renewal (W-25)
    st = t.state
    assert st.current == 0 and st.revenge and not st.rescue
    refused("W-26", play, t, 0, "joker a#0")


def test_w26_a_pile_emptied_by_ones_own_draw_brings_back_eight(rig, play):
    t = rig(2, {1: "XR"}, REINF)
    _fill_discard(t, 1, 12)
    del t.state.piles[1][:-1]
    play(t, 0, "end")  # seat 1 draws its last card
    st = t.state
    assert st.piles[1] == [] and not st.revenge
    play(t, 1, "joker b#0")
    assert st.phase in (PREP, SHUFFLE) and len(t.state.piles[1]) == 8


def test_w26_shortcuts_the_rescue_waits_for_the_turn_and_own_draw_gets_ten(rig, play):
    t = damage_empties_the_pile(rig, play, {**REINF, **SHORT})
    st = t.state
    assert st.phase == PREP and st.current == 0 and st.revenge and st.rescue
    t = rig(2, {1: "XR"}, {**REINF, **SHORT})
    _fill_discard(t, 1, 12)
    del t.state.piles[1][:-1]
    play(t, 0, "end")
    play(t, 1, "joker b#0")
    assert len(t.state.piles[1]) == 10


def three_seats_seat_2_attacks(rig, play, options=None, lead=True):
    """Seat 0 has a King on the table; seat 2 (last seat, so it may attack in the first round, W-5) attacks seat 0
    with its Queen and a 10; seat 1, not in the battle, holds two Aces."""
    t = rig(3, {0: "KH 9H", 1: "AH AD", 2: "QS 10S 3S"}, options)
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "end")
    play(t, 2, "warlord c#0", "attack c#0 c#1" if lead else "attack - c#1")
    return t


def test_w18_three_seats_a_window_for_the_seat_not_in_the_battle(rig, play):
    """W-18 with three seats: seat 1 answers the attack with an Ace against seat 0's King, then passes; then the
    defence (its Aces stay out of the battle itself, W-19)."""
    t = three_seats_seat_2_attacks(rig, play)
    st = t.state
    assert st.phase == OUTSIDE and st.deciders() == (1,)
    (w,) = st.windows()
    assert (w.seat, w.rule, w.answers) == (1, "W-18", ("pass", "ace"))
    refused("W-18", play, t, 1, "ace b#0")  # no Ace in battle for a seat not in it
    refused("W-18", play, t, 1, "end")
    play(t, 1, "ace b#0 a#0")
    st = t.state
    assert r("a#0") in st.discards[0] and st.warlords[0] == [] and st.phase == OUTSIDE  # may play its other Ace
    play(t, 1, "pass")
    assert t.state.phase == DEFEND and t.state.deciders() == (0,)


def test_w18_three_seats_an_ace_on_the_attacking_warlord_withdraws_the_attack(rig, play):
    """Against the attacking Warlord the Ace takes effect before the attack: the Army goes back to the attacker's
    hand, which prepares on and may attack again (and the window opens again)."""
    t = three_seats_seat_2_attacks(rig, play)
    play(t, 1, "ace b#0 c#0")
    st = t.state
    assert st.battle is None and st.phase == PREP and st.current == 2
    assert r("c#0") in st.discards[2] and r("c#1") in st.hands[2]
    play(t, 2, "attack - c#1")
    assert t.state.phase == OUTSIDE  # seat 1 still holds an Ace and seat 0 a King
    play(t, 1, "pass")
    play(t, 0, "defend a#0 a#1")
    assert t.state.phase == A_SUPPORT


def test_w18_three_seats_no_window_without_a_target_or_an_ace(rig, play):
    """The window opens by the public record only: no Warlord to discard, or every Ace of the seat face up in its
    discard pile, and the defence comes at once."""
    t = rig(3, {0: "9H", 1: "AH", 2: "10S"})
    play(t, 0, "end")
    play(t, 1, "end")
    play(t, 2, "attack - c#0")
    assert t.state.phase == DEFEND
    t = three_seats_seat_2_attacks(rig, play, lead=False)
    assert t.state.phase == OUTSIDE  # the King of seat 0 is a target
    t = rig(3, {0: "KH 9H", 1: "AH AD AC AS 8C", 2: "QS 10S"})
    st = t.state
    for ref in st.hands[1][:4]:
        st.hands[1].remove(ref)
        st.discards[1].append(ref)
        st.reveal(ref, t.truth[ref])
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "end")
    play(t, 2, "warlord c#0", "attack c#0 c#1")
    assert t.state.phase == DEFEND


def test_w18_three_seats_shortcuts_no_window(rig, play):
    t = three_seats_seat_2_attacks(rig, play, SHORT)
    assert t.state.phase == DEFEND


def test_w18_two_seats_no_bystander(rig, play):
    t = rig(2, {0: "AH 9H", 1: "KS 10S"})
    play(t, 0, "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    assert t.state.phase == DEFEND


def battle_then_renewal(rig, play, options, ace=False):
    """Seat 1 (joker b#0 in hand, discards filled) attacks seat 0, which defends with nothing, with an Ace
    (``ace=True``) or with a King and a 10 (``ace="fail"``: the attack fails)."""
    t = rig(2, {0: "AH KH 10H", 1: ("XR" if options.get("reinforcements") else "9S") + " 10S"}, options)
    _fill_discard(t, 1, 12)
    play(t, 0, "warlord a#1", "end")
    play(t, 1, "attack - b#1")
    if ace == "fail":
        play(t, 0, "defend a#1 a#2")
        play(t, 1, "support -")
        play(t, 0, "support -")
    elif ace:
        play(t, 0, "ace a#0")
    else:
        play(t, 0, "defend - -")
        play(t, 1, "support -")
        play(t, 0, "support - accept")
    return t


@pytest.mark.parametrize("ace", [False, True, "fail"])
def test_w25_the_joker_in_the_renewal_after_the_battle(rig, play, ace):
    """'Any time during your turn' includes the renewal: after its battle (won, or stopped by an Ace) the attacker
    may still play its joker, with the battle's cards among its discards; then its turn ends."""
    t = battle_then_renewal(rig, play, REINF, ace)
    st = t.state
    assert st.phase == RENEWAL and st.current == 1 and st.battle is None
    (w,) = st.windows()
    assert (w.seat, w.rule, w.answers) == (1, "W-25", ("pass", "joker"))
    refused("W-25", play, t, 1, "end")
    n = len(st.piles[1])
    assert r("b#1") in st.discards[1]  # the Army of the battle is among the discards
    play(t, 1, "joker b#0")
    st = t.state
    assert len(st.piles[1]) == n + 10 and st.current == 0 and st.phase == PREP


def test_w25_the_renewal_passed_ends_the_turn(rig, play):
    t = battle_then_renewal(rig, play, REINF)
    play(t, 1, "pass")
    assert t.state.current == 0 and t.state.phase == PREP


def test_w25_no_renewal_window_once_the_joker_is_played_or_without_it(rig, play):
    t = rig(2, {0: "AH", 1: "XR 10S"}, REINF)
    _fill_discard(t, 1, 12)
    play(t, 0, "end")
    play(t, 1, "joker b#0", "attack - b#1")
    play(t, 0, "defend - -")
    play(t, 1, "support -")
    play(t, 0, "support - accept")
    assert t.state.current == 0 and t.state.phase == PREP
    t = battle_then_renewal(rig, play, {})  # no reinforcements option: the default game
    assert t.state.current == 0 and t.state.phase == PREP


def test_w25_shortcuts_no_renewal_window(rig, play):
    t = rig(2, {0: "AH", 1: "XR 10S"}, {**REINF, **SHORT})
    _fill_discard(t, 1, 12)
    play(t, 0, "end")
    play(t, 1, "attack - b#1")
    play(t, 0, "defend - -")
    play(t, 1, "support -")
    play(t, 0, "support -")
    play(t, 0, "accept")
    assert t.state.current == 0 and t.state.phase == PREP


def test_w18_four_seats_the_seats_not_in_the_battle_answer_one_after_the_other(rig, play):
    """W-18, W-24: seat 3 attacks seat 0; seats 1 and 2 are asked in play order, each in a window of its own (a
    later answer may depend on an earlier one), then seat 0 defends."""
    t = rig(4, {0: "KH 9H", 1: "AH", 2: "AS", 3: "QS 10S"})
    for seat in range(3):
        play(t, seat, *(["warlord a#0"] if seat == 0 else []), "end")
    play(t, 3, "warlord d#0", "attack d#0 d#1")
    st = t.state
    assert st.phase == OUTSIDE and st.deciders() == (1,) and [w.seat for w in st.windows()] == [1]
    play(t, 1, "pass")
    assert t.state.deciders() == (2,)
    play(t, 2, "ace c#0 a#0")
    # seat 2 may still hold an Ace and seat 3's Queen is still a target: the window stays open until it passes
    assert t.state.phase == OUTSIDE and t.state.deciders() == (2,)
    play(t, 2, "pass")
    assert t.state.phase == DEFEND and t.state.deciders() == (0,)


def test_w25_no_renewal_window_in_a_revenge_turn(rig, play):
    """W-23, W-26: a seat that passed its emergency plays its revenge turn without a joker, so its battle ends its
    turn at once, and the game with it."""
    t = damage_empties_the_pile(rig, play, REINF)
    play(t, 0, "pass")
    play(t, 1, "pass")  # the attacker's renewal (W-25)
    play(t, 0, "attack - a#1")
    play(t, 1, "defend - -")
    play(t, 0, "support -")
    play(t, 1, "support - accept")
    st = t.state
    assert st.is_terminal() and st.outcome().winners == (1,) and not st.windows()
