"""Escrow primitives (issue 19): Feldman-verifiable Shamir shares of a scalar, sent to their holder
by hashed ElGamal, with a Chaum-Pedersen proof of decryption for complaints.

Every function is pure: scalars and points in (32-byte encodings), results out; randomness is derived
deterministically from the secret, the context and an optional ``rng_seed`` (HKDF, then the Stream
DRBG), never from ``random``. ``docs/protocol.md`` section 6c gives the design (what is escrowed, the
threshold, the removal, who learns what); ``docs/proofs.md`` ("Escrow") the statements, transcripts and
soundness arguments. In brief:

- ``deal``: ``f(X) = secret + a_1 X + ... + a_{t-1} X^{t-1}`` mod L; commitments ``C_m = a_m G``
  (``C_0 = secret G``, which the engine never sends: it is the seat's recorded key commitment), shares
  ``f(x_i)`` for holder indices ``x_i`` in ``1..2**16``.
- ``verify_share``: ``share G == sum x^m C_m``, with exactly ``t`` commitments (``check_commitments``; ``t`` is
  a required argument);
  ``verify_published``: every holder's shares of one dealer in one small-exponent batch (a removal);
  ``reconstruct``: Lagrange at 0 from ``t`` shares.
- ``encrypt_shares`` / ``decrypt_shares`` / ``receive_shares``: ``R = r G``, ``D = r E``,
  ``c_j = share_j + SHA-512(lp(pad tag, context, E, R, D, j)) mod L``; 32 (n + 1) bytes.
- ``prove_decryption`` / ``open_with_proof``: the holder publishes ``D = e R`` with a DLEQ proof of
  ``log_G E = log_R D``; anyone then removes the pads and sees which share fails.

Errors are ``CryptoError``s that name what failed: the ``what`` the caller passed (a deck position),
the holder index, and the points or sizes involved.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from duelmail.crypto.derive import Stream, hkdf
from duelmail.crypto.encoding import b64d, b64e, lp
from duelmail.crypto.group import (
    IDENTITY,
    POINT_BYTES,
    SCALAR_BYTES,
    L,
    base_mul,
    base_muls,
    check_point,
    check_scalar,
    point_add,
    point_mul,
)
from duelmail.crypto.proofs import G, prove_dleq, verify_dleq
from duelmail.errors import CryptoError
from duelmail.util.classes import dataclass

__all__ = [
    "MAX_HOLDER",
    "Dealing",
    "escrow_context",
    "escrow_contexts",
    "escrow_key",
    "deal",
    "deal_sent",
    "deal_sent_each",
    "public_share",
    "check_commitments",
    "verify_share",
    "verify_published",
    "reconstruct",
    "ciphertext_size",
    "encrypt_shares",
    "decrypt_shares",
    "receive_shares",
    "prove_decryption",
    "open_with_proof",
]

ESCROW_TAG = "duelmail/escrow/v1"
KEY_TAG = "duelmail/escrow-key/v1"
COEFF_TAG = b"duelmail/escrow/coeffs/v1"
NONCE_TAG = b"duelmail/escrow/nonce/v1"
PAD_TAG = b"duelmail/escrow/pad/v1"
DECRYPT_TAG = b"duelmail/escrow/decrypt/v1"
BATCH_TAG = b"duelmail/escrow/batch/v1"
MAX_HOLDER = 2**16
"""Holder indices are 1..MAX_HOLDER (the engine uses seat + 1); 0 would be the secret itself."""


@dataclass(frozen=True)
class Dealing:
    """One secret's sharing: ``commitments[m] = a_m G`` (``commitments[0] = secret G``) and
    ``shares[x] = f(x)`` for every holder index ``x``."""

    threshold: int
    commitments: tuple[bytes, ...]
    shares: dict[int, bytes]

    @property
    def sent(self) -> tuple[bytes, ...]:
        """The commitments a file carries: all but ``C_0``, which receivers take from their records."""
        return self.commitments[1:]


# -- helpers --------------------------------------------------------------------------------------

_LP32 = SCALAR_BYTES.to_bytes(4, "big")  # lp's length prefix of a 32-byte part


def _int(s: bytes) -> int:
    return int.from_bytes(s, "little")


def _enc(k: int) -> bytes:
    return (k % L).to_bytes(SCALAR_BYTES, "little")


def _mul(k: int, p: bytes) -> bytes:
    """``k * p`` for any integer ``k`` and a validated point or the identity."""
    k %= L
    if k == 0 or p == IDENTITY:
        return IDENTITY
    return point_mul(_enc(k), p)


def _times(k: int, p: bytes, what: str) -> bytes:
    """``k * p`` for ``0 < k < L`` and a point ``p`` of the prime-order group, refused naming ``what``.
    libsodium validates ``p`` while multiplying (group.py), so only a unit multiplier checks it here."""
    if k == 1:
        return check_point(p, what)
    try:
        return point_mul(_enc(k), p)
    except CryptoError:
        check_point(p, what)
        raise  # pragma: no cover - point_mul refuses only what check_point refuses


def _check_bytes(value: object, what: str) -> bytes:
    if not isinstance(value, bytes):
        raise CryptoError(f"{what}: expected bytes, got {type(value).__name__}")
    return value


def _check_index(index: object, what: str) -> int:
    if not isinstance(index, int) or isinstance(index, bool) or not 1 <= index <= MAX_HOLDER:
        raise CryptoError(f"{what}: holder index must be an integer in 1..{MAX_HOLDER}, got {index!r}")
    return index


def _check_threshold(threshold: object, holders: int, what: str) -> int:
    if not isinstance(threshold, int) or isinstance(threshold, bool) or not 1 <= threshold <= holders:
        raise CryptoError(f"{what}: threshold must be in 1..{holders} (the holders), got {threshold!r}")
    return threshold


def _short(p: bytes) -> str:
    return p.hex()[:16] + "..."


def escrow_context(game_id: str, round: int, dealer: int, what: str) -> bytes:
    """``lp("duelmail/escrow/v1", game id, round, dealer seat, what)``: what a dealing or ciphertext
    binds. ``what`` names the secret (``"a.1#7"``, ``"escrow-key"``), with the holder for a ciphertext
    (``"a.1/to-2"``): a copy into another game, round, seat, secret or holder fails its check."""
    return escrow_contexts(game_id, round, dealer, (what,))[0]


def escrow_contexts(game_id: str, round: int, dealer: int, whats: Sequence[str]) -> list[bytes]:
    """``escrow_context`` of each of ``whats``, for one game, round and dealer: ``lp`` concatenates its parts, so
    each is the same head ``lp(tag, game id, round, dealer)`` followed by ``lp(what)``, and the head is encoded once
    (a dealing of a deck binds one context a position: some 1,000 an audit)."""
    if not isinstance(game_id, str) or not game_id:
        raise CryptoError(f"escrow context: game id must be a non-empty string, got {game_id!r}")
    head = lp(ESCROW_TAG, game_id, round, dealer)
    out = []
    for what in whats:
        if not isinstance(what, str) or not what:
            raise CryptoError(f"escrow context: what must be a non-empty string, got {what!r}")
        out.append(head + lp(what))
    return out


def escrow_key(seed: bytes) -> bytes:
    """A seat's escrow key for one game: ``Stream(HKDF(gs, "duelmail/escrow-key/v1"), "escrow/key")
    .scalar()``. Its public key ``base_mul(e)`` goes in the seat's first file."""
    return Stream(hkdf(seed, KEY_TAG), "escrow/key").scalar()


