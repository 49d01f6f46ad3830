"""One duelmail process at a time per game folder (issue 14, "Also"): real processes, a real flock.

The holder is a real process that locks the folder the way every duelmail command does and keeps it
until told; the other is the real ``duelmail`` CLI. No sleeps: each side waits for the other's output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from clitable import Table, dm

from duelmail.util import lock

HOLDER = """
import sys
from duelmail.util.lock import locked
with locked(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.readline()
"""


def game(home: Path) -> Path:
    return next((home / "games").iterdir())


@pytest.fixture
def held(tmp_path):
    """A table where it is Alice's move, and a second process holding her game folder's lock."""
    t = Table(tmp_path)
    t.settle()
    folder = game(t.alice)
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "held\n"
    yield t, folder, proc
    proc.stdin.close()
    proc.wait(timeout=30)


def duelmail(home: Path, *args: str, wait: str | None = None) -> subprocess.Popen:
    env = dict(os.environ, DUELMAIL_HOME=str(home))
    if wait is not None:
        env[lock.WAIT_ENV] = wait
    return subprocess.Popen([sys.executable, "-c", "from duelmail.cli import main; main()", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if not p.name.startswith(".")}


def test_a_second_process_is_told_clearly_when_it_will_not_wait(held):
    t, folder, proc = held
    before = files(folder)
    p = duelmail(t.alice, "play", "--bot", "heuristic", "--seed", "1", wait="0")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 1 and "Traceback" not in err
    assert f"{folder} is in use by pid {proc.pid}" in err and lock.WAIT_ENV in err, err
    assert files(folder) == before  # nothing written


def test_a_second_process_waits_for_the_first_then_does_its_work(held):
    t, folder, proc = held
    before = files(folder)
    p = duelmail(t.alice, "play", "--bot", "heuristic", "--seed", "1")
    line = p.stderr.readline()  # said once, while it waits
    assert line.startswith(f"duelmail: waiting for pid {proc.pid}") and str(folder) in line, line
    assert files(folder) == before  # it has not read or written anything yet
    proc.stdin.write("go\n")
    proc.stdin.flush()
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    assert "wrote" in out and len(files(folder) - before) == 1


def test_a_held_folder_is_reentrant_and_released_at_the_end(tmp_path):
    folder = tmp_path / "g"
    with lock.locked(folder):
        with lock.locked(folder, wait=0):
            assert lock.holding(folder)
        assert lock.holding(folder)
    assert not lock.holding(folder)
    lock.hold(folder)
    lock.hold(tmp_path / "h")
    lock.release_all()
    assert not lock.holding(folder) and not lock.holding(tmp_path / "h")


def test_every_command_releases_what_it_locked(tmp_path):
    t = Table(tmp_path)
    dm(t.alice, "show")  # reads the game under its lock...
    assert not lock.holding(game(t.alice))  # ...and lets go when the command ends


def test_a_cache_refresh_never_waits_for_a_folder_another_process_holds(held, capsys, monkeypatch):
    """``refresh_views`` (after ``mail fetch``, ``git sync``, a poll of ``watch``) leaves a held game's caches to
    the command holding it: no wait, no word, no failure."""
    from duelmail.cli.plain import Ctx, refresh_views
    from duelmail.home import Home

    t, folder, proc = held
    monkeypatch.setenv(lock.WAIT_ENV, "30")
    for cache in (".status.json", ".show.json"):
        (folder / cache).unlink(missing_ok=True)
    ctx = Ctx(str(t.alice), None)
    refresh_views(ctx, ctx.identity(), [folder.name[-12:]])
    lock.release_all()
    assert "waiting for" not in capsys.readouterr().err
    assert not (folder / ".status.json").exists()
    proc.stdin.close()
    proc.wait(timeout=30)
    refresh_views(ctx, ctx.identity(), [folder.name[-12:]])  # free again: written
    lock.release_all()
    assert (folder / ".status.json").exists() and (folder / ".show.json").exists()
    assert Home(t.alice).find(None).path == folder
