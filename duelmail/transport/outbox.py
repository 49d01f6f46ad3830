"""A game folder's outbox: this home's own signed files still to be mailed to the other seats.

Each file is put in the outbox (``.outbox`` in the game's folder, written atomically) *before* it is stored and
before any send is tried, so that neither a failing server nor a killed process loses it: every later command
that reaches the network (``play``, ``receive``, ``mail fetch``, ``watch``, ``git sync``) tries it again
(``delivery/outbox.py``) until the server accepts it, and then it leaves the outbox. A file sent twice (the process
killed after the server took it, before the outbox said so) reaches the other seats as a second copy, which they
take as a duplicate: nothing changes. The entry holds the signed file's text too: a process killed between the
outbox and the store leaves a file the folder lacks, which the next command stores (``delivery/outbox.py``,
``recover``) when it still follows the game, and sends; one the game has passed by (this seat signed another
file for that round meanwhile) is dropped, never sent: nobody saw it.

A file is put in the outbox only in a home that mails its games (an outgoing server is set up): a game kept in a
git repository travels with its folder (every sync pushes what the repository lacks), and a home with neither
leaves carrying its files to the player.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from duelmail.transport.archive import file_name
from duelmail.util.fs import atomic_write

if TYPE_CHECKING:
    from duelmail.protocol.turnfile import SignedFile
    from duelmail.transport.folder import GameFolder

OUTBOX = ".outbox"
LISTED = Path("index") / "outboxes"  # in the home: an empty file named after each game folder holding an outbox


def mails(folder: GameFolder) -> bool:
    """Whether this home mails the files of ``folder``'s game: an outgoing server is set up in its config and the
    game is in none of its git repositories."""
    if folder.home is None:
        return False
    try:
        text = (folder.home / "config.toml").read_text(encoding="utf-8")
        if "smtp_host" not in text:
            return False  # (no TOML read: most homes)
        cfg = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    mail = cfg.get("mail")
    if not isinstance(mail, dict) or not mail.get("smtp_host"):
        return False
    repos = cfg.get("git", {}).get("repos", []) if isinstance(cfg.get("git"), dict) else []
    return not any((Path(str(r)) / folder.path.name).is_dir() for r in repos)


class Outbox:
    """The files of one game folder still to be mailed: ``[{file, hash, error, tries}]``, in the order signed."""

    def __init__(self, folder: GameFolder):
        self.folder = folder
        self.path = Path(folder.path) / OUTBOX

    def entries(self) -> list[dict]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            return []
        if not isinstance(data, list):
            return []
        return [e for e in data if isinstance(e, dict) and isinstance(e.get("file"), str)
                and isinstance(e.get("hash"), str) and "/" not in e["file"] and not e["file"].startswith(".")]

    def _save(self, entries: list[dict]) -> None:
        listed = Path(self.folder.home) / LISTED / Path(self.folder.path).name if self.folder.home else None
        if entries:
            was = listed is not None and listed.parent.is_dir()
            if was and not listed.exists():
                listed.touch()  # (listed first: an outbox is never left unlisted; no list yet: made by a look at all)
            atomic_write(self.path, json.dumps(entries, indent=1) + "\n")
            if not was and listed is not None and listed.parent.is_dir():
                listed.touch()  # (the list made meanwhile, by a look that may have passed this folder by)
        else:
            self.path.unlink(missing_ok=True)
            if listed is not None:
                listed.unlink(missing_ok=True)

    def add(self, f: SignedFile) -> None:
        """Put ``f`` in the outbox (before it is stored: see the module's words); one already there stays once."""
        entries = self.entries()
        if not any(e["hash"] == f.file_hash for e in entries):
            self._save([*entries, {"file": file_name(f), "hash": f.file_hash, "error": "", "tries": 0,
                                   "text": f.to_toml()}])

    def drop(self, file_hash: str) -> None:
        """A file that is not to be sent (signed, never stored, and passed by): it leaves the outbox."""
        self.sent(file_hash)

    def unstored(self) -> list[tuple[dict, SignedFile]]:
        """Each entry whose file the folder does not hold (the process was killed between the outbox and the
        store), with the file its text holds; an entry without a text that is its file is left out."""
        from duelmail.protocol.turnfile import parse_any

        out = []
        for e in self.entries():
            if self._held(e):
                continue
            try:
                got = [f for f in parse_any(str(e.get("text", "")), e["file"]) if f.file_hash == e["hash"]]
            except Exception:  # noqa: BLE001 - not a file, or not that one: nothing to store
                got = []
            if got:
                out.append((e, got[0]))
        return out

    def _held(self, e: dict) -> bool:
        from duelmail.protocol.turnfile import parse_any

        p = Path(self.folder.path) / e["file"]
        try:
            return any(f.file_hash == e["hash"] for f in parse_any(p.read_text(encoding="utf-8"), str(p)))
        except Exception:  # noqa: BLE001 - not there, or not that file
            return False

    def sent(self, file_hash: str) -> None:
        """The server took the file: it leaves the outbox."""
        entries = self.entries()
        if any(e["hash"] == file_hash for e in entries):
            self._save([e for e in entries if e["hash"] != file_hash])

    def failed(self, file_hash: str, error: str) -> None:
        """A try failed: ``error``, the transport's own words, is kept for ``status``."""
        entries = self.entries()
        for e in entries:
            if e["hash"] == file_hash:
                e["error"], e["tries"] = error, int(e.get("tries", 0) or 0) + 1
        self._save(entries)

    def files(self) -> list[tuple[dict, SignedFile]]:
        """Each entry with its file as the folder holds it; an entry whose file the folder does not hold (the
        process was killed between the outbox and the store, or the store refused it) is left for ``recover``
        when it holds the file's text, and dropped otherwise: it was never this home's file."""
        from duelmail.protocol.turnfile import parse_any

        out, keep = [], []
        later = {e["hash"] for e, _ in self.unstored()}
        for e in self.entries():
            if e["hash"] in later:
                keep.append(e)
                continue
            p = Path(self.folder.path) / e["file"]
            try:
                got = [f for f in parse_any(p.read_text(encoding="utf-8"), str(p)) if f.file_hash == e["hash"]]
            except Exception:  # noqa: BLE001 - not there, or not that file: nothing of ours to send
                got = []
            if got:
                out.append((e, got[0]))
                keep.append(e)
        if len(keep) != len(self.entries()):
            self._save(keep)
        return out
