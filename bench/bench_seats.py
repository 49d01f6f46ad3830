"""What a ninth and a twelfth seat cost in Warlords and Wizard Duel (issue 41; docs/benchmarks.md).

    python bench/bench_seats.py [rounds] [seats ...]

For each game and each number of seats (default 8, 9 and 12), one process plays every seat with the heuristic
bots (``SelfPlay(..., shared=True)``), with escrow on (the default from three seats):

- set-up: until every deck is locked; its files, bytes (TOML as written), the bytes of the escrow in them
  (``escrow`` and ``escrow_key``: each seat's dealing of its keys to every other, protocol 6c), the CPU of
  writing them all, and the CPU of one home's check of them all (``SelfPlay.fresh``: a receiver's fold);
- play: the next ``rounds`` rounds (default 40); files and bytes per round and per turn (a turn: one seat's
  draw and decisions, ``state.turn``).

Each figure is also given per seat. CPU is ``time.process_time`` (this process only), wall time beside it.
"""

from __future__ import annotations

import copy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duelmail.testing.selfplay import SelfPlay

GAMES = ("warlords", "wizard")
SEATS = (8, 9, 12)
ESCROW = ("escrow", "escrow_key")


def size(f) -> int:
    return len(f.to_toml().encode())


def escrow_bytes(f) -> int:
    """The bytes ``f``'s escrow fields add to it as written."""
    if not any(k in f.content for k in ESCROW):
        return 0
    whole = copy.copy(f)
    whole.__dict__.pop("_source", None)
    bare = copy.copy(whole)
    object.__setattr__(bare, "content", {k: v for k, v in f.content.items() if k not in ESCROW})
    return size(whole) - size(bare)


def measure(game: str, n: int, rounds: int) -> dict:
    cpu, wall = time.process_time(), time.perf_counter()
    sp = SelfPlay(game, n, seed=n, shared=True)
    sp.run(until=lambda m: all(d.locked for d in m.book.decks.values()))
    out = {"setup_cpu": time.process_time() - cpu, "setup_wall": time.perf_counter() - wall}
    setup = sp.files[1:]
    out["setup_files"], out["setup_bytes"] = len(setup), sum(map(size, setup))
    out["escrow_bytes"] = sum(map(escrow_bytes, setup))
    cpu = time.process_time()
    sp.fresh()
    out["check_cpu"] = time.process_time() - cpu
    r0, f0, t0 = sp.match.round, len(sp.files), sp.match.state.turn
    sp.run(until=lambda m: m.finished or m.round >= r0 + rounds)
    play = sp.files[f0:]
    out["rounds"], out["turns"] = sp.match.round - r0, max(1, sp.match.state.turn - t0)
    out["play_files"], out["play_bytes"] = len(play), sum(map(size, play))
    out["finished"] = sp.match.finished
    return out


def main() -> None:
    args = [int(a) for a in sys.argv[1:]]
    rounds = args[0] if args else 40
    seats = tuple(args[1:]) or SEATS
    for game in GAMES:
        for n in seats:
            x = measure(game, n, rounds)
            print(f"{game} {n:2} seats: set-up {x['setup_files']} files, {x['setup_bytes'] / 1e3:.0f} KB "
                  f"({x['setup_bytes'] / n / 1e3:.1f} KB a seat), escrow {x['escrow_bytes'] / 1e3:.0f} KB "
                  f"({x['escrow_bytes'] / n / 1e3:.1f} KB a seat); writing it {x['setup_cpu']:.1f} s CPU "
                  f"({x['setup_wall']:.1f} wall), one home's check {x['check_cpu']:.1f} s CPU "
                  f"({x['check_cpu'] / n * 1e3:.0f} ms a seat)")
            print(f"    play: {x['rounds']} rounds, {x['turns']} turns{' (game over)' if x['finished'] else ''}: "
                  f"{x['play_files'] / x['rounds']:.2f} files a round, {x['play_files'] / x['turns']:.2f} a turn "
                  f"({x['play_files'] / x['turns'] / n:.2f} a turn a seat), "
                  f"{x['play_bytes'] / x['turns'] / 1e3:.1f} KB a turn", flush=True)


if __name__ == "__main__":
    main()
