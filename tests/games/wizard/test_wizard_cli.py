"""Wizard Duel end to end by files through the CLI: four homes, one outbox folder, bots deciding, automatic
key shares on receipt, and the demo."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from duelmail.cli import main

runner = CliRunner()
NAMES = ["alice", "bob", "carol", "dave"]


def dm(home: Path, *args: str, code: int = 0) -> str:
    result = runner.invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


class Table:
    """Four players, each with a home; every file written goes to the other three homes' inboxes."""

    def __init__(self, tmp: Path, *options: str):
        self.homes = [tmp / n for n in NAMES]
        self.out = tmp / "outbox"
        for home, name in zip(self.homes, NAMES, strict=True):
            dm(home, "id", "new", name, "--email", f"{name}@example.org")
            if name != "alice":
                (tmp / f"{name}-card.toml").write_text(dm(home, "id", "card"))
        extra = [x for o in options for x in ("--option", o)]
        seats = ["--seat", "alice"] + [x for n in NAMES[1:] for x in ("--seat", str(tmp / f"{n}-card.toml"))]
        dm(self.homes[0], "new", "wizard", *seats, "--out", str(self.out), *extra)
        self.inbox: dict[Path, list[Path]] = {h: [] for h in self.homes}
        for home in self.homes[1:]:
            self.written(home, lambda h=home: dm(h, "join", str(self.out / "genesis.toml"), "--out", str(self.out)))

    def written(self, home: Path, run) -> str:
        before = set(self.out.iterdir())
        text = run()
        for f in sorted(set(self.out.iterdir()) - before):
            for other in self.homes:
                if other != home:
                    self.inbox[other].append(f)
        return text

    def settle(self) -> None:
        for _ in range(12):
            for home in self.homes:
                if self.inbox[home]:
                    files, self.inbox[home] = self.inbox[home], []
                    self.written(home, lambda h=home, fs=files: dm(h, "receive", *map(str, fs), "--out",
                                                                   str(self.out)))
            if not any(self.inbox.values()):
                return

    def status(self, home: Path) -> dict:
        return json.loads(dm(home, "status", "--json"))


def test_four_homes_play_a_whole_game_by_files(tmp_path):
    """Z-5, Z-20, Z-28: four homes join, draw, decide in turn and answer key shares on receipt, concurrently;
    every home folds the same files and agrees on who is awaited; the game ends, every seat publishes its seed
    (a player put out publishes it at once, Z-19), and every home's archive verifies with the audit."""
    t = Table(tmp_path, "sudden-death")
    deciders = []
    for i in range(400):
        t.settle()
        st = t.status(t.homes[0])
        if st["over"] and st["audited"]:
            break
        todo = [s for s in st["awaited"] if not (t.out / f"r{st['round']:04d}-s{s}.toml").exists()]
        if i == 0:
            home = t.homes[int(todo[0])]
            view = dm(home, "show")
            assert "Wizard Duel, turn 1 (alice)" in view and "alice (you): 3 Lives" not in view
            moves = [m["move"] for m in json.loads(dm(home, "moves", "--json"))]
            assert moves[0] == "pass" and all(m == "pass" or m.startswith("attack ") for m in moves)
        for seat in todo:  # shares answer themselves on receipt: what is left is a decision
            home = t.homes[int(seat)]
            t.written(home, lambda h=home, n=i: dm(h, "play", "--bot", "heuristic", "--seed", str(n), "--out",
                                                   str(t.out)))
            deciders.append(int(seat))
        if len(set(deciders)) < 4:  # the opening turns: every home agrees on who is awaited
            t.settle()
            states = [t.status(h) for h in t.homes]
            assert len({json.dumps(s["awaited"], sort_keys=True) for s in states}) == 1
    assert st["over"] and st["audited"] and st["audit_ok"] and "won" in st["result"]
    assert sorted(set(deciders)) == [0, 1, 2, 3]
    shares = [f for f in t.out.glob("r*.toml") if "actions = []" in f.read_text()]
    rounds = {f.name.split("-")[0] for f in shares}
    assert any(sum(f.name.startswith(r) for f in shares) >= 2 for r in rounds)  # several homes, one round
    names = sorted(p.name for p in next((t.homes[0] / "games").iterdir()).glob("[gr]*.toml"))
    for home in t.homes:
        assert sorted(p.name for p in next((home / "games").iterdir()).glob("[gr]*.toml")) == names
        assert t.status(home)["result"] == st["result"]
        out = dm(tmp_path, "verify", str(next((home / "games").iterdir())))
        assert "audit: PASSED" in out and "VERIFIED" in out and "NOT VERIFIED" not in out


def test_demo_wizard_with_four_players(tmp_path):
    """Z-20: four bots in four homes play a whole game by real files through a mailbox; it verifies with the audit."""
    result = runner.invoke(main, ["demo", "wizard", "--players", "4", "--seed", "1", "--option", "sudden-death",
                                  "--out", str(tmp_path / "demo"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "demo: 4 bots play Wizard Duel" in result.output and "audit: PASSED" in result.output
    assert "VERIFIED" in result.output


def test_a_player_who_resigns_leaves_and_the_other_three_play_on(tmp_path):
    """Z-29, protocol 5a and 6c: dave resigns in a game of four; the other homes publish their escrow shares of
    him on receipt, he leaves, and the game goes on for three (a second resignation from him is refused)."""
    t = Table(tmp_path)
    for i in range(60):  # a few turns first: every deck locked, every escrow dealt
        t.settle()
        st = t.status(t.homes[0])
        if st["round"] > 12:
            break
        for seat in [s for s in st["awaited"] if not (t.out / f"r{st['round']:04d}-s{s}.toml").exists()]:
            home = t.homes[int(seat)]
            t.written(home, lambda h=home, n=i: dm(h, "play", "--bot", "heuristic", "--seed", str(n), "--out",
                                                   str(t.out)))
    out = t.written(t.homes[3], lambda: dm(t.homes[3], "resign", "--say", "bye all", "--out", str(t.out)))
    assert "dave resigns: the others publish their escrow shares of dave, who then leaves the game" in out
    t.settle()
    states = [t.status(h) for h in t.homes]
    assert not any(s["over"] for s in states)
    assert len({(s["round"], json.dumps(s["awaited"], sort_keys=True)) for s in states}) == 1
    assert "3" not in states[0]["awaited"]
    history = dm(t.homes[0], "history")
    assert "dave left the game" in history and "bye all" in history
    refused = dm(t.homes[3], "resign", code=1)
    assert "dave has left it" in refused and "Traceback" not in refused
    # a game begun by `duelmail new` re-shares (protocol 6c, "Threshold"): each of the three re-deals its escrowed
    # keys among the other two in its next file, checked by their homes on arrival
    for i in range(30):
        history = dm(t.homes[0], "history", "--protocol")  # protocol bookkeeping: not in the players' history
        if all(f"{n} re-dealt its escrow" in history for n in NAMES[:3]):
            break
        st = t.status(t.homes[0])
        for seat in [s for s in st["awaited"] if not (t.out / f"r{st['round']:04d}-s{s}.toml").exists()]:
            home = t.homes[int(seat)]
            t.written(home, lambda h=home, n=i: dm(h, "play", "--bot", "heuristic", "--seed", str(n), "--out",
                                                   str(t.out)))
        t.settle()
    assert all(f"{n} re-dealt its escrow" in history and "among seats" in history for n in NAMES[:3]), history
    assert not any(t.status(h)["over"] for h in t.homes[:3])
