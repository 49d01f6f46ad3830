"""Non-interactive zero-knowledge proofs that a deck pass was done honestly (issue 10, the crypto part).

Every function is pure: points and scalars in (32-byte encodings), a proof out as unpadded URL-safe
base64 of a fixed layout (see ``proof_size``). ``docs/proofs.md`` states the protocols, transcripts,
soundness and costs; in brief:

- ``prove_dleq`` / ``verify_dleq``: Chaum-Pedersen, log_B1(P1) = log_B2(P2); (e, z), 64 bytes.
- ``prove_dleq_batch`` / ``verify_dleq_batch``: one witness per statement, one shared challenge;
  (e, z_1..z_n), 32(n+1) bytes.
- ``prove_lock`` / ``verify_lock``: lock pass ``Y[j] = a_j X[j]`` with ``K[j] = a_j C``; all n
  per-card relations folded by random challenges into one linear relation over the generators
  ``X[j] + mu rho_j C`` and proved by a compressed Sigma protocol: 32 (2 ceil(log2 n) + 2) bytes.
- ``prove_unify`` / ``verify_unify``: unify pass ``Y[j] = a_j X[j]`` with ``U = a_j K_old[j]``, same way.
- ``prove_shuffle`` / ``verify_shuffle``: ``Y[i] = s X[perm[i]]``, ``S = s B`` (B = G unless given):
  a logarithmic-size argument (permutation commitment, grand product through a Bulletproofs+
  weighted inner-product argument with the input deck as generators, and a linked scalar proof).
- ``prove_shuffle_lock`` / ``verify_shuffle_lock``: ``Y[i] = a_i X[perm[i]]`` with ``K[i] = a_i C``:
  the shuffle argument to a hidden intermediate deck ``w X[perm[i]]`` plus a per-card proof that
  ``(w/a_i) Y[i]`` is that deck, with ``Gamma = w C``.

Hygiene: every point read from a proof is validated (canonical, in the prime-order subgroup, not the
identity) and every scalar must be canonical (< L); statement points are validated by libsodium when
multiplied (every one of them is multiplied during verification, or checked explicitly). Only
unclamped multiplication is used. Every transcript starts with a per-kind domain tag and the
caller's ``context`` (the engine passes lp(game id, round, seat, deck id, pass index)). Nonces are
derived deterministically from the witness, the statement (with the context) and an optional
caller-supplied ``rng_seed`` (HKDF, then the Stream DRBG), never from ``random``.

Verifiers return False for a well-formed proof that does not verify, and raise ``CryptoError``
(naming the field) for malformed input: a proof of the wrong length, a bad point or scalar, lists of
unequal lengths, a statement point outside the group.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import nacl.bindings as _nb
from nacl.exceptions import RuntimeError as _NaclRuntimeError

from duelmail.crypto.derive import Stream, hkdf
from duelmail.crypto.encoding import b64d, b64e, lp
from duelmail.crypto.group import (
    IDENTITY,
    POINT_BYTES,
    SCALAR_BYTES,
    L,
    check_point,
    hash_to_point,
    point_add,
    valid_point,
)
from duelmail.errors import CryptoError

__all__ = [
    "G",
    "PROOF_KINDS",
    "proof_size",
    "prove_dleq",
    "verify_dleq",
    "prove_dleq_batch",
    "verify_dleq_batch",
    "prove_lock",
    "verify_lock",
    "prove_unify",
    "verify_unify",
    "prove_shuffle",
    "verify_shuffle",
    "prove_shuffle_lock",
    "verify_shuffle_lock",
    "verify_batch",
]

G = _nb.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(SCALAR_BYTES, "little"))
"""The standard base point of edwards25519."""

DLEQ_TAG = b"duelmail/dleq/v1"
DLEQ_BATCH_TAG = b"duelmail/dleq-batch/v1"
LOCK_TAG = b"duelmail/lock/v1"
UNIFY_TAG = b"duelmail/unify/v1"
SHUFFLE_TAG = b"duelmail/shuffle/v1"
SHUFFLE_LOCK_TAG = b"duelmail/shuffle-lock/v1"
GEN_TAG = b"duelmail/shuffle/gens/v1"
NONCE_TAG = b"duelmail/proof-nonce/v1"
BATCH_TAG = b"duelmail/proof-batch/v1"

PROOF_KINDS = ("dleq", "dleq_batch", "lock", "unify", "shuffle", "shuffle_lock")

Statement = tuple[bytes, bytes, bytes, bytes]
"""A DLEQ statement (B1, P1, B2, P2): log_B1(P1) == log_B2(P2)."""


# -- scalars and points ---------------------------------------------------------------------------

def _inv(k: int) -> int:
    """The inverse of a public nonzero scalar (challenges): Python's extended Euclid, about 9 times
    faster than Fermat. Secret scalars go through :func:`_batch_inv` (libsodium, constant time)."""
    return pow(k, -1, L)


def _batch_inv(ks: list[int]) -> list[int]:
    """Inverses of nonzero scalars mod L with one inversion (Montgomery's trick; libsodium's
    constant-time inversion, since the scalars may be secret)."""
    prefix, acc = [], 1
    for k in ks:
        acc = acc * k % L
        prefix.append(acc)
    inv = _sc(_nb.crypto_core_ed25519_scalar_invert(_enc(acc))) if ks else 1
    out = [0] * len(ks)
    for i in range(len(ks) - 1, 0, -1):
        out[i] = inv * prefix[i - 1] % L
        inv = inv * ks[i] % L
    if ks:
        out[0] = inv
    return out


def _sc(s: bytes) -> int:
    return int.from_bytes(s, "little")


def _enc(k: int) -> bytes:
    return (k % L).to_bytes(SCALAR_BYTES, "little")


def _witness(s: object, what: str) -> int:
    """A caller's secret scalar: 32 canonical nonzero bytes, as an int."""
    if not isinstance(s, bytes) or len(s) != SCALAR_BYTES:
        raise CryptoError(f"{what}: a scalar must be {SCALAR_BYTES} bytes")
    v = _sc(s)
    if not 0 < v < L:
        raise CryptoError(f"{what}: scalar is zero or not canonical")
    return v


def _mul(k: int, p: bytes, what: str = "point", validate: bool = True) -> bytes:
    """``k * p`` (unclamped), k any integer. libsodium validates ``p`` (subgroup, not small order);
    a zero or unit multiplier skips libsodium, so ``p`` is then validated here unless ``validate`` is
    False (the prover's own points). The result may be IDENTITY."""
    k %= L
    if validate and (k <= 1 or p == IDENTITY):
        check_point(p, what)  # refuses the identity too: never a valid statement or proof point
    if k == 0 or p == IDENTITY:
        return IDENTITY
    if k == 1:
        return p
    kb = k.to_bytes(SCALAR_BYTES, "little")
    if p == G:
        return _nb.crypto_scalarmult_ed25519_base_noclamp(kb)
    if not isinstance(p, bytes) or len(p) != POINT_BYTES:
        raise CryptoError(f"{what}: not a 32-byte point")
    try:
        return _nb.crypto_scalarmult_ed25519_noclamp(kb, p)
    except _NaclRuntimeError:
        check_point(p, what)
        raise CryptoError(f"{what}: multiplication failed") from None  # pragma: no cover


