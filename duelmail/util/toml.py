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

# strings and comments, blanked out before the scan (their brackets, dots and digits are text)
_OPAQUE = re.compile(r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*"""|\'\'\'[\s\S]*?\'\'\''
                     r'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_LONG_KEY = re.compile(rf"(?:\.[^.=,\[\]{{}}\n]*){{{MAX_KEY_PARTS}}}")
_LONG_NUMBER = re.compile(rf"[0-9_]{{{MAX_DIGITS + 1}}}|0[xob][0-9A-Fa-f_]{{{MAX_DIGITS}}}")


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
        data = tomllib.loads(text)
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
