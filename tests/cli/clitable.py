"""Two homes playing by files through the CLI: the helpers the CLI, crash and adversary tests share."""

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
    """Every file of a home but its caches (the game caches, the index of games and what syncs looked at)."""
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*"))
            if p.is_file() and p.relative_to(home).parts[0] != "index"
            and p.name not in (".status.json", ".show.json", ".over", ".lock", ".kept", "kept.key", ".settled")
            and not (p.parent.name == "mail" and p.name.startswith("seen-"))}  # what a fetch looked at: a cache


class Table:
    """Alice (seat 0) and Bob (seat 1), each with a home; files pass through an outbox folder like attachments.

    ``game`` and ``options`` (``name=value``) go into the genesis Alice writes."""

    game = "warlords"
    time: tuple[str, ...] = ()  # ``duelmail new --time KEY=N`` (e.g. the delivery rule of games begun before)

    def __init__(self, tmp: Path, *options: str):
        self.tmp = tmp
        self.alice, self.bob, self.out = tmp / "alice", tmp / "bob", tmp / "outbox"
        dm(self.alice, "id", "new", "alice", "--email", "alice@example.org")
        dm(self.bob, "id", "new", "bob", "--email", "bob@example.org")
        (tmp / "bob-card.toml").write_text(dm(self.bob, "id", "card"))
        extra = [x for o in options for x in ("--option", o)]
        extra += [x for t in self.time for x in ("--time", t)]
        dm(self.alice, "new", self.game, "--seat", "alice", "--seat", str(tmp / "bob-card.toml"),
           "--out", str(self.out), *extra)
        dm(self.bob, "join", str(self.out / "genesis.toml"), "--out", str(self.out))
        self.inbox = {self.alice: [self.out / "r0001-s1.toml"], self.bob: []}

    def other(self, home):
        return self.bob if home == self.alice else self.alice

    def home(self, seat: str) -> Path:
        return self.alice if seat == "0" else self.bob

    def status(self, home) -> dict:
        return json.loads(dm(home, "status", "--json"))

    def todo(self, st: dict) -> list[str]:
        """Seats awaited in the open round that have not sent their file yet (a round may await several)."""
        return [s for s in st["awaited"] if not (self.out / f"r{st['round']:04d}-s{s}.toml").exists()]

    def deliver(self, home) -> None:
        """``home`` receives what waits for it; any automatic answer goes to the other home."""
        before = set(self.out.iterdir())
        if self.inbox[home]:
            dm(home, "receive", *map(str, self.inbox[home]), "--out", str(self.out))
            self.inbox[home] = []
        self.inbox[self.other(home)] += sorted(set(self.out.iterdir()) - before)

    def turn(self, home, *args: str) -> str:
        """``duelmail play ARGS`` in ``home``; the new file goes to the other home."""
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
            for s in self.todo(st):
                self.turn(self.home(s), "--bot", "heuristic", "--seed", str(i))
        self.settle()


class DeliveryTable(Table):
    """A table whose game keeps the delivery rule of games begun before the last call (protocol section 6b)."""

    time = ("delivery_hours=12",)


def assert_views_fresh(home: Path, name: str) -> None:
    """Every game of ``home`` has a fresh status cache, and a show cache that holds what a folded ``show`` prints
    (``show --as NAME``, never cached), so the next ``status`` and ``show`` fold nothing."""
    from duelmail.cli.cached import _cached_show, _cached_status, _show_key
    from duelmail.home import Home

    h = Home(home)
    for folder in h.game_folders():
        seat = h.me(folder).get("seat")
        assert _cached_status(folder, seat) is not None, f"{folder.path}: status cache stale"
        if seat is not None:
            shown = dm(home, "--as", name, "show", folder.path.name)
            assert _cached_show(folder, _show_key(h, folder)) == shown, f"{folder.path}: show cache stale"
