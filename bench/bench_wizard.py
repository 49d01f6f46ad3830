"""Wizard Duel: messages per decision over bot games with 3, 4 and 6 players through the full crypto engine,
what the files beyond one per decision carry, time per game, and how often the heuristic bot beats random ones.

A *message* is a file one player sends; a *decision* is a file that carries a choice (an action, or
accepting the game; the genesis counts as one), as in bench_summoner.py. Files with key shares and no
decision are split by what their shares are for: a draw, a lost Life, or sent by a player already out.
Usage: python bench/bench_wizard.py [GAMES] [--counts 3,4,6] [--option NAME ...] [--rules-version N]

``--rules-version 1`` writes the older version into every genesis: the game ids, and so the deals and every
decision, are those of a run made when that version was current (a before/after comparison on the same games).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from multiprocessing import Pool

import common


def pin_rules_version(version: int | None) -> None:
    if version is not None:
        from duelmail.games.wizard import SPEC

        object.__setattr__(SPEC, "rules_version", version)


def one(job) -> tuple[int, Counter, float]:
    from duelmail.games.cards import CardRef
    from duelmail.games.wizard.rules import LIVES
    from duelmail.testing.selfplay import SelfPlay

    players, options, seed = job
    t = time.perf_counter()
    sp = SelfPlay("wizard", n=players, seed=seed, options=dict.fromkeys(options, True))
    kinds = Counter()
    lives = 0 if "sudden-death" in options else LIVES
    for _ in range(20_000):
        if sp.match.finished:
            break
        alive = list(sp.match.state.alive)
        for seat in sorted(sp.match.duties):
            f = sp.compose(seat)
            sp.deliver(f)
            c = f.content
            kind = common.file_kind(c)
            kinds[kind] += 1
            if kind == "turn decision":
                kinds[f"  decision: {c['actions'][0].split()[0]}"] += 1
            elif kind == "keys only":
                refs = [CardRef.parse(r) for r in c.get("keys", {})]
                if seat not in alive:
                    kinds["  keys only: sent by a player already out"] += 1
                elif any(r.deck == "w" and r.index < players * lives for r in refs):
                    kinds["  keys only: for a lost Life (and any draw with it)"] += 1
                else:
                    kinds["  keys only: for a draw"] += 1
    assert sp.match.finished and sp.match.audit.ok
    kinds["turns"] += sp.match.state.turn
    kinds["draws (no winner)"] += not sp.match.state.outcome().winners
    return len(sp.files), kinds, time.perf_counter() - t


def versus(job) -> tuple[bool, bool]:
    from duelmail.games.base import RandomBot, get_game
    from duelmail.games.simulate import playout
    from duelmail.games.wizard.bots import HeuristicBot

    players, options, seed = job
    hero = seed % players
    bots = [RandomBot() for _ in range(players)]
    bots[hero] = HeuristicBot()
    outcome, _ = playout(get_game("wizard"), players, bots, dict.fromkeys(options, True), seed=seed)
    return outcome.winners == (hero,), bool(outcome.winners)


def report(players: int, games: int, options: list[str], results, duels, seconds: float) -> dict:
    files = sum(r[0] for r in results)
    wins, decided = sum(w for w, _ in duels), sum(d for _, d in duels)
    kinds = sum((r[1] for r in results), Counter())
    decisions = games + kinds["acceptance"] + kinds["turn decision"]
    in_play = kinds["turn decision"] + kinds["keys only"]
    per_game = [r[2] for r in results]
    out = {"players": players, "games": games, "files": files, "decisions": decisions, "ratio": files / decisions,
           "ratio_in_play": in_play / kinds["turn decision"], "kinds": dict(kinds),
           "seconds_per_game": sum(per_game) / games, "heuristic_win_rate": wins / (games * 3),
           "heuristic_win_rate_decided": wins / max(decided, 1)}
    opts = f" ({', '.join(options)})" if options else ""
    print(f"{players} players{opts}, {games} games, heuristic bots: {files} files for {decisions} decisions = "
          f"{out['ratio']:.3f} messages per decision")
    print(f"  in play only (no genesis, acceptance, passes, audit seeds): {in_play} files for "
          f"{kinds['turn decision']} decisions = {out['ratio_in_play']:.3f}")
    print(f"  per game: {files / games:.1f} files, {kinds['turns'] / games:.1f} turns, "
          f"{out['seconds_per_game']:.1f} s through the engine (max {max(per_game):.1f} s); "
          f"drawn games {kinds['draws (no winner)']}")
    common.print_kinds(kinds, 52, skip=("turns", "draws (no winner)"))
    print(f"  heuristic against {players - 1} random bots over {games * 3} simulated games: wins "
          f"{out['heuristic_win_rate']:.1%} (a fair share is {1 / players:.1%}); of the {decided} games with a "
          f"winner it won {out['heuristic_win_rate_decided']:.1%}")
    return out


def main(games: int = 300, counts: tuple[int, ...] = (3, 4, 6), options: tuple[str, ...] = (),
         rules_version: int | None = None) -> list[dict]:
    t = time.perf_counter()
    outs = []
    with Pool(2, initializer=pin_rules_version, initargs=(rules_version,)) as pool:
        for players in counts:
            jobs = [(players, list(options), seed) for seed in range(games)]
            results = pool.map(one, jobs, chunksize=2)
            duels = pool.map(versus, [(players, list(options), s) for s in range(games * 3)], chunksize=16)
            outs.append(report(players, games, list(options), results, duels, time.perf_counter() - t))
    print(f"({time.perf_counter() - t:.0f} s in all)")
    return outs


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="?", type=int, default=300)
    ap.add_argument("--counts", default="3,4,6")
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--rules-version", type=int, default=None)
    a = ap.parse_args()
    main(a.games, tuple(int(x) for x in a.counts.split(",")), tuple(a.option), a.rules_version)
