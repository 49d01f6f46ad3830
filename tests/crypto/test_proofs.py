"""Zero-knowledge proofs of deck passes: completeness, tampering refused, hygiene, known answers, wiring."""

from __future__ import annotations

import json
from pathlib import Path

import nacl.bindings as nb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duelmail.crypto import deck
from duelmail.crypto import group as g
from duelmail.crypto import proofs as P
from duelmail.crypto.derive import Stream, game_seed
from duelmail.crypto.encoding import b64d, b64e, lp
from duelmail.errors import CryptoError

GAME = "g-proofs"
TORSION8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")  # order 8
V = json.loads((Path(__file__).parents[1] / "vectors" / "proofs.json").read_text(encoding="utf-8"))
H = bytes.fromhex
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ctx(deck_id: str = "a.1", index: int = 0, seat: int = 0, game: str = GAME) -> bytes:
    return lp(game, 1, seat, deck_id, index)


def cards(n: int, base: str = "std") -> list[bytes]:
    return [deck.card_point(GAME, base, f) for f in range(n)]


def scalars(seed: int, k: int) -> list[bytes]:
    stream = Stream(seed.to_bytes(32, "big"), "test/proofs")
    return [stream.scalar() for _ in range(k)]


def perm_of(seed: int, n: int) -> list[int]:
    return Stream(seed.to_bytes(32, "big"), "test/perm").permutation(n)


def off_subgroup(p: bytes) -> bytes:
    return nb.crypto_core_ed25519_add(p, TORSION8)


# -- statements built the way the deck module builds passes --------------------------------------------

def shuffle_case(n: int, seed: int = 1, base: bytes | None = None):
    x = cards(n)
    perm, (s,) = perm_of(seed, n), scalars(seed, 1)
    y = deck.shuffle_pass(x, perm, s)
    big_s = g.point_mul(s, base) if base else g.base_mul(s)
    return x, y, perm, s, big_s


def lock_case(n: int, seed: int = 2):
    x = cards(n)
    c, *keys = scalars(seed, n + 1)
    big_c, big_k = g.base_mul(c), deck.key_commitments(keys)
    factors = [g.smul(k, g.sinv(c)) for k in keys]
    y = deck.lock_pass(x, c, keys)
    return x, y, big_k, big_c, factors


def unify_case(n: int, seed: int = 3):
    x = cards(n)
    u, *keys = scalars(seed, n + 1)
    big_u, big_k = g.base_mul(u), deck.key_commitments(keys)
    factors = [g.smul(u, g.sinv(k)) for k in keys]
    y = deck.unify_pass(x, keys, u)
    return x, y, big_k, big_u, factors


def shuffle_lock_case(n: int, seed: int = 4, prior: bool = True):
    x = cards(n)
    c, *keys = scalars(seed, n + 1)
    perm = perm_of(seed, n)
    big_c = g.base_mul(c) if prior else P.G
    factors = [g.smul(k, g.sinv(c)) for k in keys] if prior else keys
    y = deck.shuffle_lock_pass(x, perm, keys, c if prior else None)
    return x, y, deck.key_commitments(keys), big_c, perm, factors


# -- completeness and sizes -----------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 10, 54])
def test_shuffle_complete(n):
    x, y, perm, s, big_s = shuffle_case(n)
    proof = P.prove_shuffle(x, y, perm, s, ctx())
    assert len(b64d(proof, "proof")) == P.proof_size("shuffle", n)
    assert P.verify_shuffle(x, y, big_s, proof, ctx())


@pytest.mark.parametrize("n", [1, 2, 3, 10, 54])
def test_shuffle_lock_complete(n):
    x, y, k, c, perm, factors = shuffle_lock_case(n)
    proof = P.prove_shuffle_lock(x, y, k, c, perm, factors, ctx())
    assert len(b64d(proof, "proof")) == P.proof_size("shuffle_lock", n)
    assert P.verify_shuffle_lock(x, y, k, c, proof, ctx())


@pytest.mark.parametrize("n", [1, 2, 3, 10, 54])
def test_lock_and_unify_complete(n):
    x, y, k, c, factors = lock_case(n)
    proof = P.prove_lock(x, y, k, c, factors, ctx())
    assert len(b64d(proof, "proof")) == P.proof_size("lock", n) == 32 * (2 * (n - 1).bit_length() + 2)
    assert P.verify_lock(x, y, k, c, proof, ctx())
    x, y, k, u, factors = unify_case(n)
    proof = P.prove_unify(x, y, k, u, factors, ctx())
    assert P.verify_unify(x, y, k, u, proof, ctx())


