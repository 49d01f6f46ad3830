"""SRA-style mental-poker deck over the prime-order subgroup of edwards25519 (no trusted dealer).

Face f of a deck is ``card_point(game_id, base_deck, f)``, a point hashed to the curve (never f*G).
1. Shuffle passes, in seat order: each locker permutes the deck and multiplies every card by its
   secret shuffle scalar s (``shuffle_pass``).
2. The last shuffler shuffles and locks at once: card i gets its per-position key k[i]
   (``shuffle_lock_pass``). The other lockers then lock in reverse order, swapping s for k[j]
   (``lock_pass``: one multiplication by k[j]/s). Every lock publishes K[j] = k[j]*G
   (``key_commitments``); card j is now (product of everyone's k[j]) * card point.
3. Draw of position j to seat X: every other locker publishes its k[j], checked against K[j] at
   once (``check_share``); X strips its own key privately (``unlock``) and looks the point up in
   ``card_table``. Public reveal: every locker publishes its k[j].
4. A position that unlocks (with keys matching their commitments) to a point that is no card, or to
   a face another position already gave, proves a cheat in some pass; the audit names the pass.
5. Reshuffle of locked cards: a new generation with a new deck id ("a.2"), so fresh ``LockerSecrets``.
   Every locker, in order, swaps its old per-position keys for one uniform scalar u (``unify_pass``)
   so later permutations cannot lose its keys; then shuffle passes and locks as in 1-2, each locker
   also removing its u: ``lock_pass(pts, smul(s, u), keys)``, ``shuffle_lock_pass(..., prior=u)``.
6. Audit: from every player's published game seed, recompute every ``LockerSecrets`` and every pass
   and compare with the log.
"""

from __future__ import annotations

import hmac
import re
from functools import cached_property

from duelmail.crypto.derive import Stream, hkdf
from duelmail.crypto.encoding import b64d, b64e, lp
from duelmail.crypto.group import (
    POINT_BYTES,
    SCALAR_BYTES,
    base_mul,
    check_scalar,
    hash_to_point,
    point_mul,
    sinv,
    smul,
    valid_point,
)
from duelmail.errors import CryptoError

_DECK_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def card_point(game_id: str, base_deck: str, face: int) -> bytes:
    """The point of face index ``face`` in deck ``base_deck`` of game ``game_id``."""
    return hash_to_point(b"card", game_id, base_deck, face)


def card_table(game_id: str, base_deck: str, nfaces: int) -> dict[bytes, int]:
    """Map point -> face index for faces ``0..nfaces-1``."""
    table = {card_point(game_id, base_deck, f): f for f in range(nfaces)}
    if len(table) != nfaces:  # pragma: no cover - a SHA-256 collision
        raise CryptoError(f"card points of deck {base_deck!r} collide")
    return table


def _check_perm(perm: list[int], n: int) -> None:
    if len(perm) != n or sorted(perm) != list(range(n)):
        raise CryptoError(f"not a permutation of range({n}): {perm!r}")


def _check_len(items: list, n: int, what: str) -> None:
    if len(items) != n:
        raise CryptoError(f"{what}: expected {n}, got {len(items)}")


def shuffle_pass(points: list[bytes], perm: list[int], scalar: bytes) -> list[bytes]:
    """``out[i] = scalar * points[perm[i]]``."""
    _check_perm(perm, len(points))
    check_scalar(scalar, "shuffle scalar")
    return [point_mul(scalar, points[p]) for p in perm]


def lock_pass(points: list[bytes], shuffle_scalar: bytes, keys: list[bytes]) -> list[bytes]:
    """``out[j] = (keys[j] / shuffle_scalar) * points[j]``: one multiplication per card.

    ``shuffle_scalar`` is this locker's whole layer on the cards (in a reshuffle, shuffle * unify).
    """
    _check_len(keys, len(points), "lock keys")
    inv = sinv(shuffle_scalar)
    return [point_mul(smul(k, inv), p) for k, p in zip(keys, points, strict=True)]


def shuffle_lock_pass(
    points: list[bytes], perm: list[int], keys: list[bytes], prior: bytes | None = None
) -> list[bytes]:
    """``out[i] = keys[i] * points[perm[i]]``, or ``(keys[i] / prior) * points[perm[i]]``.

    ``prior`` is this locker's layer already on the cards (its unify scalar in a reshuffle).
    """
    _check_perm(perm, len(points))
    _check_len(keys, len(points), "lock keys")
    if prior is not None:
        inv = sinv(prior)
        keys = [smul(k, inv) for k in keys]
    return [point_mul(k, points[p]) for k, p in zip(keys, perm, strict=True)]


def _batch_inverse(scalars: list[bytes]) -> list[bytes]:
    """Inverses of nonzero scalars with one inversion (Montgomery's trick)."""
    prefix = []
    acc = None
    for s in scalars:
        acc = s if acc is None else smul(acc, s)
        prefix.append(acc)
    out = [b""] * len(scalars)
    if acc is None:
        return out
    inv = sinv(acc)
    for i in range(len(scalars) - 1, 0, -1):
        out[i] = smul(inv, prefix[i - 1])
        inv = smul(inv, scalars[i])
    out[0] = inv
    return out


