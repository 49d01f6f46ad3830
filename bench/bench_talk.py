"""What table talk costs: notes' size, and folding a game with many of them: python bench/bench_talk.py [NOTES]

A two-player Warlords game is played by bots to its end; NOTES talk notes (alternating seats, said while
the first decision was awaited) are added to its files. Both archives are folded from scratch (every
signature, chain link and proof checked), and the difference is the cost of the notes.
"""

from __future__ import annotations

import statistics
import sys
import time

import common  # noqa: F401  (puts the project on the path)

from duelmail.testing.selfplay import SelfPlay
from duelmail.transport.archive import fold


def timed(fn, repeat: int = 3) -> tuple[float, float]:
    """Median wall and CPU seconds of ``fn()``."""
    wall, cpu = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    sp = SelfPlay("warlords", seed=11)
    sp.run(until=lambda m: any(d.decide for d in m.duties.values()))
    m = sp.match
    notes = []
    for i in range(n):
        seat = i % 2
        f = m.compose_note(seat, sp.ids[seat], sp.tick(), say=f"message {i}: " + "well played " * 3)
        m.apply(f, "note")
        notes.append(f)
    sp.run()
    files = [(f"f{i}", f) for i, f in enumerate(sp.files)]
    talk = files + [(f"n{i}", f) for i, f in enumerate(notes)]
    size = statistics.median(len(f.to_toml()) for f in notes)
    base_w, base_c = timed(lambda: fold(files))
    with_w, with_c = timed(lambda: fold(talk))
    folded = fold(talk)
    assert len(folded.talk) == n and folded.audit.ok
    print(f"game: {len(files)} files; with {n} notes of talk (median note {size:.0f} bytes)")
    print(f"fold without notes: {base_w:.2f} s wall, {base_c:.2f} s CPU")
    print(f"fold with notes:    {with_w:.2f} s wall, {with_c:.2f} s CPU")
    print(f"per note: {(with_w - base_w) / n * 1e3:.2f} ms wall, {(with_c - base_c) / n * 1e3:.2f} ms CPU; "
          f"the audit passes and the talk is in order ({n} lines)")


if __name__ == "__main__":
    main()
