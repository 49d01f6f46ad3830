"""Retired lockers (protocol §6 "Retired lockers"): a seat the rules retire publishes its per-game seed in its
next file; every receiver then derives its key shares and deck passes, and the seat is never awaited again.

High Card with option ``retire``: ``fold`` puts a seat out for good and turns its card face up."""

from __future__ import annotations

import copy
import os

import pytest
from helpers import Players

from duelmail.crypto.encoding import b64e
from duelmail.errors import FileRefused
from duelmail.games.cards import CardRef
from duelmail.protocol.turnfile import SignedFile

OPTIONS = {"retire": True, "reshuffle": True}


def resign(f: SignedFile, identity, drop: tuple[str, ...] = (), **changes) -> SignedFile:
    content = copy.deepcopy(f.content)
    for key in drop:
        content.pop(key, None)
    content.update(changes)
    return SignedFile.sign(content, identity)


def refused(p: Players, f: SignedFile, rule: str) -> FileRefused:
    """``f`` is refused by a fresh fold, naming file, round, seat and rule; the players' matches are untouched."""
    before = [(m.round, m.prev, len(m.current)) for m in p.matches]
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(f, "incoming.toml")
    e = info.value
    assert e.rule == rule and e.round == f.round and e.seat == f.seat, str(e)
    assert "incoming.toml" in str(e) and f"round {f.round}" in str(e) and f"seat {f.seat}" in str(e)
    assert [(m.round, m.prev, len(m.current)) for m in p.matches] == before
    return e


def to_decision(p: Players, seat: int) -> None:
    p.run(until=lambda m: seat in m.duties and m.duties[seat].decide)


def finish(p: Players, script: dict[int, list[str]]) -> list[int]:
    """Play every round to the end, deciders following ``script``; return the seats awaited in every round."""
    awaited = []
    for _ in range(200):
        m = p.match
        if m.finished:
            return awaited
        awaited.append(set(m.duties))
        for seat in sorted(m.duties):
            p.deliver(p.compose(seat, [script[seat].pop(0)] if m.duties[seat].decide else []))
    pytest.fail("the game did not finish")


def test_a_folding_seat_publishes_its_seed_and_is_never_awaited_again():
    p = Players(n=3, seed=1, options=OPTIONS)
    to_decision(p, 0)
    hand = p.match.state.hands[0]
    fold = p.compose(0, ["fold"])
    assert "seed" in fold.content  # compose adds it: the file's own action retired the seat
    p.deliver(fold)
    for m in p.matches:
        assert m.retired_seeds == {0} and 0 not in m.duties
        assert hand in m.faces  # its card was turned up: every other share was out already
        deck = m.book.decks["s"]
        assert len(deck.keys[0]) == deck.n  # every share of seat 0 derived from its seed
    rnd = p.match.round
    awaited = finish(p, {1: ["swap"], 2: ["keep"]})
    m = p.match
    assert m.finished and m.audit.ok, m.audit.lines
    assert all(0 not in seats for seats in awaited)
    assert [f for f in p.files if f.content.get("seat") == 0 and f.round >= rnd] == []
    reshuffled = m.book.decks["s.1"]  # seat 1's swap reshuffled: seat 0's passes came from its seed
    assert reshuffled.locked and [s.op for s in reshuffled.steps if s.seat == 0] == ["unify", "shuffle_lock"]
    assert m.outcome().winners[0] in (1, 2)
    assert all(other.prev == m.prev for other in p.matches)
    again = p.fresh()
    assert again.prev == m.prev and again.retired_seeds == {0} and again.audit.ok
    assert again.audit.faces == m.audit.faces


def test_retired_seed_opens_every_later_share_without_a_file():
    """A draw after the fold needs seat 0's key: nobody waits for it."""
    p = Players(n=3, seed=2, options={"retire": True})
    to_decision(p, 0)
    p.deliver(p.compose(0, ["fold"]))
    to_decision(p, 1)
    p.deliver(p.compose(1, ["swap"]))
    m = p.match
    drawn = m.state.hands[1]
    assert drawn == CardRef("s", 3) and m.duties.keys() == {2} and m.duties[2].decide
    assert 0 in m.book.decks["s"].keyed_by(drawn.index) and not m.owed(0)
    assert m.owed(2) == {drawn}  # only the seat still in play owes its share for the draw


def test_a_seed_from_a_seat_still_in_play_is_refused():
    p = Players(n=3, seed=1, options=OPTIONS)
    to_decision(p, 0)
    keep = p.compose(0, ["keep"])
    early = resign(keep, p.ids[0], seed=b64e(p.match.own[0]))
    e = refused(p, early, "P-seed")
    assert "still in play" in str(e) and "CHEAT" in str(e)
    p.deliver(keep)
    to_decision(p, 1)  # seat 1's answer with a seed, while seat 0 (not retired) kept its card
    swap = p.compose(1, ["swap"])
    refused(p, resign(swap, p.ids[1], seed=b64e(p.matches[1].own[1])), "P-seed")


def test_a_false_seed_from_a_retired_seat_is_refused():
    """The derived shares are checked against the seat's commitments, as any share is."""
    p = Players(n=3, seed=1, options=OPTIONS)
    to_decision(p, 0)
    fold = p.compose(0, ["fold"])
    e = refused(p, resign(fold, p.ids[0], seed=b64e(os.urandom(32))), "P-keys")
    assert "derived from seat 0's published seed" in str(e) and "does not match the commitment" in str(e)


def test_a_retired_seat_owes_its_seed_in_its_next_file():
    """Retired by the rules in one file, awaited for its shares in a later round: that file must carry the seed."""
    p = Players(n=3, seed=1, options=OPTIONS)
    to_decision(p, 0)
    fold = p.compose(0, ["fold"])
    p.deliver(resign(fold, p.ids[0], drop=("seed",)))  # legal: nothing awaited the seed in that round
    assert 0 in p.match.state.retired() and not p.match.retired_seeds and 0 not in p.match.duties
    to_decision(p, 1)
    p.deliver(p.compose(1, ["swap"]))  # the reshuffle needs seat 0's passes: it is awaited for the first
    p.run(until=lambda m: 0 in m.duties)
    m = p.match
    assert m.duties[0].steps == ["s.1"] and m.duties[0].seed and m.duties[0].retired
    assert "retired" in m.duties[0].describe()
    owed = p.compose(0)
    assert "seed" in owed.content and owed.content["deck"]["s.1"]["op"] == "unify"
    refused(p, resign(owed, p.ids[0], drop=("seed",)), "P-seed")
    p.deliver(owed)
    deck = p.match.book.decks["s.1"]
    assert p.match.retired_seeds == {0} and deck.done == 3 and deck.next_step().seat == 1  # its shuffle_lock: later
    awaited = finish(p, {1: [], 2: ["keep"]})
    assert deck.locked and [s.op for s in deck.steps if s.seat == 0] == ["unify", "shuffle_lock"]
    assert p.match.finished and p.match.audit.ok and all(0 not in seats for seats in awaited)
    assert p.fresh().prev == p.match.prev
