"""The prime-order group wrappers: scalar hygiene, point validation, unclamped invertible multiplication."""

from __future__ import annotations

import nacl.bindings as nb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duelmail.crypto import group as g
from duelmail.errors import CryptoError

P25519 = 2**255 - 19
D = -121665 * pow(121666, -1, P25519) % P25519

SMALL_ORDER = [bytes.fromhex(h) for h in [
    "0100000000000000000000000000000000000000000000000000000000000000",  # identity
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0000000000000000000000000000000000000000000000000000000000000080",  # order 4
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",  # order 8
]]
NON_CANONICAL = [
    (P25519 + 1).to_bytes(32, "little"),  # y = p + 1, i.e. the identity again
    P25519.to_bytes(32, "little"),  # y = p, i.e. y = 0
    b"\xff" * 32,
]


def _off_curve() -> bytes:
    """The first y whose x^2 = (y^2 - 1) / (d y^2 + 1) is not a square: no point has it."""
    for y in range(2, 1000):
        x2 = (y * y - 1) * pow(D * y * y + 1, -1, P25519) % P25519
        if pow(x2, (P25519 - 1) // 2, P25519) == P25519 - 1:
            return y.to_bytes(32, "little")
    raise AssertionError("no off-curve y found")


P = g.hash_to_point("test", 1)
TORSION_ADDED = [nb.crypto_core_ed25519_add(P, t) for t in SMALL_ORDER[1:]]  # P + each torsion point
BAD_POINTS = SMALL_ORDER + NON_CANONICAL + TORSION_ADDED + [_off_curve(), b"\x01" * 31, b"", "str"]
S = g.scalar_from_int(123456789)


def test_L_matches_libsodium():
    assert g.reduce64(g.L.to_bytes(64, "little")) == bytes(32)
    assert g.reduce64((g.L + 5).to_bytes(64, "little")) == g.scalar_from_int(5)


def test_scalar_int_round_trip():
    assert g.scalar_to_int(g.scalar_from_int(7)) == 7
    assert g.scalar_from_int(g.L + 7) == g.scalar_from_int(7)
    assert g.scalar_from_int(-1) == (g.L - 1).to_bytes(32, "little")
    with pytest.raises(CryptoError, match="zero mod L"):
        g.scalar_from_int(g.L)


@pytest.mark.parametrize("bad,msg", [
    (g.L.to_bytes(32, "little"), "not canonical"),
    ((g.L + 1).to_bytes(32, "little"), "not canonical"),
    (b"\xff" * 32, "not canonical"),
    (bytes(32), "is zero"),
    (b"\x01" * 31, "must be 32 bytes"),
    ("x" * 32, "must be 32 bytes"),
])
def test_check_scalar_refuses(bad, msg):
    with pytest.raises(CryptoError, match=f"my scalar: .*{msg}"):
        g.check_scalar(bad, "my scalar")
    with pytest.raises(CryptoError):
        g.point_mul(bad, P)
    with pytest.raises(CryptoError):
        g.base_mul(bad)


_EDGES = [0, 1, 2**248, 2**252 - 1, 2**252, g.L - 1, g.L, g.L + 1, 2**253, 2**256 - 1]


@settings(max_examples=400)
@given(st.integers(0, 2**256 - 1) | st.builds(lambda e, d: min(max(e + d, 0), 2**256 - 1), st.sampled_from(_EDGES),
                                               st.integers(-2**16, 2**16)))
def test_check_scalar_accepts_exactly_the_canonical_nonzero_scalars(v):
    """Its common case looks at the last byte (below 16: under 2**252 < L) and at zero without making an int: the
    same answer as 0 < v < L for every 32-byte scalar, those between 2**252 and L included."""
    s = v.to_bytes(32, "little")
    if 0 < v < g.L:
        assert g.check_scalar(s, "x") is s
    else:
        with pytest.raises(CryptoError, match="x: scalar is " + ("zero" if v == 0 else "not canonical")):
            g.check_scalar(s, "x")


def test_base_muls_is_base_mul_of_each_noted_valid_at_once():
    scalars = [g.scalar_from_int(k) for k in (1, 2, 3, g.L - 1)]
    g._VALID.clear()
    out = g.base_muls(scalars)
    assert out == [g.base_mul(s) for s in scalars] and set(out) <= g._VALID
    assert g.base_muls([]) == []
    with pytest.raises(CryptoError, match="multiplier: scalar is zero"):
        g.base_muls([S, bytes(32)])


def test_sinv_refuses_zero_and_inverts():
    with pytest.raises(CryptoError, match="zero"):
        g.sinv(bytes(32))
    assert g.smul(S, g.sinv(S)) == g.scalar_from_int(1)


def test_reduce64_needs_64_bytes():
    with pytest.raises(CryptoError, match="64 bytes"):
        g.reduce64(bytes(32))


@pytest.mark.parametrize("bad", BAD_POINTS, ids=lambda b: b.hex()[:12] if isinstance(b, bytes) else repr(b))
def test_bad_points_refused_everywhere(bad):
    assert not g.valid_point(bad)
    with pytest.raises(CryptoError, match="the hand"):
        g.check_point(bad, "the hand")
    with pytest.raises(CryptoError, match="point to multiply"):
        g.point_mul(S, bad)


def test_torsion_added_points_are_on_curve_but_refused():
    # These decode fine (libsodium's add accepted them); only the subgroup check refuses them.
    assert len(set(TORSION_ADDED)) == 7 and P not in TORSION_ADDED
    for q in TORSION_ADDED:
        with pytest.raises(CryptoError):
            g.point_mul(g.scalar_from_int(1), q)


@settings(max_examples=30)
@given(st.integers(1, g.L - 1), st.integers(1, g.L - 1), st.text(max_size=10))
def test_unclamped_multiplication_inverts_and_commutes(ai, bi, label):
    a, b = g.scalar_from_int(ai), g.scalar_from_int(bi)
    q = g.hash_to_point(label)
    assert g.valid_point(q)
    aq = g.point_mul(a, q)
    assert g.valid_point(aq)
    assert g.point_mul(g.sinv(a), aq) == q
    assert g.point_mul(b, aq) == g.point_mul(a, g.point_mul(b, q)) == g.point_mul(g.smul(a, b), q)
    assert g.point_mul(a, g.base_mul(b)) == g.base_mul(g.smul(a, b))


def test_base_mul_of_one_is_the_base_point():
    base = g.base_mul(g.scalar_from_int(1))
    assert base.hex() == "5866666666666666666666666666666666666666666666666666666666666666"


def test_hash_to_point_deterministic_and_separated():
    assert g.hash_to_point("a", 1) == g.hash_to_point("a", 1)
    assert g.hash_to_point("a", 1) != g.hash_to_point("a", 2)
    assert g.hash_to_point("a", b"b") != g.hash_to_point("ab")
    pts = {g.hash_to_point(b"card", i) for i in range(64)}
    assert len(pts) == 64 and all(g.valid_point(p) for p in pts)


def test_a_point_checked_once_is_not_checked_again_and_a_bad_one_is_refused_every_time(monkeypatch):
    """Issue 32 item 4: a point checked on arrival, or made by a multiplication or a hash to the curve, is not
    handed to libsodium's check again; validity depends on the 32 bytes alone. Bad points never enter the memo."""
    from duelmail.crypto.deck import decode_points, encode_points

    calls = []
    real = nb.crypto_core_ed25519_is_valid_point
    monkeypatch.setattr(nb, "crypto_core_ed25519_is_valid_point", lambda p: calls.append(p) or real(p))
    g._VALID.clear()
    points = [g.hash_to_point("memo test", i) for i in range(3)]
    arrived = [nb.crypto_scalarmult_ed25519_noclamp(g.scalar_from_int(7 + i), p) for i, p in enumerate(points)]
    text = encode_points(arrived)
    assert decode_points(text, 3, "deck") == arrived and len(calls) == 3  # checked on arrival
    assert decode_points(text, 3, "deck") == arrived and len(calls) == 3  # and never again
    assert g.check_point(arrived[0], "key") == arrived[0] and len(calls) == 3
    assert g.valid_point(g.point_mul(g.scalar_from_int(5), arrived[1])) and len(calls) == 3  # a product is a point
    assert g.valid_point(points[2]) and len(calls) == 3  # so is a hash to the curve
    for bad in (*SMALL_ORDER[1:3], NON_CANONICAL[2]):
        for _ in range(2):
            with pytest.raises(CryptoError, match="not a point of the prime-order group"):
                decode_points(encode_points([bad]), 1, "deck")
    assert len(calls) == 9 and not g._VALID & {*SMALL_ORDER, *NON_CANONICAL}
