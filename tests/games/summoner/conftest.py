"""Helpers for the Summoner tests: rigged deals (chosen cards at chosen positions) and short plays."""

from __future__ import annotations

import random

import pytest

from duelmail.games.base import get_game
from duelmail.games.cards import Card, CardRef
from duelmail.games.simulate import Table

GAME = get_game("summoner")


def rigged(hand0: str = "", hand1: str = "", pile: str = "", options: dict | None = None, seed: int = 0,
           size: int | None = None, rules_version: int | None = None) -> Table:
    """A dealt table whose deck starts with the given faces.

    ``hand0`` fills ``s#0``.., ``hand1`` fills ``s#5``.., ``pile`` fills ``s#10``.. (the first draws).
    A hand given with fewer than five faces is completed from the shuffled rest (seeded). With
    ``size`` the draw pile is cut to that many cards (the rest stay locked, never drawn). ``rules_version``: a game
    begun under that version (default: the newest).
    """
    opts = GAME.spec.resolve_options(options or {})
    rng = random.Random(seed)
    (deck,) = GAME.decks(2, opts)
    rest = list(deck.faces)
    parts = []
    for text in (hand0, hand1, pile):
        wanted = [Card.parse(c) for c in text.split()]
        for c in wanted:
            rest.remove(c)
        parts.append(wanted)
    rng.shuffle(rest)
    order: list[Card] = []
    for wanted, n in zip(parts, (5, 5, len(parts[2])), strict=True):
        order += wanted + [rest.pop() for _ in range(n - len(wanted))]
    order += rest
    truth = {CardRef(deck.id, i): face for i, face in enumerate(order)}
    state = GAME.new_state(2, opts) if rules_version is None else GAME.new_state_under(2, opts, rules_version)
    if size is not None:
        del state.pile[:-size]
    table = Table(GAME, state, truth, [{}, {}], rng)
    table.settle()
    return table


@pytest.fixture
def game():
    return GAME


@pytest.fixture(name="rig")
def _rig():
    return rigged
