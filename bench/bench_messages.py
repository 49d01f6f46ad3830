"""Messages per decision over many bot games (Warlords by default), through the full crypto engine.

A *message* is a file one player sends; a *decision* is a file that carries a choice (an action, or
accepting the game; the genesis counts as one). A file answering an answer window (protocol 5b) is a decision
too; they are counted apart. Usage:
python bench/bench_messages.py [GAMES] [PLAYERS] [GAME] [OPTION=VALUE ...]   (e.g. 100 2 summoner mail-shortcuts=1)
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from multiprocessing import Pool

import common  # noqa: F401


def one(args):
    seed, players, game, options = args
    from duelmail.testing.selfplay import SelfPlay

    c0 = time.process_time()
    sp = SelfPlay(game, n=players, seed=seed, options=options)
    windows = 0
    for _ in range(10_000):
        if sp.match.finished:
            break
        for seat in sorted(sp.match.duties):
            windows += bool(sp.match.duties[seat].windows)
            f = sp.compose(seat)
            sp.deliver(f)
    assert sp.match.finished and sp.match.audit.ok
    kinds = Counter()
    kinds["window answers"] = windows
    for f in sp.files[1:]:
        c = f.content
        if c["actions"]:
            kinds["decision"] += 1
        elif "deck" in c:
            kinds["set-up pass"] += 1
        elif "seed" in c and not c.get("keys"):
            kinds["audit seed"] += 1
        else:
            kinds["forced reveal/keys"] += 1
    return len(sp.files), sp.decisions, kinds, time.process_time() - c0


def main(games: int = 500, players: int = 2, game: str = "warlords", options: dict | None = None) -> dict:
    t0, c0 = time.perf_counter(), time.process_time()
    with Pool(2) as pool:
        results = pool.map(one, [(s, players, game, options or {}) for s in range(games)], chunksize=4)
    files = sum(r[0] for r in results)
    decisions = sum(r[1] for r in results)
    kinds = sum((r[2] for r in results), Counter())
    play = files - kinds["set-up pass"] - kinds["audit seed"] - games * players  # genesis and acceptances
    play_dec = decisions - games * players
    out = {
        "games": games, "players": players, "files": files, "decisions": decisions,
        "ratio": files / decisions, "ratio_in_play": play / play_dec, "kinds": dict(kinds),
        "files_per_game": files / games,
    }
    print(f"{game} {options or ''}: {games} games, {players} players: {files} files for {decisions} decisions = "
          f"{out['ratio']:.3f} messages per decision")
    print(f"  in play only (no set-up passes, genesis, acceptances, audit seeds): {out['ratio_in_play']:.3f}")
    print(f"  files by kind: {dict(kinds)}; {out['files_per_game']:.1f} files per game")
    cpu = sum(r[3] for r in results) + time.process_time() - c0
    print(f"  wall {time.perf_counter() - t0:.1f} s, CPU {cpu:.1f} s (2 worker processes)")
    return out


if __name__ == "__main__":
    opts = dict(a.split("=", 1) for a in sys.argv[4:])
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500, int(sys.argv[2]) if len(sys.argv) > 2 else 2,
         sys.argv[3] if len(sys.argv) > 3 else "warlords", opts)
