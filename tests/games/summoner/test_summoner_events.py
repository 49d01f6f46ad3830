"""Every outcome the Summoner rules compute is told as an event, in words (seeds/summoner.md rule ids)."""

from __future__ import annotations

from duelmail.games.base import in_words


def said(t, kind):
    e = [e for e in t.told if e.kind == kind][-1]
    return e, in_words(e.text, t.state.public_faces(), ["alice", "bob"])


def test_s14_battles_tell_both_values_the_winner_and_who_leaves(rig, play):
    t = rig("5C 9C", "KS")
    play(t, 0, "summon s#0=5c", "summon s#1=9c", "end")
    play(t, 1, "summon s#5=ks", "attack s#5 s#0")
    e, words = said(t, "battle")
    assert e.numbers == (13, 5) and e.seats == (1, 0) and e.rule == "S-14"
    assert words == ("battle: bob's King of spades (13) against alice's 5 of clubs (5): bob wins by 8; "
                     "the 5 of clubs leaves play")
    t = rig("9C", "9S")
    play(t, 0, "summon s#0=9c", "end")
    play(t, 1, "summon s#5=9s", "attack s#5 s#0")
    assert said(t, "battle")[1].endswith(": a tie: the 9 of spades + the 9 of clubs leave play")


def test_s15_s21_s24_direct_attacks_damage_and_life_points(rig, play):
    t = rig("2C", "KS 9S")
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    e, words = said(t, "direct attack")
    assert e.numbers == (13,) and e.rule == "S-15"
    assert words == "bob attacks alice's life points with the King of spades for 13; alice may stop it with a joker"
    play(t, 0, "pass")
    e, words = said(t, "damage")
    assert e.numbers == (13, 67) and words == "alice loses 13 life points: 80 -> 67" and e.rule == "S-24"


def test_s15_s21_s24_shortcuts_direct_damage_at_the_next_turn(rig, play):
    t = rig("2C", "KS 9S", options={"mail-shortcuts": True})
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life", "end")
    e, words = said(t, "direct attack")
    assert e.numbers == (13,) and e.rule == "S-15"
    assert words == "bob attacks alice's life points with the King of spades for 13, dealt when bob ends the turn"
    play(t, 0, "take")
    e, words = said(t, "damage")
    assert e.numbers == (13, 67) and words == "alice loses 13 life points: 80 -> 67" and e.rule == "S-24"


def test_s17_a_replacement_is_told(rig, play):
    t = rig("AH", "5S JS 3D")
    play(t, 0, "summon s#0=ah", "end")
    play(t, 1, "summon s#5=5s", "end")
    play(t, 0, "end")
    play(t, 1, "summon s#6=js", "attack s#6 s#0")
    assert said(t, "battle")[1].endswith("alice wins by 3; the Jack of spades leaves play")
    play(t, 0, "pass")
    play(t, 1, "replace s#0 s#7=3d")
    e, words = said(t, "replace")
    assert e.numbers == (3,) and e.rule == "S-17"
    assert words == "the Ace of hearts, the winner, leaves play; the 3 of diamonds takes its place on alice's field"


def test_s19_s20_s21_jokers_are_told(rig, play):
    t = rig("XB 2C", "KS 2S")
    play(t, 0, "summon s#1=2c", "end")
    play(t, 1, "summon s#5=ks", "end")
    play(t, 0, "joker s#0=xb s#5")
    play(t, 1, "pass")
    e, words = said(t, "joker")
    assert e.rule == "S-19" and words == "1 joker thrown: alice's joker stands and the King of spades leaves play"
    t = rig("XR", "KS XB")
    play(t, 0, "end")
    play(t, 1, "summon s#5=ks", "attack s#5 life")
    play(t, 0, "stop s#0=xr")
    play(t, 1, "counter s#6=xb")
    play(t, 0, "pass")
    e, words = said(t, "joker")
    assert e.rule == "S-20" and words == "2 jokers thrown: alice's stop is countered, the direct attack hits"
    assert said(t, "damage")[1] == "alice loses 13 life points: 80 -> 67"