def _sub(p: bytes, q: bytes) -> bytes:
    if q == IDENTITY:
        return p
    return _nb.crypto_core_ed25519_sub(p, q)


def _sum(points: Sequence[bytes]) -> bytes:
    acc = IDENTITY
    for p in points:
        acc = point_add(acc, p)
    return acc


def _multiples(p: bytes, log: bytes | None, what: str = "point") -> Callable[[int], bytes]:
    """``k -> k p`` for the prover's own multiples of a public point. With ``log`` (the caller's
    ``log_G p``, checked: used only if ``log G == p``), one base multiplication instead of a general one."""
    if isinstance(log, bytes) and len(log) == SCALAR_BYTES and 0 < _sc(log) < L:
        lv = _sc(log)
        if _mul(lv, G, validate=False) == p:
            return lambda k: _mul(k * lv, G, validate=False)
    return lambda k: _mul(k, p, what, validate=False)


def _small_msm(points: Sequence[bytes]) -> tuple[bytes, bytes]:
    """``(sum (i+1) points[i], sum points[i])`` by additions only (2n - 2 of them, no multiplication):
    the first is the sum of the suffix sums, the second the last suffix sum. For the prover's own points."""
    acc = total = IDENTITY
    for p in reversed(points):
        acc = point_add(acc, p)
        total = point_add(total, acc)
    return total, acc


def _msm(terms: Sequence[tuple[int, bytes]], what: str = "point", validate: bool = False) -> bytes:
    """Sum of ``k * p``; terms with the same point are merged first (one multiplication each).
    Zero terms are skipped unvalidated unless ``validate`` (verifiers pass True)."""
    merged: dict[bytes, int] = {}
    for k, p in terms:
        merged[p] = (merged.get(p, 0) + k) % L
    return _sum([_mul(k, p, what, validate) for p, k in merged.items()])


class _Check:
    """Accumulates one verification equation ``sum k_i P_i == identity``; points merge by value."""

    def __init__(self) -> None:
        self.terms: dict[bytes, int] = {}
        self.names: dict[bytes, str] = {}

    def add(self, k: int, p: bytes, name: str) -> None:
        self.terms[p] = (self.terms.get(p, 0) + k) % L
        self.names.setdefault(p, name)

    def holds(self) -> bool:
        return _sum([_mul(k, p, self.names[p]) for p, k in self.terms.items()]) == IDENTITY

    def merge(self, other: _Check, weight: int) -> None:
        """Add ``weight`` times ``other``'s equation to this one (points shared by both merge)."""
        for p, k in other.terms.items():
            self.add(weight * k, p, other.names[p])


class _Pending:
    """One proof's verification short of its multi-scalar equation: ``chk`` must hold and ``extra`` (the
    parts that are not one equation, e.g. a recomputed Sigma challenge) be True. ``state`` hashes the
    final transcript state (statement, context, the absorbed proof) with every byte of the proof, so a
    batch weight drawn from it comes after everything the equation depends on (a scalar left out of
    the transcript, such as the lock proof's final z, would otherwise be chosen after the weights);
    ``rd`` names a bad proof point on an error."""

    def __init__(self, chk: _Check, extra: bool, transcript: bytes, rd: _Reader):
        self.chk, self.extra, self.rd = chk, extra, rd
        self.state = hashlib.sha512(lp(transcript, rd.raw)).digest()

    def holds(self) -> bool:
        try:
            core = self.chk.holds()
        except CryptoError:
            self.rd.check_points()
            raise
        return self.extra and core


# -- transcripts and nonces -----------------------------------------------------------------------

def _reduce(h: bytes) -> int:
    return int.from_bytes(h, "little") % L


class _Transcript:
    """Fiat-Shamir transcript: state_0 = SHA-512(lp(tag, context)); absorb: state = SHA-512(lp(state,
    label, *items)); a challenge is SHA-512(lp(state, label, counter)) mod L (nonzero; the counter
    moves past a zero), which also becomes the new state."""

    def __init__(self, tag: bytes, context: bytes):
        if not isinstance(context, bytes):
            raise CryptoError(f"proof context must be bytes, got {type(context).__name__}")
        self.state = hashlib.sha512(lp(tag, context)).digest()

    def absorb(self, label: str, *items: bytes | int) -> None:
        self.state = hashlib.sha512(lp(self.state, label, *items)).digest()

    def _draw(self, label: str, *extra: int) -> tuple[int, bytes]:
        ctr = 0
        while True:
            h = hashlib.sha512(lp(self.state, label, *extra, ctr)).digest()
            v = _reduce(h)
            if v:
                return v, h
            ctr += 1  # pragma: no cover - probability 2**-252

    def challenge(self, label: str) -> int:
        v, self.state = self._draw(label)
        return v

    def peek(self, label: str) -> int:
        """A challenge that does not advance the state (verifier-only batching weights)."""
        return self._draw(label)[0]

    def challenges(self, label: str, n: int) -> list[int]:
        out = [self._draw(label, i)[0] for i in range(n)]
        self.absorb(label, n)
        return out


def _nonce_stream(tag: bytes, digest: bytes, witness: Sequence[bytes], rng_seed: bytes | None) -> Callable[[], int]:
    """Deterministic nonces (RFC 6979 in spirit): HKDF of (witness, rng_seed) with the statement
    digest (which covers the tag and the context) as info, expanded by the Stream DRBG."""
    if rng_seed is not None and not isinstance(rng_seed, bytes):
        raise CryptoError(f"rng_seed must be bytes or None, got {type(rng_seed).__name__}")
    seed = hkdf(lp(NONCE_TAG, rng_seed or b"", *witness), lp(tag, digest))
    stream = Stream(seed, "proof-nonces")
    return lambda: _sc(stream.scalar())


# -- encoding -------------------------------------------------------------------------------------

class _Reader:
    """Parses a proof's base64 text of a known length; names the field of any bad point or scalar.

    With ``lazy``, points are validated by the verification itself (each is multiplied by libsodium,
    which refuses a point outside the group, or checked when its coefficient is 0 or 1), instead of
    twice; when the verification raises, :meth:`check_points` names the first bad proof point."""

    def __init__(self, text: str, what: str, size: int, lazy: bool = False):
        self.what = what
        self.lazy = lazy
        self.read: list[tuple[str, bytes]] = []
        self.raw = b64d(text, what)
        if len(self.raw) != size:
            raise CryptoError(f"{what}: expected {size} bytes, got {len(self.raw)}")
        self.pos = 0

    def _take(self) -> bytes:
        out = self.raw[self.pos:self.pos + 32]
        self.pos += 32
        return out

    def point(self, name: str) -> bytes:
        p = self._take()
        if self.lazy:
            self.read.append((name, p))
        elif not valid_point(p):
            raise CryptoError(f"{self.what}: {name} is not a point of the prime-order group: {p.hex()}")
        return p

    def check_points(self) -> None:
        for name, p in self.read:
            if not valid_point(p):
                raise CryptoError(f"{self.what}: {name} is not a point of the prime-order group: {p.hex()}")

    def scalar(self, name: str) -> int:
        s = self._take()
        v = _sc(s)
        if v >= L:
            self.check_points()  # a bad point read before it is named first, as without ``lazy``
            raise CryptoError(f"{self.what}: {name} is not a canonical scalar (>= L): {s.hex()}")
        return v


