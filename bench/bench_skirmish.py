"""DUEL skirmish: messages per decision over many bot games through the full engine, how often the heuristic bot
beats the random one, and the time per game.

A *message* is a file one player sends; a *decision* is a file that carries a choice (an action, or accepting the
game; the genesis counts as one), as in bench_messages.py and bench_summoner.py. Skirmish has no deck, so the
files that carry no decision are openings of sealed choices (a dual reveal, the fight plans, a stat shown
exhausted) and the audit seeds. Two heuristic bots, the three shipped battlefields in turn.
Usage: python bench/bench_skirmish.py [GAMES]
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from multiprocessing import Pool

import common

FIELDS = ("open-field", "ruined-keep", "cliff-top")


def one(seed: int):
    from duelmail.games.skirmish.bots import HeuristicBot
    from duelmail.testing.selfplay import SelfPlay

    t = time.perf_counter()
    sp = SelfPlay("skirmish", n=2, seed=seed, options={"battlefield": FIELDS[seed % 3]},
                  bots=[HeuristicBot(), HeuristicBot()])
    kinds = Counter()
    for _ in range(5000):
        if sp.match.finished:
            break
        for seat in sorted(sp.match.duties):
            f = sp.compose(seat)
            sp.deliver(f)
            c = f.content
            kind = common.file_kind(c)
            kinds[kind] += 1
            if kind == "turn decision":
                if any(a.startswith("sealed ") for a in c["actions"]):
                    kinds["  of which commit a sealed choice"] += 1
                if c.get("opens"):
                    kinds["  of which also open one"] += 1
    assert sp.match.finished and sp.match.audit.ok
    kinds["turns"] += sp.match.state.turn
    return len(sp.files), kinds, time.perf_counter() - t


def versus(seed: int) -> bool:
    from duelmail.games.base import get_game
    from duelmail.games.simulate import playout
    from duelmail.games.skirmish.bots import HeuristicBot, RandomSkirmishBot

    hero = seed % 2
    bots = [RandomSkirmishBot(), RandomSkirmishBot()]
    bots[hero] = HeuristicBot()
    outcome, _ = playout(get_game("skirmish"), 2, bots, {"battlefield": FIELDS[seed % 3]}, seed=seed)
    return hero in outcome.winners


def main(games: int = 300) -> dict:
    t = time.perf_counter()
    with Pool(2) as pool:
        results = pool.map(one, range(games), chunksize=4)
        wins = sum(pool.map(versus, range(games), chunksize=16))
    files = sum(r[0] for r in results)
    kinds = sum((r[1] for r in results), Counter())
    per_game = sorted(r[2] for r in results)
    decisions = games + kinds["acceptance"] + kinds["turn decision"]  # the genesis counts as one
    in_play = kinds["turn decision"] + kinds["openings only"]
    out = {
        "games": games, "files": files, "decisions": decisions, "ratio": files / decisions,
        "ratio_in_play": in_play / kinds["turn decision"], "files_per_game": files / games,
        "turns_per_game": kinds["turns"] / games, "kinds": dict(kinds), "heuristic_win_rate": wins / games,
        "median_game_seconds": per_game[len(per_game) // 2], "seconds": time.perf_counter() - t,
    }
    print(f"{games} games of DUEL skirmish, heuristic bots, full engine: {files} files for {decisions} decisions = "
          f"{out['ratio']:.3f} messages per decision")
    print(f"  in play only (no genesis, acceptance, audit seeds): {in_play} files for {kinds['turn decision']} "
          f"decisions = {out['ratio_in_play']:.3f}")
    print(f"  per game: {out['files_per_game']:.1f} files, {out['turns_per_game']:.1f} turns")
    common.print_kinds(kinds, 36)
    print(f"  time per game through the engine (one core): median {out['median_game_seconds'] * 1000:.0f} ms, "
          f"slowest {per_game[-1] * 1000:.0f} ms")
    print(f"heuristic against random over {games} simulated games: wins {out['heuristic_win_rate']:.1%}")
    print(f"({out['seconds']:.0f} s)")
    return out


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
