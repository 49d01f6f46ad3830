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

from duelmail.transport.git import GitRepo  # noqa: E402

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


def killed_sync(home: Path, tmp: Path, at: int, how: str = "after", args: tuple[str, ...] = ("git", "sync"),
                start: Path | None = None) -> tuple[int, list[str]]:
    """``duelmail git sync`` (or ``args``) in its own process, killed at its ``at``-th git call (``start``: counted
    from the first once that file exists); its exit code and git calls."""
    shim = tmp / "shim"
    shim.mkdir(exist_ok=True)
    shutil.copy(KILLER, shim / "git")
    (shim / "git").chmod(0o755)
    calls = tmp / "calls"
    calls.write_text("")
    env = dict(os.environ, PATH=f"{shim}:{os.environ['PATH']}", DM_REAL_GIT=REAL_GIT, DM_GIT_CALLS=str(calls),
               DM_GIT_KILL_AT=str(at), DM_GIT_KILL_HOW=how, DM_GIT_FROM=str(start or ""))
    res = subprocess.run([sys.executable, "-c", "import sys; from duelmail.cli import main; main()",
                          "--home", str(home), *args],
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


def _sparse(table: Path) -> None:
    """Both clones made sparse checkouts with a sparse index, as a sync makes a large clone (issue 42)."""
    for clone in ("alice-clone", "bob-clone"):
        repo = GitRepo(table / clone)
        assert repo.sparse(lambda r=repo: {p.name for p in r.path.iterdir() if p.is_dir() and p.name != ".git"},
                           most=1)
        assert git(table / clone, "config", "--get", "core.sparseCheckout").strip() == "true"


@pytest.mark.parametrize("how", ["after", "rebase", "split", "sparse"])
def test_a_sync_killed_at_any_git_step_is_finished_by_the_next(base, calls, tmp_path, how):
    """``split``: killed after each step as ``after``, in clones whose git index is split, as a sync leaves a large
    clone's (issue 42: ``GitRepo.split_index``); ``sparse``: in clones made sparse checkouts (``GitRepo.sparse``),
    at each step of their own sync."""
    if how == "sparse":
        alice, bob = copy(base, tmp_path / "count")
        _sparse(tmp_path / "count")
        code, calls = killed_sync(bob, tmp_path, 0)
        assert code == 0, calls
    steps = _steps(calls, "after" if how in ("split", "sparse") else how)
    assert len(steps) == (1 if how == "rebase" else len(STEPS))
    for at in steps:
        alice, bob = copy(base, tmp_path / f"{how}{at}")
        if how == "split":
            for clone in ("alice-clone", "bob-clone"):
                GitRepo(tmp_path / f"{how}{at}" / clone).split_index(most=1)
                assert list((tmp_path / f"{how}{at}" / clone / ".git").glob("sharedindex.*"))
        if how == "sparse":
            _sparse(tmp_path / f"{how}{at}")
        code, made = killed_sync(bob, tmp_path, at, "after" if how in ("split", "sparse") else how)
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
        if how == "sparse":
            assert git(tmp_path / f"{how}{at}" / "bob-clone", "config", "--get", "core.sparseCheckout") == "true\n"


PY_KILLER = Path(__file__).with_name("killer.py")
PLAY = ("play", "--bot", "heuristic", "--seed", "1", "--push")


@pytest.fixture(scope="module")
def turn(tmp_path_factory):
    """Skirmish by git at Bob's move of round 2 (Alice's pushed, Bob synced), and the same table once his move is
    pushed: Alice's next sync applies it and answers on her own (round 3, her sealed choices opened)."""
    tmp = tmp_path_factory.mktemp("gitsign")
    t = GitTable(tmp / "play")
    t.start("skirmish")
    t.join(1)
    alice, bob = t.homes
    dm(alice, "git", "sync")
    dm(alice, *PLAY, "--seed", "2")
    dm(bob, "git", "sync")
    _, bob = copy(tmp / "play", tmp / "sync")
    dm(bob, *PLAY)
    return tmp


# (who signs, what it runs, the file it signs): Bob's own move by 'play --push', Alice's automatic answer in a sync
SIGNERS = {"play": (1, PLAY, "r0002-s1.toml"), "sync": (0, ("git", "sync"), "r0003-s0.toml")}


def _hash(text: str) -> str:
    from duelmail.protocol.turnfile import parse_any

    (f,) = parse_any(text, "file")
    return f.file_hash


# What a kill after it leaves as it was before it: a git call that reads, or writes only objects nothing points to
# yet; a cache, picture or README any sync makes again (and the sync's memory of what it looked at: a cache).
READS = ("config", "rev-parse", "ls-tree", "remote", "symbolic-ref", "log", "merge-base", "cat-file", "status",
         "hash-object", "mktree", "show")
DERIVED = (".status.json", ".show.json", ".kept", "table.svg", "replay.html", ".readme.toml", "README.md")


def _points(steps: list[str]) -> list[int]:
    """The numbers (from 1) of the steps to kill after: each that changes what the next command finds, one of a run
    of the same step."""
    return [n for n, x in enumerate(steps, 1)
            if x not in READS and x not in DERIVED and not x.startswith("git-") and (n == 1 or steps[n - 2] != x)]


@pytest.mark.parametrize("how", ["after", "git"])
@pytest.mark.parametrize("signer", sorted(SIGNERS))
def test_a_file_signed_and_killed_before_its_push_is_pushed_by_the_next_sync(turn, tmp_path, signer, how):
    """The command that signs a file (Bob's 'play --push', Alice's sync that answers his move on its own) is killed
    at every step from the file's store to the push being accepted: after each write of the home and the clone from
    the signed file on (``killer.py``), or after each git call made once the file exists (``gitkiller.sh``), but
    those whose loss changes nothing (``READS``, ``DERIVED``). The signer's next 'git sync' pushes the file, and
    the other home's sync applies that very file."""
    me, args, name = SIGNERS[signer]
    base = turn / signer

    def run(at: int, to: Path) -> tuple[int, list[str], Path, Path]:
        homes = copy(base, to)
        home = homes[me]
        (folder,) = (home / "games").iterdir()
        if how == "git":
            code, calls = killed_sync(home, tmp_path, at, args=args, start=folder / name)
            return code, [c.split()[1] for c in calls], home, homes[1 - me]
        log = tmp_path / "written"
        log.write_text("")
        code = subprocess.run([sys.executable, str(PY_KILLER), "after", str(at), "--home", str(home), *args],
                              capture_output=True, text=True,
                              env=dict(os.environ, KILL_FROM=name, KILL_LOG=str(log))).returncode
        return code, log.read_text().splitlines(), home, homes[1 - me]

    code, steps, _, _ = run(0, tmp_path / "whole")
    assert code == 0 and steps, steps
    points = _points(steps)
    assert len(points) >= 3, steps
    for at in points:
        code, _, home, other = run(at, tmp_path / f"at{at}")
        assert code == -9, (at, steps[at - 1])
        (folder,) = (home / "games").iterdir()
        dm(home, "git", "sync")  # finishes what the kill left
        assert "verified and applied" in dm(other, "git", "sync"), (at, steps[at - 1])
        mine = _hash((folder / name).read_text())
        assert _hash(git(tmp_path / f"at{at}" / "remote.git", "show", f"main:{folder.name}/{name}")) == mine
        assert _hash((other / "games" / folder.name / name).read_text()) == mine, (at, steps[at - 1])


def test_a_sync_killed_while_it_makes_the_clone_sparse_never_commits_the_files_left_out_as_deleted(base, tmp_path):
    """(issue 42) ``git sparse-checkout set`` killed half-way (at 1.34 M files it runs for minutes) leaves the clone's
    config and cone written, files of a folder left out gone from the working tree and git's index not written: the
    next sync finishes taking them out (``recover``) and commits no deletion."""
    alice, bob = copy(base, tmp_path / "t")
    clone = tmp_path / "t" / "bob-clone"
    (clone / "notes").mkdir()
    (clone / "notes" / "old.md").write_text("a folder the cone leaves out\n")
    git(clone, "add", "notes")
    git(clone, "commit", "-qm", "notes")
    game = next(p.name for p in clone.iterdir() if p.is_dir() and p.name not in (".git", "notes"))
    git(clone, "config", "duelmail.sparse", "true")
    git(clone, "config", "core.sparseCheckout", "true")
    git(clone, "config", "core.sparseCheckoutCone", "true")
    (clone / ".git" / "info").mkdir(exist_ok=True)
    (clone / ".git" / "info" / "sparse-checkout").write_text(f"/*\n!/*/\n/{game}/\n/finished/\n")
    (clone / "notes" / "old.md").unlink()  # taken out of the working tree, git's index not written yet
    (clone / ".git" / "duelmail-clean").unlink()  # (the killed sync took its mark away)
    assert git(clone, "status", "--porcelain") == " D notes/old.md\n"
    dm(bob, "git", "sync")
    dm(alice, "git", "sync")
    assert "bob's words" in talk(alice) and "alice's words" in talk(bob)
    assert git(clone, "status", "--porcelain") == "" and not (clone / "notes").exists()
    for repo in (clone, tmp_path / "t" / "alice-clone"):
        assert git(repo, "ls-tree", "-r", "--name-only", "HEAD", "--", "notes") == "notes/old.md\n"