def _rounds(n: int) -> int:
    return (n - 1).bit_length()


def proof_size(kind: str, n: int = 1) -> int:
    """Size in bytes of a proof of ``kind`` for ``n`` cards (statements); base64 adds a third."""
    if not isinstance(n, int) or n < 1:
        raise CryptoError(f"proof size needs n >= 1, got {n!r}")
    if kind == "dleq":
        return 64
    if kind == "dleq_batch":
        return 32 * (n + 1)
    if kind in ("lock", "unify"):
        return 32 * (2 * _rounds(n) + 2)
    if kind == "shuffle":
        return 32 * (12 + 2 * _rounds(n))
    if kind == "shuffle_lock":
        return 32 * (14 + 2 * _rounds(n)) + 32 * (n + 1)
    raise CryptoError(f"unknown proof kind {kind!r}; known: {', '.join(PROOF_KINDS)}")


def _points(items: object, what: str, n: int | None = None) -> list[bytes]:
    if not isinstance(items, (list, tuple)):
        raise CryptoError(f"{what}: expected a list of points")
    if n is not None and len(items) != n:
        raise CryptoError(f"{what}: expected {n} points, got {len(items)}")
    for i, p in enumerate(items):
        if not isinstance(p, bytes) or len(p) != POINT_BYTES:
            raise CryptoError(f"{what} {i}: not a 32-byte point")
    return list(items)


def _point(p: object, what: str) -> bytes:
    if not isinstance(p, bytes) or len(p) != POINT_BYTES:
        raise CryptoError(f"{what}: not a 32-byte point")
    return p


def _perm(perm: object, n: int) -> list[int]:
    if not isinstance(perm, (list, tuple)) or len(perm) != n or sorted(perm) != list(range(n)):
        raise CryptoError(f"not a permutation of range({n}): {perm!r}")
    return list(perm)


# -- Chaum-Pedersen DLEQ, single and batched ------------------------------------------------------

def _dleq_challenge(tag: bytes, context: bytes, stmts: Sequence[Statement], commits: Sequence[bytes],
                    single: bool) -> int:
    flat = [p for st in stmts for p in st]
    if single:
        data = lp(tag, context, *flat, *commits)
    else:
        data = lp(tag, context, len(stmts), *flat, *commits)
    return _reduce(hashlib.sha512(data).digest())


def _check_stmts(stmts: object, what: str) -> list[Statement]:
    if not isinstance(stmts, (list, tuple)) or not stmts:
        raise CryptoError(f"{what}: expected a non-empty list of (B1, P1, B2, P2)")
    out = []
    for j, st in enumerate(stmts):
        if not isinstance(st, (list, tuple)) or len(st) != 4:
            raise CryptoError(f"{what} {j}: expected (B1, P1, B2, P2)")
        out.append(tuple(_point(p, f"{what} {j} {name}") for p, name in zip(st, ("B1", "P1", "B2", "P2"),
                                                                             strict=True)))
    return out


def _dleq_prove(tag: bytes, context: bytes, stmts: list[Statement], xs: list[int], rng_seed: bytes | None,
                single: bool) -> bytes:
    if not isinstance(context, bytes):
        raise CryptoError(f"proof context must be bytes, got {type(context).__name__}")
    digest = hashlib.sha512(lp(tag, context, *[p for st in stmts for p in st])).digest()
    rnd = _nonce_stream(tag, digest, [_enc(x) for x in xs], rng_seed)
    rs = [rnd() for _ in stmts]
    commits = []
    for (b1, _, b2, _), r in zip(stmts, rs, strict=True):
        commits += [_mul(r, b1), _mul(r, b2)]
    e = _dleq_challenge(tag, context, stmts, commits, single)
    return _enc(e) + b"".join(_enc(r + e * x) for r, x in zip(rs, xs, strict=True))


def _dleq_verify(tag: bytes, context: bytes, stmts: list[Statement], proof: str, what: str, single: bool) -> bool:
    if not isinstance(context, bytes):
        raise CryptoError(f"proof context must be bytes, got {type(context).__name__}")
    rd = _Reader(proof, what, 32 * (len(stmts) + 1))
    e = rd.scalar("challenge e")
    zs = [rd.scalar(f"response z{j}") for j in range(len(stmts))]
    shared: dict[bytes, bytes] = {}

    def e_times(p: bytes, name: str) -> bytes:
        if p not in shared:
            shared[p] = _mul(e, p, name)
        return shared[p]

    commits = []
    for j, ((b1, p1, b2, p2), z) in enumerate(zip(stmts, zs, strict=True)):
        commits.append(_sub(_mul(z, b1, f"statement {j} B1"), e_times(p1, f"statement {j} P1")))
        commits.append(_sub(_mul(z, b2, f"statement {j} B2"), e_times(p2, f"statement {j} P2")))
    return _dleq_challenge(tag, context, stmts, commits, single) == e


def prove_dleq(b1: bytes, p1: bytes, b2: bytes, p2: bytes, x: bytes, context: bytes,
               rng_seed: bytes | None = None) -> str:
    """Proof that ``P1 = x B1`` and ``P2 = x B2`` for the secret scalar ``x``; 64 bytes."""
    st = _check_stmts([(b1, p1, b2, p2)], "dleq statement")
    return b64e(_dleq_prove(DLEQ_TAG, context, st, [_witness(x, "dleq witness")], rng_seed, single=True))


def verify_dleq(b1: bytes, p1: bytes, b2: bytes, p2: bytes, proof: str, context: bytes) -> bool:
    """True iff ``proof`` shows log_B1(P1) == log_B2(P2) under ``context``."""
    st = _check_stmts([(b1, p1, b2, p2)], "dleq statement")
    return _dleq_verify(DLEQ_TAG, context, st, proof, "dleq proof", single=True)


def prove_dleq_batch(statements: Sequence[Statement], witnesses: Sequence[bytes], context: bytes,
                     rng_seed: bytes | None = None) -> str:
    """One proof for many DLEQ statements, each with its own witness: (e, z_1..z_n), 32(n+1) bytes."""
    st = _check_stmts(statements, "dleq statement")
    if not isinstance(witnesses, (list, tuple)) or len(witnesses) != len(st):
        raise CryptoError(f"dleq batch: expected {len(st)} witnesses")
    xs = [_witness(x, f"dleq witness {j}") for j, x in enumerate(witnesses)]
    return b64e(_dleq_prove(DLEQ_BATCH_TAG, context, st, xs, rng_seed, single=False))


