"""A club's homes and shared repository of many games (issue 32): what `git sync`, `watch --once` and
`status --all` cost with nothing new, and what a `git sync` that brings one new turn costs, as the number of
finished games grows.

Usage: python bench/bench_club.py [SIZE ...] [--repeat N]      (default sizes: 10 1000 10000; each in its own process)
       python bench/bench_club.py [SIZE ...] --instructions [--repeat N]   (and each once more under cachegrind)
       python bench/bench_club.py --long [SIZE ...] [--repeat N] [--keep DIR] [--instructions]
                                                                            (default sizes: 10 10000)

Material, built once and cached under bench/.cache: real games of Summoner (life 3) in play between alice and bob,
played by bots to rounds 4 to 11 (24 are dealt; the 7 the bots end before their round are left out: 17 in play),
and 3 real finished ones (a few seconds each). A club of SIZE games: the 17 in play, the 3 finished and SIZE-20
copies of the finished ones under new ids (their folders renamed, without their replay page; a settled game is never
read again). Per size: alice's home and bob's each get every game; alice's first `git sync` exports the real games
to a bare remote for real, bob's takes them in; the copies are then committed to the remote by `git fast-import`,
each signed file of a copy its own object (its original's with a first comment line naming the copy: a real club's
games share no file, and copies sharing their original's tree flattered git, whose connectivity check after a fetch
and before a push reads every tree of the old tip once), their lines appended to their originals' month listing and
the top README's count, as a sync that settled them writes them; both clones pull them, and each
home's settled marks and its memory of the last sync are written as a sync that had applied them would have left
them. The homes' next syncs (the caches a player's commands leave) move the finished games to the branch
`finished-games` (from 100 on, as a club begun before this version moves them once; their time is printed). Each
command then runs as its own `duelmail` process: wall time, and CPU time of the process and its git
children (getrusage). "One new turn": bob plays a turn of a game in play and pushes (`play --push`, timed too),
then alice's `git sync` that applies it is timed. "No memory": alice's `git sync` after her memory of the last sync
is deleted (a home whose index was rebuilt): it reads the whole history; beside it, git's own `git clone` of the
remote (with its checkout), the cost a new member pays before any sync.

``--long``: a club of long games (issue 42). The same, but the 3 finished games are real games of Warlords between
alice and bob (bots; some 130 turn files each, with their README, picture and replay page some 135 files a game in
the repository; the copies leave out the replay page, 1.4 MB a game), so the copies give some 1.34 M files at 10,000
games. Each size is built in a process of its own and kept (``--keep DIR``: in ``DIR/SIZE``, for later runs too);
then, ``--repeat`` times, each size in turn (interleaved, so a load that comes and goes weighs on every size alike):
alice's `git sync` with nothing new, bob's `play --push` (alice's when bob has no turn left) and the other's `git
sync` that applies it. From 100,000 files on the clones' last sync of the build makes them sparse checkouts (their
finished games' folders leave the working tree: a few minutes, once; docs/transports.md). ``--instructions``: then
one more turn a size under valgrind's cachegrind, following every child process (git, the remote's side of a push):
the instructions of each command, which do not drift with the machine's load.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import tomlkit
from common import game_cache

IN_PLAY, FINISHED = 24, 3  # dealt: the games the bots end early are left out
DUELMAIL = str(Path(sys.executable).parent / "duelmail")
OPTIONS = {"life": 3}


def material(long: bool = False) -> Path:
    """The real games' files, one folder per game (cached). ``long``: the finished ones are games of Warlords
    (some 130 turn files each) instead of Summoner."""
    from duelmail.app import demo_identity
    from duelmail.transport.folder import GameFolder

    target = game_cache("club-long" if long else "club", "summoner")
    if (target / "done").exists():
        return target
    shutil.rmtree(target, ignore_errors=True)
    ids = [demo_identity(0, "alice"), demo_identity(0, "bob")]
    for i in range(IN_PLAY + FINISHED):
        sp = _club_play(ids, 1000 + i, "warlords" if long and i < FINISHED else "summoner")
        if i < FINISHED:
            sp.run()
        else:
            sp.run(until=lambda m, r=4 + i % 8: m.round >= r or m.over())
            if sp.match.over():
                continue
        folder = GameFolder(target / f"{sp.kind}-{sp.match.gid[:12]}")
        for f in sp.files:
            folder.store(f)
    (target / "done").write_text("")
    return target


def _club_play(ids, seed: int, kind: str = "summoner"):
    """A bots' game of ``kind`` between ``ids`` (SelfPlay, with these identities instead of the seed's)."""
    from duelmail.app import demo_fresh, genesis_content
    from duelmail.engine.match import Match
    from duelmail.protocol.turnfile import SignedFile
    from duelmail.testing.selfplay import T0, SelfPlay

    options = OPTIONS if kind == "summoner" else {}
    sp = SelfPlay.__new__(SelfPlay)
    SelfPlay.__init__(sp, kind, n=2, options=options, seed=seed)
    content = genesis_content(kind, [i.card for i in ids], 0, options, T0,
                              hashlib.sha256(f"club {seed}".encode()).digest()[:16], master=ids[0].master)
    sp.ids, sp.genesis = ids, SignedFile.sign(content, ids[0])
    sp.matches = [Match(sp.genesis) for _ in ids]
    for s, m in enumerate(sp.matches):
        m.attach(s, ids[s], demo_fresh(seed, ids[s].name, kind))
    sp.files = [sp.genesis]
    sp.kind = kind
    return sp


def git(cwd: Path, *args: str, input: str | None = None) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True,
                          input=input).stdout.strip()


def blob(repo: Path, text: str) -> str:
    return git(repo, "hash-object", "-w", "--stdin", input=text)


def _distinct_copies(remote: Path, head: str, entries: list[str], trees: dict[str, str], finished: list[str],
                     names: list[str], copies: int) -> None:
    """Commit the copies to ``remote`` (``git fast-import``), each signed file of a copy an object of its own, as in a
    real club, where no two games share a file: its original's with a first comment line naming the copy (what is
    signed, and so the file a home reads, is its original's: a home's copy of it is the same file). Only the README
    and picture are their original's objects. Copies sharing their original's tree flattered git, whose connectivity
    check after a fetch and before a push marks every object of the old tip's tree: 3 trees read, not 10,000."""
    originals = {n: [(line.split("\t", 1)[1], line.split()[2]) for line in git(remote, "ls-tree", t).splitlines()]
                 for n, t in trees.items()}
    texts = {n: [(name, b, subprocess.run(["git", "-C", str(remote), "cat-file", "blob", b], check=True,
                                          capture_output=True).stdout if name.endswith(".toml") else b"")
                 for name, b in files] for n, files in originals.items()}
    copied = set(names)
    proc = subprocess.Popen(["git", "-C", str(remote), "fast-import", "--quiet"], stdin=subprocess.PIPE)
    out = proc.stdin
    message = f"{copies} finished games".encode()
    out.write(b"commit refs/heads/main\ncommitter bench <bench@example.org> 1795000000 +0000\n"
              b"data %d\n%s\nfrom %s\n" % (len(message), message, head.encode()))
    for line in entries:  # the root's files and folders but the copies (README.md, finished/ made above)
        meta, _, name = line.partition("\t")
        if name not in copied:
            mode, kind, oid = meta.split()
            out.write(f"M {'040000' if kind == 'tree' else mode} {oid} {name}\n".encode())
    for k, n in enumerate(names):
        original = finished[k % len(finished)]
        for name, blob_id, data in texts[original]:
            if not name.endswith(".toml"):
                out.write(f"M 100644 {blob_id} {n}/{name}\n".encode())
                continue
            mine = b"# a copy of %s, as %s\n%s" % (original.encode(), n.encode(), data)
            out.write(b"M 100644 inline %s/%s\ndata %d\n%s\n" % (n.encode(), name.encode(), len(mine), mine))
    out.write(b"\n")
    out.close()
    if proc.wait():
        raise RuntimeError("git fast-import failed")