# -- Feldman sharing ------------------------------------------------------------------------------

def deal(secret: bytes, threshold: int, holders: Sequence[int], context: bytes,
         rng_seed: bytes | None = None) -> Dealing:
    """Share ``secret`` among ``holders`` so that any ``threshold`` of them reconstruct it.

    The coefficients derive from the secret, ``rng_seed``, the context and the threshold, so a
    dealing is a deterministic function of its inputs (the audit can recompute it from the seed)."""
    t = _checked(secret, threshold, holders, context, rng_seed)
    sent, shares = _share_out(secret, t, list(holders), context, lp(COEFF_TAG, rng_seed or b""))
    return Dealing(t, (base_mul(secret),) + sent, shares)


def deal_sent(secret: bytes, threshold: int, holders: Sequence[int], context: bytes,
              rng_seed: bytes | None = None) -> tuple[tuple[bytes, ...], dict[int, bytes]]:
    """``deal``'s ``(sent, shares)`` (its inputs checked alike) without ``C_0 = secret G``, which a file never carries
    (its receivers take the dealer's recorded key commitment): the audit recomputes a dealing with it, so that a key's
    commitment is computed once, by the deck's recomputed pass."""
    return deal_sent_each([secret], threshold, holders, [context], rng_seed)[0]


def deal_sent_each(secrets: Sequence[bytes], threshold: int, holders: Sequence[int], contexts: Sequence[bytes],
                   rng_seed: bytes | None = None) -> list[tuple[tuple[bytes, ...], dict[int, bytes]]]:
    """``deal_sent`` of each secret with its context, for one threshold and one list of holders, which are checked
    once (a deck's dealing deals one secret a position: some 1,000 an audit)."""
    if len(secrets) != len(contexts):
        raise CryptoError(f"dealing: {len(secrets)} secrets for {len(contexts)} contexts")
    t = _checked_holders(threshold, holders, rng_seed)
    xs, head = list(holders), lp(COEFF_TAG, rng_seed or b"")
    out = []
    for secret, context in zip(secrets, contexts, strict=True):
        check_scalar(secret, "escrowed secret")
        _check_bytes(context, "escrow context")
        out.append(_share_out(secret, t, xs, context, head))
    return out


