"""Rule tests for Warlords; each test names the digest rule (seeds/warlords.md) it checks."""

from __future__ import annotations

import pytest

from duelmail.errors import DuelmailError, IllegalMove
from duelmail.games.base import PUBLIC
from duelmail.games.cards import Card, CardRef
from duelmail.games.warlords.rules import A_SUPPORT, D_SUPPORT, DEFEND, LAST_CHANCE, PREP, WarlordsState

# Seat 1 is the first seat allowed to attack in two players (W-5), so most battles below have
# seat 1 (deck b) attacking seat 0 (deck a). Seat 0 drew a#5 at the start; a#6 is its next draw.


def refused(rule, fn, *args):
    with pytest.raises(IllegalMove) as err:
        fn(*args)
    assert err.value.rule == rule
    assert f"(rule {rule})" in str(err.value)
    return str(err.value)


def r(text):
    return CardRef.parse(text)


def battle_to_reveal(rig, play, a_cards, b_cards, attack, defend, b_support="support -",
                     a_support="support -", setup0=("end",), setup1=(), options=None):
    """Deal, let seat 0 prepare (``setup0``), seat 1 prepare and attack, and both choose supports."""
    t = rig(2, {0: a_cards, 1: b_cards}, options)
    play(t, 0, *setup0)
    play(t, 1, *setup1, attack)
    play(t, 0, defend)
    play(t, 1, b_support)
    play(t, 0, a_support)
    return t


# -- W-1 .. W-5: decks, set-up, order, turn, first round ------------------------------------------

def test_w1_one_deck_per_seat_with_option_jokers_and_lockers(game):
    plain = game.decks(3, {})
    assert [d.id for d in plain] == ["a", "b", "c"]
    assert all(len(d.faces) == 52 and d.owner == i for i, d in enumerate(plain))
    assert [d.lockers for d in plain] == [(0, 2), (1, 0), (2, 1)]
    both = game.decks(2, {"reinforcements": True, "hidden-ally": True})
    assert Card.parse("XR") in both[0].faces and Card.parse("XB") in both[0].faces
    assert len(both[1].faces) == 54 and set(both[1].lockers) == {0, 1}
    assert len(game.decks(2, {"hidden-ally": True})[0].faces) == 53


def test_w1_options_and_player_counts(game):
    assert game.spec.id == "warlords" and game.spec.digest == "seeds/warlords.md"
    assert (game.spec.min_players, game.spec.max_players) == (2, 12)
    assert game.spec.resolve_options({}) == {"reinforcements": False, "hidden-ally": False, "mail-shortcuts": False}
    assert [d.id for d in game.decks(12, {})][-3:] == ["j", "k", "l"]
    with pytest.raises(DuelmailError):
        WarlordsState(13)


def test_w2_five_card_hands_and_draw_piles(rig):
    t = rig(2)
    st = t.state
    assert st.hands[0] == [r(f"a#{i}") for i in range(6)]  # seat 0 already drew a#5 (W-4)
    assert st.hands[1] == [r(f"b#{i}") for i in range(5)]
    assert (len(st.piles[0]), len(st.piles[1])) == (46, 47)
    assert st.piles[0][-1] == r("a#6") and st.discards == [[], []]


def test_w3_seat_0_first_then_next_seat(rig, play):
    t = rig(3)
    assert t.state.deciders() == (0,)
    play(t, 0, "end")
    assert t.state.deciders() == (1,)
    play(t, 1, "end")
    assert t.state.deciders() == (2,)
    assert [t.state.target(s) for s in range(3)] == [1, 2, 0]


def test_w4_draw_is_automatic_and_only_the_awaited_seat_acts(rig, play):
    t = rig(2)
    play(t, 0, "end")
    assert r("b#5") in t.state.hands[1] and len(t.state.hands[1]) == 6
    refused("W-4", play, t, 0, "end")


def test_w5_first_round_only_the_last_seat_attacks(rig, play):
    t = rig(3, {0: "10S", 1: "10S", 2: "10S"})
    refused("W-5", play, t, 0, "attack - a#0")
    play(t, 0, "end")
    refused("W-5", play, t, 1, "attack - b#0")
    play(t, 1, "end")
    play(t, 2, "attack - c#0")
    assert t.state.phase == DEFEND and t.state.battle.defender == 0


# -- W-7 .. W-9: Warlords ---------------------------------------------------------------------------

