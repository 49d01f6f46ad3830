"""Rule tests for Wizard Duel in the plain simulator; each test names the digest rule (seeds/wizard.md) it checks.

With four players seat s holds the Lives w#3s..w#3s+2 and the stock starts at w#12, which seat 0 has
drawn when the game begins. ``rig`` puts chosen faces straight into hands.
"""

from __future__ import annotations

import pytest

from duelmail.errors import DuelmailError, IllegalMove
from duelmail.games.base import PUBLIC
from duelmail.games.cards import CardRef
from duelmail.games.wizard.notation import Pass, Take, Target
from duelmail.games.wizard.rules import DEFEND, OVER, RETARGET, TURN, WINDOW, attack_value, beats

from ..conftest import play
from .conftest import GAME, cards


def refused(t, seat: int, text: str, rule: str) -> str:
    before = repr(t.state.__dict__)
    with pytest.raises(IllegalMove) as err:
        play(t, seat, text)
    assert err.value.rule == rule, str(err.value)
    assert text.split()[0] in str(err.value) and f"(rule {rule})" in str(err.value)
    assert repr(t.state.__dict__) == before  # a refused move changes nothing
    return str(err.value)


def attack(t, seat: int, faces: str, target: int) -> None:
    play(t, seat, f"attack {cards(t, seat, *faces.split())} at {target}")


def test_z1_one_shared_deck_locked_by_every_seat_and_three_to_twelve_players(game):
    (deck,) = game.decks(5, {})
    assert deck.id == "w" and len(deck.faces) == 52 and len(set(deck.faces)) == 52
    assert deck.owner is None and deck.lockers is None  # every seat locks it
    assert (game.spec.min_players, game.spec.max_players) == (3, 12)
    with pytest.raises(DuelmailError):
        game.new_state(2, game.spec.resolve_options({}))


def test_z2_three_lives_each_or_none_with_sudden_death(game):
    st = game.new_state(4, game.spec.resolve_options({}))
    assert st.lives == [[CardRef("w", 3 * s + i) for i in range(3)] for s in range(4)]
    st = game.new_state(4, game.spec.resolve_options({"sudden-death": True}))
    assert st.lives == [[]] * 4 and st.stock[0] == CardRef("w", 1)


def test_z3_nobody_sees_a_life_not_even_its_owner(rig):
    t = rig(4)
    vis = t.state.visibility()
    for seat in range(4):
        for ref in t.state.lives[seat]:
            assert ref not in vis
            assert all(ref not in seen for seen in t.seen)


def test_z4_seat_0_starts_and_the_stock_is_drawn_from_its_lowest_ref(rig):
    t = rig(4, draws="5c 9d 2h")
    st = t.state
    assert st.current == 0 and st.hands[0] == [CardRef("w", 12)] and st.stock[0] == CardRef("w", 13)
    assert t.seen[0][CardRef("w", 12)].rank == 5


def test_z5_the_next_player_draws_the_moment_the_turn_passes(rig):
    t = rig(4, draws="5c 9d 2h")
    play(t, 0, "pass")
    st = t.state
    assert st.current == 1 and st.phase == TURN and st.deciders() == (1,)
    assert st.hands[1] == [CardRef("w", 13)]
    assert st.visibility()[CardRef("w", 13)] == 1 and CardRef("w", 13) not in t.seen[2]
    refused(t, 1, "attack w#13=9d w#14=2h at 2", "Z-7")  # w#14 is still in the stock


def test_z6_values_faces_count_two_and_an_ace_zero():
    from duelmail.games.cards import Card

    assert [attack_value(Card.parse(c)) for c in ("2s", "10h", "jd", "qc", "kh", "as")] == [2, 10, 2, 2, 2, 0]


