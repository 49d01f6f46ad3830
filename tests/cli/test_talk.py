"""Talk, resign, draw offers, undo and review through the CLI (two homes playing Warlords by files)."""

from __future__ import annotations

import json
import tomllib

import pytest
from clitable import Table, dm, snapshot
from freezegun import freeze_time


@pytest.fixture
def table(tmp_path):
    with freeze_time("2026-11-21 12:00:00") as clock:  # the whole scenario at an injected time
        t = Table(tmp_path)
        t.settle()  # set-up done (answered automatically): Alice is to prepare her first turn
        st = t.status(t.alice)
        assert list(st["awaited"]) == ["0"] and "prepare" in st["awaited"]["0"]["what"]
        t.clock = clock
        yield t


def new_files(t: Table, fn):
    before = set(t.out.iterdir())
    out = fn()
    return out, sorted(set(t.out.iterdir()) - before)


def test_say_out_of_turn_travels_as_a_note_and_never_delays_the_game(table):
    t = table
    before = t.status(t.alice)
    out, (note,) = new_files(t, lambda: dm(t.bob, "say", "take your time", "--out", str(t.out)))
    assert note.name == f"r{before['round']:04d}-s1-n1.toml"
    assert 'bob says: "take your time"' in out and "now awaiting: alice" in out
    t.clock.tick(60)
    got = dm(t.alice, "receive", str(note))
    assert 'bob says: "take your time"' in got and "your move: prepare" in got
    after = t.status(t.alice)
    assert (after["round"], after["awaited"]) == (before["round"], before["awaited"])  # nobody waits on talk
    # Alice answers inside her turn file
    out, (turn,) = new_files(t, lambda: dm(t.alice, "play", "--bot", "heuristic", "--say", "thanks",
                                           "--out", str(t.out)))
    assert tomllib.loads(turn.read_text())["say"] == "thanks"
    assert 'alice says: "thanks"' in dm(t.bob, "receive", str(note), str(turn))
    shown = dm(t.bob, "show")
    assert shown.index('bob: "take your time"') < shown.index('alice: "thanks"')


@pytest.mark.parametrize("text, words", [("x" * 501, "at most 500"), ("line\x1bone", "control character")])
def test_bad_talk_is_refused_and_changes_nothing(table, text, words):
    before = snapshot(table.bob)
    out = dm(table.bob, "say", text, code=1)
    assert words in out and "(rule P-say)" in out and "round 4" in out and "Traceback" not in out
    out = dm(table.alice, "play", "--bot", "heuristic", "--say", text, code=1)
    assert words in out and "(rule P-say)" in out
    assert snapshot(table.bob) == before


def test_resign_out_of_turn_ends_the_game_with_the_audit(table):
    t = table
    out, files = new_files(t, lambda: dm(t.bob, "resign", "--say", "you win", "--out", str(t.out)))
    assert "bob resigns" in out and "answered automatically (the game seed, for the audit)" in out
    assert "game over: alice won: bob resigned" in out
    assert [f.name.endswith("-n1.toml") for f in files] == [True, False]
    got, answers = new_files(t, lambda: dm(t.alice, "receive", *map(str, files), "--out", str(t.out)))
    assert 'bob says: "you win"' in got and "bob resigns" in got
    dm(t.bob, "receive", *map(str, answers))
    for home in (t.alice, t.bob):
        st = t.status(home)
        assert st["over"] and st["audited"] and st["audit_ok"] and st["result"] == "alice won: bob resigned"
    verdict = dm(t.tmp, "verify", str(next((t.alice / "games").iterdir())))
    assert "result: alice won: bob resigned" in verdict and "audit: PASSED" in verdict and "VERIFIED" in verdict
    out = dm(t.alice, "resign", code=1)
    assert "it is over (alice won: bob resigned) (rule P-over)" in out


def test_draw_offer_decline_then_accept(table):
    t = table
    assert "no draw offer is open" in dm(t.alice, "draw", "accept", code=1)
    _, (offer,) = new_files(t, lambda: dm(t.alice, "draw", "offer", "--out", str(t.out)))
    assert "still open" in dm(t.alice, "draw", "offer", code=1)
    assert "your own" in dm(t.alice, "draw", "accept", code=1)
    assert "alice offers a draw" in dm(t.bob, "receive", str(offer))
    assert "draw offered by alice; accepted by nobody yet ('duelmail draw accept' or" in dm(t.bob, "status")
    assert "draw offered by you; accepted by nobody yet\n" in dm(t.alice, "status")
    _, (no,) = new_files(t, lambda: dm(t.bob, "draw", "decline", "--out", str(t.out)))
    assert "bob declines the draw" in dm(t.alice, "receive", str(no))
    assert not t.status(t.alice)["over"]
    _, (offer2,) = new_files(t, lambda: dm(t.bob, "draw", "offer", "--say", "truce?", "--out", str(t.out)))
    dm(t.alice, "receive", str(offer2))
    out, files = new_files(t, lambda: dm(t.alice, "draw", "accept", "--out", str(t.out)))
    assert "alice accepts the draw" in out and "game over: draw: agreed by every player" in out
    _, answers = new_files(t, lambda: dm(t.bob, "receive", *map(str, files), "--out", str(t.out)))
    dm(t.alice, "receive", *map(str, answers))
    st = t.status(t.bob)
    assert st["over"] and st["audit_ok"] and st["result"] == "draw: agreed by every player"
    verdict = dm(t.tmp, "verify", str(next((t.bob / "games").iterdir())))
    assert "4 notes (talk, resignations, draw offers and answers)" in verdict and "VERIFIED" in verdict


