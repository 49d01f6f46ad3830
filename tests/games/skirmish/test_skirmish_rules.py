"""Skirmish rules, one test or more per rule of seeds/skirmish.md, through the plain simulator."""

from __future__ import annotations

import pytest
from skirmish_helpers import GAME, label, play, quiet, start

from duelmail.errors import IllegalMove
from duelmail.games.base import Sealed
from duelmail.games.simulate import Table
from duelmail.games.skirmish.geometry import dist2, pt
from duelmail.games.skirmish.notation import Build, Move

NEAR = [(10, 12), (12, 12)]  # engaged: bases 1 inch apart
STRONG = (4, 3, 5, 1)


def fight_ready(*builds, at=NEAR, **kw) -> Table:
    """Both (all) characters engaged; the Reveal phase answered with nothing, everyone stays (K-14); the fight's
    step 1 awaited."""
    t = start(*builds, at=at, **kw)
    quiet(t, kinds=("move",), phases=("reveal phase",))
    return t


def test_a_character_is_four_sealed_choices_one_per_stat_then_the_start_reveal_K2_K3(game):
    t = Table.deal(game, 2, {}, 0)
    assert t.state.deciders() == (0, 1) and t.state.wait == ("build",)
    with pytest.raises(IllegalMove) as e:
        t.state.apply(0, Build("str", 3))  # in the clear
    assert e.value.rule == "K-2"
    t.play(0, Build("str", 3))
    with pytest.raises(IllegalMove) as e:
        t.state.apply(0, Sealed("str"))
    assert e.value.rule == "K-2" and "next: spd" in str(e.value)
    for st, k in (("spd", 3), ("end", 5), ("dex", 2)):
        t.play(0, Build(st, k))
    assert t.state.deciders() == (0, 1)
    play(t, 0, "dual d0: str1 spd1 end1 dex1")
    assert t.state.deciders() == (1,)


def test_the_start_reveals_one_card_of_each_stat_and_shows_single_cards_exhausted_K3_K6():
    t = Table.deal(GAME, 2, {}, 0)
    for s in (0, 1):
        for st, k in (("str", 4), ("spd", 3), ("end", 5), ("dex", 1)):
            t.play(s, Build(st, k))
    play(t, 0, "dual d0: str1 spd1 end1 dex1!")
    with pytest.raises(IllegalMove) as e:
        play(t, 1, "dual d0: str2 spd1 end1 dex1!")  # the last to commit: both open at once
    assert e.value.rule == "K-3"
    t = Table.deal(GAME, 2, {}, 0)
    for s in (0, 1):
        for st, k in (("str", 4), ("spd", 3), ("end", 5), ("dex", 1)):
            t.play(s, Build(st, k))
        play(t, s, "dual d0: str1 spd1 end1 dex1!")
    assert t.state.totals == [{"dex": 1}, {"dex": 1}]  # opened at once: the commitments matched
    assert t.state.rev[0] == {"str": 1, "spd": 1, "end": 1, "dex": 1} and t.state.turn == 1


def test_the_author_checks_its_own_secret_before_sealing_it_K2_K3_K5_K6():
    t = start((3, 2, 5, 2), (3, 2, 5, 2))
    own = {"str": Build("str", 3), "spd": Build("spd", 2), "end": Build("end", 5), "dex": Build("dex", 2)}
    w = t.state.wait
    for text, rule in ((f"dual {w[3]}: str3", "K-5"), (f"dual {w[3]}: str2", "K-6"), (f"dual {w[3]}: str1!", "K-6"),
                       ("dual d0: str1 spd1", "K-3"), ("build dex 11", "K-2")):
        with pytest.raises(IllegalMove) as e:
            t.state.check_sealed(0, GAME.parse_action(text), own)
        assert e.value.rule == rule, text
    t.state.check_sealed(0, GAME.parse_action(f"dual {w[3]}: str2!"), own)
    with pytest.raises(IllegalMove) as e:
        t.state.check_sealed(0, Build("dex", 5), {**own, "dex": Build("dex", 5)})
    assert e.value.rule == "K-2" and "15 cards" in str(e.value)


