"""Sealed self-memos: round trip, every tamper refused, context binding."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duelmail.crypto.encoding import b64d, b64e
from duelmail.crypto.seal import box_size, memo_key, open_sealed, pack, pad, seal, unpack, unpad
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


def test_pad_fixes_the_size_and_round_trips():
    """Issue 14.1: a padded block's size depends on its kind's size only."""
    assert pad(b"", 8) == bytes(8)
    assert pad(b"bid 3", 8) == b"\x00\x05bid 3\x00"
    assert {len(pad(b"x" * n, 16)) for n in range(15)} == {16}
    for n in range(15):
        assert unpad(pad(b"y" * n, 16)) == b"y" * n


def test_pad_refuses_a_value_that_does_not_fit():
    with pytest.raises(CryptoError, match=r"b'build str 10' is 12 bytes: its kind's block holds at most 10"):
        pad(b"build str 10", 12)
    with pytest.raises(CryptoError, match="block size"):
        pad(b"x", 2)


def test_unpad_refuses_a_bad_length_or_padding():
    with pytest.raises(CryptoError, match="not a well-formed padded block of 8 bytes"):
        unpad(b"\x00\x07bid 3\x00")
    with pytest.raises(CryptoError, match="not a well-formed"):
        unpad(b"\x00\x05bid 3\x01")


def test_pack_orders_by_label_and_unpack_checks_the_size():
    sizes = {"b": 4, "a": 6}
    plain = pack({"b": b"xy", "a": b"1"}, sizes)
    assert plain == b"\x00\x011\x00\x00\x00" + b"\x00\x02xy"
    assert unpack(plain, sizes) == {"a": b"1", "b": b"xy"}
    with pytest.raises(CryptoError, match="memo of 9 bytes, expected 10"):
        unpack(plain[:9], sizes)
    with pytest.raises(CryptoError, match="name different labels"):
        pack({"a": b"1"}, sizes)
    assert box_size(10) == 12 + 10 + 16


@given(st.binary(max_size=200), st.binary(max_size=60), st.binary(min_size=12, max_size=12), st.binary(min_size=32,
                                                                                                       max_size=32))
def test_the_box_is_rfc8439_chacha20_poly1305_as_the_cryptography_package_makes_it(plaintext, aad, nonce, key):
    """Sealed with libsodium's IETF ChaCha20-Poly1305 (no ``cryptography`` import on every command): the same
    bytes as that package's ChaCha20Poly1305, and its boxes open here."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    theirs = ChaCha20Poly1305(key).encrypt(nonce, plaintext, aad)
    assert seal(key, plaintext, aad, nonce) == b64e(nonce + theirs)
    assert open_sealed(key, b64e(nonce + theirs), aad) == plaintext