@pytest.mark.parametrize("n", [5, 7, 13, 33])
def test_odd_lengths_fold_with_a_carried_element(n):
    x, y, perm, s, big_s = shuffle_case(n, seed=n)
    assert P.verify_shuffle(x, y, big_s, P.prove_shuffle(x, y, perm, s, ctx()), ctx())
    x, y, k, c, perm, factors = shuffle_lock_case(n, seed=n)
    assert P.verify_shuffle_lock(x, y, k, c, P.prove_shuffle_lock(x, y, k, c, perm, factors, ctx()), ctx())


def test_shuffle_with_a_layer_commitment_as_base():
    u = scalars(9, 1)[0]
    base = g.base_mul(u)
    x, y, perm, s, big_s = shuffle_case(6, base=base)
    proof = P.prove_shuffle(x, y, perm, s, ctx(), base=base)
    assert P.verify_shuffle(x, y, big_s, proof, ctx(), base=base)
    assert not P.verify_shuffle(x, y, big_s, proof, ctx())  # base G: another statement
    assert not P.verify_shuffle(x, y, g.base_mul(s), proof, ctx(), base=base)


@pytest.mark.parametrize("n", [1, 7, 13])
def test_a_known_layer_gives_the_same_proof(n):
    """``layer`` (log_G of C, U or the base) only speeds the prover up: the bytes are the same, and a
    wrong or malformed one is ignored."""
    x, y, k, c, factors = lock_case(n)
    c_log = scalars(2, 1)[0]
    plain = P.prove_lock(x, y, k, c, factors, ctx())
    for layer in (c_log, scalars(77, 1)[0], b"\x00" * 32, b"short"):
        assert P.prove_lock(x, y, k, c, factors, ctx(), layer=layer) == plain
    x, y, k, u, factors = unify_case(n)
    plain = P.prove_unify(x, y, k, u, factors, ctx())
    assert P.prove_unify(x, y, k, u, factors, ctx(), layer=scalars(3, 1)[0]) == plain
    x, y, k, c, perm, factors = shuffle_lock_case(n)
    proof = P.prove_shuffle_lock(x, y, k, c, perm, factors, ctx(), layer=scalars(4, 1)[0])
    assert proof == P.prove_shuffle_lock(x, y, k, c, perm, factors, ctx())
    assert P.verify_shuffle_lock(x, y, k, c, proof, ctx())
    b_log = scalars(9, 1)[0]
    base = g.base_mul(b_log)
    x, y, perm, s, big_s = shuffle_case(n, base=base)
    proof = P.prove_shuffle(x, y, perm, s, ctx(), base=base, layer=b_log)
    assert proof == P.prove_shuffle(x, y, perm, s, ctx(), base=base)
    assert P.verify_shuffle(x, y, big_s, proof, ctx(), base=base)


def test_shuffle_lock_without_prior_layer():
    x, y, k, c, perm, factors = shuffle_lock_case(6, prior=False)
    assert c == P.G
    assert P.verify_shuffle_lock(x, y, k, c, P.prove_shuffle_lock(x, y, k, c, perm, factors, ctx()), ctx())


def test_dleq_single_and_batch():
    x, y = scalars(5, 2)
    b1, b2 = g.hash_to_point("t", 1), g.hash_to_point("t", 2)
    p1, p2 = g.point_mul(x, b1), g.point_mul(x, b2)
    proof = P.prove_dleq(b1, p1, b2, p2, x, ctx())
    assert len(b64d(proof, "p")) == P.proof_size("dleq") == 64
    assert P.verify_dleq(b1, p1, b2, p2, proof, ctx())
    assert not P.verify_dleq(b1, p1, b2, g.point_mul(y, b2), proof, ctx())
    assert not P.verify_dleq(b2, p2, b1, p1, proof, ctx())
    assert not P.verify_dleq(b1, p1, b2, p2, proof, ctx(seat=1))
    stmts = [(b1, p1, b2, p2), (b2, g.point_mul(y, b2), P.G, g.base_mul(y))]
    bp = P.prove_dleq_batch(stmts, [x, y], ctx())
    assert P.verify_dleq_batch(stmts, bp, ctx())
    assert not P.verify_dleq_batch(stmts[::-1], bp, ctx())
    assert not P.verify_dleq_batch(stmts, P.prove_dleq_batch(stmts, [x, x], ctx()), ctx())
    # the single proof is not a batch proof of one statement (separate tags)
    assert not P.verify_dleq_batch(stmts[:1], proof, ctx())


