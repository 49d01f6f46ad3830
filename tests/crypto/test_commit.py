"""Commit-reveal: binding to every field, constant-time opening check, derived salts."""

from __future__ import annotations

import hashlib

import pytest

from duelmail.crypto.commit import check_opening, commit, commit_salt
from duelmail.crypto.encoding import lp
from duelmail.errors import CryptoError

SEED = bytes(range(32))
SALT = commit_salt(SEED, "dice", 3)
ARGS = ("dice", "game-1", 3, 1, SALT, b"4,2,6")


def test_commit_is_hex_sha256_over_lp():
    c = commit(*ARGS)
    assert c == hashlib.sha256(lp(b"duelmail/commit/v1", *ARGS)).hexdigest()
    assert len(c) == 64 and c == c.lower()


def test_opening_round_trip():
    assert check_opening(commit(*ARGS), *ARGS)


@pytest.mark.parametrize("index,other", [
    (0, "dice2"), (1, "game-2"), (2, 4), (3, 0), (4, commit_salt(SEED, "dice", 4)), (5, b"4,2,5"),
])
def test_every_field_binds(index, other):
    args = list(ARGS)
    args[index] = other
    assert commit(*args) != commit(*ARGS)
    assert not check_opening(commit(*ARGS), *args)


@pytest.mark.parametrize("bad", ["", "00" * 32, "zz", None, "é" * 64])
def test_wrong_or_malformed_commitment_fails(bad):
    assert not check_opening(bad, *ARGS)


def test_uppercase_hex_is_not_canonical():
    assert not check_opening(commit(*ARGS).upper(), *ARGS)


def test_commit_refuses_short_salt_and_non_bytes_value():
    with pytest.raises(CryptoError, match="salt"):
        commit("dice", "g", 0, 0, b"short", b"v")
    with pytest.raises(CryptoError, match="value must be bytes"):
        commit("dice", "g", 0, 0, SALT, "v")
    with pytest.raises(CryptoError, match="lp part"):
        commit("dice", "g", -1, 0, SALT, b"v")


def test_commit_salt_derivation():
    assert len(SALT) == 32
    assert SALT == commit_salt(SEED, "dice", 3)
    assert SALT != commit_salt(SEED, "dice", 2)
    assert SALT != commit_salt(SEED, "hand", 3)
    assert SALT != commit_salt(bytes(range(1, 33)), "dice", 3)
