"""A stamp of the code: it changes whenever any module of this duelmail changes (its name, size or modification
time; one ``stat`` a module, once a process, about 0.7 ms). Caches of what the code computed (the kept state, the
text of ``show``) are keyed by it, so after an upgrade they are made again, never read."""

from __future__ import annotations

import os

_ROWS: list[str] = []
_STAMP: list[bytes] = []


def code_rows() -> str:
    """Each module's path, size and modification time, one a line, sorted (listed once a process)."""
    if not _ROWS:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        rows = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in names:
                if name.endswith(".py"):
                    st = os.stat(os.path.join(folder, name))
                    rows.append(f"{folder[len(root):]}/{name}\0{st.st_size}\0{st.st_mtime_ns}\n")
        _ROWS.append("".join(sorted(rows)))
    return _ROWS[0]


def code_stamp(memo: list[bytes] = _STAMP) -> bytes:
    """32 bytes: SHA-256 of ``code_rows`` (computed once a process, kept in ``memo``)."""
    if not memo:
        import hashlib

        memo.append(hashlib.sha256(code_rows().encode()).digest())
    return memo[0]


def code_check() -> str:
    """A short check of ``code_rows`` for a cache key, without loading ``hashlib`` (OpenSSL: some 2.5 ms)."""
    import binascii

    rows = code_rows().encode()
    return f"{binascii.crc32(rows):08x}{len(rows):x}"
