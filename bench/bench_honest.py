"""What the honest-slip check costs the sender: whole self-played games composed with the check and without it.

Run ``.venv/bin/python bench/bench_honest.py [GAMES]``; per game, the CPU time (``time.process_time``) and the wall
time of composing every file of the same seeded games, with ``honest=True`` (what ``duelmail play`` does) and
``honest=False`` (the cheat harness). The games are identical either way: the check only refuses.
"""

from __future__ import annotations

import sys
import time

from duelmail.app import bot_actions
from duelmail.testing.selfplay import SelfPlay

SEATS = {"wizard": 3}


def cost(game: str, honest: bool, games: int) -> tuple[float, float, int]:
    cpu = wall = 0.0
    files = 0
    for seed in range(games):
        sp = SelfPlay(game, n=SEATS.get(game, 2), seed=seed, shared=True)
        for _ in range(5000):
            if sp.match.finished:
                break
            for seat in sorted(sp.match.duties):
                m = sp.matches[seat]
                actions = bot_actions(m, seat, sp.ids[seat], sp.bots[seat], sp.rng)  # decided outside the clock
                c0, w0 = time.process_time(), time.perf_counter()
                f = m.compose(seat, sp.ids[seat], actions, sp.tick(), honest=honest)
                cpu += time.process_time() - c0
                wall += time.perf_counter() - w0
                sp.deliver(f)
                files += 1
    return cpu, wall, files


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 2
    print("| game | files | compose CPU with the check | without | overhead | wall with | wall without |")
    print("|---|---|---|---|---|---|---|")
    for game in ("warlords", "summoner", "grid", "skirmish", "wizard"):
        on, off = cost(game, True, games), cost(game, False, games)
        print(f"| {game} | {on[2]} | {on[0]:.2f} s | {off[0]:.2f} s | {(on[0] / off[0] - 1):+.0%} | {on[1]:.2f} s | "
              f"{off[1]:.2f} s |")


if __name__ == "__main__":
    main(sys.argv[1:])
