"""A Warlords snapshot (a replay's step) shares what did not change with the last one (issue 42) and still reads,
field by field, as a clone taken at the same moment; no later snapshot changes an earlier one."""

from __future__ import annotations

import pickle

from duelmail.games.base import RandomBot
from duelmail.games.warlords.rules import WarlordsState
from duelmail.testing.selfplay import SelfPlay


def fields(state: WarlordsState) -> dict:
    return {k: v for k, v in vars(state).items() if k not in ("_vis", "_discarded")}  # kept for the visibility:
    # not pickled


def test_snapshots_read_as_clones_and_stay_as_taken(monkeypatch):
    taken: list[tuple[WarlordsState, bytes]] = []  # each snapshot, and a clone of the state then, pickled
    kept = WarlordsState.apply

    def apply(self, *args, **kwargs):
        out = kept(self, *args, **kwargs)
        if self is game.match.state:
            snap = self.snapshot(taken[-1][0] if taken else None)
            assert fields(snap) == fields(self.clone())
            taken.append((snap, pickle.dumps(self.clone())))
        return out

    monkeypatch.setattr(WarlordsState, "apply", apply)
    options = {"reinforcements": True, "hidden-ally": True, "mail-shortcuts": True}
    game = SelfPlay("warlords", n=3, seed=4, options=options, bots=[RandomBot() for _ in range(3)])
    game.run()
    assert len(taken) > 100
    for snap, then in taken:  # as it was taken, whatever the game did after
        assert fields(snap) == fields(pickle.loads(then))
    shared = sum(a.piles[s] is b.piles[s] for (a, _), (b, _) in zip(taken, taken[1:], strict=False) for s in range(3))
    assert shared > len(taken)  # most piles are shared with the snapshot before


def test_without_a_previous_snapshot_it_is_a_clone():
    st = WarlordsState(2)
    snap = st.snapshot(None)
    assert vars(snap) == vars(st.clone()) and snap.hands is not st.hands and snap.hands[0] is not st.hands[0]
