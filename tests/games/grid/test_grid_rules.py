"""Rule tests for Grid Duel; each test names the digest rule (seeds/grid.md) it checks.

Unless a test says otherwise seat 0 plays Vanguard (deck ``a``) and seat 1 Bastion (deck ``b``);
``rig({0: "Knight, Archer"})`` puts a Knight at a#0 and an Archer at a#1 (the hand is #0..#3,
#4 is the first draw).
"""

from __future__ import annotations

import pytest

from duelmail.errors import IllegalMove, NotationError
from duelmail.games.base import PUBLIC
from duelmail.games.cards import Card, CardRef, standard_deck
from duelmail.games.grid.library import deck, library
from duelmail.games.grid.rules import OVER, SCORE, STALL, aim, pos_index

VB = "vanguard", "bastion"


def refused(rule, fn, *args):
    with pytest.raises(IllegalMove) as err:
        fn(*args)
    assert err.value.rule == rule, str(err.value)
    assert f"(rule {rule})" in str(err.value)
    return str(err.value)


def r(text):
    return CardRef.parse(text)


def P(name):
    return pos_index(name)


# -- G-1 .. G-4: players, decks, cards, set-up ------------------------------------------------------

def test_g1_two_players_seat_0_starts_then_turns_alternate(game, rig, play):
    assert (game.spec.min_players, game.spec.max_players) == (2, 2)
    t = rig()
    assert t.state.deciders() == (0,)
    play(t, 0, "play a#0 c3 hidden")
    assert t.state.deciders() == (1,)
    play(t, 1, "play b#0 c4 hidden")
    assert t.state.deciders() == (0,)


def test_g2_decks_are_options_checked_when_the_challenge_is_made(game):
    assert game.spec.id == "grid" and game.spec.digest == "seeds/grid.md"
    assert game.spec.resolve_options({}) == {"deck0": "vanguard", "deck1": "vanguard", "mail-shortcuts": False}
    assert game.spec.resolve_options({"deck0": "Hive", "deck1": "pack"}) == {"deck0": "hive", "deck1": "pack",
                                                                            "mail-shortcuts": False}
    with pytest.raises(NotationError) as err:
        game.spec.resolve_options({"deck1": "dragons"})
    assert "dragons" in str(err.value) and "tempest" in str(err.value)
    st = game.new_state(2, {"deck0": "tempest", "deck1": "hive"})
    assert st.deck_names == ("tempest", "hive")


def test_g3_designed_cards_travel_as_french_faces_and_the_pack_as_real_cards(game):
    specs = game.decks(2, {"deck0": "hive", "deck1": "pack"})
    assert specs[0].faces == standard_deck()[:24] and specs[0].owner == 0
    assert {c.suit for c in specs[1].faces} == {"S", "C"} and len(specs[1].faces) == 26
    red = dict(deck("pack").cards(0))
    assert red[Card.parse("10H")].strength == 8 and red[Card.parse("KD")].merge
    assert red[Card.parse("AH")].ally and red[Card.parse("JH")].strike == 2
    assert deck("hive").table(0)[Card.parse("2S")].name == "Brute"
    assert len({d.id for d in library().values()} - {"pack"}) >= 4


def test_g4_both_seats_lock_each_deck_hands_of_four(game, rig):
    specs = game.decks(2, {})
    assert [d.id for d in specs] == ["a", "b"] and all(d.lockers is None for d in specs)
    st = rig().state
    assert st.hands == [[r(f"a#{i}") for i in range(4)], [r(f"b#{i}") for i in range(4)]]
    assert st.piles[0][-1] == r("a#4") and len(st.piles[0]) == 20
    vis = st.visibility()
    assert vis[r("a#0")] == 0 and vis[r("b#3")] == 1 and r("a#4") not in vis


# -- G-5, G-6: the grid and spaces ---------------------------------------------------------------

def test_g5_first_card_goes_to_c3(rig, play):
    t = rig()
    refused("G-5", play, t, 0, "play a#0 b2 hidden")
    play(t, 0, "play a#0 c3 hidden")
    assert t.state.spaces[P("c3")].holder == [r("a#0")]


def test_g5_the_grid_is_any_3x3_block_holding_every_card(rig, play):
    t = rig()
    assert t.state.empty_spaces() == [P("c3")]
    play(t, 0, "play a#0 c3 hidden")
    assert len(t.state.empty_spaces()) == 24  # every space fits some 3x3 block with c3
    play(t, 1, "play b#0 e3 hidden")
    assert not any(p % 5 in (0, 1) for p in t.state.empty_spaces())  # columns c..e now
    refused("G-5", play, t, 0, "play a#1 b3 hidden")
    play(t, 0, "play a#1 d5 hidden")
    refused("G-5", play, t, 1, "play b#1 d2 hidden")  # rows 3..5 now
    assert sorted(t.state.empty_spaces()) == sorted(map(P, ["c4", "c5", "d3", "d4", "e4", "e5"]))


