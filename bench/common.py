"""Shared helpers for the benchmarks: timing, and archives built by bot play (cached under bench/.cache)."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CACHE = Path(__file__).parent / ".cache"


def timeit(fn, repeat: int = 5) -> float:
    """Median wall time of ``fn()`` in seconds."""
    return timed(fn, repeat)[1]


def timed(fn, repeat: int = 5) -> tuple[float, float]:
    """Medians of ``fn()``'s CPU time (``time.process_time``: what the work costs, however loaded the machine)
    and wall time, in seconds."""
    cpu, wall = [], []
    for _ in range(repeat):
        c, t = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return statistics.median(cpu), statistics.median(wall)


def game_cache(name: str, game: str) -> Path:
    """A cache folder for archives of ``game`` named by its rules version: archives of older rules are never read."""
    from duelmail.games.base import get_game

    return CACHE / f"{name}-{game}-v{get_game(game).spec.rules_version}"


def long_archive(min_files: int) -> Path:
    """A folder holding one real game of at least ``min_files`` files (six heuristic bots, both options)."""
    from duelmail.testing.selfplay import SelfPlay
    from duelmail.transport.folder import GameFolder

    target = game_cache(f"archive-{min_files}", "warlords")
    if (target / "genesis.toml").exists():
        return target
    for seed in range(20):
        sp = SelfPlay("warlords", n=6, options={"reinforcements": True, "hidden-ally": True}, seed=seed)
        sp.run()
        if len(sp.files) >= min_files:
            folder = GameFolder(target)
            for f in sp.files:
                folder.store(f)
            return target
    raise RuntimeError(f"no seed gave a game of {min_files} files")


def file_kind(content: dict) -> str:
    """What a turn file is for, in the words the message-count benchmarks print."""
    acts = [a for a in content["actions"] if a != "join"]
    if "join" in content["actions"]:
        return "acceptance"
    if acts:
        return "turn decision"
    if "deck" in content:
        return "set-up or reshuffle pass"
    if "seed" in content and not content.get("keys") and not content.get("opens"):
        return "audit seed"
    return "keys only" if content.get("keys") or not content.get("opens") else "openings only"


def print_kinds(kinds: dict, width: int = 36, skip: tuple[str, ...] = ("turns",)) -> None:
    """The file counts by kind, details (keys starting with a space) after the main kinds."""
    for k, v in sorted(kinds.items(), key=lambda kv: (kv[0].startswith(" "), kv[0])):
        if k not in skip:
            print(f"    {k:<{width}} {v:>7}")
