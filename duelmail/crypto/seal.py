"""Sealed self-memos: a player's secret choices travel in their own turn file, encrypted to themselves.

ChaCha20-Poly1305 under a key derived from a secret seed; ``aad`` binds the box to its context
(game, round, seat, ...) so it cannot be replayed elsewhere. The nonce is a parameter: real callers
pass ``os.urandom(12)``; tests pass fixed bytes.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from duelmail.crypto.derive import hkdf
from duelmail.crypto.encoding import b64d, b64e
from duelmail.errors import CryptoError

NONCE_BYTES = 12
TAG_BYTES = 16
OPEN_FAILED = "sealed memo does not open: wrong key, tampered, or wrong context"


def memo_key(seed: bytes) -> bytes:
    """The 32-byte memo key derived from ``seed`` (normally the game seed, so the audit can open memos)."""
    return hkdf(seed, "duelmail/memo-key/v1")


def _aead(key: bytes) -> ChaCha20Poly1305:
    if not isinstance(key, (bytes, bytearray)) or len(key) != 32:
        got = f"{len(key)} bytes" if isinstance(key, (bytes, bytearray)) else type(key).__name__
        raise CryptoError(f"memo key must be 32 bytes, got {got}")
    return ChaCha20Poly1305(bytes(key))


def seal(key: bytes, plaintext: bytes, aad: bytes, nonce: bytes) -> str:
    """Encrypt ``plaintext`` bound to ``aad``; returns b64e(nonce || ciphertext-with-tag)."""
    if not isinstance(nonce, (bytes, bytearray)) or len(nonce) != NONCE_BYTES:
        raise CryptoError(f"seal nonce must be {NONCE_BYTES} bytes, got {nonce!r}")
    if not isinstance(plaintext, (bytes, bytearray)) or not isinstance(aad, (bytes, bytearray)):
        raise CryptoError(f"seal needs bytes, got {type(plaintext).__name__} and {type(aad).__name__}")
    return b64e(bytes(nonce) + _aead(key).encrypt(bytes(nonce), plaintext, aad))


def open_sealed(key: bytes, box: str, aad: bytes) -> bytes:
    """Decrypt a box made by :func:`seal`; raises CryptoError if it does not open."""
    aead = _aead(key)
    if not isinstance(aad, (bytes, bytearray)):
        raise CryptoError(f"sealed memo context must be bytes, got {type(aad).__name__}")
    raw = b64d(box, "sealed memo")
    if len(raw) < NONCE_BYTES + TAG_BYTES:
        raise CryptoError(OPEN_FAILED)
    try:
        return aead.decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], aad)
    except InvalidTag:
        raise CryptoError(OPEN_FAILED) from None
