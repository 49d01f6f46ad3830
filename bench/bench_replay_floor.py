"""The audited replay's fold of the six-player archive against libsodium's own time in it (issue 42).

    python bench/bench_replay_floor.py [DIR]                 CPU, median of 5, in this process
    python bench/bench_replay_floor.py [DIR] --instructions  instructions (valgrind cachegrind, PYTHONHASHSEED=0)

DIR: the checkout whose ``duelmail`` is measured (default: this one; another one by ``git archive COMMIT | tar -x
-C DIR``), on this checkout's cached archive (``common.long_archive(500)``). CPU is measured twice: with the memo of
checked points kept from an untimed run (what ``bench_replay.py`` measured before issue 42) and emptied before
each run (a fresh process). Then every ``nacl.bindings.crypto_*`` call is timed during the replay: the libsodium
floor. Instructions: a process that reads the archive and replays it, less one that only reads it.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
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


def instructions(root: Path, path: Path) -> None:
    counts = {}
    for mode in ("read", "replay"):
        res = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                              sys.executable, "-c", CHILD, str(root), str(path), mode], capture_output=True,
                             text=True, env=dict(os.environ, PYTHONHASHSEED="0"), cwd="/")
        m = re.search(r"I\s+refs:\s+([0-9,]+)", res.stderr)
        if m is None:
            raise RuntimeError(res.stderr[-2000:])
        counts[mode] = int(m.group(1).replace(",", ""))
    print(f"{root}: audited replay, instructions (read and replay, less read alone): "
          f"{(counts['replay'] - counts['read']) / 1e6:,.0f} M")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = Path(args[0]).resolve() if args else HERE.parent
    (instructions if "--instructions" in sys.argv else measure)(root, archive())
