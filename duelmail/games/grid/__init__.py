"""Grid Duel: a 3x3 battlefield of face-down cards, Strike, Boost, Ally and Merge (digest: ``seeds/grid.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duelmail.errors import NotationError
from duelmail.games.base import Bots, DeckSpec, Game, GameSpec, Option, RandomBot, register
from duelmail.games.grid.library import library
from duelmail.games.grid.notation import GridAction, parse_action
from duelmail.games.grid.rules import DECK_IDS, GridState
from duelmail.util.classes import dataclass


@dataclass(frozen=True)
class DeckOption(Option):
    """A deck name: refused at once unless it is one of the shipped decks (G-2)."""

    def coerce(self, text: str | bool | int) -> str:
        name = str(text).strip().lower()
        if name not in library():
            raise NotationError(f"option {self.name}: no deck {text!r} (decks: {', '.join(sorted(library()))})")
        return name


SPEC = GameSpec(
    id="grid",
    title="Grid Duel",
    rules_version=6,  # 2: G-27 as the source; 3: G-7, G-8, G-25 as the source; 4: G-8 orientation by default;
    # 5: G-23 as the source, a card with Allies on it moves (games begun under 4 go on under it)
    # 6: G-23 a move may name its card (move a#5 c2), so an Ally steps off any card, a Rooted one included
    oldest_rules_version=4,
    min_players=2,
    max_players=2,
    options=(
        DeckOption("deck0", "vanguard", "the start player's deck (seat 0): " + ", ".join(sorted(library()))),
        DeckOption("deck1", "vanguard", "the other player's deck (seat 1), chosen first (G-2)"),
        Option("mail-shortcuts", False, "the old by-mail rulings that change the source's game (G-7: reveal and "
               "concede only before the turn's action; G-8, G-25: cards turned up in the opponent's turn wait for "
               "their owner's next turn; G-27: ten turns without a card played from a hand end the game); see the "
               "digest's departures"),
    ),
    digest="seeds/grid.md",
)


class GridGame(Game):
    spec = SPEC
    bots = Bots({"random": RandomBot, "heuristic": "duelmail.games.grid.bots:HeuristicBot"})

    def decks(self, nseats: int, options: Mapping[str, Any]) -> tuple[DeckSpec, ...]:
        """Each seat's own deck, locked by both seats (G-4); faces stand for designed cards (G-3)."""
        opts = self.spec.resolve_options(options)
        out = []
        for s in range(2):
            faces = tuple(face for face, _ in library()[opts[f"deck{s}"]].cards(s))
            out.append(DeckSpec(DECK_IDS[s], faces, owner=s))
        return tuple(out)

    def new_state(self, nseats: int, options: Mapping[str, Any]) -> GridState:
        opts = self.spec.resolve_options(options)
        return GridState(str(opts["deck0"]), str(opts["deck1"]), bool(opts["mail-shortcuts"]))

    def parse_action(self, text: str) -> GridAction:
        return parse_action(text)


GAME = register(GridGame())
