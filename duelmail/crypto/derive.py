"""Deterministic derivation: HKDF, the per-game seed, and a seeded DRBG stream.

Every secret a player uses in one game (deck permutations, scalars, keys, commitment salts, the
memo key) derives from that game's seed: HKDF of the player's master secret, the game id and fresh
randomness the player drew for this game (sealed to itself in its first file, under ``entropy_key``,
so the identity and the log recover it). The game seed is published when the game ends so anyone can
recompute every pass; HKDF is one-way, so it reveals neither the master secret, nor the entropy key,
nor any other game's seed, nor the seed a replayed genesis would get (its fresh randomness is new).
"""

from __future__ import annotations

import builtins
import hashlib
import hmac

import nacl.bindings as _nb

from duelmail.crypto.encoding import lp
from duelmail.errors import CryptoError

HKDF_SALT = b"duelmail/v1"
MIN_KEY_BYTES = 16


def _check_key(key: bytes, what: str) -> None:
    if not isinstance(key, (bytes, bytearray)):
        raise CryptoError(f"{what}: expected bytes, got {type(key).__name__}")
    if len(key) < MIN_KEY_BYTES:
        raise CryptoError(f"{what}: {len(key)} bytes is too short (need at least {MIN_KEY_BYTES})")


def hkdf(key: bytes, info: str | bytes, length: int = 32) -> bytes:
    """HKDF-SHA256 (RFC 5869) of ``key`` with salt ``b"duelmail/v1"`` and context ``info`` (str as UTF-8)."""
    _check_key(key, "hkdf key")
    if isinstance(info, str):
        info = info.encode("utf-8")
    if not isinstance(info, (bytes, bytearray)):
        raise CryptoError(f"hkdf info: expected str or bytes, got {type(info).__name__}")
    if not 1 <= length <= 255 * 32:
        raise CryptoError(f"hkdf length {length} is outside 1..8160")
    return _hkdf(HKDF_SALT, bytes(key), bytes(info), length)


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869: PRK = HMAC(salt, IKM), then T(i) = HMAC(PRK, T(i-1) || info || i), HMAC-SHA256 by OpenSSL."""
    prk = hmac.digest(salt, ikm, "sha256")
    out, block = [], b""
    for i in range(1, (length + 31) // 32 + 1):
        block = hmac.digest(prk, block + info + bytes((i,)), "sha256")
        out.append(block)
    return b"".join(out)[:length]


FRESH_BYTES = 32


def _check_game_id(game_id: str) -> None:
    if not isinstance(game_id, str) or not game_id:
        raise CryptoError(f"game id must be a non-empty string, got {game_id!r}")


def game_seed(master: bytes, game_id: str, fresh: bytes) -> bytes:
    """The 32-byte seed of one game: HKDF(master, lp("duelmail/game-seed/v2", game_id, fresh))."""
    _check_key(master, "master secret")
    _check_game_id(game_id)
    if not isinstance(fresh, (bytes, bytearray)) or len(fresh) != FRESH_BYTES:
        raise CryptoError(f"a game's fresh randomness is {FRESH_BYTES} bytes, got {fresh!r:.60}")
    return hkdf(master, lp("duelmail/game-seed/v2", game_id, bytes(fresh)))


def escrow_seed(master: bytes, game_id: str, fresh: bytes) -> bytes:
    """The seed of a seat's escrow decryption key for one game: HKDF(master, lp("duelmail/escrow-seed/v2",
    game_id, fresh)). Like the game seed it needs the master secret and the game's fresh randomness, but it is
    not derived from the game seed: publishing the game seed (a retirement, the end) does not publish it."""
    _check_key(master, "master secret")
    _check_game_id(game_id)
    if not isinstance(fresh, (bytes, bytearray)) or len(fresh) != FRESH_BYTES:
        raise CryptoError(f"a game's fresh randomness is {FRESH_BYTES} bytes, got {fresh!r:.60}")
    return hkdf(master, lp("duelmail/escrow-seed/v2", game_id, bytes(fresh)))


def entropy_key(master: bytes, game_id: str) -> bytes:
    """The key that seals a seat's fresh randomness for one game to itself: never published."""
    _check_key(master, "master secret")
    _check_game_id(game_id)
    return hkdf(master, lp("duelmail/entropy-key/v1", game_id))


_EIGHT = (8).to_bytes(4, "big")


class Stream:
    """Deterministic random stream: block i = SHA-256(lp(seed, label, i)), i = 0, 1, 2, ...

    Same (seed, label) -> same outputs, in the same order of calls. Labels separate uses.
    """

    def __init__(self, seed: bytes, label: str):
        _check_key(seed, "stream seed")
        if not isinstance(label, str) or not label:
            raise CryptoError(f"stream label must be a non-empty string, got {label!r}")
        self._seed = bytes(seed)
        self._label = label
        # lp(seed, label, i) is this prefix followed by lp(i): i's length (8), then i in 8 bytes big-endian; the prefix
        # hashed once, each block a copy of that state given i (the audit draws some 8,000 blocks)
        self._head = hashlib.sha256(lp(self._seed, label) + _EIGHT)
        self._counter = 0
        self._buf = b""

    def bytes(self, n: int) -> bytes:
        """The next ``n`` bytes of the stream."""
        if n < 0:
            raise CryptoError(f"cannot draw {n} bytes")
        chunks = [self._buf]
        have = len(self._buf)
        while have < n:
            h = self._head.copy()
            h.update(self._counter.to_bytes(8, "big"))  # lp(i), i < 2**64
            block = h.digest()
            self._counter += 1
            chunks.append(block)
            have += len(block)
        data = b"".join(chunks)
        self._buf = data[n:]
        return data[:n]

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` by rejection sampling over the fewest whole bytes.

        ``n == 1`` returns 0 without consuming the stream.
        """
        if not isinstance(n, int) or n < 1:
            raise CryptoError(f"randbelow needs a positive bound, got {n!r}")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            x = int.from_bytes(self.bytes(nbytes), "big") & mask
            if x < n:
                return x

    def permutation(self, n: int) -> list[int]:
        """A uniform permutation of ``range(n)`` (Fisher-Yates, from the last index down)."""
        if not isinstance(n, int) or n < 0:
            raise CryptoError(f"permutation size must be a non-negative integer, got {n!r}")
        out = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def scalar(self) -> builtins.bytes:
        """A uniform nonzero ed25519 scalar: 64 stream bytes reduced mod L (retried if zero)."""
        while True:
            if self._buf:
                data = self.bytes(64)
            else:  # ``bytes(64)`` with nothing buffered: the next two blocks (the audit draws some 4,000 scalars)
                i, a, b = self._counter, self._head.copy(), self._head.copy()
                a.update(i.to_bytes(8, "big"))
                b.update((i + 1).to_bytes(8, "big"))
                data = a.digest() + b.digest()
                self._counter = i + 2
            s = _nb.crypto_core_ed25519_scalar_reduce(data)
            if any(s):
                return s