def verify_dleq_batch(statements: Sequence[Statement], proof: str, context: bytes) -> bool:
    """Verify :func:`prove_dleq_batch`: 2 multiplications per statement plus one per distinct P."""
    st = _check_stmts(statements, "dleq statement")
    return _dleq_verify(DLEQ_BATCH_TAG, context, st, proof, "dleq batch proof", single=False)


# -- lock and unify passes: a compressed proof of a linked relation ----------------------------------
# Statement, per card j: Y[j] = a_j X[j] and a_j Q[j] = T[j] (lock: Q[j] = C, T[j] = K[j]; unify:
# Q[j] = K_old[j], T[j] = U). With challenge vectors eps, rho and a challenge mu, the witness
# v_j = eps_j a_j satisfies the single linear relation  <v, B> = P  over the generators
# B_j = X[j] + mu rho_j Q[j], with P = sum eps_j Y[j] + mu sum rho_j eps_j T[j]. A Sigma protocol
# (mask commitment T0, challenge e, response z = r + e v) whose response is not sent but proved by
# folding (Attema-Cramer compression): 2 ceil(log2 n) points, then one scalar.

def _linked_stmt(x: object, y: object, q: object, t: object, what: str) -> tuple[list[bytes], ...]:
    xs = _points(x, f"{what} input X")
    if not xs:
        raise CryptoError(f"{what}: empty deck")
    n = len(xs)
    return xs, _points(y, f"{what} output Y", n), _points(q, f"{what} key side", n), _points(t, f"{what} key side", n)


def _linked_challenges(tr: _Transcript, n: int) -> tuple[list[int], list[int], int]:
    return tr.challenges("eps", n), tr.challenges("rho", n), tr.challenge("mu")


def _linked_prove(tag: bytes, context: bytes, stmt: tuple[list[bytes], ...], a: list[int], common: bytes,
                  beta_of: Callable[[int, list[int]], list[int]], rng_seed: bytes | None,
                  common_log: bytes | None = None) -> str:
    """``common`` is W and ``beta_of(mu, rho)`` the scalars with mu rho_j Q[j] = beta_j W (the prover
    knows them: lock Q[j] = C = W; unify K_old[j] = U / a_j), so folding multiplies X points only.
    ``common_log`` (log_G W, optional) makes every multiple of W a base multiplication."""
    wmul = _multiples(common, common_log)
    x, y, q, t = stmt
    n = len(x)
    tr = _Transcript(tag, context)
    tr.absorb("statement", n, *x, *y, *q, *t)
    rnd = _nonce_stream(tag, tr.state, [_enc(v) for v in a], rng_seed)
    eps, rho, mu = _linked_challenges(tr, n)
    beta = beta_of(mu, rho)
    r = [rnd() for _ in range(n)]
    t0 = point_add(_msm([(r[j], x[j]) for j in range(n)]), wmul(sum(r[j] * beta[j] for j in range(n))))
    tr.absorb("T", t0)
    e = tr.challenge("e")
    z = [(r[j] + e * eps[j] * a[j]) % L for j in range(n)]
    pts, b = list(x), list(beta)
    out = [t0]
    k = 0
    while len(z) > 1:
        half, odd = divmod(len(z), 2)
        zl, zh, pl, ph, bl, bh = z[:half], z[half:2 * half], pts[:half], pts[half:2 * half], b[:half], b[half:2 * half]
        big_l = point_add(_msm([(zl[i], ph[i]) for i in range(half)]), wmul(sum(zl[i] * bh[i] for i in range(half))))
        big_r = point_add(_msm([(zh[i], pl[i]) for i in range(half)]), wmul(sum(zh[i] * bl[i] for i in range(half))))
        tr.absorb("LR", k, big_l, big_r)
        xk = tr.challenge("x")
        new_z = [(zl[i] + xk * zh[i]) % L for i in range(half)]
        new_p = [point_add(_mul(xk, pl[i], validate=False), ph[i]) for i in range(half)]
        new_b = [(xk * bl[i] + bh[i]) % L for i in range(half)]
        if odd:  # carried: z scaled by x, generator unchanged
            new_z.append(xk * z[-1] % L)
            new_p.append(pts[-1])
            new_b.append(b[-1])
        z, pts, b = new_z, new_p, new_b
        out += [big_l, big_r]
        k += 1
    return b64e(b"".join(out) + _enc(z[0]))


def _linked_check(tag: bytes, context: bytes, stmt: tuple[list[bytes], ...], proof: str, what: str) -> _Pending:
    x, y, q, t = stmt
    n = len(x)
    rounds = _rounds(n)
    rd = _Reader(proof, what, 32 * (2 * rounds + 2), lazy=True)
    t0 = rd.point("T")
    lr = []
    for k in range(rounds):
        lr += [rd.point(f"L{k}"), rd.point(f"R{k}")]
    zf = rd.scalar("z")
    tr = _Transcript(tag, context)
    tr.absorb("statement", n, *x, *y, *q, *t)
    eps, rho, mu = _linked_challenges(tr, n)
    tr.absorb("T", t0)
    e = tr.challenge("e")
    xs = []
    for k in range(rounds):
        tr.absorb("LR", k, lr[2 * k], lr[2 * k + 1])
        xs.append(tr.challenge("x"))
    # s_j: the folded generator is sum s_j B_j (low half times x_k, high half and carried times 1)
    s = [1] * n
    groups = [[j] for j in range(n)]
    for xk in xs:
        half, odd = divmod(len(groups), 2)
        for i in range(half):
            for o in groups[i]:
                s[o] = s[o] * xk % L
        groups = [groups[i] + groups[half + i] for i in range(half)] + ([groups[-1]] if odd else [])
    # P_K = prod(x) (T + e P) + sum_k prod_{i>k} x_i (L_k + x_k^2 R_k);  check  z B_K - P_K = 0
    tail = [1] * (rounds + 1)
    for k in range(rounds - 1, -1, -1):
        tail[k] = tail[k + 1] * xs[k] % L
    chk = _Check()
    for j in range(n):
        chk.add(zf * s[j], x[j], f"input X{j}")
        chk.add(zf * s[j] * mu * rho[j], q[j], f"key side {j}")
        chk.add(-tail[0] * e * eps[j], y[j], f"output Y{j}")
        chk.add(-tail[0] * e * mu * rho[j] * eps[j], t[j], f"key side {j}")
    chk.add(-tail[0], t0, "T")
    for k in range(rounds):
        chk.add(-tail[k + 1], lr[2 * k], f"L{k}")
        chk.add(-tail[k + 1] * xs[k] * xs[k], lr[2 * k + 1], f"R{k}")
    return _Pending(chk, True, tr.state, rd)


