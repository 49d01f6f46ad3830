"""A full disk after the move was written (issue 28, item 12): ``play`` says the move was made and which cache it
could not keep, and exits 0. The game folder is a real tmpfs with no inode left after the move (root, ``unshare``,
as ``test_read_only_home.py`` mounts its home): the move's file takes the last one, the ``.proven`` cache finds
the disk full."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clitable import Table

DUELMAIL = Path(sys.executable).parent / "duelmail"


def test_play_on_a_disk_that_fills_with_the_move_says_the_move_is_made(tmp_path):
    if shutil.which("unshare") is None:
        pytest.fail("unshare is missing (util-linux)")
    t = Table(tmp_path)
    t.settle()
    assert t.status(t.alice)["your_turn"]
    (game,) = (t.alice / "games").iterdir()
    g, copy = shlex.quote(str(game)), shlex.quote(str(tmp_path / "copy"))
    cmd = " ".join(shlex.quote(a) for a in [str(DUELMAIL), "--home", str(t.alice), "play", "--bot", "heuristic",
                                            "--seed", "1"])
    script = f"""set -e
cp -a {g} {copy}
mount -t tmpfs -o size=4m tmpfs {g}
cp -a {copy}/. {g}/
used=$(df --output=iused {g} | tail -1)
mount -o remount,nr_inodes=$((used + 1)) {g}
set +e
{cmd}
echo "exit status $?"
ls -A {g}
"""
    res = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True)
    out = res.stdout + res.stderr
    assert "exit status 0" in out, out
    assert "r0004-s0.toml" in out.split("exit status 0")[1], "the move's file is in the game folder"
    assert "your move is made and written; could not keep the cache .proven" in out and "No space left" in out, out
    assert "Traceback" not in out and "Error" not in out, out
