"""The canonical encoding that signatures and hashes cover.

A turn file is TOML for people; what is signed is the *parsed* content encoded canonically:
JSON with sorted keys, no insignificant whitespace, UTF-8, and only strings, integers,
booleans, lists and tables. So a mail client that re-wraps, re-quotes, re-indents or turns
line ends into CRLF cannot break a signature, and a file that means something else cannot
keep one.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from duelmail.errors import DuelmailError


class CanonicalError(DuelmailError, ValueError):
    """A value the canonical form does not allow (a float, a date, a non-string key...)."""


def _check(value: Any, where: str) -> Any:
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, int):
        if not -(2**63) <= value < 2**63:
            raise CanonicalError(f"{where}: integer {value} out of range")
        return value
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise CanonicalError(f"{where}: key {k!r} is not a string")
            out[k] = _check(v, f"{where}.{k}")
        return out
    if isinstance(value, (list, tuple)):
        return [_check(v, f"{where}[{i}]") for i, v in enumerate(value)]
    raise CanonicalError(f"{where}: {type(value).__name__} values are not allowed ({value!r})")


def plain(value: Any) -> Any:
    """Convert tomlkit containers to plain Python values (and check them)."""
    if hasattr(value, "unwrap"):
        value = value.unwrap()
    return _check(value, "$")


def canonical(value: Any) -> bytes:
    """The canonical bytes of a value."""
    return canonical_plain(_check(value, "$"))


# ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` is this encoder's ``encode``; one
# encoder for every call (it keeps no state between calls) rather than one made for each (some 1,600 a replay)
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_plain(value: Any) -> bytes:
    """``canonical`` of a value already checked: what ``plain`` returned and nobody changed since, or one built
    of strings, integers in range, lists and string-keyed tables only (the same bytes, without the check)."""
    return _ENCODER.encode(value).encode()


def digest(value: Any) -> str:
    """Hex SHA-256 of the canonical bytes."""
    return hashlib.sha256(canonical(value)).hexdigest()
