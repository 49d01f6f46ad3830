"""Mail transport round trip: from 'duelmail play --send' to the opponent's state updated by 'mail fetch',
per turn, through real servers on loopback (OpenSMTPD relaying into Dovecot, read back by IMAP).

Each decision is timed in three parts: play (compose, sign, apply, store) and SMTP send; delivery
(waiting until the message is in the opponent's IMAP inbox); fetch (IMAP read, verify, apply,
and any decision-free answer mailed back). Whole Summoner games (life 3) between two homes, heuristic
bots deciding; medians over every decision of every game. Needs root and Debian's dovecot-imapd,
dovecot-lmtpd and opensmtpd (the test fixtures' servers). Usage: python bench/bench_mail.py [GAMES]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import common  # noqa: F401

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "transport"))

from servers import PASSWORD, MailServers  # noqa: E402


def run(home: Path, *args: str) -> str:
    from click.testing import CliRunner

    from duelmail.cli import main

    res = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    if res.exit_code != 0:
        raise SystemExit(f"duelmail {' '.join(args)} failed: {res.output}")
    return res.output


def one_game(servers: MailServers, tmp: Path, n: int) -> list[tuple[float, float, float]]:
    names = ["alice", "bob"]
    users = [f"bench{n}-{name}" for name in names]
    homes = [tmp / f"{n}-{name}" for name in names]
    for home, name, user in zip(homes, names, users, strict=True):
        run(home, "id", "new", name, "--email", servers.account(user))
        run(home, "mail", "setup", "--smtp-host", "127.0.0.1", "--smtp-port", str(servers.smtp_port),
            "--smtp-security", "plain", "--smtp-user", "", "--imap-host", "127.0.0.1", "--imap-port",
            str(servers.imap_port), "--imap-security", "plain", "--imap-user", user)
    (tmp / f"{n}-bob-card.toml").write_text(run(homes[1], "id", "card"))
    sent = {u: 0 for u in users}
    read = {u: 0 for u in users}

    def note(i: int, out: str) -> None:
        sent[users[1 - i]] += out.count("mailed round")

    def fetch(i: int) -> None:
        servers.wait_for(users[i], sent[users[i]], deadline=60)
        read[users[i]] = sent[users[i]]
        note(i, run(homes[i], "mail", "fetch"))

    run(homes[0], "new", "summoner", "--seat", "alice", "--seat", str(tmp / f"{n}-bob-card.toml"),
        "--option", "life=3")
    note(0, run(homes[0], "mail", "send"))
    fetch(1)
    run(homes[1], "join", str(next((homes[1] / "games").iterdir()) / "genesis.toml"))
    note(1, run(homes[1], "mail", "send"))
    fetch(0)
    timings = []
    for i in range(200):
        for me in (0, 1):
            if read[users[me]] < sent[users[me]]:
                fetch(me)
        if all(json.loads(run(h, "status", "--json"))["audited"] for h in homes):
            return timings
        for me in (0, 1):
            if not json.loads(run(homes[me], "status", "--json"))["your_turn"]:
                continue
            t0 = time.perf_counter()
            note(me, run(homes[me], "play", "--bot", "heuristic", "--seed", str(i), "--send"))
            t1 = time.perf_counter()
            servers.wait_for(users[1 - me], sent[users[1 - me]], deadline=60)
            t2 = time.perf_counter()
            fetch(1 - me)
            t3 = time.perf_counter()
            timings.append((t1 - t0, t2 - t1, t3 - t2))
    raise SystemExit("the game did not end")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    os.environ["DUELMAIL_MAIL_PASSWORD"] = PASSWORD
    servers = MailServers().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            rows = []
            for n in range(games):
                rows += one_game(servers, Path(tmp), n)
    finally:
        servers.stop()
    total = [sum(r) for r in rows]
    med = statistics.median
    print(f"mail round trip, play --send to the opponent's state updated by fetch: {len(rows)} decisions "
          f"in {games} Summoner games (life 3) through OpenSMTPD -> Dovecot LMTP -> IMAP on loopback")
    print(f"  median {med(total) * 1000:.0f} ms per turn (min {min(total) * 1000:.0f}, "
          f"max {max(total) * 1000:.0f})")
    print(f"  of which: play and SMTP send {med(r[0] for r in rows) * 1000:.0f} ms, delivery into the mailbox "
          f"{med(r[1] for r in rows) * 1000:.0f} ms, IMAP fetch, verify and apply "
          f"{med(r[2] for r in rows) * 1000:.0f} ms (medians)")


if __name__ == "__main__":
    main()
