"""Helpers for the Wizard Duel tests: rigged deals (chosen faces in chosen hands, Lives and draws) and short plays."""

from __future__ import annotations

import random

import pytest

from duelmail.games.base import get_game
from duelmail.games.cards import Card, CardRef
from duelmail.games.simulate import Table

GAME = get_game("wizard")


def rigged(n: int = 4, hands: dict[int, str] | None = None, draws: str = "", lives: dict[int, str] | None = None,
           options: dict | None = None, seed: int = 0) -> Table:
    """A dealt table with chosen faces.

    ``hands`` puts cards straight into hands (taken from the bottom of the stock); ``draws`` are the faces
    of the draws in order, the first being the card seat 0 has just drawn; ``lives`` the faces of a seat's
    Lives, lowest first. Every other card is shuffled (seeded).
    """
    opts = GAME.spec.resolve_options(options or {})
    state = GAME.new_state(n, opts)
    rng = random.Random(seed)
    rest = list(GAME.decks(n, opts)[0].faces)
    truth: dict[CardRef, Card] = {}

    def put(ref: CardRef, text: str) -> None:
        face = Card.parse(text)
        rest.remove(face)
        truth[ref] = face

    for seat, text in (hands or {}).items():
        for face in text.split():
            ref = state.stock.pop()
            state.hands[seat].append(ref)
            put(ref, face)
    order = [state.hands[0][0], *state.stock]
    for ref, face in zip(order, draws.split(), strict=False):
        put(ref, face)
    for seat, text in (lives or {}).items():
        for ref, face in zip(state.lives[seat], text.split(), strict=False):
            put(ref, face)
    rng.shuffle(rest)
    for i in range(52):
        ref = CardRef("w", i)
        if ref not in truth:
            truth[ref] = rest.pop()
    if state.anytime:
        state.open_window()
    table = Table(GAME, state, truth, [{} for _ in range(n)], rng)
    table.settle()
    return table


def cards(table: Table, seat: int, *faces: str) -> str:
    """``REF=face`` words for the named faces in ``seat``'s hand (e.g. ``cards(t, 0, '7h', 'qh')``)."""
    out = []
    for text in faces:
        face = Card.parse(text)
        ref = next(r for r in table.state.hands[seat] if table.truth[r] == face)
        out.append(f"{ref}={text.lower()}")
    return " ".join(out)


@pytest.fixture
def game():
    return GAME


@pytest.fixture(name="rig")
def _rig():
    return rigged
