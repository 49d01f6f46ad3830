"""The visibility a Warlords state keeps until it changes (issue 42) is always the one computed afresh."""

from __future__ import annotations

import operator

from duelmail.games.base import PUBLIC, RandomBot
from duelmail.games.warlords.rules import WarlordsState
from duelmail.testing.selfplay import SelfPlay


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