def build(size: int, tmp: Path, long: bool = False) -> dict:
    """Two homes and their clones of a club of ``size`` games (see the module's docstring); ``long``: the finished
    games and their copies are games of Warlords."""
    from duelmail.app import demo_identity
    from duelmail.delivery import git as gitsync
    from duelmail.home import Home
    from duelmail.transport.git import GitRepo
    from duelmail.transport.settled import MARK, GameIndex

    games = sorted(p for p in material(long).iterdir() if p.is_dir())
    remote = tmp / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    club: dict = {"homes": [], "ids": [], "clones": []}
    for name in ("alice", "bob"):
        home, ident = Home(tmp / name), demo_identity(0, name)
        home.add_identity(ident)
        for g in games:
            shutil.copytree(g, home.games_dir / g.name)
            home.set_me(home.folder_for(g.name[:-13], g.name[-12:]), name, 0 if name == "alice" else 1)
        path = tmp / f"{name}-clone"
        subprocess.run(["git", "clone", "-q", str(remote), str(path)], check=True, capture_output=True)
        for k, v in (("user.name", name), ("user.email", f"{name}@example.org")):
            git(path, "config", k, v)
        git(path, "symbolic-ref", "HEAD", "refs/heads/main")
        if name == "alice":
            GitRepo(path).init()
        gitsync.add_repo(home, path)
        gitsync.sync_git(home, ident, path, games=home.game_folders())  # for real: exports, or takes in
        club["homes"].append(home)
        club["ids"].append(ident)
        club["clones"].append(path)
    copies = size - len(games)
    if copies > 0:
        finished = [g.name for g in games if (club["homes"][0].games_dir / g.name / MARK).exists()]
        assert finished, "the real finished games were not settled by the first sync"
        head = git(remote, "rev-parse", "main")
        trees = {n: git(remote, "mktree", input="".join(  # the copies without their replay page (1.4 MB a long
            f"{e}\n" for e in git(remote, "ls-tree", f"main:{n}").splitlines()  # game's: 28 GB in the two clones
            if not e.endswith("\treplay.html"))) for n in finished}  # at 10,000)
        entries = git(remote, "ls-tree", "main").splitlines()
        names = [f"{finished[k % len(finished)][:-13]}-{hashlib.sha256(f'club copy {k}'.encode()).hexdigest()[:12]}"
                 for k in range(copies)]
        entries += [f"040000 tree {trees[finished[k % len(finished)]]}\t{n}" for k, n in enumerate(names)]
        listings = {e.split("\t")[1]: git(remote, "show", f"main:finished/{e.split(chr(9))[1]}").splitlines()
                    for e in git(remote, "ls-tree", "main:finished").splitlines()}
        month_of = {line[3:].split("]", 1)[0]: (m, line) for m, lines in listings.items() for line in lines
                    if line.startswith("- [")}
        for k, n in enumerate(names):  # each copy listed in its original's month, as a sync that settled it would
            month, line = month_of[finished[k % len(finished)]]
            listings[month].append(line.replace(finished[k % len(finished)], n))
        in_play = [line for line in git(remote, "show", "main:README.md").splitlines() if line.startswith("- [")]
        top = gitsync.top_readme(in_play, {m.removesuffix(".md"): sum(line.startswith("- [") for line in lines)
                                           for m, lines in listings.items()})
        months = [f"100644 blob {blob(remote, chr(10).join(lines) + chr(10))}\t{m}" for m, lines in listings.items()]
        entries = [e for e in entries if not e.endswith(("\tREADME.md", "\tfinished"))] + [
            f"100644 blob {blob(remote, top)}\tREADME.md",
            f"040000 tree {git(remote, 'mktree', input=chr(10).join(months) + chr(10))}\tfinished"]
        _distinct_copies(remote, head, entries, trees, finished, names, copies)  # each its own objects
        for home, path in zip(club["homes"], club["clones"], strict=True):
            git(path, "pull", "-q", "--ff-only", "origin", "main")
            for k, n in enumerate(names):
                real = home.games_dir / finished[k % len(finished)]
                target = home.games_dir / n
                target.mkdir()
                for p in real.iterdir():
                    if p.name == "genesis.toml" or p.name.startswith("r"):
                        os.link(p, target / p.name)
                row = json.loads((real / MARK).read_text())
                (target / MARK).write_text(json.dumps({**row, "folder": n, "game": n[-12:] + "0" * 52}) + "\n")
                (target / ".me.toml").write_text((real / ".me.toml").read_text())
                memo = tomllib.loads((real / ".readme.toml").read_text())  # its README written once, as for any
                for k in ("line", "listed"):  # game a home settled (a copy's files are its original's: same key)
                    memo[k] = memo[k].replace(real.name, n)
                (target / ".readme.toml").write_text(tomlkit.dumps({**memo, "game": n[-12:]}))
            index = GameIndex(home.root)  # rebuilt from the marks, as after a lost index
            memory = gitsync._memory_path(home, GitRepo(path))
            memo = json.loads(memory.read_text())
            memory.write_text(json.dumps({**memo, "commit": git(path, "rev-parse", "HEAD"),
                                          "generation": index.generation, "rows": index.rows_size, "held": []}))
    for home in club["homes"]:  # the caches a player's own commands leave; alice's sync moves the finished games
        dm(home, "status", "--all")  # to their branch once (from SHELVE_AT on), as a club begun before moves them
        wall, cpu, text = dm(home, "git", "sync")
        moved = [line for line in text.splitlines() if "moved to the branch" in line]
        print(f"  {home.root.name}'s first sync of the club: {wall:,.1f} s ({cpu:,.1f} s CPU)"
              + (f"; {moved[0].split(': ', 1)[-1]}" if moved else ""), flush=True)
    return club


