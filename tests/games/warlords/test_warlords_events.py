"""Every outcome the Warlords rules compute is told as an event, in words (seeds/warlords.md rule ids)."""

from __future__ import annotations

from duelmail.games.base import in_words
from duelmail.games.cards import Card, CardRef


def kinds(t):
    return [e.kind for e in t.told]


def said(t, kind, names=("alice", "bob")):
    """The words of the last event of ``kind``, with the faces now public."""
    e = [e for e in t.told if e.kind == kind][-1]
    return e, in_words(e.text, t.state.public_faces(), names)


def test_w14_w16_failed_attack_tells_both_totals_the_winner_and_the_price(rig, play):
    # the case of issue 15: Queen + 9 attacks King + 10 and fails; the attacker loses the Queen
    t = rig(2, {0: "KH 10H", 1: "QS 9S"})
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    play(t, 0, "defend a#0 a#1")
    play(t, 1, "support -")
    play(t, 0, "support -")
    e, words = said(t, "battle")
    assert e.numbers == (11, 13) and e.seats == (1, 0) and e.rule == "W-14"
    assert words == ("battle: bob the Queen of spades (Warlord 2) + the 9 of spades (Army 9) = 11 against alice "
                     "the King of hearts (Warlord 3) + the 10 of hearts (Army 10) = 13")
    e, words = said(t, "battle lost")
    assert words == "bob's attack fails, 11 to 13: alice holds" and e.rule == "W-16"
    e, words = said(t, "failure")
    assert words == "bob loses the Queen of spades (the Warlord) for the failed attack"
    e, words = said(t, "discard")
    assert e.cards == (CardRef("b", 1), CardRef("a", 1)) and e.rule == "W-17"
    assert words == ("the battle cards go to the discard piles: the 9 of spades to bob's and the 10 of hearts "
                     "to alice's")
    assert kinds(t).index("battle") < kinds(t).index("battle lost") < kinds(t).index("failure")


def test_w15_won_battle_tells_damage_and_the_milled_cards(rig, play):
    t = rig(2, {0: "5H", 1: "KS 10S"})
    play(t, 0, "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    play(t, 0, "defend - a#0")
    play(t, 1, "support -")
    play(t, 0, "support -")
    e, words = said(t, "battle won")
    assert e.numbers == (13, 5, 4) and words.startswith("bob wins the battle, 13 to 5: 4 damage to alice")
    play(t, 0, "accept")
    e, words = said(t, "damage")
    assert e.numbers == (4,) and len(e.cards) == 4 and e.rule == "W-15"
    faces = [in_words(str(r), t.state.public_faces()) for r in e.cards]
    assert words == f"alice takes 4 damage: {', '.join(faces)} milled face up to the discard pile"
    assert all(f.startswith("the ") for f in faces)


def test_w16_failed_attack_without_warlord_tells_the_milled_card(rig, play):
    t = rig(2, {0: "9H", 1: "4S"})
    play(t, 0, "end")
    play(t, 1, "attack - b#0")
    play(t, 0, "defend - a#0")
    play(t, 1, "support -")
    play(t, 0, "support -")
    e, words = said(t, "failure")
    assert len(e.cards) == 1 and words == f"bob mills {in_words(str(e.cards[0]), t.state.public_faces())} for " \
        "the failed attack"


def test_w18_w19_aces_are_told(rig, play):
    t = rig(2, {0: "KH", 1: "AS QS"})
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "ace b#0 a#0")
    e, words = said(t, "ace")
    assert e.rule == "W-18"
    assert words == ("the Ace of spades (an Ace) destroys alice's Warlord the King of hearts: "
                     "both go to the discard piles")
    t = rig(2, {0: "AH", 1: "QS 10S"})
    play(t, 0, "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    play(t, 0, "ace a#0")
    e, words = said(t, "ace")
    assert e.rule == "W-19" and words == "the Ace of hearts (an Ace) stops bob's attack: it fails"
    assert said(t, "failure")[1] == "bob loses the Queen of spades (the Warlord) for the failed attack"


def test_w4_w22_w23_draws_empty_pile_and_out(rig, play):
    t = rig(2, {0: "9H", 1: "10S"})
    t.state.piles[1].clear()
    t.state._vis = None  # changed by hand: drop the visibility kept
    play(t, 0, "end")
    assert said(t, "empty")[1] == "bob's draw pile is empty: a last (revenge) turn, then out"
    play(t, 1, "end")
    assert said(t, "out")[1] == "bob is out: the revenge turn is over" and said(t, "out")[0].rule == "W-23"
    assert t.state.is_terminal()  # who won is the engine's event, as for every game (tests/engine)
    draws = [e for e in t.told if e.kind == "draw"]
    assert draws[0].seats == (0,) and draws[0].cards == (CardRef("a", 5),)
    assert in_words(draws[0].text, {CardRef("a", 5): Card.parse("7D")}, ["alice", "bob"]) == \
        "alice draws the 7 of diamonds"


def test_w8_exchange_tells_where_the_old_warlord_goes(rig, play):
    t = rig(2, {0: "JH QH"})
    play(t, 0, "warlord a#0", "exchange a#0 a#1")
    e, words = said(t, "discard")
    assert e.rule == "W-8" and words == "alice's old Warlord the Jack of hearts goes to the discard pile"
