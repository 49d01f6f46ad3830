"""Cold-process wall time of ``duelmail status`` on a finished game, and turn-file sizes."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import common  # noqa: F401


def main() -> dict:
    from duelmail import app

    out_dir = Path(tempfile.mkdtemp(prefix="duelmail-bench-"))
    res = app.run_demo("warlords", out_dir / "demo", seed=3)
    home = out_dir / "demo" / "homes" / "alice"
    exe = shutil.which("duelmail") or str(Path(sys.executable).parent / "duelmail")
    env = dict(os.environ, DUELMAIL_HOME=str(home))
    def run_status(drop_cache: bool) -> float:
        times = []
        for _ in range(11):
            if drop_cache:
                for c in home.glob("games/*/.status.json"):
                    c.unlink()
            t = time.perf_counter()
            subprocess.run([exe, "status"], env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - t)
        return statistics.median(times)

    uncached = run_status(True)
    status = run_status(False)
    py = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        py.append(time.perf_counter() - t)
    print(f"duelmail status, cold process, finished {res.files}-file game: {status * 1000:.0f} ms median of 11 "
          f"(bare python start: {statistics.median(py) * 1000:.0f} ms); with the status cache deleted first "
          f"(full fold, verify and audit): {uncached * 1000:.0f} ms")
    sizes = {p.name: p.stat().st_size for p in res.archive.iterdir() if p.suffix == ".toml"}
    setup = {n: s for n, s in sizes.items() if n in ("genesis.toml", "r0001-s1.toml", "r0002-s0.toml",
                                                       "r0003-s1.toml")}
    play = sorted(s for n, s in sizes.items() if n not in setup)
    median = statistics.median(play)
    print(f"turn files: median {median:.0f} bytes, largest {max(play)} bytes over {len(play)} in-play files; "
          f"set-up files: " + ", ".join(f"{n} {s} B" for n, s in sorted(setup.items())))
    total = sum(sizes.values())
    print(f"whole archive: {total / 1024:.0f} KiB in {len(sizes)} files")
    shutil.rmtree(out_dir)
    return {"status": status, "uncached": uncached, "python": statistics.median(py), "median": median, "max": max(play),
            "setup": setup, "total": total, "nfiles": len(sizes)}


if __name__ == "__main__":
    main()