def test_deterministic_nonces_and_rng_seed():
    x, y, perm, s, big_s = shuffle_case(4)
    a = P.prove_shuffle(x, y, perm, s, ctx())
    assert a == P.prove_shuffle(x, y, perm, s, ctx())
    b = P.prove_shuffle(x, y, perm, s, ctx(), rng_seed=b"\x07" * 32)
    assert a != b and P.verify_shuffle(x, y, big_s, b, ctx())
    assert a != P.prove_shuffle(x, y, perm, s, ctx(index=1))


# -- a prover with a false statement cannot convince ----------------------------------------------------

def test_forged_shuffles_are_refused_even_when_proved():
    x, y, perm, s, big_s = shuffle_case(6)
    forged = {
        "duplicate a card": y[:5] + [y[0]],
        "another point": y[:5] + [g.hash_to_point("forged")],
        "two scalars": y[:5] + [g.point_mul(g.smul(s, s), x[perm[5]])],
        "unshuffled input": deck.shuffle_pass(x, perm, s)[:5] + [x[perm[5]]],
    }
    for what, bad in forged.items():
        proof = P.prove_shuffle(x, bad, perm, s, ctx())  # the prover does not check its statement
        assert not P.verify_shuffle(x, bad, big_s, proof, ctx()), what


def test_forged_locks_are_refused_even_when_proved():
    x, y, k, c, factors = lock_case(5)
    bad = list(y)
    bad[2] = g.point_mul(factors[3], x[2])  # one card locked with another position's key
    assert not P.verify_lock(x, bad, k, c, P.prove_lock(x, bad, k, c, factors, ctx()), ctx())
    x, y, k, c, perm, factors = shuffle_lock_case(5)
    bad = list(y)
    bad[1] = g.point_mul(factors[1], x[perm[0]])  # a card duplicated under the right key
    assert not P.verify_shuffle_lock(x, bad, k, c, P.prove_shuffle_lock(x, bad, k, c, perm, factors, ctx()), ctx())
    swapped_keys = [k[1], k[0], *k[2:]]  # commitments in the wrong order
    assert not P.verify_shuffle_lock(
        x, y, swapped_keys, c, P.prove_shuffle_lock(x, y, swapped_keys, c, perm, factors, ctx()), ctx())


# -- soundness-style properties: a proof never verifies for a tampered statement --------------------------

TAMPER = ["swap", "replace", "duplicate", "scalar", "context", "other-deck", "other-game", "copied-proof"]


