"""Atomic file writes: a crash leaves either the old file or the new one, never half of one.

Durable writes (state: turn files, identities, unsent moves) fsync their data before the rename; caches
(``durable=False``) only rename. Inside ``commit()`` (one per command) the folders' fsyncs wait for its end, so
a command that writes several files reaches disk at one commit point: every file written and synced, renamed,
then each folder synced once.

Inside a commit, a folder is also listed once (``listing``): the command's own writes keep that listing up to
date, so the fold, the kept state and the status cache of one command do not each list the game's folder again.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path

from duelmail.errors import DuelmailError


class WriteError(DuelmailError, OSError):
    """A file that could not be written (full disk, no permission): names the file; nothing was replaced."""

    def __str__(self) -> str:
        return str(self.strerror)


class ReadError(DuelmailError):
    """A local file that could not be read as text: names the file."""


def read_text(path: str | os.PathLike, what: str = "file", limit: int = 1 << 20) -> str:
    """The UTF-8 text of a local file, or one ``ReadError`` line naming it (missing, unreadable, binary, huge)."""
    raw = read_bytes(path, what, limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ReadError(f"{Path(path)}: this {what} is not UTF-8 text ({e.reason} at byte {e.start})") from None


def read_bytes(path: str | os.PathLike, what: str = "file", limit: int = 1 << 20) -> bytes:
    """The bytes of a local file, or one ``ReadError`` line naming it (missing, unreadable, huge)."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as e:
        raise ReadError(f"{path}: cannot read this {what} ({e.strerror or e})") from None
    if len(raw) > limit:
        raise ReadError(f"{path}: larger than any {what} ({limit} bytes at most)")
    return raw


