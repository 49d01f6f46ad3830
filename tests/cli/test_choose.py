"""Issue 29: `duelmail play` without the notation: the table and the numbered list of legal moves, answered with a
number, several numbers or words; `moves` numbers them and names players (seeds/warlords.md W-7, W-10)."""

from __future__ import annotations

import json
import re

import clitable
from clitable import dm, runner, snapshot

from duelmail.cli import main


def ask(home, answers: str, *args: str, code: int = 0) -> str:
    result = runner.invoke(main, ["--home", str(home), "play", "--ask", *args], input=answers,
                           catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def test_play_asks_with_the_table_and_the_numbered_list_and_takes_numbers_undo_and_words(tmp_path):
    """W-7, W-10: alice's first turn from the list: a number notes a Warlord (when her hand holds a face card),
    'undo' takes it back, 'end the turn' in words ends it; the table, the numbered list in words and the file
    written are all said."""
    t = clitable.Table(tmp_path)
    t.settle()
    warlord = next((m for m in json.loads(dm(t.alice, "moves", "--json")) if m["move"].startswith("warlord")), None)
    first = f"{warlord['number']}\n" if warlord else ""
    out = ask(t.alice, f"{first}undo\nend the turn\n", "--out", str(t.out))
    assert "Hand:" in out  # the table first
    listed = re.findall(r"^ +(\d+)\. (.+)$", out, re.M)
    assert listed[0][0] == "1" and any(words == "End the turn" for _, words in listed)
    assert not any("#" in words for _, words in listed)  # the list speaks of cards by their faces, never refs
    if warlord:
        assert f"took back: {warlord['means']}" in out and warlord["means"].startswith("Play the ")
    else:
        assert "nothing chosen yet to take back" in out
    assert "round 4: alice ends the turn" in out and "wrote " in out
    assert (t.out / "r0004-s0.toml").exists()


def test_play_takes_the_list_s_numbers_and_words_on_the_command_line(tmp_path):
    """'play N' (no terminal needed) makes move N of 'moves'; words make a move; a misspelt one gets "did you mean"
    with its number and changes nothing."""
    t = clitable.Table(tmp_path)
    t.settle()
    listed = json.loads(dm(t.alice, "moves", "--json"))
    assert [m["number"] for m in listed] == list(range(1, len(listed) + 1))
    # a Warlord when the deal gives one, else any other move; a deal may leave only "end" (the randomness is fresh)
    chosen = next((m for m in listed if m["move"].startswith("warlord")), None) or \
        next((m for m in listed if m["move"] != "end"), None)
    end = next(m for m in listed if m["move"] == "end")
    before = snapshot(t.alice)
    out = dm(t.alice, "play", "edn", "teh", "trun", code=1)
    assert "did you mean " in out and f"{end['number']}. End the turn" in out and "Traceback" not in out
    assert snapshot(t.alice) == before
    if chosen is None:  # the words alone make the move
        out = t.turn(t.alice, "end", "the", "turn")
        assert "alice ends the turn" in out and "wrote " in out
        return
    out = dm(t.alice, "play", chosen["means"].lower())
    assert f"noted: {chosen['means']}" in out  # the move in words, never its notation (issue 39)
    after = json.loads(dm(t.alice, "moves", "--json"))
    end = next(m for m in after if m["move"] == "end")
    out = t.turn(t.alice, str(end["number"]))
    assert "alice ends the turn" in out and "wrote " in out


def test_moves_numbers_the_legal_moves_in_words_and_names_players(tmp_path):
    """'moves' lists each move numbered, in words, with its notation; it names players, never seat numbers."""
    t = clitable.Table(tmp_path)
    t.settle()
    t.turn(t.alice, "end")
    t.settle()
    out = dm(t.bob, "moves")
    assert re.search(r"^  1\. \w", out, re.M) and "Attack alice with" in out
    assert not re.search(r"\bseat \d", out, re.I)
    assert "'duelmail play N' makes move N" in out


def test_an_interrupted_choice_is_noted_not_sent(tmp_path):
    """K-2: the answers run out (Ctrl-D) after the first step of a Skirmish build: it is noted for 'duelmail play' to
    go on; nothing is sent."""
    class Skirmish(clitable.Table):
        game = "skirmish"

    t = Skirmish(tmp_path, "battlefield=open-field")
    t.settle()
    out = ask(t.alice, "1\n", code=1)
    assert "1. Give Strength 1 card" in out and "noted: Give Strength 1 card" in out and "nothing sent" in out
    assert not list((t.alice / "games").glob("*/r0004-s0.toml"))
    assert "noted, not sent" in dm(t.alice, "show")


def test_rules_prints_each_game_s_digest_with_the_notation_at_the_end(tmp_path):
    """'duelmail rules GAME' (any case) prints our digest without its markup, then the moves' notation; a misspelt
    game gets "did you mean"."""
    for game, rule, move in [("warlords", "W-7", "attack a#3 a#17"), ("Wizard", "Z-7", "take"),
                             ("SUMMONER", "S-9", "summon"), ("grid", "G-9", "play"), ("skirmish", "K-16", "plan")]:
        out = dm(tmp_path, "rules", game)
        head, _, notation = out.partition("## The moves' notation")
        assert rule in head and "our rules digest" in head and move in notation
        assert "**" not in out and "``" not in out and ">>>" not in out
    result = runner.invoke(main, ["rules", "wizzard"])
    assert result.exit_code == 2 and "did you mean 'wizard'?" in result.output


class _Skirmish(clitable.Table):
    game = "skirmish"


def test_a_move_that_loses_at_once_is_marked_and_played_only_once_confirmed(tmp_path):
    """Issue 39 (1), K-3, K-7: 1 Endurance card is shown, and exhausted, at the start; the list marks it in words,
    'play N' refuses it (naming the move and its warning, changing nothing), and 'play N yes' notes it; a terminal
    asks, and 'n' keeps it out."""
    t = _Skirmish(tmp_path)
    t.settle()
    t.turn(t.alice, "1")
    t.turn(t.alice, "1")  # Strength 1, Speed 1: Endurance next
    out = dm(t.alice, "moves")
    assert re.search(r"^   1\. Give Endurance 1 card \(secret until shown\) \(careful: removes your character at "
                     r"the start: its one Endurance card is shown then, and is exhausted at once\)$", out, re.M), out
    assert "careful" not in out.split("\n")[1]  # 2 cards: no warning
    listed = json.loads(dm(t.alice, "moves", "--json"))
    assert listed[0]["careful"].startswith("removes your character") and listed[1]["careful"] is None
    before = snapshot(t.alice)
    out = dm(t.alice, "play", "1", code=1)
    assert out.startswith("Error: not played: 'Give Endurance 1 card (secret until shown)' removes your character")
    assert "If you mean it: 'duelmail play 1 yes' (or --yes" in out and "Traceback" not in out
    assert snapshot(t.alice) == before
    out = ask(t.alice, "1\nn\n2\n", code=1)  # a terminal asks: 'n' keeps it out, then Endurance 2; input ends
    assert "careful: 'Give Endurance 1 card (secret until shown)' removes your character" in out
    assert "Play it anyway? [y/N]" in out and "not chosen" in out
    assert "noted: " in out and "Give Endurance 2 cards (secret until shown) ('duelmail play' goes on)" in out
    dm(t.alice, "undo")
    out = dm(t.alice, "play", "1", "yes")
    assert "noted: " in out and "Give Endurance 1 card (secret until shown)" in out


def test_a_careful_move_is_confirmed_by_its_number_given_twice(tmp_path):
    """Issue 39 (1): 'play 1 1' of the move marked 'careful' is "yes, move 1": noted once; 'play 2 2' of a move with
    no warning stays two moves, as it always was."""
    t = _Skirmish(tmp_path)
    t.settle()
    t.turn(t.alice, "1")
    t.turn(t.alice, "1")  # Strength 1, Speed 1: Endurance next, its move 1 marked 'careful'
    out = dm(t.alice, "play", "1", code=1)
    assert "If you mean it: 'duelmail play 1 yes' (or --yes; or the number twice: 'duelmail play 1 1')" in out
    before = snapshot(t.alice)
    out = dm(t.alice, "play", "1", "1")
    assert "noted: " in out and "Give Endurance 1 card (secret until shown)" in out
    assert out.count("Give Endurance 1 card") == 1 and "not played" not in out
    dm(t.alice, "undo")
    assert snapshot(t.alice) == before
    listed = json.loads(dm(t.alice, "moves", "--json"))
    assert listed[1]["careful"] is None
    two = dm(t.alice, "play", "2", "2")  # two moves: Endurance 2, then move 2 of the list after it
    assert "Give Endurance 2 cards (secret until shown); Give Dexterity 2 cards (secret until shown)" in two