def test_a_false_exhaustion_claim_is_refused_at_its_opening_K6():
    t = start((3, 2, 5, 2), (3, 2, 5, 2))
    w = t.state.wait
    assert w[0] == "dual"
    with pytest.raises(IllegalMove) as e:
        play(t, 0, f"dual {w[3]}: str1!")  # 2 of 3 revealed, claimed exhausted
        play(t, 1, f"dual {w[3]}: -")
    assert e.value.rule == "K-6" and "committed to 3" in str(e.value)


def test_public_bounds_on_reveals_K5_and_no_reveal_of_an_exhausted_stat_K6():
    t = start((3, 1, 5, 3), (3, 2, 5, 3))
    w = t.state.wait  # seat 0 has speed 1 (exhausted), seat 1 speed 1: a dual reveal
    assert w[0] == "dual" and w[1] == (0, 1)
    with pytest.raises(IllegalMove) as e:
        t.state.apply_open(0, w[3], GAME.parse_action(f"dual {w[3]}: str10"))
    assert e.value.rule == "K-5"
    with pytest.raises(IllegalMove) as e:
        t.state.apply_open(0, w[3], GAME.parse_action(f"dual {w[3]}: spd1"))
    assert e.value.rule == "K-6" and "exhausted" in str(e.value)


def test_equal_speeds_reveal_by_dual_reveal_lowest_speed_first_K9_K10():
    t = start((3, 3, 5, 2), (3, 3, 5, 2))
    w = t.state.wait
    assert w[0] == "dual" and w[1] == (0, 1) and w[3] == "d1"
    t.state.apply(1, Sealed("d1"))
    assert t.state.deciders() == (0,) and t.state.openings() == {}
    t.state.apply(0, Sealed("d1"))
    assert t.state.deciders() == () and t.state.openings() == {0: ("d1",), 1: ("d1",)}
    t.state.apply_open(0, "d1", GAME.parse_action("dual d1: spd1"))
    t.state.apply_open(1, "d1", GAME.parse_action("dual d1: -"))
    assert t.state.rev[0]["spd"] == 2 and t.state.wait[0] == "move"
    quiet(t, ("move",), phases=())  # both stay
    assert t.state.turn == 2 and t.state.wait[:2] == ("reveal", 1)  # seat 1, speed 1, reveals first
    play(t, 1, "reveal -")
    assert t.state.wait[:2] == ("reveal", 0)


def test_running_farther_than_speed_or_over_uneven_ground_is_refused_K11():
    t = start((3, 2, 5, 3), (3, 2, 5, 3), battlefield="ruined-keep", at=[(15.5, 18), (40, 30)])
    quiet(t)
    assert t.state.wait == ("move", 1)  # equal speeds: seat 1 first in turn 1
    play(t, 1, "stay")
    with pytest.raises(IllegalMove) as e:
        play(t, 0, "run 13,18")
    assert e.value.rule == "K-11" and "run 13,18" in str(e.value) and "farther" in str(e.value)
    with pytest.raises(IllegalMove) as e:
        play(t, 0, "run 16.5,18")
    assert e.value.rule == "K-11" and "wall-west" in str(e.value)
    play(t, 0, "run 15.5,17")
    assert t.state.pos[0] == pt("15.5", 17)


def test_climbing_starts_and_ends_touching_one_uneven_piece_K12_K13():
    t = start((3, 2, 5, 3), (3, 2, 5, 3), battlefield="ruined-keep", at=[(15.5, 18), (40, 30)])
    w = t.state.wait
    play(t, 0, f"dual {w[3]}: dex2")
    play(t, 1, f"dual {w[3]}: -")
    play(t, 1, "stay")
    with pytest.raises(IllegalMove) as e:
        play(t, 0, "climb 18.1,18")  # beyond the far edge: the base no longer touches the wall
    assert e.value.rule == "K-12"
    play(t, 0, "climb 17.5,18")  # the back of the base touches the far edge
    assert t.state.pos[0] == pt("17.5", 18) and t.state.wait[0] != "move"  # one move a turn (K-13)


