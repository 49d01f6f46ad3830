"""Escrow in real games (issue 19, docs/protocol.md section 6c): what it adds to a set-up, and a removal.

    python bench/bench_escrow_engine.py [seats ...]

For Wizard Duel with 3, 4, 6 and 8 seats (default; one shared deck of 52, locked by every seat), played by
bots through ``SelfPlay`` (each seat its own ``Match``, checking every file it receives), with and without
escrow (``escrow = {off = true}``): the bytes of the set-up's turn files as written (TOML, until every deck
is locked), and the CPU per seat of the set-up (composing its own files and checking everyone's; the
process's CPU divided by the seats). Then, in a game played on (seed 1) until a seat owes key shares and can
be removed, a timeout claim against it, and the removal round: the CPU one home spends checking the
published shares, reconstructing the removed seat's keys and removing it (applying the round's files),
beside what it spent on the round before. CPU is ``time.process_time``, wall time beside it.
"""

from __future__ import annotations

import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay

GAME = "wizard"
SEATS = (3, 4, 6, 8)


def setup(m: int, escrow: dict | None) -> tuple[int, int, float, float]:
    """(files, bytes, CPU seconds per seat, wall seconds per seat) of the set-up: until every deck is locked."""
    cpu, wall = time.process_time(), time.perf_counter()
    sp = SelfPlay(GAME, m, seed=1, escrow=escrow)
    sp.run(until=lambda x: all(d.locked for d in x.book.decks.values()))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    files = sp.files[1:]
    return len(files), sum(len(f.to_toml().encode()) for f in files), cpu / m, wall / m


def removal(m: int) -> None:
    sp = SelfPlay(GAME, m, seed=1)
    home = sp.matches[0]
    for _ in range(3000):
        x = sp.match
        s = next((s for s, d in x.duties.items() if s != 0 and not d.decide and not d.join and x.round > 2 * m
                  and x.removable(s)), None)
        if s is not None:
            break
        sp.step()
    else:
        raise SystemExit(f"no removable seat in a game of {m}")
    x = sp.match
    sp.clock = max(sp.clock, x.deadline(s)) + timedelta(minutes=1)
    sp.deliver(SignedFile.sign({"duelmail": 1, "kind": "claim", "game": x.game_ref, "round": x.round,
                                "prev": x.prev, "seat": 0, "time": sp.clock.isoformat(), "against": s}, sp.ids[0]))
    files = [sp.compose(h) for h in sorted(x.duties)]  # the removal round: every holder's escrow shares
    others = [sp.matches[h] for h in range(m) if h != 0]
    cpu, wall = time.process_time(), time.perf_counter()
    for f in files:
        home.apply(f, f"r{f.round:04d}-s{f.seat}.toml")
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    for f in files:
        for o in others:
            o.apply(f, f"r{f.round:04d}-s{f.seat}.toml")
        sp.files.append(f)
    assert s in home.removed, "the removal did not happen"
    size = sum(len(f.to_toml().encode()) for f in files)
    print(f"  removal of seat {s} in round {files[0].round}: {len(files)} files of escrow shares, {size} bytes; "
          f"one home checks, reconstructs and removes in {1000 * cpu:.1f} ms CPU ({1000 * wall:.1f} wall)")


def main() -> None:
    seats = [int(a) for a in sys.argv[1:]] or list(SEATS)
    print(f"python {sys.version.split()[0]}")
    setup(3, {"off": True})  # warm-up: imports, card tables (not counted)
    for m in seats:
        off = setup(m, {"off": True})
        on = setup(m, None)
        print(f"{GAME}, {m} seats, set-up (every deck locked):")
        print(f"  without escrow: {off[0]} files, {off[1]} bytes; per seat {1000 * off[2]:.0f} ms CPU "
              f"({1000 * off[3]:.0f} wall)")
        print(f"  with escrow:    {on[0]} files, {on[1]} bytes (+{on[1] - off[1]}, +{(on[1] - off[1]) // m} per seat); "
              f"per seat {1000 * on[2]:.0f} ms CPU ({1000 * on[3]:.0f} wall), +{1000 * (on[2] - off[2]):.0f} ms")
        removal(m)


if __name__ == "__main__":
    main()