def prove_lock(x: Sequence[bytes], y: Sequence[bytes], k: Sequence[bytes], c: bytes, factors: Sequence[bytes],
               context: bytes, rng_seed: bytes | None = None, layer: bytes | None = None) -> str:
    """Lock pass: ``Y[j] = a_j X[j]`` and ``K[j] = a_j C`` (a_j = k_j / c, K[j] = k_j G, C = c G).

    ``factors[j]`` is a_j, the multiplier the pass applied. 32 (2 ceil(log2 n) + 2) bytes (448 for 52).
    ``layer`` is c if the caller has it: the proof is the same, made with base multiplications for C.
    """
    n = len(_points(x, "lock input X"))
    stmt = _linked_stmt(x, y, [_point(c, "lock layer commitment C")] * n, k, "lock")
    if not isinstance(factors, (list, tuple)) or len(factors) != n:
        raise CryptoError(f"lock: expected {n} factors")
    a = [_witness(v, f"lock factor {j}") for j, v in enumerate(factors)]
    return _linked_prove(LOCK_TAG, context, stmt, a, c, lambda mu, rho: [mu * r % L for r in rho], rng_seed, layer)


def verify_lock(x: Sequence[bytes], y: Sequence[bytes], k: Sequence[bytes], c: bytes, proof: str,
                context: bytes) -> bool:
    """Verify :func:`prove_lock`: 3n + 2 ceil(log2 n) + 2 point multiplications (C counted once)."""
    return _lock_check(x, y, k, c, proof, context).holds()


def _lock_check(x: object, y: object, k: object, c: object, proof: str, context: bytes) -> _Pending:
    n = len(_points(x, "lock input X"))
    stmt = _linked_stmt(x, y, [_point(c, "lock layer commitment C")] * n, k, "lock")
    return _linked_check(LOCK_TAG, context, stmt, proof, "lock proof")


def prove_unify(x: Sequence[bytes], y: Sequence[bytes], k_old: Sequence[bytes], u: bytes, factors: Sequence[bytes],
                context: bytes, rng_seed: bytes | None = None, layer: bytes | None = None) -> str:
    """Unify pass: ``Y[j] = a_j X[j]`` and ``U = a_j K_old[j]`` (a_j = u / k_j, U = u G).

    ``K_old[j]`` is the locker's old key commitment on input j (G for a card that entered face up,
    key 1). Same layout and size as :func:`prove_lock`. ``layer`` is u if the caller has it (speed only).
    """
    n = len(_points(x, "unify input X"))
    stmt = _linked_stmt(x, y, k_old, [_point(u, "unify commitment U")] * n, "unify")
    if not isinstance(factors, (list, tuple)) or len(factors) != n:
        raise CryptoError(f"unify: expected {n} factors")
    a = [_witness(v, f"unify factor {j}") for j, v in enumerate(factors)]
    inv = _batch_inv(a)
    return _linked_prove(UNIFY_TAG, context, stmt, a, u,
                         lambda mu, rho: [mu * rho[j] * inv[j] % L for j in range(n)], rng_seed, layer)


def verify_unify(x: Sequence[bytes], y: Sequence[bytes], k_old: Sequence[bytes], u: bytes, proof: str,
                 context: bytes) -> bool:
    """Verify :func:`prove_unify`: 3n + 2 ceil(log2 n) + 2 point multiplications (U counted once)."""
    return _unify_check(x, y, k_old, u, proof, context).holds()


def _unify_check(x: object, y: object, k_old: object, u: object, proof: str, context: bytes) -> _Pending:
    n = len(_points(x, "unify input X"))
    stmt = _linked_stmt(x, y, k_old, [_point(u, "unify commitment U")] * n, "unify")
    return _linked_check(UNIFY_TAG, context, stmt, proof, "unify proof")


# -- the shuffle argument -------------------------------------------------------------------------
# Generators: G'_i (the a side, fixed, cached), g (fixed), and h derived from the statement digest
# (so no statement point can have a component along it); the b side is the input deck X itself.

_GPRIME: list[bytes] = []
_SMALL_G: list[bytes] = []


def _gprime(n: int) -> list[bytes]:
    while len(_GPRIME) < n:
        _GPRIME.append(hash_to_point(GEN_TAG, "G", len(_GPRIME)))
    return _GPRIME[:n]


def _small_g() -> bytes:
    if not _SMALL_G:
        _SMALL_G.append(hash_to_point(GEN_TAG, "g"))
    return _SMALL_G[0]


class _Gens:
    def __init__(self, x: list[bytes], digest: bytes):
        self.n = len(x)
        self.K = _rounds(self.n)
        self.g = _small_g()
        self.h = hash_to_point(GEN_TAG, "h", digest)
        self.a_side = _gprime(self.n)
        self.b_side = list(x)


def _ypowers(y: int, count: int) -> list[int]:
    out, acc = [], 1
    for _ in range(count):
        acc = acc * y % L
        out.append(acc)
    return out


def _shifts(n: int, y: int, z: int) -> list[int]:
    """d''_j - d_j: +z/y at position 0 (the c_1 = 1 check), -1/y at every later position."""
    yinv = _inv(y)
    return [z * yinv % L] + [(-yinv) % L] * (n - 1)


