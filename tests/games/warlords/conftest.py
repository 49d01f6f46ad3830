"""Helpers for the Warlords tests: rigged deals (chosen cards at chosen positions) and short plays."""

from __future__ import annotations

import random

import pytest

from duelmail.games.base import get_game
from duelmail.games.cards import Card, CardRef
from duelmail.games.simulate import Table

GAME = get_game("warlords")


def rigged(n: int = 2, cards: dict[int, str] | None = None, options: dict | None = None,
           seed: int = 0, rules_version: int | None = None) -> Table:
    """A dealt table where seat s's deck starts with ``cards[s]`` (positions #0, #1, ...).

    Positions #0..#4 are the hand, #5 is the first draw, #6 the next, and so on. The rest of
    each deck is shuffled with ``seed``. ``rules_version``: a game begun under that version (default: the newest).
    """
    opts = GAME.spec.resolve_options(options or {})
    rng = random.Random(seed)
    truth: dict[CardRef, Card] = {}
    for deck in GAME.decks(n, opts):
        wanted = [Card.parse(c) for c in (cards or {}).get(deck.owner, "").split()]
        rest = list(deck.faces)
        for c in wanted:
            rest.remove(c)
        rng.shuffle(rest)
        for i, face in enumerate(wanted + rest):
            truth[CardRef(deck.id, i)] = face
    state = GAME.new_state(n, opts) if rules_version is None else GAME.new_state_under(n, opts, rules_version)
    table = Table(GAME, state, truth, [{} for _ in range(n)], rng)
    table.settle()
    return table


@pytest.fixture
def game():
    return GAME


@pytest.fixture(name="rig")
def _rig():
    return rigged
