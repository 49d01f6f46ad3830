"""Whole games between heuristic bots, for the layout checks: each game played to its end through the plain
simulator (real rules, real states) and its pictures drawn at positions spread over the whole game (the first,
the last and evenly between), from every view: the public one, each seat's and every face turned up (a replay's
"Everything")."""

from __future__ import annotations

import random
from functools import cache

from picture_tables import GAMES, NAMES, table

from duelmail.games.base import get_game
from duelmail.games.simulate import Table


def _play(game: str, seed: int, stop: int | None = None) -> tuple[Table, int]:
    """The game ``game`` dealt with ``seed`` and played by bots for ``stop`` moves (None: to its end)."""
    n, options, _ = GAMES[game]
    g = get_game(game)
    t = Table.deal(g, n, options, seed=seed)
    bots = [g.bots["heuristic"]() for _ in range(n)]
    rng = random.Random(seed)
    moves = 0
    while not t.state.is_terminal() and moves != stop and moves < 5000:
        seat = t.state.deciders()[0]
        t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), rng))
        moves += 1
    return t, moves


def views(t: Table, names: tuple[str, ...] = NAMES) -> dict[str, str]:
    """Every view's picture of ``t``'s table: ``public``, ``seat0``..., and ``all`` (every face)."""
    st, n = t.state, len(t.seen)
    names = list(names[:n])
    out = {"public": st.picture(None, st.public_faces(), names)}
    out.update({f"seat{s}": st.picture(s, t.known(s), names) for s in range(n)})
    out["all"] = st.picture(None, t.truth, names)
    return out


def _moments(game: str, seed: int) -> tuple[int, list[int]]:
    """A whole bot game's length and the moves after which something is happening on the table (a battle, a
    spell in flight, a fight: ``GAMES``' test), where a picture is busiest."""
    n, options, wanted = GAMES[game]
    g = get_game(game)
    t = Table.deal(g, n, options, seed=seed)
    bots = [g.bots["heuristic"]() for _ in range(n)]
    rng = random.Random(seed)
    moves, busy = 0, []
    while not t.state.is_terminal() and moves < 5000:
        seat = t.state.deciders()[0]
        t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), rng))
        moves += 1
        if wanted(t.state):
            busy.append(moves)
    return moves, busy


@cache
def positions(game: str, seed: int = 1, count: int = 8, busy: int = 4) -> tuple[tuple[int, dict[str, str]], ...]:
    """``count`` positions of a whole bot game (its first move, its end and evenly between) and ``busy`` more
    spread over the moments something is happening (``_moments``), with every view's picture, as
    (moves played, {view: svg})."""
    total, moments = _moments(game, seed)
    at = {round(i * total / (count - 1)) for i in range(count)}
    if moments:
        at |= {moments[round(i * (len(moments) - 1) / max(busy - 1, 1))] for i in range(busy)}
    return tuple((k, views(_play(game, seed, k)[0])) for k in sorted(at))


# Long names, with spaces, hyphens and none: a name wraps or is written whole somewhere, never only cut.
LONG_NAMES = ("Bartholomew Fitzgerald-Smythe", "Maximiliana Rosalind", "Christopher-Alexander",
              "Anastasia Konstantinova", "Wilhelmina Jo", "Frank")


@cache
def table_views(game: str, names: tuple[str, ...] = NAMES) -> dict[str, str]:
    """Every view's picture of the position the screenshots show (``picture_tables.table``)."""
    return views(table(game), names)
