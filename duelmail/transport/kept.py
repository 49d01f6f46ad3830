"""The kept state: a game folder's fold after its last applied file, so a command applies only what is new.

``GAME/.kept`` holds the folded ``Match`` (pickled, without any seat's secrets), the hash of the log it folds
(the sorted hashes of its files) and the folder's listing when it was written (name, size and modification
time of each file, with the hashes of the files under that name), so that a command reads and parses only the
files that are new. What is read back cheaply from elsewhere is not stored twice: the hashes of the files
applied (the index's, less the void ones) and of the files proven (the folder's ``.proven``). It is a cache,
never state: delete it and nothing is lost; a kept state that does not match the folder (a file gone or
changed), or that cannot be read, is ignored and the folder folded again.

A kept state is also keyed by the code that wrote it (``code_stamp``: the name, size and modification time of
every module of the installed duelmail): after an upgrade, a match pickled by other code is folded again rather
than read with attributes that code never had.

The pickle is authenticated with HMAC-SHA256 under a random key only this home holds (``HOME/kept.key``, mode
0600): a kept state copied in from elsewhere, or changed by anyone without the key, is ignored, never unpickled.
Both files are mode 0600. ``verify`` and the audit never use it: they fold from scratch.

New files are applied to the kept match only when the fold would take them after every file it holds (their
place in the fold's order, ``archive.ordered``, is after the last file kept) and no timeout claim of the kept
log is weighed against them (a claim looks ahead at the moves of its round and the next one); otherwise the
folder is folded again; so is it for a new turn or claim once a note closed a round of the kept log
(the fold holds such a note behind every move that builds without it, protocol §5a). So the kept match plus
the new files is always exactly the fold of the folder.
"""

from __future__ import annotations

import copy
import copyreg
import hashlib
import hmac
import os
import pickle
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from duelmail.protocol.turnfile import SignedFile, parse_any
from duelmail.transport.archive import TURN_NAME, fold, fold_into, order_key, ordered
from duelmail.util import stamp as _stamp
from duelmail.util.classes import dataclass
from duelmail.util.fs import atomic_write
from duelmail.util.fs import listing as fs_listing

if TYPE_CHECKING:
    from duelmail.engine.match import Match


class GameFolder(Protocol):
    """What the kept state needs of a game's folder (``transport/folder.GameFolder``)."""

    path: Path

    def files(self) -> list[tuple[str, SignedFile]]: ...

    def proven(self) -> frozenset[str]: ...

NAME = ".kept"
KEY_NAME = "kept.key"
MAGIC = b"duelmail kept state 2\n"
SECRET_FIELDS = ("own", "masters", "fresh", "plain")  # a seat's secrets: never kept


_STAMP = _stamp._STAMP  # the code's stamp, once a process (``util/stamp.py``)


def code_stamp() -> bytes:
    """32 bytes that change whenever any module of this duelmail changes (one ``stat`` a module, once a process)."""
    return _stamp.code_stamp(_STAMP)


def log_hash(hashes) -> str:
    """The hash of a log: SHA-256 of its files' hashes, sorted, one a line."""
    return hashlib.sha256("".join(f"{h}\n" for h in sorted(hashes)).encode()).hexdigest()


def home_key(root: Path, create: bool = True) -> bytes | None:
    """This home's key for the kept states (``HOME/kept.key``, 32 random bytes, mode 0600), made the first time;
    None if it cannot be read or made (then nothing is kept)."""
    path = Path(root) / KEY_NAME
    try:
        key = path.read_bytes()
        return key if len(key) == 32 else None
    except FileNotFoundError:
        if not create:
            return None
    except OSError:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return home_key(root, create=False)
    except OSError:
        return None
    key = os.urandom(32)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return key


@dataclass
class Index:
    """What a kept match folds: the folder's files by name, and where new files may go."""

    files: dict[str, tuple[tuple[int, int, int], tuple[str, ...]]] = field(default_factory=dict)  # name -> stat, hashes
    last: tuple | None = None  # the fold order of the last file (``order_key``), and whether it is a note
    last_note: bool = False
    claim_round: int | None = None  # the latest round of a timeout claim in the log
    stale: bool = False  # the match took files out of the fold's order: it can no longer be kept

    def hashes(self) -> set[str]:
        return {h for _, hs in self.files.values() for h in hs}

    def takes(self, new: list[SignedFile]) -> bool:
        """Whether the fold takes every file of ``new`` after every file of this log, with no claim of the log
        weighed against them."""
        if self.claim_round is not None and min(f.round for f in new) <= self.claim_round + 1:
            return False
        for f in new:
            if f.kind == "genesis":
                return False
            if f.kind == "claim" and self.last is not None and self.last[0] >= f.round:
                return False  # the fold weighs a claim before the claimed seat's move of its round, maybe in the log
            if self.last is None:
                continue
            key = order_key(f)
            if f.kind == "note" or self.last_note:
                if key[:2] <= self.last[:2]:
                    return False
            elif key <= self.last:
                return False
        return True

    def add(self, files: list[SignedFile]) -> None:
        """Note the fold order of ``files`` (already in the fold's order), applied after this log."""
        for f in files:
            if f.kind == "genesis":
                continue
            key = order_key(f)
            if self.last is None or key[:2] > self.last[:2] or (key > self.last and f.kind != "note"):
                self.last, self.last_note = key, f.kind == "note"
            if f.kind == "claim":
                self.claim_round = max(f.round, self.claim_round or 0)