def _core_prove(tr: _Transcript, gens: _Gens, x: list[bytes], perm: list[int], s: int, bmul: Callable[[int], bytes],
                rnd: Callable[[], int], want_z: bool) -> tuple[list[bytes], list[int], list[int], bytes | None]:
    """The shuffle argument for ``Y[i] = s X[perm[i]]``, ``S = s B`` (Y enters only through the
    transcript, absorbed by the caller). Returns (points, scalars, eps, Z) where Z = s <d, X> is
    the output aggregate (returned, and absorbed, only if ``want_z``). ``bmul(k)`` is k B (S = s B)."""
    n = gens.n
    g, h = gens.g, gens.h
    sigma = [0] * n
    for i, p in enumerate(perm):
        sigma[p] = i
    m = [sigma[j] + 1 for j in range(n)]
    r_m, r_f, r_c = rnd(), rnd(), rnd()
    perm_sum, x_sum = _small_msm([x[p] for p in perm])  # sum (sigma(j)+1) X_j, and sum X_j
    big_m = point_add(perm_sum, bmul(r_m))
    tr.absorb("M", big_m)
    e = tr.challenges("e", n)
    f = [e[sigma[j]] for j in range(n)]
    big_f = point_add(_msm([(f[j], x[j]) for j in range(n)]), bmul(r_f))
    tr.absorb("F", big_f)
    alpha, beta = tr.challenge("alpha"), tr.challenge("beta")
    d = [(f[j] + alpha * m[j] + beta) % L for j in range(n)]
    r_d = (r_f + alpha * r_m) % L
    big_d = point_add(_msm([(1, big_f), (alpha, big_m)]), _mul(beta, x_sum, validate=False))
    eps = [(e[i] + alpha * (i + 1) + beta) % L for i in range(n)]
    big_z = None
    if want_z:
        big_z = _sub(_mul(s, big_d, validate=False), bmul(s * r_d))
        tr.absorb("Z", big_z)
    c = [1]
    for j in range(n - 1):
        c.append(c[-1] * d[j] % L)
    big_c = _msm([(c[j], gens.a_side[j]) for j in range(n)] + [(r_c, h)])
    tr.absorb("C", big_c)
    y, z, lam = tr.challenge("y"), tr.challenge("z"), tr.challenge("lambda")
    sh = _shifts(n, y, z)
    a = list(c)
    b = [lam * (d[j] + sh[j]) % L for j in range(n)]
    alpha_h, alpha_b = r_c, lam * r_d % L
    ypow = _ypowers(y, n)
    # Folded generators are kept as (factor, point): the true generator is factor * point, so folding a
    # pair costs one multiplication (point_lo + t point_hi) instead of two; the factors go into the scalars.
    gs, hs = list(gens.a_side), list(gens.b_side)
    gf, gfi, hf, hfi = [1] * n, [1] * n, [1] * n, [1] * n
    lr: list[bytes] = []
    k = 0
    while len(a) > 1:
        half, odd = divmod(len(a), 2)
        yn = ypow[half - 1]
        yn_inv = _inv(yn)
        lo = range(half)
        a1, a2, b1, b2 = a[:half], a[half:2 * half], b[:half], b[half:2 * half]
        c_l = sum(ypow[i] * a1[i] * b2[i] for i in lo) % L
        c_r = yn * sum(ypow[i] * a2[i] * b1[i] for i in lo) % L
        d_l, d_r = rnd(), rnd()
        big_l = _msm([(a1[i] * yn_inv * gf[half + i], gs[half + i]) for i in lo]
                     + [(b2[i] * hf[i], hs[i]) for i in lo] + [(c_l, g), (d_l, h)])
        big_r = _msm([(a2[i] * yn * gf[i], gs[i]) for i in lo]
                     + [(b1[i] * hf[half + i], hs[half + i]) for i in lo] + [(c_r, g), (d_r, h)])
        tr.absorb("LR", k, big_l, big_r)
        ek = tr.challenge("x")
        eki = _inv(ek)
        # G' <- x^-1 G'_lo + x y^-n' G'_hi = (x^-1 f_lo) (P_lo + x^2 y^-n' (f_hi / f_lo) P_hi)
        # X  <- x X_lo + x^-1 X_hi         = (x f_lo) (P_lo + x^-2 (f_hi / f_lo) P_hi)
        tg, th = ek * ek * yn_inv % L, eki * eki % L
        new_gs = [point_add(gs[i], _mul(tg * gf[half + i] * gfi[i], gs[half + i], validate=False)) for i in lo]
        new_hs = [point_add(hs[i], _mul(th * hf[half + i] * hfi[i], hs[half + i], validate=False)) for i in lo]
        new_gf, new_gfi = [eki * gf[i] % L for i in lo], [ek * gfi[i] % L for i in lo]
        new_hf, new_hfi = [ek * hf[i] % L for i in lo], [eki * hfi[i] % L for i in lo]
        new_a = [(a1[i] * ek + a2[i] * yn * eki) % L for i in lo]
        new_b = [(b1[i] * eki + b2[i] * ek) % L for i in lo]
        if odd:  # the last element is carried: weight y^(2 half + 1) becomes y^(half + 1)
            new_gs.append(gs[-1])
            new_gf.append(yn_inv * gf[-1] % L)
            new_gfi.append(yn * gfi[-1] % L)
            new_hs.append(hs[-1])
            new_hf.append(hf[-1])
            new_hfi.append(hfi[-1])
            new_a.append(a[-1] * yn % L)
            new_b.append(b[-1])
        gs, hs, gf, gfi, hf, hfi, a, b = new_gs, new_hs, new_gf, new_gfi, new_hf, new_hfi, new_a, new_b
        alpha_h = (d_l * ek * ek + alpha_h + d_r * eki * eki) % L
        lr += [big_l, big_r]
        k += 1
    a0, b0 = a[0], b[0]
    r_, s_, dlt, eta, eta_b, rho = (rnd() for _ in range(6))
    big_a = _msm([(r_ * gf[0], gs[0]), (s_ * hf[0], hs[0]), (y * (r_ * b0 + s_ * a0), g), (dlt, h)])
    big_b = point_add(_msm([(y * r_ * s_, g), (eta, h)]), bmul(eta_b))
    lam_inv = _inv(lam)
    r1 = point_add(_mul(rho, big_d, validate=False), bmul(-eta_b * lam_inv * s))
    r2 = bmul(rho)
    tr.absorb("final", big_a, big_b, r1, r2)
    ef = tr.challenge("final")
    ef2 = ef * ef % L
    scalars = [(r_ + a0 * ef) % L, (s_ + b0 * ef) % L, (eta + dlt * ef + alpha_h * ef2) % L,
               (eta_b + alpha_b * ef2) % L, (rho + ef2 * s) % L]
    tr.absorb("responses", *[_enc(v) for v in scalars])
    return [big_m, big_f, big_c, *lr, big_a, big_b, r1, r2], scalars, eps, big_z


def _core_read(rd: _Reader, rounds: int) -> tuple[list[bytes], list[int]]:
    pts = [rd.point("M"), rd.point("F"), rd.point("C")]
    for k in range(rounds):
        pts += [rd.point(f"L{k}"), rd.point(f"R{k}")]
    pts += [rd.point("A"), rd.point("B"), rd.point("R1"), rd.point("R2")]
    scalars = [rd.scalar(name) for name in ("r'", "s'", "delta'", "delta'_B", "z")]
    return pts, scalars


