"""Several real homes playing one game by files through the ``duelmail`` command, as people who mail each other
attachments do: each home writes into its own outbox, and ``deliver`` hands a home what the others wrote that it
has not had yet (or only some of it, as an attacker or slow mail would). Time is whatever freezegun says."""

from __future__ import annotations

import json
from pathlib import Path

from clitable import runner

from duelmail.cli import main
from duelmail.home import Home

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


def run(home: Path, *args: str) -> tuple[int, str]:
    """``duelmail --home HOME ARGS``: its exit code and output (a refusal is an answer here, not a failure)."""
    result = runner.invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def dm(home: Path, *args: str) -> str:
    code, out = run(home, *args)
    assert code == 0, out
    return out


class Homes:
    """``n`` players (``alice``, ``bob``, ...), each with a home and an outbox; ``game`` with ``options``."""

    def __init__(self, tmp: Path, game: str, n: int, *options: str, extra: tuple[str, ...] = ()):
        self.tmp = tmp
        self.names = NAMES[:n]
        self.home = {name: tmp / name for name in self.names}
        self.out = {name: tmp / f"out-{name}" for name in self.names}
        self.had: dict[str, set[tuple[Path, int]]] = {name: set() for name in self.names}  # (file, its mtime)
        for name in self.names:
            dm(self.home[name], "id", "new", name, "--email", f"{name}@example.org")
            (tmp / f"{name}.card").write_text(dm(self.home[name], "id", "card"))
            self.out[name].mkdir()
        seats = [x for name in self.names for x in ("--seat", name if name == "alice" else str(tmp / f"{name}.card"))]
        dm(self.home["alice"], "new", game, *seats, "--out", str(self.out["alice"]),
           *(x for o in options for x in ("--option", o)), *extra)
        genesis = self.out["alice"] / "genesis.toml"
        for name in self.names[1:]:
            dm(self.home[name], "join", str(genesis), "--out", str(self.out[name]))
            self.had[name].add(self.key(genesis))

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def identity(self, name: str):
        return Home(self.home[name]).load_identity(None)

    @staticmethod
    def key(p: Path) -> tuple[Path, int]:
        """A file as a mailbox sees it: written again (a file sent again) is a new message."""
        return p, p.stat().st_mtime_ns

    def keep_from(self, to: str, files) -> None:
        """``to`` never gets these files (an attacker keeps them out of its home, or the mail lost them)."""
        self.had[to] |= {self.key(p) for p in files}

    def new_files(self, to: str, senders=None) -> list[Path]:
        """What the other homes wrote that ``to`` has not had (from ``senders`` only, if given)."""
        out = []
        for name in senders or self.names:
            if name == to:
                continue
            out += [p for p in sorted(self.out[name].glob("*.toml"), key=lambda p: (p.stat().st_mtime_ns, p.name))
                    if self.key(p) not in self.had[to]]
        return out

    def deliver(self, to: str, senders=None, files: list[Path] | None = None) -> tuple[int, str]:
        """``to`` receives what waits for it (or ``files``); its answers go to its outbox."""
        files = self.new_files(to, senders) if files is None else files
        if not files:
            return 0, ""
        self.keep_from(to, files)
        return run(self.home[to], "receive", *map(str, files), "--out", str(self.out[to]))

    def settle(self, to=None, rounds: int = 8) -> None:
        """Every home in ``to`` (all) receives what waits for it, until nothing new comes."""
        to = to or self.names
        for _ in range(rounds):
            moved = False
            for name in to:
                if self.new_files(name):
                    self.deliver(name)
                    moved = True
            if not moved:
                return

    def status(self, name: str) -> dict:
        return json.loads(dm(self.home[name], "status", "--json"))

    def play(self, name: str, *args: str) -> tuple[int, str]:
        return run(self.home[name], "play", *args, "--out", str(self.out[name]))

    def mine(self, name: str, before: set[Path]) -> list[Path]:
        """The files ``name``'s home wrote since ``before`` (a set of its outbox's files)."""
        return sorted(set(self.out[name].glob("*.toml")) - before)

    def result(self, name: str) -> str | None:
        return self.status(name)["result"]
