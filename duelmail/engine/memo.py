"""Memos: a file's sealed choices (label -> text), sealed to their author, each padded to its kind's fixed
block (protocol section 6a).

The match seals and opens its own memos; the end-of-game audit opens everyone's with the published seeds.
Kept apart from ``match.py`` so that ``audit.py``, which ``match.py`` imports, never imports ``match.py``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from duelmail.crypto.derive import hkdf
from duelmail.crypto.encoding import lp
from duelmail.crypto.seal import memo_key, open_sealed, pack, seal, unpack
from duelmail.errors import CryptoError
from duelmail.games.base import Game


def memo_aad(game_id: str, rnd: int, seat: int, labels: Iterable[str]) -> bytes:
    """A memo's context: game, round, seat and the labels it carries (sorted, space-separated)."""
    return lp(b"duelmail/memo/v2", game_id, rnd, seat, " ".join(sorted(labels)))


def memo_sizes(game: Game, labels: Iterable[str]) -> dict[str, int]:
    """label -> the fixed block size the game declares for its kind."""
    return {lb: game.sealed_size(lb) for lb in labels}


def make_memo(game: Game, seed: bytes, game_id: str, rnd: int, seat: int, secret: dict[str, str]) -> str:
    """Seal a file's secret choices (label -> text) to their author, each padded to its kind's fixed size.

    The nonce is synthetic: one plaintext always seals alike, two different ones never share a nonce."""
    plain = pack({lb: t.encode() for lb, t in secret.items()}, memo_sizes(game, secret))
    key = memo_key(seed)
    nonce = hkdf(key, b"memo-nonce" + hashlib.sha256(plain).digest() + lp(rnd), 12)
    return seal(key, plain, memo_aad(game_id, rnd, seat, secret), nonce)


def open_memo(game: Game, seed: bytes, game_id: str, rnd: int, seat: int, box: str,
              labels: Iterable[str]) -> dict[str, str]:
    """The secret choices (label -> text) of a memo made by :func:`make_memo`; ``CryptoError`` if it does not open."""
    labels = tuple(labels)
    plain = open_sealed(memo_key(seed), box, memo_aad(game_id, rnd, seat, labels))
    try:
        return {lb: v.decode("utf-8") for lb, v in unpack(plain, memo_sizes(game, labels)).items()}
    except UnicodeDecodeError:
        raise CryptoError(f"the memo of round {rnd}, seat {seat} holds text that is not UTF-8") from None
