"""Warlords bot strength: HeuristicBot against RandomBot over seeded 2-player games, seats alternating.

Run ``.venv/bin/python bench/bench_warlords_bots.py [GAMES] [name=value ...]``, e.g.
``bench/bench_warlords_bots.py 500 reinforcements=true``; prints the heuristic's win rate.
"""

from __future__ import annotations

import sys
import time

from duelmail.games.base import RandomBot, get_game
from duelmail.games.simulate import playout
from duelmail.games.warlords.bots import HeuristicBot


def win_rate(games: int = 500, options: dict | None = None) -> float:
    """Share of ``games`` won by the heuristic; it sits in seat 0 on even seeds, seat 1 on odd ones."""
    game = get_game("warlords")
    wins = 0
    for seed in range(games):
        hero = seed % 2
        bots = [RandomBot(), RandomBot()]
        bots[hero] = HeuristicBot()
        outcome, _ = playout(game, 2, bots, options or {}, seed=seed)
        wins += hero in outcome.winners
    return wins / games


def main(argv: list[str]) -> None:
    games = next((int(a) for a in argv if a.isdigit()), 500)
    options = dict(a.split("=", 1) for a in argv if "=" in a)
    start = time.perf_counter()
    rate = win_rate(games, options)
    took = time.perf_counter() - start
    extra = f", options {options}" if options else ""
    print(f"warlords: heuristic beats random in {rate:.1%} of {games} two-player games{extra} ({took:.1f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
