"""Messages per decision with the source's rules (the default) and with the option ``mail-shortcuts``.

Two-player bot games through the full crypto engine (``SelfPlay``), the same seeds for both settings. A *message*
is a file one player sends, a *decision* a file with a choice in it (the genesis and the acceptance count).
Usage: python bench/bench_source_rules.py [GAMES] [GAME ...] (default: 20 games each of summoner, warlords, grid).
"""

from __future__ import annotations

import sys
import time
from multiprocessing import Pool

import common  # noqa: F401


def one(args):
    game, seed, options = args
    from duelmail.testing.selfplay import SelfPlay

    sp = SelfPlay(game, n=2, seed=seed, options=options)
    sp.run()
    looks = sum(a == "look" for f in sp.files[1:] for a in f.content.get("actions", ()))
    return len(sp.files), sp.decisions, looks


def main(games: int = 20, names: tuple[str, ...] = ("summoner", "warlords", "grid")) -> dict:
    out = {}
    for name in names:
        for options in ({}, {"mail-shortcuts": True}):
            wall, cpu = time.perf_counter(), time.process_time()
            with Pool(2) as pool:
                results = pool.map(one, [(name, s, options) for s in range(games)])
            files = sum(r[0] for r in results)
            decisions = sum(r[1] for r in results)
            looks = sum(r[2] for r in results)
            label = "mail-shortcuts" if options else "source rules"
            out[(name, label)] = files / decisions
            print(f"{name:9} {label:15} {games} games: {files} files for {decisions} decisions = "
                  f"{files / decisions:.3f} messages per decision ({looks} looks); wall "
                  f"{time.perf_counter() - wall:.1f} s, CPU of this process {time.process_time() - cpu:.2f} s")
    return out


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20, tuple(sys.argv[2:]) or ("summoner", "warlords", "grid"))