def test_blocking_terrain_cannot_be_crossed_K31_and_the_table_edge_K30():
    t = start((3, 3, 5, 3), (3, 2, 5, 3), battlefield="ruined-keep", at=[(24, 9.5), (40, 30)])
    quiet(t)
    play(t, 1, "stay")
    with pytest.raises(IllegalMove) as e:
        play(t, 0, "run 24,10.5")  # into the closed gate
    assert e.value.rule == "K-31" and "'gate'" in str(e.value)
    t2 = start((3, 3, 5, 3), (3, 2, 5, 3), at=[(0.5, 12), (30, 12)])
    quiet(t2)
    play(t2, 1, "stay")
    with pytest.raises(IllegalMove) as e:
        play(t2, 0, "run -0.5,12")
    assert e.value.rule == "K-30"


def test_engaged_characters_move_only_within_their_melee_K14():
    """The source: "Once engaged, characters may not voluntarily leave the melee unless they have used an action to
    allow them to do so"; the Motion phase lets every character move, so an engaged one is asked too (rules
    version 2) and may move as long as it stays in the melee (in a fight of two: engaged with its foe)."""
    t = start(STRONG, STRONG, at=NEAR)
    w = t.state.wait
    assert w[0] == "dual" and w[4] == "reveal phase"
    play(t, 0, f"dual {w[3]}: -")
    play(t, 1, f"dual {w[3]}: spd1")  # speed 2
    assert t.state.wait == ("move", 1)  # the higher speed moves first (K-11)
    with pytest.raises(IllegalMove) as e:
        play(t, 1, "run 14,12")  # 4 inches from seat 0's centre: out of the melee
    assert e.value.rule == "K-14" and "may not leave the melee" in str(e.value)
    moves = [m for m in t.state.legal_actions(1, t.known(1)) if isinstance(m, Move)]
    assert moves and all(dist2(m.to, pt(10, 12)) <= 9 for m in moves)  # centres within 3 inches (K-15)
    play(t, 1, "run 12,14")  # still within 2 inches of seat 0's base, edge to edge
    assert t.state.wait == ("move", 0)
    play(t, 0, "stay")
    assert t.state.fights() == [(0, 1)] and t.state.wait == ("reveal", 1, ("spd",), "fight step 1")  # 1 moved last


CHAIN = [(10, 12), (12.5, 12), (15, 12)]  # one fight of three: seat 1 engaged with seats 0 and 2, they not together


def chain_to_motion(rules_version=None) -> Table:
    """Three characters in one fight (K-15); seat 1 reveals a second Speed card and moves first (K-11)."""
    t = start(STRONG, STRONG, STRONG, at=CHAIN, rules_version=rules_version)
    w = t.state.wait
    assert t.state.fights() == [(0, 1, 2)] and w[0] == "dual" and w[4] == "reveal phase"
    play(t, 0, f"dual {w[3]}: -")
    play(t, 1, f"dual {w[3]}: spd1")  # speed 2
    play(t, 2, f"dual {w[3]}: -")
    assert t.state.wait == ("move", 1)
    return t


def test_the_melee_an_engaged_character_may_not_leave_is_its_whole_fight_K14():
    """K-14, rules version 3: "may not voluntarily leave the melee" reads the melee as the whole fight (K-15): in a
    fight of three, a fighter may step away from one foe while it stays engaged with another, never out of the
    fight."""
    t = chain_to_motion()
    with pytest.raises(IllegalMove) as e:
        play(t, 1, "run 12.5,14")  # 3.2 inches from both centres: out of the fight
    assert e.value.rule == "K-14" and "may not leave the melee with seat 0 and seat 2" in str(e.value)
    moves = [m for m in t.state.legal_actions(1, t.known(1)) if isinstance(m, Move)]
    assert any(dist2(m.to, pt(10, 12)) > 9 for m in moves)  # some legal move leaves seat 0 ...
    assert all(min(dist2(m.to, pt(10, 12)), dist2(m.to, pt(15, 12))) <= 9 for m in moves)  # ... none both
    play(t, 1, "run 13.5,12")  # leaves seat 0 (3.5 inches), stays with seat 2 (1.5)
    assert t.state.pos[1] == pt(13.5, 12)
    quiet(t, kinds=("move",), phases=())  # seats 2 and 0 stay
    assert t.state.fights() == [(1, 2)]  # seat 0 is in no fight now: left, not leaving


