"""Two homes playing by real mail: every file goes by SMTP into a mailbox and is fetched by IMAP."""

from __future__ import annotations

import itertools
import json
import os
import time
from pathlib import Path

from clitable import dm

_tags = itertools.count()


def mail_setup(home: Path, servers, user: str, *extra: str) -> None:
    dm(home, "mail", "setup", "--smtp-host", "127.0.0.1", "--smtp-port", str(servers.smtp_port),
       "--smtp-security", "plain", "--smtp-user", "", "--imap-host", "127.0.0.1", "--imap-port",
       str(servers.imap_port), "--imap-security", "plain", "--imap-user", user, *extra)


class MailTable:
    """Alice and Bob with homes, identities and mailboxes of their own; ``sent`` counts each inbox's mail."""

    def __init__(self, tmp: Path, servers, names=("alice", "bob")):
        self.tmp, self.servers = tmp, servers
        tag = f"{os.getpid()}x{next(_tags)}"
        self.homes = [tmp / n for n in names]
        self.users = [f"{n}-{tag}" for n in names]
        self.sent = {u: 0 for u in self.users}
        self.read = {u: 0 for u in self.users}
        self.timings: list[float] = []
        for home, name, user in zip(self.homes, names, self.users, strict=True):
            addr = servers.account(user)
            dm(home, "id", "new", name, "--email", addr)
            mail_setup(home, servers, user)
            (tmp / f"{name}-card.toml").write_text(dm(home, "id", "card"))

    def user(self, home: Path) -> str:
        return self.users[self.homes.index(home)]

    def others(self, home: Path) -> list[str]:
        return [u for h, u in zip(self.homes, self.users, strict=True) if h != home]

    def status(self, home: Path) -> dict:
        return json.loads(dm(home, "status", "--json"))

    def note_sent(self, home: Path, out: str) -> None:
        for line in out.splitlines():
            if line.startswith("mailed round"):
                for u in self.others(home):
                    self.sent[u] += 1

    def fetch(self, home: Path, code: int = 0) -> str:
        me = self.user(home)
        self.servers.wait_for(me, self.sent[me])
        self.read[me] = self.sent[me]
        out = dm(home, "mail", "fetch", code=code)
        self.note_sent(home, out)
        return out

    def start(self, game: str = "summoner", *options: str) -> None:
        alice, bob = self.homes
        opts = [x for o in options for x in ("--option", o)]
        dm(alice, "new", game, "--seat", "alice", "--seat", str(self.tmp / "bob-card.toml"), *opts)
        self.note_sent(alice, dm(alice, "mail", "send"))
        out = self.fetch(bob)
        assert "a new game" in out and "duelmail join" in out, out
        genesis = next((bob / "games").iterdir()) / "genesis.toml"
        self.note_sent(bob, dm(bob, "join", str(genesis), "--send"))

    def play(self, limit: int = 200) -> None:
        """Fetch and play (bots decide) until the game is over and audited in both homes."""
        for i in range(limit):
            for home in self.homes:
                if self.read[self.user(home)] < self.sent[self.user(home)]:
                    self.fetch(home)
                st = self.status(home)
                if st["your_turn"]:
                    t0 = time.perf_counter()
                    out = dm(home, "play", "--bot", "heuristic", "--seed", str(i), "--send")
                    self.note_sent(home, out)
                    other = self.homes[1 - self.homes.index(home)]
                    self.fetch(other)
                    self.timings.append(time.perf_counter() - t0)
            if all(self.status(h)["audited"] for h in self.homes) and self.read == self.sent:
                return
        raise AssertionError(f"the game did not end: {[self.status(h) for h in self.homes]}")
