"""Every outcome the DUEL skirmish rules compute is told as an event, in words (seeds/skirmish.md rule ids)."""

from __future__ import annotations

import re

from skirmish_helpers import GAME, label, play, quiet, start

from duelmail.games.base import in_words
from duelmail.games.skirmish.geometry import pt

NEAR = [(10, 12), (12, 12)]


def said(t, kind):
    e = [e for e in t.told if e.kind == kind][-1]
    return e, in_words(e.text, {}, ["alice", "bob"])


def test_hits_tell_strength_the_defence_and_the_damage_K15_K21_K23_K7():
    t = start((5, 3, 5, 2), (3, 3, 6, 2), at=NEAR)
    quiet(t, kinds=("move",), phases=("reveal phase",))  # engaged: both stay (K-14)
    e, words = said(t, "fight")
    assert e.rule == "K-15" and set(e.seats) == {0, 1} and words.startswith("fight: alice, bob;")
    play(t, 0, "reveal spd1")
    play(t, 1, "reveal spd1")
    p = label(t)
    play(t, 0, f"plan {p}: 1 1")
    play(t, 1, f"plan {p}: 3 3")
    quiet(t)
    play(t, 0, "reveal str4")  # strength 5
    play(t, 1, "reveal str1")  # strength 2, blocking
    e, words = said(t, "hit")
    assert e.rule == "K-21" and e.numbers == (5, 3) and e.seats == (0, 1)
    assert words == "alice's swing high hits bob: Strength 5 - Strength 2 (block) = 3 Endurance to lose"


def test_a_removal_is_told_K7():
    t = start((5, 2, 5, 1), (3, 2, 3, 2), at=NEAR)
    quiet(t, kinds=("move",), phases=("reveal phase",))  # engaged: both stay (K-14)
    quiet(t)
    p = label(t)
    play(t, 0, f"plan {p}: 1")
    play(t, 1, f"plan {p}: 2")
    quiet(t)
    play(t, 0, "reveal str4")
    play(t, 1, "reveal end2!")
    e, words = said(t, "out")
    assert e.rule == "K-7" and words == "bob is removed from the game: Endurance exhausted (K-7)"


def test_movement_is_told_K11():
    t = start((3, 2, 5, 3), (3, 2, 5, 3), battlefield="ruined-keep", at=[(15.5, 18), (40, 30)])
    quiet(t)
    play(t, 1, "stay")
    before = len(t.told)
    play(t, 0, "run 15.5,17")
    assert not [e for e in t.told[before:] if e.kind == "move"]  # told once, by the action's own line (issue 29)
    said = t.state.describe(0, GAME.parse_action("run 15.5,17"))  # where, in words, never a coordinate (issue 39)
    assert re.fullmatch(r"seat 0 runs 1 in (toward|away from) (seat 1|the \w+) \(then [\d.]+ in away\)", said), said
    assert t.state.pos[0] == pt(15.5, 17)


def test_a_throw_is_told_K28():
    t = start((5, 3, 2, 3), (3, 3, 10, 1), battlefield="cliff-top", at=[(24, 21.5), (24, 25)])
    w = t.state.wait
    play(t, 0, f"dual {w[3]}: str4")
    play(t, 1, f"dual {w[3]}: -")
    quiet(t, ("move",), phases=())
    play(t, 0, "throw boulder at 1")
    e, words = said(t, "hit")
    assert e.rule == "K-28" and e.numbers == (5, 6)
    assert words == "alice throws the boulder at bob: Strength 5 + 2 - Dexterity 1 = 6 Endurance to lose"
