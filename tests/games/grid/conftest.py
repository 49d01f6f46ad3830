"""Helpers for the Grid Duel tests: rigged deals (named cards at chosen positions) and short plays."""

from __future__ import annotations

import random

import pytest

from duelmail.games.base import get_game
from duelmail.games.cards import Card, CardRef
from duelmail.games.grid.library import deck
from duelmail.games.simulate import Table

GAME = get_game("grid")
DECKS = ("vanguard", "bastion", "hive", "pack", "tempest")


def rigged(cards: dict[int, str] | None = None, deck0: str = "vanguard", deck1: str = "bastion",
           seed: int = 0, options: dict | None = None, rules_version: int | None = None) -> Table:
    """A dealt table where seat s's deck starts with the cards named in ``cards[s]`` (comma separated).

    Positions #0..#3 are the hand, #4 the first draw, #5 the next, and so on; the rest of each
    deck is shuffled with ``seed``. A name picks the first unused card of that name. ``rules_version``: a game
    begun under that version (default: the newest).
    """
    opts = GAME.spec.resolve_options({"deck0": deck0, "deck1": deck1, **(options or {})})
    rng = random.Random(seed)
    truth: dict[CardRef, Card] = {}
    for s, name in enumerate((deck0, deck1)):
        rest = list(deck(name).cards(s))
        wanted = []
        for want in filter(None, (w.strip() for w in (cards or {}).get(s, "").split(","))):
            pick = next(fc for fc in rest if fc[1].name == want)
            rest.remove(pick)
            wanted.append(pick[0])
        tail = [f for f, _ in rest]
        rng.shuffle(tail)
        for i, face in enumerate(wanted + tail):
            truth[CardRef("ab"[s], i)] = face
    state = GAME.new_state(2, opts) if rules_version is None else GAME.new_state_under(2, opts, rules_version)
    table = Table(GAME, state, truth, [{}, {}], rng)
    table.settle()
    return table


@pytest.fixture
def game():
    return GAME


@pytest.fixture(name="rig")
def _rig():
    return rigged
