"""Summoner: messages per decision over many bot games through the full crypto engine, and how often the
heuristic bot beats the random one.

A *message* is a file one player sends; a *decision* is a file that carries a choice (an action, or
accepting the game; the genesis counts as one), as in bench_messages.py. We also count the files
whose every action was forced (the seat had one legal move, e.g. a 'pass' in a joker window without
a joker) and the joker answer windows. Usage: python bench/bench_summoner.py [GAMES]
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from multiprocessing import Pool

import common


class Counting:
    """Wraps a bot and records, for each action it chooses, how many legal actions it had."""

    def __init__(self, bot):
        self.bot, self.seen = bot, []

    def choose(self, state, seat, known, rng):
        self.seen.append(len(state.legal_actions(seat, known)))
        return self.bot.choose(state, seat, known, rng)


def one(seed: int):
    from duelmail.games.summoner.bots import HeuristicBot
    from duelmail.testing.selfplay import SelfPlay

    bots = [Counting(HeuristicBot()), Counting(HeuristicBot())]
    sp = SelfPlay("summoner", n=2, seed=seed, bots=bots)
    kinds = Counter()
    for _ in range(5000):
        if sp.match.finished:
            break
        for seat in sorted(sp.match.duties):
            bots[seat].seen = []
            f = sp.compose(seat)
            sp.deliver(f)
            c = f.content
            acts = [a for a in c["actions"] if a != "join"]
            kind = common.file_kind(c)
            kinds[kind] += 1
            if kind == "turn decision":
                if all(n == 1 for n in bots[seat].seen):
                    kinds["  of which forced: " + acts[0].split()[0]] += 1
                if acts[0] == "pass" or acts[0].startswith("counter"):
                    kinds["  of which joker answers"] += 1
    assert sp.match.finished and sp.match.audit.ok
    kinds["turns"] += sp.match.state.turn
    return len(sp.files), kinds


def versus(seed: int) -> bool:
    from duelmail.games.base import RandomBot, get_game
    from duelmail.games.simulate import playout
    from duelmail.games.summoner.bots import HeuristicBot

    hero = seed % 2
    bots = [RandomBot(), RandomBot()]
    bots[hero] = HeuristicBot()
    outcome, _ = playout(get_game("summoner"), 2, bots, seed=seed)
    return hero in outcome.winners


def main(games: int = 500) -> dict:
    t = time.perf_counter()
    with Pool(2) as pool:
        results = pool.map(one, range(games), chunksize=4)
        wins = sum(pool.map(versus, range(games), chunksize=16))
    files = sum(r[0] for r in results)
    kinds = sum((r[1] for r in results), Counter())
    decisions = games + kinds["acceptance"] + kinds["turn decision"]  # the genesis counts as one
    in_play = kinds["turn decision"] + kinds["keys only"]
    forced = sum(v for k, v in kinds.items() if "forced" in k)
    out = {
        "games": games, "files": files, "decisions": decisions, "ratio": files / decisions,
        "ratio_in_play": in_play / kinds["turn decision"], "files_per_game": files / games,
        "turns_per_game": kinds["turns"] / games, "kinds": dict(kinds), "forced": forced,
        "heuristic_win_rate": wins / games, "seconds": time.perf_counter() - t,
    }
    print(f"{games} games of Summoner, heuristic bots: {files} files for {decisions} decisions = "
          f"{out['ratio']:.3f} messages per decision")
    print(f"  in play only (no genesis, acceptance, set-up passes, audit seeds): {in_play} files for "
          f"{kinds['turn decision']} decisions = {out['ratio_in_play']:.3f}")
    print(f"  per game: {out['files_per_game']:.1f} files, {out['turns_per_game']:.1f} turns, "
          f"{kinds['  of which joker answers'] / games:.2f} joker answer windows")
    common.print_kinds(kinds, 32)
    print(f"  forced decisions (one legal move for every action in the file): {forced} = "
          f"{forced / kinds['turn decision']:.1%} of the decisions in play")
    print(f"heuristic against random over {games} simulated games: wins {out['heuristic_win_rate']:.1%}")
    print(f"({out['seconds']:.0f} s)")
    return out


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