def dm(home, *args: str, counted: bool = False) -> tuple[float, float, str]:
    """Run ``duelmail --home HOME ARGS`` as its own process: (wall, CPU of it and its children, output); ``counted``:
    under valgrind's cachegrind, following every child (git, and the bare remote's side of a push), the
    instructions of them all in place of the CPU time."""
    with tempfile.TemporaryDirectory(prefix="bench-club-cg-") as cg:
        wrap = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
                f"--cachegrind-out-file={cg}/cg.%p"] if counted else []
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        res = subprocess.run([*wrap, DUELMAIL, "--home", str(home if isinstance(home, Path) else home.root), *args],
                             capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if res.returncode not in (0, 10):
            raise RuntimeError(f"duelmail {' '.join(args)}: {res.stdout}{res.stderr}")
        if counted:  # each process's file ends with "summary: N" (instructions)
            total = sum(int(line.split()[1]) for f in Path(cg).iterdir()
                        for line in f.read_text(errors="replace").splitlines() if line.startswith("summary:"))
            return wall, float(total), res.stdout
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, res.stdout


def children(fn) -> tuple[float, float]:
    """Wall time and CPU time of the child processes ``fn`` runs (getrusage)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    fn()
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def median(runs) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def measure(size: int, repeat: int, counted: bool = False) -> dict[str, tuple[float, float]]:
    from duelmail.delivery import git as gitsync
    from duelmail.transport.git import GitRepo

    tmp = Path(tempfile.mkdtemp(prefix=f"bench-club-{size}-"))
    try:
        t = time.perf_counter()
        club = build(size, tmp)
        built = time.perf_counter() - t
        alice, bob = club["homes"]
        out: dict[str, tuple[float, float]] = {}
        for label, args in (("git sync, nothing new", ("git", "sync")),
                            ("watch --once, nothing new", ("watch", "--once", "--git")),
                            ("status --all", ("status", "--all"))):
            out[label] = median([dm(alice, *args)[:2] for _ in range(repeat)])
        files = int(git(club["clones"][0], "ls-files", "-z").count("\0"))
        remote = tmp / "remote.git"
        out[f"git clone + checkout ({files:,} files)"] = median([children(lambda k=k: subprocess.run(
            ["git", "clone", "-q", str(remote), str(tmp / f"fresh-{k}")], check=True)) for k in range(repeat)])
        memory = gitsync._memory_path(alice, GitRepo(club["clones"][0]))
        runs = []  # a sync without its memory (a home whose index was rebuilt): the whole history is read
        for _ in range(repeat):
            memory.unlink()
            runs.append(dm(alice, "git", "sync")[:2])
        out["git sync, no memory"] = median(runs)
        played, runs = [], []
        for _ in range(repeat):
            st = json.loads(dm(bob, "status", "--all", "--json")[2])
            game = next(r["game"][:12] for r in st if r["your_turn"] and not r["over"])
            played.append(dm(bob, "play", "--game", game, "--bot", "heuristic", "--push")[:2])
            wall, cpu, text = dm(alice, "git", "sync")
            assert "verified and applied" in text, text
            runs.append((wall, cpu))
        out["play --push (the mover)"] = median(played)
        out["git sync, one new turn"] = median(runs)
        if counted:  # each once more under cachegrind, every child process followed: instructions (they do not
            out["instructions: git sync, nothing new"] = dm(alice, "git", "sync", counted=True)[:2]  # drift)
            memory.unlink()
            out["instructions: git sync, no memory"] = dm(alice, "git", "sync", counted=True)[:2]
            st = json.loads(dm(bob, "status", "--all", "--json")[2])
            game = next(r["game"][:12] for r in st if r["your_turn"] and not r["over"])
            out["instructions: play --push"] = dm(bob, "play", "--game", game, "--bot", "heuristic", "--push",
                                                  counted=True)[:2]
            out["instructions: git sync, one new turn"] = dm(alice, "git", "sync", counted=True)[:2]
        out["(building the club)"] = (built, 0.0)
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def turn(alice: Path, bob: Path, counted: bool = False) -> dict[str, tuple[float, float]]:
    """One new turn in a club whose homes are ``alice`` and ``bob``: a sync with nothing new, bob's ``play --push``
    (alice's when bob has no turn to play) and the other's ``git sync`` that applies it, each its own ``duelmail``
    process: (wall, CPU) of each, or (wall, instructions) when ``counted``."""
    out = {"git sync, nothing new": dm(alice, "git", "sync", counted=counted)[:2]}
    for mover in (bob, alice):
        st = json.loads(dm(mover, "status", "--all", "--json")[2])
        game = next((r["game"][:12] for r in st if r["your_turn"] and not r["over"]), None)
        if game:
            break
    other = alice if mover == bob else bob
    out["play --push (the mover)"] = dm(mover, "play", "--game", game, "--bot", "heuristic", "--push",
                                       counted=counted)[:2]
    wall, cpu, text = dm(other, "git", "sync", counted=counted)
    assert "verified and applied" in text, text
    out["git sync, one new turn"] = (wall, cpu)
    return out


def long_club(sizes: list[int], repeat: int, keep: Path | None = None, counted: bool = False) -> None:
    """``--long``: clubs whose finished games are Warlords (some 134 files a game in the repository), each size built
    in its own process and kept; then a new turn at each size in turn, ``repeat`` times (interleaved: a load that
    comes and goes weighs on every size alike). ``keep``: each club is built in ``keep/SIZE`` and left there (one
    built there already is measured again, its next turns)."""
    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores); median of {repeat}, sizes "
          f"interleaved; the finished games are Warlords")
    tmps = {size: keep / str(size) if keep else Path(tempfile.mkdtemp(prefix=f"bench-club-long-{size}-"))
            for size in sizes}
    try:
        files = {}
        for size, tmp in tmps.items():
            t = time.perf_counter()
            if not (tmp / "built").exists():
                shutil.rmtree(tmp, ignore_errors=True)
                tmp.mkdir(parents=True)
                subprocess.run([sys.executable, __file__, "--build-long", str(size), str(tmp)], check=True)
                (tmp / "built").write_text("")
            clone = tmp / "alice-clone"
            files[size] = git(clone, "ls-tree", "-r", "-z", "--name-only", "HEAD").count("\0")
            shelf = subprocess.run(["git", "-C", str(clone), "ls-tree", "-r", "-z", "--name-only",
                                    "origin/finished-games"], capture_output=True, text=True).stdout.count("\0")
            print(f"  {size:,} games built ({files[size]:,} files in the branch in play, {shelf:,} on finished-games) "
                  f"in {time.perf_counter() - t:,.0f} s; load average {os.getloadavg()[0]:.2f}", flush=True)
        runs: dict[int, list[dict]] = {size: [] for size in sizes}
        for _ in range(repeat):
            for size, tmp in tmps.items():
                runs[size].append(turn(tmp / "alice", tmp / "bob"))
        print(f"{'command':<28}" + "".join(f"{f'{s:,} games':>26}" for s in sizes))
        for label in runs[sizes[0]][0]:
            cells = "".join(f"{f'{w * 1000:,.0f} ms ({c * 1000:,.0f} CPU)':>26}"
                            for w, c in (median([r[label] for r in runs[s]]) for s in sizes))
            print(f"{label:<28}{cells}")
        print(f"{'  (files in play)':<28}" + "".join(f"{files[s]:>26,}" for s in sizes))
        if counted:  # one more turn a size, its instructions counted (they do not drift with the load)
            counts = {size: turn(tmp / "alice", tmp / "bob", counted=True) for size, tmp in tmps.items()}
            print("instructions (valgrind cachegrind, every process of the command; one turn a size):")
            for label in counts[sizes[0]]:
                print(f"{label:<28}" + "".join(f"{f'{counts[s][label][1] / 1e6:,.0f} M':>26}" for s in sizes))
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        for tmp in tmps.values() if keep is None else ():
            shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str]) -> None:
    repeat = 5
    if "--repeat" in argv:
        i = argv.index("--repeat")
        repeat = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if "--build-long" in argv:  # one long club, built in this process and left in the folder given
        i = argv.index("--build-long")
        build(int(argv[i + 1]), Path(argv[i + 2]), long=True)
        return
    if "--long" in argv:
        keep = None
        if "--keep" in argv:
            i = argv.index("--keep")
            keep = Path(argv[i + 1])
            argv = argv[:i] + argv[i + 2:]
        counted = "--instructions" in argv
        long_club([int(a) for a in argv if a not in ("--long", "--instructions")] or [10, 10000], repeat, keep,
                  counted)
        return
    if "--one" in argv:  # one size, in this process: its figures as JSON on the last line
        size = int(argv[argv.index("--one") + 1])
        print(json.dumps(measure(size, repeat, "--instructions" in argv)))
        return
    counted = "--instructions" in argv
    sizes = [int(a) for a in argv if a != "--instructions"] or [10, 1000, 10000]
    in_play = sum(1 for p in material().iterdir() if p.is_dir()) - FINISHED
    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores); median of {repeat}; "
          f"{in_play} games in play, the rest finished; each size in its own process")
    results = {}
    for size in sizes:  # each size in a process of its own: no cache or memo of one size's run helps another's
        res = subprocess.run([sys.executable, __file__, "--one", str(size), "--repeat", str(repeat),
                              *(["--instructions"] if counted else [])], capture_output=True, text=True)
        if res.returncode:
            raise SystemExit(f"{size:,} games failed:\n{res.stdout[-3000:]}{res.stderr[-3000:]}")
        results[size] = {k: tuple(v) for k, v in json.loads(res.stdout.strip().splitlines()[-1]).items()}
        print(f"  {size:,} games done; load average {os.getloadavg()[0]:.2f}", flush=True)
    labels = [label for label in next(iter(results.values())) if not label.startswith("git clone")]
    print(f"{'command':<40}" + "".join(f"{f'{s:,} games':>26}" for s in sizes))
    for label in labels:
        counts = label.startswith("instructions")  # (wall, instructions): no CPU time
        cells = "".join(f"{f'{c / 1e6:,.0f} M' if counts else f'{w * 1000:,.0f} ms ({c * 1000:,.0f} CPU)':>26}"
                        for w, c in (results[s][label] for s in sizes))
        print(f"{label:<40}{cells}")
    clones = [next((k, v) for k, v in results[s].items() if k.startswith("git clone")) for s in sizes]
    print(f"{'git clone + checkout':<40}" + "".join(f"{f'{w * 1000:,.0f} ms ({c * 1000:,.0f} CPU)':>26}"
                                                  for _, (w, c) in clones))
    print(f"{'  (files checked out)':<40}" + "".join(f"{k.split('(')[1].split()[0]:>26}" for k, _ in clones))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