_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
         (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def text_encoding(raw: bytes) -> str | None:
    """The encoding a Windows editor wrote ``raw`` in, when it says so or shows it: a byte-order mark (UTF-8,
    UTF-16, UTF-32; Notepad's "Unicode" is UTF-16 with one), or UTF-16 without one (ASCII text with every other
    byte zero); None for anything else (UTF-8 is then tried)."""
    for bom, name in _BOMS:
        if raw.startswith(bom):
            return name
    sample = raw[:512]
    if len(sample) >= 8 and sample.count(0) * 3 > len(sample):  # ASCII in UTF-16: every other byte is zero
        return "utf-16-le" if sample[1::2].count(0) > sample[0::2].count(0) else "utf-16-be"
    return None


def decode_text(raw: bytes, path: str | os.PathLike, what: str = "file") -> str:
    """``raw`` as text: UTF-8, or what ``text_encoding`` finds (a byte-order mark is dropped); else one
    ``ReadError`` line naming the file and the encoding it is not."""
    name = text_encoding(raw)
    try:
        return raw.decode(name or "utf-8")
    except UnicodeDecodeError as e:
        said = {"utf-8-sig": "UTF-8", "utf-16": "UTF-16", "utf-32": "UTF-32"}.get(name or "", "UTF-8")
        if name in ("utf-16-le", "utf-16-be"):
            said = "UTF-8 nor UTF-16"
        raise ReadError(f"{path}: this {what} is not {said} text ({e.reason} at byte {e.start}): save it as UTF-8 "
                        "(in Notepad: Save As, Encoding UTF-8)") from None


_COMMITS: list[set[Path]] = []  # the folders to fsync when the open commit ends
_SCRATCH: list[bool] = []  # inside ``commit(scratch=True)``: files are not synced one by one
_LISTINGS: dict[str, dict[str, tuple[int, int, int]]] = {}  # inside a commit: folder (real path) -> ``listing``


def listing(folder: str | os.PathLike) -> dict[str, tuple[int, int, int]]:
    """Every entry of ``folder``: name -> (size, modification time in ns, inode), symbolic links followed; empty
    if the folder cannot be listed. Inside ``commit()`` (a command) a folder is listed once, then kept up to date
    by this process's ``atomic_write`` and ``forget``; ``flush`` and the commit's end forget every listing, so a
    change made meanwhile by another process is seen by the next command (or the next poll of ``watch``). It
    only keys caches (the kept state, the status cache): a listing older than a file makes them miss, never lie."""
    key = os.path.realpath(folder) if _COMMITS else ""
    if key and key in _LISTINGS:
        return _LISTINGS[key]
    out: dict[str, tuple[int, int, int]] = {}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return out
    for e in entries:
        try:
            st = e.stat()  # one stat a file
        except OSError:
            continue
        out[e.name] = (st.st_size, st.st_mtime_ns, st.st_ino)
    if key:
        _LISTINGS[key] = out
    return out


def forget(folder: str | os.PathLike | None = None) -> None:
    """Drop the listing kept of ``folder`` (of every folder if None): it was changed other than by
    ``atomic_write`` (a file renamed, removed, a folder deleted)."""
    if folder is None:
        _LISTINGS.clear()
    else:
        _LISTINGS.pop(os.path.realpath(folder), None)


def _noted(path: Path) -> None:
    """``path`` was just written: the listing kept of its folder, if any, gets its new entry."""
    entries = _LISTINGS.get(os.path.realpath(path.parent))
    if entries is not None:
        try:
            st = os.stat(path)
        except OSError:
            forget(path.parent)
            return
        entries[path.name] = (st.st_size, st.st_mtime_ns, st.st_ino)


@contextlib.contextmanager
def commit(scratch: bool = False) -> Iterator[None]:
    """One durable commit point for the writes inside: each folder a durable write renamed into is synced once, at
    the end (also when the block raises: what was renamed stays renamed). Nested commits join the outer one.

    ``scratch=True`` (the demo, whose homes are written in one go and played again from its seed after a crash):
    durable files are not synced one by one either; one ``sync`` of the file systems at the end covers them."""
    if _COMMITS:  # joins the open commit (a scratch block inside it still syncs its files once, at its end)
        _SCRATCH.append(scratch or _SCRATCH[-1])
        try:
            yield
        finally:
            _SCRATCH.pop()
            if scratch:
                os.sync()
        return
    folders: set[Path] = set()
    _COMMITS.append(folders)
    _SCRATCH.append(scratch)
    try:
        yield
    finally:
        _COMMITS.pop()
        _SCRATCH.pop()
        _LISTINGS.clear()
        if scratch and folders:
            os.sync()
        for folder in sorted(folders):
            _sync_folder(folder)


def flush() -> None:
    """Reach the open commit's point now (the end of a watch poll, before anything is sent): sync the folders
    written so far."""
    _LISTINGS.clear()
    if _COMMITS:
        folders = sorted(_COMMITS[-1])
        _COMMITS[-1].clear()
        for folder in folders:
            _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def atomic_write(path: str | os.PathLike, data: bytes | str | list[bytes], mode: int = 0o644,
                 durable: bool = True) -> Path:
    """Write ``data`` (text, bytes, or a list of pieces of bytes written one after the other) to ``path`` via a
    temporary file in the same folder, fsync, then rename.

    ``durable=False`` (caches: a crash may lose them, never tear them): no fsync, only the atomic rename.
    Any ``OSError`` (a full disk, a read-only folder) becomes a ``WriteError`` naming ``path``; the old file,
    if any, is untouched and no temporary file is left."""
    path = Path(path)
    try:
        return _atomic_write(path, data, mode, durable)
    except OSError as e:
        if isinstance(e, WriteError):
            raise
        raise WriteError(e.errno, f"cannot write {path}: {e.strerror or e}", str(path)) from None


def _temporary(path: Path) -> tuple[int, str]:
    """A new empty file beside ``path`` (``.NAME.RANDOM.tmp``, mode 0600, opened for writing), as
    ``tempfile.mkstemp`` makes one, without loading ``tempfile`` (and its ``shutil``, ``random``, ``bz2``, ``lzma``:
    some 3 ms of every writing command)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        tmp = os.path.join(path.parent, f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"no free temporary name beside {path}", str(path))


def _atomic_write(path: Path, data: bytes | str | list[bytes], mode: int, durable: bool = True) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode() if isinstance(data, str) else data
    pieces = payload if isinstance(payload, list) else [payload]
    fd, tmp = _temporary(path)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            for piece in pieces:
                fh.write(piece)
            fh.flush()
            if durable and not (_SCRATCH and _SCRATCH[-1]):
                os.fsync(fh.fileno())
        os.replace(tmp, path)
        if _LISTINGS:
            _noted(path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if not durable:
        return path
    if _COMMITS:
        _COMMITS[-1].add(path.parent)
    else:
        _sync_folder(path.parent)
    return path
