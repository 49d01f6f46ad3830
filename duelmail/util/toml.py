"""Reading TOML from anyone: size, nesting, dotted-key and digit limits checked before ``tomllib`` runs.

``tomllib`` recurses once per nested array or inline table (1,500 levels raise RecursionError), spends
quadratic time on long dotted table headers, and ``int()`` refuses (ValueError) or slowly converts
integers of thousands of digits. A cheap scan of the text with strings and comments blanked out
refuses all of these first, so every refusal is the caller's own error type with one line.
"""

from __future__ import annotations

import re
import tomllib
from itertools import accumulate
from typing import Any

from duelmail.errors import DuelmailError

MAX_BYTES = 1 << 19  # 512 KiB: the largest honest file is near 20 KiB; keeps tomllib under a second
MAX_DEPTH = 16  # nested arrays, inline tables and tables; honest files reach 5
MAX_KEY_PARTS = 16  # parts of one dotted key or table header; honest files use 3
MAX_DIGITS = 24  # one integer or float literal (TOML integers are 64-bit: 19 digits)

# strings and comments, blanked out before the scan (their brackets, dots and digits are text). A string left open
# runs to the end of its line (a basic string) or of the text (a multi-line one), and tomllib then refuses it: were
# the match to fail instead, the scan would try again from every later quote, each time to that end (quadratic: a
# 40 KB line of escaped quotes took 6 s, 84 KB of multi-line openers 3.5 s). A one-line basic string is matched as
# runs of plain characters between escapes (``"[^"\\\n]*(?:\\.[^"\\\n]*)*``), not a character at a time: a turn file's
# base64 is scanned four times faster. A multi-line string closes with up to five quotes (two of them its own, as
# ``"""""two"""""``), as tomllib reads it.
_OPAQUE = re.compile(r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*(?:"{3,5}|\\?\Z)|\'\'\'[\s\S]*?(?:\'{3,5}|\Z)'
                     r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*(?:"|\\?(?=\n)|\\?\Z)|\'[^\'\n]*\'|#[^\n]*')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_LONG_KEY = re.compile(rf"(?:\.[^.=,\[\]{{}}\n]*){{{MAX_KEY_PARTS}}}")
_LONG_NUMBER = re.compile(rf"[0-9_]{{{MAX_DIGITS + 1}}}|0[xob][0-9A-Fa-f_]{{{MAX_DIGITS}}}")


def _as_literal(m: re.Match) -> str:
    """A one-line basic string without escapes or apostrophes as the literal string of the same value; any other
    string or comment as it is. ``tomllib`` reads a basic string a character at a time in Python, a literal one
    with ``str.index``: a turn file's base64 values read six times faster (the same value, the same errors, at the
    same places: only the two quotes change)."""
    s, text = m.group(), m.string
    if s[0] != '"' or s.startswith('"""') or len(s) < 2 or s[-1] != '"' or "\\" in s or "'" in s:
        return s
    if text[m.start() - 1:m.start()] == "'" or text[m.end():m.end() + 1] == "'":
        return s  # next to an apostrophe the new quotes would join it (``x = ""''''`` would read as ``x = ''''''``)
    return "'" + s[1:-1] + "'"


def check_limits(text: str, where: str, error: type[DuelmailError] = DuelmailError,
                 max_bytes: int = MAX_BYTES) -> None:
    """Refuse text over the size, nesting, dotted-key or digit limits, naming ``where``."""
    if len(text) > max_bytes:
        raise error(f"{where}: {len(text)} characters is far larger than any duelmail file (limit {max_bytes})")
    bare = _OPAQUE.sub("s", text)
    brackets = _NOT_BRACKET.sub("", bare)
    if brackets and max(accumulate(map(_STEP.__getitem__, brackets))) > MAX_DEPTH:
        raise error(f"{where}: arrays or tables nested more than {MAX_DEPTH} deep")
    if m := _LONG_KEY.search(bare):
        raise error(f"{where}: a dotted key or table header of more than {MAX_KEY_PARTS} parts "
                    f"(near {m.group(0)[:40]!r})")
    if m := _LONG_NUMBER.search(bare):
        raise error(f"{where}: a number of more than {MAX_DIGITS} digits ({m.group(0)[:20]}...)")


def depth(value: Any) -> int:
    """How deeply ``value`` nests dicts and lists, without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict | list):
            d += 1
            deepest = max(deepest, d)
            if d <= MAX_DEPTH:
                stack.extend((x, d) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def loads(text: str, where: str, error: type[DuelmailError] = DuelmailError, what: str = "TOML",
          max_bytes: int = MAX_BYTES) -> dict[str, Any]:
    """``tomllib.loads`` behind the limits; every failure is ``error`` with one line naming ``where``."""
    if not isinstance(text, str):
        raise error(f"{where}: not text")
    check_limits(text, where, error, max_bytes)
    try:
        data = tomllib.loads(_OPAQUE.sub(_as_literal, text))
    except tomllib.TOMLDecodeError as e:
        raise error(f"{where}: not valid {what} ({e})") from None
    except (RecursionError, ValueError, MemoryError) as e:  # a form the scan missed; tomllib's own limits
        raise error(f"{where}: not valid {what} ({type(e).__name__}: {str(e)[:80]})") from None
    if depth(data) > MAX_DEPTH:
        raise error(f"{where}: tables nested more than {MAX_DEPTH} deep")
    return data


def read(path, error: type[DuelmailError] = DuelmailError, what: str = "TOML") -> dict[str, Any]:
    """Read and parse a local TOML file (config, memo): unreadable or bad text is ``error`` naming the path."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise error(f"{path}: cannot read ({e.strerror or e})") from None
    if len(raw) > MAX_BYTES:
        raise error(f"{path}: {len(raw)} bytes is far larger than any duelmail file (limit {MAX_BYTES})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    return loads(text, str(path), error, what)


# -- writing the common case without tomlkit ------------------------------------------------------------------------
# tomlkit costs about 20 ms of CPU to import, on every command that writes a turn file. ``plain_dumps`` writes the
# documents those commands write (ASCII text, integers, booleans, flat arrays, tables, arrays of flat tables) in
# tomlkit's own layout, byte for byte; anything else is None and the caller asks tomlkit.

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_PLAIN_TEXT = re.compile(r"[\x20-\x7e]*")


def _key(k: object) -> str | None:
    if not isinstance(k, str):
        return None
    if _BARE_KEY.fullmatch(k):
        return k
    return _text(k)


def _text(s: str) -> str | None:
    if not _PLAIN_TEXT.fullmatch(s):
        return None  # a control or non-ASCII character: tomlkit's escaping decides
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _scalar(v: object) -> str | None:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _text(v)
    if isinstance(v, list):
        items = [_scalar(x) if not isinstance(x, list | dict) else None for x in v]
        return None if None in items else "[" + ", ".join(items) + "]"
    return None


def _lines(d: dict, out: list[str]) -> bool:
    """The ``key = value`` lines of the scalars of ``d``; False if one is not plain."""
    for k, v in d.items():
        if isinstance(v, dict):
            continue
        key, value = _key(k), _scalar(v)
        if key is None or value is None:
            return False
        out.append(f"{key} = {value}\n")
    return True


def _table(name: str, d: dict, out: list[str]) -> bool:
    """``d`` as the table ``name``: its header and scalars (no header if it holds only tables, as tomlkit's super
    tables), then each sub-table; False if not plain (an empty table, an array in it holding tables)."""
    if not d:
        return False
    subs = {k: v for k, v in d.items() if isinstance(v, dict)}
    if len(subs) < len(d):
        out.append(f"\n[{name}]\n")
        if not _lines(d, out):
            return False
    for k, v in subs.items():
        key = _key(k)
        if key is None or not _table(f"{name}.{key}", v, out):
            return False
    return True


def plain_dumps(items: list[tuple[str, object]], header: list[str] = (),
                source: tuple[str, dict] | None = None) -> str | None:
    """TOML for the document ``items`` (key, value in order; a dict value is a table) in tomlkit's layout: header
    comments, every scalar and array in order, then the arrays of tables and the tables in order. None if a value
    is not plain (see above). The text is read back with ``tomllib`` and must give ``items`` again, unless that is
    known without reading it: ``source`` is a text and what ``tomllib`` read it as, and the text made here, after
    its header, is that text after its leading comments, and ``items`` are what it read as (a file written again
    as it was read: a replay page's archive, a file mailed again)."""
    out = [f"# {line}\n" if line else "#\n" for line in header]
    if any(not _PLAIN_TEXT.fullmatch(line) for line in header):
        return None
    later: list[tuple[str, object]] = []
    for k, v in items:
        if isinstance(v, dict) or (isinstance(v, list) and v and all(isinstance(x, dict) for x in v)):
            later.append((k, v))
        elif not _lines({k: v}, out):
            return None
    for k, v in later:
        key = _key(k)
        if key is None:
            return None
        if isinstance(v, dict):
            if not _table(key, v, out):
                return None
            continue
        for row in v:
            out.append(f"\n[[{key}]]\n")
            if any(isinstance(x, dict) for x in row.values()) or not _lines(row, out):
                return None
    text = "".join(out)
    if source is not None and _reads_as(text, len(header), items, source):
        return text
    try:
        if tomllib.loads(text) != dict(items):
            return None
    except tomllib.TOMLDecodeError:
        return None
    return text


def _reads_as(text: str, header_lines: int, items: list[tuple[str, object]], source: tuple[str, dict]) -> bool:
    """Whether ``text`` reads as ``items`` by what is known of ``source``: ``(its text, what tomllib read it as)``.
    Leading comment lines do not change what a TOML text reads as."""
    known, read = source
    while known.startswith("#"):
        known = known.partition("\n")[2]
    body = text.split("\n", header_lines)[header_lines] if header_lines else text
    return body == known and dict(items) == read