def _a_turn_with_a_move_that_does_not_end_it(t: Table):
    """The awaited home and one of its moves that leaves the turn open (the deal is random: play on until one)."""
    for i in range(40):
        t.settle()
        (s,) = t.todo(t.status(t.alice))
        home = t.home(s)
        moves = [m["move"] for m in json.loads(dm(home, "moves", "--json"))]
        first = next((m for m in moves if m.split()[0] in ("warlord", "exchange")), None)  # an Ace may end it (W-19)
        if first:
            return home, first
        t.turn(home, "--bot", "heuristic", "--seed", str(i))
    raise AssertionError("no open-ended move came up")


def test_noted_moves_are_shown_undone_and_finished_by_the_bot(table):
    t = table
    home, first = _a_turn_with_a_move_that_does_not_end_it(t)
    plain = dm(home, "show")
    assert "nothing to undo" in dm(home, "undo", code=1)
    means = next(m["means"] for m in json.loads(dm(home, "moves", "--json")) if m["move"] == first)
    assert f"noted: {means}" in dm(home, "play", first)  # in words (issue 39)
    shown = dm(home, "show")
    assert f"noted, not sent (the table above is after them): {means}" in shown
    assert shown.split("noted, not sent")[0] != plain.split("Talk:")[0]  # the position after the noted move
    out = dm(home, "undo")
    assert f"dropped: {means}" in out and "your move: prepare" in out
    assert dm(home, "show") == plain
    assert 'and your words: "hmm"' in dm(home, "play", first, "--say", "hmm")
    assert f"dropped: {means}" in dm(home, "undo", "--all")
    assert not (next((home / "games").iterdir()) / ".pending.toml").exists()
    dm(home, "play", first)
    _, (turn,) = new_files(t, lambda: dm(home, "play", "--bot", "heuristic", "--seed", "1", "--out", str(t.out)))
    assert tomllib.loads(turn.read_text())["actions"][0] == first  # the bot went on from the noted move


def _game_folder(home):
    return next(p for p in (home / "games").iterdir() if p.is_dir())


def _backdated_note(t: Table, home, before: dict, n: int, **fields) -> str:
    """A note ``home``'s seat signs by hand, naming round ``before['round']`` and its hash, dated then."""
    from duelmail.home import Home
    from duelmail.protocol.turnfile import SignedFile

    content = {"duelmail": 1, "kind": "note", "game": before["game"], "round": before["round"],
               "prev": before["prev"], "seat": 1, "time": before["time"], "n": n, **fields}
    return SignedFile.sign(content, Home(home).load_identity(None)).to_toml()


def test_a_result_once_recorded_is_not_rewritten_by_a_backdated_note(table):
    """Issue 27 item 3, between two homes: Alice offers a draw, play goes on, Bob resigns ("alice won") and both
    homes finish the audit. Bob then signs a draw acceptance numbered after his resignation but naming the round
    of the offer and dated then (the older fold put it before the resignation: a draw, Alice's seed void). Alice's
    home keeps its result, and a note with a gap in its seat's numbers is refused, naming the file delivered."""
    t = table
    _, (offer,) = new_files(t, lambda: dm(t.alice, "draw", "offer", "--out", str(t.out)))
    dm(t.bob, "receive", str(offer))
    g = tomllib.loads(offer.read_text())
    then = {"game": g["game"], "round": g["round"], "prev": g["prev"], "time": g["time"]}
    t.play_turns(2)
    assert t.status(t.bob)["round"] > then["round"]
    t.clock.tick(3600)
    _, files = new_files(t, lambda: dm(t.bob, "resign", "--out", str(t.out)))
    _, answers = new_files(t, lambda: dm(t.alice, "receive", *map(str, files), "--out", str(t.out)))
    dm(t.bob, "receive", *map(str, answers))
    for home in (t.alice, t.bob):
        st = t.status(home)
        assert st["over"] and st["audit_ok"] and st["result"] == "alice won: bob resigned"
    t.clock.tick(3600)
    gap = t.tmp / "gap.toml"
    gap.write_text(_backdated_note(t, t.bob, then, 2 ** 62, say="slipped in"))
    out = dm(t.alice, "receive", str(gap), code=1)
    assert f"refused {gap}" in out and "before its note" in out and "P-wait" in out and "Traceback" not in out
    accept = t.tmp / "accept.toml"
    accept.write_text(_backdated_note(t, t.bob, then, 2, draw="accept", offer={"seat": 0, "n": 1}))
    out = dm(t.alice, "receive", str(accept))  # it folds after the resignation, which it follows in bob's numbers
    assert "bob answers a draw offer, but the game is already over: nothing changes" in out
    st = t.status(t.alice)
    assert st["over"] and st["result"] == "alice won: bob resigned" and st["audit_ok"]
    verdict = dm(t.tmp, "verify", str(_game_folder(t.alice)))
    assert "result: alice won: bob resigned" in verdict and "VERIFIED" in verdict

