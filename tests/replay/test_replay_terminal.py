"""The terminal replay, driven through its keys on stdin as a person would type them."""

from __future__ import annotations

import re

from click.testing import CliRunner
from replay_archives import CHEAT, GAME, cheat

from duelmail.cli.replay import replay as command
from duelmail.games.base import face_words

runner = CliRunner()


def keys(*args: str, input: str = "", code: int = 0) -> str:
    result = runner.invoke(command, [*args], input=input, catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def headers(out: str) -> list[str]:
    return re.findall(r"^== .* ==$", out, flags=re.M)


def where(out: str) -> list[str]:
    return [h.split(" | ")[1] for h in headers(out)]


def test_next_next_back_quit():
    c = cheat()
    n, last = len(c.replay.steps), c.replay.steps[-1].round
    out = keys(str(CHEAT), input="n\nn\nb\nq\n")
    assert where(out) == [f"start (step 1/{n})", f"round 1 of {last} (step 2/{n})", f"round 2 of {last} (step 3/{n})",
                          f"round 1 of {last} (step 2/{n})"]
    assert "alice opened a game of Warlords" in out and "bob accepted the game" in out
    assert "\x1b[" not in out  # no colours when the output is not a terminal


def test_enter_steps_forward_and_the_ends_are_named():
    c = cheat()
    n, last = len(c.replay.steps), c.replay.steps[-1].round
    out = keys(str(CHEAT), input="\n\nf\nb\ne\nn\nq\n")
    assert where(out) == [f"start (step 1/{n})", f"round 1 of {last} (step 2/{n})", f"round 2 of {last} (step 3/{n})",
                          f"start (step 1/{n})", f"round {last} of {last} (step {n}/{n})"]
    assert "this is the start" in out and "this is the last round" in out


def test_jump_switch_seat_and_everything():
    c = cheat()
    r = c.played.round
    out = keys(str(CHEAT), input=f"g {r}\ns bob\na\ns alice\nt\nq\n")
    screens = out.split("== Warlords")[1:]
    assert len(screens) == 6
    table, bob, bob_all, alice_all, table_all = screens[1:]
    assert f"round {r} of" in table and "view: the table ==" in table
    assert f"Warlords: [??] {c.fake}" in table and "Hand:" not in table
    assert "bob plays a card face down as a Warlord" in table  # an unseen card in words, as the page says it
    assert "view: bob ==" in bob and f"Warlords: {c.face} {c.fake}" in bob
    assert f"Hand: {c.line(c.hand(1))}" in bob
    assert f"Warlords: [??] {c.alice_warlord}" in bob  # alice's Warlord stays hidden from bob
    alice_face = c.replay.all_faces[c.alice_warlord]
    assert "view: bob, every card" in bob_all and f"Warlords: {alice_face} {c.alice_warlord}" in bob_all
    assert "view: alice, every card" in alice_all and f"Hand: {c.line(c.hand(0))}" in alice_all
    assert "view: the table, every card" in table_all
    assert "-- alice, every card --" in table_all and "-- bob, every card --" in table_all
    assert f"Hand: {c.line(c.hand(0))}" in table_all and f"Hand: {c.line(c.hand(1))}" in table_all


def test_start_options_log_decks_verdict_and_help():
    c = cheat()
    r = c.caught.round
    out = keys(str(CHEAT), "--round", str(r), "--seat", "1", "--all", input="l\nd\nv\nh\nwhat\n")
    assert headers(out)[0] == (f"== Warlords: alice vs bob | round {r} of {c.replay.steps[-1].round} "
                               f"(step {c.caught.index + 1}/{len(c.replay.steps)}) | view: bob, every card ==")
    cheat_line = f"CHEAT: bob played {face_words(c.face)} face down as a Warlord, but it is {c.face} (rule W-7)"
    assert cheat_line in out
    assert f"> {'r' + str(r):>5}  {cheat_line}" in out  # the log marks where we are
    assert "deck b: " + " ".join(map(str, c.replay.deck_orders()["b"])) in out
    assert "audit: CHEATING FOUND" in out and "CHEAT by bob [W-7]" in out
    assert "g N, N" in out and "unknown command 'what' (h for help)" in out


def test_end_of_input_quits_after_one_screen():
    out = keys(str(GAME), "--round", "12")
    assert len(headers(out)) == 1 and "round 12 of" in headers(out)[0]


def test_a_game_in_progress_shows_public_information_only(in_progress):
    c = cheat()
    out = keys(str(in_progress), input="e\ns 1\na\nd\nq\n")
    r = c.played.round
    assert f"round {r} of {r}" in out and f"Hand: [??] {c.hand(1)[0]}" in out
    assert "(hidden cards stay hidden until the game is over and audited)" in out
    assert "every card is shown only once the game is over and audited (now: in progress)" in out
    assert "deck orders are known only once the game is over and audited" in out
    for ref in [c.fake, *c.hand(0), *c.hand(1)]:  # no hidden face anywhere
        assert f"{c.replay.all_faces[ref]} {ref}" not in out
    out = keys(str(in_progress), "--all", code=2)
    assert "only once the game is over and audited" in out


def test_bad_seat_and_bad_archive(tmp_path):
    out = keys(str(CHEAT), "--seat", "carol", code=2)
    assert "no single seat 'carol' (seats: 0 alice, 1 bob)" in out
    out = keys(str(CHEAT), input="s 7\nq\n")
    assert "no single seat '7'" in out
    (tmp_path / "r0001-s1.toml").write_text((CHEAT / "r0001-s1.toml").read_text())
    out = keys(str(tmp_path), code=1)
    assert "no genesis file" in out


def test_html_option_writes_the_page(tmp_path):
    target = tmp_path / "page.html"
    out = keys(str(CHEAT), "--html", str(target))
    assert f"wrote {target}" in out and f"{len(cheat().replay.steps)} steps of Warlords, audit cheating found" in out
    assert target.read_text().startswith("<!DOCTYPE html>")


def test_help_has_an_example():
    out = keys("--help")
    assert "Example:" in out and "duelmail replay examples/warlords-game --html" in out


def test_a_seats_own_view_names_the_cards_it_drew_by_their_faces(tmp_path):
    """Issue 29: Bob's own replay view said 'bob draws b#21' while his hand showed 'AD b#21'. Once audited, a
    seat's view names each card it saw by its face in the events too; the table's view still does not."""
    from click.testing import CliRunner as Runner

    from duelmail.cli import main

    out = Runner().invoke(main, ["demo", "warlords", "--seed", "3", "--quiet", "--out", str(tmp_path)])
    assert out.exit_code == 0, out.output
    (game,) = (tmp_path / "homes" / "bob" / "games").iterdir()
    bobs = keys(str(game), "--seat", "bob", input="n\n" * 60)
    table = keys(str(game), input="n\n" * 60)
    assert "bob draws a face-down card" in table and not re.search(r"bob draws b#\d+", table)
    assert re.search(r"bob draws the (?:\d+|Jack|Queen|King|Ace) of \w+", bobs)
    for screen in re.split(r"^== ", bobs, flags=re.M):  # never a card by its ref in the events, by its face above
        assert not re.search(r"bob draws (b#\d+)", screen), screen


def test_the_terminal_says_unseen_cards_in_the_page_s_words(tmp_path):
    """Issue 39 (3): the terminal replay named a card no view had seen by its position ('bob draws b#21'); its events
    and its log say it as the HTML page does ('a face-down card', 'the face-down Warlord'), a card played as a face
    by that face; no event or log line of any view names a card by its position."""
    from duelmail.games.base import replay_words

    assert replay_words("bob draws b#21") == "bob draws a face-down card"
    assert replay_words("alice attacks with the Warlord a#3") == "alice attacks with the face-down Warlord"
    assert replay_words("carol plays w#3=7h") == "carol plays the 7 of hearts"
    out = keys(str(GAME), input="l\n" + "n\n" * 30 + "s 1\n" + "n\n" * 30 + "l\nq\n")
    said = re.findall(r"^(?:round \d+[^\n]*|the game is opened):\n((?:  [^\n]*\n)+)", out, flags=re.M)
    events = [line for block in said for line in block.splitlines()]  # the events; the tables keep positions
    events += [line for line in out.splitlines() if re.match(r"[> ] +(start|r\d+)  ", line)]  # the log
    assert events and not [line for line in events if re.search(r"(?<![\w#.])[a-z]+[0-9]*#[0-9]+", line)]
    assert "a face-down card" in out
