"""Replay time: read, fold with a snapshot per round, and write the HTML page, for long real archives.

The target: replaying and rendering a 1,000-round archive to HTML in under 2 s. The replay of an
audited game leaves the pass proofs unchecked (the audit recomputes every pass; see
``transport.archive.fold``); a game in progress has every proof checked, reported separately. No Warlords game
reaches 1,000 rounds (every turn draws a card, so the decks bound a game: six heuristic bots with both
joker options give about 500 rounds, two bots about 200), so the figure for 1,000 rounds is
extrapolated from real archives: proportionally for the audited game (time per round of the whole game,
end-of-game audit included, times 1,000), and by the slope over prefixes for a game in progress. The
parts are printed: reading the files, the plain fold (which checks every signature, deck pass, proof
and key share, for reference), the replay's fold with its snapshots, and the page.

    python bench/bench_replay.py [--cpu]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import common

CLOCK = time.perf_counter  # wall time; ``--cpu``: process CPU time, steadier on a machine others share


def timeit(fn, repeat: int = 3) -> float:
    """Median time of ``fn()`` in seconds, on ``CLOCK``."""
    times = []
    for _ in range(repeat):
        t = CLOCK()
        fn()
        times.append(CLOCK() - t)
    return sorted(times)[len(times) // 2]

ROOT = Path(__file__).resolve().parents[1]


def two_player_archive() -> Path:
    """A long two-player game (both joker options), cached like ``common.long_archive``."""
    from duelmail.testing.selfplay import SelfPlay
    from duelmail.transport.folder import GameFolder

    target = common.game_cache("replay-2p-seed3", "warlords")
    if not (target / "genesis.toml").exists():
        sp = SelfPlay("warlords", n=2, options={"reinforcements": True, "hidden-ally": True}, seed=3).run()
        folder = GameFolder(target)
        for f in sp.files:
            folder.store(f)
    return target


def fresh(files):
    """Fresh copies of parsed files, as reading them again gives them: what a fold computed of each (its canonical
    bytes and hash) is dropped, so no run profits from an earlier one; what reading it gave stays (the text it was
    read from and what that text read as, which writing it again as it was uses: ``SignedFile.to_toml``; and that
    its content is what ``plain`` returned, so its canonical bytes are encoded without checking it again, as in a
    fresh process: ``SignedFile.canonical``; and that the parser checked its kind and fields: ``Match.apply``)."""
    import copy

    out = []
    for w, f in files:
        g = copy.copy(f)
        for name in ("_source", "_plain", "_fields"):
            if name in f.__dict__:
                object.__setattr__(g, name, f.__dict__[name])
        out.append((w, g))
    return out


def forget_points() -> None:
    """Empty the process's memo of checked points (``group._VALID``) and its proof generators, so a run checks every
    point as a fresh process does (issue 42: the memo kept from the untimed run spared the timed replays all 3,932
    point checks)."""
    from duelmail.crypto import group, proofs

    group._VALID.clear()
    proofs._GPRIME.clear()
    proofs._SMALL_G.clear()


def fresh_timeit(fn, files, repeat: int = 3) -> float:
    """Median time of ``fn(copy)`` where each run gets fresh copies of the parsed files (``fresh``) and an empty
    memo of checked points (``forget_points``), as a process of its own would run it."""
    times = []
    for _ in range(repeat):
        fresh_files = fresh(files)
        forget_points()
        t = CLOCK()
        fn(fresh_files)
        times.append(CLOCK() - t)
    return sorted(times)[len(times) // 2]


def forget_drawings() -> None:
    """Empty the drawing memos (pictures, and Warlords' seat parts of its text and picture), so a run draws
    everything as a fresh process does."""
    from duelmail.games import svg
    from duelmail.games.warlords import picture, render

    for memo in (svg._text, getattr(svg, "_card_parts", None), getattr(svg, "_seat_band", None),
                 getattr(render, "_seat_lines", None), getattr(picture, "_seat_parts", None)):
        if memo is not None:
            memo.cache_clear()
    svg._BODIES.clear()


def page_time(files, repeat: int = 3) -> float:
    """Median time of ``render_html`` on a replay built afresh for each run (a replay remembers what it rendered)."""
    from duelmail.replay import build_replay, render_html

    times = []
    for _ in range(repeat):
        replay = build_replay(fresh(files))
        forget_drawings()
        forget_points()
        t = CLOCK()
        render_html(replay)
        times.append(CLOCK() - t)
    return sorted(times)[len(times) // 2]


def measure(files, repeat: int = 3, proven: frozenset[str] = frozenset()) -> dict:
    """``proven``: the files whose proofs the home replaying them checked as they arrived (its ``.proven``)."""
    from duelmail.replay import build_replay, render_html
    from duelmail.transport.archive import fold

    replay = build_replay(files, proven=proven)
    page = render_html(replay)
    return {
        "rounds": replay.steps[-1].round, "steps": len(replay.steps), "kb": len(page.encode()) / 1024,
        "fold": fresh_timeit(fold, files, repeat),
        "replay": fresh_timeit(lambda fs: build_replay(fs, proven=proven), files, repeat),
        "html": page_time(files, repeat),
        "audited": replay.audited,
    }


def sodium_time(files, repeat: int = 3) -> float:
    """Median CPU time a replay spends inside libsodium (every ``nacl.bindings.crypto_*`` call, timed while the
    replay runs on fresh copies with an empty memo of points): the floor no Python work can go under."""
    import nacl.bindings as nb

    from duelmail.replay import build_replay

    names = [n for n in dir(nb) if n.startswith("crypto_") and callable(getattr(nb, n))]
    saved = {n: getattr(nb, n) for n in names}
    spent = [0.0]

    def timed(fn):
        def call(*args):
            c = time.process_time()
            try:
                return fn(*args)
            finally:
                spent[0] += time.process_time() - c
        return call

    runs = []
    try:
        for n in names:
            setattr(nb, n, timed(saved[n]))
        for _ in range(repeat):
            fs = fresh(files)
            forget_points()
            spent[0] = 0.0
            build_replay(fs)
            runs.append(spent[0])
    finally:
        for n, fn in saved.items():
            setattr(nb, n, fn)
    return sorted(runs)[len(runs) // 2]


def report(name: str, path: Path) -> dict:
    from duelmail.transport.archive import read_files

    read = timeit(lambda: (forget_points(), read_files(path)), 3)
    files = read_files(path)
    m = measure(files)
    m["read"] = read
    total = read + m["replay"] + m["html"]
    m["total"] = total
    print(f"{name}: {len(files)} files, {m['rounds']} rounds, audited: {m['audited']}")
    print(f"  read and parse the files        {read * 1000:7.0f} ms")
    print(f"  plain fold, every proof checked {m['fold'] * 1000:7.0f} ms  (what verify and receive do; reference)")
    print(f"  replay fold, a snapshot a round {m['replay'] * 1000:7.0f} ms  (proofs covered by the audit)")
    if m["audited"] and CLOCK is time.process_time:
        floor = sodium_time(files)
        m["floor"] = floor
        print(f"    of which in libsodium         {floor * 1000:7.0f} ms  (the floor: the replay fold is "
              f"{m['replay'] / floor:.2f}x it)")
    print(f"  render every view, write page   {m['html'] * 1000:7.0f} ms  ({m['kb']:.0f} KB of HTML)")
    print(f"  total                           {total * 1000:7.0f} ms  = {total / m['rounds'] * 1000:.2f} ms a round")
    return m


def prefixes(path: Path, home: bool = False) -> tuple[float, float]:
    """Least-squares slope and intercept of read+replay+page time over prefixes of a game.

    A prefix is a game in progress: no audit yet, so its replay checks every pass proof; ``home``: replayed
    in the home that received its files, which checked their proofs as they arrived (``.proven``)."""
    from duelmail.transport.archive import read_files

    files = read_files(path)
    last = max(f.round for _, f in files)
    points = []
    for frac in (0.25, 0.5, 0.75):
        cut = int(last * frac)
        part = [(w, f) for w, f in files if f.round <= cut]
        m = measure(part, repeat=2, proven=frozenset(f.file_hash for _, f in part) if home else frozenset())
        t = m["replay"] + m["html"] + len(part) / len(files) * timeit(lambda: read_files(path), 1)
        points.append((m["rounds"], t))
        how = "its proofs checked on arrival by the home" if home else "every proof checked"
        print(f"  prefix of {m['rounds']:4d} rounds (in progress, {how}): {t * 1000:6.0f} ms")
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    slope = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    return slope, my - slope * mx


def cold_cli(path: Path) -> tuple[float, float]:
    """Wall and CPU time of a fresh process: ``duelmail replay PATH --html FILE`` (imports included)."""
    import resource

    with tempfile.TemporaryDirectory() as tmp:
        code = "import sys; from duelmail.cli.replay import replay; replay(sys.argv[1:])"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code, str(path), "--html", f"{tmp}/r.html"], cwd=ROOT, check=True,
                       capture_output=True)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> dict:
    import os

    global CLOCK
    if "--cpu" in sys.argv:
        CLOCK = time.process_time
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores (other work on the machine slows every figure); "
          f"timing {'process CPU time' if CLOCK is time.process_time else 'wall time'}")
    six = report("six players (common.long_archive)", common.long_archive(500))
    slope, _ = prefixes(common.long_archive(500))
    home_slope, _ = prefixes(common.long_archive(500), home=True)
    two = report("two players", two_player_archive())
    cold, cold_cpu = cold_cli(common.long_archive(500))
    print(f"cold process, duelmail replay --html on the six-player game: {cold * 1000:.0f} ms wall, "
          f"{cold_cpu * 1000:.0f} ms CPU")
    print("extrapolated to 1,000 rounds (target: under 2 s):")
    for name, m in (("six players", six), ("two players", two)):
        prop = m["total"] / m["rounds"] * 1000
        fold = m["replay"] / m["rounds"] * 1000
        print(f"  {name}, audited: {prop:.2f} s proportionally (of which the fold with snapshots and the audit "
              f"{fold:.2f} s, the page {m['html'] / m['rounds'] * 1000:.2f} s)")
    fit = slope * 1000
    print(f"  six players, in progress (every proof checked), slope over prefixes: {fit:.2f} s "
          f"({slope * 1000:.2f} ms a round)")
    print(f"  six players, in progress, in the home that received it (.proven), slope over prefixes: "
          f"{home_slope * 1000:.2f} s")
    return {"six": six, "two": two, "slope": slope, "fit": fit, "cold": cold, "home_fit": home_slope * 1000}


if __name__ == "__main__":
    main()