def test_z7_an_attack_is_two_cards_of_one_suit_at_another_player_in_play(rig):
    t = rig(4, hands={0: "7h qh 9s"})
    assert "two cards of one suit" in refused(t, 0, f"attack {cards(t, 0, '7h', '9s')} at 1", "Z-7")
    assert "another player" in refused(t, 0, f"attack {cards(t, 0, '7h', 'qh')} at 0", "Z-7")
    assert "not in seat 0's hand" in refused(t, 0, "attack w#40=7h w#41=qh at 1", "Z-7")
    attack(t, 0, "7h qh", 1)
    sp = t.state.spell
    assert (sp.attacker, sp.target, sp.strength, sp.strike) == (0, 1, 7, False)
    assert t.state.phase == DEFEND and t.state.deciders() == (1,)
    assert all(t.state.visibility()[r] == PUBLIC for r in sp.cards)


def test_z8_two_face_cards_strike_at_once(rig):
    t = rig(4, hands={0: "jh kh"}, lives={2: "4c 5c 6c"})
    attack(t, 0, "jh kh", 2)
    st = t.state
    assert len(st.lives[2]) == 2 and CardRef("w", 6) in st.hands[2]
    assert st.current == 1 and st.phase == TURN and st.spell is None


def test_z9_a_defence_must_total_more_than_the_strength_or_hold_an_ace(rig):
    t = rig(4, hands={0: "7h qh", 1: "5c 2s 3d ad"})
    attack(t, 0, "7h qh", 1)
    msg = refused(t, 1, f"defend {cards(t, 1, '5c', '2s')}", "Z-9")
    assert "= 7 does not beat the attack's 7" in msg
    refused(t, 2, "take", "Z-25")
    assert beats([t.truth[r] for r in t.state.hands[1] if t.truth[r].rank == 14], 10)
    play(t, 1, f"defend {cards(t, 1, '5c', '3d')}")  # 8 beats 7; clubs cancel (Z-14)
    assert t.state.current == 1 and len(t.state.lives[1]) == 3


def test_z10_the_first_card_named_decides_among_the_highest(rig):
    t = rig(4, hands={0: "7c 8c", 1: "9d 9h 2s"})
    attack(t, 0, "7c 8c", 1)
    assert "must be a highest card" in refused(t, 1, f"defend {cards(t, 1, '2s', '9d')}", "Z-10")
    assert "only a hearts defence" in refused(t, 1, f"defend {cards(t, 1, '9d', '9h')} at 2", "Z-10")
    choice = t.state.clone()
    play(t, 1, f"defend {cards(t, 1, '9d', '9h')}")  # diamonds: protection
    assert t.state.phase == RETARGET and t.state.spell.protected == {1}
    t.state = choice
    play(t, 1, f"defend {cards(t, 1, '9h', '9d')} at 2")  # the same cards, hearts first: deflection
    assert t.state.spell.attacker == 1 and t.state.spell.target == 2 and t.state.spell.strength == 9


def test_z10_the_card_counting_highest_decides_an_ace_counts_zero(rig):
    """Z-10 by default: "the card with the highest rank" is read with the values the source counts (faces 2,
    aces 0), so a King outranks the Ace beside it; with mail-shortcuts the Ace stands highest (the old ruling)."""
    t = rig(4, hands={0: "7c 8c", 1: "ad kd 2s"})
    attack(t, 0, "7c 8c", 1)
    assert "must be a highest card" in refused(t, 1, f"defend {cards(t, 1, 'ad', 'kd')}", "Z-10")
    play(t, 1, f"defend {cards(t, 1, 'kd', 'ad')}")  # the ace makes it beat 8; the King names diamonds
    assert t.state.spell.protected == {1}
    t = rig(4, hands={0: "7c 8c", 1: "ac kh 2s"})
    attack(t, 0, "7c 8c", 1)
    play(t, 1, f"defend {cards(t, 1, 'kh', '2s', 'ac')} at 2")  # King and 2 tie at 2: hearts named first
    assert t.state.spell.target == 2
    t = rig(4, hands={0: "7c 8c", 1: "ad kd 2s"}, options={"mail-shortcuts": True})
    attack(t, 0, "7c 8c", 1)
    assert "must be a highest card" in refused(t, 1, f"defend {cards(t, 1, 'kd', 'ad')}", "Z-10")
    play(t, 1, f"defend {cards(t, 1, 'ad', 'kd')}")


