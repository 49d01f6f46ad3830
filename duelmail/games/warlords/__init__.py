"""Warlords: a duel of two or more players of Warlords, Armies and Aces (digest: ``seeds/warlords.md``)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from duelmail.games.base import Bots, DeckSpec, Game, GameSpec, Option, RandomBot, register
from duelmail.games.cards import standard_deck
from duelmail.games.warlords.notation import WarlordsAction, parse_action
from duelmail.games.warlords.rules import ALLY_COLOUR, DECK_IDS, REINFORCE_COLOUR, WarlordsState, deck_id

SPEC = GameSpec(
    id="warlords",
    title="Warlords",
    # 2: the source's rules by default (W-18, W-19, W-25, W-26, W-29); old rulings: mail-shortcuts
    # 3: W-18's window for seats not in the battle (three or more players), W-25's window in the renewal
    # 4: W-19 an Ace costs an attacker without a Warlord a card at every point (games begun under 3 go on under it)
    rules_version=4,
    oldest_rules_version=3,
    min_players=2,
    max_players=len(DECK_IDS),
    options=(
        Option("reinforcements", False, "each deck gets a red joker (XR) that reshuffles discards back (W-25)"),
        Option("hidden-ally", False, "each deck gets a black joker (XB) that plays as any card (W-27)"),
        Option("mail-shortcuts", False, "the by-mail rulings that save files but change the game: an Ace outside "
               "battle and the Reinforcements joker only in one's own preparation, the emergency joker at the start "
               "of one's next turn, damage milled beneath a reserved draw (W-18, W-25, W-26, W-29)"),
    ),
    digest="seeds/warlords.md",
    removes_seats=True,  # a seat removed by escrow leaves as a player who is out (GameState.remove)
)


class WarlordsGame(Game):
    spec = SPEC
    bots = Bots({"random": RandomBot, "heuristic": "duelmail.games.warlords.bots:HeuristicBot"})

    def decks(self, nseats: int, options: Mapping[str, Any]) -> tuple[DeckSpec, ...]:
        """One deck per seat, locked by its owner and the seat that attacks it (W-1, W-2)."""
        opts = self.spec.resolve_options(options)
        jokers = (REINFORCE_COLOUR if opts["reinforcements"] else "") + (ALLY_COLOUR if opts["hidden-ally"] else "")
        faces = standard_deck(jokers)
        return tuple(DeckSpec(deck_id(s), faces, owner=s, lockers=(s, (s - 1) % nseats))
                     for s in range(nseats))

    def new_state(self, nseats: int, options: Mapping[str, Any]) -> WarlordsState:
        opts = self.spec.resolve_options(options)
        return WarlordsState(nseats, bool(opts["reinforcements"]), bool(opts["hidden-ally"]),
                             bool(opts["mail-shortcuts"]))

    def parse_action(self, text: str) -> WarlordsAction:
        return _parsed(text) if text.__class__ is str else parse_action(text)


# an action's text as its action (frozen, never changed): 'pass' and 'end' are two in three of a game's actions (an
# error is not kept)
_parsed = functools.lru_cache(maxsize=1024)(parse_action)


GAME = register(WarlordsGame())
