"""The log's vocabulary: events, duplicates, round hashes and times, the reserved action words."""

from __future__ import annotations

import re
from datetime import datetime

from duelmail.crypto.encoding import b64e
from duelmail.engine.clock import TimeControlError, check_date
from duelmail.errors import DuelmailError, FileRefused
from duelmail.games.base import GameEvent
from duelmail.protocol.canonical import digest
from duelmail.protocol.turnfile import SignedFile
from duelmail.util.classes import dataclass

JOIN = "join"


SEALED = "sealed "


@dataclass(frozen=True)
class Event:
    """One line of the game's log: ``text`` names seats by name and cards by ref; ``said`` is the rules'
    outcome behind it, if any. ``Match.words`` says it for a reader, with the faces that reader knows."""

    round: int
    seat: int
    text: str
    said: GameEvent | None = None

    @property
    def technical(self) -> bool:
        """Protocol bookkeeping (deck passes, key shares, seeds) rather than play."""
        return bool(TECHNICAL.search(self.text))


TECHNICAL = re.compile(r'^(?![^"]* says: ").*?(?:pass on deck|published keys for \d+ cards?\b|'
                       r"published the per-game seed for the audit)")
"""Events that are protocol bookkeeping (deck passes, key shares) rather than play (never talk, whatever it says)."""


class Duplicate(DuelmailError):
    """The very same file is already in the log (receiving it again changes nothing)."""


def round_hash(rnd: int, prev: str, files: dict[int, SignedFile], claims: dict[int, SignedFile] | None = None,
               notes: dict[int, SignedFile] | None = None) -> str:
    return hash_of_round(rnd, prev, {str(s): f.file_hash for s, f in sorted(files.items())},
                         {str(s): f.file_hash for s, f in sorted((claims or {}).items())},
                         {str(s): f.file_hash for s, f in sorted((notes or {}).items())})


def hash_of_round(rnd: int, prev: str, files: dict[str, str], claims: dict[str, str] | None = None,
                  notes: dict[str, str] | None = None) -> str:
    """``round_hash`` from the files' hashes (what a ``seen`` table carries)."""
    body = {"round": rnd, "prev": prev, "files": files}
    if claims:
        body["claims"] = claims
    if notes:
        body["notes"] = notes
    return b64e(bytes.fromhex(digest(body)))


def parse_time(text: str, where: str) -> datetime:
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise FileRefused(where, f"time {text!r} is not an ISO 8601 timestamp", rule="P-format") from None
    if t.tzinfo is None:
        raise FileRefused(where, f"time {text!r} has no time zone", rule="P-format")
    try:
        return check_date(t, "time")
    except TimeControlError as e:
        raise FileRefused(where, str(e), rule="P-time") from None