def _checked(secret: bytes, threshold: int, holders: Sequence[int], context: bytes, rng_seed: bytes | None) -> int:
    check_scalar(secret, "escrowed secret")
    _check_bytes(context, "escrow context")
    return _checked_holders(threshold, holders, rng_seed)


def _checked_holders(threshold: int, holders: Sequence[int], rng_seed: bytes | None) -> int:
    if rng_seed is not None:
        _check_bytes(rng_seed, "rng_seed")
    if not isinstance(holders, (list, tuple)) or not holders:
        raise CryptoError(f"dealing: holders must be a non-empty list of indices, got {holders!r}")
    xs = [_check_index(x, "dealing") for x in holders]
    if len(set(xs)) != len(xs):
        raise CryptoError(f"dealing: holder indices repeat: {xs!r}")
    return _check_threshold(threshold, len(xs), "dealing")


def _share_out(secret: bytes, t: int, xs: list[int], context: bytes,
               head: bytes) -> tuple[tuple[bytes, ...], dict[int, bytes]]:
    """The commitments ``C_1..C_{t-1}`` and every holder's share, for checked inputs; ``head``: ``lp(COEFF_TAG,
    rng_seed or b"")``, the part of the coefficients' key ``lp(COEFF_TAG, rng_seed or b"", secret)`` a dealing's
    positions share (``lp`` concatenates its parts)."""
    stream = Stream(hkdf(head + lp(secret), lp(context, t)), "escrow/coeffs")
    drawn = [stream.scalar() for _ in range(t - 1)]
    sent = tuple(base_muls(drawn))
    coeffs = [_int(a) for a in reversed(drawn)]  # a_{t-1} .. a_1, then the secret: Horner's order
    coeffs.append(_int(secret))
    shares = {}
    for x in xs:
        acc = 0
        for a in coeffs:
            acc = acc * x + a  # below 2**(253 + 16 t): reduced once
        acc %= L
        if acc == 0:  # pragma: no cover - probability about 2**-252 per holder
            raise CryptoError(f"dealing: the share of holder {x} is zero; deal with another rng_seed")
        shares[x] = acc.to_bytes(SCALAR_BYTES, "little")
    return sent, shares


def check_commitments(commitments: Sequence[bytes], threshold: int, what: str) -> list[bytes]:
    """The ``threshold`` commitments ``C_0..C_{t-1}``, each a point of the prime-order group."""
    if not isinstance(commitments, (list, tuple)):
        raise CryptoError(f"{what}: commitments must be a list, got {type(commitments).__name__}")
    if len(commitments) != threshold:
        raise CryptoError(f"{what}: expected {threshold} commitments (the threshold), got {len(commitments)}")
    return [check_point(c, f"{what}: commitment {m}") for m, c in enumerate(commitments)]


def public_share(commitments: Sequence[bytes], index: int, what: str = "share") -> bytes:
    """``X_i = sum_m x_i^m C_m``: the point every correct share of holder ``index`` opens."""
    x = _check_index(index, what)
    acc, power = IDENTITY, 1
    for m, c in enumerate(commitments):
        acc = point_add(acc, _times(power, c, f"{what}: commitment {m}"))
        power = power * x % L
    return acc


