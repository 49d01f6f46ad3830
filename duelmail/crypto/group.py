"""Safe wrappers over libsodium (``nacl.bindings``) for the prime-order subgroup of edwards25519.

Points are 32-byte encodings; scalars are 32-byte little-endian integers in ``[1, L)``. Only the
*unclamped* multiplications are used: clamping changes the scalar, so it would not invert.

Point validation. ``valid_point`` is libsodium's ``crypto_core_ed25519_is_valid_point``: it refuses
non-canonical encodings, points not on the curve, the small-order points and points outside the
prime-order subgroup. ``crypto_scalarmult_ed25519_noclamp`` runs exactly the same checks on its
input point before multiplying (and refuses a zero scalar or an identity result), so
``point_mul`` relies on it instead of paying for the subgroup check twice; when libsodium refuses,
``point_mul`` re-runs ``valid_point`` only to word the error. ``tests/crypto/test_group.py`` pins
that behaviour for every kind of bad point.

A point is checked once per process: whether 32 bytes encode a point of the subgroup depends on those bytes
alone, so ``valid_point`` remembers the encodings it (or a multiplication's own check) found valid, and the
results of multiplications and of hashing to the curve, which are points of the subgroup by construction
(``_VALID``, at most ``_VALID_MAX`` of them). A point checked on arrival is not checked again when the fold,
the escrow tables' decoding or the audit meet it.
"""

from __future__ import annotations

import hashlib

import nacl.bindings as _nb
from nacl.exceptions import RuntimeError as _NaclRuntimeError

from duelmail.crypto.encoding import lp
from duelmail.errors import CryptoError

L = 2**252 + 27742317777372353535851937790883648493
"""The order of the prime-order subgroup (and of the scalar field)."""

POINT_BYTES = 32
SCALAR_BYTES = 32
IDENTITY = (1).to_bytes(32, "little")
_ZERO = bytes(SCALAR_BYTES)
H2C_DOMAIN = b"duelmail/h2c/v1"


def _hex(data: object) -> str:
    return data.hex() if isinstance(data, (bytes, bytearray)) else repr(data)


def scalar_from_int(x: int) -> bytes:
    """The scalar ``x mod L`` as 32 little-endian bytes; refuses a multiple of L (zero)."""
    r = x % L
    if r == 0:
        raise CryptoError(f"scalar {x} is zero mod L")
    return r.to_bytes(SCALAR_BYTES, "little")


def scalar_to_int(s: bytes) -> int:
    """The integer value of a 32-byte little-endian scalar."""
    return int.from_bytes(check_scalar(s, "scalar"), "little")


def check_scalar(s: bytes, what: str) -> bytes:
    """Return ``s`` if it is a canonical nonzero scalar (32 bytes, 0 < s < L); else CryptoError."""
    if s.__class__ is bytes and len(s) == SCALAR_BYTES and s[31] < 16 and s != _ZERO:
        return s  # below 2**252 < L and not zero: the common case (some 19,000 calls a replay) without an int made
    if not isinstance(s, bytes) or len(s) != SCALAR_BYTES:
        raise CryptoError(f"{what}: a scalar must be {SCALAR_BYTES} bytes, got {_hex(s)}")
    v = int.from_bytes(s, "little")
    if v >= L:
        raise CryptoError(f"{what}: scalar is not canonical (>= L): {s.hex()}")
    if v == 0:
        raise CryptoError(f"{what}: scalar is zero")
    return s


def reduce64(data: bytes) -> bytes:
    """Reduce 64 bytes (little-endian) mod L. The result may be zero (probability 2**-252)."""
    if not isinstance(data, bytes) or len(data) != 64:
        raise CryptoError(f"reduce64 needs 64 bytes, got {_hex(data)}")
    return _nb.crypto_core_ed25519_scalar_reduce(data)


