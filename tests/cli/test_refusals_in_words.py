"""Issue 39 (2): a wrong move is refused in one line a card player reads: the move said as the list says it, why, in
the game's words, the rule's id only after words, then the moves legal now; never the notation's head
(``warlord a#99: a#99 (the Warlord) is not in seat 0's hand``), usage hints (``(ace ACE TARGET)``), labels
(``dual d0:``), ``(played as 2C)``, coordinates, a player spoken of in the third person to himself, or "1 moves".
Hand-picked wrong moves of each of the five games (found by ``bench/sweep_words.py``), each refused with its exact
line: exit code 1, no traceback, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import clitable
import pytest
from clitable import dm, snapshot

from duelmail.app import open_game
from duelmail.home import Home

SEE = "see rule {rule} in 'duelmail rules {game}'"


def refused(home: Path, *typed: str) -> str:
    """``play TYPED`` refused: exit code 1, one line, no traceback, nothing written; the line without 'Error: '."""
    before = snapshot(home)
    out = dm(home, "play", *typed, code=1)
    assert "Traceback" not in out and snapshot(home) == before, out
    lines = out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), out
    return lines[0].removeprefix("Error: ")


def listed(home: Path, verb: str = "") -> str:
    """'You may now: ...' as a refusal gives it: the legal moves like the one typed (by its verb), numbered, at most
    six, else all of them."""
    moves = json.loads(dm(home, "moves", "--json"))
    alike = [m for m in moves if m["move"].split()[0] == verb] or moves
    shown = "; ".join(f"{m['number']}. {m['means']}" + (f" (careful: {m['careful']})" if m["careful"] else "")
                      for m in alike[:6])
    more = f"; and {len(alike) - 6} more" if len(alike) > 6 else ""
    return f"You may now: {shown}{more} ('duelmail moves' lists them all)"


def hand_refs(home: Path) -> list[str]:
    """The positions of the cards the seat holds (what a script types; never what the player reads)."""
    h = Home(home)
    folder, match, seat = open_game(h, None)
    view = match.draft(seat, h.load_identity(None, lambda: None), [])
    return [str(r) for r in view.known(seat)]


def settled(tmp: Path, game: str = "warlords", *options: str) -> clitable.Table:
    """Alice and Bob's table of ``game`` (with ``options``), set up to the first decision."""
    t = type("GameTable", (clitable.Table,), {"game": game})(tmp, *options)
    t.settle()
    return t


def round_of(home: Path) -> int:
    return json.loads(dm(home, "status", "--json"))["round"]


def test_warlords(tmp_path):
    t = settled(tmp_path)
    r, n = round_of(t.alice), len(json.loads(dm(t.alice, "moves", "--json")))
    sent = f"your move was not sent (round {r}): "
    assert refused(t.alice, "99") == (f"there is no move 99: your moves are numbered 1 to {n} ('duelmail moves' "
                                      "lists them)" if n > 1 else "there is no move 99: you have only move 1 "
                                      "('duelmail moves' shows it)")
    assert refused(t.alice, "warlord a#99") == (
        f"{sent}'Play a card face down as a Warlord' cannot be played: you hold no such card "
        f"({SEE.format(rule='W-7', game='warlords')}). {listed(t.alice, 'warlord')}")
    prompt = json.loads(dm(t.alice, "status", "--json"))["awaited"]["0"]["what"]
    assert refused(t.alice, "support -") == (
        f"{sent}'Add no Support' cannot be played now: you must {prompt} ({SEE.format(rule='W-12', game='warlords')})"
        f". {listed(t.alice, 'support')}")
    end = next(m for m in json.loads(dm(t.alice, "moves", "--json")) if m["move"] == "end")
    assert refused(t.alice, str(end["number"]), "2") == "'2' is one move too many: your turn is complete after " \
        "'End the turn'"
    out = refused(t.bob, "end")
    assert out.startswith(f"game {json.loads(dm(t.bob, 'status', '--json'))['game'][:12]}: nothing is awaited from "
                          f"you in round {r} (now: waiting for alice to decide)")


def test_summoner(tmp_path):
    t = settled(tmp_path, "summoner")
    (s,) = t.status(t.alice)["awaited"]
    me = t.home(s)
    sent = f"your move was not sent (round {round_of(me)}): "
    prompt = t.status(me)["awaited"][s]["what"]
    assert refused(me, "pass") == (f"{sent}'Pass' cannot be played now: you must {prompt} "
                                   f"({SEE.format(rule='S-20', game='summoner')}). {listed(me, 'pass')}")
    assert refused(me, "summon s#99=2h") == (
        f"{sent}'Summon the 2 of hearts' cannot be played: you hold no such card "
        f"({SEE.format(rule='S-9', game='summoner')}). {listed(me, 'summon')}")


