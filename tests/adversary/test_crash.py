"""Killing a real duelmail process at any point of its writes leaves every game readable and
consistent, and the game goes on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from clitable import Table, dm

KILLER = Path(__file__).with_name("killer.py")


def kill_at(home: Path, point: str, nth: int, *args: str) -> int:
    return subprocess.run([sys.executable, str(KILLER), point, str(nth), "--home", str(home), *args],
                          capture_output=True, text=True).returncode


def game_files(home: Path) -> list[Path]:
    return sorted(p for p in next((home / "games").iterdir()).iterdir() if not p.name.startswith("."))


def resend(t: Table, home: Path) -> None:
    """What a user does after a crash: send every file of the archive the other player lacks."""
    other = t.other(home)
    theirs = {p.name for p in game_files(other)}
    for p in game_files(home):
        if p.name not in theirs and p not in t.inbox[other]:
            t.inbox[other].append(p)


@pytest.mark.parametrize("point", ["write", "replace", "after"])
def test_kill_during_play_and_receive(tmp_path, point):
    t = Table(tmp_path)
    t.play_turns(4)
    for nth in (1, 2, 3):
        t.settle()
        st = t.status(t.alice)
        if st["over"]:
            break
        home = t.alice if "0" in st["awaited"] else t.bob
        code = kill_at(home, point, nth, "play", "--bot", "heuristic", "--out", str(t.out))
        assert code in (-9, 0)
        # whatever happened, the home's archive verifies and holds only whole files
        assert "VERIFIED" in dm(tmp_path, "verify", str(next((home / "games").iterdir())))
        if t.status(home)["your_turn"]:
            dm(home, "play", "--bot", "heuristic", "--out", str(t.out))  # the move was lost: make it again
        resend(t, home)
        # a receive killed half-way leaves a consistent archive; receiving again finishes the job
        receiver = t.other(home)
        kill_at(receiver, point, nth, "receive", *map(str, t.inbox[receiver]), "--out", str(t.out))
        assert "VERIFIED" in dm(tmp_path, "verify", str(next((receiver / "games").iterdir())))
        t.settle()
        resend(t, receiver)
        t.settle()
    t.play_turns(3)
    a, b = t.status(t.alice), t.status(t.bob)
    assert a["over"] == b["over"] and (a["over"] or abs(a["round"] - b["round"]) <= 1)


def test_kill_while_creating_an_identity(tmp_path):
    for point in ("write", "replace"):
        home = tmp_path / point
        assert kill_at(home, point, 1, "id", "new", "kim", "--email", "kim@example.org") == -9
        ids = list((home / "identities").glob("*.toml")) if (home / "identities").exists() else []
        assert ids == []  # no half identity: either none or a whole one
        dm(home, "id", "new", "kim", "--email", "kim@example.org")
        assert "kim <kim@example.org>" in dm(home, "id", "show")


def test_a_receive_killed_right_after_its_answer_says_the_answer_when_run_again(tmp_path, monkeypatch):
    """Issue 38: 'receive' answers by itself (a deck pass) and is killed just after storing the answer, before it
    could say so. Run again, it does not say only "already applied": it names the answer to send."""
    t = Table(tmp_path)
    monkeypatch.setenv("KILL_FROM", "r0002-s0.toml")  # killer.py counts from the answer's own write
    assert kill_at(t.alice, "after", 1, "receive", str(t.out / "r0001-s1.toml")) == -9
    out = dm(t.alice, "receive", str(t.out / "r0001-s1.toml"))
    assert "already applied (nothing changed)" in out, out
    assert "your answer to it is written: " in out and "r0002-s0.toml (send it to the other players" in out, out
