"""Issue 18 through the CLI: commands start from the kept state and fold at most once; ``verify`` never uses it."""

from __future__ import annotations

import pytest
from clitable import Table, dm

from duelmail.cli.cached import SHOW_CACHE
from duelmail.transport import archive, kept


@pytest.fixture
def folds(monkeypatch):
    """Every fold of a whole log made while the test runs."""
    calls = []
    real = archive.fold

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(archive, "fold", counted)
    monkeypatch.setattr(kept, "fold", counted)
    import duelmail.app as app

    monkeypatch.setattr(app, "fold", counted)
    return calls


def test_receive_play_status_show_moves_fold_nothing_once_kept(tmp_path, folds):
    t = Table(tmp_path)
    t.play_turns(6)
    t.settle()
    st = t.status(t.alice)
    home = t.alice if "0" in st["awaited"] else t.bob
    assert "send " in t.turn(home, "--bot", "heuristic", "--seed", "3")
    folds.clear()
    other = t.other(home)
    dm(other, "receive", *map(str, t.inbox[other]), "--out", str(t.out))  # applied to the kept state
    t.inbox[other] = []
    dm(other, "status")
    dm(other, "show")
    dm(other, "moves")
    assert folds == []


def test_a_deleted_kept_state_costs_one_fold_and_verify_never_reads_it(tmp_path, folds, monkeypatch):
    t = Table(tmp_path)
    t.play_turns(4)
    game = next((t.bob / "games").iterdir())
    (game / kept.NAME).unlink()
    (game / SHOW_CACHE).unlink()  # written by the last command: the show it would print
    folds.clear()
    dm(t.bob, "show")
    assert len(folds) == 1 and (game / kept.NAME).exists()  # folded once, kept again
    monkeypatch.setattr(kept, "load", lambda *a: pytest.fail("verify read the kept state"))
    folds.clear()
    assert "VERIFIED" in dm(tmp_path, "verify", str(game))
    assert len(folds) == 1