def smul(a: bytes, b: bytes) -> bytes:
    """Scalar product ``a * b mod L``."""
    check_scalar(a, "scalar a")
    check_scalar(b, "scalar b")
    return _nb.crypto_core_ed25519_scalar_mul(a, b)


def sinv(a: bytes) -> bytes:
    """Scalar inverse ``a^-1 mod L``; refuses zero."""
    check_scalar(a, "scalar to invert")
    return _nb.crypto_core_ed25519_scalar_invert(a)


_VALID: set[bytes] = set()
_VALID_MAX = 1 << 18  # 32-byte points: some 20 MB at most, then it starts again


def _known_valid(*points: bytes) -> None:
    """Remember points of the prime-order subgroup (checked, or made so: see the module's docstring)."""
    if len(_VALID) >= _VALID_MAX:
        _VALID.clear()
    _VALID.update(points)


def valid_point(p: bytes) -> bool:
    """True iff ``p`` encodes a point of the prime-order subgroup (canonical, not small order)."""
    if p.__class__ is bytes and p in _VALID:
        return True
    ok = isinstance(p, bytes) and len(p) == POINT_BYTES and bool(_nb.crypto_core_ed25519_is_valid_point(p))
    if ok:
        _known_valid(p)
    return ok


def check_point(p: bytes, what: str) -> bytes:
    """Return ``p`` if :func:`valid_point`; else CryptoError naming ``what`` and quoting ``p``."""
    if not valid_point(p):
        raise CryptoError(f"{what}: not a point of the prime-order group: {_hex(p)}")
    return p


def point_mul(scalar: bytes, point: bytes) -> bytes:
    """``scalar * point`` (unclamped). The point is validated (by libsodium; see module doc)."""
    check_scalar(scalar, "multiplier")
    if not isinstance(point, bytes) or len(point) != POINT_BYTES:
        raise CryptoError(f"point to multiply: not a 32-byte point: {_hex(point)}")
    try:
        out = _nb.crypto_scalarmult_ed25519_noclamp(scalar, point)
    except _NaclRuntimeError:
        check_point(point, "point to multiply")
        # Unreachable: a valid point times a scalar in [1, L) is never the identity.
        raise CryptoError(f"point multiplication failed for {point.hex()}") from None  # pragma: no cover
    _known_valid(point, out)  # libsodium checked the point; a nonzero multiple of it is in the subgroup too
    return out


def point_add(p: bytes, q: bytes) -> bytes:
    """``p + q`` for validated points or the identity (libsodium refuses the identity as an operand)."""
    if p == IDENTITY:
        return q
    if q == IDENTITY:
        return p
    return _nb.crypto_core_ed25519_add(p, q)


def base_mul(scalar: bytes) -> bytes:
    """``scalar * G`` (unclamped) for the standard base point G."""
    check_scalar(scalar, "multiplier")
    out = _nb.crypto_scalarmult_ed25519_base_noclamp(scalar)
    _known_valid(out)
    return out


def base_muls(scalars: list[bytes]) -> list[bytes]:
    """``[base_mul(s) for s in scalars]``, noted as valid at once (a dealing's commitments: some 4,000 an audit)."""
    mul = _nb.crypto_scalarmult_ed25519_base_noclamp
    out = [mul(check_scalar(s, "multiplier")) for s in scalars]
    _known_valid(*out)
    return out


def hash_to_point(*parts: bytes | str | int) -> bytes:
    """``from_uniform(SHA-256(lp(b"duelmail/h2c/v1", *parts)))``: a point nobody knows the log of.

    libsodium clears the cofactor, so the result is in the prime-order subgroup; only the
    identity (probability about 2**-252) has to be refused.
    """
    p = _nb.crypto_core_ed25519_from_uniform(hashlib.sha256(lp(H2C_DOMAIN, *parts)).digest())
    if p == IDENTITY:  # pragma: no cover - needs a SHA-256 preimage of a torsion point
        raise CryptoError(f"hash_to_point{parts!r} gave the identity")
    _known_valid(p)
    return p