def test_w7_at_most_two_warlords_from_the_hand(rig, play):
    t = rig(2, {0: "KH QH JH"})
    play(t, 0, "warlord a#0", "warlord a#1")
    msg = refused("W-7", play, t, 0, "warlord a#2")
    assert "warlord a#2" in msg
    refused("W-7", play, t, 0, "warlord b#0")
    vis = t.state.visibility()
    assert vis[r("a#0")] == 0 and vis[r("a#1")] == 0  # face down: the owner sees them


def test_w8_exchange_discards_the_old_warlord_face_up(rig, play):
    t = rig(2, {0: "JH KH"})
    play(t, 0, "warlord a#0", "exchange a#0 a#1")
    st = t.state
    assert st.warlords[0] == [r("a#1")] and st.discards[0] == [r("a#0")]
    assert st.visibility()[r("a#0")] == PUBLIC and st.public_faces()[r("a#0")] == Card.parse("JH")
    refused("W-8", play, t, 0, "exchange a#0 a#2")


def test_w9_defending_warlord_is_face_up_and_may_not_attack_before_renewal(rig, play):
    t = battle_to_reveal(rig, play, "KH 9H 8H", "10S 4S", "attack - b#0", "defend a#0 a#1",
                         setup0=("warlord a#0", "end"))
    st = t.state
    assert st.phase == PREP and st.current == 0  # 10 against 12: failed, seat 0's turn
    assert r("a#0") in st.used and st.visibility()[r("a#0")] == PUBLIC
    refused("W-9", play, t, 0, "attack a#0 a#2")
    play(t, 0, "end")  # W-21: renewal makes a#0 ready again, still face up
    assert r("a#0") not in st.used and st.visibility()[r("a#0")] == PUBLIC


# -- W-10 .. W-17: battle ----------------------------------------------------------------------------

def test_w10_attack_needs_an_army_from_the_hand_and_an_own_warlord(rig, play):
    t = rig(2, {0: "KH", 1: "10S"})
    play(t, 0, "warlord a#0", "end")
    refused("W-10", play, t, 1, "attack - b#30")
    refused("W-10", play, t, 1, "attack a#0 b#0")
    play(t, 1, "attack - b#0")
    assert t.state.battle.defender == 0 and t.state.deciders() == (0,)


def test_w11_no_defence_takes_full_damage(rig, play):
    t = battle_to_reveal(rig, play, "", "KS 10S 3S", "attack b#0 b#1", "defend - -",
                         b_support="support b#2", setup1=("warlord b#0",))
    b = t.state.battle
    assert (b.attack, b.defence, b.damage) == (16, 0, 8)  # W-15: the largest damage


def test_w12_defender_support_only_with_an_army(rig, play):
    t = rig(2, {0: "KH 3H", 1: "10S"})
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "attack - b#0")
    play(t, 0, "defend a#0 -")
    play(t, 1, "support -")
    refused("W-12", play, t, 0, "support a#1")
    play(t, 0, "support -")


def test_w13_battle_cards_turn_public_when_the_defender_chooses_support(rig, play):
    t = rig(2, {0: "KH 9H 2H", 1: "QS 10S 3S"})
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    play(t, 0, "defend a#0 a#1")
    play(t, 1, "support b#2")
    vis = t.state.visibility()
    assert t.state.phase == D_SUPPORT
    assert (vis[r("b#1")], vis[r("b#2")], vis[r("a#1")], vis[r("b#0")]) == (1, 1, 0, 1)
    assert r("b#1") not in t.seen[0]
    play(t, 0, "support a#2")
    faces = t.state.public_faces()
    assert all(x in faces for x in map(r, ["b#0", "b#1", "b#2", "a#0", "a#1", "a#2"]))


def test_w14_warlord_alone_defends_with_its_bonus(rig, play):
    t = battle_to_reveal(rig, play, "KH", "4S", "attack - b#0", "defend a#0 -",
                         setup0=("warlord a#0", "end"))
    b = t.state.battle
    assert (b.attack, b.defence, b.damage) == (4, 3, 1) and t.state.phase == LAST_CHANCE


