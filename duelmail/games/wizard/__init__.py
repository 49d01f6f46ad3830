"""Wizard Duel: three or more wizards hex each other with same-suit pairs; Lives nobody has seen (digest:
``seeds/wizard.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duelmail.games.base import Bots, DeckSpec, Game, GameSpec, Option, RandomBot, register
from duelmail.games.wizard.notation import WizardAction, parse_action
from duelmail.games.wizard.rules import DECK, FACES, LIVES, WizardState

SPEC = GameSpec(
    id="wizard",
    title="Wizard Duel",
    rules_version=3,  # 2: a player who is out turns up its hand and publishes its seed (Z-19); 3: Z-10 as the source
    min_players=3,
    max_players=12,
    options=(
        Option("sudden-death", False, "start with no Lives: the first blow puts a player out (Z-2)"),
        Option("anytime", False, "attack any time: an attack window for the others after every draw (Z-22)"),
        Option("answer-hours", 0, "hours an attacked player has to answer before 'take' is played; "
                                  "0: the ordinary time per move (Z-23)"),
        Option("mail-shortcuts", False, "the old by-mail rulings that change the source's game (Z-10: an ace "
               "stands highest when choosing the defence's effect); see the digest's departures"),
    ),
    digest="seeds/wizard.md",
    removes_seats=True,  # a seat removed by escrow leaves as a player who is out (GameState.remove)
    draws_ahead=True,  # a reshuffle's first draw; a turn with under two cards can only pass (WizardState.draws_ahead)
)


class WizardGame(Game):
    spec = SPEC
    bots = Bots({"random": RandomBot, "heuristic": "duelmail.games.wizard.bots:HeuristicBot"})

    def decks(self, nseats: int, options: Mapping[str, Any]) -> tuple[DeckSpec, ...]:
        """One shared 52-card deck, shuffled and locked by every seat (Z-1)."""
        return (DeckSpec(DECK, FACES),)

    def new_state(self, nseats: int, options: Mapping[str, Any]) -> WizardState:
        opts = self.spec.resolve_options(options)
        return WizardState(nseats, 0 if opts["sudden-death"] else LIVES, bool(opts["anytime"]),
                           int(opts["answer-hours"]), bool(opts["mail-shortcuts"]))

    def parse_action(self, text: str) -> WizardAction:
        return parse_action(text)


GAME = register(WizardGame())
