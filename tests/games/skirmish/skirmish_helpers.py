"""Helpers for the skirmish tests (imported by name: conftest.py puts this folder on the path): characters built
and placed at will, inputs by notation."""

from __future__ import annotations

from duelmail.games.base import get_game
from duelmail.games.simulate import Table
from duelmail.games.skirmish.geometry import pt
from duelmail.games.skirmish.notation import STATS, Build, Dual, Reveal

GAME = get_game("skirmish")


def start(*builds: tuple[int, int, int, int], at=None, battlefield: str = "open-field", turns: int = 30,
          rules_version: int | None = None) -> Table:
    """A table in turn 1's Reveal phase: each seat built (str, spd, end, dex) and committed its start reveal of one
    card of each, opened once all are in (K-2, K-3);
    ``at`` places the bases (x, y) by seat; ``rules_version``: a game begun under that version (default: the newest)."""
    t = Table.deal(GAME, len(builds), {"battlefield": battlefield, "turns": turns}, 0)
    if rules_version is not None:
        t.state.rules_version = rules_version  # as Game.new_state_under sets it; nothing before differs
    for s, b in enumerate(builds):
        for stat, k in zip(STATS, b, strict=True):
            t.play(s, Build(stat, k))
        t.play(s, Dual("d0", tuple((stat, 1, k == 1) for stat, k in zip(STATS, b, strict=True))))
    for s, p in enumerate(at or ()):
        t.state.pos[s] = pt(*p)
    return t


def play(t: Table, seat: int, *texts: str) -> None:
    for text in texts:
        t.play(seat, GAME.parse_action(text))


STEPS = ("reveal phase", "fight step 1", "fight step 2", "fight step 5", "fight step 6")


def quiet(t: Table, kinds=(), phases=STEPS) -> None:
    """Reveal nothing in every ordered or dual reveal of ``phases`` the rules wait for; with ``kinds``, also
    'stay' for a move, 'pass' for terrain, 'cancel none'. Stops at anything else (an attack's reveal, a plan)."""
    while t.state.wait:
        w = t.state.wait
        if w[0] == "dual" and w[4] in phases:
            for s in t.state.deciders():
                t.play(s, Dual(w[3], ()))
        elif w[0] == "reveal" and w[3] in phases:
            t.play(w[1], Reveal(()))
        elif w[0] in kinds:
            play(t, w[1], {"move": "stay", "interact": "pass", "cancel": "cancel none"}[w[0]])
        else:
            return


def label(t: Table) -> str:
    w = t.state.wait
    return w[3] if w[0] == "dual" else w[2]