def test_g5_a_move_may_not_leave_the_grid(rig, play):
    t = rig({0: "Spearman, Spearman"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 a3 hidden")
    refused("G-5", play, t, 0, "move c3 d3")
    play(t, 0, "move c3 c4")
    assert P("c4") in t.state.spaces and P("c3") not in t.state.spaces


def test_g6_a_battle_counts_for_its_defender(rig, play):
    t = rig({0: "Spearman", 1: "Militia"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 c3")  # 3 against 5: a battle
    st = t.state
    assert st.spaces[P("c3")].owner == 0 and st.spaces[P("c3")].attack == [(r("b#0"),)]
    assert st.score() == ([1, 0], [5, 0])


# -- G-7, G-8: the turn ------------------------------------------------------------------------------

def test_g7_one_action_ends_the_turn_and_the_hand_refills(rig, play):
    t = rig({0: "Spearman, Archer"})
    st = t.state
    refused("G-7", play, t, 1, "play b#0 c3 hidden")
    play(t, 0, "play a#0 c3 hidden")
    assert st.hands[0] == [r("a#1"), r("a#2"), r("a#3"), r("a#4")] and len(st.piles[0]) == 19
    assert st.deciders() == (1,) and st.turn == 1


def test_g7_extra_actions_come_before_the_action(rig, play):
    t = rig({0: "Archer, Spearman"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "reveal a#0 left")
    assert t.state.deciders() == (0,) and r("a#0") in t.state.public_faces()
    play(t, 0, "play a#1 d3 hidden")
    assert t.state.deciders() == (1,)


def test_g7_after_an_attack_on_a_face_down_card_the_mover_may_still_reveal(rig, play):
    """G-7 (source: Reveal "at any time during your turn"): the attack needs the defender's key; once it is
    open the mover sees the battle go on, reveals a face-down Archer whose Strike takes the space, then passes."""
    t = rig({0: "Archer, Recruit", 1: "Guard"})
    st = t.state
    play(t, 0, "play a#0 c3 hidden")  # an Archer (2, Strike 2 ahead), face down
    play(t, 1, "play b#0 c4 hidden")  # a Guard (5), face down
    play(t, 0, "play a#1 c4")  # a Recruit (3) attacks: the Guard turns face up and holds, 3 against 5
    assert st.spaces[P("c4")].attack == [(r("a#1"),)] and st.attack(P("c4")) == 3 and st.defence(P("c4")) == 5
    assert st.deciders() == (0,) and st.turn == 2 and len(st.hands[0]) == 4  # refilled; the turn goes on
    (w,) = st.windows()
    assert (w.seat, w.rule, w.answers) == (0, "G-7", ("pass", "reveal", "concede"))
    assert {type(a).__name__ for a in st.legal_actions(0, t.known(0))} == {"Reveal", "Pass"}
    assert "pass to end your turn" in st.prompt(0)
    play(t, 0, "reveal a#0 upright")  # seat 0's ahead is up the table: c4
    assert st.spaces[P("c4")].owner == 0 and st.spaces[P("c4")].holder == [r("a#1")]  # 3 + 2 against 5
    assert r("b#0") in st.discards[1] and st.deciders() == (0,)
    play(t, 0, "pass")
    assert st.deciders() == (1,) and st.turn == 3 and not st.windows()


def test_g7_after_the_action_the_mover_may_concede_a_battle_it_defends(rig, play):
    t = rig({0: "Spearman, Recruit, Knight", 1: "Guard, Militia"})
    st = t.state
    play(t, 0, "play a#0 c3")  # a Spearman (5), face up
    play(t, 1, "play b#0 c4 hidden")  # a Guard, face down
    play(t, 0, "play a#1 d3")
    play(t, 1, "play b#1 c3")  # a Militia (3) attacks the Spearman: the battle goes on
    play(t, 0, "play a#2 c4")  # a Knight (8) attacks the face-down Guard, and takes it once it opens
    assert st.spaces[P("c4")].owner == 0 and [w.rule for w in st.windows()] == ["G-7"]
    assert "concede c3" in {str(a) for a in st.legal_actions(0, t.known(0))}
    play(t, 0, "concede c3")
    assert st.spaces[P("c3")].owner == 1 and st.spaces[P("c3")].holder == [r("b#1")]
    assert r("a#0") in st.discards[0] and st.deciders() == (0,)
    play(t, 0, "pass")
    assert st.deciders() == (1,)


def test_g7_a_face_down_card_moved_may_be_revealed_where_it_arrived(rig, play):
    """G-7, G-25: a Scout moved face down and revealed after the move turns up the enemy cards next to its new
    space, which a reveal before the move would not reach: the turn goes on after a face-down move (in the same
    file: nothing waits for the opponent) until the mover passes."""
    t = rig({0: "Scout", 1: "Guard"}, deck0="tempest")
    st = t.state
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 d4 hidden")
    play(t, 0, "move c3 c4")
    assert st.deciders() == (0,) and [w.rule for w in st.windows()] == ["G-7"]
    play(t, 0, "reveal a#0")
    assert r("b#0") in st.face_up and st.visibility()[r("b#0")] == PUBLIC  # d4 is next to c4, not to c3
    play(t, 0, "pass")
    assert st.deciders() == (1,)


def test_g7_after_the_action_only_reveal_concede_or_pass(rig, play):
    t = rig({0: "Archer, Recruit, Spearman", 1: "Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "play a#1 c4")
    msg = refused("G-7", play, t, 0, "play a#2 d3 hidden")
    assert "reveal and concede, then pass" in msg
    refused("G-7", play, t, 0, "move c3 b3")
    refused("G-7", play, t, 1, "pass")  # the turn is seat 0's until it passes
    play(t, 0, "pass")
    assert t.state.deciders() == (1,)


def test_g7_the_turn_ends_with_its_action_when_nothing_waits_or_nothing_is_left(rig, play):
    """No window when the action's outcome is known in the mover's own file (a face-up defender), nor when
    the mover has no face-down card on the table and defends no battle: the action ends the turn."""
    t = rig({0: "Archer, Recruit", 1: "Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4")  # face up
    play(t, 0, "play a#1 c4")
    assert t.state.deciders() == (1,) and not t.state.windows()
    t = rig({0: "Spearman, Recruit", 1: "Guard"})
    play(t, 0, "play a#0 c3")  # face up: nothing to reveal later
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "play a#1 c4")
    assert t.state.deciders() == (1,) and not t.state.windows()


def test_g7_mail_shortcuts_reveal_and_concede_only_before_the_action(rig, play):
    """G-7 with the option mail-shortcuts: the old ruling, the action always ends the turn."""
    t = rig({0: "Archer, Recruit", 1: "Guard"}, options={"mail-shortcuts": True})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "play a#1 c4")
    st = t.state
    assert st.deciders() == (1,) and not st.windows() and st.spaces[P("c4")].owner == 1
    refused("G-7", play, t, 0, "reveal a#0 upright")


def test_g8_a_card_turned_up_by_force_is_oriented_first(rig, play):
    t = rig({0: "Spearman, Archer", 1: "Tower, Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")  # a Tower (3, Boost 3), face down
    play(t, 0, "play a#1 c4")  # an Archer (2) attacks it: the Tower turns face up and holds
    st = t.state
    assert st.spaces[P("c4")].attack == [(r("a#1"),)] and r("b#0") in st.public_faces()
    assert st.pending(1) == [r("b#0")] and st.targets(r("b#0")) == []  # arrows do nothing yet
    # seat 0's turn goes on (G-7), but first seat 1 orients its card, at once, as at the table
    assert st.deciders() == (1,) and not st.windows()
    assert {str(a) for a in st.legal_actions(1, t.known(1))} == {f"orient b#0 {o}" for o in
                                                                   ("upright", "right", "inverted", "left")}
    refused("G-8", play, t, 1, "play b#1 d4 hidden")
    refused("G-8", play, t, 1, "orient b#1 left")
    msg = refused("G-7", play, t, 0, "pass")
    assert "waiting for seat 1 to orient b#0" in msg
    assert str(st.default_action(1)) == "orient b#0 upright" and st.default_action(0) is None  # a late owner
    play(t, 1, "orient b#0 upright")  # seat 1's ahead is down the table: c3 and (back) c5
    assert sorted(st.targets(r("b#0"))) == [P("c3"), P("c5")]
    assert st.deciders() == (0,) and [w.rule for w in st.windows()] == ["G-7"]
    play(t, 0, "pass")
    assert st.deciders() == (1,)


def test_g8_with_mail_shortcuts_the_owner_orients_at_its_next_turn(rig, play):
    t = rig({0: "Spearman, Archer", 1: "Tower, Guard"}, options={"mail-shortcuts": True})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "play a#1 c4")
    st = t.state
    assert st.deciders() == (1,) and st.pending(1) == [r("b#0")] and st.turn == 3
    refused("G-8", play, t, 1, "play b#1 d4 hidden")
    assert st.default_action(1) is None  # its own turn: a late one forfeits, as any turn
    play(t, 1, "orient b#0 upright", "play b#1 d4 hidden")
    assert st.deciders() == (0,)


def test_g25_a_scout_holds_the_turn_until_the_cards_it_turned_up_are_open_and_oriented(rig, play):
    """G-25, G-8: a Scout revealed in seat 0's turn turns up seat 1's face-down Tower next to it; seat 0's turn
    waits for its key and for seat 1 to orient it, so that its Boost counts as at the table, then goes on."""
    t = rig({0: "Scout, Skirmisher", 1: "Tower, Guard"}, deck0="tempest")
    st = t.state
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "play a#1 b3 hidden")
    play(t, 1, "play b#1 d3 hidden")
    play(t, 0, "reveal a#0")  # the Scout at c3: c4 and d3 are next to it
    assert {r("b#0"), r("b#1")} <= st.face_up and st.deciders() == (1,) and st.pending(1) == [r("b#0")]
    play(t, 1, "orient b#0 right")
    assert st.deciders() == (0,) and st.turn == 4 and r("b#1") in st.public_faces()
    play(t, 0, "play a#2 b4 hidden")
    assert st.deciders() == (1,) and st.turn == 5


# -- G-9 .. G-14: the actions --------------------------------------------------------------------

def test_g9_play_to_an_empty_space_face_down_is_seen_by_its_owner_only(rig, play):
    t = rig({0: "Knight, Spearman"})
    refused("G-9", play, t, 0, "play b#0 c3 hidden")
    refused("G-9", play, t, 0, "play a#9 c3 hidden")
    play(t, 0, "play a#0 c3 hidden")
    st = t.state
    assert st.visibility()[r("a#0")] == 0 and r("a#0") not in st.public_faces()
    assert r("a#0") in t.known(0) and r("a#0") not in t.known(1)
    play(t, 1, "play b#0 c4 hidden")
    msg = refused("G-9", play, t, 0, "play a#1 c3 hidden")
    assert "ally or merge" in msg


def test_g10_refusal_playing_face_down_into_an_enemy_space(rig, play):
    t = rig({1: "Guard"})
    play(t, 0, "play a#0 c3 hidden")
    msg = refused("G-10", play, t, 1, "play b#0 c3 hidden")
    assert "face up" in msg and "play b#0 c3 hidden" in msg
    assert t.state.hands[1][0] == r("b#0") and t.state.spaces[P("c3")].owner == 0  # nothing changed


def test_g10_a_card_at_least_as_strong_takes_the_space(rig, play):
    t = rig({0: "Spearman", 1: "Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c3")  # 5 against 5: meeting the defence is enough
    st = t.state
    assert st.spaces[P("c3")].owner == 1 and st.spaces[P("c3")].holder == [r("b#0")]
    assert st.discards[0] == [r("a#0")] and st.visibility()[r("a#0")] == PUBLIC


def test_g10_a_weaker_card_starts_a_battle(rig, play):
    t = rig({0: "Spearman", 1: "Militia"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c3")
    sp = t.state.spaces[P("c3")]
    assert sp.owner == 0 and sp.attack == [(r("b#0"),)] and t.state.attack(P("c3")) == 3
    assert t.state.defence(P("c3")) == 5


def test_g11_attacks_accumulate_and_the_last_card_holds(rig, play):
    t = rig({0: "Spearman, Recruit, Recruit", 1: "Militia, Pit, Crossbow"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 c3")  # 3 against 5
    play(t, 0, "play a#1 c4 hidden")
    play(t, 1, "play b#1 c3")  # + 1 (a Pit played face up is no trap): 4 against 5
    assert t.state.spaces[P("c3")].attack == [(r("b#0"),), (r("b#1"),)]
    play(t, 0, "play a#2 b3 hidden")
    play(t, 1, "play b#2 c3")  # + 2: 6 against 5
    st = t.state
    assert st.spaces[P("c3")].owner == 1 and st.spaces[P("c3")].holder == [r("b#2")]
    assert st.discards == [[r("a#0")], [r("b#0"), r("b#1")]]


def test_g11_refusal_adding_a_card_to_a_battle_you_defend(rig, play):
    t = rig({0: "Spearman, Recruit", 1: "Militia"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 c3")
    msg = refused("G-11", play, t, 0, "play a#1 c3")
    assert "you defend the battle at c3" in msg
    assert t.state.hands[0][0] == r("a#1")


def test_g12_refusal_moving_a_card_that_is_in_a_battle(rig, play):
    t = rig({0: "Spearman, Recruit", 1: "Militia, Guard"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 c3")
    msg = refused("G-12", play, t, 0, "move c3 c4")  # the defender's card
    assert "in a battle" in msg
    play(t, 0, "play a#1 d3 hidden")
    msg = refused("G-12", play, t, 1, "move c3 c4")  # the attacker's card
    assert "in a battle" in msg


def test_g12_moves_are_one_orthogonal_step_never_onto_your_own_space(rig, play):
    t = rig({0: "Spearman, Recruit"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 a1 hidden")
    refused("G-12", play, t, 0, "move c3 b2")
    refused("G-12", play, t, 0, "move c3 e4")
    refused("G-25", play, t, 0, "move c3 c5")
    refused("G-12", play, t, 0, "move b3 b2")
    play(t, 0, "move c3 b3", "pass")  # a face-down card moved: the turn goes on until a pass (G-7)
    play(t, 1, "play b#1 c3 hidden")
    refused("G-12", play, t, 0, "move b3 b3")
    play(t, 0, "play a#1 b2 hidden")
    play(t, 1, "play b#2 c2 hidden")
    refused("G-12", play, t, 0, "move b3 b2")


def test_g12_moving_into_an_enemy_space_is_an_attack_and_turns_the_card_up(rig, play):
    t = rig({0: "Knight, Archer", 1: "Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "move c3 c4")
    st = t.state
    assert P("c3") not in st.spaces and st.spaces[P("c4")].holder == [r("a#0")]
    assert {r("a#0"), r("b#0")} <= set(st.public_faces()) and st.discards[1] == [r("b#0")]


def test_g13_refusal_ending_the_game_before_the_condition_holds(rig, play):
    t = rig()
    msg = refused("G-13", play, t, 0, "end")
    assert "draw piles 20 and 20" in msg
    t.state.piles[1].clear()  # seat 1 has drawn everything but still holds four cards
    refused("G-13", play, t, 0, "end")
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")  # three left in hand, none to draw
    assert t.state.end_allowed()
    play(t, 0, "end")
    st = t.state
    assert st.phase == OVER and st.outcome().winners in ((0,), (1,), ())
    assert "seat 0 ended the game" in st.outcome().reason


def test_g14_pass_only_when_nothing_else_is_possible(rig, play):
    from duelmail.games.grid.rules import Space

    t = rig()
    refused("G-14", play, t, 0, "pass")
    st = t.state
    for p in map(P, ["b2", "c2", "d2", "b3", "c3", "d3", "b4", "c4", "d4"]):
        card = st.piles[0].pop(0)
        st.spaces[p] = Space(0, [card])
        st.where[card] = p
    t.settle()
    assert st.legal_actions(0, t.known(0))[-1] == t.game.parse_action("pass")
    play(t, 0, "pass")
    assert st.deciders() == (1,) and st.idle == 1


# -- G-15, G-16: the extra actions ----------------------------------------------------------------

def test_g15_reveal_your_own_face_down_card_only(rig, play):
    t = rig({0: "Archer, Spearman"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    refused("G-15", play, t, 0, "reveal b#0")
    refused("G-15", play, t, 0, "reveal a#1")  # in the hand, not on the table
    play(t, 0, "reveal a#0 inverted")
    st = t.state
    assert st.public_faces()[r("a#0")] == t.truth[r("a#0")] and st.orient[r("a#0")] == 2
    assert sorted(st.targets(r("a#0"))) == sorted(map(P, ["b2", "c2", "d2"]))
    refused("G-15", play, t, 0, "reveal a#0")


def test_g16_concede_gives_the_space_to_the_last_attacking_card(rig, play):
    t = rig({0: "Knight, Recruit", 1: "Militia, Pit"})
    play(t, 0, "play a#0 c3")
    refused("G-16", play, t, 1, "concede c3")
    play(t, 1, "play b#0 c3")
    play(t, 0, "play a#1 d3 hidden")
    play(t, 1, "play b#1 c3")
    play(t, 0, "concede c3")
    st = t.state
    assert st.spaces[P("c3")].owner == 1 and st.spaces[P("c3")].holder == [r("b#1")]
    assert st.discards == [[r("a#0")], [r("b#0")]] and st.deciders() == (0,)  # still seat 0's turn


# -- G-17, G-18: battles -----------------------------------------------------------------------------

def test_g17_a_strike_counts_in_the_first_comparison(rig, play):
    t = rig({0: "Archer, Recruit", 1: "Guard"})
    play(t, 0, "play a#0 c3")  # upright: strikes b4, c4, d4
    play(t, 1, "play b#0 c4")
    play(t, 0, "play a#1 c4")  # Recruit 3 + Strike 2 = 5 against 5
    assert t.state.spaces[P("c4")].owner == 0


def test_g17_a_reveal_can_win_a_battle_at_once(rig, play):
    t = rig({0: "Archer, Recruit, Spearman", 1: "Guard, Militia"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4")
    play(t, 0, "play a#1 c4")  # 3 against 5: the face-down Archer does not strike
    play(t, 1, "play b#1 d4 hidden")
    assert t.state.spaces[P("c4")].owner == 1
    play(t, 0, "reveal a#0")  # the Archer turns up aiming at c4: 5 against 5
    st = t.state
    assert st.spaces[P("c4")].owner == 0 and st.deciders() == (0,)


def test_g18_a_battle_waits_for_the_defenders_reveal(rig, play):
    t = rig({0: "Spearman", 1: "Guard"})
    play(t, 0, "play a#0 c3 hidden")
    st = t.state
    st.apply(1, t.game.parse_action("play b#0 c3"))  # no reveals yet
    assert st.deciders() == () and st.visibility()[r("a#0")] == PUBLIC
    assert st.hands[1] == [r("b#1"), r("b#2"), r("b#3"), r("b#4")] and st.current == 0
    st.reveal(r("b#0"), t.truth[r("b#0")])
    assert st.deciders() == ()  # the attacker's own card is known; the defender's is still owed
    st.reveal(r("a#0"), t.truth[r("a#0")])
    assert st.deciders() == (0,) and st.spaces[P("c3")].owner == 1


# -- G-19 .. G-25: abilities ---------------------------------------------------------------------------

def test_g19_abilities_work_only_face_up(rig, play):
    t = rig({0: "Spearman, Squire, Archer", 1: "Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c5 hidden")
    refused("G-23", play, t, 0, "ally a#1 c3 hidden")
    play(t, 0, "play a#2 c4 hidden")
    assert t.state.targets(r("a#2")) == [] and t.state.support(P("c5"), 0, "strike") == 0


def test_g20_strike_helps_only_its_owners_attacks(rig, play):
    t = rig({0: "Archer, Spearman", 1: "Castellan, Guard"})
    play(t, 0, "play a#0 c3")  # strikes b4, c4, d4
    play(t, 1, "play b#0 c4")
    play(t, 0, "play a#1 b4 hidden")
    assert t.state.support(P("b4"), 0, "strike") == 2  # aimed at b4, but b4 is seat 0's own space
    play(t, 1, "play b#1 b4")  # Guard 5 against Spearman 5: the Archer adds nothing to a defence
    assert t.state.spaces[P("b4")].owner == 1


def test_g21_boost_adds_to_its_owners_defence(rig, play):
    t = rig({0: "Spearman, Recruit", 1: "Shield-bearer, Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4")  # seat 1 upright: F is c3, its left is d4, its right b4
    assert sorted(t.state.targets(r("b#0"))) == sorted(map(P, ["c3", "d4", "b4"]))
    play(t, 0, "play a#1 a4 hidden")
    play(t, 1, "play b#1 b4")
    assert t.state.defence(P("b4")) == 7


@pytest.mark.parametrize("seat, orient, arrow, target", [
    (0, 0, (0, 1), "c4"), (0, 2, (0, 1), "c2"), (0, 1, (0, 1), "d3"), (0, 3, (0, 1), "b3"),
    (0, 2, (-1, 1), "d2"), (0, 1, (-1, 0), "c4"),
    (1, 0, (0, 1), "c2"), (1, 2, (0, 1), "c4"), (1, 1, (0, 1), "b3"), (1, 3, (0, 1), "d3"),
])
def test_g22_arrows_turn_with_the_orientation_seen_from_the_owner(seat, orient, arrow, target):
    assert aim(P("c3"), [arrow], orient, seat) == [P(target)]


def test_g22_arrows_off_the_area_point_at_nothing():
    assert aim(P("a1"), [(0, -1), (-1, 0), (1, 1)], 0, 0) == [P("b2")]


def test_g23_an_ally_adds_to_the_defence_and_pins_the_card(rig, play):
    t = rig({0: "Spearman, Squire, Recruit", 1: "Captain, Guard, Militia"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 e3 hidden")
    play(t, 0, "ally a#1 c3")
    st = t.state
    assert st.spaces[P("c3")].allies == [r("a#1")] and st.defence(P("c3")) == 8
    play(t, 1, "play b#1 c3")  # Guard 5 against 8: a battle
    refused("G-12", play, t, 0, "move c3 c4")
    play(t, 0, "play a#2 d3 hidden")
    play(t, 1, "ally b#2 e3")
    refused("G-23", play, t, 0, "ally a#3 e3")


def two_allies_on_c3(t, play) -> None:
    """Seat 0's first card on c3 with its next two as Allies on it; seat 1's first three face down on e3, e2, e4."""
    for seat, move in [(0, "play a#0 c3"), (1, "play b#0 e3 hidden"), (0, "ally a#1 c3"), (1, "play b#1 e2 hidden"),
                       (0, "ally a#2 c3"), (1, "play b#2 e4 hidden")]:
        play(t, seat, move)


def test_g23_a_card_with_allies_moves_and_leaves_them_holding_its_space(rig, play):
    """The source: "You may move any of your cards that is not in a battle." The Allies stay (only merged cards
    "move as if they were a single card"), the first one now holds the space (rules version 5)."""
    t = rig({0: "Spearman, Squire, Shieldmate", 1: "Militia, Guard, Captain"})
    two_allies_on_c3(t, play)
    st = t.state
    assert any(str(a) == "move c3 c4" for a in st.legal_actions(0, t.known(0)))
    play(t, 0, "move c3 c4")
    assert st.spaces[P("c4")].holder == [r("a#0")] and not st.spaces[P("c4")].allies
    assert st.spaces[P("c3")].owner == 0 and st.spaces[P("c3")].holder == [r("a#1")]
    assert st.spaces[P("c3")].allies == [r("a#2")] and st.defence(P("c3")) == 7
    stay = [e for e in t.told if e.kind == "allies stay"]
    assert [(e.rule, e.cards) for e in stay] == [("G-23", (r("a#1"), r("a#2")))]


def test_g23_a_card_leaving_its_allies_attacks_without_them(rig, play):
    """The Ally text: they "add their strength together when defending", so an attack leaves them behind."""
    t = rig({0: "Spearman, Squire", 1: "Guard, Militia"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 c4")
    play(t, 0, "ally a#1 c3")
    play(t, 1, "play b#1 e3 hidden")
    play(t, 0, "move c3 c4")  # the Spearman alone, 5 against the Guard's 5: the attack takes the space
    st = t.state
    assert st.spaces[P("c4")].holder == [r("a#0")] and st.discards[1] == [r("b#0")]
    assert st.spaces[P("c3")].holder == [r("a#1")] and st.spaces[P("c3")].owner == 0


def test_g23_a_move_names_its_card_so_an_ally_steps_off_a_rooted_wall(rig, play):
    """The source: "You may move any of your cards that is not in a battle"; Rooted says only that the Wall never
    moves. Rules version 6: a move may name the card (move a#2 c2), so an Ally steps off any card, the Rooted Wall
    under it included; the Wall and the other Allies stay (G-23, G-25); stepping into an enemy space attacks."""
    t = rig({0: "Wall, Militia, Militia", 1: "Recruit, Spearman, Knight, Archer"}, deck0="bastion", deck1="vanguard")
    two_allies_on_c3(t, play)
    st = t.state
    legal = {str(a) for a in st.legal_actions(0, t.known(0))}
    assert {"move a#1 c2", "move a#2 c2", "move a#2 c4", "move a#2 d3"} <= legal and "move a#2 b3" not in legal  # G-5
    assert not {a for a in legal if a.startswith("move c3")}  # the Wall itself never moves
    refused("G-25", play, t, 0, "move c3 c2")
    refused("G-25", play, t, 0, "move a#0 c2")  # naming the Wall is moving the Wall
    play(t, 0, "move a#2 c2")
    assert st.spaces[P("c2")].holder == [r("a#2")] and st.spaces[P("c2")].owner == 0
    assert st.spaces[P("c3")].holder == [r("a#0")] and st.spaces[P("c3")].allies == [r("a#1")]
    assert st.defence(P("c3")) == 4 + 2 + 3 and st.deciders() == (1,)  # face up: the turn ended (G-7)
    play(t, 1, "play b#3 d3")  # the Archer, strength 2, face up next to c3
    play(t, 0, "move a#1 d3")  # the other Militia steps off the Wall into the enemy space: 3 against 2
    assert st.spaces[P("d3")].holder == [r("a#1")] and st.spaces[P("d3")].owner == 0
    assert st.spaces[P("c3")].holder == [r("a#0")] and not st.spaces[P("c3")].allies


def test_g23_an_ally_in_a_battle_or_a_game_begun_under_version_5_stays(rig, play):
    """An Ally in a battle its space defends does not move (G-12); in a game begun under rules version 5 a move
    names the space it leaves, and an Ally on a card never moves by itself (the old ruling goes on)."""
    t = rig({0: "Wall, Militia", 1: "Recruit, Spearman"}, deck0="bastion", deck1="vanguard")
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 c3")  # Recruit 3 against the Wall's 6: a battle
    play(t, 0, "ally a#1 c3")
    play(t, 1, "play b#1 e3 hidden")
    msg = refused("G-12", play, t, 0, "move a#1 c2")
    assert "in a battle" in msg
    t = rig({0: "Wall, Militia", 1: "Recruit, Spearman"}, deck0="bastion", deck1="vanguard", rules_version=5)
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 e3 hidden")
    play(t, 0, "ally a#1 c3")
    play(t, 1, "play b#1 e2 hidden")
    assert not any(str(a).startswith("move a#") for a in t.state.legal_actions(0, t.known(0)))
    msg = refused("G-23", play, t, 0, "move a#1 c2")
    assert "rules version 5" in msg and t.state.spaces[P("c3")].allies == [r("a#1")]


def test_g23_a_game_begun_under_rules_version_4_keeps_the_card_pinned(rig, play):
    """Version 4 (the old ruling): a card with Allies on it stays where it is; the game goes on under it."""
    t = rig({0: "Spearman, Squire", 1: "Militia, Guard"}, rules_version=4)
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 e3 hidden")
    play(t, 0, "ally a#1 c3")
    play(t, 1, "play b#1 e2 hidden")
    assert not any(str(a).startswith("move c3") for a in t.state.legal_actions(0, t.known(0)))
    msg = refused("G-23", play, t, 0, "move c3 c4")
    assert "stays where it is" in msg


def test_g23_an_ally_may_join_a_battle_you_defend_face_up(rig, play):
    t = rig({0: "Spearman, Squire", 1: "Militia, Guard"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 c3")
    play(t, 0, "ally a#1 c3")
    st = t.state
    assert st.defence(P("c3")) == 8 and st.deciders() == (1,)
    play(t, 1, "play b#1 c3")  # 3 + 5 = 8 against 8: taken, Ally and all
    assert st.spaces[P("c3")].holder == [r("b#1")] and set(st.discards[0]) == {r("a#0"), r("a#1")}


def test_g23_a_false_ally_is_caught_at_once(rig, play):
    t = rig({0: "Spearman, Recruit"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 e3 hidden")
    assert not any(str(a).startswith("ally a#1") for a in t.state.legal_actions(0, t.known(0)))
    play(t, 0, "ally a#1 c3")
    assert [(v.seat, v.rule) for v in t.violations] == [(0, "G-23")]
    assert t.state.outcome().winners == (1,) and t.state.outcome().cheaters == (0,)


def test_g24_merged_cards_act_as_one_and_move_whole(rig, play):
    t = rig({0: "Spearman", 1: "Drone, Worker, Soldier"}, deck1="hive")
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 c5 hidden")
    play(t, 0, "play a#1 b3 hidden")
    play(t, 1, "merge b#1 c5")
    st = t.state
    assert st.spaces[P("c5")].holder == [r("b#0"), r("b#1")] and r("b#0") not in st.public_faces()
    play(t, 0, "play a#2 d3 hidden")
    play(t, 1, "move c5 c4")
    assert st.spaces[P("c4")].holder == [r("b#0"), r("b#1")]
    play(t, 0, "play a#3 b4 hidden")
    play(t, 1, "move c4 c3")  # Drone 3 + Worker 4 = 7 against the Spearman's 5
    assert st.spaces[P("c3")].holder == [r("b#0"), r("b#1")] and st.discards[0] == [r("a#0")]


def test_g24_a_merged_unit_is_discarded_whole(rig, play):
    t = rig({0: "Knight", 1: "Drone, Drone"}, deck1="hive")
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4")
    play(t, 0, "play a#1 b3 hidden")
    play(t, 1, "merge b#1 c4")
    play(t, 0, "move c3 c4")  # the Knight 8 against 6
    assert t.state.discards[1] == [r("b#0"), r("b#1")]


def test_g25_rooted_never_moves(rig, play):
    t = rig({1: "Wall, Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c5")
    play(t, 0, "play a#1 b3 hidden")
    refused("G-25", play, t, 1, "move c5 c4")


def test_g25_a_face_down_rooted_card_that_moves_is_a_cheat(rig, play):
    t = rig({0: "Knight", 1: "Wall, Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c5 hidden")
    play(t, 0, "play a#1 b3 hidden")
    assert not any(str(a).startswith("move c5") for a in t.state.legal_actions(1, t.known(1)))
    play(t, 1, "move c5 c4", "pass")  # accepted: nobody else can see the Wall
    st = t.state
    assert not t.violations and [(v.seat, v.rule) for v in st.audit(t.truth)] == [(1, "G-25")]
    play(t, 0, "move c3 c4")  # the Knight attacks: the Wall turns up and the lie with it
    assert [(v.seat, v.rule) for v in t.violations] == [(1, "G-25")]
    assert "b#0" in t.violations[0].message and "Rooted" in t.violations[0].message
    assert st.is_terminal() and st.outcome().winners == (0,) and st.outcome().cheaters == (1,)


def test_g25_swift_moves_two_face_up_over_an_empty_space(rig, play):
    t = rig({0: "Outrider, Outrider"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 b3 hidden")
    play(t, 0, "move c3 c5")  # over the empty c4
    assert t.state.spaces[P("c5")].holder == [r("a#0")]
    play(t, 1, "play b#1 c4 hidden")
    refused("G-25", play, t, 0, "move c5 c3")  # c4 is taken
    play(t, 0, "play a#1 d5 hidden")
    play(t, 1, "play b#2 b4 hidden")
    refused("G-25", play, t, 0, "move d5 d3")  # face down: no ability


def test_g25_scout_turns_up_enemy_cards_next_to_it(rig, play):
    t = rig({0: "Scout, Skirmisher", 1: "Guard, Militia, Pit"}, deck0="tempest")
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "play a#1 d4 hidden")
    play(t, 1, "play b#1 b2 hidden")
    play(t, 0, "reveal a#0")
    st = t.state
    assert st.visibility()[r("b#0")] == PUBLIC and st.visibility()[r("b#1")] == 1  # b2 is diagonal
    assert st.deciders() == (0,)  # a Scout's reveals hold nothing up


def test_g25_snare_discards_the_attack_that_turns_it_up(rig, play):
    t = rig({0: "Knight", 1: "Pit"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "move c3 c4")
    st = t.state
    assert st.spaces[P("c4")].owner == 1 and st.spaces[P("c4")].attack == [] and st.discards[0] == [r("a#0")]
    assert any("Snare" in n for n in st.news)


def test_g25_siege_adds_two_when_attacking(rig, play):
    t = rig({0: "Spearman, Ram", 1: "Captain, Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4")
    play(t, 0, "play a#1 c4")  # Ram 4 + 2 = 6 against 7
    assert t.state.attack(P("c4")) == 6 and t.state.spaces[P("c4")].owner == 1


# -- G-26 .. G-30: the end --------------------------------------------------------------------------

def _to_the_end(t, play):
    t.state.piles[0].clear()
    t.state.piles[1].clear()


def test_g26_more_spaces_win(rig, play):
    t = rig({0: "Spearman, Recruit", 1: "Guard"})
    _to_the_end(t, play)
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "play a#1 c2 hidden")
    play(t, 1, "end")
    st = t.state
    assert st.outcome().winners == (0,) and "2 spaces to 1" in st.outcome().reason
    assert all(x in st.public_faces() for x in map(r, ["a#0", "a#1", "b#0"]))


def test_g26_equal_spaces_go_to_the_stronger_holders_then_a_draw(rig, play):
    t = rig({0: "Spearman", 1: "Guard"})
    _to_the_end(t, play)
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    st = t.state
    st.apply(0, t.game.parse_action("end"))
    assert st.phase == SCORE and st.deciders() == ()
    t.settle()
    assert st.outcome().winners == () and "equal strength (5)" in st.outcome().reason
    t = rig({0: "Knight", 1: "Guard"})
    _to_the_end(t, play)
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "end")
    assert t.state.outcome().winners == (0,) and "(8 to 5)" in t.state.outcome().reason


def test_g27_by_default_only_a_position_come_back_three_times_ends_the_game(rig, play):
    """G-27 by default: no turn limit; a position reached a third time by turns without a hand card played ends
    the game at that third sighting; the position left by the turn that played a hand card is not counted."""
    t = rig()
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c5 hidden")  # the position now (seat 0 to move) is left by a turn that played a card
    cycle = ["move c3 b3", "move c5 b5", "move b3 c3", "move b5 c5"]
    for i in range(8):  # two cycles: ten turns would have ended it with shortcuts
        play(t, i % 2, cycle[i % 4], "pass")  # face-down cards moved: each turn ends with a pass (G-7)
    # the start position is on the table a third time, but its first sighting came from a played card: two counted
    assert t.state.idle == 8 and not t.state.is_terminal()
    play(t, 0, "move c3 b3", "pass")  # the position after the first move of the cycle, its third sighting
    assert t.state.is_terminal() and "a 3rd time" in t.state.outcome().reason


def test_g27_with_mail_shortcuts_ten_turns_without_a_card_played_end_the_game(rig, play):
    t = rig(options={"mail-shortcuts": True})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c5 hidden")
    for i in range(STALL - 1):
        seat = i % 2
        play(t, seat, ("move c3 b3" if i % 4 == 0 else "move b3 c3") if seat == 0 else
             ("move c5 b5" if i % 4 == 1 else "move b5 c5"))
    assert t.state.idle == STALL - 1 and not t.state.is_terminal()
    play(t, 1, "move c5 b5" if (STALL - 1) % 4 == 1 else "move b5 c5")
    assert t.state.is_terminal() and "10 turns in a row" in t.state.outcome().reason


def test_g28_every_claim_is_checked_again_by_the_audit(rig, play):
    t = rig({0: "Spearman, Recruit"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 e3 hidden")
    st = t.state
    st.apply(0, t.game.parse_action("merge a#1 c3"))  # claims a Merge card; not revealed yet
    lies = st.audit(t.truth)
    assert [(v.seat, v.rule) for v in lies] == [(0, "G-24")] and "merge a#1 c3" in lies[0].message


def test_g29_each_seat_sees_only_its_own_hidden_cards(rig, play):
    t = rig({0: "Knight", 1: "Guard"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4")
    assert all(x.deck == "a" for x in t.seen[0]) and all(x.deck == "b" for x in t.seen[1])
    assert r("a#0") not in t.known(1) and r("b#0") in t.known(0)
    mine, theirs = t.state.render(0, t.known(0)), t.state.render(1, t.known(1))
    assert "a#0 Knight 8 [face down]" in mine and "a#0 [face down]" in theirs
    assert "Knight" not in theirs and "b#0 Guard 5" in mine


def test_g30_no_action_after_the_end(rig, play):
    t = rig()
    _to_the_end(t, play)
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "end")
    refused("G-30", play, t, 1, "play b#1 c5 hidden")
    assert t.state.deciders() == () and t.state.legal_actions(1, t.known(1)) == []
