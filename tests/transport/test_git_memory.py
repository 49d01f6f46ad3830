"""A sync looks at what changed (issue 32, issue 28 item 8): the commits pushed since the last sync, the games in
play and those settled since; finished games are settled once. Real repositories: whatever the memory of the
last sync says (lost, stale, of another clone, over a rewritten history), every file still arrives."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from clitable import dm
from test_git import GitTable, clone, git
from test_hostile import push_as

from duelmail.transport.git import GitRepo


@pytest.fixture
def midgame(tmp_path):
    t = GitTable(tmp_path)
    repos = t.start("warlords")  # (not summoner: a deal with jokers can end it at once, S-22)
    t.join(1)
    for home in (*t.homes, *t.homes):
        dm(home, "git", "sync")
    return t, repos


def mover(t: GitTable) -> tuple[Path, Path]:
    """(the home whose turn it is, the other one)."""
    a, b = t.homes
    return (a, b) if t.status(a)["your_turn"] else (b, a)


def move(t: GitTable) -> tuple[Path, str]:
    """Whoever's turn it is plays and pushes; the other home and the round and seat the new file carries."""
    home, other = mover(t)
    st = t.status(home)
    dm(home, "play", "--bot", "heuristic", "--seed", str(st["round"]), "--push")
    return other, f"round {st['round']} seat {st['you']} verified and applied"


def traced(home: Path, monkeypatch, tmp_path: Path, *args: str, code: int = 0) -> tuple[str, list[str]]:
    """A command's output and the git commands it ran (GIT_TRACE, git's own record of them)."""
    trace = tmp_path / "trace.txt"
    trace.unlink(missing_ok=True)
    monkeypatch.setenv("GIT_TRACE", str(trace))
    out = dm(home, *args, code=code)
    monkeypatch.delenv("GIT_TRACE")
    return out, [line.split("git ", 1)[1] for line in trace.read_text().splitlines() if "built-in: git " in line]


def test_a_sync_reads_only_the_commits_since_the_last_and_junk_pushed_once_is_never_read_again(
        midgame, tmp_path, monkeypatch):
    """Issue 28 item 8: 10,000 junk files pushed once made every later sync read the whole tree."""
    t, repos = midgame
    junk = {f"junk/{i}.txt": f"junk {i}\n" for i in range(40)}
    junk |= {f"warlords-{i:012x}/r0001-s1.toml": "not a turn\n" for i in range(5)}
    push_as(tmp_path, t.remote, "a lot of junk", junk)
    _, watcher = mover(t)
    out = dm(watcher, "git", "sync", code=1)  # the junk at turn names is refused, once
    assert out.count("REFUSED") == 5, out
    out, commands = traced(watcher, monkeypatch, tmp_path, "git", "sync")
    assert "REFUSED" not in out
    assert not [c for c in commands if c.startswith(("cat-file", "show"))  # the games in play's trees alone
                or c.startswith("ls-tree") and " -- " not in c], commands
    logs = [c for c in commands if c.startswith("log ")]
    assert logs and all(".." in c for c in logs), logs  # the commits since the last sync, never the whole history
    other, applied = move(t)  # a new turn: read from the commits since, and applied
    asked = []
    read_many = GitRepo.read_many
    monkeypatch.setattr(GitRepo, "read_many", lambda self, wanted: asked.append(wanted) or read_many(self, wanted))
    out, commands = traced(other, monkeypatch, tmp_path, "git", "sync")
    assert applied in out, out
    assert [len(w) for w in asked if w] == [1], asked  # that file alone


