"""A sync without a memory of the last one (a new member's first sync, a home whose index was rebuilt) reads the
whole history of the repository (issue 42): its work grows with the number of files, never with its square. Work
is counted (git processes started, paths hashed), not timed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from duelmail.app import demo_identity
from duelmail.delivery import git as gitsync
from duelmail.home import Home
from duelmail.transport import git as gitt
from duelmail.transport.git import GitRepo


def club(path: Path, games: int, rounds: int) -> int:
    """A repository of ``games`` folders of ``rounds`` junk files each at turn names (git fast-import: a second
    commit overwrites the last file of every game, so history holds versions its tree no longer does); how many
    versions of files the history holds."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    stream, mark = [], 0
    for k in range(2):
        files = [(f"warlords-{g:012x}/r{r:04d}-s{r % 2}.toml", f"junk {g} {r} {k}\n")
                 for g in range(games) for r in (range(rounds) if k == 0 else [rounds - 1])]
        stream.append(f"commit refs/heads/main\ncommitter A <a@example.org> {1700000000 + k} +0000\ndata 4\njunk\n")
        stream += [f"M 100644 inline {p}\ndata {len(t)}\n{t}" for p, t in files]
        mark += len(files)
    subprocess.run(["git", "-C", str(path), "fast-import", "--quiet"], input="".join(stream) + "done\n", text=True,
                   check=True)
    return mark


class Counted(str):
    """A path that counts how often it is hashed (a set built of it, a lookup of it)."""

    hashed = 0

    def __hash__(self) -> int:
        Counted.hashed += 1
        return str.__hash__(self)


def first_sync(tmp: Path, monkeypatch, games: int) -> tuple[int, int, int]:
    """(files, git processes, paths of the tree hashed) of taking in the whole history into an empty home."""
    repo = tmp / f"club-{games}"
    files = club(repo, games, 30)
    started = []
    real = subprocess.run

    def run(args, *a, **kw):
        if args and args[0] == "git":
            started.append(args)
        return real(args, *a, **kw)

    listing = GitRepo.tree_files
    monkeypatch.setattr(gitt.subprocess, "run", run)
    monkeypatch.setattr(GitRepo, "tree_files", lambda self, ref: [(Counted(p), b) for p, b in listing(self, ref)])
    Counted.hashed = 0
    home = Home(tmp / f"home-{games}")
    out = gitsync._take_in(home, demo_identity(0, "carol"), GitRepo(repo), "HEAD", None)
    assert len(out) == files and all(a.status == "refused" for a in out)  # every version read and refused
    return files, len(started), Counted.hashed


def test_a_first_sync_reads_the_whole_history_in_work_linear_in_its_files(tmp_path, monkeypatch):
    small = first_sync(tmp_path, monkeypatch, 10)
    big = first_sync(tmp_path, monkeypatch, 100)
    assert big[0] == 10 * small[0] == 3100
    assert big[1] == small[1] <= 8, (small, big)  # git processes: as many for 3,100 files as for 310
    assert big[2] == 10 * small[2] <= 3 * 3000, (small, big)  # each path of the tree hashed at most 3 times
