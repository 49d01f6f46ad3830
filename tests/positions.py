"""Positions reached by seeded bot games in the in-memory simulator, for rules tests that need a given moment."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from duelmail.games.simulate import Table


def first_position(pred: Callable, deal: Callable[[int], Table], bots: Callable[[random.Random], list], seeds,
                   limit: int) -> tuple[Table, list]:
    """A table (and its bots) at the first position where ``pred(state)`` holds, over the games ``deal(seed)``
    gives, played by ``bots(random.Random(seed))``."""
    for seed in seeds:
        rng = random.Random(seed)
        bs = bots(rng)
        t = deal(seed)
        for _ in range(limit):
            st = t.state
            if st.is_terminal():
                break
            if pred(st):
                return t, bs
            seat = st.deciders()[0]
            t.play(seat, bs[seat].choose(st, seat, t.known(seat), t.rng))
    pytest.fail("no bot game reached the position")
