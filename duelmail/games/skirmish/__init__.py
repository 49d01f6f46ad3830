"""DUEL skirmish: characters of 13 secret stat cards, sealed fight plans, dual reveals, a battlefield with
terrain (digest: ``seeds/skirmish.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duelmail.games.base import Bots, DeckSpec, Game, GameSpec, Option, register
from duelmail.games.skirmish.battlefield import load
from duelmail.games.skirmish.notation import SEALED_BYTES, SkirmishAction, parse_action, sealed_kind
from duelmail.games.skirmish.rules import SkirmishState

SPEC = GameSpec(
    id="skirmish",
    title="DUEL skirmish",
    rules_version=3,  # 2: K-14 an engaged character may move within its melee (games begun under 1 go on under it)
    # 3: K-14 the melee is the whole fight: a fighter may step away from one foe while engaged with another
    oldest_rules_version=1,
    min_players=2,
    max_players=12,
    options=(
        Option("battlefield", "open-field", "a shipped scenario (open-field, ruined-keep, cliff-top) or the TOML "
               "text of your own, embedded in the genesis (K-33)"),
        Option("turns", 30, "the game is a draw after this many turns (K-34)"),
        Option("mail-shortcuts", False, "by-mail shortcuts that change the source's game: none in DUEL skirmish, "
               "whose rulings change nothing a player may do, know or win (see the digest's departures)"),
    ),
    digest="seeds/skirmish.md",
    removes_seats=True,  # a seat removed by escrow leaves as a player who is out (GameState.remove)
)


class SkirmishGame(Game):
    spec = SPEC
    bots = Bots({"random": "duelmail.games.skirmish.bots:RandomSkirmishBot",
                 "heuristic": "duelmail.games.skirmish.bots:HeuristicBot"})

    def decks(self, nseats: int, options: Mapping[str, Any]) -> tuple[DeckSpec, ...]:
        """No deck: every secret is a sealed choice (K-2)."""
        return ()

    def new_state(self, nseats: int, options: Mapping[str, Any]) -> SkirmishState:
        opts = self.spec.resolve_options(options)
        return SkirmishState(nseats, load(str(opts["battlefield"])), int(opts["turns"]))

    def parse_action(self, text: str) -> SkirmishAction:
        return parse_action(text)

    def sealed_size(self, label: str) -> int:
        return SEALED_BYTES[sealed_kind(label)]


GAME = register(SkirmishGame())
