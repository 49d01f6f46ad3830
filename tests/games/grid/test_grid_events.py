"""Every outcome the Grid Duel rules compute is told as an event, in words (seeds/grid.md rule ids)."""

from __future__ import annotations

from duelmail.games.base import RandomBot, in_words


def said(t, kind):
    e = [e for e in t.told if e.kind == kind][-1]
    return e, in_words(e.text, t.state.public_faces(), ["alice", "bob"], t.state.card_words)


def test_g17_g18_battles_tell_both_totals_and_the_space_taken(rig, play):
    t = rig({0: "Archer, Recruit", 1: "Guard"})
    play(t, 0, "play a#0 c3")  # upright: strikes b4, c4, d4
    play(t, 1, "play b#0 c4")
    play(t, 0, "play a#1 c4")  # Recruit 3 + Strike 2 = 5 against 5
    e, words = said(t, "battle starts")
    assert e.seats == (0, 1) and e.rule == "G-18" and words == "c4: alice attacks bob's space with the Recruit"
    e, words = said(t, "battle")
    assert e.numbers == (5, 5) and e.rule == "G-17"
    assert words == "c4: alice attacks with the Recruit (5) against bob's Guard (5): the attack takes the space"
    e, words = said(t, "space taken")
    assert e.seats == (0, 1) and words == ("c4: alice takes the space from bob (5 against 5), held by the Recruit; "
                                           "the Guard to the discard piles")


def test_g17_a_battle_that_goes_on_is_told(rig, play):
    t = rig({0: "Archer, Recruit, Spearman", 1: "Guard, Militia"})
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4")
    play(t, 0, "play a#1 c4")  # 3 against 5: the face-down Archer does not strike
    e, words = said(t, "battle")
    assert e.numbers == (3, 5) and words.endswith(": the defence holds, the battle goes on")


def test_g16_a_concession_is_told(rig, play):
    t = rig({0: "Knight, Recruit", 1: "Militia, Pit"})
    play(t, 0, "play a#0 c3")
    play(t, 1, "play b#0 c3")
    play(t, 0, "play a#1 d3 hidden")
    play(t, 1, "play b#1 c3")
    play(t, 0, "concede c3")
    e, words = said(t, "space taken")
    assert e.rule == "G-16" and words.startswith("c3: bob takes the space from alice (conceded)")


def test_g26_the_count_is_told(rig):
    t = rig({})
    t.run([RandomBot(), RandomBot()])
    e, words = said(t, "score")
    assert e.rule == "G-26" and len(e.numbers) == 4
    assert words.startswith(f"the count: alice controls {e.numbers[0]} space")