def verify_share(share: bytes, index: int, commitments: Sequence[bytes], what: str = "share", *,
                 threshold: int) -> None:
    """Refuse (``CryptoError``) a share of holder ``index`` that does not open the commitments, or commitments that
    are not exactly ``threshold`` points (``check_commitments``): the list's length is the polynomial's degree plus
    one, so a longer list would let ``t`` shares reconstruct nothing. ``threshold`` is required: a caller cannot
    leave the length unchecked."""
    x = _check_index(index, what)
    if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 1:
        raise CryptoError(f"{what}: threshold must be a positive integer, got {threshold!r}")
    check_commitments(commitments, threshold, what)
    if not isinstance(share, bytes) or len(share) != SCALAR_BYTES:
        raise CryptoError(f"{what}: the share of holder {x} is not a {SCALAR_BYTES}-byte scalar: {share!r:.80}")
    value = _int(share)
    if value >= L:
        raise CryptoError(f"{what}: the share of holder {x} is not canonical (>= L): {share.hex()}")
    if value == 0:
        raise CryptoError(f"{what}: the share of holder {x} is zero")
    if not commitments:
        raise CryptoError(f"{what}: no commitments to check the share of holder {x} against")
    expected = public_share(commitments, x, what)
    got = base_mul(share)
    if got != expected:
        raise CryptoError(f"{what}: the share of holder {x} does not match the dealer's commitments "
                          f"(share·G = {_short(got)}, the commitments give {_short(expected)})")


def verify_published(shares: Mapping[int, Sequence[bytes]], commitments: Sequence[Sequence[bytes]],
                     names: Sequence[str] | None = None, what: str = "published shares",
                     threshold: int | None = None) -> None:
    """Check at once the shares several holders publish of one dealer's secrets (a removal):
    ``shares[x][j]`` against ``commitments[j]`` (``C_0`` first) for every holder ``x``.

    Small-exponent batch test: with weights ``rho_j`` hashed from every commitment and share,
    ``(sum_j rho_j shares[x][j])·G == sum_m x^m A_m`` with ``A_m = sum_j rho_j C_{j,m}``, so the cost is
    about ``n·t`` multiplications for all holders together instead of ``n·t`` per holder. A holder
    whose sum fails is checked share by share, and the first wrong share is named as
    :func:`verify_share` names it (position and holder)."""
    if not isinstance(commitments, (list, tuple)) or not commitments:
        raise CryptoError(f"{what}: expected one commitment list per secret")
    n = len(commitments)
    if names is not None and len(names) != n:
        raise CryptoError(f"{what}: {len(names)} names for {n} secrets")
    t = len(commitments[0]) if threshold is None else threshold
    for j, comms in enumerate(commitments):
        if not isinstance(comms, (list, tuple)) or len(comms) != t or t == 0:
            raise CryptoError(f"{what}: commitment list {j} has {len(comms)} points, expected {t}"
                              + (" like the first" if threshold is None else " (the threshold)"))
    if not isinstance(shares, Mapping) or not shares:
        raise CryptoError(f"{what}: expected the shares of at least one holder")
    label = [names[j] if names else f"share {j}" for j in range(n)]
    values: dict[int, list[int]] = {}
    for x, row in sorted(shares.items()):
        _check_index(x, what)
        if not isinstance(row, (list, tuple)) or len(row) != n:
            raise CryptoError(f"{what}: holder {x} published {len(row)} shares, expected {n}")
        for j, share in enumerate(row):
            if not isinstance(share, bytes) or len(share) != SCALAR_BYTES or not 0 < _int(share) < L:
                verify_share(share, x, commitments[j], f"{what}: {label[j]}", threshold=t)  # raises, naming it
        values[x] = [_int(sh) for sh in row]
    digest = hashlib.sha512(lp(BATCH_TAG, n, t, *[c for comms in commitments for c in comms],
                               *[lp(x, *shares[x]) for x in sorted(shares)])).digest()
    rho = [_int(hashlib.sha512(lp(digest, j)).digest()) % L or 1 for j in range(n)]
    agg = []
    for m in range(t):
        acc = IDENTITY
        for j in range(n):
            acc = point_add(acc, _times(rho[j], commitments[j][m], f"{what}: {label[j]}: commitment {m}"))
        agg.append(acc)
    for x, vals in values.items():
        lhs = sum(r * v for r, v in zip(rho, vals, strict=True)) % L
        rhs, power = IDENTITY, 1
        for a in agg:
            rhs = point_add(rhs, _mul(power, a))
            power = power * x % L
        if (IDENTITY if lhs == 0 else base_mul(_enc(lhs))) != rhs:
            for j in range(n):
                verify_share(shares[x][j], x, commitments[j], f"{what}: {label[j]}", threshold=t)
            raise CryptoError(f"{what}: the shares of holder {x} fail the batch check")  # pragma: no cover


