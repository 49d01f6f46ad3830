"""The visibility a Warlords state keeps until it changes (issue 42) is always the one computed afresh."""

from __future__ import annotations

from duelmail.games.base import RandomBot
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
