"""Fixtures every game's rule tests share: ``play`` (actions in notation onto a simulator table) and ``ref``."""

from __future__ import annotations

import pytest

from duelmail.games.cards import CardRef
from duelmail.games.simulate import Table


def play(table: Table, seat: int, *texts: str) -> None:
    """Apply one or more actions (the game's notation) for ``seat``."""
    for text in texts:
        table.play(seat, table.game.parse_action(text))


@pytest.fixture(name="play")
def _play():
    return play


@pytest.fixture(name="ref")
def _ref():
    return CardRef.parse
