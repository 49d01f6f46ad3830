"""The current code reproduces every known-answer vector in tests/vectors/crypto.json exactly."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest

from duelmail.crypto import deck
from duelmail.crypto.commit import check_opening, commit, commit_salt
from duelmail.crypto.derive import Stream, entropy_key, game_seed, hkdf
from duelmail.crypto.encoding import lp
from duelmail.crypto.seal import memo_key, open_sealed, pack, seal, unpack

V = json.loads((Path(__file__).parents[1] / "vectors" / "crypto.json").read_text(encoding="utf-8"))
H = bytes.fromhex


def unpart(p: dict) -> bytes | str | int:
    if "bytes" in p:
        return H(p["bytes"])
    return p["str"] if "str" in p else p["int"]


def hexes(items: list[bytes]) -> list[str]:
    return [x.hex() for x in items]


@pytest.mark.parametrize("case", V["lp"])
def test_lp(case):
    assert lp(*[unpart(p) for p in case["parts"]]).hex() == case["out"]


def _rfc5869(key: bytes, info: bytes, length: int) -> bytes:
    """Independent HKDF-SHA256 (RFC 5869) with the duelmail salt."""
    prk = hmac.new(b"duelmail/v1", key, hashlib.sha256).digest()
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out, i = out + block, i + 1
    return out[:length]


@pytest.mark.parametrize("case", V["hkdf"])
def test_hkdf(case):
    out = hkdf(H(case["key"]), case["info"], case["length"])
    assert out.hex() == case["out"]
    assert _rfc5869(H(case["key"]), case["info"].encode(), case["length"]) == out


@pytest.mark.parametrize("case", V["game_seed"])
def test_game_seed(case):
    assert game_seed(H(case["master"]), case["game_id"], H(case["fresh"])).hex() == case["out"]


def test_entropy_box():
    """Issue 14.4: a seat's fresh randomness, sealed to itself in its first file (engine.match.seal_entropy)."""
    from duelmail.engine.fold import open_entropy, seal_entropy

    e = V["entropy"]
    master, fresh = H(e["master"]), H(e["fresh"])
    assert entropy_key(master, e["game_id"]).hex() == e["key"]
    assert seal(H(e["key"]), fresh, H(e["aad"]), H(e["nonce"])) == e["box"]
    assert seal_entropy(master, e["game_id"], e["seat"], fresh) == e["box"]
    assert open_entropy(master, e["game_id"], e["seat"], e["box"]) == fresh


def test_stream():
    s = V["stream"]
    seed = H(s["seed"])
    assert Stream(seed, s["bytes_label"]).bytes(len(H(s["bytes"]))).hex() == s["bytes"]
    assert Stream(seed, s["perm_label"]).permutation(s["perm_n"]) == s["perm"]
    sc = Stream(seed, s["scalars_label"])
    assert [sc.scalar().hex() for _ in s["scalars"]] == s["scalars"]
    rb = Stream(seed, s["randbelow_label"])
    assert [rb.randbelow(n) for n in s["randbelow_n"]] == s["randbelow"]
    first = hashlib.sha256(lp(seed, s["bytes_label"], 0)).hexdigest()
    assert s["bytes"].startswith(first)


def test_commit():
    c = V["commit"]
    salt = commit_salt(H(c["seed"]), c["tag"], c["round"])
    assert salt.hex() == c["salt"]
    args = (c["tag"], c["game_id"], c["round"], c["seat"], salt, H(c["value"]))
    assert commit(*args) == c["out"]
    assert check_opening(c["out"], *args)


def test_seal():
    c = V["seal"]
    key = memo_key(H(c["seed"]))
    assert key.hex() == c["key"]
    assert seal(key, H(c["plaintext"]), H(c["aad"]), H(c["nonce"])) == c["box"]
    assert open_sealed(key, c["box"], H(c["aad"])) == H(c["plaintext"])


def test_padded_memo():
    """Issue 14.1: the memo format, every value in a fixed-size block (protocol §6a)."""
    c = V["memo"]
    key = memo_key(H(c["seed"]))
    values = {k: H(x) for k, x in c["values"].items()}
    assert pack(values, c["sizes"]).hex() == c["padded"]
    assert len(H(c["padded"])) == sum(c["sizes"].values())
    assert seal(key, H(c["padded"]), H(c["aad"]), H(c["nonce"])) == c["box"]
    assert unpack(open_sealed(key, c["box"], H(c["aad"])), c["sizes"]) == values


@pytest.mark.parametrize("case", V["card_point"])
def test_card_point(case):
    assert deck.card_point(case["game_id"], case["base_deck"], case["face"]).hex() == case["point"]


def test_deck_run():
    r = V["deck_run"]
    gid, base, n = r["game_id"], r["base_deck"], r["nfaces"]
    seeds = [game_seed(H(m), gid, H(r["fresh"])) for m in r["masters"]]
    assert hexes(seeds) == r["seeds"]
    a, b = (deck.LockerSecrets(s, r["deck_id"], n, r["generation"]) for s in seeds)
    for sec, want in zip((a, b), r["secrets"], strict=True):
        assert sec.perm == want["perm"]
        assert sec.shuffle_scalar.hex() == want["shuffle_scalar"]
        assert sec.unify_scalar.hex() == want["unify_scalar"]
        assert hexes(sec.keys) == want["keys"]
    cards = [deck.card_point(gid, base, f) for f in range(n)]
    assert hexes(cards) == r["cards"]
    p1 = deck.shuffle_pass(cards, a.perm, a.shuffle_scalar)
    assert hexes(p1) == r["shuffle_a"]
    p2 = deck.shuffle_lock_pass(p1, b.perm, b.keys)
    assert hexes(p2) == r["shuffle_lock_b"]
    p3 = deck.lock_pass(p2, a.shuffle_scalar, a.keys)
    assert hexes(p3) == r["lock_a"]
    assert deck.encode_points(p3) == r["encoded_final"]
    assert deck.decode_points(r["encoded_final"], n, "final") == p3
    assert [hexes(deck.key_commitments(s.keys)) for s in (a, b)] == r["commitments"]
    table = deck.card_table(gid, base, n)
    faces = [table[deck.unlock(p, [a.keys[j], b.keys[j]])] for j, p in enumerate(p3)]
    assert faces == r["faces"] and sorted(faces) == list(range(n))
