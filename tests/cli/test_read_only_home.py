"""A home on a read-only disk (issue 28, item 12): the commands that only read (``history``, ``moves``, ``show``,
``show --html``, ``status``) still answer, run as real processes in a mount namespace where the home is mounted
read-only (root, ``unshare``: the way the mail tests start their servers)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clitable import Table

DUELMAIL = Path(sys.executable).parent / "duelmail"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    t = Table(tmp_path_factory.mktemp("ro"))
    t.play_turns(2)
    return t


def read_only(home: Path, *args: str) -> subprocess.CompletedProcess:
    """``duelmail --home HOME ARGS`` with HOME mounted read-only for that process alone."""
    if shutil.which("unshare") is None:
        pytest.fail("unshare is missing (util-linux)")
    cmd = " ".join(shlex.quote(a) for a in [str(DUELMAIL), "--home", str(home), *args])
    script = (f"mount --bind {shlex.quote(str(home))} {shlex.quote(str(home))} && "
              f"mount -o remount,ro,bind {shlex.quote(str(home))} && touch {shlex.quote(str(home))}/x 2>/dev/null "
              f"&& echo WRITABLE; exec {cmd}")
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True)


@pytest.mark.parametrize("args", [["history"], ["moves"], ["show"], ["show", "--html", "PAGE"], ["status"]])
def test_read_only_commands_answer_on_a_read_only_home(table, args):
    for p in table.alice.rglob(".lock"):  # as a copy of a home that never ran a command
        p.unlink()
    page = table.tmp / "page.html"  # the page goes outside the home
    res = read_only(table.alice, *[str(page) if a == "PAGE" else a for a in args])
    assert "WRITABLE" not in res.stdout
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Traceback" not in res.stderr and ".lock" not in res.stdout + res.stderr
    if "--html" in args:
        assert "<html" in page.read_text().lower()
