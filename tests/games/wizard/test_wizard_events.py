"""Every outcome the Wizard Duel rules compute is told as an event, in words (seeds/wizard.md rule ids)."""

from __future__ import annotations

from duelmail.games.base import in_words
from duelmail.games.cards import CardRef

from ..conftest import play
from .conftest import cards

NAMES = ["alice", "bob", "carol", "dave"]


def attack(t, seat: int, faces: str, target: int) -> None:
    play(t, seat, f"attack {cards(t, seat, *faces.split())} at {target}")


def said(t, kind, known=None):
    e = [e for e in t.told if e.kind == kind][-1]
    return e, in_words(e.text, known if known is not None else t.state.public_faces(), NAMES)


def test_z7_z13_z19_a_spell_a_backfire_and_a_lost_life(rig):
    t = rig(4, hands={0: "9c 8c", 1: "10s"}, lives={0: "kd 2c 3c"})
    attack(t, 0, "9c 8c", 1)
    e, words = said(t, "spell")
    assert e.rule == "Z-7" and e.numbers == (9,)
    assert words == "alice's spell of strength 9 (the 9 of clubs + the 8 of clubs) flies at bob"
    play(t, 1, f"defend {cards(t, 1, '10s')}")
    e, words = said(t, "defence")
    assert e.rule == "Z-13" and e.numbers == (9, 10)
    assert words == "bob beats the spell's 9 with the 10 of spades (10): spades backfire on alice"
    e, words = said(t, "life lost")
    assert e.rule == "Z-19" and e.cards == (CardRef("w", 0),) and e.numbers == (2,)
    assert words == "alice loses a Life (w#0 goes to the hand): 2 Lives left"  # the table never sees it
    assert said(t, "life lost", t.known(0))[1] == "alice loses a Life (the King of diamonds goes to the hand): " \
        "2 Lives left"  # its owner does


def test_z8_z11_z12_z14_strikes_protection_deflection_cancel(rig):
    t = rig(4, hands={0: "jh kh"})
    attack(t, 0, "jh kh", 2)
    assert said(t, "spell")[1] == ("alice strikes carol with two face cards (the Jack of hearts + the King of "
                                   "hearts): no defence")
    t = rig(4, hands={0: "4c 5c", 1: "6d"})
    attack(t, 0, "4c 5c", 1)
    play(t, 1, f"defend {cards(t, 1, '6d')}")
    e, words = said(t, "defence")
    assert e.rule == "Z-11" and words.endswith(": diamonds protect bob; alice must aim elsewhere")
    t = rig(4, hands={0: "9c 8c 5d", 1: "10h"})
    attack(t, 0, "9c 8c", 1)
    play(t, 1, f"defend {cards(t, 1, '10h')} at 0")
    e, words = said(t, "defence")
    assert e.rule == "Z-12" and words == "bob beats the spell's 9 with the 10 of hearts (10): hearts deflect it at " \
        "alice with strength 10"
    t = rig(4, hands={0: "9d 8d", 1: "10c"})
    attack(t, 0, "9d 8d", 1)
    play(t, 1, f"defend {cards(t, 1, '10c')}")
    assert said(t, "defence")[0].rule == "Z-14" and said(t, "defence")[1].endswith(": clubs cancel the spell")


def test_z16_z19_firing_back_and_out_of_play(rig):
    t = rig(3, hands={0: "2c 3c", 1: "4d", 2: "5d"})
    attack(t, 0, "2c 3c", 1)
    play(t, 1, f"defend {cards(t, 1, '4d')}")
    play(t, 2, f"defend {cards(t, 2, '5d')}")
    assert said(t, "fire back")[1] == "every other player is protected: the spell fires back at alice"
    t = rig(4, hands={0: "9c 8c"}, options={"sudden-death": True})
    attack(t, 0, "9c 8c", 1)
    play(t, 1, "take")
    e, words = said(t, "out")
    assert e.rule == "Z-19" and words == "bob has no Life left and is out of play"


def test_z5_draws_are_told(rig):
    t = rig(4, hands={0: "9d 8d", 1: "10c"})
    attack(t, 0, "9d 8d", 1)
    play(t, 1, f"defend {cards(t, 1, '10c')}")
    e, words = said(t, "draw", t.known(1))
    assert e.seats == (1,) and e.rule == "Z-5" and words.startswith("bob draws the ")
