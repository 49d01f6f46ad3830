"""What hiding the size of sealed choices costs (issue 14): every memo of a few two-player DUEL skirmish games
between heuristic bots, its padded size against the size the bare text would have sealed to, the per-game
randomness boxes, and the time to seal and open one memo (CPU and wall).
Usage: python bench/bench_sealed.py [GAMES]"""

from __future__ import annotations

import json
import sys
import time

import common  # noqa: F401


def main(games: int = 3) -> dict:
    from duelmail.crypto.seal import box_size
    from duelmail.engine.memo import make_memo, open_memo
    from duelmail.testing.selfplay import SelfPlay

    padded = bare = entropy = memos = files = 0
    sizes: set[int] = set()
    samples = []
    for seed in range(games):
        sp = SelfPlay("skirmish", n=2, seed=seed).run()
        m = sp.match
        for f in sp.files[1:]:
            files += 1
            entropy += len(f.content.get("entropy", ""))
            if "memo" not in f.content:
                continue
            labels = [a.split(" ", 1)[1] for a in f.content["actions"] if a.startswith("sealed ")]
            texts = open_memo(m.game, m.seeds[f.seat], m.gid, f.round, f.seat, f.content["memo"], labels)
            memos += 1
            padded += len(f.content["memo"])
            bare += (box_size(len(json.dumps(texts, sort_keys=True).encode())) * 4 + 2) // 3  # the old format
            sizes.add(len(f.content["memo"]))
            samples.append((m, f, labels, texts))
    m, f, labels, texts = samples[-1]
    seed = m.seeds[f.seat]
    reps = 2000
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(reps):
        open_memo(m.game, seed, m.gid, f.round, f.seat, make_memo(m.game, seed, m.gid, f.round, f.seat, texts), labels)
    wall, cpu = (time.perf_counter() - wall) / reps, (time.process_time() - cpu) / reps
    print(f"{games} skirmish games, {files} turn files, {memos} memos: {padded} bytes padded against {bare} bare "
          f"({padded - bare:+d} bytes, {padded / bare - 1:+.0%}); memo sizes seen {sorted(sizes)} (one per set of "
          f"labels); per-game randomness boxes {entropy} bytes (80 per seat); seal and open one memo of "
          f"{len(labels)} choice(s): {wall * 1e6:.0f} us wall, {cpu * 1e6:.0f} us CPU")
    return {"padded": padded, "bare": bare, "wall": wall, "cpu": cpu}


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