def _core_verify(tr: _Transcript, gens: _Gens, x: list[bytes], base: bytes, big_s: bytes, pts: list[bytes],
                 scalars: list[int], z_terms: Callable[[list[int]], list[tuple[int, bytes, str]]],
                 z_point: bytes | None) -> tuple[_Check, list[int]]:
    """Replays the transcript and writes the whole argument as one multi-scalar equation (returned).

    ``z_terms(eps)`` gives the output aggregate Z as terms (plain shuffle: eps_i * Y_i);
    ``z_point`` is a prover-supplied Z (shuffle-lock), absorbed where the prover absorbed it."""
    n, K = gens.n, gens.K
    g, h = gens.g, gens.h
    big_m, big_f, big_c = pts[0], pts[1], pts[2]
    lr = pts[3:3 + 2 * K]
    big_a, big_b, r1, r2 = pts[3 + 2 * K:]
    rp, sp, dp, dbp, zz = scalars
    tr.absorb("M", big_m)
    e = tr.challenges("e", n)
    tr.absorb("F", big_f)
    alpha, beta = tr.challenge("alpha"), tr.challenge("beta")
    eps = [(e[i] + alpha * (i + 1) + beta) % L for i in range(n)]
    if z_point is not None:
        tr.absorb("Z", z_point)
    tr.absorb("C", big_c)
    y, z, lam = tr.challenge("y"), tr.challenge("z"), tr.challenge("lambda")
    xs = []
    for k in range(K):
        tr.absorb("LR", k, lr[2 * k], lr[2 * k + 1])
        xs.append(tr.challenge("x"))
    tr.absorb("final", big_a, big_b, r1, r2)
    ef = tr.challenge("final")
    tr.absorb("responses", *[_enc(v) for v in scalars])
    w1, w2 = tr.peek("batch-1"), tr.peek("batch-2")

    p_prod = 1
    for v in eps:
        p_prod = p_prod * v % L
    ypow = _ypowers(y, n)
    ef2 = ef * ef % L
    lam_inv = _inv(lam)
    # Coefficients of the folded generators on the original ones: G'_f = sum s_a[i] G'_i, X_f likewise.
    s_a, s_b = [1] * n, [1] * n
    groups = [[i] for i in range(n)]
    for k in range(K):
        half, odd = divmod(len(groups), 2)
        xk, xki = xs[k], _inv(xs[k])
        yn_inv = _inv(ypow[half - 1])
        factors = ((xki, xk), (xk * yn_inv % L, xki))
        merged = []
        for i in range(half):
            for part, (fa, fb) in ((groups[i], factors[0]), (groups[half + i], factors[1])):
                for o in part:
                    s_a[o] = s_a[o] * fa % L
                    s_b[o] = s_b[o] * fb % L
            merged.append(groups[i] + groups[half + i])
        if odd:
            for o in groups[-1]:
                s_a[o] = s_a[o] * yn_inv % L
            merged.append(groups[-1])
        groups = merged
    chk = _Check()
    # (W)  ef^2 P_fin + ef A + B - r'ef G'_f - s'ef H_f - y r's' g - delta' h - delta'_B base = 0
    #      P = C + lam D'' + lam (y^n p + z) g,  D = F + alpha M + beta sum X,  D'' = D + sum shift_j X_j
    # (L1) zz D - (delta'_B / lam) S - R1 - ef^2 Z = 0      (weight w1)
    # (L2) zz base - R2 - ef^2 S = 0                        (weight w2)
    d_coef = (ef2 * lam + w1 * zz) % L
    chk.add(d_coef, big_f, "F")
    chk.add(d_coef * alpha, big_m, "M")
    sh = _shifts(n, y, z)
    for j in range(n):
        chk.add(d_coef * beta + ef2 * lam * sh[j] - sp * ef * s_b[j], x[j], f"input X{j}")
        chk.add(-rp * ef * s_a[j], gens.a_side[j], f"generator G'{j}")
    chk.add(ef2, big_c, "C")
    for k in range(K):
        xk2 = xs[k] * xs[k] % L
        chk.add(ef2 * xk2, lr[2 * k], f"L{k}")
        chk.add(ef2 * _inv(xk2), lr[2 * k + 1], f"R{k}")
    chk.add(ef, big_a, "A")
    chk.add(1, big_b, "B")
    chk.add(ef2 * lam * (ypow[n - 1] * p_prod + z) - y * rp * sp, g, "g")
    chk.add(-dp, h, "h")
    chk.add(-dbp + w2 * zz, base, "base")
    chk.add(-w1 * dbp * lam_inv - w2 * ef2, big_s, "S")
    chk.add(-w1, r1, "R1")
    chk.add(-w2, r2, "R2")
    if z_point is not None:
        chk.add(-w1 * ef2, z_point, "Z")
    else:
        for k_i, p, name in z_terms(eps):
            chk.add(-w1 * ef2 * k_i, p, name)
    return chk, eps


def _shuffle_stmt(x: object, y: object, what: str) -> tuple[list[bytes], list[bytes]]:
    xs = _points(x, f"{what} input X")
    if not xs:
        raise CryptoError(f"{what}: empty deck")
    return xs, _points(y, f"{what} output Y", len(xs))


def prove_shuffle(x: Sequence[bytes], y: Sequence[bytes], perm: Sequence[int], s: bytes, context: bytes,
                  rng_seed: bytes | None = None, base: bytes | None = None, layer: bytes | None = None) -> str:
    """Proof that ``Y[i] = s X[perm[i]]`` with ``S = s B`` public (B = ``base``, default G).

    The witness is (perm, s); S is recomputed here. 32 (12 + 2 ceil(log2 n)) bytes (768 for 52).
    ``layer`` is log_G B if the caller has it (the same proof, with base multiplications for B).
    """
    xs, ys = _shuffle_stmt(x, y, "shuffle")
    perm = _perm(perm, len(xs))
    sv = _witness(s, "shuffle scalar")
    base = G if base is None else _point(base, "shuffle base")
    big_s = _mul(sv, base, "shuffle base")
    tr = _Transcript(SHUFFLE_TAG, context)
    tr.absorb("statement", len(xs), base, big_s, *xs, *ys)
    rnd = _nonce_stream(SHUFFLE_TAG, tr.state, [_enc(sv), lp(*perm)], rng_seed)
    gens = _Gens(xs, tr.state)
    pts, scalars, _, _ = _core_prove(tr, gens, xs, perm, sv, _multiples(base, layer, "shuffle base"), rnd, want_z=False)
    return b64e(b"".join(pts) + b"".join(_enc(v) for v in scalars))


def verify_shuffle(x: Sequence[bytes], y: Sequence[bytes], big_s: bytes, proof: str, context: bytes,
                   base: bytes | None = None) -> bool:
    """Verify :func:`prove_shuffle`: about 3n + 2 log2 n + 12 point multiplications in all."""
    return _shuffle_check(x, y, big_s, proof, context, base).holds()


def _shuffle_check(x: object, y: object, big_s: object, proof: str, context: bytes, base: object = None) -> _Pending:
    xs, ys = _shuffle_stmt(x, y, "shuffle")
    big_s = _point(big_s, "shuffle commitment S")
    base = G if base is None else _point(base, "shuffle base")
    rd = _Reader(proof, "shuffle proof", proof_size("shuffle", len(xs)), lazy=True)
    pts, scalars = _core_read(rd, _rounds(len(xs)))
    tr = _Transcript(SHUFFLE_TAG, context)
    tr.absorb("statement", len(xs), base, big_s, *xs, *ys)
    gens = _Gens(xs, tr.state)

    def z_terms(eps: list[int]) -> list[tuple[int, bytes, str]]:
        return [(eps[i], ys[i], f"output Y{i}") for i in range(len(ys))]

    chk, _ = _core_verify(tr, gens, xs, base, big_s, pts, scalars, z_terms, None)
    return _Pending(chk, True, tr.state, rd)


# -- shuffle and lock at once ---------------------------------------------------------------------