def test_z11_a_protected_target_makes_the_attacker_choose_another(rig):
    t = rig(4, hands={0: "4c 5c", 1: "6d"})
    attack(t, 0, "4c 5c", 1)
    play(t, 1, f"defend {cards(t, 1, '6d')}")
    assert t.state.phase == RETARGET and t.state.deciders() == (0,)
    assert t.state.legal_actions(0, t.known(0)) == [Target(2), Target(3)]
    refused(t, 0, "target 1", "Z-11")
    play(t, 0, "target 3")
    assert t.state.phase == DEFEND and t.state.spell.target == 3 and t.state.spell.strength == 5
    t = rig(3, hands={0: "4c 5c", 1: "6d"})  # one candidate: no decision
    attack(t, 0, "4c 5c", 1)
    play(t, 1, f"defend {cards(t, 1, '6d')}")
    assert t.state.phase == DEFEND and t.state.spell.target == 2


def test_z12_hearts_deflect_with_the_hearts_strength_even_back_at_the_attacker(rig):
    t = rig(4, hands={0: "9c 8c 5d", 1: "10h", 2: "ah"})
    attack(t, 0, "9c 8c", 1)
    assert "name the new target" in refused(t, 1, f"defend {cards(t, 1, '10h')}", "Z-12")
    play(t, 1, f"defend {cards(t, 1, '10h')} at 0")
    sp = t.state.spell
    assert (sp.attacker, sp.target, sp.strength, sp.protected) == (1, 0, 10, {1})
    refused(t, 0, f"defend {cards(t, 0, '5d')}", "Z-9")  # compared with the heart's 10, not the 9
    t2 = rig(4, hands={0: "9c 8c", 1: "10h", 2: "ah 3s"})
    attack(t2, 0, "9c 8c", 1)
    play(t2, 1, f"defend {cards(t2, 1, '10h')} at 2")
    refused(t2, 2, f"defend {cards(t2, 2, 'ah')} at 1", "Z-12")  # seat 1 is protected
    play(t2, 2, f"defend {cards(t2, 2, 'ah')} at 3")  # an ace of hearts deflects with strength 0
    assert t2.state.spell.strength == 0 and t2.state.spell.target == 3


def test_z13_spades_backfire_on_the_caster(rig):
    t = rig(4, hands={0: "9c 8c", 1: "10s"})
    attack(t, 0, "9c 8c", 1)
    play(t, 1, f"defend {cards(t, 1, '10s')}")
    assert len(t.state.lives[0]) == 2 and len(t.state.lives[1]) == 3 and t.state.current == 1


def test_z14_clubs_cancel_the_spell(rig):
    t = rig(4, hands={0: "9d 8d", 1: "10c"})
    attack(t, 0, "9d 8d", 1)
    play(t, 1, f"defend {cards(t, 1, '10c')}")
    assert [len(x) for x in t.state.lives] == [3, 3, 3, 3] and t.state.current == 1


def test_z15_taking_the_blow_costs_a_life_even_with_a_defence_in_hand(rig):
    t = rig(4, hands={0: "9d 8d", 1: "as"})
    attack(t, 0, "9d 8d", 1)
    play(t, 1, "take")
    assert len(t.state.lives[1]) == 2 and t.state.current == 1


def test_z16_the_spell_fires_back_when_everyone_else_is_protected(rig):
    t = rig(3, hands={0: "2c 3c", 1: "4d", 2: "5d"})
    attack(t, 0, "2c 3c", 1)
    play(t, 1, f"defend {cards(t, 1, '4d')}")
    assert t.state.spell.target == 2
    play(t, 2, f"defend {cards(t, 2, '5d')}")
    assert [len(x) for x in t.state.lives] == [2, 3, 3] and t.state.current == 1
    t = rig(3, hands={0: "2c 3c 10h", 1: "4h", 2: "5h"})  # a deflection chain back to a deflector
    attack(t, 0, "2c 3c", 1)
    play(t, 1, f"defend {cards(t, 1, '4h')} at 2")
    play(t, 2, f"defend {cards(t, 2, '5h')} at 0")
    refused(t, 0, f"defend {cards(t, 0, '10h')} at 1", "Z-12")
    play(t, 0, f"defend {cards(t, 0, '10h')}")  # nobody left to aim at: back at seat 0
    assert [len(x) for x in t.state.lives] == [2, 3, 3] and t.state.current == 1