def test_a_game_begun_under_rules_version_2_keeps_every_foe_K14():
    """Version 2 (the old ruling, read pairwise): the same step away from seat 0 is refused; the game goes on
    under it."""
    t = chain_to_motion(rules_version=2)
    with pytest.raises(IllegalMove) as e:
        play(t, 1, "run 13.5,12")
    assert e.value.rule == "K-14" and "engaged with seat 0" in str(e.value)
    play(t, 1, "run 12.5,13")  # within reach of both
    assert t.state.pos[1] == pt(12.5, 13)


def test_a_game_begun_under_rules_version_1_never_asks_an_engaged_character_to_move_K14():
    """Version 1 (the old ruling): an engaged character holds its ground; the game goes on under it."""
    t = start(STRONG, STRONG, at=NEAR, rules_version=1)
    quiet(t, phases=("reveal phase",))
    assert t.state.wait == ("reveal", 0, ("spd",), "fight step 1")


def test_engaged_characters_stay_and_fight_K14_K15_K16():
    t = fight_ready(STRONG, STRONG)
    assert t.state.fights() == [(0, 1)]
    assert t.state.wait == ("reveal", 0, ("spd",), "fight step 1")  # nobody moved: highest speed, lowest seat
    play(t, 0, "reveal -")
    assert t.state.wait == ("reveal", 1, ("spd",), "fight step 2")


def resolve_example(t: Table) -> None:
    play(t, 0, "reveal spd2")  # step 1: speed 3
    play(t, 1, "reveal spd2")  # step 2: speed 3, revealed later
    p = label(t)
    play(t, 0, f"plan {p}: 1 2 3")
    play(t, 1, f"plan {p}: 3 5 3")
    quiet(t, phases=("fight step 5",))  # a dual reveal of nothing; step 6 below
    w = t.state.wait
    assert w[0] == "dual" and w[2] == ("dex",)
    play(t, 0, f"dual {w[3]}: dex1")
    play(t, 1, f"dual {w[3]}: -")


def test_the_sources_worked_example_of_cancel_and_order_K17_K19_K20():
    """Seat 0 plans 1 2 3, seat 1 plans 3 5 3; seat 0 has the highest dexterity and cancels seat 1's first
    action; seat 1 revealed speed last so goes first: 5, 1, 3, 2, 3."""
    t = fight_ready((3, 3, 6, 3), (3, 3, 6, 3))
    resolve_example(t)
    assert t.state.wait == ("cancel", 0)
    play(t, 0, "cancel 1:1")
    acts = []
    while t.state.wait and t.state.fight:
        w = t.state.wait
        play(t, w[1], "reveal -" if w[0] == "reveal" else f"reveal end{w[2]}")
    for line in t.state.lines:
        if line.startswith(("seat 0: ", "seat 1: ")) and "reveal" not in line:
            acts.append(line)
    assert acts == ["seat 1: evade", "seat 0: swing high at seat 1", "seat 1: block", "seat 0: swing low at seat 1",
                    "seat 0: block"]


def test_a_plan_must_have_one_action_per_point_of_speed_K17():
    t = fight_ready(STRONG, STRONG)
    quiet(t)
    p = label(t)
    with pytest.raises(IllegalMove) as e:
        play(t, 0, f"plan {p}: 1 1")
        play(t, 1, f"plan {p}: 1")
    assert e.value.rule == "K-17" and "speed 1" in str(e.value)


def test_three_fight_and_every_attack_names_a_target_K15_K17_K26():
    t = fight_ready(STRONG, STRONG, STRONG, at=[(10, 12), (12, 12), (11, 14)])
    assert t.state.fights() == [(0, 1, 2)]
    quiet(t)
    p = label(t)
    assert t.state.deciders() == (0, 1, 2)
    with pytest.raises(IllegalMove) as e:
        play(t, 0, f"plan {p}: 1")
        play(t, 1, f"plan {p}: 1>0")
        play(t, 2, f"plan {p}: 6")
    assert e.value.rule == "K-17" and "names an opponent" in str(e.value)


