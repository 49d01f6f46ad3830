"""Summoner: a two-player duel of summoned playing cards, life points and jokers (digest: ``seeds/summoner.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duelmail.games.base import Bots, DeckSpec, Game, GameSpec, Option, RandomBot, register
from duelmail.games.summoner.notation import SummonerAction, parse_action
from duelmail.games.summoner.rules import DECK, DEFAULT_LIFE, FACES, SummonerState

SPEC = GameSpec(
    id="summoner",
    title="Summoner (playing card duel)",
    # 2: the source's rules by default (S-6, S-18, S-21, S-22), the old rulings behind mail-shortcuts;
    # 3: a coin toss decides who starts (S-3); 4: S-16 a combined attack wins a tie (games begun under 3 go on under it)
    rules_version=4,
    oldest_rules_version=3,
    min_players=2,
    max_players=2,
    options=(
        Option("life", DEFAULT_LIFE, "life points each player starts with (S-2)"),
        Option("mail-shortcuts", False, "the by-mail rulings that save files but change the game: a card drawn this "
               "turn cannot be played this turn, direct damage and the defender's replacements wait for its next "
               "turn, the instant win only in one's own summoning phases (S-6, S-18, S-21, S-22)"),
    ),
    digest="seeds/summoner.md",
    draws_lots=True,
)


class SummonerGame(Game):
    spec = SPEC
    bots = Bots({"random": RandomBot, "heuristic": "duelmail.games.summoner.bots:HeuristicBot"})

    def decks(self, nseats: int, options: Mapping[str, Any]) -> tuple[DeckSpec, ...]:
        """One shared deck of 110 cards, shuffled and locked by both seats (S-1)."""
        return (DeckSpec(DECK, FACES),)

    def new_state(self, nseats: int, options: Mapping[str, Any]) -> SummonerState:
        opts = self.spec.resolve_options(options)
        return SummonerState(int(opts["life"]), bool(opts["mail-shortcuts"]))

    def parse_action(self, text: str) -> SummonerAction:
        return parse_action(text)


GAME = register(SummonerGame())
