"""Encoding (b64, lp), HKDF, game seeds and the deterministic Stream."""

from __future__ import annotations

import base64
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duelmail.crypto.derive import Stream, entropy_key, game_seed, hkdf
from duelmail.crypto.encoding import b64d, b64e, lp
from duelmail.crypto.group import L
from duelmail.errors import CryptoError

SEED = bytes(range(32))


# --- encoding -------------------------------------------------------------------------------

@given(st.binary(max_size=200))
def test_b64_round_trip_without_padding(data):
    text = b64e(data)
    assert "=" not in text and "+" not in text and "/" not in text
    assert b64d(text, "blob") == data


def test_b64d_accepts_missing_and_correct_padding():
    assert b64d("YQ", "x") == b"a"
    assert b64d("YQ==", "x") == b"a"
    assert b64d("YWI", "x") == b"ab"
    assert b64d("YWI=", "x") == b"ab"
    assert b64d("", "x") == b""


@pytest.mark.parametrize("bad", ["YQ=", "YWI==", "YQ===", "Y", "a+b/", "ab cd", "YQ=Q", "====", "YR"])
def test_b64d_refuses_bad_text_and_names_the_field(bad):
    with pytest.raises(CryptoError, match="the field"):
        b64d(bad, "the field")


def _b64d_by_regex(text: str) -> bytes | str:
    """The decoder ``b64d`` was before issue 42 (a regular expression, a decode and a re-encode): the bytes, or the
    start of the refusal's words. ``b64d`` refuses exactly what it refused, with the same words."""
    body = text.rstrip("=")
    pad = len(text) - len(body)
    if not re.fullmatch(r"[A-Za-z0-9_-]*", body) or len(body) % 4 == 1 or (
            pad and (pad > 2 or (len(body) + pad) % 4)):
        return "f: not URL-safe base64"
    data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    if base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii") != body:
        return "f: non-canonical base64"
    return data


_B64_TEXT = st.text(alphabet=st.sampled_from("AQgwBCDYZaz09-_+/=\n é\x00"), max_size=12) | st.builds(
    lambda data, cut, tail: b64e(data)[:len(b64e(data)) - cut] + tail, st.binary(max_size=20), st.integers(0, 2),
    st.sampled_from(["", "=", "==", "===", "+", "/", " ", "\n", "A", "=A"]))


def _same_as_by_regex(text: str) -> None:
    want = _b64d_by_regex(text)
    try:
        got = b64d(text, "f")
    except CryptoError as e:
        assert isinstance(want, str) and str(e).startswith(want), (text, want, str(e))
    else:
        assert got == want, (text, want, got)


@given(_B64_TEXT)
def test_b64d_refuses_what_the_regular_expression_refused(text):
    _same_as_by_regex(text)


@pytest.mark.parametrize("text", ["YR", "YWJ", "YW=", "YQ=\n", "YQ\n", "Y+==", "YQ/=", "\u0663\u0663\u0663\u0663",
                                  "YQ==YQ==", "=YQ=", "YWI=" * 3 + "=", "QUJDRA=="[:7] + "B"])
def test_b64d_strict_cases(text):
    _same_as_by_regex(text)


def test_b64d_refuses_non_string():
    with pytest.raises(CryptoError, match="blob: expected base64 text, got bytes"):
        b64d(b"YQ", "blob")


def test_lp_layout():
    assert lp(b"ab", "c", 1) == (b"\x00\x00\x00\x02ab" + b"\x00\x00\x00\x01c"
                                 + b"\x00\x00\x00\x08" + (1).to_bytes(8, "big"))
    assert lp() == b""


@pytest.mark.parametrize("bad", [-1, 2**64, True, 1.5, None, ["x"]])
def test_lp_refuses_other_types_and_ranges(bad):
    with pytest.raises(CryptoError, match="lp part 1"):
        lp(b"ok", bad)


