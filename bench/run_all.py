"""Run every benchmark and write their whole output to docs/benchmarks-run.md: python bench/run_all.py [--quick]

docs/benchmarks.md, the reference, takes its tables from such a run (and from the single benchmarks it names);
its earlier figures are in docs/benchmarks-history.md.

--quick plays 100 games instead of 500 for the messages-per-decision and bot figures.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).parent
_load = ""
ROOT = HERE.parent


def run(args: list[str]) -> str:
    out = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def main() -> None:
    global _load
    _load = f"{os.getloadavg()[0]:.2f}"
    games = "100" if "--quick" in sys.argv else "500"
    sections = [
        ("Messages per decision (target: at most 1.3)", ["bench/bench_messages.py", games, "2"], MESSAGES),
        ("Files a decision costs in play, each game, against the least the rules allow (issue 39)",
         ["bench/bench_files_per_decision.py", "10"], ""),
        ("Deck set-up and primitives (target: set-up of two 54-card decks, two players, under 50 ms)",
         ["bench/bench_crypto.py"], CRYPTO),
        ("Proofs on every pass (targets: 52 cards, two players, at most 150 ms CPU per player; four players "
         "at most 400 ms; one key share checked in at most 1 ms)", ["bench/bench_proofs.py"], PROOFS),
        ("Escrow: what a seat adds to the set-up, and a removal (issue 19; primitives only)",
         ["bench/bench_escrow.py"], ESCROW),
        ("Whole game log, proofs included (target: at most 100 KB for two-player Warlords)",
         ["bench/bench_logsize.py", "20"], ""),
        ("One draw", ["bench/bench_draw.py"], ""),
        ("Fold and verify (target: 300 files under 0.5 s; four times the files under 4.5 times the time)",
         ["bench/bench_fold.py"], FOLD),
        ("`duelmail status` from a cold process (target: under 250 ms) and file sizes (target: median under 3 KB)",
         ["bench/bench_cli.py"], CLI),
        ("One command in a cold process, CPU beside wall (issue 18: receive at most 80 ms at every round, flat within "
         "10%; play at most 100 ms plus its proofs; status and show at most 50 ms; watch --once over 100 games at "
         "most 1 s)", ["bench/bench_commands.py", "3"], ""),
        ("Bots (target: heuristic beats random in at least 70% of 500 games)",
         ["bench/bench_warlords_bots.py", games], ""),
        ("Summoner: messages per decision and bots", ["bench/bench_summoner.py", games], ""),
        ("Grid Duel: deck balance (target: every pairing 40-60%) and messages per decision",
         ["bench/bench_grid.py", "--games", "200" if "--quick" in sys.argv else "1000",
          "--messages", "100" if "--quick" in sys.argv else "500"], ""),
        ("DUEL skirmish: messages per decision, bots, time per game", ["bench/bench_skirmish.py",
                                                                        "100" if "--quick" in sys.argv else "300"], ""),
        ("DUEL skirmish: the cost of sealed choices of a fixed size (issue 14)", ["bench/bench_sealed.py", "3"], ""),
        ("Wizard Duel: messages per decision with 3, 4 and 6 players, and bots",
         ["bench/bench_wizard.py", "30" if "--quick" in sys.argv else "300"], ""),
        ("The honest-slip check: what the sender pays", ["bench/bench_honest.py", "2"], HONEST),
        ("Table talk: what notes cost to fold (protocol section 5a)", ["bench/bench_talk.py", "1000"], ""),
        ("Replay (target: a 1,000-round archive to HTML in under 2 s)", ["bench/bench_replay.py", "--cpu"], REPLAY),
        ("Fuzzing every door (target: 1,000,000 inputs, no exception but DuelmailError, none slower than 1 s)",
         ["bench/bench_fuzz.py", "100000" if "--quick" in sys.argv else "1000000"], FUZZ),
        ("Play by email: from `play --send` to the opponent's state updated by `mail fetch`, real local servers "
         "(needs root, Dovecot and OpenSMTPD)", ["bench/bench_mail.py", "2" if "--quick" in sys.argv else "3"], ""),
        ("Play by git: a sync with nothing new", ["bench/bench_git_sync.py", "9"], GIT_SYNC),
        ("A club's home and repository: git sync, watch --once and status --all against the number of games (issue 32)",
         ["bench/bench_club.py", "30", "1000", "--repeat", "3"], ""),
        ("How often a point is checked (issue 32)", ["bench/bench_points.py"], ""),
        ("A ninth and a twelfth seat: Warlords and Wizard Duel (issue 41)", ["bench/bench_seats.py", "40"], ""),
    ]
    parts = [HEAD.format(date=datetime.now(UTC).strftime("%Y-%m-%d"), python=platform.python_version(),
                         machine=f"{platform.machine()}, {_cores()} cores")]
    for title, args, note in sections:
        print(f"running {' '.join(args)} ...", flush=True)
        output = run(args)
        print(output, flush=True)
        block = f"## {title}\n\n`python {' '.join(args)}`\n\n```\n{output}\n```\n"
        parts.append(block + (f"\n{note}\n" if note else ""))
    parts[0] += f"\nLoad average at the start: {_load}; at the end: {os.getloadavg()[0]:.2f}.\n"
    (ROOT / "docs" / "benchmarks-run.md").write_text("\n".join(parts))
    print("wrote docs/benchmarks-run.md")


def _cores() -> int:
    import os

    return os.cpu_count() or 1


ESCROW = """The engine does not deal escrow yet (docs/protocol.md section 6c): these are the costs of the
primitives for the escrow key and one deck generation, with the default threshold (every other seat).
Bytes grow as `n·m` (commitments `32·(n+1)·(m-2)`, ciphertexts `32·(n+1)·(m-1)`); the check on
arrival as `n·m²` point multiplications (each of a holder's shares against `t` commitments, for `m-1`
dealers), a removal as `n·m` (one batch for every holder's published shares, `verify_published`).
Every deck generation a seat locks (a reshuffle too) pays its line again. A lowered threshold shrinks
the commitments and the checks in proportion to `t-1`. The benchmark sends the escrow key's share in
the same ciphertext as the deck's; as its own dealing (the engine plan) it adds `32·h` bytes."""


HEAD = """# Benchmarks

Latest figures, written by `python bench/run_all.py` (also `make bench`) on {date}: Python {python},
{machine}. Every figure is measured by the script named in its section; rerun it to check.
Performance is measured here, never asserted in tests.
"""

MESSAGES = """A *message* is one file one player sends; a *decision* is a file that carries a choice (the genesis,
an acceptance, or any file with a move). What remains above 1.0, per game of about 125 files:

- **Set-up passes** (2 files): the creator cannot shuffle in the genesis (the card points depend on the
  game id, the genesis's hash), so after the acceptance (which carries the first shuffle) one file
  shuffles-and-locks and one locks.
- **The battle's forced reveal** (about one file per battle): the defender's support choice carries its
  reveal, then the attacker must turn its cards face up, a file with no decision in it. It also carries
  the attacker's key for the defender's next draw (the reserved draw, W-29), so the defender's last-chance
  answer and its whole next turn travel in one file.
- **The audit seed** (one file per player but the last mover, whose final move carries its seed).

Everything else rides along: key shares for draws and reveals travel in the file the sender writes
anyway, and `receive` writes decision-free answers by itself.
"""

PROOFS = """LibTMCG's figure on a machine of this kind, for comparison: about 450 ms per player for
shuffle, proof and verification of 52 cards with two players (about 1.0 s with four), and about
118 KB of traffic for its one-deck two-player test. Our argument is logarithmic in size (a
Bulletproofs-style permutation argument using the deck itself as generators; docs/proofs.md).
"""

FUZZ = """The doors and their corpus are `duelmail/testing/fuzz.py`: the turn-file parser (`parse_any`) on files of a
game of each kind played by the engine, the armour decoder on their armour (also quoted with `> `), a genesis
parsed and opened as a `Match`, a player card, an identity file (no passphrase: scrypt's cost is capped
by n), a custom skirmish battlefield, and each game's notation followed by `apply` (and `check_sealed`
for a secret choice) on real states of such a game, for the seat awaited and another. Inputs are the
corpus, then seeded mutations (characters changed, TOML's special characters and the crash inputs of
issue 14 inserted, chunks cut, repeated up to 2,000 times, spliced). The slowest times are wall time per
input on a shared machine; CPU is the whole run's.
"""
HONEST = """Composing a file applies each of the sender's actions under the rules' audit of its own view (before and
after the action, once per file): about 2 ms of CPU a file in Warlords and 3 ms in Summoner, nothing a player
notices. The bot's own decisions are made outside the clock."""

REPLAY = """No real game reaches 1,000 rounds (decks bound a game's length), so the 1,000-round figure is
extrapolated from the longest real archives, linearly, as the fold is linear. The replay of an audited game
leaves the pass proofs to the audit, which recomputes every pass, key and layer commitment from the
published seeds ([replay.md](replay.md), "Speed"); a game in progress has every proof checked.
"""

CRYPTO = """The set-up covers deriving every secret, building the card table, all passes and key
commitments, and the receiver's check of every received point and commitment. Each pass is one
point multiplication per card with a combined scalar.
"""

FOLD = """No real Warlords game reaches 1,200 files: every turn draws a card, so a game's length is
bounded by its decks (six heuristic bots with both joker options give about 540). Linearity is
measured on prefixes of such a game, before its end-of-game audit; the audit (recomputing every
deck pass of six decks and their reshuffles) is reported on its own.
"""

CLI = """`status` keeps a cache of its answer keyed by the game's file listing (`.status.json`, only a
cache: deleting it loses nothing, as the second figure shows). `play` and `receive` refresh it.
"""
GIT_SYNC = """Most of it is starting git (16 commands, 10-20 ms each on this machine). Before issue 14's
hardening (commit 33bd1bb) the same sync took 141-156 ms wall, 10-12 ms CPU in duelmail and 30-40 ms
in git: reading every version of the history (one `git log --raw`) and checking, before and after the
rebase, that the repository holds each of the home's files under its name cost about 10 ms of CPU and
50-90 ms of wall time on a 127-file game."""

if __name__ == "__main__":
    main()
