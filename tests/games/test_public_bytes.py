"""Issue 14.1 for the deck games (Warlords, Grid Duel, Summoner, Wizard Duel): their hidden choice is the deal,
each seat's secret shuffle and keys. Two runs that differ only in one seat's secret per-game randomness write,
until the first decision, files of the same names, sizes, comment headers and TOML structure (the same deck
tables, the same number of key shares in each file); only points, commitments, proofs, key shares, entropy
boxes, signatures and round hashes differ. Later files name positions, which are public, and faces only once
the rules show them. Skirmish, whose hidden choices are sealed: tests/games/skirmish/test_skirmish_public_bytes.py."""

from __future__ import annotations

import pytest
from public_bytes import assert_same_public_bytes
from rigged import starter

from duelmail.games.base import get_game
from duelmail.testing.selfplay import SelfPlay


def until_first_decision(game: str, fresh: bytes | None, first: int | None = None) -> SelfPlay:
    """``fresh``: seat 1's hidden deal; ``first``: in a game that draws lots, the first such deal (from ``fresh``
    on) whose coin toss chooses that seat, as the toss is public chance of its own, not part of the deal (S-3)."""
    sp = SelfPlay(game, n=get_game(game).spec.min_players, seed=2)
    for i in range(64):
        if fresh is not None:
            sp.matches[1].attach(1, sp.ids[1], bytes([(b + i) % 256 for b in fresh]))  # before it sends anything
        if first is None or not get_game(game).spec.draws_lots or starter(sp) == first:
            break
    return sp.run(until=lambda m: any(d.decide for d in m.duties.values()), limit=200)


@pytest.mark.parametrize("game", ["warlords", "grid", "summoner", "wizard"])
def test_a_seats_hidden_deal_changes_no_public_size_or_structure(game):
    a = until_first_decision(game, bytes(32), first=0)  # seat 0 starts: seat 1's files until then are set-up only
    b = until_first_decision(game, bytes(range(32)), first=0)
    assert a.matches[1].own[1] != b.matches[1].own[1]
    assert len(a.files) >= 4 and any("keys" in f.content for f in a.files)
    assert assert_same_public_bytes(a.files, b.files) >= 3  # seat 1's entropy box, its passes, its key shares