def listing(path: Path) -> dict[str, tuple[int, int, int]]:
    """The files the fold reads in a folder: name -> (size, modification time in ns, inode: a file replaced under
    its name is another file). Listed once a command (``util.fs.listing``)."""
    return {name: st for name, st in fs_listing(path).items() if name == "genesis.toml" or TURN_NAME.fullmatch(name)}


def _game_by_name(game) -> tuple:
    """A game is kept by its name and found again by it (``get_game``), never pickled itself."""
    from duelmail.games.base import get_game

    return get_game, (game.spec.id,)


@dataclass(frozen=True)
class KeptFile:
    """A file of a closed round, as a kept match remembers it: what the fold still asks of it (its hash, to tell a
    duplicate from an equivocation), not its content, so a kept state does not grow with every file's text."""

    file_hash: str
    kind: str
    round: int
    seat: int
    answer: str = ""  # its answer hash (protocol section 5): a second copy of it, dated otherwise, is the same answer


FULL_ROUNDS = 2  # the last closed rounds keep their files whole (a diverging file is compared with them)


def stripped(match: Match) -> Match:
    """A shallow copy of ``match`` without any seat's secrets (what may be kept on disk), the files of its older
    closed rounds reduced to ``KeptFile``s, and without what is read back from elsewhere: the hashes of the files
    applied (the index's, less the void ones) and of those proven (the folder's ``.proven``)."""
    out = copy.copy(match)
    for name in SECRET_FIELDS:
        setattr(out, name, {})
    out.honest = None
    out.kept = None
    out.applied = match.applied & set(match.void)  # the rest is the index's files less the void ones (``loads``)
    out.proven = frozenset()  # the folder's ``.proven`` when read back (``load``)
    out.book = copy.copy(match.book)
    out.book.__dict__.pop("_opened", None)  # opened in this process (``DeckBook.unlocked``): holds own keys
    out.__dict__.pop("_own_checked", None)  # the escrow dealings this process checked with its seat's key
    out._unrevealed = None  # what ``_settle`` read from the visibility: kept in this process only
    last = len(match.rounds) - FULL_ROUNDS
    out.rounds = [r if i == 0 or i >= last else {s: _slim(f) for s, f in r.items()}
                  for i, r in enumerate(match.rounds)]
    return out


def _slim(f) -> KeptFile:
    from duelmail.engine.log import answer_hash

    return f if isinstance(f, KeptFile) else KeptFile(f.file_hash, f.kind, f.round, f.seat, answer_hash(f))


class _Chunks(list):
    """The pickler's output as the frames it writes (at most 64 KiB each): a kept state of several hundred KB is
    never copied whole into one new buffer (in a new process each such buffer is fresh memory, page by page)."""

    write = list.append


def dump_chunks(match: Match, index: Index, key: bytes) -> list[bytes]:
    """A kept state as the pieces of its file: magic, HMAC, code stamp, then the pickle, frame by frame."""
    chunks = _Chunks()
    pickler = pickle.Pickler(chunks, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, type(match.game): _game_by_name}
    pickler.dump((log_hash(index.hashes()), index, stripped(match)))
    mac = hmac.new(key, code_stamp(), hashlib.sha256)
    for chunk in chunks:
        mac.update(chunk)
    return [MAGIC, mac.digest(), code_stamp(), *chunks]


def dumps(match: Match, index: Index, key: bytes) -> bytes:
    return b"".join(dump_chunks(match, index, key))


def loads(data: bytes, key: bytes) -> tuple[Index, Match] | None:
    """The index and match of a kept state, or None if it is not one this home wrote (never unpickled then)."""
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 32:
        return None
    view = memoryview(data)  # slices without copies
    mac, payload = view[len(MAGIC):len(MAGIC) + 32], view[len(MAGIC) + 32:]
    if not hmac.compare_digest(mac, hmac.new(key, payload, hashlib.sha256).digest()):
        return None
    if payload[:32] != code_stamp():  # written by other code (an upgrade): fold again
        return None
    try:
        log, index, match = pickle.loads(payload[32:])  # authenticated: written by this home
    except Exception:  # noqa: BLE001 - a kept state from another version of duelmail: folded again
        return None
    hashes = index.hashes()
    if log != log_hash(hashes) or not set(match.void) <= hashes:
        return None
    match.applied = (hashes - set(match.void)) | match.applied
    match.kept = index
    return index, match


def load(folder: GameFolder, key: bytes) -> tuple[Index, Match] | None:
    try:
        data = (folder.path / NAME).read_bytes()
    except OSError:
        return None
    got = loads(data, key)
    if got is not None:
        got[1].proven = folder.proven()
    return got


