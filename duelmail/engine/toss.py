"""Who starts, by a commit-reveal coin toss in files the seats send anyway (protocol section 10).

The creator's genesis commits to a value; every other seat's acceptance carries its own value in the clear, sent
having seen only that commitment; the creator's next file opens its value. The starter follows from all the
values together, so no seat can bias it: the creator is bound before it sees the others, they see nothing of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from duelmail.crypto.derive import hkdf
from duelmail.crypto.encoding import b64d, b64e, lp
from duelmail.errors import DuelmailError, IllegalMove

TOSS_BYTES = 16
SALT_BYTES = 32


def creator_secret(master: bytes, nonce: bytes) -> tuple[bytes, bytes]:
    """The creator's (salt, value): derived from its master secret and the genesis nonce, so its home keeps
    nothing between the genesis and the opening."""
    k = hkdf(master, lp("duelmail/toss-secret/v1", nonce), SALT_BYTES + TOSS_BYTES)
    return k[:SALT_BYTES], k[SALT_BYTES:]


def commitment(nonce: bytes, salt: bytes, value: bytes) -> str:
    """The genesis field ``toss``: ``SHA-256(lp("duelmail/toss/v1", nonce, salt, value))`` in hex."""
    return hashlib.sha256(lp("duelmail/toss/v1", nonce, salt, value)).hexdigest()


def commit_field(master: bytes, nonce: bytes) -> str:
    salt, value = creator_secret(master, nonce)
    return commitment(nonce, salt, value)


def call(seed: bytes) -> bytes:
    """A joining seat's value, derived from its per-game seed (fixed by its first file)."""
    return hkdf(seed, "duelmail/toss-call/v1", TOSS_BYTES)


def opening(master: bytes, nonce: bytes) -> dict[str, str]:
    """The creator's ``toss_open`` field."""
    salt, value = creator_secret(master, nonce)
    return {"value": b64e(value), "salt": b64e(salt)}


def read_value(text: object, what: str) -> bytes:
    if not isinstance(text, str):
        raise IllegalMove("P-toss", f"{what} must be base64 text of {TOSS_BYTES} bytes, got {text!r:.60}")
    value = b64d(text, what)
    if len(value) != TOSS_BYTES:
        raise IllegalMove("P-toss", f"{what} must be {TOSS_BYTES} bytes, got {len(value)}")
    return value


def read_opening(field: object, nonce: bytes, committed: str) -> tuple[bytes, bool]:
    """The creator's value from its ``toss_open``, and whether it matches the genesis commitment."""
    if not isinstance(field, dict) or set(field) != {"value", "salt"}:
        raise IllegalMove("P-toss", f"'toss_open' must be a table of value and salt, got {field!r:.80}")
    value = read_value(field["value"], "toss_open.value")
    if not isinstance(field["salt"], str):
        raise IllegalMove("P-toss", "toss_open.salt must be base64 text")
    salt = b64d(field["salt"], "toss_open.salt")
    return value, commitment(nonce, salt, value) == committed


def starter(values: Mapping[int, bytes], n: int) -> int:
    """The seat that starts: ``SHA-256(lp("duelmail/toss-result/v1", v_0, ..., v_{n-1}))`` modulo ``n``."""
    if sorted(values) != list(range(n)):
        raise DuelmailError(f"the toss needs a value from every seat, has seats {sorted(values)}")
    digest = hashlib.sha256(lp("duelmail/toss-result/v1", *(values[s] for s in range(n)))).digest()
    return int.from_bytes(digest, "big") % n