def _shuffle_lock_stmt(x: object, y: object, k: object, c: object
                       ) -> tuple[list[bytes], list[bytes], list[bytes], bytes]:
    xs, ys = _shuffle_stmt(x, y, "shuffle-lock")
    ks = _points(k, "shuffle-lock key commitments K", len(xs))
    return xs, ys, ks, _point(c, "shuffle-lock layer commitment C")


def prove_shuffle_lock(x: Sequence[bytes], y: Sequence[bytes], k: Sequence[bytes], c: bytes, perm: Sequence[int],
                       factors: Sequence[bytes], context: bytes, rng_seed: bytes | None = None,
                       layer: bytes | None = None) -> str:
    """Proof that ``Y[i] = a_i X[perm[i]]`` and ``K[i] = a_i C`` (a_i = k_i / c; C = G if no layer).

    A fresh secret w gives the hidden deck ``W[i] = w X[perm[i]]`` and ``Gamma = w C``: the shuffle
    argument proves W (through its aggregate Z) is a shuffle of X with base C; a batch Sigma proof
    shows ``u_i K[i] = Gamma`` and ``sum eps_i u_i Y[i] = Z`` (u_i = w / a_i), i.e. ``W[i] = u_i Y[i]``.
    ``layer`` is c if the caller has it (the same proof, with base multiplications for C).
    """
    xs, ys, ks, c = _shuffle_lock_stmt(x, y, k, c)
    n = len(xs)
    perm = _perm(perm, n)
    if not isinstance(factors, (list, tuple)) or len(factors) != n:
        raise CryptoError(f"shuffle-lock: expected {n} factors")
    av = [_witness(a, f"shuffle-lock factor {i}") for i, a in enumerate(factors)]
    tr = _Transcript(SHUFFLE_LOCK_TAG, context)
    tr.absorb("statement", n, c, *xs, *ys, *ks)
    rnd = _nonce_stream(SHUFFLE_LOCK_TAG, tr.state, [lp(*perm), *[_enc(a) for a in av]], rng_seed)
    w = rnd()
    cmul = _multiples(c, layer, "shuffle-lock layer commitment C")
    gamma = cmul(w)
    tr.absorb("Gamma", gamma)
    gens = _Gens(xs, tr.state)
    pts, scalars, eps, big_z = _core_prove(tr, gens, xs, perm, w, cmul, rnd, want_z=True)
    u = [w * ai % L for ai in _batch_inv(av)]
    rs = [rnd() for _ in range(n)]
    commits = [cmul(rs[i] * av[i]) for i in range(n)]  # = rs[i] K[i], as multiples of C
    r_y = _msm([(eps[i] * rs[i], ys[i]) for i in range(n)])
    tr.absorb("sigma", *commits, r_y)
    es = tr.challenge("sigma")
    zs = [(rs[i] + es * u[i]) % L for i in range(n)]
    return b64e(gamma + big_z + b"".join(pts) + b"".join(_enc(v) for v in scalars) + _enc(es)
                + b"".join(_enc(v) for v in zs))


def verify_shuffle_lock(x: Sequence[bytes], y: Sequence[bytes], k: Sequence[bytes], c: bytes, proof: str,
                        context: bytes) -> bool:
    """Verify :func:`prove_shuffle_lock`: about 4n + 2 log2 n + 15 point multiplications."""
    return _shuffle_lock_check(x, y, k, c, proof, context).holds()


def _shuffle_lock_check(x: object, y: object, k: object, c: object, proof: str, context: bytes) -> _Pending:
    """The Sigma part is checked here (its challenge hashes the recomputed commitments, so it is no
    equation to batch); the shuffle argument is left as the returned equation."""
    xs, ys, ks, c = _shuffle_lock_stmt(x, y, k, c)
    n = len(xs)
    rd = _Reader(proof, "shuffle-lock proof", proof_size("shuffle_lock", n), lazy=True)
    gamma, big_z = rd.point("Gamma"), rd.point("Z")
    pts, scalars = _core_read(rd, _rounds(n))
    es = rd.scalar("sigma challenge")
    zs = [rd.scalar(f"sigma response {i}") for i in range(n)]
    tr = _Transcript(SHUFFLE_LOCK_TAG, context)
    tr.absorb("statement", n, c, *xs, *ys, *ks)
    tr.absorb("Gamma", gamma)
    gens = _Gens(xs, tr.state)
    chk, eps = _core_verify(tr, gens, xs, c, gamma, pts, scalars, lambda _eps: [], big_z)
    try:
        # the sigma part runs whatever the core gives, so a bad K or Y point always raises CryptoError
        e_gamma = _mul(es, gamma, "Gamma")
        commits = [_sub(_mul(zs[i], ks[i], f"key commitment K{i}"), e_gamma) for i in range(n)]
        r_y = _sub(_msm([(eps[i] * zs[i], ys[i]) for i in range(n)], "shuffle-lock output Y", validate=True),
                   _mul(es, big_z, "Z"))
    except CryptoError:
        rd.check_points()
        raise
    tr.absorb("sigma", *commits, r_y)
    return _Pending(chk, tr.challenge("sigma") == es, tr.state, rd)


# -- several proofs at once -----------------------------------------------------------------------

_CHECKS: dict[str, Callable[..., _Pending]] = {
    "shuffle": _shuffle_check,
    "shuffle_lock": _shuffle_lock_check,
    "lock": _lock_check,
    "unify": _unify_check,
}


def verify_batch(items: Sequence[tuple[str, Sequence[object]]]) -> bool:
    """Verify several proofs at once: ``items`` are ``(kind, args)``, ``args`` the positional arguments of
    ``verify_<kind>`` (kind: shuffle, shuffle_lock, lock, unify; a shuffle's ``base`` is its sixth).

    True iff every proof verifies, with the same soundness: each proof's multi-scalar equation is
    weighted by a scalar hashed from every proof's final transcript state (the small-exponent batch test
    of Bellare, Garay and Rabin), so a failing one passes with probability 1/L per hash query; their sum
    is one equation, in which a point shared by several proofs (the generators G', g, G, the output deck
    of one pass that is the input of the next) is multiplied once. Raises ``CryptoError`` like the
    single verifiers for malformed input (the first bad item is named by its own verifier).
    """
    pending = []
    for kind, args in items:
        if kind not in _CHECKS:
            raise CryptoError(f"proof batch: unknown kind {kind!r}; known: {', '.join(_CHECKS)}")
        pending.append(_CHECKS[kind](*args))
    if not pending:
        return True
    digest = hashlib.sha512(lp(BATCH_TAG, len(pending), *[p.state for p in pending])).digest()
    total = _Check()
    for i, p in enumerate(pending):
        total.merge(p.chk, _reduce(hashlib.sha512(lp(digest, i)).digest()) or 1)
    try:
        ok = total.holds()
    except CryptoError:
        for p in pending:
            p.holds()  # names the bad point as its own verifier would
        raise
    return ok and all(p.extra for p in pending)

