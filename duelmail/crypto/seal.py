"""Sealed self-memos: a player's secret choices travel in their own turn file, encrypted to themselves.

ChaCha20-Poly1305 (RFC 8439, libsodium's IETF construction) under a key derived from a secret seed; ``aad``
binds the box to its context (game, round, seat, ...) so it cannot be replayed elsewhere. The nonce is a
parameter: real callers pass ``os.urandom(12)`` or a synthetic nonce; tests pass fixed bytes.

A box's size is public, so a memo never seals a bare value: ``pack`` puts each value in a block of
the fixed size its kind declares (``pad``: 2-byte big-endian length, the value, zero bytes), and the
box's size then depends only on which kinds of value it carries, never on the values.
"""

from __future__ import annotations

from collections.abc import Mapping

import nacl.bindings as _nb
from nacl.exceptions import CryptoError as _NaclCryptoError

from duelmail.crypto.derive import hkdf
from duelmail.crypto.encoding import b64d, b64e
from duelmail.errors import CryptoError

NONCE_BYTES = 12
TAG_BYTES = 16
OPEN_FAILED = "sealed memo does not open: wrong key, tampered, or wrong context"


def memo_key(seed: bytes) -> bytes:
    """The 32-byte memo key derived from ``seed`` (normally the game seed, so the audit can open memos)."""
    return hkdf(seed, "duelmail/memo-key/v1")


def _key(key: bytes) -> bytes:
    if not isinstance(key, (bytes, bytearray)) or len(key) != 32:
        got = f"{len(key)} bytes" if isinstance(key, (bytes, bytearray)) else type(key).__name__
        raise CryptoError(f"memo key must be 32 bytes, got {got}")
    return bytes(key)


def seal(key: bytes, plaintext: bytes, aad: bytes, nonce: bytes) -> str:
    """Encrypt ``plaintext`` bound to ``aad``; returns b64e(nonce || ciphertext-with-tag)."""
    if not isinstance(nonce, (bytes, bytearray)) or len(nonce) != NONCE_BYTES:
        raise CryptoError(f"seal nonce must be {NONCE_BYTES} bytes, got {nonce!r}")
    if not isinstance(plaintext, (bytes, bytearray)) or not isinstance(aad, (bytes, bytearray)):
        raise CryptoError(f"seal needs bytes, got {type(plaintext).__name__} and {type(aad).__name__}")
    key = _key(key)
    return b64e(bytes(nonce) + _nb.crypto_aead_chacha20poly1305_ietf_encrypt(bytes(plaintext), bytes(aad),
                                                                               bytes(nonce), key))


def open_sealed(key: bytes, box: str, aad: bytes) -> bytes:
    """Decrypt a box made by :func:`seal`; raises CryptoError if it does not open."""
    key = _key(key)
    if not isinstance(aad, (bytes, bytearray)):
        raise CryptoError(f"sealed memo context must be bytes, got {type(aad).__name__}")
    raw = b64d(box, "sealed memo")
    if len(raw) < NONCE_BYTES + TAG_BYTES:
        raise CryptoError(OPEN_FAILED)
    try:
        return _nb.crypto_aead_chacha20poly1305_ietf_decrypt(raw[NONCE_BYTES:], bytes(aad), raw[:NONCE_BYTES], key)
    except _NaclCryptoError:
        raise CryptoError(OPEN_FAILED) from None


LENGTH_BYTES = 2


def pad(value: bytes, size: int) -> bytes:
    """``value`` in a block of exactly ``size`` bytes: length (2 bytes, big-endian), value, zeros.

    A value that does not fit is refused (``CryptoError`` quoting it), never sealed longer."""
    if not isinstance(value, (bytes, bytearray)):
        raise CryptoError(f"padded value must be bytes, got {type(value).__name__}")
    if not isinstance(size, int) or not LENGTH_BYTES < size <= 0xFFFF:
        raise CryptoError(f"padded block size must be 3..65535 bytes, got {size!r}")
    if len(value) > size - LENGTH_BYTES:
        raise CryptoError(f"sealed value {bytes(value)!r} is {len(value)} bytes: its kind's block holds at most "
                          f"{size - LENGTH_BYTES}")
    return len(value).to_bytes(LENGTH_BYTES, "big") + bytes(value) + bytes(size - LENGTH_BYTES - len(value))


def unpad(block: bytes, what: str = "padded block") -> bytes:
    """The value of a :func:`pad` block; refuses a length past the block or non-zero padding."""
    n = int.from_bytes(block[:LENGTH_BYTES], "big")
    if len(block) < LENGTH_BYTES or n > len(block) - LENGTH_BYTES or any(block[LENGTH_BYTES + n:]):
        raise CryptoError(f"{what}: not a well-formed padded block of {len(block)} bytes")
    return bytes(block[LENGTH_BYTES:LENGTH_BYTES + n])


def pack(values: Mapping[str, bytes], sizes: Mapping[str, int]) -> bytes:
    """The plaintext of a memo: every value's :func:`pad` block, in sorted label order."""
    if sorted(values) != sorted(sizes):
        raise CryptoError(f"memo values {sorted(values)} and block sizes {sorted(sizes)} name different labels")
    return b"".join(pad(values[label], sizes[label]) for label in sorted(values))


def unpack(plain: bytes, sizes: Mapping[str, int]) -> dict[str, bytes]:
    """Split a :func:`pack` plaintext back into label -> value; refuses a plaintext of the wrong size."""
    if len(plain) != sum(sizes.values()):
        raise CryptoError(f"memo of {len(plain)} bytes, expected {sum(sizes.values())} for {sorted(sizes)}")
    out, at = {}, 0
    for label in sorted(sizes):
        out[label] = unpad(plain[at:at + sizes[label]], f"memo block {label!r}")
        at += sizes[label]
    return out


def box_size(plain_bytes: int) -> int:
    """Bytes of a sealed box (before base64) around a plaintext of ``plain_bytes``."""
    return NONCE_BYTES + plain_bytes + TAG_BYTES