def test_w15_damage_is_half_the_difference_rounded_up(rig, play):
    """The source's example: 10 + Queen + 3 = 15 against 7 + King + 2 = 12 deals 2."""
    t = battle_to_reveal(rig, play, "KH 7H 2H", "QS 10S 3S", "attack b#0 b#1", "defend a#0 a#1",
                         b_support="support b#2", a_support="support a#2",
                         setup0=("warlord a#0", "end"), setup1=("warlord b#0",))
    b = t.state.battle
    assert (b.attack, b.defence, b.damage) == (15, 12, 2)
    assert t.state.deciders() == (0,) and t.state.phase == LAST_CHANCE
    play(t, 0, "accept")
    st = t.state
    assert st.discards[0][-2:] == [r("a#6"), r("a#7")]  # W-29: "2 cards from the top"
    assert r("a#8") in st.hands[0] and st.current == 0 and st.deciders() == (0,)
    assert len(st.piles[0]) == 46 - 2 - 1


def test_w29_with_mail_shortcuts_damage_is_milled_beneath_the_reserved_draw(rig, play):
    t = battle_to_reveal(rig, play, "KH 7H 2H", "QS 10S 3S", "attack b#0 b#1", "defend a#0 a#1",
                         b_support="support b#2", a_support="support a#2",
                         setup0=("warlord a#0", "end"), setup1=("warlord b#0",), options={"mail-shortcuts": True})
    play(t, 0, "accept")
    st = t.state
    assert st.discards[0][-2:] == [r("a#7"), r("a#8")]  # milled from beneath the reserved a#6 (W-29)
    assert r("a#6") in st.hands[0] and len(st.piles[0]) == 46 - 2 - 1


def test_w16_failed_attack_costs_the_warlord(rig, play):
    t = battle_to_reveal(rig, play, "9H", "JS 4S", "attack b#0 b#1", "defend - a#0",
                         setup1=("warlord b#0",))
    st = t.state
    assert st.warlords[1] == [] and r("b#0") in st.discards[1] and st.phase == PREP


def test_w16_failed_attack_without_warlord_mills_one(rig, play):
    t = rig(2, {0: "9H", 1: "4S"})
    play(t, 0, "end")
    top = t.state.piles[1][-1]
    play(t, 1, "attack - b#0")
    play(t, 0, "defend - a#0")
    play(t, 1, "support -")
    play(t, 0, "support -")
    assert t.state.discards[1] == [r("b#0"), top]


def test_w16_tie_fails(rig, play):
    t = battle_to_reveal(rig, play, "8H", "8S", "attack - b#0", "defend - a#0")
    assert t.state.phase == PREP and t.state.current == 0


def test_w17_armies_and_supports_are_discarded_and_the_winner_stays_face_up(rig, play):
    t = battle_to_reveal(rig, play, "5H 2H", "KS 10S 3S", "attack b#0 b#1", "defend - a#0",
                         b_support="support b#2", a_support="support a#1", setup1=("warlord b#0",))
    play(t, 0, "accept")
    st = t.state
    assert st.discards[1] == [r("b#1"), r("b#2")]
    assert st.discards[0][:2] == [r("a#0"), r("a#1")]
    assert st.warlords[1] == [r("b#0")] and st.visibility()[r("b#0")] == PUBLIC


# -- W-18 .. W-20: Aces and the last chance ----------------------------------------------------------

def test_w18_ace_outside_battle_discards_a_named_warlord(rig, play):
    t = rig(2, {0: "KH", 1: "AS QS"})
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "warlord b#1")
    refused("W-18", play, t, 1, "ace b#0")
    refused("W-18", play, t, 1, "ace b#0 b#1")
    play(t, 1, "ace b#0 a#0")
    st = t.state
    assert st.warlords[0] == [] and st.discards[0] == [r("a#0")] and st.discards[1] == [r("b#0")]
    assert st.public_faces()[r("a#0")] == Card.parse("KH")