def reconstruct(shares: Mapping[int, bytes], threshold: int, public: bytes | None = None,
                what: str = "secret") -> bytes:
    """Lagrange interpolation at 0 from the ``threshold`` lowest-indexed shares; if ``public`` is
    given, the result must satisfy ``secret·G == public``. Check each share with
    :func:`verify_share` first: this function only names a failure, it cannot say whose it is."""
    if not isinstance(shares, Mapping):
        raise CryptoError(f"{what}: shares must map holder index to share, got {type(shares).__name__}")
    if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 1:
        raise CryptoError(f"{what}: threshold must be a positive integer, got {threshold!r}")
    if len(shares) < threshold:
        raise CryptoError(f"{what}: {len(shares)} shares cannot reconstruct a secret of threshold {threshold}")
    xs = sorted(_check_index(x, what) for x in shares)[:threshold]
    values = {x: _int(check_scalar(shares[x], f"{what}: share of holder {x}")) for x in xs}
    secret = 0
    for x in xs:
        num, den = 1, 1
        for y in xs:
            if y != x:
                num = num * y % L
                den = den * (y - x) % L
        secret = (secret + values[x] * num * pow(den, L - 2, L)) % L
    if secret == 0:
        raise CryptoError(f"{what}: the shares of holders {xs} reconstruct zero, which is no secret")
    out = _enc(secret)
    if public is not None and base_mul(out) != public:
        raise CryptoError(f"{what}: the shares of holders {xs} reconstruct a secret whose image "
                          f"{_short(base_mul(out))} is not the commitment {_short(public)}")
    return out


# -- hashed ElGamal to the holder, and provable decryption ----------------------------------------

def ciphertext_size(count: int) -> int:
    """Bytes of a ciphertext of ``count`` shares: ``R`` and one scalar per share."""
    return POINT_BYTES + SCALAR_BYTES * count


def _pads(ctx: bytes, recipient: bytes, r_point: bytes, dh: bytes, count: int) -> list[int]:
    """The pads of shares ``0..count-1``: ``SHA-512(lp(pad tag, ctx, E, R, D, j)) mod L``, the common prefix encoded
    once (``lp`` concatenates its parts). Each is the digest's integer, not yet reduced: its callers reduce the share
    it pads or unpads mod L (one reduction of each sum instead of two, the same bytes)."""
    head = hashlib.sha512(lp(PAD_TAG, ctx, recipient, r_point, dh) + (8).to_bytes(4, "big"))  # then j: lp(j) is its
    out = []  # length, 8, and j; the head hashed once, its state copied for each j (some 4,000 pads a replay's audit)
    for j in range(count):
        h = head.copy()
        h.update(j.to_bytes(8, "big"))
        out.append(int.from_bytes(h.digest(), "little"))
    return out


def _parse(ciphertext: str, count: int, what: str) -> tuple[bytes, list[int]]:
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise CryptoError(f"{what}: share count must be a positive integer, got {count!r}")
    raw = b64d(ciphertext, what)
    if len(raw) != ciphertext_size(count):
        raise CryptoError(f"{what}: expected {ciphertext_size(count)} bytes for {count} shares, got {len(raw)}")
    r_point = check_point(raw[:POINT_BYTES], f"{what}: R")
    cs = []
    for j in range(count):
        c = _int(raw[POINT_BYTES + SCALAR_BYTES * j:POINT_BYTES + SCALAR_BYTES * (j + 1)])
        if c >= L:
            raise CryptoError(f"{what}: scalar {j} is not canonical (>= L)")
        cs.append(c)
    return r_point, cs


def _unpad(ctx: bytes, recipient: bytes, r_point: bytes, dh: bytes, cs: list[int]) -> list[bytes]:
    return [_enc(c - pad) for c, pad in zip(cs, _pads(ctx, recipient, r_point, dh, len(cs)), strict=True)]


