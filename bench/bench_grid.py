"""Grid Duel: the deck-against-deck win-rate matrix and messages per decision.

* **Matrix**: every pairing of two different decks plays GAMES heuristic-bot games in the plain
  simulator (``duelmail.games.simulate.playout``), each deck taking seat 0 (the start player) in
  half of them; a draw counts half. The aim is every pairing between 40% and 60%. Mirror
  matches give the start player's edge.
* **Messages**: MESSAGES heuristic-bot games through the full crypto engine (``SelfPlay``), deck
  pairings in turn; a *message* is a file one player sends, a *decision* a file carrying a choice
  (an action or accepting the game; the genesis counts as one).

Usage: python bench/bench_grid.py [--games 1000] [--messages 500] [--only matrix|messages]
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter
from multiprocessing import Pool

import common  # noqa: F401


def _decks() -> list[str]:
    from duelmail.games.grid.library import library

    return sorted(library())


def one_game(args) -> tuple[str, str, int, int | None]:
    """(deck0, deck1, seed, winning seat or None for a draw)."""
    d0, d1, seed = args
    from duelmail.games.base import get_game
    from duelmail.games.grid.bots import HeuristicBot
    from duelmail.games.simulate import playout

    outcome, _ = playout(get_game("grid"), 2, [HeuristicBot(), HeuristicBot()], {"deck0": d0, "deck1": d1},
                         seed=seed)
    return d0, d1, seed, outcome.winners[0] if outcome.winners else None


def matrix(games: int = 1000, processes: int = 2) -> dict:
    decks = _decks()
    jobs = []
    for x, y in itertools.combinations_with_replacement(decks, 2):
        for i in range(games):
            jobs.append((x, y, i) if i % 2 == 0 else (y, x, i))
    t = time.perf_counter()
    with Pool(processes) as pool:
        results = pool.map(one_game, jobs, chunksize=20)
    score: Counter = Counter()
    seat0: Counter = Counter()
    for d0, d1, _, w in results:
        pts = (1.0, 0.0) if w == 0 else (0.0, 1.0) if w == 1 else (0.5, 0.5)
        score[(d0, d1)] += pts[0]
        score[(d1, d0)] += pts[1]
        seat0[d0 == d1] += pts[0]
    rate = {(x, y): score[(x, y)] / games for x in decks for y in decks if x != y}
    mirrors = len(decks) * games
    out = {"games": games, "rates": rate, "start_player": seat0[True] / mirrors,
           "start_player_all": (seat0[True] + seat0[False]) / len(results), "seconds": time.perf_counter() - t}
    width = max(map(len, decks)) + 2
    print(f"win rate of the row deck against the column deck, {games} heuristic games per pairing "
          f"(seats alternate):")
    print(" " * width + "".join(f"{d:>{width}}" for d in decks))
    for x in decks:
        cells = "".join(f"{'-':>{width}}" if x == y else f"{rate[(x, y)]:>{width}.1%}" for y in decks)
        print(f"{x:<{width}}{cells}")
    inside = all(0.4 <= r <= 0.6 for r in rate.values())
    print(f"every pairing between 40% and 60%: {'yes' if inside else 'NO'}; start player wins "
          f"{out['start_player']:.1%} of mirror games, {out['start_player_all']:.1%} of all games "
          f"({out['seconds']:.0f} s)")
    return out


def one_selfplay(seed: int):
    from duelmail.testing.selfplay import SelfPlay

    decks = _decks()
    pairs = list(itertools.product(decks, decks))
    d0, d1 = pairs[seed % len(pairs)]
    sp = SelfPlay("grid", n=2, seed=seed, options={"deck0": d0, "deck1": d1})
    sp.run()
    assert sp.match.audit.ok, sp.match.audit.lines
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


def messages(games: int = 500, processes: int = 2) -> dict:
    t = time.perf_counter()
    with Pool(processes) as pool:
        results = pool.map(one_selfplay, range(games), chunksize=4)
    files = sum(r[0] for r in results)
    decisions = sum(r[1] for r in results)
    kinds = sum((r[2] for r in results), Counter())
    play = files - kinds["set-up pass"] - kinds["audit seed"] - games  # the genesis
    play_dec = decisions - games * 2  # genesis and acceptance
    out = {"games": games, "files": files, "decisions": decisions, "ratio": files / decisions,
           "ratio_in_play": play / play_dec, "kinds": dict(kinds), "files_per_game": files / games,
           "seconds": time.perf_counter() - t}
    print(f"{games} games through the crypto engine: {files} files for {decisions} decisions = "
          f"{out['ratio']:.3f} messages per decision")
    print(f"  in play only (no set-up passes, genesis, acceptances, audit seeds): {out['ratio_in_play']:.3f}")
    print(f"  files by kind: {dict(kinds)}; {out['files_per_game']:.1f} files per game ({out['seconds']:.0f} s)")
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="heuristic games per deck pairing")
    ap.add_argument("--messages", type=int, default=500, help="games through the crypto engine")
    ap.add_argument("--only", choices=("matrix", "messages"))
    ap.add_argument("--processes", type=int, default=2)
    a = ap.parse_args()
    if a.only != "messages":
        matrix(a.games, a.processes)
    if a.only != "matrix":
        messages(a.messages, a.processes)