def test_w19_ace_instead_of_defending(rig, play):
    t = rig(2, {0: "AH", 1: "QS 10S"})
    play(t, 0, "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    play(t, 0, "ace a#0")
    st = t.state
    assert st.warlords[1] == [] and set(st.discards[1]) == {r("b#0"), r("b#1")}
    assert st.discards[0] == [r("a#0")] and st.current == 0 and st.phase == PREP


def test_w19a_ace_instead_of_defending_costs_a_warlordless_attacker_a_card(rig, play):
    """W-19(a) with W-16, the source: "If the attacker used no Warlord, he/she must draw and discard one card";
    the Ace thwarts the attack, so the price is the same at every point of the battle (rules version 4)."""
    for shortcuts in (False, True):
        t = rig(2, {0: "AH", 1: "10S"}, {"mail-shortcuts": shortcuts})
        play(t, 0, "end")
        play(t, 1, "attack - b#0")
        pile = t.state.piles[1][:]
        play(t, 0, "ace a#0")
        st = t.state
        assert st.discards[1] == [r("b#0"), pile[-1]] and st.piles[1] == pile[:-1]
        assert [e.rule for e in t.told if e.kind == "failure"] == ["W-16"]


def test_w19a_a_game_begun_under_rules_version_3_keeps_its_old_price(rig, play):
    """Version 3: an Ace instead of defending cost a Warlordless attacker nothing more (with mail-shortcuts a card);
    a game begun under it goes on under it."""
    for shortcuts, milled in ((False, 0), (True, 1)):
        t = rig(2, {0: "AH", 1: "10S"}, {"mail-shortcuts": shortcuts}, rules_version=3)
        play(t, 0, "end")
        play(t, 1, "attack - b#0")
        pile = len(t.state.piles[1])
        play(t, 0, "ace a#0")
        st = t.state
        assert st.discards[1][0] == r("b#0") and len(st.discards[1]) == 1 + milled
        assert len(st.piles[1]) == pile - milled


def test_w19_ace_instead_of_support_exposes_the_defence(rig, play):
    t = rig(2, {0: "KH 9H AH", 1: "10S 3S"})
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "attack - b#0")
    top = t.state.piles[1][-1]
    play(t, 0, "defend a#0 a#1")
    play(t, 1, "support b#1")
    play(t, 0, "ace a#2")
    st = t.state
    assert r("a#0") in st.warlords[0] and r("a#0") in st.used and st.visibility()[r("a#0")] == PUBLIC
    assert st.discards[0] == [r("a#2"), r("a#1")]
    assert st.discards[1] == [r("b#0"), r("b#1"), top]  # no Warlord: the attacker mills one (W-16)


def test_w19_ace_as_last_chance_and_never_by_the_attacker(rig, play):
    t = rig(2, {0: "JH 5H 2H AH", 1: "KS 10S 3S AS"})
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    play(t, 0, "defend a#0 a#1")
    refused("W-19", play, t, 1, "ace b#3")
    play(t, 1, "support b#2")
    play(t, 0, "support a#2")
    assert t.state.battle.damage == 4
    play(t, 0, "ace a#3")
    st = t.state
    assert st.warlords[1] == [] and r("b#0") in st.discards[1]
    assert set(st.discards[0]) == {r("a#3"), r("a#1"), r("a#2")}
    assert len(st.piles[0]) == 45 and r("a#6") in st.hands[0]  # no damage; seat 0 drew its next card


def test_w20_no_last_chance_when_the_attack_fails(rig, play):
    t = battle_to_reveal(rig, play, "10H", "4S", "attack - b#0", "defend - a#0")
    assert t.state.phase == PREP and t.state.deciders() == (0,)
    refused("W-20", play, t, 0, "accept")


# -- W-21 .. W-24: renewal, running out, revenge, more players ---------------------------------------

def test_w22_w23_empty_pile_gives_a_revenge_turn_then_out(rig, play):
    t = rig(2, {0: "9H", 1: "10S"})
    t.state.piles[1].clear()
    t.state._vis = None  # changed by hand: drop the visibility kept
    play(t, 0, "end")
    st = t.state
    assert st.revenge and st.current == 1 and len(st.hands[1]) == 5  # no draw
    play(t, 1, "attack - b#0")
    play(t, 0, "defend - -")
    play(t, 1, "support -")
    play(t, 0, "support -")
    play(t, 0, "accept")
    assert st.is_terminal() and st.outcome().winners == (0,)
    assert len(st.piles[0]) == 46 - 5 and len(st.discards[0]) == 5
    refused("W-31", play, t, 0, "end")


def test_w24_the_circle_shrinks(rig, play):
    t = rig(3, {0: "10H", 1: "10S", 2: "10D"})
    t.state.piles[1].clear()
    t.state._vis = None  # changed by hand: drop the visibility kept
    play(t, 0, "end")
    play(t, 1, "end")  # revenge turn without an attack: seat 1 is out
    st = t.state
    assert st.active == [True, False, True] and st.current == 2
    assert st.target(0) == 2 and st.target(2) == 0
    play(t, 2, "end")
    play(t, 0, "attack - a#0")
    assert st.battle.defender == 2 and st.deciders() == (2,)


