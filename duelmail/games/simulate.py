"""Play a game with plain shuffled decks and no cryptography: the reference the engine must match.

The simulator holds the truth (every ref's face), performs shuffles with a seeded RNG, tells
each seat exactly what ``visibility()`` lets it see, and reveals every ``PUBLIC`` ref. Rules
tests and random playouts use it; the crypto engine must produce the same game from the same
choices.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

from duelmail.errors import DuelmailError
from duelmail.games.base import PUBLIC, Action, Bot, Game, GameEvent, GameState, Known, Outcome, Sealed, Violation
from duelmail.games.cards import Card, CardRef
from duelmail.util.classes import dataclass


@dataclass
class Table:
    """A game in progress with the truth in plain sight (for tests and bots, never for play)."""

    game: Game
    state: GameState
    truth: dict[CardRef, Card]
    seen: list[dict[CardRef, Card]]
    rng: random.Random
    history: list[tuple[int, Action]] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    sealed: dict[tuple[int, str], Action] = field(default_factory=dict)  # every sealed choice, in plain sight
    opened: set[tuple[int, str]] = field(default_factory=set)
    told: list[GameEvent] = field(default_factory=list)  # every outcome the rules told, in order

    @classmethod
    def deal(cls, game: Game, nseats: int, options: Mapping[str, Any] | None = None,
             seed: int = 0) -> Table:
        opts = game.spec.resolve_options(options or {})
        rng = random.Random(seed)
        truth: dict[CardRef, Card] = {}
        for deck in game.decks(nseats, opts):
            faces = list(deck.faces)
            rng.shuffle(faces)
            for i, face in enumerate(faces):
                truth[CardRef(deck.id, i)] = face
        table = cls(game, game.new_state(nseats, opts), truth, [{} for _ in range(nseats)], rng)
        table.settle()
        return table

    def known(self, seat: int) -> Known:
        mine = {label: a for (s, label), a in self.sealed.items() if s == seat}
        return Known({**self.state.public_faces(), **self.seen[seat]}, mine)

    def settle(self) -> None:
        """Perform chance and reveals until a decision (or the end) is awaited."""
        for _ in range(10_000):
            shuffle = self.state.chance()
            if shuffle is not None:
                faces = [self.truth[r] for r in shuffle.refs]
                self.rng.shuffle(faces)
                for ref, face in zip(shuffle.new_refs(), faces, strict=True):
                    self.truth[ref] = face
                self.state.apply_shuffle(shuffle)
                self.told += self.state.take_told()
                continue
            revealed = False
            public = self.state.public_faces()
            for ref, who in sorted(self.state.visibility().items()):
                if who == PUBLIC:
                    if ref not in public:
                        self.told += self.state.take_told()
                        self.violations += self.state.reveal(ref, self.truth[ref])
                        revealed = True
                else:
                    self.seen[who][ref] = self.truth[ref]
            wanted = [(seat, label) for seat, labels in sorted(self.state.openings().items()) for label in labels
                      if (seat, label) not in self.opened and (seat, label) in self.sealed]
            if wanted:  # one at a time: an opening may change what the rules want next
                self.opened.add(wanted[0])
                self.state.apply_open(*wanted[0], self.sealed[wanted[0]])
                revealed = True
            if not revealed:
                self.told += self.state.take_told()
                return
        raise DuelmailError("the rules keep asking for reveals or shuffles without end")

    def play(self, seat: int, action: Action) -> None:
        """Apply a decision; a secret choice reaches the rules as ``Sealed`` and is opened when they ask."""
        label = action.sealed()
        if label is not None:
            self.state.apply(seat, Sealed(label))
            self.sealed[(seat, label)] = action
        else:
            self.state.apply(seat, action)
        self.told += self.state.take_told()
        self.history.append((seat, action))
        self.settle()

    def remove(self, seat: int) -> None:
        """``seat`` is removed by escrow (protocol section 6c): the rules remove it (``GameState.remove``), then
        chance, reveals and openings go on as after any decision."""
        self.state.remove(seat)
        self.told += self.state.take_told()
        self.settle()

    def run(self, bots: Sequence[Bot], max_actions: int = 20_000) -> Outcome:
        for _ in range(max_actions):
            if self.state.is_terminal():
                outcome = self.state.outcome()
                assert outcome is not None
                return outcome
            deciders = self.state.deciders()
            if not deciders:
                raise DuelmailError("no seat to move, no chance and no reveal pending: the rules are stuck")
            seat = deciders[0]
            self.play(seat, bots[seat].choose(self.state, seat, self.known(seat), self.rng))
        raise DuelmailError(f"no end after {max_actions} actions")


def playout(game: Game, nseats: int, bots: Sequence[Bot], options: Mapping[str, Any] | None = None,
            seed: int = 0) -> tuple[Outcome, Table]:
    table = Table.deal(game, nseats, options, seed)
    return table.run(bots), table