def test_a_finished_game_is_settled_once_and_a_late_file_still_arrives(midgame):
    t, repos = midgame
    alice, bob = t.homes
    game = next((alice / "games").iterdir()).name
    dm(alice, "resign", "--push")
    dm(bob, "git", "sync")  # bob's seed for the audit goes out
    dm(alice, "git", "sync")
    for home in t.homes:
        out = dm(home, "status", "--all")
        assert "no games in play" in out and "and 1 finished game ('duelmail status --all --finished'" in out, out
        assert (home / "games" / game / ".settled").exists()
        listed = dm(home, "status", "--all", "--finished")
        assert f"{game[-12:]} warlords  over: bob won: alice resigned" in listed, listed
        assert [r["folder"] for r in json.loads(dm(home, "status", "--all", "--finished", "--json"))] == [game]
    dm(alice, "say", "good game", "--push")  # a late file in a settled game
    out = dm(bob, "git", "sync")
    assert 'alice says: "good game"' in out, out
    assert "good game" in dm(bob, "history", game[-12:])
    assert "and 1 finished game" in dm(bob, "status", "--all")  # settled again
    assert "--finished lists finished games with --all" in dm(bob, "status", "--finished", code=1)


def test_every_file_arrives_whatever_the_memory_of_the_last_sync(midgame, tmp_path):
    """A rewritten history, a memory deleted, a memory older than the repository, one naming a commit the
    clone never had, a clone made afresh: each next sync still applies what it lacks."""
    t, repos = midgame
    clones = dict(zip(t.homes, repos, strict=True))
    for home in t.homes:
        dm(home, "git", "sync")
    other, applied = move(t)  # the turn's commit is then rewritten and force-pushed
    rewriter = clone(tmp_path, t.remote, "rewriter")
    git(rewriter, "commit", "-q", "--amend", "-m", "the same files, another history")
    git(rewriter, "push", "-q", "--force", "origin", "main")
    assert applied in dm(other, "git", "sync")

    memory = next((other / "index").glob("git-*.json"))
    old = memory.read_text()
    other, applied = move(t)
    other_memory = next((other / "index").glob("git-*.json"))
    shutil.rmtree(other / "index")  # the memory and the index deleted
    assert applied in dm(other, "git", "sync")
    assert other_memory.exists()

    other, applied = move(t)
    if other_memory == memory:
        memory.write_text(old)  # a memory from two turns ago: stale
    else:
        memo = json.loads(other_memory.read_text())
        other_memory.write_text(json.dumps({**memo, "commit": "0123456789" * 4}))  # a commit this clone never had
    assert applied in dm(other, "git", "sync")

    other, applied = move(t)
    path = clones[other]
    shutil.rmtree(path)  # the clone made afresh, at the same place
    subprocess.run(["git", "clone", "-q", str(t.remote), str(path)], check=True, capture_output=True)
    git(path, "config", "user.name", other.name)
    git(path, "config", "user.email", f"{other.name}@example.org")
    assert applied in dm(other, "git", "sync")


def test_a_file_held_back_at_one_sync_is_applied_at_a_later_one_that_reads_only_new_commits(midgame, tmp_path):
    """A note pushed before the turn it follows is held (ahead of the game); the next sync, which reads only the
    commits since, still applies it once the turn arrives."""
    t, repos = midgame
    home, other = mover(t)
    game = next((home / "games").iterdir()).name
    before = {p.name for p in (home / "games" / game).glob("r*.toml")}
    dm(home, "play", "--bot", "heuristic")  # written, not pushed
    dm(home, "say", "your move")  # a note of the next round
    new = sorted({p.name for p in (home / "games" / game).glob("r*.toml")} - before)
    turn, note = sorted(new, key=lambda n: "-n" in n)
    read = {n: (home / "games" / game / n).read_text() for n in new}
    push_as(tmp_path, t.remote, "the note first", {f"{game}/{note}": read[note]})
    out = dm(other, "git", "sync")
    assert "is waiting for round" in out and "your move" not in out, out
    push_as(tmp_path, t.remote, "then the turn", {f"{game}/{turn}": read[turn]})
    out = dm(other, "git", "sync")
    assert out.count("verified and applied") == 2 and "your move" in out, out
    assert {p.name for p in (other / "games" / game).glob("r*.toml")} >= set(new)
