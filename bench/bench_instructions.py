"""Instructions, not seconds: what a replay costs a round, counted by valgrind, for comparing two checkouts.

This machine's speed drifts by 30% within an hour and by up to 70% between runs, so a change of 5% in CPU time
needs many alternated runs to see. The instructions a process executes do not drift: valgrind's cachegrind
(``--cache-sim=no``) counts them, the same to a few parts in a million run after run (``PYTHONHASHSEED=0``). They
are not time (a cache miss costs more than an addition), so a figure in seconds still comes from
``bench_replay.py --cpu``; this says which way a change goes and by how much, at once.

What is counted: reading the files of the first quarter of the six-player archive (``common.long_archive``), then
their replay and page (``build_replay`` and ``render_html``), and the same for its first three quarters, each in the
home that received it (its ``.proven``: the replay of one's own game in progress, issue 18's figure). Each count
is a process that does all that less the same process stopped before that work: imports and set-up cancel out.
The slope between the two prefixes is the cost of a round.

    python bench/bench_instructions.py [--against DIR]

DIR: another checkout (``git archive COMMIT | tar -x -C DIR``), counted on the same archive. Needs valgrind
(``apt-get install valgrind``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import common

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent

CHILD = """
import sys
sys.path.insert(0, {bench!r})
import bench_replay as br
sys.path.insert(0, {tree!r})  # bench's common puts its own checkout first
from pathlib import Path
import duelmail
assert duelmail.__file__.startswith({tree!r}), duelmail.__file__
from duelmail.transport.archive import read_files
from duelmail.protocol.turnfile import parse_any
from duelmail.replay import build_replay, render_html
path = Path({archive!r})
files = read_files(path)
last = max(f.round for _, f in files)
part = [(w, f) for w, f in files if f.round <= int(last * {frac})]
proven = frozenset(f.file_hash for _, f in part)
copies = br.fresh(part)
br.forget_drawings()
if {work}:
    for where, _ in part:
        parse_any(Path(where).read_text(encoding="utf-8"), where)
    render_html(build_replay(copies, proven=proven))
"""


def count(tree: Path, archive: Path, frac: float, work: bool) -> int:
    """Instructions of one child process (duelmail imported from ``tree``)."""
    code = CHILD.format(bench=str(BENCH), tree=str(tree) + os.sep, archive=str(archive), frac=frac, work=work)
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", code], env=env, cwd=tree, capture_output=True, text=True, check=True)
    m = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if m is None:
        raise RuntimeError(f"no instruction count from valgrind: {run.stderr[-300:]}")
    return int(m.group(1).replace(",", ""))


def per_round(tree: Path, archive: Path) -> tuple[float, float, float]:
    """(instructions of the first quarter's work, of the first three quarters', per round between them)."""
    from duelmail.transport.archive import read_files

    files = read_files(archive)
    last = max(f.round for _, f in files)
    work = {}
    for frac in (0.25, 0.75):
        work[frac] = count(tree, archive, frac, True) - count(tree, archive, frac, False)
    rounds = int(last * 0.75) - int(last * 0.25)
    return work[0.25], work[0.75], (work[0.75] - work[0.25]) / rounds


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions: needs valgrind (apt-get install valgrind)")
    archive = common.long_archive(500)
    trees = [("this checkout", ROOT)]
    if "--against" in sys.argv:
        trees.append((f"--against {sys.argv[sys.argv.index('--against') + 1]}",
                      Path(sys.argv[sys.argv.index("--against") + 1]).resolve()))
    print(f"instructions (valgrind cachegrind), six-player archive {archive.name}: read, replay and page a prefix in "
          "the home that received it")
    results = []
    for name, tree in trees:
        q1, q3, slope = per_round(tree, archive)
        results.append(slope)
        print(f"  {name:30s} first quarter {q1 / 1e6:8.0f} M, three quarters {q3 / 1e6:8.0f} M, "
              f"a round {slope / 1e6:6.2f} M")
    if len(results) == 2:
        print(f"  a round: this checkout {100 * (results[0] / results[1] - 1):+.1f}% against the other")


if __name__ == "__main__":
    main()
