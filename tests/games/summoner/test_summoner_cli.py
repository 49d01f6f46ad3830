"""Summoner end to end by files through the CLI: two homes, an outbox folder, bots deciding, a human refusal."""

from __future__ import annotations

import json

import clitable
from clitable import dm, snapshot


class Table(clitable.Table):
    game = "summoner"


def test_two_homes_play_a_whole_game_of_summoner_by_files(tmp_path):
    """S-28 and the audit (S-26): a whole game by files between two homes, verified from either archive."""
    t = Table(tmp_path, "life=40")
    t.play_turns(300)
    a, b = t.status(t.alice), t.status(t.bob)
    assert a["over"] and b["over"] and a["audited"] and a["audit_ok"] and a["result"] == b["result"]
    for home in (t.alice, t.bob):
        out = dm(tmp_path, "verify", str(next((home / "games").iterdir())))
        assert "audit: PASSED" in out and "VERIFIED" in out
    names = sorted(p.name for p in next((t.alice / "games").iterdir()).glob("[gr]*.toml"))
    assert names == sorted(p.name for p in next((t.bob / "games").iterdir()).glob("[gr]*.toml"))


def test_a_human_move_by_the_cli_and_refusals_naming_the_rule(tmp_path):
    """S-9 and S-20 refused through 'duelmail play'; nothing is written; a legal move from 'moves' is accepted.
    S-3: the coin toss chose who plays first, and every home says so."""
    t = Table(tmp_path)
    t.settle()
    st = t.status(t.alice)
    (seat,) = st["awaited"]
    me, other_seat = t.home(seat), "1" if seat == "0" else "0"
    for home in (t.alice, t.bob):
        assert f"the coin toss: {me.name} plays first" in dm(home, "history")
    moves = json.loads(dm(me, "moves", "--json"))
    summons = [m["move"] for m in moves if m["move"].startswith("summon")]
    assert summons and any(m["move"] == "end" for m in moves)
    assert "=" in summons[0] and summons[0] == summons[0].lower()  # the claimed face stays as written
    before = snapshot(me)
    own = f"s#{5 * int(seat)}"  # a card of the mover's own hand
    out = dm(me, "play", f"counter {own}=xr", code=1)
    assert "rule S-20" in out and "'Counter with the " in out and "#" not in out  # the move in words, no position
    first = summons[0]  # a true claim, then an Ace on top: more than 14, whatever the Ace is (the rules' own check
    other = next(m.split()[1].split("=")[0] for m in summons if m.split()[1] != first.split()[1])  # comes first)
    out = dm(me, "play", first, f"summon {other}=ad", code=1)
    assert "rule S-9" in out and "of 14" in out and "says something false" not in out
    assert snapshot(me) == before
    t.turn(me, summons[0], "end")
    t.settle()
    st = t.status(t.other(me))
    assert list(st["awaited"]) == [other_seat] and "summon" in st["awaited"][other_seat]["what"]
    shown = dm(me, "show")
    assert f"{me.name} (you)" in shown and "Seat 0" not in shown and "Field:" in shown  # names, not seat numbers