def test_block_reduces_a_swing_high_by_the_blockers_strength_K21_K23():
    t = fight_ready((5, 3, 5, 2), (3, 3, 6, 2))
    play(t, 0, "reveal spd1")  # speed 2
    play(t, 1, "reveal spd1")  # speed 2, later: seat 1 acts first
    p = label(t)
    play(t, 0, f"plan {p}: 1 1")
    play(t, 1, f"plan {p}: 3 3")
    quiet(t)  # steps 5 and 6; equal dexterity: nobody cancels (K-19)
    assert t.state.wait == ("reveal", 0, ("str",), "swing high (K-21, K-22)")
    play(t, 0, "reveal str4")  # strength 5
    assert t.state.wait == ("reveal", 1, ("str",), "block (K-23)")
    play(t, 1, "reveal str1")  # strength 2
    assert t.state.wait[:3] == ("endure", 1, 3)
    with pytest.raises(IllegalMove) as e:
        play(t, 1, "reveal end2")
    assert e.value.rule == "K-21"


def test_evade_reduces_a_swing_low_by_dexterity_K22_K23():
    t = fight_ready((5, 3, 5, 2), (3, 3, 6, 4))
    play(t, 0, "reveal spd1")
    play(t, 1, "reveal spd1")
    p = label(t)
    play(t, 0, f"plan {p}: 2 2")
    play(t, 1, f"plan {p}: 5 5")
    quiet(t)
    play(t, 0, "reveal str2")  # strength 3
    assert t.state.wait == ("reveal", 1, ("dex",), "evade (K-23)")
    play(t, 1, "reveal dex2")  # dexterity 3: no damage at all
    assert t.state.wait == ("reveal", 0, ("str",), "swing low (K-21, K-22)")  # seat 0's second swing


def test_grapple_is_the_difference_of_strengths_K24():
    t = fight_ready((5, 2, 5, 2), (3, 2, 6, 2))
    quiet(t)
    p = label(t)
    play(t, 0, f"plan {p}: 4")
    play(t, 1, f"plan {p}: 3")
    quiet(t)
    assert t.state.wait == ("reveal", 0, ("str",), "grapple (K-24)")
    play(t, 0, "reveal str3")  # 4
    assert t.state.wait == ("reveal", 1, ("str",), "grappled (K-24)")
    play(t, 1, "reveal str1")  # 2
    assert t.state.wait[:3] == ("endure", 1, 2)


def test_retreat_moves_away_and_leaves_the_attacks_on_it_targetless_K25_K26():
    t = fight_ready((3, 3, 5, 2), (3, 3, 6, 2))
    play(t, 0, "reveal -")
    play(t, 1, "reveal spd1")  # speed 2: acts first
    p = label(t)
    play(t, 0, f"plan {p}: 1")
    play(t, 1, f"plan {p}: 6 1")
    quiet(t)
    assert t.state.pos[1] == pt("14.5", 12)
    assert "seat 0's swing high has no target: wasted (K-26)" in t.state.lines
    assert t.state.turn == 2 and t.state.alive == [True, True]


def test_an_exhausted_endurance_removes_the_character_and_the_last_standing_wins_K7_K34():
    t = fight_ready((5, 2, 5, 1), (3, 2, 3, 2))
    quiet(t)
    p = label(t)
    play(t, 0, f"plan {p}: 1")
    play(t, 1, f"plan {p}: 2")
    quiet(t)
    play(t, 0, "reveal str4")  # strength 5; seat 1 has 2 Endurance left
    with pytest.raises(IllegalMove) as e:
        play(t, 1, "reveal end4")  # neither the 5 asked nor a claim of exhaustion
    assert e.value.rule == "K-21" and "must reveal 5 Endurance" in str(e.value)
    play(t, 1, "reveal end2!")
    assert not t.state.alive[1] and t.state.is_terminal() and t.state.outcome().winners == (0,)
    assert t.state.totals[1]["end"] == 3


