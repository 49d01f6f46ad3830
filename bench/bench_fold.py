"""Fold-and-verify time of real archives of growing size (prefixes of one long game): is it linear?

No Warlords game reaches 1,200 files: every turn draws a card, so a game's length is bounded by
its decks (six heuristic bots with both joker options give about 540 files). Linearity is
measured on prefixes of such a game: 135, 270 and 540 files, and the 300-file figure directly.
"""

from __future__ import annotations

import common
from common import timed


def main() -> dict:
    from duelmail.transport.archive import fold, read_files

    path = common.long_archive(500)
    files = read_files(path, archive_only=True)
    files.sort(key=lambda wf: (wf[1].round, wf[1].seat))
    n = len(files)
    last = max(i for i, (_, f) in enumerate(files) if "seed" not in f.content) + 1  # before the audit round
    q = last // 4
    out = {}
    print("CPU time (time.process_time), wall time beside it; medians of 5")
    for size in (q, 2 * q, 300, 4 * q, n):
        prefix = files[:size]
        out[size], wall = timed(lambda p=prefix: fold(p), repeat=5)
        note = " (the whole game, with the end-of-game audit)" if size == n else ""
        print(f"fold + verify {size} files: {out[size] * 1000:.0f} ms CPU ({out[size] / size * 1e6:.0f} us per file), "
              f"{wall * 1000:.0f} ms wall{note}")
    ratio = out[4 * q] / out[q]
    print(f"ratio {4 * q}/{q} files: {ratio:.2f} (linear: 4.0; the target is under 4.5)")
    print(f"the audit itself: {(out[n] - out[4 * q]) * 1000:.0f} ms")
    parse, wall = timed(lambda: read_files(path, archive_only=True), repeat=3)
    print(f"reading and parsing {n} files from disk: {parse * 1000:.0f} ms CPU, {wall * 1000:.0f} ms wall")
    return {"t300": out[300], "n": n, "quarter": q, "tq": out[q], "t4q": out[4 * q], "tn": out[n], "ratio": ratio,
            "parse": parse}


if __name__ == "__main__":
    main()