@given(st.lists(st.binary(max_size=8), max_size=4), st.lists(st.binary(max_size=8), max_size=4))
def test_lp_injective_on_byte_lists(a, b):
    assert (lp(*a) == lp(*b)) == (a == b)


@given(st.tuples(st.text(max_size=6), st.integers(0, 2**64 - 1), st.binary(max_size=6)),
       st.tuples(st.text(max_size=6), st.integers(0, 2**64 - 1), st.binary(max_size=6)))
def test_lp_injective_on_str_int_bytes(a, b):
    assert (lp(*a) == lp(*b)) == (a == b)


@given(st.binary(max_size=6), st.binary(max_size=6), st.binary(max_size=6), st.binary(max_size=6))
def test_lp_no_boundary_shifting(a, b, c, d):
    assert (lp(a, b) == lp(c, d)) == ((a, b) == (c, d))


# --- hkdf / game seed -----------------------------------------------------------------------

def test_hkdf_deterministic_and_separated():
    assert hkdf(SEED, "x") == hkdf(SEED, b"x")
    assert len(hkdf(SEED, "x")) == 32 and len(hkdf(SEED, "x", 77)) == 77
    assert hkdf(SEED, "x") != hkdf(SEED, "y")
    assert hkdf(SEED, "x", 64)[:32] == hkdf(SEED, "x")


@given(st.binary(min_size=16, max_size=80), st.binary(max_size=80), st.integers(1, 300))
def test_hkdf_is_rfc5869_as_the_cryptography_package_computes_it(key, info, length):
    """hkdf is HMAC-SHA256 extract-and-expand in a few lines of ``hmac`` (no ``cryptography`` import on every
    command): the same bytes as that package's HKDF, for any key, context and length."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    want = HKDF(algorithm=hashes.SHA256(), length=length, salt=b"duelmail/v1", info=info).derive(key)
    assert hkdf(key, info, length) == want


# RFC 5869 appendix A, test cases 1-3 (SHA-256): IKM, salt, info, L, OKM
RFC5869 = [
    ("0b" * 22, "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9", 42,
     "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
    (bytes(range(0x00, 0x50)).hex(), bytes(range(0x60, 0xB0)).hex(), bytes(range(0xB0, 0x100)).hex(), 82,
     "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09"
     "da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
    ("0b" * 22, "", "", 42,
     "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
]


@pytest.mark.parametrize("ikm, salt, info, length, okm", RFC5869)
def test_hkdf_by_hashlib_gives_rfc5869s_vectors(ikm, salt, info, length, okm):
    """HKDF as duelmail computes it gives RFC 5869's own vectors (any salt: duelmail's is fixed), a salt longer
    than SHA-256's block (hashed first) and an empty one included."""
    from duelmail.crypto.derive import _hkdf

    assert _hkdf(bytes.fromhex(salt), bytes.fromhex(ikm), bytes.fromhex(info), length).hex() == okm


