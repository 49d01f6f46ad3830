"""A home's index of its games: those in play, and the finished ones, settled once and never read again.

A game is *settled* once it is finished (over, every seat's audit seed in, nothing awaited): nothing it holds can
change what any command says, so ``status --all``, ``watch`` and ``git sync`` pass it by without a ``stat``. Files::

    HOME/index/games.json       the games in play (folder names), how many are settled, and the stamps below
    HOME/index/finished.jsonl   one line per settled game: folder, game id, kind, result (append-only)
    HOME/index/unsettled        folder names of settled games a file arrived in since (``GameFolder.store``)
    GAME/.settled               the game's line, in its own folder

``games.json`` is trusted while the games folder's modification time (a game folder added, renamed or removed),
the size of ``finished.jsonl`` and that of ``unsettled`` are what it recorded; else it is rebuilt from one listing
of the games folder (a settled game is one whose folder holds ``.settled``). It is a cache, never state: delete
``HOME/index`` and the next command rebuilds it (with a new ``generation``, which tells ``git sync`` to look at
its repositories in full once).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from duelmail.util.fs import atomic_write

MARK = ".settled"


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _stamp(folder: Path) -> int:
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return -1


def unsettle(folder: Path) -> None:
    """A file arrived in ``folder``: if its game was settled, it is in play again until the next fold settles it
    (``GameFolder.store`` calls this; one ``stat`` when the game was not settled)."""
    mark = folder / MARK
    if not mark.exists():
        return
    index = folder.parent.parent / "index"
    index.mkdir(exist_ok=True)
    with open(index / "unsettled", "a", encoding="utf-8") as fh:  # one short line: appended whole
        fh.write(folder.name + "\n")
    mark.unlink(missing_ok=True)


class GameIndex:
    """Which games of a home are in play (``live``) and how many are settled; ``settle`` files a finished one."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.games_dir = self.root / "games"
        self.dir = self.root / "index"
        self.memo: dict = {}
        self._load()

    # -- reading ---------------------------------------------------------------------------------
    @property
    def live(self) -> list[str]:
        """The folder names of the games in play, in name order."""
        return list(self.memo["live"])

    @property
    def finished(self) -> int:
        return self.memo["finished"]

    @property
    def generation(self) -> str:
        return self.memo["generation"]

    @property
    def rows_size(self) -> int:
        """The size of ``finished.jsonl``: what was settled after a moment is what lies beyond its size then."""
        return self.memo["rows"]

    def rows(self, since: int = 0) -> dict[str, dict]:
        """The settled games' lines by folder name (settled again: the later line), those appended after byte
        ``since`` only; a game in play again, or archived, is left out."""
        live = set(self.memo["live"])  # in play again, or filed away (``archive``): left out
        return {k: v for k, v in self._read_rows(since).items()
                if k not in live and (self.games_dir / k / MARK).exists()}

    def _read_rows(self, since: int = 0) -> dict[str, dict]:
        out: dict[str, dict] = {}
        try:
            with open(self.dir / "finished.jsonl", "rb") as fh:
                fh.seek(max(since, 0))
                data = fh.read()
        except OSError:
            return out
        for line in data.decode("utf-8", "replace").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and isinstance(row.get("folder"), str):
                out[row["folder"]] = row
        return out

    def _load(self) -> None:
        try:
            memo = json.loads((self.dir / "games.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            memo = None
        if (isinstance(memo, dict) and memo.get("stamp") == _stamp(self.games_dir)
                and memo.get("rows") == _size(self.dir / "finished.jsonl")
                and memo.get("unsettled") == _size(self.dir / "unsettled")
                and isinstance(memo.get("live"), list) and isinstance(memo.get("finished"), int)
                and isinstance(memo.get("generation"), str)):
            self.memo = memo
            return
        self._rebuild(memo.get("generation") if isinstance(memo, dict) else None)

    def _rebuild(self, generation: str | None) -> None:
        """Read the games folder once: a folder holding ``.settled`` is settled, any other game folder in play."""
        rows_path = self.dir / "finished.jsonl"
        if not rows_path.exists() or not isinstance(generation, str):
            generation = os.urandom(8).hex()  # a new index: whatever remembered the old one looks again
        live, settled = [], 0
        names = sorted(os.listdir(self.games_dir)) if self.games_dir.is_dir() else []
        lost = []
        for name in names:
            folder = self.games_dir / name
            if (folder / MARK).exists():
                settled += 1
                continue
            if (folder / "genesis.toml").exists():
                live.append(name)
        self.memo = {"generation": generation, "live": live, "finished": settled}
        known = set(self._read_rows())
        for name in sorted(set(names) - set(live) - known):  # settled, but its line is lost: written again
            try:
                row = json.loads((self.games_dir / name / MARK).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            lost.append(row)
        if lost:
            self._append(lost)
        self._save()

    # -- writing ---------------------------------------------------------------------------------
    def _append(self, rows: list[dict]) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        with open(self.dir / "finished.jsonl", "a", encoding="utf-8") as fh:
            fh.write("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))

    def _save(self) -> None:
        self.memo.update(stamp=_stamp(self.games_dir), rows=_size(self.dir / "finished.jsonl"),
                         unsettled=_size(self.dir / "unsettled"))
        try:
            atomic_write(self.dir / "games.json", json.dumps(self.memo), durable=False)
        except OSError:
            pass  # a read-only home still answers, from a fresh listing each time

    def settle(self, games: list[tuple[Path, dict]]) -> None:
        """File these finished games (folder, its line: ``game``, ``kind``, ``result``) as settled."""
        games = [(Path(f), row) for f, row in games if Path(f).name in self.memo["live"]]
        if not games:
            return
        rows = []
        try:
            for folder, row in games:
                row = {**row, "folder": folder.name}
                atomic_write(folder / MARK, json.dumps(row, sort_keys=True) + "\n", durable=False)
                rows.append(row)
            self._append(rows)
        except OSError:
            return  # a read-only home: the games stay in play, which is only slower
        if _stamp(self.games_dir) != self.memo["stamp"] or _size(self.dir / "unsettled") != self.memo["unsettled"]:
            self._rebuild(self.generation)  # another process changed the games meanwhile: read them again
            return
        done = {r["folder"] for r in rows}
        self.memo["live"] = [n for n in self.memo["live"] if n not in done]
        self.memo["finished"] += len(done)
        self._save()