def test_z17_protection_lasts_until_the_spell_is_over(rig):
    t = rig(3, hands={0: "2c 3c", 1: "4d 5s 6s"})
    attack(t, 0, "2c 3c", 1)
    play(t, 1, f"defend {cards(t, 1, '4d')}")
    play(t, 2, "take")
    assert t.state.spell is None and t.state.current == 1
    attack(t, 1, "5s 6s", 0)
    assert t.state.spell.protected == set()


def test_z18_cards_go_to_the_used_pile_and_the_turn_passes_left_of_its_owner(rig):
    t = rig(4, hands={0: "9c 8c", 1: "10h", 2: "jc"})
    attack(t, 0, "9c 8c", 1)
    play(t, 1, f"defend {cards(t, 1, '10h')} at 2")
    refs = list(t.state.spell.cards)
    play(t, 2, "take")
    st = t.state
    assert st.used == refs and all(st.visibility()[r] == PUBLIC for r in refs) and st.current == 1
    assert all(r in st.public_faces() for r in refs)


def test_z19_a_lost_life_goes_to_its_owner_only_and_with_none_left_the_player_is_out(rig):
    t = rig(4, hands={0: "9c 8c"}, lives={1: "kd 2c 3c"})
    attack(t, 0, "9c 8c", 1)
    play(t, 1, "take")
    life = CardRef("w", 3)
    assert life in t.state.hands[1] and t.seen[1][life].rank == 13
    assert all(life not in t.seen[s] for s in (0, 2, 3)) and life not in t.state.public_faces()
    t = rig(4, hands={0: "9c 8c"}, options={"sudden-death": True})
    attack(t, 0, "9c 8c", 1)
    play(t, 1, "take")
    assert t.state.alive == [0, 2, 3] and t.state.current == 2  # the turn skips the player who is out


def test_z20_the_last_player_in_play_wins(rig):
    t = rig(3, hands={0: "9c 8c 7d 6d"}, options={"sudden-death": True})
    attack(t, 0, "9c 8c", 1)
    play(t, 1, "take")
    play(t, 2, "pass")
    attack(t, 0, "7d 6d", 2)
    play(t, 2, "take")
    assert t.state.is_terminal() and t.state.outcome().winners == (0,) and "Z-20" in t.state.outcome().reason


def test_z21_the_used_pile_is_reshuffled_once_then_the_game_is_drawn(rig):
    t = rig(4, hands={0: "9c 8c", 1: "10c"})
    del t.state.stock[2:]
    attack(t, 0, "9c 8c", 1)
    play(t, 1, f"defend {cards(t, 1, '10c')}")  # 3 used cards; seat 1 draws the second last
    play(t, 1, "pass")  # seat 2 draws the last one
    used = list(t.state.used)
    play(t, 2, "pass")  # seat 3 must draw from an empty stock: reshuffle
    st = t.state
    assert st.generation == 1 and st.used == [] and len(st.stock) == 2 and st.hands[3][-1].deck == "w.1"
    assert {t.truth[r] for r in [*st.stock, st.hands[3][-1]]} == {t.truth[r] for r in used}
    play(t, 3, "pass")
    play(t, 0, "pass")
    play(t, 1, "pass")
    assert st.is_terminal() and st.outcome().winners == () and "second time" in st.outcome().reason
    t = rig(4)
    del t.state.stock[:]
    play(t, 0, "pass")  # nothing used yet: a draw at once
    assert t.state.is_terminal() and "no used cards" in t.state.outcome().reason


