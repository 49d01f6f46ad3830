"""The log's vocabulary: events, duplicates, round hashes and times, the reserved action words."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime

from duelmail.crypto.encoding import b64e
from duelmail.engine.clock import TimeControlError, check_date
from duelmail.errors import DuelmailError, FileRefused
from duelmail.games.base import GameEvent
from duelmail.protocol.canonical import canonical, canonical_plain
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
                       r"published the per-game seed for the audit|(?:escrowed|re-dealt its escrow of) .* among seats|"
                       r"published its escrow shares|opened [a-z]+\d*: )")
"""Events that are protocol bookkeeping (deck passes, key shares, escrow, the opening of a sealed choice, which the
rules then tell in words) rather than play (never talk, whatever it says)."""


class EventLog:
    """A game's events, oldest first, used as a list is: appended to, read from either end, sliced, counted.

    Pickled (the kept state), it holds the events it had in blocks of ``BLOCK``, each pickled once and then kept as
    those bytes until read, and the events after them as they are. So a kept state at round 500 is read and
    written again without building or pickling its whole history: a command that reads only the last events
    (``receive``, ``status``) costs the same on round 500 as on round 5."""

    BLOCK = 128

    __slots__ = ("_blocks", "_tail")

    def __init__(self, events=()):
        self._blocks: list[_Block] = []
        self._tail: list[Event] = list(events)

    def __len__(self) -> int:
        if not self._blocks:  # (a fold's log: every event in the tail)
            return len(self._tail)
        return sum(b.count for b in self._blocks) + len(self._tail)

    def __iter__(self):
        for b in self._blocks:
            yield from b.events()
        yield from self._tail

    def __reversed__(self):
        yield from reversed(self._tail)
        for b in reversed(self._blocks):
            yield from reversed(b.events())

    def __getitem__(self, i):
        if isinstance(i, slice):
            if not self._blocks:  # (a fold's log: every event in the tail, sliced as a list is)
                return self._tail[i]
            start, stop, step = i.indices(len(self))
            if step != 1:
                return list(self)[i]
            out: list[Event] = []
            at = 0
            for part in [*self._blocks, None]:
                count = part.count if part is not None else len(self._tail)
                if at < stop and at + count > start:
                    events = part.events() if part is not None else self._tail
                    out += events[max(start - at, 0):stop - at]
                at += count
            return out
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"event {i} of {n}")
        return self[i % n:i % n + 1][0]

    def append(self, event: Event) -> None:
        self._tail.append(event)

    def extend(self, events) -> None:
        self._tail.extend(events)

    def __iadd__(self, events):
        self._tail.extend(events)
        return self

    def copy(self) -> EventLog:
        """Another log with these events (the blocks, never changed, are shared)."""
        out = EventLog(self._tail)
        out._blocks = list(self._blocks)
        return out

    def __eq__(self, other) -> bool:
        if not isinstance(other, EventLog | list):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment] - mutable, as a list

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"

    def __reduce__(self):
        import pickle

        while len(self._tail) >= self.BLOCK:  # whole blocks pickled once, then kept as bytes
            events, self._tail = self._tail[:self.BLOCK], self._tail[self.BLOCK:]
            self._blocks.append(_Block(pickle.dumps(events, protocol=pickle.HIGHEST_PROTOCOL), len(events), events))
        return _event_log, ([(b.data, b.count) for b in self._blocks], self._tail)


class _Block:
    """``count`` events pickled as ``data``, unpickled when first read."""

    __slots__ = ("data", "count", "_events")

    def __init__(self, data: bytes, count: int, events: list[Event] | None = None):
        self.data, self.count, self._events = data, count, events

    def events(self) -> list[Event]:
        if self._events is None:
            import pickle

            self._events = pickle.loads(self.data)  # written by ``EventLog.__reduce__`` into the same pickle
        return self._events


def _event_log(blocks: list[tuple[bytes, int]], tail: list[Event]) -> EventLog:
    log = EventLog(tail)
    log._blocks = [_Block(data, count) for data, count in blocks]
    return log


class Duplicate(DuelmailError):
    """The very same file is already in the log (receiving it again changes nothing)."""


ANSWER_DOMAIN = b"duelmail/answer/v1\n"


def date_free(f: SignedFile) -> bool:
    """Whether ``f`` is a decision-free answer that any home of its seat composes alike but for its date (protocol
    section 5): a turn file with no action and no field of the sender's own (``vacation``, ``say``)."""
    c = getattr(f, "content", None)
    if c is None:  # a file of an older round a kept state remembers by its hashes (``transport/kept.py``)
        return getattr(f, "answer", "") not in ("", f.file_hash)
    return f.kind == "turn" and c.get("actions") == [] and "vacation" not in c and "say" not in c


def answer_hash(f: SignedFile) -> str:
    """What a round's hash covers for ``f`` in a game with a delivery allowance (protocol sections 4 and 5): for a
    decision-free answer, ``SHA256hex(ANSWER_DOMAIN || canonical(content without 'time'))``, the same for every copy
    of it whatever its date; for any other file its file hash."""
    if not date_free(f):
        return f.file_hash
    if getattr(f, "content", None) is None:
        return f.answer
    got = f.__dict__.get("_answer_hash")
    if got is None:
        got = digest_bytes(ANSWER_DOMAIN + canonical({k: v for k, v in f.content.items() if k != "time"}))
        object.__setattr__(f, "_answer_hash", got)
    return got


def round_hash(rnd: int, prev: str, files: dict[int, SignedFile], claims: dict[int, SignedFile] | None = None,
               notes: dict[int, SignedFile] | None = None, dated: bool = True) -> str:
    """The hash of a closed round (protocol section 5). ``dated=False`` (a game with a delivery allowance): a
    decision-free answer counts by its answer hash, so every copy of it closes the round alike."""
    key = (lambda f: f.file_hash) if dated else answer_hash
    return _round_digest(_round_body(rnd, prev, {str(s): key(f) for s, f in sorted(files.items())},
                                     {str(s): f.file_hash for s, f in sorted(claims.items())} if claims else None,
                                     {str(s): f.file_hash for s, f in sorted(notes.items())} if notes else None),
                         rnd.__class__ is int and prev.__class__ is str)


def hash_of_round(rnd: int, prev: str, files: dict[str, str], claims: dict[str, str] | None = None,
                  notes: dict[str, str] | None = None) -> str:
    """``round_hash`` from the files' hashes (what a ``seen`` table carries)."""
    return _round_digest(_round_body(rnd, prev, files, claims, notes), False)


def _round_body(rnd, prev, files, claims, notes) -> dict:
    body = {"round": rnd, "prev": prev, "files": files}
    if claims:
        body["claims"] = claims
    if notes:
        body["notes"] = notes
    return body


def _round_digest(body: dict, plain: bool) -> str:
    """The round hash of ``body``; ``plain``: its round an int and its hashes strings (``round_hash``'s own, made
    from files' hashes), whose canonical bytes need no check."""
    data = canonical_plain(body) if plain else canonical(body)
    return b64e(hashlib.sha256(data).digest())


def digest_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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
