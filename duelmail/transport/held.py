"""Files that arrived before the files they follow (round 3 before round 2, a note before the one numbered
before it): kept in the game's folder, in ``.held/`` (never among the game's files, which the fold reads), and
applied as soon as the gap is filled, whichever transport fills it (``app.receive_files`` releases them).

Only a file signed by a seat of a game this home holds is kept (the signature is checked before the round), and
the store is bounded *by seat*: at most ``MAX_FILES`` files and ``MAX_BYTES`` bytes signed by one seat, so nobody
fills a disk with files from the future, and one seat's junk never takes the room of another seat's early file. A
file its seat has no room left for is not refused for good (``HeldFull``): the carrier leaves it to come again (a
mail stays unread). A held file that proves bad once it can be checked is refused then and dropped; the held
files of a finished game are dropped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from duelmail.errors import FileRefused, HeldFull, NotYet
from duelmail.transport.archive import file_name, ordered
from duelmail.util.fs import atomic_write, forget

if TYPE_CHECKING:
    from duelmail.engine.match import Match
    from duelmail.protocol.turnfile import SignedFile
    from duelmail.transport.folder import GameFolder

HELD_DIR = ".held"
MAX_FILES = 64  # a seat
MAX_BYTES = 8 << 20  # a seat
_SEAT = re.compile(r"^[0-9a-f]{16}-r[0-9]{4}-s([0-9]+)[-.]")
_HEAD = "held by duelmail until "


def waiting_for(e: FileRefused, f: SignedFile, before: Match) -> str | None:
    """What ``f`` waits for, in a player's words, when its refusal ``e`` only says it came too early for the game
    as ``before`` holds it (``round 2``; a note whose seat's previous note is missing, ``P-wait``: ``bob's note
    2``); None when ``f`` is refused for good."""
    if isinstance(e, NotYet):
        return e.waiting
    if e.rule == "P-wait" and f.kind == "note" and isinstance(f.content.get("n"), int):  # a note after a gap
        return f"{before.cards[f.seat].name}'s note {f.content['n'] - 1}"
    if e.rule == "P-round" and f.kind != "genesis" and f.round > before.round and not before.finished:
        return f"round {before.round}"
    against = f.content.get("against")
    if e.rule == "P-timeout" and f.kind == "claim" and "answer" in f.content and before.tc.delivery is not None \
            and f.round == before.round and isinstance(against, int) and 0 <= against < before.n \
            and against in before.duties and against not in before.current:
        # a claim of the delivery rule that counts from a copy of the claimed seat's file this home does not hold:
        # judged once that file comes, as every home holding both judges it (issue 37 item 5, protocol section 6b)
        return f"{before.cards[against].name}'s file for round {f.round}"
    return None


class HeldFiles:
    """The files a game folder holds aside until they can be checked."""

    def __init__(self, folder: GameFolder):
        self.path = Path(folder.path) / HELD_DIR

    def entries(self) -> list[tuple[Path, SignedFile]]:
        """Every held file, in the fold's order; one that can no longer be read is dropped."""
        from duelmail.protocol.turnfile import parse_any

        if not self.path.is_dir():
            return []
        out = []
        for p in sorted(self.path.iterdir()):
            if not p.name.endswith(".toml") or p.name.startswith(".") or not p.is_file() or p.is_symlink():
                continue
            try:
                (f,) = parse_any(p.read_text(encoding="utf-8"), str(p))
            except Exception:  # noqa: BLE001 - a damaged held file: the sender's copy is still to be had
                self.drop(p)
                continue
            out.append((p, f))
        by_where = {str(p): p for p, _ in out}
        return [(by_where[w], f) for w, f in ordered([(str(p), f) for p, f in out])]

    def holds(self, f: SignedFile) -> bool:
        return self.path.is_dir() and any(p.name.startswith(f.file_hash[:16] + "-") for p in self.path.iterdir())

    def keep(self, f: SignedFile, waiting: str, where: str) -> Path | None:
        """Keep ``f`` until ``waiting`` arrives; None if it is held already. When its seat's share of the store is
        full: ``HeldFull`` (the sender's copy comes again)."""
        if self.holds(f):
            return None
        text = f.to_toml([f"{_HEAD}{waiting} arrives"])
        files, size = self.of_seat(f.seat)
        if files >= MAX_FILES or size + len(text.encode()) > MAX_BYTES:
            raise HeldFull(where, f"it waits for {waiting}, and this game already holds {files} files "
                           f"({size // 1024} KiB) of seat {f.seat} waiting for earlier ones, as many as a home keeps "
                           "of one seat: not kept now; it is read again once the files between have arrived",
                           round=f.round, seat=f.seat, rule="P-round")
        return atomic_write(self.path / f"{f.file_hash[:16]}-{file_name(f)}", text)

    def of_seat(self, seat: int) -> tuple[int, int]:
        """How many files signed by ``seat`` the store holds, and their bytes."""
        n = size = 0
        if self.path.is_dir():
            for p in self.path.iterdir():
                m = _SEAT.match(p.name)
                if m and int(m.group(1)) == seat and p.is_file():
                    n, size = n + 1, size + p.stat().st_size
        return n, size

    def usage(self) -> tuple[int, int]:
        """How many files the store holds, and their bytes (``status``)."""
        if not self.path.is_dir():
            return 0, 0
        files = [p for p in self.path.iterdir() if p.is_file() and p.name.endswith(".toml")]
        return len(files), sum(p.stat().st_size for p in files)

    @staticmethod
    def waiting(path: Path) -> str:
        """What the held file at ``path`` waited for (its first line says it)."""
        try:
            with path.open(encoding="utf-8") as fh:
                first = fh.readline().strip()
        except (OSError, UnicodeDecodeError):
            return ""
        return first.removeprefix(f"# {_HEAD}").removesuffix(" arrives") if first.startswith(f"# {_HEAD}") else ""

    def drop(self, path: Path) -> None:
        path.unlink(missing_ok=True)
        forget(self.path)

    def clear(self) -> list[Path]:
        """Drop every held file (the game is finished); the ones dropped."""
        gone = [p for p, _ in self.entries()]
        for p in gone:
            self.drop(p)
        return gone