def unify_pass(points: list[bytes], old_keys: list[bytes], new_scalar: bytes) -> list[bytes]:
    """``out[j] = (new_scalar / old_keys[j]) * points[j]``: per-position keys -> one uniform scalar."""
    _check_len(old_keys, len(points), "old keys")
    check_scalar(new_scalar, "unify scalar")
    for j, k in enumerate(old_keys):
        check_scalar(k, f"old key {j}")
    return [point_mul(smul(new_scalar, inv), p)
            for inv, p in zip(_batch_inverse(old_keys), points, strict=True)]


def key_commitments(keys: list[bytes]) -> list[bytes]:
    """``k * G`` for each key: published with a lock, opened by key shares."""
    return [base_mul(k) for k in keys]


def check_share(key: bytes, commitment: bytes) -> bool:
    """True iff ``key`` is a valid scalar and ``key * G == commitment``."""
    try:
        check_scalar(key, "key share")
    except CryptoError:
        return False
    if not isinstance(commitment, bytes):
        return False
    return hmac.compare_digest(base_mul(key), commitment)


def unlock(point: bytes, keys: list[bytes]) -> bytes:
    """Strip every key in ``keys`` from ``point``: multiply by the inverse of their product."""
    if not keys:
        raise CryptoError("unlock needs at least one key")
    prod = check_scalar(keys[0], "key 0")
    for i, k in enumerate(keys[1:], 1):
        prod = smul(prod, check_scalar(k, f"key {i}"))
    return point_mul(sinv(prod), point)


def _encode(items: list[bytes], size: int, what: str) -> str:
    for i, item in enumerate(items):
        if not isinstance(item, bytes) or len(item) != size:
            raise CryptoError(f"{what} {i}: expected {size} bytes, got {item!r}")
    return b64e(b"".join(items))


def _split(text: str, n: int | None, what: str, size: int) -> list[bytes]:
    raw = b64d(text, what)
    if len(raw) % size:
        raise CryptoError(f"{what}: {len(raw)} bytes is not a whole number of {size}-byte items")
    count = len(raw) // size
    if n is not None and count != n:
        raise CryptoError(f"{what}: expected {n} items, got {count}")
    return [raw[i * size:(i + 1) * size] for i in range(count)]


def encode_points(points: list[bytes]) -> str:
    """b64e of the concatenated 32-byte points."""
    return _encode(points, POINT_BYTES, "point")


def decode_points(text: str, n: int | None, what: str, validate: bool = True) -> list[bytes]:
    """Decode :func:`encode_points` text, refusing a wrong count or ANY invalid point (index named).

    ``validate=False`` only for points this process computed itself (its own draft)."""
    points = _split(text, n, what, POINT_BYTES)
    for i, p in enumerate(points if validate else ()):
        if not valid_point(p):
            raise CryptoError(f"{what}: point {i} is not a point of the prime-order group: {p.hex()}")
    return points


def encode_scalars(scalars: list[bytes]) -> str:
    """b64e of the concatenated 32-byte scalars."""
    return _encode(scalars, SCALAR_BYTES, "scalar")


def decode_scalars(text: str, n: int | None, what: str) -> list[bytes]:
    """Decode :func:`encode_scalars` text, refusing a wrong count or any non-canonical or zero scalar."""
    scalars = _split(text, n, what, SCALAR_BYTES)
    for i, s in enumerate(scalars):
        check_scalar(s, f"{what}: scalar {i}")
    return scalars


class LockerSecrets:
    """One locker's secrets for one deck generation, derived from its game seed; lazily cached.

    Every stream is keyed by ``HKDF(seed, lp("duelmail/deck-seed/v2", deck_id, n, generation))``: the
    deck id ("a", then "a.1" after a reshuffle), its size and its generation (how many decks of the same
    base the game made before it) are all bound, so no two generations or sizes share a key stream.
    """

    def __init__(self, seed: bytes, deck_id: str, n: int, generation: int = 0):
        if not isinstance(deck_id, str) or not _DECK_ID.fullmatch(deck_id):
            raise CryptoError(f"deck id must be letters, digits, '.', '_' or '-': {deck_id!r}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise CryptoError(f"deck size must be a non-negative integer, got {n!r}")
        if not isinstance(generation, int) or isinstance(generation, bool) or generation < 0:
            raise CryptoError(f"deck generation must be a non-negative integer, got {generation!r}")
        self.deck_id = deck_id
        self.n = n
        self.generation = generation
        self._seed = hkdf(seed, lp("duelmail/deck-seed/v2", deck_id, n, generation))

    def __repr__(self) -> str:
        return f"LockerSecrets(deck_id={self.deck_id!r}, n={self.n}, generation={self.generation})"

    def _stream(self, what: str) -> Stream:
        return Stream(self._seed, f"deck/{what}")

    @cached_property
    def perm(self) -> list[int]:
        """This locker's shuffle permutation."""
        return self._stream("perm").permutation(self.n)

    @cached_property
    def shuffle_scalar(self) -> bytes:
        """The scalar of this locker's shuffle pass."""
        return self._stream("shuffle").scalar()

    @cached_property
    def unify_scalar(self) -> bytes:
        """The scalar that replaces the previous generation's keys before this one's reshuffle."""
        return self._stream("unify").scalar()

    @cached_property
    def keys(self) -> list[bytes]:
        """The ``n`` per-position lock keys."""
        stream = self._stream("keys")
        return [stream.scalar() for _ in range(self.n)]
