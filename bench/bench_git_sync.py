"""What a `git sync` with nothing new costs on a whole game: the history scan and the check that the
repository holds every file of the home (issue 14: nothing pushed can block a game).

Usage: python bench/bench_git_sync.py [REPEAT]

Two homes of the demo game (`duelmail demo warlords --seed 7`, 119 files) share a bare remote; each
sync is timed in wall time, this process's CPU time (time.process_time) and the git children's CPU
time (os.times)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main(repeat: int = 5) -> None:
    from duelmail import app, watch
    from duelmail.home import Home

    tmp = Path(tempfile.mkdtemp(prefix="bench-git-"))
    app.run_demo("warlords", tmp / "demo", seed=7)
    remote = tmp / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    homes = [Home(tmp / "demo" / "homes" / n) for n in ("alice", "bob")]
    ids = [h.load_identity(None) for h in homes]
    repos = []
    for home, ident in zip(homes, ids, strict=True):
        path = tmp / f"{ident.name}-clone"
        subprocess.run(["git", "clone", "-q", str(remote), str(path)], check=True, capture_output=True)
        for k, v in (("user.name", ident.name), ("user.email", ident.email)):
            subprocess.run(["git", "-C", str(path), "config", k, v], check=True)
        subprocess.run(["git", "-C", str(path), "symbolic-ref", "HEAD", "refs/heads/main"], check=True)
        watch.add_repo(home, path)
        repos.append(path)
    watch.sync_git(homes[0], ids[0], repos[0], games=homes[0].game_folders())
    watch.sync_git(homes[1], ids[1], repos[1])
    files = len(list(next(homes[0].games_dir.iterdir()).glob("[gr]*.toml")))
    walls, cpus, kids = [], [], []
    for _ in range(repeat):
        t0, c0, k0 = time.perf_counter(), time.process_time(), os.times()
        watch.sync_git(homes[1], ids[1], repos[1])
        k1 = os.times()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        kids.append(k1.children_user + k1.children_system - k0.children_user - k0.children_system)
    med = statistics.median
    print(f"git sync with nothing new, {files} files in the game, median of {repeat}:")
    print(f"  wall {med(walls) * 1000:.0f} ms, CPU {med(cpus) * 1000:.0f} ms in duelmail "
          f"+ {med(kids) * 1000:.0f} ms in git")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
