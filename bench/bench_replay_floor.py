"""The audited replay's fold of the six-player archive against libsodium's own time in it (issue 42).

    python bench/bench_replay_floor.py [DIR]                 CPU, median of 5, in this process
    python bench/bench_replay_floor.py [DIR] --instructions  instructions (valgrind cachegrind, PYTHONHASHSEED=0)

DIR: the checkout whose ``duelmail`` is measured (default: this one; another one by ``git archive COMMIT | tar -x
-C DIR``), on this checkout's cached archive (``common.long_archive(500)``). CPU is measured twice: with the memo of
checked points kept from an untimed run (what ``bench_replay.py`` measured before issue 42) and emptied before
each run (a fresh process). Then every ``nacl.bindings.crypto_*`` call is timed during the replay: the libsodium
floor. Instructions: a process that reads the archive and replays it, less one that only reads it, and of them
libsodium's own; counted with the bytecode compiled beforehand (what the replay costs), and compiling the source as
it goes (what issue 42's earlier counts were, taken where ``PYTHONDONTWRITEBYTECODE`` was set: some 600 M more).
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def archive() -> Path:
    sys.path.insert(0, str(HERE))
    import common

    path = common.long_archive(500)
    sys.path.remove(str(HERE))
    return path


def measure(root: Path, path: Path) -> None:
    sys.path.insert(0, str(root))
    for name in [m for m in sys.modules if m == "duelmail" or m.startswith("duelmail.")]:
        del sys.modules[name]
    import duelmail
    from duelmail.replay import build_replay
    from duelmail.transport.archive import read_files

    assert Path(duelmail.__file__).resolve().is_relative_to(root), duelmail.__file__
    sys.path.insert(1, str(HERE))
    from bench_replay import forget_points, fresh, sodium_time  # run on the duelmail of ``root``, imported above

    files = read_files(path)

    def runs(empty: bool) -> float:
        out = []
        for _ in range(5):
            fs = fresh(files)
            if empty:
                forget_points()
            c = time.process_time()
            build_replay(fs)
            out.append(time.process_time() - c)
        return statistics.median(out)

    build_replay(fresh(files))  # the untimed run
    kept, emptied = runs(False), runs(True)
    low = sodium_time(files, repeat=5)
    print(f"{root}: audited replay fold, CPU median of 5 (load average {os.getloadavg()[0]:.1f}): memo kept from an "
          f"untimed run {kept * 1000:.0f} ms; memo emptied (a fresh process) {emptied * 1000:.0f} ms; in libsodium "
          f"{low * 1000:.0f} ms; fold / libsodium {emptied / low:.2f}x")


CHILD = """import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from duelmail.transport.archive import read_files
files = read_files(Path(sys.argv[2]))
if sys.argv[3] == "replay":
    from duelmail.replay import build_replay
    assert build_replay(files).audited
"""


def _libsodium(out: str) -> int:
    """The instructions cachegrind's ``out`` file counts in libsodium's source (its paths hold ``/libsodium/``)."""
    total, inside = 0, False
    with open(out) as f:
        for line in f:
            if line[:3] in ("fl=", "fi=", "fe="):
                inside = "/libsodium/" in line
            elif inside and line[:1].isdigit():
                total += int(line.split()[1])
    return total


def instructions(root: Path, path: Path) -> None:
    """The replay's instructions, counted twice: with every module's bytecode compiled beforehand (a cache of its own,
    ``PYTHONPYCACHEPREFIX``, filled by a run before), as an installed package runs, and compiling the source as it
    goes, as a process does where ``PYTHONDONTWRITEBYTECODE`` is set and no bytecode was kept: compiling the
    modules only the replay imports is some 600 M instructions of the difference, no part of the replay's work.
    libsodium's own instructions (by source file) are the floor in instructions."""
    def count(mode: str, env: dict, out: str = "/dev/null") -> int:
        res = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
                              sys.executable, "-c", CHILD, str(root), str(path), mode], capture_output=True,
                             text=True, env=dict(env, PYTHONHASHSEED="0"), cwd="/")
        m = re.search(r"I\s+refs:\s+([0-9,]+)", res.stderr)
        if m is None:
            raise RuntimeError(res.stderr[-2000:])
        return int(m.group(1).replace(",", ""))

    with tempfile.TemporaryDirectory() as cache:
        compiled = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        compiled["PYTHONPYCACHEPREFIX"] = cache
        subprocess.run([sys.executable, "-c", CHILD, str(root), str(path), "replay"], env=compiled, cwd="/",
                       check=True)  # writes the bytecode of every module the counted runs import
        out = str(Path(cache) / "replay.cachegrind")
        warm = count("replay", compiled, out) - count("read", compiled)
        sodium = _libsodium(out)
    source = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    source.pop("PYTHONPYCACHEPREFIX", None)
    cold = count("replay", source) - count("read", source)
    print(f"{root}: audited replay, instructions (read and replay, less read alone): {warm / 1e6:,.0f} M with the "
          f"bytecode compiled beforehand, of which {sodium / 1e6:,.0f} M in libsodium ({warm / sodium:.3f}x); "
          f"{cold / 1e6:,.0f} M compiling the source as it goes (PYTHONDONTWRITEBYTECODE=1, no __pycache__)")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = Path(args[0]).resolve() if args else HERE.parent
    (instructions if "--instructions" in sys.argv else measure)(root, archive())