def tampered(kind: str, x, y, context, other_points, pick: int):
    """(x, y, context) with one thing changed; ``other_points`` come from another deck."""
    n = len(y)
    i, j = pick % n, (pick // n) % n
    if j == i:
        j = (i + 1) % n
    y2 = list(y)
    if kind == "swap":
        y2[i], y2[j] = y2[j], y2[i]
    elif kind == "replace":
        y2[i] = other_points[i]
    elif kind == "duplicate":
        y2[i] = y2[j]
    elif kind == "context":
        return x, y, context + b"\x00"
    elif kind == "other-deck":
        return x, y, ctx(deck_id="b.1")
    elif kind == "other-game":
        return x, y, ctx(game="another-game")
    return x, y2, context


@SLOW
@given(n=st.integers(2, 6), seed=st.integers(0, 2**32), kind=st.sampled_from(TAMPER), pick=st.integers(0, 35))
def test_shuffle_proof_never_verifies_tampered(n, seed, kind, pick):
    x, y, perm, s, big_s = shuffle_case(n, seed)
    c = ctx()
    proof = P.prove_shuffle(x, y, perm, s, c)
    if kind == "scalar":
        assert not P.verify_shuffle(x, y, g.base_mul(scalars(seed + 1, 1)[0]), proof, c)
        return
    if kind == "copied-proof":  # an honest proof of another deck (same permutation and scalar)
        xo = cards(n, "other")
        other = P.prove_shuffle(xo, deck.shuffle_pass(xo, perm, s), perm, s, c)
        assert P.verify_shuffle(xo, deck.shuffle_pass(xo, perm, s), big_s, other, c)
        assert not P.verify_shuffle(x, y, big_s, other, c)
        return
    x2, y2, c2 = tampered(kind, x, y, c, cards(n, "other"), pick)
    assert not P.verify_shuffle(x2, y2, big_s, proof, c2)


@SLOW
@given(n=st.integers(2, 5), seed=st.integers(0, 2**32), kind=st.sampled_from(TAMPER), pick=st.integers(0, 24))
def test_shuffle_lock_proof_never_verifies_tampered(n, seed, kind, pick):
    x, y, k, c, perm, factors = shuffle_lock_case(n, seed)
    context = ctx()
    proof = P.prove_shuffle_lock(x, y, k, c, perm, factors, context)
    if kind == "scalar":
        assert not P.verify_shuffle_lock(x, y, k, g.base_mul(scalars(seed + 1, 1)[0]), proof, context)
        k2 = list(k)
        k2[pick % n] = g.base_mul(scalars(seed + 2, 1)[0])
        assert not P.verify_shuffle_lock(x, y, k2, c, proof, context)
        return
    if kind == "copied-proof":
        xo, yo, ko, co, permo, fo = shuffle_lock_case(n, seed + 1)
        assert not P.verify_shuffle_lock(x, y, k, c, P.prove_shuffle_lock(xo, yo, ko, co, permo, fo, context), context)
        return
    x2, y2, c2 = tampered(kind, x, y, context, cards(n, "other"), pick)
    assert not P.verify_shuffle_lock(x2, y2, k, c, proof, c2)


@settings(max_examples=50, deadline=None)
@given(n=st.integers(2, 8), seed=st.integers(0, 2**32), kind=st.sampled_from(TAMPER), pick=st.integers(0, 63))
def test_lock_and_unify_proofs_never_verify_tampered(n, seed, kind, pick):
    x, y, k, c, factors = lock_case(n, seed)
    context = ctx()
    proof = P.prove_lock(x, y, k, c, factors, context)
    if kind == "copied-proof":
        xo, yo, ko, co, fo = lock_case(n, seed + 1)
        assert not P.verify_lock(x, y, k, c, P.prove_lock(xo, yo, ko, co, fo, context), context)
        return
    if kind == "scalar":
        assert not P.verify_lock(x, y, k, g.base_mul(scalars(seed + 1, 1)[0]), proof, context)
    else:
        x2, y2, c2 = tampered(kind, x, y, context, cards(n, "other"), pick)
        assert not P.verify_lock(x2, y2, k, c, proof, c2)
    x, y, k, u, factors = unify_case(n, seed)
    proof = P.prove_unify(x, y, k, u, factors, context)
    if kind == "scalar":
        assert not P.verify_unify(x, y, k, g.base_mul(scalars(seed + 1, 1)[0]), proof, context)
    else:
        x2, y2, c2 = tampered(kind, x, y, context, cards(n, "other"), pick)
        assert not P.verify_unify(x2, y2, k, u, proof, c2)


@SLOW
@given(n=st.integers(1, 5), seed=st.integers(0, 2**32), byte=st.integers(0, 10**6), bit=st.integers(0, 7))
def test_a_flipped_bit_never_verifies(n, seed, byte, bit):
    """Any single-bit change of a proof is refused: a decoding error or a failed check."""
    x, y, perm, s, big_s = shuffle_case(n, seed)
    raw = bytearray(b64d(P.prove_shuffle(x, y, perm, s, ctx()), "p"))
    raw[byte % len(raw)] ^= 1 << bit
    try:
        assert not P.verify_shuffle(x, y, big_s, b64e(bytes(raw)), ctx())
    except CryptoError:
        pass


def test_a_proof_of_one_kind_is_not_another():
    x, y, k, c, factors = lock_case(4)
    lock = P.prove_lock(x, y, k, c, factors, ctx())
    stmts = [(x[j], y[j], c, k[j]) for j in range(4)]  # the same relation as plain DLEQs
    assert P.verify_dleq_batch(stmts, P.prove_dleq_batch(stmts, factors, ctx()), ctx())
    # a lock proof of a statement whose numbers equal a unify statement's is still no unify proof
    assert not P.verify_unify(x, y, [c] * 4, c, lock, ctx())
    xu, yu, ku, u, fu = unify_case(2)
    unify = P.prove_unify(xu, yu, ku, u, fu, ctx())
    assert P.verify_unify(xu, yu, ku, u, unify, ctx()) and not P.verify_lock(xu, yu, [u, u], ku[0], unify, ctx())
    x, y, k, c, perm, factors = shuffle_lock_case(4)
    with pytest.raises(CryptoError, match="shuffle-lock proof: expected 736 bytes, got 512"):
        P.verify_shuffle_lock(x, y, k, c, P.prove_shuffle(x, y, perm, factors[0], ctx()), ctx())


# -- hygiene: malformed input raises CryptoError naming what is wrong ------------------------------------

def replace_point(proof: str, index: int, point: bytes) -> str:
    raw = bytearray(b64d(proof, "p"))
    raw[32 * index:32 * index + 32] = point
    return b64e(bytes(raw))


def test_off_subgroup_points_in_a_proof_are_refused():
    x, y, perm, s, big_s = shuffle_case(4)
    proof = P.prove_shuffle(x, y, perm, s, ctx())
    for index, name in [(0, "M"), (1, "F"), (2, "C"), (3, "L0"), (6, "R1"), (7, "A")]:
        bad = replace_point(proof, index, off_subgroup(g.hash_to_point("x")))
        with pytest.raises(CryptoError, match=f"shuffle proof: {name} is not a point"):
            P.verify_shuffle(x, y, big_s, bad, ctx())
    with pytest.raises(CryptoError, match="shuffle proof: M is not a point"):
        P.verify_shuffle(x, y, big_s, replace_point(proof, 0, g.IDENTITY), ctx())


def test_non_canonical_scalars_and_bad_lengths_are_refused():
    x, y, k, c, factors = lock_case(3)
    proof = P.prove_lock(x, y, k, c, factors, ctx())  # T, L0, R0, L1, R1, z
    for bad_scalar in (g.L.to_bytes(32, "little"), b"\xff" * 32):
        with pytest.raises(CryptoError, match="lock proof: z is not a canonical scalar"):
            P.verify_lock(x, y, k, c, replace_point(proof, 5, bad_scalar), ctx())
    with pytest.raises(CryptoError, match="lock proof: R1 is not a point"):
        P.verify_lock(x, y, k, c, replace_point(proof, 4, off_subgroup(c)), ctx())
    with pytest.raises(CryptoError, match="lock proof: expected 192 bytes, got 160"):
        P.verify_lock(x, y, k, c, b64e(b64d(proof, "p")[:160]), ctx())
    bp = P.prove_dleq_batch([(x[0], y[0], c, k[0])], factors[:1], ctx())
    with pytest.raises(CryptoError, match="dleq batch proof: response z0 is not a canonical scalar"):
        P.verify_dleq_batch([(x[0], y[0], c, k[0])], replace_point(bp, 1, b"\xff" * 32), ctx())
    with pytest.raises(CryptoError, match="not URL-safe base64"):
        P.verify_lock(x, y, k, c, proof + "!", ctx())
    x, y, perm, s, big_s = shuffle_case(3)
    proof = P.prove_shuffle(x, y, perm, s, ctx())
    with pytest.raises(CryptoError, match="shuffle proof: z is not a canonical scalar"):
        P.verify_shuffle(x, y, big_s, replace_point(proof, 15, g.L.to_bytes(32, "little")), ctx())


@pytest.mark.parametrize("where", ["x", "y", "s"])
def test_off_subgroup_statement_points_are_refused(where):
    x, y, perm, s, big_s = shuffle_case(4)
    proof = P.prove_shuffle(x, y, perm, s, ctx())
    if where == "x":
        x = [off_subgroup(x[0]), *x[1:]]
    elif where == "y":
        y = [*y[:3], off_subgroup(y[3])]
    else:
        big_s = off_subgroup(big_s)
    with pytest.raises(CryptoError, match="not a point of the prime-order group"):
        P.verify_shuffle(x, y, big_s, proof, ctx())


@pytest.mark.parametrize("where", ["x", "y", "k", "c"])
def test_off_subgroup_points_refused_by_lock_and_shuffle_lock(where):
    x, y, k, c, factors = lock_case(3)
    proof = P.prove_lock(x, y, k, c, factors, ctx())
    bad = {"x": x, "y": y, "k": k, "c": [c]}
    bad[where] = [off_subgroup(bad[where][0]), *bad[where][1:]]
    with pytest.raises(CryptoError, match="not a point of the prime-order group"):
        P.verify_lock(bad["x"], bad["y"], bad["k"], bad["c"][0], proof, ctx())
    x, y, k, c, perm, factors = shuffle_lock_case(3)
    proof = P.prove_shuffle_lock(x, y, k, c, perm, factors, ctx())
    bad = {"x": x, "y": y, "k": k, "c": [c]}
    bad[where] = [off_subgroup(bad[where][0]), *bad[where][1:]]
    with pytest.raises(CryptoError, match="not a point of the prime-order group"):
        P.verify_shuffle_lock(bad["x"], bad["y"], bad["k"], bad["c"][0], proof, ctx())


def test_identity_statement_points_are_refused():
    x, y, k, c, factors = lock_case(3)
    proof = P.prove_lock(x, y, k, c, factors, ctx())
    with pytest.raises(CryptoError, match="not a point of the prime-order group"):
        P.verify_lock(x, [g.IDENTITY, *y[1:]], k, c, proof, ctx())


def test_shape_errors():
    x, y, perm, s, big_s = shuffle_case(3)
    proof = P.prove_shuffle(x, y, perm, s, ctx())
    with pytest.raises(CryptoError, match="shuffle output Y: expected 3 points, got 2"):
        P.verify_shuffle(x, y[:2], big_s, proof, ctx())
    with pytest.raises(CryptoError, match="shuffle: empty deck"):
        P.verify_shuffle([], [], big_s, proof, ctx())
    with pytest.raises(CryptoError, match="proof context must be bytes"):
        P.verify_shuffle(x, y, big_s, proof, "ctx")
    with pytest.raises(CryptoError, match="not a permutation"):
        P.prove_shuffle(x, y, [0, 0, 1], s, ctx())
    with pytest.raises(CryptoError, match="shuffle scalar: scalar is zero or not canonical"):
        P.prove_shuffle(x, y, perm, bytes(32), ctx())
    with pytest.raises(CryptoError, match="rng_seed must be bytes"):
        P.prove_shuffle(x, y, perm, s, ctx(), rng_seed="seed")
    with pytest.raises(CryptoError, match="unknown proof kind"):
        P.proof_size("cut-and-choose", 3)


def test_proof_sizes():
    assert [P.proof_size("shuffle", n) for n in (1, 2, 52, 54, 64, 65)] == [384, 448, 768, 768, 768, 832]
    assert P.proof_size("shuffle_lock", 52) == 768 + 64 + 32 * 53
    assert P.proof_size("lock", 52) == P.proof_size("unify", 54) == 448
    assert P.proof_size("dleq_batch", 52) == 1696


# -- known answers --------------------------------------------------------------------------------------

def hs(items: list[str]) -> list[bytes]:
    return [H(x) for x in items]


def test_vectors_dleq():
    for case in V["dleq"]:
        args = [H(case[k]) for k in ("b1", "p1", "b2", "p2")]
        rng = H(case["rng_seed"]) if case["rng_seed"] else None
        assert P.prove_dleq(*args, H(case["x"]), H(case["context"]), rng) == case["proof"]
        assert P.verify_dleq(*args, case["proof"], H(case["context"]))
    case = V["dleq_batch"]
    stmts = [tuple(hs(s)) for s in case["statements"]]
    assert P.prove_dleq_batch(stmts, hs(case["witnesses"]), H(case["context"])) == case["proof"]
    assert P.verify_dleq_batch(stmts, case["proof"], H(case["context"]))


def test_vectors_lock_unify():
    c = V["lock"]
    args = (hs(c["x"]), hs(c["y"]), hs(c["k"]), H(c["c"]))
    assert P.prove_lock(*args, hs(c["factors"]), H(c["context"])) == c["proof"]
    assert P.verify_lock(*args, c["proof"], H(c["context"]))
    c = V["unify"]
    args = (hs(c["x"]), hs(c["y"]), hs(c["k_old"]), H(c["u"]))
    assert P.prove_unify(*args, hs(c["factors"]), H(c["context"])) == c["proof"]
    assert P.verify_unify(*args, c["proof"], H(c["context"]))


def test_vectors_shuffle():
    for c in V["shuffle"]:
        base = H(c["base"]) if c["base"] else None
        x, y = hs(c["x"]), hs(c["y"])
        assert P.prove_shuffle(x, y, c["perm"], H(c["s"]), H(c["context"]), base=base) == c["proof"]
        assert P.verify_shuffle(x, y, H(c["S"]), c["proof"], H(c["context"]), base=base)
    for c in V["shuffle_lock"]:
        args = (hs(c["x"]), hs(c["y"]), hs(c["k"]), H(c["c"]))
        assert P.prove_shuffle_lock(*args, c["perm"], hs(c["factors"]), H(c["context"])) == c["proof"]
        assert P.verify_shuffle_lock(*args, c["proof"], H(c["context"]))


# -- the wiring the engine will use: every pass of a deal and a reshuffle, each checked on arrival ------

class Locker:
    """One locker's view: its secrets and its layer commitment (what it published last)."""

    def __init__(self, seat: int, deck_id: str, n: int):
        self.seat = seat
        self.sec = deck.LockerSecrets(game_seed(bytes([seat + 1]) * 32, GAME, bytes(32)), deck_id, n)
        self.layer = g.scalar_from_int(1)  # current uniform layer c
        self.big_c = P.G  # its commitment c * G, as every other player has recorded it


def pass_ctx(deck_id: str, index: int, seat: int) -> bytes:
    return lp(GAME, 1, seat, deck_id, index)


def deal(lockers: list[Locker], points: list[bytes], deck_id: str, index: int = 0, items: list | None = None):
    """Shuffle passes, the shuffle-lock, then the locks in reverse order; each proof verified (and, with
    ``items``, its ``verify_batch`` item appended)."""
    items = [] if items is None else items
    commits = {}
    for lk in lockers[:-1]:
        base, s = lk.big_c, lk.sec.shuffle_scalar
        out = deck.shuffle_pass(points, lk.sec.perm, s)
        proof = P.prove_shuffle(points, out, lk.sec.perm, s, pass_ctx(deck_id, index, lk.seat), base=base)
        new_c = g.point_mul(s, base)  # published with the pass: the locker's new layer commitment
        assert P.verify_shuffle(points, out, new_c, proof, pass_ctx(deck_id, index, lk.seat), base=base)
        items.append(("shuffle", (points, out, new_c, proof, pass_ctx(deck_id, index, lk.seat), base)))
        lk.layer, lk.big_c = g.smul(lk.layer, s), new_c
        points, index = out, index + 1
    last = lockers[-1]
    keys, c = last.sec.keys, last.layer
    factors = [g.smul(k, g.sinv(c)) for k in keys]
    out = [g.point_mul(factors[i], points[last.sec.perm[i]]) for i in range(len(points))]
    commits[last.seat] = deck.key_commitments(keys)
    proof = P.prove_shuffle_lock(points, out, commits[last.seat], last.big_c, last.sec.perm, factors,
                                 pass_ctx(deck_id, index, last.seat))
    assert P.verify_shuffle_lock(points, out, commits[last.seat], last.big_c, proof,
                                 pass_ctx(deck_id, index, last.seat))
    items.append(("shuffle_lock", (points, out, commits[last.seat], last.big_c, proof,
                                   pass_ctx(deck_id, index, last.seat))))
    points, index = out, index + 1
    for lk in reversed(lockers[:-1]):
        out = deck.lock_pass(points, lk.layer, lk.sec.keys)
        commits[lk.seat] = deck.key_commitments(lk.sec.keys)
        factors = [g.smul(k, g.sinv(lk.layer)) for k in lk.sec.keys]
        proof = P.prove_lock(points, out, commits[lk.seat], lk.big_c, factors, pass_ctx(deck_id, index, lk.seat))
        assert P.verify_lock(points, out, commits[lk.seat], lk.big_c, proof, pass_ctx(deck_id, index, lk.seat))
        assert not P.verify_lock(points, out, commits[lk.seat], lk.big_c, proof, pass_ctx(deck_id, index + 1, 0))
        items.append(("lock", (points, out, commits[lk.seat], lk.big_c, proof, pass_ctx(deck_id, index, lk.seat))))
        points, index = out, index + 1
    return points, commits


@pytest.mark.parametrize("nlockers", [2, 3])
def test_deal_and_reshuffle_with_proofs(nlockers):
    n = 8
    table = deck.card_table(GAME, "std", n)
    lockers = [Locker(s, "a.1", n) for s in range(nlockers)]
    points, commits = deal(lockers, cards(n), "a.1")
    keys_of = {lk.seat: lk.sec.keys for lk in lockers}
    faces = [table[deck.unlock(p, [keys_of[s][j] for s in keys_of])] for j, p in enumerate(points)]
    assert sorted(faces) == list(range(n))

    # reshuffle six locked cards and face 0 (public: a fresh card point, key 1, commitment G) into
    # "a.2": every locker unifies (o0 too), then a deal whose shuffles use the layer commitments as base
    src = [j for j in range(n) if faces[j] != 0][:6]
    x = [points[j] for j in src] + [deck.card_point(GAME, "std", 0)]
    one = g.scalar_from_int(1)
    new = [Locker(s, "a.2", len(x)) for s in range(nlockers)]
    for lk in new:
        u = lk.sec.unify_scalar
        old = [keys_of[lk.seat][j] for j in src] + [one]
        k_old = [commits[lk.seat][j] for j in src] + [P.G]
        out = deck.unify_pass(x, old, u)
        factors = [g.smul(u, g.sinv(k)) for k in old]
        big_u = g.base_mul(u)
        proof = P.prove_unify(x, out, k_old, big_u, factors, pass_ctx("a.2", lk.seat, lk.seat))
        assert P.verify_unify(x, out, k_old, big_u, proof, pass_ctx("a.2", lk.seat, lk.seat))
        lk.layer, lk.big_c = u, big_u
        x = out
    points2, _ = deal(new, x, "a.2", index=nlockers)
    keys2 = {lk.seat: lk.sec.keys for lk in new}
    faces2 = [table[deck.unlock(p, [keys2[s][j] for s in keys2])] for j, p in enumerate(points2)]
    assert sorted(faces2) == sorted([faces[j] for j in src] + [0])


# -- several proofs in one check (verify_batch) ------------------------------------------------------------

def muls(fn) -> tuple[object, int]:
    """``fn()`` and the number of libsodium point multiplications it made."""
    count = [0]
    real = nb.crypto_scalarmult_ed25519_noclamp

    def counted(*a):
        count[0] += 1
        return real(*a)

    nb.crypto_scalarmult_ed25519_noclamp = counted
    try:
        return fn(), count[0]
    finally:
        nb.crypto_scalarmult_ed25519_noclamp = real


@pytest.mark.parametrize("nlockers", [2, 3])
def test_a_deal_verifies_as_one_batch_with_shared_points_multiplied_once(nlockers):
    items: list = []
    deal([Locker(s, "a.1", 16) for s in range(nlockers)], cards(16), "a.1", items=items)
    assert [k for k, _ in items] == ["shuffle"] * (nlockers - 1) + ["shuffle_lock"] + ["lock"] * (nlockers - 1)
    verifiers = {"shuffle": P.verify_shuffle, "shuffle_lock": P.verify_shuffle_lock, "lock": P.verify_lock}
    ok, batched = muls(lambda: P.verify_batch(items))
    alone, single = muls(lambda: [verifiers[k](*a) for k, a in items])
    assert ok and all(alone)
    # the generators G' (every shuffle-type proof) and each shuffle's output (the next pass's input)
    assert batched <= single - 2 * 16 * (nlockers - 1)
    assert P.verify_batch([]) is True


def test_a_batch_with_one_false_proof_is_refused():
    items: list = []
    deal([Locker(s, "a.1", 8) for s in range(3)], cards(8), "a.1", items=items)
    for i, (kind, args) in enumerate(items):
        y = list(args[1])
        y[0], y[1] = y[1], y[0]  # two output cards swapped: the proof no longer fits (false for a lock)
        assert not P.verify_batch(items[:i] + [(kind, (args[0], y, *args[2:]))] + items[i + 1:]), kind
    x, y, perm, s, big_s = shuffle_case(8)
    forged = y[:7] + [y[0]]
    lone = ("shuffle", (x, forged, big_s, P.prove_shuffle(x, forged, perm, s, ctx()), ctx()))
    assert not P.verify_batch([*items, lone])
    kind, args = items[2]
    assert kind == "shuffle_lock"
    raw = b64d(args[4], "proof")
    bad = b64e(raw[:32] + off_subgroup(raw[32:64]) + raw[64:])  # Z
    with pytest.raises(CryptoError, match="shuffle-lock proof: Z is not a point"):
        P.verify_batch([items[0], (kind, (*args[:4], bad, args[5]))])
    with pytest.raises(CryptoError, match="unknown kind 'dleq'"):
        P.verify_batch([("dleq", ())])


def test_the_batch_weights_bind_every_byte_of_every_proof():
    """The lock proof's final z is not in its transcript: the weights must still depend on it, or it
    could be chosen after them to cancel another proof's error."""
    x, y, k, c, factors = lock_case(8)
    proof = P.prove_lock(x, y, k, c, factors, ctx())
    raw = b64d(proof, "proof")
    other = b64e(raw[:-32] + g.scalar_from_int(_sc_plus_one(raw[-32:])))
    assert P._lock_check(x, y, k, c, other, ctx()).state != P._lock_check(x, y, k, c, proof, ctx()).state
    assert not P.verify_batch([("lock", (x, y, k, c, other, ctx()))])


def _sc_plus_one(s: bytes) -> int:
    return int.from_bytes(s, "little") + 1