# -- W-25 .. W-27: the joker options -----------------------------------------------------------------

def _fill_discard(t, seat, k):
    """Test set-up: move ``k`` cards from the bottom of ``seat``'s draw pile to its discard pile."""
    st = t.state
    st.discards[seat].extend(st.piles[seat].pop(0) for _ in range(k))
    st._vis = None  # changed by hand: drop the visibility kept
    t.settle()


def test_w25_reinforcement_picks_ten_discards_and_keeps_the_rest_face_down(rig, play):
    t = rig(2, {0: "XR"}, {"reinforcements": True})
    _fill_discard(t, 0, 15)
    st = t.state
    before = sorted(t.truth[x] for x in st.piles[0] + st.discards[0])
    draw_n = len(st.piles[0])
    st.apply(0, t.game.parse_action("joker a#0"))
    first = st.chance()
    assert first.new_deck == "a.1" and len(first.refs) == 15 and st.deciders() == ()
    t.settle()
    assert st.generation[0] == 2 and st.phase == PREP
    assert len(st.piles[0]) == draw_n + 10 and all(x.deck == "a.2" for x in st.piles[0])
    assert st.piles[0][-1] == r("a.2#0")
    left = st.discards[0][:-1]
    assert left == [r(f"a.1#{i}") for i in range(10, 15)] and st.discards[0][-1] == r("a#0")
    vis = st.visibility()
    assert not any(x in vis for x in left) and vis[r("a#0")] == PUBLIC
    assert sorted(t.truth[x] for x in st.piles[0] + left) == before


def test_w25_small_discard_pile_comes_back_whole_in_one_shuffle(rig, play):
    t = rig(2, {0: "XR"}, {"reinforcements": True})
    _fill_discard(t, 0, 6)
    st = t.state
    n = len(st.piles[0])
    st.apply(0, t.game.parse_action("joker a#0"))
    assert len(st.chance().refs) == n + 6
    t.settle()
    assert st.generation[0] == 1 and len(st.piles[0]) == n + 6 and st.discards[0] == [r("a#0")]


def test_w25_joker_needs_the_option(rig, play):
    t = rig(2, {0: "9H"})
    refused("W-25", play, t, 0, "joker a#0")


def test_w26_shortcuts_emergency_joker_rescues_with_eight_cards(rig, play):
    t = rig(2, {1: "XR KS"}, {"reinforcements": True, "mail-shortcuts": True})
    _fill_discard(t, 1, 12)
    t.state.piles[1].clear()
    t.state._vis = None  # changed by hand: drop the visibility kept
    play(t, 0, "end")
    st = t.state
    assert st.revenge and st.rescue
    play(t, 1, "joker b#0")
    assert not st.revenge and st.current == 1 and st.phase == PREP
    assert len(st.piles[1]) == 7 and len(st.hands[1]) == 5  # 8 came back, one drawn
    assert len(st.discards[1]) == 1 + 4


def test_w26_shortcuts_emergency_joker_only_as_first_action(rig, play):
    t = rig(2, {1: "XR KS"}, {"reinforcements": True, "mail-shortcuts": True})
    _fill_discard(t, 1, 12)
    t.state.piles[1].clear()
    t.state._vis = None  # changed by hand: drop the visibility kept
    play(t, 0, "end")
    play(t, 1, "warlord b#1")
    refused("W-26", play, t, 1, "joker b#0")


def test_w26_shortcuts_emergency_joker_needs_discards(rig, play):
    t = rig(2, {1: "XR"}, {"reinforcements": True, "mail-shortcuts": True})
    t.state.piles[1].clear()
    t.state._vis = None  # changed by hand: drop the visibility kept
    play(t, 0, "end")
    refused("W-26", play, t, 1, "joker b#0")