def test_z22_the_attack_window_answers_concurrently_and_resolves_in_seat_order(rig):
    t = rig(4, hands={1: "9s 8s", 2: "4c 5d", 3: "jh qh"}, options={"anytime": True})
    st = t.state
    assert st.phase == WINDOW and st.deciders() == (1, 2, 3)
    other = t.state.clone()
    play(t, 3, f"attack {cards(t, 3, 'jh', 'qh')} at 0")
    play(t, 2, "pass")
    play(t, 1, f"attack {cards(t, 1, '9s', '8s')} at 2")
    t.state, mine = other, t.state
    play(t, 1, f"attack {cards(t, 1, '9s', '8s')} at 2")  # the same answers in another order
    play(t, 2, "pass")
    play(t, 3, f"attack {cards(t, 3, 'jh', 'qh')} at 0")
    assert t.state.__dict__ == mine.__dict__
    st = t.state
    assert st.phase == DEFEND and st.spell.attacker == 1 and st.spell.target == 2  # seat 1 first
    play(t, 2, "take")
    assert st.spell.attacker == 3 and st.spell.strike and st.legal_actions(0, t.known(0)) == [Take()]
    refused(t, 0, f"defend {cards(t, 0, *[str(t.truth[r]) for r in st.hands[0][:1]])}", "Z-8")
    play(t, 0, "take")
    assert st.phase == TURN and st.current == 0 and len(st.lives[0]) == 2


def test_z22_an_out_of_turn_attack_fizzles_when_its_target_is_out(rig):
    t = rig(4, hands={1: "9s 8s", 3: "7d 6d"}, options={"anytime": True, "sudden-death": True})
    play(t, 1, f"attack {cards(t, 1, '9s', '8s')} at 2")
    play(t, 3, f"attack {cards(t, 3, '7d', '6d')} at 2")
    play(t, 2, "take")
    st = t.state
    assert st.alive == [0, 1, 3] and st.phase == TURN and st.current == 0
    assert len(st.used) == 4  # the second spell's cards went to the used pile unresolved


def test_z24_a_false_face_is_a_proven_cheat(rig):
    t = rig(4, hands={0: "7h 2c"})
    seven, two = cards(t, 0, "7h", "2c").split()
    play(t, 0, f"attack {seven} {two.replace('2c', '2h')} at 1")
    st = t.state
    assert [(v.seat, v.rule) for v in t.violations] == [(0, "Z-7")]
    assert st.is_terminal() and st.outcome().cheaters == (0,) and st.outcome().winners == (1, 2, 3)
    assert [v.seat for v in st.audit(t.truth)] == [0]


def test_z25_only_the_awaited_player_answers(rig):
    t = rig(4, hands={0: "9c 8c", 2: "10s"})
    attack(t, 0, "9c 8c", 1)
    msg = refused(t, 2, f"defend {cards(t, 2, '10s')}", "Z-25")
    assert "not seat 2's decision" in msg and "seat 1" in msg
    refused(t, 0, "pass", "Z-25")
    refused(t, 1, "pass", "Z-9")


def test_z26_nothing_is_played_after_the_end(rig):
    t = rig(3, hands={0: "9c 8c 7d 6d"}, options={"sudden-death": True})
    attack(t, 0, "9c 8c", 1)
    play(t, 1, "take")
    play(t, 2, "pass")
    attack(t, 0, "7d 6d", 2)
    play(t, 2, "take")
    assert t.state.phase == OVER
    refused(t, 0, "pass", "Z-26")


def test_z27_default_answers_when_a_deadline_passes(rig):
    t = rig(4, hands={0: "4c 5c", 1: "6d"}, options={"anytime": True})
    assert t.state.phase == TURN and t.state.default_action(0) == Pass()  # nobody holds two cards yet
    attack(t, 0, "4c 5c", 1)
    assert t.state.default_action(1) == Take() and t.state.default_action(2) is None
    play(t, 1, f"defend {cards(t, 1, '6d')}")
    assert t.state.default_action(0) == Target(2)
    t = rig(4, hands={1: "9s 8s"}, options={"anytime": True})
    assert t.state.phase == WINDOW and t.state.default_action(1) is None


def test_clone_is_independent(rig):
    t = rig(4, hands={0: "9c 8c"})
    before = repr(t.state.__dict__)
    twin = t.state.clone()
    twin.apply(0, GAME.parse_action(f"attack {cards(t, 0, '9c', '8c')} at 1"))
    twin.reveal(twin.spell.cards[0], t.truth[twin.spell.cards[0]])
    assert repr(t.state.__dict__) == before
