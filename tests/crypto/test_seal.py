"""Sealed self-memos: round trip, every tamper refused, context binding."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duelmail.crypto.encoding import b64d, b64e
from duelmail.crypto.seal import memo_key, open_sealed, seal
from duelmail.errors import CryptoError

KEY = memo_key(bytes(range(32)))
NONCE = bytes(12)
FAIL = "sealed memo does not open: wrong key, tampered, or wrong context"


def test_memo_key():
    assert len(KEY) == 32
    assert KEY == memo_key(bytes(range(32)))
    assert KEY != memo_key(bytes(range(1, 33)))


def test_round_trip_and_layout():
    box = seal(KEY, b"face down: KH", b"game-1/7/0", NONCE)
    raw = b64d(box, "box")
    assert raw[:12] == NONCE and len(raw) == 12 + 13 + 16
    assert open_sealed(KEY, box, b"game-1/7/0") == b"face down: KH"


@given(st.binary(max_size=64), st.binary(max_size=32), st.binary(min_size=12, max_size=12))
def test_round_trip_property(plaintext, aad, nonce):
    assert open_sealed(KEY, seal(KEY, plaintext, aad, nonce), aad) == plaintext


@given(st.binary(max_size=40), st.binary(max_size=16), st.data())
def test_any_single_byte_tamper_fails(plaintext, aad, data):
    raw = bytearray(b64d(seal(KEY, plaintext, aad, NONCE), "box"))
    i = data.draw(st.integers(0, len(raw) - 1))
    raw[i] ^= data.draw(st.integers(1, 255))
    with pytest.raises(CryptoError, match=FAIL):
        open_sealed(KEY, b64e(bytes(raw)), aad)


def test_wrong_key_or_context_fails():
    box = seal(KEY, b"x", b"ctx", NONCE)
    with pytest.raises(CryptoError, match=FAIL):
        open_sealed(memo_key(bytes(range(1, 33))), box, b"ctx")
    with pytest.raises(CryptoError, match=FAIL):
        open_sealed(KEY, box, b"ctx2")


def test_truncated_or_malformed_boxes():
    box = seal(KEY, b"x", b"", NONCE)
    with pytest.raises(CryptoError, match=FAIL):
        open_sealed(KEY, b64e(b64d(box, "box")[:20]), b"")
    with pytest.raises(CryptoError, match="sealed memo: not URL-safe base64"):
        open_sealed(KEY, box + "!", b"")


def test_bad_key_and_nonce_refused():
    with pytest.raises(CryptoError, match="nonce must be 12 bytes"):
        seal(KEY, b"x", b"", bytes(8))
    with pytest.raises(CryptoError, match="memo key must be 32 bytes, got 5 bytes"):
        seal(b"short", b"x", b"", NONCE)
    with pytest.raises(CryptoError, match="seal needs bytes, got str"):
        seal(KEY, "text", b"", NONCE)
    with pytest.raises(CryptoError, match="context must be bytes"):
        open_sealed(KEY, seal(KEY, b"x", b"", NONCE), "ctx")
