"""Tables worth drawing: each game played by its heuristic bots through the plain simulator (real rules, real
states) until something is happening (a battle, a spell in flight, a fight), for the picture tests."""

from __future__ import annotations

import random

from duelmail.games.base import get_game
from duelmail.games.simulate import Table

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


def _warlords(st) -> bool:
    b = st.battle
    return b is not None and b.d_army is not None and st.turn >= 6 and any(st.warlords[s] for s in range(st.n))


def _summoner(st) -> bool:
    return all(len(f) >= 2 for f in st.field) and any(len(u.refs) > 1 for f in st.field for u in f)


def _grid(st) -> bool:
    return any(sp.attack for sp in st.spaces.values()) and len(st.spaces) >= 5 and bool(st.orient)


def _wizard(st) -> bool:
    return st.spell is not None and st.turn >= 4


def _skirmish(st) -> bool:
    return st.fight is not None


GAMES = {  # game -> (players, options, what must be on the table)
    "warlords": (3, {}, _warlords),
    "summoner": (2, {}, _summoner),
    "grid": (2, {"deck0": "vanguard", "deck1": "hive"}, _grid),
    "wizard": (5, {}, _wizard),
    "skirmish": (3, {"battlefield": "ruined-keep"}, _skirmish),
}


def table(game: str, seed: int = 1, limit: int = 3000) -> Table:
    """The first position, in a seeded game between heuristic bots, that shows what ``GAMES`` asks for."""
    n, options, wanted = GAMES[game]
    g = get_game(game)
    for s in range(seed, seed + 40):
        t = Table.deal(g, n, options, seed=s)
        bots = [g.bots["heuristic"]() for _ in range(n)]
        rng = random.Random(s)
        for _ in range(limit):
            if t.state.is_terminal():
                break
            if wanted(t.state):
                return t
            seat = t.state.deciders()[0]
            t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), rng))
    raise AssertionError(f"no {game} game between bots reached the position the picture test wants")
