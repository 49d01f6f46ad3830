"""Issue 14.1 for the deck games (Warlords, Grid Duel, Summoner, Wizard Duel): their hidden choice is the deal,
each seat's secret shuffle and keys. Two runs that differ only in one seat's secret per-game randomness write,
until the first decision, files of the same names, sizes, comment headers and TOML structure (the same deck
tables, the same number of key shares in each file); only points, commitments, proofs, key shares, entropy
boxes, signatures and round hashes differ. Later files name positions, which are public, and faces only once
the rules show them. Skirmish, whose hidden choices are sealed: tests/games/skirmish/test_skirmish_public_bytes.py."""

from __future__ import annotations

import pytest
from public_bytes import assert_same_public_bytes

from duelmail.engine.selfplay import SelfPlay
from duelmail.games.base import get_game


def until_first_decision(game: str, fresh: bytes | None) -> SelfPlay:
    sp = SelfPlay(game, n=get_game(game).spec.min_players, seed=2)
    if fresh is not None:
        sp.matches[1].attach(1, sp.ids[1], fresh)  # seat 1's hidden deal, before it sends anything
    return sp.run(until=lambda m: any(d.decide for d in m.duties.values()), limit=200)


@pytest.mark.parametrize("game", ["warlords", "grid", "summoner", "wizard"])
def test_a_seats_hidden_deal_changes_no_public_size_or_structure(game):
    a, b = until_first_decision(game, None), until_first_decision(game, bytes(range(32)))
    assert a.matches[1].own[1] != b.matches[1].own[1]
    assert len(a.files) >= 4 and any("keys" in f.content for f in a.files)
    assert assert_same_public_bytes(a.files, b.files) >= 3  # seat 1's entropy box, its passes, its key shares