def save(folder: GameFolder, match: Match, key: bytes, parsed: dict[str, list[SignedFile]] | None = None,
         in_order: bool = False) -> bool:
    """Keep ``match`` as the fold of ``folder`` if it folds exactly the files there now. ``parsed``: files already
    read, by name (the others new since the match's index are read here). ``in_order``: the files new since its
    index were applied in the fold's order (by ``extend`` or a fold); otherwise only one new file may be kept (its
    place is checked: files applied one by one may have taken another order). Returns whether it was kept."""
    index: Index | None = getattr(match, "kept", None)
    if index is not None and index.stale:
        return False
    old = index.files if index is not None else {}
    now = listing(folder.path)
    if index is not None and not in_order and sum(name not in old for name in now) > 1:
        match.kept = Index(stale=True)  # several files applied one by one: in which order is not known here
        return False
    files: dict[str, tuple[tuple[int, int, int], tuple[str, ...]]] = {}
    added: list[SignedFile] = []
    for name, st in now.items():
        if name in old and old[name][0] == st:
            files[name] = old[name]
            continue
        got = (parsed or {}).get(name)
        if got is None:
            try:
                got = parse_any((folder.path / name).read_text(encoding="utf-8"), name)
            except Exception:  # noqa: BLE001 - a file the fold could not read: nothing kept
                return False
        files[name] = (st, tuple(f.file_hash for f in got))
        added += got
        if index is not None and name not in old and not index.takes(got):
            match.kept = Index(stale=True)  # applied out of the fold's order (a round several seats answer)
            return False
    new = Index(files, index.last if index else None, index.last_note if index else False,
                index.claim_round if index else None)
    new.add([f for _, f in ordered([("", f) for f in added])])
    if new.hashes() != match.applied | set(match.void):
        return False  # the folder holds files this match did not fold (or lacks some): not its fold
    try:
        data = dump_chunks(match, new, key)
    except Exception:  # noqa: BLE001 - a state that does not pickle (a game holding a closure) is simply not kept
        return False
    try:
        atomic_write(folder.path / NAME, data, mode=0o600, durable=False)
    except OSError:
        return False
    match.kept = new
    return True


def folds_folder(match: Match, folder: GameFolder) -> bool:
    """Whether ``match``, kept or just saved, folds exactly the files ``folder`` holds now."""
    index = getattr(match, "kept", None)
    return index is not None and not index.stale and listing(folder.path) == {n: e[0] for n, e in index.files.items()}


def current(folder: GameFolder, key: bytes, now=None) -> Match:
    """The fold of ``folder``: its kept match with the new files applied, or a fold from scratch (kept then)."""
    got = load(folder, key)
    if got is not None:
        index, match = got
        there = listing(folder.path)
        if match.stood != (None if folder.stood() is None else set(folder.stood())):
            pass  # a last call closed here since: the claim stands in a fold from scratch (below)
        elif all(there.get(name) == entry[0] for name, entry in index.files.items()):  # nothing gone or changed
            try:
                fresh = {name: parse_any((folder.path / name).read_text(encoding="utf-8"), str(folder.path / name))
                         for name in there if name not in index.files}
            except Exception:  # noqa: BLE001 - a new file that does not read: the full fold below says why
                fresh = None
            if fresh == {}:
                return match
            if fresh:
                new = [(str(folder.path / name), f) for name, fs in fresh.items() for f in fs]
                match.proven = folder.proven()  # a kept state far behind: files checked since are not again
                extended = extend(match, new, now)
                if extended is not None:
                    save(folder, extended, key, fresh, in_order=True)
                    return extended
    files = folder.files()
    match = fold(files, proven=folder.proven(), now=now, stood=folder.stood())
    match.kept = None
    save(folder, match, key, by_name(files), in_order=True)
    return match


def extend(match: Match, new: list[tuple[str, SignedFile]], now=None) -> Match | None:
    """``match`` (a fold) with ``new`` applied to it, in place, if the fold takes them after every file it holds;
    else None (``match`` untouched). Raises what applying a new file raises (``FileRefused``): ``match`` is then
    half-changed and must be dropped."""
    index: Index = getattr(match, "kept", None) or Index()
    new = [(w, f) for w, f in new if f.file_hash not in match.applied and f.file_hash not in match.void]
    if not new:
        return match
    if getattr(match, "kept", None) is None or index.stale or not index.takes([f for _, f in new]):
        return None
    if match.closed_by_note and any(f.kind != "note" for _, f in new):
        return None  # a note that closed a round was held to the end of the fold: a new move may fold before it
    return fold_into(match, ordered(new), now=now)


def by_name(files: list[tuple[str, SignedFile]]) -> dict[str, list[SignedFile]]:
    """Parsed files by file name (for ``save``)."""
    out: dict[str, list[SignedFile]] = {}
    for where, f in files:
        out.setdefault(Path(where).name, []).append(f)
    return out
