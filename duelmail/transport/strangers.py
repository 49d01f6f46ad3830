"""What a home keeps that nobody it plays with sent: bounded for the whole home, oldest dropped first.

Two kinds of things come from strangers:

- a *genesis not joined*, from a creator who is in none of this home's games: its game folder is kept (the player
  may join it) and marked ``.stranger``; joining (``app.join_game``) takes the mark off;
- a *file of a game this home does not know* (its genesis has not come, or never will): kept in
  ``HOME/strangers/`` and applied as soon as its game's genesis arrives (``app.receive_files``).

Together they hold at most ``MAX_BYTES`` bytes and ``MAX_ITEMS`` items; past that the oldest are dropped, and the
command that dropped them says so. A genesis from a seat of a game this home plays (``partners``: the keys of
the seats of every game it created or joined) is never counted: nobody it plays with is crowded out by strangers.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from duelmail.transport.archive import file_name
from duelmail.util.fs import atomic_write, forget

if TYPE_CHECKING:
    from duelmail.home import Home
    from duelmail.protocol.turnfile import SignedFile
    from duelmail.transport.folder import GameFolder

MAX_BYTES = 16 << 20
MAX_ITEMS = 64
MARK = ".stranger"
DIR = "strangers"


def _tree_size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


class Strangers:
    """The stranger-sent part of a home (see the module's words)."""

    def __init__(self, home: Home):
        self.home = home
        self.dir = Path(home.root) / DIR
        self.partners_path = self.dir / "partners"

    # -- who we play with ---------------------------------------------------------------------------------
    def partners(self) -> set[str]:
        """The keys (as the genesis writes them) of every seat of every game this home created or joined."""
        try:
            return set(self.partners_path.read_text(encoding="utf-8").split())
        except (OSError, UnicodeDecodeError):
            return self._rebuild_partners()

    def _rebuild_partners(self) -> set[str]:
        from duelmail.protocol.turnfile import parse_any

        keys: set[str] = set()
        for folder in self.home.game_folders():  # the games this home's seat created or signed a file in
            try:
                seat = self.home.me(folder).get("seat")
                (g,) = parse_any(folder.genesis_path.read_text(encoding="utf-8"), str(folder.genesis_path))
            except Exception:  # noqa: BLE001 - a damaged genesis names nobody
                continue
            if seat is None or (seat != g.content.get("creator") and not any(folder.path.glob(f"r*-s{seat}*.toml"))):
                continue
            keys |= {str(s.get("key")) for s in g.content.get("seats", []) if isinstance(s, dict)}
        self._save_partners(keys)
        return keys

    def _save_partners(self, keys: set[str]) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        atomic_write(self.partners_path, "".join(f"{k}\n" for k in sorted(keys)), durable=False)

    def play_with(self, genesis: SignedFile) -> None:
        """This home created or joined ``genesis``'s game: its seats are partners from now on."""
        keys = {str(s.get("key")) for s in genesis.content.get("seats", []) if isinstance(s, dict)}
        known = self.partners()
        if not keys <= known:
            self._save_partners(known | keys)

    def from_partner(self, genesis: SignedFile) -> bool:
        seats = genesis.content.get("seats", [])
        creator = genesis.content.get("creator")
        if not isinstance(creator, int) or not 0 <= creator < len(seats) or not isinstance(seats[creator], dict):
            return False
        return str(seats[creator].get("key")) in self.partners()

    # -- what strangers sent -------------------------------------------------------------------------------
    def mark(self, folder: GameFolder) -> None:
        """A game folder started by a genesis from a stranger."""
        atomic_write(folder.path / MARK, "a genesis nobody this home plays with sent, not joined\n")

    @staticmethod
    def unmark(folder: GameFolder) -> None:
        (folder.path / MARK).unlink(missing_ok=True)

    def keep(self, f: SignedFile) -> Path:
        """A file of a game this home does not hold, kept until its genesis comes."""
        self.dir.mkdir(parents=True, exist_ok=True)
        return atomic_write(self.dir / f"{f.game[:16]}-{f.file_hash[:16]}-{file_name(f)}", f.to_toml())

    def files_of(self, game: str) -> list[tuple[Path, SignedFile]]:
        """The files kept for game ``game`` (its genesis has come); one that cannot be read is dropped."""
        from duelmail.protocol.turnfile import parse_any

        if not self.dir.is_dir():
            return []
        out = []
        for p in sorted(self.dir.glob(f"{game[:16]}-*.toml")):
            try:
                (f,) = parse_any(p.read_text(encoding="utf-8"), str(p))
            except Exception:  # noqa: BLE001 - damaged: nothing to apply
                p.unlink(missing_ok=True)
                continue
            out.append((p, f))
        return out

    def items(self) -> list[tuple[int, int, Path]]:
        """(time kept, bytes, path) of every stranger-sent thing this home holds, oldest first."""
        out = []
        if self.dir.is_dir():
            for p in self.dir.iterdir():
                if p.name.endswith(".toml") and p.is_file():
                    st = p.stat()
                    out.append((st.st_mtime_ns, st.st_size, p))
        games = Path(self.home.root) / "games"
        if games.is_dir():
            for p in games.iterdir():
                mark = p / MARK
                if mark.exists():
                    out.append((mark.stat().st_mtime_ns, _tree_size(p), p))
        return sorted(out, key=lambda t: (t[0], str(t[2])))

    def usage(self) -> tuple[int, int]:
        """How many stranger-sent things this home holds, and their bytes (``status``)."""
        items = self.items()
        return len(items), sum(size for _, size, _ in items)

    def make_room(self, keep: Path | None = None) -> list[str]:
        """Drop the oldest stranger-sent things until the rest fit in the bounds (never ``keep``, the one just
        kept); what was dropped, in words."""
        items = self.items()
        total, dropped = sum(size for _, size, _ in items), []
        for _, size, path in [it for it in items if it[2] != keep]:
            if total <= MAX_BYTES and len(items) - len(dropped) <= MAX_ITEMS:
                break
            if path.is_dir():
                import shutil

                shutil.rmtree(path, ignore_errors=True)
                dropped.append(f"the invitation {path.name} (not joined, from nobody you play with)")
            else:
                path.unlink(missing_ok=True)
                dropped.append(f"{path.name.split('-', 2)[-1]} of game {path.name[:12]}, a game this home does "
                               "not hold")
            forget(path.parent)
            total -= size
        return dropped
