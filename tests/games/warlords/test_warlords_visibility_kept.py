"""The visibility a Warlords state keeps until it changes (issue 42) is always the one computed afresh."""

from __future__ import annotations

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duelmail.games.base import PUBLIC, RandomBot, get_game
from duelmail.games.simulate import Table
from duelmail.games.warlords.notation import Defend, Pass, Support
from duelmail.games.warlords.rules import WarlordsState
from duelmail.games.warlords.terms import A_SUPPORT, DEFEND, OUTSIDE
from duelmail.testing.selfplay import SelfPlay

GAME = get_game("warlords")
OPTIONS = ({}, {"reinforcements": True}, {"reinforcements": True, "hidden-ally": True, "mail-shortcuts": True})


def test_kept_visibility_is_always_the_fresh_one(monkeypatch):
    kept = WarlordsState.visibility
    asked = []

    def checked(self):
        vis = kept(self)
        assert vis == self._visibility()
        asked.append(vis)
        return vis

    monkeypatch.setattr(WarlordsState, "visibility", checked)
    options = {"reinforcements": True, "hidden-ally": True, "mail-shortcuts": True}
    SelfPlay("warlords", n=3, seed=4, options=options, bots=[RandomBot() for _ in range(3)]).run()
    assert len(asked) > 1000
    assert len({id(v) for v in asked}) < len(asked)  # kept: the same dict asked for again


def test_a_change_drops_it():
    st = WarlordsState(2)
    before = st.visibility()
    assert st.visibility() is before
    st.remove(1)
    assert st.visibility() is not before and st.visibility() == st._visibility()


def test_a_reveal_keeps_it_unless_a_battle_resolves(monkeypatch):
    """A face turned up keeps the visibility (checked against a fresh one at every call above), except when it
    completes a battle's reveal or breaks a claim: then the kept one is dropped."""
    reveal = WarlordsState.reveal
    kept, dropped = [], []

    def counted(self, ref, face):
        before = self.visibility()
        found = reveal(self, ref, face)
        (kept if self._vis is before else dropped).append(ref)
        if self._vis is before:
            assert not found and before == self._visibility()
        return found

    monkeypatch.setattr(WarlordsState, "reveal", counted)
    options = {"reinforcements": True, "hidden-ally": True, "mail-shortcuts": True}
    SelfPlay("warlords", n=3, seed=4, options=options, bots=[RandomBot() for _ in range(3)]).run()
    assert kept and dropped


def test_discards_kept_give_the_fresh_visibility(monkeypatch):
    """A visibility made with the discard piles' entries kept from the last one made (``_discarded``) is the one made
    without them, in the same order (a seat's holding row on a replay's page is in this order), also once
    reinforcement leftovers lie locked among the discards."""
    made = WarlordsState._visibility
    reused, locked = [], []

    def checked(self):
        kept = self._discarded
        vis = made(self)
        after, self._discarded = self._discarded, None
        assert list(vis.items()) == list(made(self).items())
        self._discarded = after
        if kept is not None:
            n = sum(map(operator.is_, after[1], kept[1]))
            reused.append(n)
            if n and self.locked:
                locked.append(n)
        return vis

    monkeypatch.setattr(WarlordsState, "_visibility", checked)
    options = {"reinforcements": True, "hidden-ally": True, "mail-shortcuts": True}
    SelfPlay("warlords", n=3, seed=4, options=options, bots=[RandomBot() for _ in range(3)]).run()
    assert sum(reused) > 1000 and locked


def test_discards_kept_follow_the_locked_leftovers():
    """A discard locked since (the lists changed by hand, so ``_vis`` dropped by hand) is not public any more."""
    st = WarlordsState(2)
    ref = st.hands[0].pop()
    st.discards[0].append(ref)
    st._vis = None
    assert st.visibility()[ref] == PUBLIC
    st.locked.add(ref)
    st._vis = None
    assert ref not in st.visibility()


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 6), seed=st.integers(0, 10_000), options=st.sampled_from(OPTIONS),
       names=st.lists(st.sampled_from(("heuristic", "random")), min_size=6, max_size=6))
def test_a_move_that_moves_no_card_keeps_it(n, seed, options, names):
    """An ``apply`` that keeps the visibility (a pass outside battle, a Defence without an Army, no attacker's
    Support: ``_still``) keeps one equal to a fresh one, in the same order (a replay's holding rows are in this order);
    any other move drops it. Over random games of every size and option (the rules alone, no cryptography)."""
    table = Table.deal(GAME, n, options, seed=seed)
    state = table.state
    bots = [GAME.bots[name]() for name in names[:n]]
    apply = WarlordsState.apply
    kept, dropped = [], []

    def checked(self, seat, action):
        before = self.visibility()
        apply(self, seat, action)
        if self._vis is before:
            kept.append(action)
            assert list(before.items()) == list(self._visibility().items()), action
        else:
            assert self._vis is None
            dropped.append(action)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(WarlordsState, "apply", checked)
        table.run(bots)
    assert state.is_terminal() and dropped
    assert all(type(a) in (Pass, Defend, Support) for a in kept)


def test_a_move_that_moves_no_card_keeps_it_in_a_long_game():
    """Each of the three ways kept at least once in one game, the kept visibility the fresh one each time (checked
    by the test above, run here on one known game)."""
    kinds = set()
    apply = WarlordsState.apply

    def counted(self, seat, action):
        before, phase = self.visibility(), self.phase
        apply(self, seat, action)
        if self._vis is before:
            assert list(before.items()) == list(self._visibility().items())
            kinds.add((type(action).__name__, phase))

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(WarlordsState, "apply", counted)
        for seed in range(3):
            table = Table.deal(GAME, 5, {}, seed=seed)
            table.run([GAME.bots["random"]() for _ in range(5)])
    assert kinds == {("Pass", OUTSIDE), ("Defend", DEFEND), ("Support", A_SUPPORT)}