@given(st.binary(min_size=16, max_size=200), st.binary(max_size=200), st.integers(1, 300))
def test_hkdf_gives_the_bytes_of_hmac_extract_and_expand(key, info, length):
    """The same bytes as HKDF written with ``hmac.digest`` alone, as it was before (issue 42 item 5)."""
    import hmac

    prk = hmac.digest(b"duelmail/v1", key, "sha256")
    out, block = b"", b""
    for i in range(1, (length + 31) // 32 + 1):
        block = hmac.digest(prk, block + info + bytes([i]), "sha256")
        out += block
    assert hkdf(key, info, length) == out[:length]
    assert hkdf(bytearray(key), bytearray(info), length) == out[:length]


@pytest.mark.parametrize("key", [b"", b"short", "a string of text that is long", None])
def test_hkdf_refuses_weak_or_wrong_keys(key):
    with pytest.raises(CryptoError, match="hkdf key"):
        hkdf(key, "x")


def test_hkdf_refuses_bad_length_and_info():
    with pytest.raises(CryptoError, match="length 0"):
        hkdf(SEED, "x", 0)
    with pytest.raises(CryptoError, match="info"):
        hkdf(SEED, 5)


FRESH = bytes(range(100, 132))


def test_game_seed():
    s = game_seed(SEED, "game-1", FRESH)
    assert len(s) == 32
    assert s == game_seed(SEED, "game-1", FRESH)
    assert s != game_seed(SEED, "game-2", FRESH)
    assert s != SEED and SEED not in s
    assert s != game_seed(bytes(range(1, 33)), "game-1", FRESH)
    with pytest.raises(CryptoError, match="game id"):
        game_seed(SEED, "", FRESH)


def test_game_seed_mixes_fresh_randomness():
    """Issue 14.4: the same identity and game id give another seed with other fresh randomness (a replayed
    genesis gets new secrets), and the key that seals the randomness is neither seed."""
    s = game_seed(SEED, "game-1", FRESH)
    assert s != game_seed(SEED, "game-1", bytes(32))
    key = entropy_key(SEED, "game-1")
    assert len(key) == 32 and key not in (s, game_seed(SEED, "game-1", bytes(32)))
    assert key == entropy_key(SEED, "game-1") != entropy_key(SEED, "game-2")
    for bad in (b"", bytes(31), bytes(33), "x" * 32):
        with pytest.raises(CryptoError, match="fresh randomness is 32 bytes"):
            game_seed(SEED, "game-1", bad)


# --- Stream ---------------------------------------------------------------------------------

def test_stream_deterministic_and_chunking_independent():
    a = Stream(SEED, "lbl")
    whole = a.bytes(100)
    b = Stream(SEED, "lbl")
    assert b.bytes(7) + b.bytes(0) + b.bytes(50) + b.bytes(43) == whole
    assert Stream(SEED, "other").bytes(100) != whole
    assert Stream(bytes(range(1, 33)), "lbl").bytes(100) != whole


def test_stream_refuses_bad_inputs():
    with pytest.raises(CryptoError, match="stream seed"):
        Stream(b"tiny", "x")
    with pytest.raises(CryptoError, match="label"):
        Stream(SEED, "")
    s = Stream(SEED, "x")
    for bad in (0, -3):
        with pytest.raises(CryptoError, match=f"got {bad}"):
            s.randbelow(bad)
    with pytest.raises(CryptoError, match="-1"):
        s.permutation(-1)
    with pytest.raises(CryptoError, match="-1"):
        s.bytes(-1)


def test_randbelow_one_consumes_nothing():
    a, b = Stream(SEED, "x"), Stream(SEED, "x")
    assert a.randbelow(1) == 0
    assert a.bytes(5) == b.bytes(5)


def test_randbelow_roughly_uniform():
    s = Stream(SEED, "uniform")
    counts = [0] * 3
    for _ in range(3000):
        counts[s.randbelow(3)] += 1
    assert all(900 < c < 1100 for c in counts), counts


@given(st.binary(min_size=16, max_size=40), st.integers(1, 2**70))
def test_randbelow_in_range(seed, n):
    s = Stream(seed, "rb")
    for _ in range(5):
        assert 0 <= s.randbelow(n) < n


@given(st.binary(min_size=16, max_size=40), st.integers(0, 120))
def test_permutation_is_a_permutation(seed, n):
    perm = Stream(seed, "perm").permutation(n)
    assert sorted(perm) == list(range(n))


def test_permutation_varies_with_seed():
    perms = {tuple(Stream(bytes([i]) * 32, "p").permutation(10)) for i in range(20)}
    assert len(perms) == 20


@given(st.binary(min_size=16, max_size=40))
def test_scalar_canonical_nonzero(seed):
    s = Stream(seed, "sc")
    for _ in range(3):
        x = s.scalar()
        assert len(x) == 32 and 0 < int.from_bytes(x, "little") < L
