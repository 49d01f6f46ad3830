"""Commit-reveal for secret choices.

A commitment is hex SHA-256 over lp(b"duelmail/commit/v1", tag, game_id, round, seat, salt,
value): bound to what is committed (``tag``), the game, the round and the seat, hidden by a salt
derived from the player's game seed. Opening = publishing salt and value; a wrong opening is a
provable cheat.
"""

from __future__ import annotations

import hashlib
import hmac

from duelmail.crypto.derive import hkdf
from duelmail.crypto.encoding import lp
from duelmail.errors import CryptoError

COMMIT_DOMAIN = b"duelmail/commit/v1"
SALT_BYTES = 32


def commit(tag: str, game_id: str, round: int, seat: int, salt: bytes, value: bytes) -> str:
    """Hex SHA-256 commitment to ``value`` (see module doc)."""
    if not isinstance(salt, (bytes, bytearray)) or len(salt) < 16:
        raise CryptoError(f"commitment salt must be at least 16 bytes, got {salt!r}")
    if not isinstance(value, (bytes, bytearray)):
        raise CryptoError(f"committed value must be bytes, got {type(value).__name__}")
    if not isinstance(tag, str) or not isinstance(game_id, str):
        raise CryptoError(f"commitment tag and game id must be strings, got {tag!r}, {game_id!r}")
    return hashlib.sha256(lp(COMMIT_DOMAIN, tag, game_id, round, seat, salt, value)).hexdigest()


def check_opening(
    commitment: str, tag: str, game_id: str, round: int, seat: int, salt: bytes, value: bytes
) -> bool:
    """True iff (salt, value) opens ``commitment`` (lowercase hex); constant-time comparison."""
    expected = commit(tag, game_id, round, seat, salt, value).encode("ascii")
    if not isinstance(commitment, str):
        return False
    return hmac.compare_digest(commitment.encode("utf-8", "backslashreplace"), expected)


def commit_salt(seed: bytes, tag: str, round: int) -> bytes:
    """The 32-byte salt for the commitment ``tag`` in ``round``, derived from a game seed."""
    return hkdf(seed, lp("duelmail/commit-salt/v1", tag, round), SALT_BYTES)
