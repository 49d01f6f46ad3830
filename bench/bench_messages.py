"""Messages per decision over many bot games of Warlords, through the full crypto engine.

A *message* is a file one player sends; a *decision* is a file that carries a choice (an action, or
accepting the game; the genesis counts as one). Usage: python bench/bench_messages.py [GAMES] [PLAYERS]
"""

from __future__ import annotations

import sys
from collections import Counter
from multiprocessing import Pool

import common  # noqa: F401


def one(args):
    seed, players = args
    from duelmail.engine.selfplay import SelfPlay

    sp = SelfPlay("warlords", n=players, seed=seed)
    sp.run()
    kinds = Counter()
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
    return len(sp.files), sp.decisions, kinds


def main(games: int = 500, players: int = 2) -> dict:
    with Pool(2) as pool:
        results = pool.map(one, [(s, players) for s in range(games)], chunksize=4)
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
    print(f"{games} games, {players} players: {files} files for {decisions} decisions = "
          f"{out['ratio']:.3f} messages per decision")
    print(f"  in play only (no set-up passes, genesis, acceptances, audit seeds): {out['ratio_in_play']:.3f}")
    print(f"  files by kind: {dict(kinds)}; {out['files_per_game']:.1f} files per game")
    return out


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500, int(sys.argv[2]) if len(sys.argv) > 2 else 2)
