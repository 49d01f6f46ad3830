"""One duelmail process at a time per game folder: ``fcntl.flock`` on ``FOLDER/.lock``.

A command holds the lock of every game folder it reads to change (``hold``) until it ends
(``release_all``: the CLI calls it when a command closes, ``watch`` after each poll), so a cron
``watch`` and the player's ``play`` never interleave their fold-compose-store. ``locked`` is the
same as a context manager. Both are re-entrant within a process. A second process waits, says so
once, and gives up after ``$DUELMAIL_LOCK_WAIT`` seconds (default 120) with an error naming the
folder and the process that holds it.

A folder this process may only read (a home on a read-only disk, a copy it does not own) is read without
writing a lock: an existing ``.lock`` is still honoured (``flock`` needs no write access), and without one
nothing here can write, so ``history``, ``moves`` and ``show`` answer from it.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from duelmail.errors import DuelmailError

LOCK_NAME = ".lock"
WAIT_ENV = "DUELMAIL_LOCK_WAIT"
DEFAULT_WAIT = 120.0

_held: dict[str, list[int]] = {}  # folder -> [fd, depth]


class Busy(DuelmailError):
    """Another duelmail process kept a game folder locked for longer than we wait."""


def _wait() -> float:
    try:
        return float(os.environ.get(WAIT_ENV, DEFAULT_WAIT))
    except ValueError:
        raise DuelmailError(f"${WAIT_ENV} must be a number of seconds, not {os.environ[WAIT_ENV]!r}") from None


def _holder(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()[:200] or "another process"
    except OSError:
        return "another process"


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def acquire(folder: Path | str, wait: float | None = None, say: Callable[[str], None] = _say) -> None:
    """Take (or, held already by this process, re-enter) the lock of ``folder``."""
    key = os.path.realpath(folder)
    if key in _held:
        _held[key][1] += 1
        return
    path = Path(key) / LOCK_NAME
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        writable = True
    except OSError as e:
        if e.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        # a home this process may only read (a read-only disk, a spectator's copy): an existing lock is still
        # honoured (flock needs no write access), and without one nobody here can write, so reading is safe
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            _held[key] = [-1, 1]
            return
        writable = False
    try:
        limit = _wait() if wait is None else wait
        start, told = time.monotonic(), False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() - start >= limit:
                    raise Busy(f"{key} is in use by {_holder(path)} (waited {limit:g} s; "
                               f"try again when it is done, or set ${WAIT_ENV})") from None
                if not told:
                    say(f"duelmail: waiting for {_holder(path)}, which is using {key}")
                    told = True
                time.sleep(0.05)  # flock has no timeout of its own
        if writable:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()} ({' '.join(['duelmail', *sys.argv[1:3]])})\n".encode(), 0)
    except BaseException:
        os.close(fd)
        raise
    _held[key] = [fd, 1]


def release(folder: Path | str) -> None:
    key = os.path.realpath(folder)
    entry = _held.get(key)
    if entry is None:
        return
    entry[1] -= 1
    if entry[1] <= 0:
        del _held[key]
        if entry[0] >= 0:
            os.close(entry[0])  # closing the descriptor drops the flock


def hold(folder: Path | str) -> None:
    """Lock ``folder`` until ``release_all`` (the end of the command or of the poll)."""
    acquire(folder)


def release_all() -> None:
    """Release every folder this process holds, once what it wrote there is on disk (``fs.flush``)."""
    from duelmail.util.fs import flush

    flush()
    for key in list(_held):
        fd = _held.pop(key)[0]
        if fd >= 0:
            os.close(fd)


def holding(folder: Path | str) -> bool:
    return os.path.realpath(folder) in _held


@contextmanager
def locked(folder: Path | str, wait: float | None = None) -> Iterator[None]:
    acquire(folder, wait)
    try:
        yield
    finally:
        release(folder)