def encrypt_shares(shares: Sequence[bytes], recipient: bytes, context: bytes,
                   rng_seed: bytes | None = None) -> str:
    """``b64e(R ‖ c_1 ‖ ... ‖ c_n)``: the shares one dealer gives one holder (escrow public key
    ``recipient``), ``R = r G`` with ``r`` derived from the shares, the key and the context."""
    _check_bytes(context, "escrow context")
    if rng_seed is not None:
        _check_bytes(rng_seed, "rng_seed")
    check_point(recipient, "recipient's escrow key")
    if not isinstance(shares, (list, tuple)) or not shares:
        raise CryptoError("encrypt_shares: expected a non-empty list of shares")
    for j, s in enumerate(shares):
        check_scalar(s, f"share {j} to encrypt")
    # lp(tag, seed, *shares): every share is 32 bytes (checked above), so its part is the length 32 and the share
    nonce = lp(NONCE_TAG, rng_seed or b"") + _LP32.join([b"", *shares])
    r = Stream(hkdf(nonce, lp(context, recipient)), "escrow/nonce").scalar()
    r_point, dh = base_mul(r), point_mul(r, recipient)
    pads = _pads(context, recipient, r_point, dh, len(shares))
    cs = [((int.from_bytes(s, "little") + pad) % L).to_bytes(SCALAR_BYTES, "little")
          for s, pad in zip(shares, pads, strict=True)]
    return b64e(r_point + b"".join(cs))


def decrypt_shares(ciphertext: str, key: bytes, context: bytes, count: int,
                   what: str = "escrow ciphertext") -> list[bytes]:
    """The holder's shares (32-byte encodings, unchecked: a zero is possible for a bad ciphertext)."""
    _check_bytes(context, "escrow context")
    check_scalar(key, "escrow key")
    r_point, cs = _parse(ciphertext, count, what)
    return _unpad(context, base_mul(key), r_point, point_mul(key, r_point), cs)


def receive_shares(ciphertext: str, key: bytes, index: int, commitments: Sequence[Sequence[bytes]],
                   context: bytes, names: Sequence[str] | None = None,
                   what: str = "escrow ciphertext", *, threshold: int) -> list[bytes]:
    """Decrypt, then check every share against its commitments (``commitments[j]``, ``C_0`` first, exactly
    ``threshold`` of them); the first failure names its position (``names[j]``, default ``share j``) and the holder."""
    if not isinstance(commitments, (list, tuple)) or not commitments:
        raise CryptoError(f"{what}: expected one commitment list per share")
    if names is not None and len(names) != len(commitments):
        raise CryptoError(f"{what}: {len(names)} names for {len(commitments)} shares")
    shares = decrypt_shares(ciphertext, key, context, len(commitments), what)
    for j, (share, comms) in enumerate(zip(shares, commitments, strict=True)):
        label = names[j] if names else f"share {j}"
        verify_share(share, index, comms, f"{what}: {label}", threshold=threshold)
    return shares


def prove_decryption(ciphertext: str, key: bytes, context: bytes, count: int,
                     what: str = "escrow ciphertext") -> tuple[bytes, str]:
    """A holder's complaint: ``D = e R`` and a DLEQ proof that ``log_G E = log_R D`` (64 bytes),
    under the context ``lp("duelmail/escrow/decrypt/v1", context)``."""
    _check_bytes(context, "escrow context")
    check_scalar(key, "escrow key")
    r_point, _ = _parse(ciphertext, count, what)
    dh = point_mul(key, r_point)
    return dh, prove_dleq(G, base_mul(key), r_point, dh, key, lp(DECRYPT_TAG, context))


def open_with_proof(ciphertext: str, recipient: bytes, dh: bytes, proof: str, context: bytes,
                    count: int, what: str = "escrow ciphertext") -> list[bytes]:
    """Anyone: check a holder's decryption proof, then return the shares its ciphertext carried
    (unchecked; :func:`verify_share` then shows whether the dealer or the complainer cheated)."""
    _check_bytes(context, "escrow context")
    check_point(recipient, f"{what}: recipient's escrow key")
    check_point(dh, f"{what}: D")
    r_point, cs = _parse(ciphertext, count, what)
    if not verify_dleq(G, recipient, r_point, dh, proof, lp(DECRYPT_TAG, context)):
        raise CryptoError(f"{what}: the decryption proof does not verify (D {_short(dh)} is not "
                          f"the holder's key {_short(recipient)} applied to R {_short(r_point)})")
    return _unpad(context, recipient, r_point, dh, cs)
