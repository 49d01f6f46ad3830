"""What one command costs in a cold process, in CPU time (the process's and its children's) beside wall time.

    python bench/bench_commands.py [RUNS] [--from-source] [--editable] [--against DIR]

- ``receive --no-auto`` of one turn file at round 10, 60 and 120 of a two-player Warlords game (they end
  near round 130, their length bounded by the decks) and at round 10, 120 and 500 of a six-player one (the
  longest real game the bots play: ``common.long_archive``, about 590 rounds). The home holds seat 0 and
  every file before the incoming one, with ``.proven`` complete and whatever a home keeps after its last
  command.
- ``play --bot`` of one move in a two-player Warlords game in progress (round 40 or so), ``status``
  (without its cache ``.status.json``, after a ``show`` that wrote it, after a ``status``) and ``show`` (without
  its cache ``.show.json``, after a ``show``) in that home.
- ``status --all`` and ``watch --once --no-git`` over a home with 100 games in progress and nothing new (one game
  copied under 100 folder names: the work per game is the same).

Every home is built in this process first (not timed), then each command runs RUNS times (default 5) in a
fresh ``python`` process on a fresh copy of the home, after one untimed command on that copy (``show``, or the
command itself), so the home is as its last command left it; the figures are medians, with the least CPU of the
runs beside them (on a shared machine, the run the others disturbed least). CPU is the child's user + system time
(``resource.getrusage(RUSAGE_CHILDREN)``).

The children import ``duelmail`` from compiled bytecode, as an installed package does (``pip`` compiles it):
``PYTHONDONTWRITEBYTECODE`` is dropped from their environment and their ``__pycache__`` goes to a temporary
folder (``PYTHONPYCACHEPREFIX``), filled by the untimed commands. ``--from-source`` keeps the environment as it
is: with ``PYTHONDONTWRITEBYTECODE=1`` and no ``__pycache__`` beside the sources, every command compiles each
module it imports from source again (about 75 ms of CPU on this machine), which no installed copy pays.

The children's Python is an installed copy's: a virtual environment made in the temporary folder that sees this
one's packages (click, PyNaCl, ...) through a ``.pth`` line but runs none of its start-up hooks, so not the
editable install's path finder, which costs every command about 10 ms of CPU here (it imports ``pathlib``,
``fnmatch``, ``urllib.parse``, ...) and which no ``pip install duelmail`` has. ``--editable``: run them with this
Python as it is (the figures before 2026-11-23 20:45 UTC).

``--against DIR``: every command also runs with the ``duelmail`` of another checkout (DIR: its top folder, e.g. a
``git archive`` of an older commit), on its own fresh copy of the same home, the two alternating run by run, so both
see the same load; each line then ends with the other checkout's medians.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import common

ROOT = Path(__file__).resolve().parents[1]
# the installed command (``duelmail.cli.run``; the click group itself in a checkout from before it)
LAUNCH = ("import sys\ntry:\n    from duelmail.cli import run\n"
          "except ImportError:\n    from duelmail.cli import main as run\nsys.exit(run())")
CHILD_ENV: dict[str, str] = {}  # set by main: how the children find their bytecode
PYTHON: list[str] = [sys.executable]  # set by main: the children's Python
AGAINST: list[Path] = []  # set by main: another checkout to run every command with too
OTHER: dict[str, tuple[float, float]] = {}  # its medians for the last command measured
LEAST: dict[str, float] = {}  # the least CPU of the runs of the last command measured (this one's, the other's)


def run_cold(home: Path, args: list[str], ok=(0,), root: Path = ROOT) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``duelmail ARGS`` in a new process, with the ``duelmail`` under ``root``."""
    env = dict(os.environ, DUELMAIL_HOME=str(home), PYTHONPATH=str(root), **CHILD_ENV)
    if CHILD_ENV:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(CHILD_ENV["PYTHONPYCACHEPREFIX"]) / ("this" if root == ROOT else "other"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([PYTHON[0], "-c", LAUNCH, *args], env=env, capture_output=True, text=True,
                       cwd=home.parent)  # not the checkout's folder: 'python -c' puts the current folder first
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in ok:
        raise RuntimeError(f"duelmail {' '.join(args)} exited {p.returncode}: {p.stdout}{p.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_cold(template: Path, args, runs: int, ok=(0,), warm: list[str] | None = ("show",),
                drop: str | None = None) -> tuple[float, float]:
    """Medians over ``runs`` fresh copies of the home; ``warm``: a command run (untimed) on each copy first (a copy
    is new files to a home: its kept state is made again by the first command, as after a restore); ``drop``: a
    file name deleted from every game folder after it (a cache the timed command must do without)."""
    roots = [ROOT, *AGAINST]
    walls: dict[Path, list[float]] = {r: [] for r in roots}
    cpus: dict[Path, list[float]] = {r: [] for r in roots}
    for i in range(runs):
        for root in roots if i % 2 == 0 else roots[::-1]:
            work = Path(tempfile.mkdtemp(prefix="duelmail-cmd-"))
            home = work / "home"
            shutil.copytree(template, home, symlinks=True)
            if warm:
                run_cold(home, [a.replace("{HOME}", str(home)) for a in warm], ok, root)
            for path in (home / "games").glob(f"*/{drop}") if drop else ():
                path.unlink()
            w, c = run_cold(home, [a.replace("{HOME}", str(home)) for a in args], ok, root)
            walls[root].append(w)
            cpus[root].append(c)
            shutil.rmtree(work)
    OTHER.clear()
    LEAST["this"] = min(cpus[ROOT])
    for root in AGAINST:
        OTHER["against"] = statistics.median(walls[root]), statistics.median(cpus[root])
        LEAST["against"] = min(cpus[root])
    return statistics.median(walls[ROOT]), statistics.median(cpus[ROOT])


def line(label: str, w: float, c: float) -> None:
    """One figure, and the other checkout's for the same command, if any."""
    other = ""
    if OTHER:
        w2, c2 = OTHER["against"]
        other = f"  (against: CPU {c2 * 1e3:4.0f} ms, least {LEAST['against'] * 1e3:4.0f}, wall {w2 * 1e3:5.0f} ms)"
    print(f"{label:<45} CPU {c * 1e3:6.0f} ms, least {LEAST['this'] * 1e3:4.0f}, wall {w * 1e3:6.0f} ms{other}",
          flush=True)


def seed_of(genesis, names=("alice",)) -> int:
    from duelmail.app import demo_identity

    key = genesis.content["seats"][0]["key"]
    for s in range(50):
        if demo_identity(s, names[0]).card.to_dict()["key"] == key:
            return s
    raise RuntimeError("no demo seed gives this game's seat 0")


def make_home(root: Path, ident, files, seat: int) -> Path:
    """A home for ``ident`` (seat ``seat``) holding ``files``, folded once as the last command left it."""
    from duelmail.home import Home

    home = Home(root)
    home.add_identity(ident)
    match = None
    folder = None
    for f in files:
        if f.kind == "genesis":
            from duelmail.engine.match import Match

            match = Match(f)
            folder = home.folder_for(match.game.spec.id, match.gid)
            folder.store(f, match)
            home.set_me(folder, ident.name, seat)
        else:
            folder.store(f)
    m = folder.fold()
    folder.remember_proven(m.applied)
    return root


def receive_homes(work: Path, tag: str, files, ident, rounds) -> dict[int, tuple[Path, Path]]:
    """For each round: a home of seat 0 with the files before the incoming one, and that file."""
    from duelmail.transport.archive import file_name, ordered

    genesis = next(f for f in files if f.kind == "genesis")
    files = [f for _, f in ordered([("", f) for f in files if f.kind != "genesis"])]
    out = {}
    for r in rounds:
        k = next(i for i, f in enumerate(files) if f.round >= r and f.seat != 0 and f.kind == "turn")
        home = make_home(work / f"{tag}-r{r}", ident, [genesis, *files[:k]], 0)
        incoming = work / f"{tag}-in-r{r}" / file_name(files[k])
        incoming.parent.mkdir()
        incoming.write_text(files[k].to_toml())
        out[files[k].round] = (home, incoming)
    return out


def six_players() -> tuple[list, object]:
    from duelmail.app import demo_identity
    from duelmail.transport.archive import read_files

    files = [f for _, f in read_files(common.long_archive(500), archive_only=True)]
    genesis = next(f for f in files if f.kind == "genesis")
    return files, demo_identity(seed_of(genesis), "alice")


def two_players(work: Path) -> tuple[list, object, Path, int]:
    """A whole two-player Warlords game, and a home of the seat that must decide near round 40 of it."""
    from duelmail.testing.selfplay import SelfPlay

    sp = SelfPlay("warlords", n=2, seed=1)
    sp.run(until=lambda m: m.round >= 40 and any(d.decide and d.needs_human for d in m.duties.values()))
    seat = next(s for s, d in sp.match.duties.items() if d.decide and d.needs_human)
    play, rnd = make_home(work / "play", sp.ids[seat], sp.files, seat), sp.match.round
    sp.run()
    return sp.files, sp.ids[0], play, rnd


def watch_home(work: Path, play: Path, copies: int = 100) -> Path:
    home = work / "watch"
    shutil.copytree(play, home, symlinks=True)
    (game,) = list((home / "games").iterdir())
    for i in range(1, copies):
        shutil.copytree(game, home / "games" / f"c{i:03d}-{game.name}", symlinks=True)
    for sub in ("cur", "new", "tmp"):
        (home / "maildir" / sub).mkdir(parents=True)  # an empty mailbox: nothing new
    return home


def installed_python(work: Path) -> str:
    """A Python as an installed copy has it: a virtual environment in ``work`` whose ``.pth`` line adds this one's
    packages to the path, without running their ``.pth`` hooks (the editable install's finder); this Python if it
    is not a virtual environment's."""
    import sysconfig

    if sys.prefix == sys.base_prefix:
        return sys.executable
    env = work / "installed"
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = env / "lib" / version / "site-packages"
    site.mkdir(parents=True)
    (env / "bin").mkdir()
    base = Path(sys._base_executable).resolve()
    (env / "bin" / "python").symlink_to(base)
    (env / "pyvenv.cfg").write_text(f"home = {base.parent}\ninclude-system-site-packages = false\n"
                                    f"version = {'.'.join(map(str, sys.version_info[:3]))}\n")
    paths = dict.fromkeys([sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    (site / "packages.pth").write_text("".join(f"{p}\n" for p in paths))
    return str(env / "bin" / "python")


def main(runs: int = 5, from_source: bool = False, other: Path | None = None, editable: bool = False) -> dict:
    work = Path(tempfile.mkdtemp(prefix="duelmail-bench-cmd-"))
    PYTHON[:] = [sys.executable if editable else installed_python(work)]
    CHILD_ENV.clear()
    AGAINST[:] = [other.resolve()] if other else []
    if not from_source:
        CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    try:
        t = time.process_time()
        files2, ident2, play, rnd = two_players(work)
        homes = {("two", r): h for r, h in receive_homes(work, "two", files2, ident2, (10, 60, 120)).items()}
        files6, ident6 = six_players()
        homes |= {("six", r): h for r, h in receive_homes(work, "six", files6, ident6, (10, 120, 500)).items()}
        watch = watch_home(work, play)
        print(f"homes built in {time.process_time() - t:.1f} s of CPU; {runs} cold runs each, medians; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
              + ("modules compiled from source by every command" if from_source else "modules from bytecode")
              + ("; this Python with its editable install" if editable else "; an installed copy's Python"))
        out = {}
        for (n, r), (home, incoming) in sorted(homes.items(), key=lambda kv: (kv[0][0] != "two", kv[0][1])):
            w, c = median_cold(home, ["receive", "--no-auto", str(incoming)], runs)
            out[f"receive {n} r{r}"] = (w, c)
            label = f"receive --no-auto, a turn of round {r} ({n} players)"
            line(label, w, c)
        bot = ["play", "--bot", "heuristic", "--seed", "1"]
        for label, args, warm, drop in ((f"play --bot (two players, round {rnd})", bot, ["show"], None),
                                        ("status (no .status.json)", ["status"], ["show"], ".status.json"),
                                        ("status after show (its cache written by it)", ["status"], ["show"], None),
                                        ("status (its cache written by the last one)", ["status"], ["status"], None),
                                        ("show (no .show.json)", ["show"], ["show"], ".show.json"),
                                        ("show after show (its cache written by it)", ["show"], ["show"], None)):
            w, c = median_cold(play, args, runs, warm=warm, drop=drop)
            out[label] = (w, c)
            line(label, w, c)
        w, c = median_cold(watch, ["status", "--all"], runs, warm=["status", "--all"])
        out["status --all"] = (w, c)
        line("status --all, 100 games, from their caches", w, c)
        args = ["watch", "--once", "--no-git", "--source", "{HOME}/maildir"]
        w, c = median_cold(watch, args, max(1, runs // 2), ok=(0, 10), warm=args)
        out["watch"] = (w, c)
        line("watch --once, 100 games in progress, nothing new", w, c)
        w, c = median_cold(play, ["id", "show"], runs, warm=None)
        line("(duelmail id show: start-up and imports)", w, c)
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    argv = sys.argv[1:]
    other = Path(argv.pop(argv.index("--against") + 1)) if "--against" in argv else None
    numbers = [a for a in argv if not a.startswith("--")]
    main(int(numbers[0]) if numbers else 5, "--from-source" in argv, other, "--editable" in argv)
