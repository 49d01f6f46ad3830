"""Summoner end to end by files through the CLI: two homes, an outbox folder, bots deciding, a human refusal."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from duelmail.cli import main

runner = CliRunner()


def dm(home: Path, *args: str, code: int = 0) -> str:
    result = runner.invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def snapshot(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*"))
            if p.is_file() and p.name != ".status.json"}


class Table:
    """Alice (seat 0) and Bob (seat 1), each with a home; files pass through an outbox folder."""

    def __init__(self, tmp: Path, *options: str):
        self.tmp = tmp
        self.alice, self.bob, self.out = tmp / "alice", tmp / "bob", tmp / "outbox"
        dm(self.alice, "id", "new", "alice", "--email", "alice@example.org")
        dm(self.bob, "id", "new", "bob", "--email", "bob@example.org")
        (tmp / "bob-card.toml").write_text(dm(self.bob, "id", "card"))
        extra = [x for o in options for x in ("--option", o)]
        dm(self.alice, "new", "summoner", "--seat", "alice", "--seat", str(tmp / "bob-card.toml"),
           "--out", str(self.out), *extra)
        dm(self.bob, "join", str(self.out / "genesis.toml"), "--out", str(self.out))
        self.inbox = {self.alice: [self.out / "r0001-s1.toml"], self.bob: []}

    def other(self, home):
        return self.bob if home == self.alice else self.alice

    def home(self, seat: str) -> Path:
        return self.alice if seat == "0" else self.bob

    def status(self, home) -> dict:
        return json.loads(dm(home, "status", "--json"))

    def deliver(self, home) -> None:
        """``home`` receives what waits for it; any automatic answer goes to the other home."""
        before = set(self.out.iterdir())
        if self.inbox[home]:
            dm(home, "receive", *map(str, self.inbox[home]), "--out", str(self.out))
            self.inbox[home] = []
        self.inbox[self.other(home)] += sorted(set(self.out.iterdir()) - before)

    def turn(self, home, *args: str) -> str:
        before = set(self.out.iterdir())
        out = dm(home, "play", *args, "--out", str(self.out))
        self.inbox[self.other(home)] += sorted(set(self.out.iterdir()) - before)
        return out

    def settle(self) -> None:
        for _ in range(6):
            for home in (self.alice, self.bob):
                self.deliver(home)
            if not any(self.inbox.values()):
                return

    def play_turns(self, count: int) -> None:
        for i in range(count):
            self.settle()
            st = self.status(self.alice)
            if st["over"]:
                return
            for s in st["awaited"]:
                self.turn(self.home(s), "--bot", "heuristic", "--seed", str(i))
        self.settle()


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
    """S-9 and S-20 refused through 'duelmail play'; nothing is written; a legal move from 'moves' is accepted."""
    t = Table(tmp_path)
    t.settle()
    st = t.status(t.alice)
    assert list(st["awaited"]) == ["0"]
    moves = json.loads(dm(t.alice, "moves", "--json"))
    summons = [m["move"] for m in moves if m["move"].startswith("summon")]
    assert summons and any(m["move"] == "end" for m in moves)
    assert "=" in summons[0] and summons[0] == summons[0].lower()  # the claimed face stays as written
    before = snapshot(t.alice)
    out = dm(t.alice, "play", "counter s#0=xr", code=1)
    assert "(rule S-20)" in out and "counter s#0=xr" in out
    out = dm(t.alice, "play", "summon s#0=ac", "summon s#1=ad", code=1)  # 28 is more than 14, whatever they are
    assert "(rule S-9)" in out and "summoned 14 of 14" in out
    assert snapshot(t.alice) == before
    t.turn(t.alice, summons[0], "end")
    t.settle()
    st = t.status(t.bob)
    assert list(st["awaited"]) == ["1"] and "summon" in st["awaited"]["1"]["what"]
    shown = dm(t.alice, "show")
    assert "Seat 0 (you)" in shown and "Field:" in shown
