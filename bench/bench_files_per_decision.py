"""Files a decision costs in play, per game, against the least the rules allow (issue 39, item 3).

Whole self-played games of each game through the full crypto engine, each seat sending every file it owes at once
(as ``watch``, ``receive`` and ``play`` do). Set-up passes, the genesis, acceptances and audit seeds are left out:
they are fixed per game. In play, a *decision file* carries a choice; an *answer* is a file that needs none (key
shares that let a player see a card drawn in another's file, a deck pass of a reshuffle, an opened sealed choice).
The least any game's rules allow is one file per decision (every answer riding in a file its sender sends anyway);
the answers are the gap. Usage: ``python bench/bench_files_per_decision.py [GAMES] [GAME ...]``
"""

from __future__ import annotations

import sys
import time
from collections import Counter

import common  # noqa: F401

SEATS = {"wizard": 3}
GAMES = ("warlords", "summoner", "grid", "skirmish", "wizard")


def one(game: str, seed: int) -> Counter:
    from duelmail.testing.selfplay import SelfPlay

    sp = SelfPlay(game, n=SEATS.get(game, 2), seed=seed, shared=True)
    sp.run()
    assert sp.match.finished
    kinds = Counter()
    playing = False  # the set-up (acceptances, the first shuffle, the first cards dealt) ends at the first choice
    for f in sp.files[1:]:
        c = f.content
        playing = playing or bool(c.get("actions"))
        if c.get("actions"):
            kinds["decision"] += 1
        elif not playing:
            kinds["set-up"] += 1
        elif "seed" in c and not c.get("keys"):
            kinds["audit seed"] += 1
        else:
            kinds["answer"] += 1
    return kinds


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 10
    names = argv[1:] or GAMES
    print("| game, players | decisions in play | answers needing no decision | files per decision in play | "
          "least the rules allow |")
    print("|---|---|---|---|---|")
    for game in names:
        c0 = time.process_time()
        total = sum((one(game, seed) for seed in range(games)), Counter())
        d, a = total["decision"], total["answer"]
        print(f"| {game}, {SEATS.get(game, 2)} | {d / games:.1f} a game | {a / games:.1f} a game "
              f"({a / (a + d):.0%} of the files in play) | {(d + a) / d:.2f} | 1.00 |  "
              f"<!-- {games} games, {time.process_time() - c0:.0f} s CPU -->")


if __name__ == "__main__":
    main(sys.argv[1:])