def test_w27_hidden_ally_counts_as_the_best_card_of_its_role(rig, play):
    t = rig(2, {1: "XB 10S"}, {"hidden-ally": True})
    play(t, 0, "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    play(t, 0, "defend - -")
    play(t, 1, "support -")
    play(t, 0, "support -")
    assert t.state.battle.attack == 13 and not t.violations
    t2 = rig(2, {1: "XB 2S"}, {"hidden-ally": True})
    play(t2, 0, "end")
    play(t2, 1, "attack - b#0")
    play(t2, 0, "defend - -")
    play(t2, 1, "support b#1")
    play(t2, 0, "support -")
    assert t2.state.battle.attack == 12 and not t2.violations


def test_w27_hidden_ally_is_no_reinforcement(rig, play):
    t = rig(2, {0: "XB"}, {"hidden-ally": True, "reinforcements": True})
    known = t.known(0)
    assert not [a for a in t.state.legal_actions(0, known) if str(a).startswith("joker")]
    play(t, 0, "joker a#0")
    assert t.violations and t.violations[0].rule == "W-25" and t.state.outcome().cheaters == (0,)


# -- W-28, W-29: visibility and the reserved draw --------------------------------------------------

def test_w28_each_seat_sees_only_its_own_hidden_cards(rig, play):
    t = rig(2, {0: "KH"})
    play(t, 0, "warlord a#0", "end")
    assert all(x.deck == "a" for x in t.seen[0]) and all(x.deck == "b" for x in t.seen[1])
    assert r("a#0") not in t.known(1)
    assert "[??] a#0" in t.state.render(1, t.known(1)) and "KH a#0" in t.state.render(0, t.known(0))


def test_w29_the_defender_does_not_see_its_next_card_at_the_last_chance(rig, play):
    """W-29 by default: nothing reserves the next draw, so the last-chance Ace is decided without it."""
    t = rig(2, {0: "5H", 1: "10S"})
    play(t, 0, "end")
    play(t, 1, "attack - b#0")
    play(t, 0, "defend - a#0")
    play(t, 1, "support -")
    play(t, 0, "support -")
    assert t.state.phase == LAST_CHANCE and r("a#6") not in t.state.visibility()
    assert r("a#6") not in t.seen[0]


def test_w29_with_mail_shortcuts_reserved_draw_visible_from_the_reveal(rig, play):
    t = rig(2, {0: "5H", 1: "10S"}, {"mail-shortcuts": True})
    play(t, 0, "end")
    play(t, 1, "attack - b#0")
    play(t, 0, "defend - a#0")
    play(t, 1, "support -")
    assert r("a#6") not in t.state.visibility()
    play(t, 0, "support -")
    assert t.state.phase == LAST_CHANCE and t.state.visibility()[r("a#6")] == 0
    assert r("a#6") in t.seen[0]


def test_w29_damage_beyond_the_pile_mills_the_reserved_card_too(rig, play):
    t = rig(2, {0: "", 1: "KS 10S 3S"})
    del t.state.piles[0][:-3]
    play(t, 0, "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    play(t, 0, "defend - -")
    play(t, 1, "support b#2")
    play(t, 0, "support -")
    play(t, 0, "accept")
    st = t.state
    assert st.piles[0] == [] and st.revenge and st.current == 0


# -- W-31 --------------------------------------------------------------------------------------------

def test_w31_phases_refuse_actions_of_other_phases(rig, play):
    t = rig(2, {0: "KH", 1: "10S"})
    refused("W-11", play, t, 0, "defend - -")
    refused("W-12", play, t, 0, "support -")
    play(t, 0, "end")
    play(t, 1, "attack - b#0")
    refused("W-7", play, t, 0, "warlord a#0")
    refused("W-4", play, t, 1, "support -")
    play(t, 0, "defend - -")
    assert t.state.phase == A_SUPPORT


def test_w20_a_support_may_accept_the_damage_in_advance(rig, play):
    """W-20, W-29 by default: the defender may waive its last chance with its Support ('support - accept'); the
    revealed damage is then milled from the top at once and its own turn begins, with no last chance."""
    t = rig(2, {0: "5H", 1: "10S"})
    play(t, 0, "end")
    play(t, 1, "attack - b#0")
    play(t, 0, "defend - a#0")
    play(t, 1, "support -")
    play(t, 0, "support - accept")
    st = t.state
    assert st.battle is None and st.current == 0 and st.phase != LAST_CHANCE
    assert st.discards[0][-4:] == [r("a#0"), r("a#6"), r("a#7"), r("a#8")]  # 10 against 5: 3 from the top
    t = rig(2, {0: "5H", 1: "10S"}, {"mail-shortcuts": True})
    play(t, 0, "end")
    play(t, 1, "attack - b#0")
    play(t, 0, "defend - a#0")
    play(t, 1, "support -")
    refused("W-20", play, t, 0, "support - accept")
