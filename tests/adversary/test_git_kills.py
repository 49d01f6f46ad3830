"""Killing a real ``duelmail git sync`` after any of its git steps (its git children run to their end, then the
process is SIGKILLed), or in the middle of a rebase, never stops the game: the next sync finishes or undoes what
was left (a staged change, a file written and not added, a rebase in progress) and both players get every file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clitable import dm

sys.path.insert(0, str(Path(__file__).parents[1] / "transport"))
from test_git import GitTable, git  # noqa: E402

KILLER = Path(__file__).with_name("gitkiller.sh")
REAL_GIT = shutil.which("git")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """Alice and Bob in the middle of a game by git; each has said something the other has not read: Alice's
    note is pushed, Bob's only written in his home (his next sync commits it, rebases on Alice's and pushes)."""
    tmp = tmp_path_factory.mktemp("gitkill") / "base"
    tmp.mkdir()
    t = GitTable(tmp)
    t.start("skirmish")  # a game without a deck: what is killed is git, so no time goes to shuffling cards
    t.join(1)
    for home in t.homes:
        dm(home, "git", "sync")
    alice, bob = t.homes
    dm(bob, "say", "bob's words")
    dm(alice, "say", "alice's words", "--push")
    return tmp


def copy(base: Path, to: Path) -> tuple[Path, Path]:
    """The whole table copied to ``to`` (homes, clones and remote), each path pointing inside the copy."""
    shutil.copytree(base, to, symlinks=True)
    for home in ("alice", "bob"):
        cfg = to / home / "config.toml"
        cfg.write_text(cfg.read_text().replace(str(base), str(to)))
        git(to / f"{home}-clone", "remote", "set-url", "origin", str(to / "remote.git"))
    return to / "alice", to / "bob"


def killed_sync(home: Path, tmp: Path, at: int, how: str = "after") -> tuple[int, list[str]]:
    """``duelmail git sync`` in its own process, killed at its ``at``-th git call; its exit code and git calls."""
    shim = tmp / "shim"
    shim.mkdir(exist_ok=True)
    shutil.copy(KILLER, shim / "git")
    (shim / "git").chmod(0o755)
    calls = tmp / "calls"
    calls.write_text("")
    env = dict(os.environ, PATH=f"{shim}:{os.environ['PATH']}", DM_REAL_GIT=REAL_GIT, DM_GIT_CALLS=str(calls),
               DM_GIT_KILL_AT=str(at), DM_GIT_KILL_HOW=how)
    res = subprocess.run([sys.executable, "-c", "import sys; from duelmail.cli import main; main()",
                          "--home", str(home), "git", "sync"],
                         capture_output=True, text=True, env=env)
    return res.returncode, calls.read_text().splitlines()


def talk(home: Path) -> str:
    return dm(home, "show")


STEPS = ("update-index", "commit-tree", "update-ref", "fetch", "rebase", "push")  # a commit is built by plumbing


@pytest.fixture(scope="module")
def calls(base, tmp_path_factory) -> list[str]:
    """The git calls of Bob's sync, run once to its end (each kill point copies the table afresh)."""
    tmp = tmp_path_factory.mktemp("gitcount")
    _, bob = copy(base, tmp / "count")
    code, calls = killed_sync(bob, tmp, 0)
    assert code == 0 and any("rebase" in c.split() for c in calls), calls
    return calls


def _steps(calls: list[str], how: str) -> list[int]:
    """The call numbers of Bob's sync to kill at: the first of each step that changes something (index update, commit,
    fetch, rebase, push), or the rebase alone."""
    firsts: dict[str, int] = {}
    for n, c in enumerate(calls, 1):
        verb = c.split()[1]
        if verb in (STEPS if how == "after" else ("rebase",)):
            firsts.setdefault(verb, n)
    return sorted(firsts.values())


@pytest.mark.parametrize("how", ["after", "rebase"])
def test_a_sync_killed_at_any_git_step_is_finished_by_the_next(base, calls, tmp_path, how):
    steps = _steps(calls, how)
    assert len(steps) == (len(STEPS) if how == "after" else 1)
    for at in steps:
        alice, bob = copy(base, tmp_path / f"{how}{at}")
        code, made = killed_sync(bob, tmp_path, at, how)
        assert code == -9, (at, made)
        if how == "rebase":
            gd = tmp_path / f"{how}{at}" / "bob-clone" / ".git"
            assert (gd / "rebase-merge").exists() or (gd / "rebase-apply").exists()
        dm(bob, "git", "sync")  # goes on, whatever the kill left: takes alice's words in, pushes his own
        dm(alice, "git", "sync")
        for home in (alice, bob):
            shown = talk(home)
            assert "bob's words" in shown and "alice's words" in shown, (at, made[at - 1], shown)
        status = git(tmp_path / f"{how}{at}" / "bob-clone", "status", "--porcelain")
        assert status == "", (at, status)