def test_grid(tmp_path):
    t = settled(tmp_path, "grid")
    sent = f"your move was not sent (round {round_of(t.alice)}): "
    assert refused(t.alice, "move c3 d3") == (
        f"{sent}'Move the card at c3 to d3' cannot be played: you control no card at c3 "
        f"({SEE.format(rule='G-12', game='grid')}). {listed(t.alice, 'move')}")
    assert refused(t.alice, "play a#99 a1") == (
        f"{sent}'Play a card face up to a1' cannot be played: the first card goes to c3, the middle of the table "
        f"({SEE.format(rule='G-5', game='grid')}). {listed(t.alice, 'play')}")
    assert refused(t.alice, "play a#99 c3") == (
        f"{sent}'Play a card face up to c3' cannot be played: you hold no such card "
        f"({SEE.format(rule='G-9', game='grid')}). {listed(t.alice, 'play')}")


def test_wizard(tmp_path):
    from test_playable import Wizard

    t = Wizard(tmp_path)
    t.settle()
    st = json.loads(dm(t.homes[0], "status", "--json"))
    (s,) = st["awaited"]
    me = t.homes[int(s)]
    sent = f"your move was not sent (round {st['round']}): "
    prompt = json.loads(dm(me, "status", "--json"))["awaited"][s]["what"]
    assert refused(me, "take") == (f"{sent}'Take the blow' cannot be played now: {prompt} "
                                   f"({SEE.format(rule='Z-5', game='wizard')}). {listed(me, 'take')}")
    assert refused(me, "99") == "there is no move 99: you have only move 1 ('duelmail moves' shows it)"
    assert refused(me, "1", "1") == "'1' is one move too many: your turn is complete after 'Pass'"


def test_skirmish(tmp_path):
    t = settled(tmp_path, "skirmish", "battlefield=ruined-keep")
    sent = f"your move was not sent (round {round_of(t.alice)}): "
    assert refused(t.alice, "build str 10", "build spd 2", "build end 1", "build dex 1") == (
        f"{sent}the character would have 14 cards, more than 13 ({SEE.format(rule='K-2', game='skirmish')}). "
        f"{listed(t.alice, 'build')}")
    build = ["build str 3", "build spd 3", "build end 5", "build dex 2"]
    out = refused(t.alice, *build, "dual d0: str2 spd1 end1 dex1")
    assert out.startswith(f"{sent}'Choose to show 2 Strength, 1 Speed, 1 Endurance, 1 Dexterity at the start "
                          "(sealed until both have chosen)' cannot be played: the start reveals exactly one card of "
                          f"each stat ({SEE.format(rule='K-3', game='skirmish')}). You may now: "), out


@pytest.mark.parametrize("text", [
    "warlord a face-down card: a face-down card (the Warlord) is not in your hand",
    "dual d1: str1", "the 2 of hearts (played as 2C)", "'3'.;", "1 legal moves", "you must alice attacks you",
    "(ace ACE TARGET)", "cannot be played now: you must the attack (13 against 12) deals 1 damage",
    "bob must add a Support to your attack", "from 24,4 that is farther", "  alice (you) at 4,12, standing",
])
def test_the_awkward_patterns_are_caught(text):
    """What the sweep found, each caught by ``test_no_machinery.AWKWARD`` (so the whole bot games fail on it)."""
    from test_no_machinery import machinery

    assert machinery(text), text
    assert not machinery("'Add no Support' cannot be played now: you must add a Support to your attack, or none")



def test_a_number_typed_with_a_minus_sign_is_no_move_not_an_option(tmp_path):
    """``play -1`` says there is no such move (click would call it an unknown option); nothing is written."""
    t = settled(tmp_path)
    before = snapshot(t.alice)
    out = dm(t.alice, "play", "-1", code=2)
    assert "Error: there is no move -1: the moves are numbered from 1 ('duelmail moves' lists them)" in out
    assert "No such option" not in out and "Traceback" not in out and snapshot(t.alice) == before
    assert "No such option '--frob'" in dm(t.alice, "play", "--frob", code=2)  # a mistyped option stays one
