"""Byte encodings shared by the crypto layer: unpadded URL-safe base64 and length-prefixing.

``lp`` is the one input encoding of every hash in the layer. Each part becomes a 4-byte
big-endian length followed by its bytes: ``bytes`` as is, ``str`` as UTF-8, ``int`` as 8 bytes
big-endian (0 <= n < 2**64). Nothing is type-tagged, so ``lp(0) == lp(bytes(8))``: callers keep
the type of each position fixed (every call site has a fixed shape), which makes ``lp`` injective
for that shape. Domain separation comes from a leading tag string or bytes at each call site.
"""

from __future__ import annotations

import base64
import binascii

from duelmail.errors import CryptoError

_MAX_PART = 2**32 - 1


def b64e(data: bytes) -> str:
    """URL-safe base64 of ``data`` without ``=`` padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64d(text: str, what: str) -> bytes:
    """Decode unpadded (or correctly padded) URL-safe base64; ``what`` names the field in errors.

    Strict: any character outside the URL-safe alphabet, a wrong amount of padding, or a
    non-canonical encoding (stray low bits in the last character) is refused, so one byte
    string has exactly one accepted text. The alphabet is checked by ``binascii``'s strict mode,
    after ``-`` and ``_`` are turned into the standard alphabet's ``+`` and ``/``, and ``+`` and ``/``
    themselves into a character it refuses; the stray bits by the last character's value.
    """
    if not isinstance(text, str):
        raise CryptoError(f"{what}: expected base64 text, got {type(text).__name__}")
    body = text.rstrip("=")
    size = len(body)
    pad = len(text) - size
    if size % 4 == 1 or (pad and (pad > 2 or (size + pad) % 4)):
        raise CryptoError(f"{what}: not URL-safe base64: {_clip(text)!r}")
    try:
        data = binascii.a2b_base64((body + "=" * (-size % 4)).encode("ascii").translate(_TO_STANDARD), strict_mode=True)
    except (UnicodeEncodeError, binascii.Error):
        raise CryptoError(f"{what}: not URL-safe base64: {_clip(text)!r}") from None
    if size % 4 and _ALPHABET.index(body[-1]) & _STRAY[size % 4]:
        raise CryptoError(f"{what}: non-canonical base64 (stray trailing bits): {_clip(text)!r}")
    return data


_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_TO_STANDARD = bytes.maketrans(b"-_+/", b"+/!!")  # '!' is no base64: strict mode refuses it
_STRAY = {2: 0b1111, 3: 0b11}  # a last character after 2 or 3 characters of a group: its bits past the data


def lp(*parts: bytes | str | int) -> bytes:
    """Length-prefixed concatenation: per part, 4-byte big-endian length + bytes (see module doc)."""
    out = []
    add = out.append
    for i, part in enumerate(parts):
        cls = part.__class__
        if cls is bytes:  # the common cases first (hashing and key derivation call this some 20,000 times a replay)
            raw = part
        elif cls is str:
            raw = part.encode("utf-8")
        elif cls is int and 0 <= part < _INT_END:
            raw = part.to_bytes(8, "big")
        else:
            raw = _part(i, part)
        n = len(raw)
        if n > _MAX_PART:
            raise CryptoError(f"lp part {i}: {n} bytes is too long")
        add(n.to_bytes(4, "big"))
        add(raw)
    return b"".join(out)


_INT_END = 2**64


def _part(i: int, part: object) -> bytes:
    """``lp``'s encoding of a part of another class than bytes, str or int in range (or its refusal)."""
    if isinstance(part, (bytes, bytearray, memoryview)):
        return bytes(part)
    if isinstance(part, str):
        return part.encode("utf-8")
    if isinstance(part, int) and not isinstance(part, bool):
        if not 0 <= part < _INT_END:
            raise CryptoError(f"lp part {i}: integer {part} is outside 0..2**64-1")
        return part.to_bytes(8, "big")
    raise CryptoError(f"lp part {i}: cannot encode {type(part).__name__} {part!r}")


def _clip(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters for an error message."""
    return text if len(text) <= limit else text[:limit] + "..."