def test_smashing_a_destructible_gate_K27():
    t = start((3, 3, 5, 2), (3, 3, 5, 2), battlefield="ruined-keep", at=[(24, 9.5), (44, 30)])
    w = t.state.wait
    play(t, 0, f"dual {w[3]}: str2")  # strength 3 = the gate's weight
    play(t, 1, f"dual {w[3]}: -")
    quiet(t, ("move",), phases=())
    assert t.state.wait == ("interact", 0)
    assert [str(a) for a in t.state.legal_actions(0, t.known(0))] == ["pass", "smash gate"]
    play(t, 0, "smash gate")
    assert "gate" in t.state.gone
    quiet(t)
    assert t.state.turn == 2 and t.state.wait == ("move", 0)
    play(t, 0, "run 24,10.5")  # into where the gate stood
    assert t.state.pos[0] == pt(24, "10.5")


@pytest.mark.parametrize(("end", "landed"), [(3, True), (10, False)])
def test_a_thrown_boulder_costs_endurance_and_lands_where_its_victim_stood_K28_K29(end, landed):
    t = start((5, 3, 2, 3), (3, 3, end, 1), battlefield="cliff-top", at=[(24, 21.5), (24, 25)])
    w = t.state.wait
    play(t, 0, f"dual {w[3]}: str4")  # strength 5: range 5 - 2 = 3 inches, edge to edge
    play(t, 1, f"dual {w[3]}: -")
    quiet(t, ("move",), phases=())
    assert t.state.wait == ("interact", 0)
    play(t, 0, "throw boulder at 1")
    assert t.state.wait[:3] == ("endure", 1, 6)  # 5 + 2 - 1
    if landed:
        play(t, 1, "reveal end2!")
        assert t.state.placed["boulder"] == pt(24, 25) and t.state.is_terminal()
    else:
        play(t, 1, "reveal end6")
        assert "boulder" in t.state.gone and t.state.alive[1]


def test_a_throw_out_of_range_is_not_offered_and_refused_K28():
    t = start((5, 3, 2, 3), (3, 3, 5, 1), battlefield="cliff-top", at=[(24, 21.5), (24, 27)])
    w = t.state.wait
    play(t, 0, f"dual {w[3]}: str3")  # strength 4: range 2, the target is 4.5 away edge to edge
    play(t, 1, f"dual {w[3]}: -")
    quiet(t, ("move",), phases=())
    assert t.state.turn == 2 and t.state.wait[0] == "dual"  # never asked


def test_the_turn_limit_ends_in_a_draw_K34():
    t = start((3, 3, 5, 2), (3, 3, 5, 2), turns=1)
    quiet(t, ("move",))
    assert t.state.is_terminal() and t.state.outcome().winners == ()


def test_the_audit_finds_a_14_card_character_an_overdrawn_stat_and_a_hidden_exhaustion_K35():
    t = start((2, 3, 5, 2), (9, 2, 2, 1))  # seat 1: 14 cards
    found = t.state.audit_sealed(t.sealed)
    assert [(v.seat, v.rule) for v in found] == [(1, "K-2")] and "14 cards" in found[0].message
    t = start((2, 3, 5, 2), (2, 3, 5, 2))
    w = t.state.wait
    play(t, 0, f"dual {w[3]}: str1")  # reaches 2 of 2 without '!'
    play(t, 1, f"dual {w[3]}: str3")  # 4 of 2
    found = t.state.audit_sealed(t.sealed)
    assert [(v.seat, v.rule) for v in found] == [(0, "K-6"), (1, "K-5")]
    assert "revealed 4 Strength cards but committed to 2" in found[1].message


def test_a_timeout_plays_nothing_for_a_public_choice_and_forfeits_a_secret_one_K36():
    t = start((3, 3, 5, 2), (3, 2, 5, 2))
    assert t.state.wait[0] == "dual" and t.state.default_action(0) is None  # a sealed choice cannot be made for it
    quiet(t)
    assert t.state.wait[0] == "move" and str(t.state.default_action(t.state.wait[1])) == "stay"


def test_equal_speeds_move_in_seat_order_starting_one_seat_later_each_turn_K11():
    t = start((3, 3, 5, 2), (3, 3, 5, 2), (3, 3, 5, 2), at=[(4, 3), (32, 3), (18, 21)])
    firsts = []
    for _ in range(3):
        quiet(t)
        firsts.append(t.state.wait[1])
        while t.state.wait[0] == "move":
            play(t, t.state.wait[1], "stay")
    assert firsts == [1, 2, 0] and t.state.turn == 4
