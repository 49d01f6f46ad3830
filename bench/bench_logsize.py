"""Size of whole game logs, proofs included: every file of a two-player Warlords game (two decks)
as written to disk, over many bot games. Usage: python bench/bench_logsize.py [GAMES]"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

import common  # noqa: F401


def main(games: int = 20) -> dict:
    from duelmail.testing.selfplay import SelfPlay
    from duelmail.transport.folder import GameFolder

    sizes, signed, proof_bytes = [], [], []
    for seed in range(games):
        sp = SelfPlay("warlords", n=2, seed=seed).run()
        with tempfile.TemporaryDirectory() as tmp:
            folder = GameFolder(Path(tmp) / "g")
            match = sp.fresh()
            for f in sp.files:
                folder.store(f, match if f.kind == "turn" else None)
            sizes.append(sum(p.stat().st_size for p in folder.path.iterdir()))
        signed.append(sum(len(f.to_toml()) for f in sp.files))
        proof_bytes.append(sum(len(t.get("proof", "")) for f in sp.files for t in f.content.get("deck", {}).values()))
    med = statistics.median(sizes) / 1000
    print(f"two-player Warlords game logs, {games} games, proofs included: median {med:.1f} KB "
          f"on disk (largest {max(sizes) / 1000:.1f} KB), {statistics.median(signed) / 1000:.1f} KB without the "
          f"comment headers; the proofs are {statistics.median(proof_bytes) / 1000:.1f} KB of it")
    return {"median": statistics.median(sizes), "max": max(sizes)}


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
