"""The mental-poker deck: full runs with 2 and 3 lockers, draws, reveals, reshuffles, cheats, hygiene."""

from __future__ import annotations

from collections import Counter

import nacl.bindings as nb
import pytest

from duelmail.crypto import group as g
from duelmail.crypto.deck import (
    LockerSecrets,
    card_point,
    card_table,
    check_share,
    decode_points,
    decode_scalars,
    encode_points,
    encode_scalars,
    key_commitments,
    lock_pass,
    shuffle_lock_pass,
    shuffle_pass,
    unify_pass,
    unlock,
)
from duelmail.crypto.derive import game_seed
from duelmail.crypto.encoding import b64e
from duelmail.errors import CryptoError

GAME = "g-7f3a"
BASE = "std"
N = 10
TABLE = card_table(GAME, BASE, N)


def player_seeds(k: int) -> list[bytes]:
    return [game_seed(bytes([i + 1]) * 32, GAME, bytes(32)) for i in range(k)]


def relay(points: list[bytes]) -> list[bytes]:
    """What the next player sees: the encoded points, decoded with full validation."""
    return decode_points(encode_points(points), len(points), "relayed deck")


def deal(seeds: list[bytes], deck_id: str = "a.1", n: int = N, tamper=None):
    """Full set-up; ``tamper(stage, points)`` may alter a pass's output (stage = seat index)."""
    secrets = [LockerSecrets(s, deck_id, n) for s in seeds]
    pts = [card_point(GAME, BASE, f) for f in range(n)]
    for seat, sec in enumerate(secrets[:-1]):
        out = shuffle_pass(pts, sec.perm, sec.shuffle_scalar)
        pts = relay(tamper(seat, out) if tamper else out)
    last = secrets[-1]
    pts = relay(shuffle_lock_pass(pts, last.perm, last.keys))
    commits: list[list[bytes]] = [[] for _ in seeds]
    commits[-1] = relay(key_commitments(last.keys))
    for seat in range(len(seeds) - 2, -1, -1):
        sec = secrets[seat]
        pts = relay(lock_pass(pts, sec.shuffle_scalar, sec.keys))
        commits[seat] = relay(key_commitments(sec.keys))
    return pts, commits, secrets


def draw(pts, commits, secrets, seat: int, j: int, table=TABLE) -> int | None:
    """Position ``j`` to ``seat``: the others publish checked shares, the seat strips its own key."""
    shares = []
    for other, sec in enumerate(secrets):
        if other == seat:
            continue
        share = decode_scalars(encode_scalars([sec.keys[j]]), 1, f"share of seat {other}")[0]
        assert check_share(share, commits[other][j])
        shares.append(share)
    return table.get(unlock(pts[j], shares + [secrets[seat].keys[j]]))


def reveal(pts, commits, secrets, j: int, table=TABLE) -> int | None:
    """Public reveal of position ``j``: every locker publishes its key."""
    keys = [sec.keys[j] for sec in secrets]
    assert all(check_share(k, c[j]) for k, c in zip(keys, commits, strict=True))
    return table.get(unlock(pts[j], keys))


@pytest.mark.parametrize("players", [2, 3])
def test_full_deck_run(players):
    seeds = player_seeds(players)
    pts, commits, secrets = deal(seeds)
    assert len(pts) == N and len(set(pts)) == N
    assert not set(pts) & set(TABLE)  # locked cards are not card points
    faces = []
    for j in range(N):
        seat = j % players
        face = draw(pts, commits, secrets, seat, j) if j < 6 else reveal(pts, commits, secrets, j)
        assert face is not None
        faces.append(face)
    assert sorted(faces) == list(range(N))
    assert faces != list(range(N))  # shuffled (fixed seeds: not the identity order)


def test_a_draw_needs_the_holders_key():
    pts, commits, secrets = deal(player_seeds(2))
    other_only = unlock(pts[0], [secrets[1].keys[0]])
    assert other_only not in TABLE
    assert draw(pts, commits, secrets, 0, 0) == reveal(pts, commits, secrets, 0)


def test_deal_is_deterministic_and_seed_dependent():
    a = deal(player_seeds(2))[0]
    assert a == deal(player_seeds(2))[0]
    assert a != deal(player_seeds(3)[1:])[0]
    assert a != deal(player_seeds(2), deck_id="a.2")[0]


@pytest.mark.parametrize("players", [2, 3])
def test_reshuffle_of_partly_drawn_locked_pile(players):
    seeds = player_seeds(players)
    pts, commits, old = deal(seeds)
    drawn = [draw(pts, commits, old, 0, j) for j in range(4)]
    pile = list(range(4, N))
    pile_faces = sorted(reveal(pts, commits, old, j) for j in pile)  # for the check only
    m = len(pile)
    new = [LockerSecrets(s, "a.2", m) for s in seeds]
    cur = [pts[j] for j in pile]
    for o, sec in zip(old, new, strict=True):  # unify passes, in order
        cur = relay(unify_pass(cur, [o.keys[j] for j in pile], sec.unify_scalar))
    for sec in new[:-1]:  # shuffle passes
        cur = relay(shuffle_pass(cur, sec.perm, sec.shuffle_scalar))
    last = new[-1]
    cur = relay(shuffle_lock_pass(cur, last.perm, last.keys, prior=last.unify_scalar))
    for sec in reversed(new[:-1]):  # locks in reverse order
        cur = relay(lock_pass(cur, g.smul(sec.shuffle_scalar, sec.unify_scalar), sec.keys))
    new_commits = [key_commitments(sec.keys) for sec in new]
    faces = [draw(cur, new_commits, new, j % players, j) for j in range(m)]
    assert None not in faces
    assert sorted(faces) == pile_faces
    assert sorted(faces + drawn) == list(range(N))
    assert set(cur).isdisjoint(pts)


def test_wrong_key_share_fails_check_share():
    _, commits, secrets = deal(player_seeds(2))
    k = secrets[1].keys
    assert check_share(k[3], commits[1][3])
    assert not check_share(k[4], commits[1][3])  # another position's key
    assert not check_share(secrets[0].keys[3], commits[1][3])  # another locker's key
    assert not check_share(g.scalar_from_int(5), commits[1][3])
    assert not check_share(bytes(32), commits[1][3])
    assert not check_share(g.L.to_bytes(32, "little"), commits[1][3])
    assert not check_share(b"junk", commits[1][3])
    assert not check_share(k[3], "not bytes")


@pytest.mark.parametrize("kind,bad", [
    ("small-order", (1).to_bytes(32, "little")),
    ("order-8", bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")),
    ("off-subgroup", "torsion"),
    ("garbage", b"\xff" * 32),
    ("non-canonical", (2**255 - 18).to_bytes(32, "little")),
])
def test_decode_points_refuses_bad_point_naming_index(kind, bad):
    good = [card_point(GAME, BASE, f) for f in range(6)]
    if bad == "torsion":
        bad = nb.crypto_core_ed25519_add(good[0], bytes(32))  # + a point of order 4
    pts = good[:3] + [bad] + good[3:]
    with pytest.raises(CryptoError, match=r"deck from seat 1: point 3 is not a point"):
        decode_points(b64e(b"".join(pts)), 7, "deck from seat 1")


def test_decode_points_checks_count_and_length():
    text = encode_points([card_point(GAME, BASE, f) for f in range(3)])
    assert len(decode_points(text, None, "x")) == 3
    with pytest.raises(CryptoError, match="lock: expected 4 items, got 3"):
        decode_points(text, 4, "lock")
    with pytest.raises(CryptoError, match="lock: 33 bytes is not a whole number"):
        decode_points(b64e(bytes(33)), None, "lock")
    with pytest.raises(CryptoError, match="lock: not URL-safe base64"):
        decode_points("***", None, "lock")
    with pytest.raises(CryptoError, match="point 1: expected 32 bytes"):
        encode_points([card_point(GAME, BASE, 0), b"short"])


@pytest.mark.parametrize("bad,msg", [
    (g.L.to_bytes(32, "little"), "not canonical"),
    ((2**256 - 1).to_bytes(32, "little"), "not canonical"),
    (bytes(32), "zero"),
])
def test_decode_scalars_refuses_non_canonical_and_zero(bad, msg):
    good = [g.scalar_from_int(i) for i in (3, 4)]
    with pytest.raises(CryptoError, match=f"shares: scalar 2: .*{msg}"):
        decode_scalars(b64e(b"".join(good + [bad])), 3, "shares")
    assert decode_scalars(encode_scalars(good), 2, "shares") == good


def test_duplicated_card_in_a_shuffle_pass_is_detectable():
    def cheat(seat, out):
        out = list(out)
        out[5] = out[2]  # seat 0 duplicates a card (dropping another)
        return out

    pts, commits, secrets = deal(player_seeds(2), tamper=cheat)
    faces = [reveal(pts, commits, secrets, j) for j in range(N)]
    assert None not in faces  # every key matches its commitment, every point is a card...
    dup = [f for f, c in Counter(faces).items() if c > 1]
    assert len(dup) == 1  # ...but two positions decrypt to the same face
    assert len(set(faces)) == N - 1


def test_foreign_point_decrypts_to_no_card():
    def cheat(seat, out):
        return out[:-1] + [g.hash_to_point("not a card")]

    pts, commits, secrets = deal(player_seeds(2), tamper=cheat)
    faces = [reveal(pts, commits, secrets, j) for j in range(N)]
    assert faces.count(None) == 1


def test_pass_arguments_checked():
    pts = [card_point(GAME, BASE, f) for f in range(3)]
    s = g.scalar_from_int(9)
    with pytest.raises(CryptoError, match="not a permutation"):
        shuffle_pass(pts, [0, 0, 1], s)
    with pytest.raises(CryptoError, match="not a permutation"):
        shuffle_lock_pass(pts, [0, 1], [s, s])
    with pytest.raises(CryptoError, match="lock keys: expected 3, got 2"):
        lock_pass(pts, s, [s, s])
    with pytest.raises(CryptoError, match="old key 1"):
        unify_pass(pts, [s, bytes(32), s], s)
    with pytest.raises(CryptoError, match="at least one key"):
        unlock(pts[0], [])
    with pytest.raises(CryptoError, match="point to multiply"):
        shuffle_pass(pts[:2] + [bytes(32)], [0, 1, 2], s)


def test_unify_then_unlock_with_the_uniform_scalar():
    pts = [card_point(GAME, BASE, f) for f in range(4)]
    keys = [g.scalar_from_int(k) for k in (2, 3, 5, 7)]
    locked = [g.point_mul(k, p) for k, p in zip(keys, pts, strict=True)]
    u = g.scalar_from_int(11)
    unified = unify_pass(locked, keys, u)
    assert unified == [g.point_mul(u, p) for p in pts]


def test_locker_secrets():
    seed = player_seeds(1)[0]
    a = LockerSecrets(seed, "a.1", 8)
    assert sorted(a.perm) == list(range(8))
    assert a.perm is a.perm  # cached
    assert len(set(a.keys)) == 8 and all(g.check_scalar(k, "k") for k in a.keys)
    assert len({a.shuffle_scalar, a.unify_scalar, *a.keys}) == 10
    b = LockerSecrets(seed, "a.2", 8)
    assert a.shuffle_scalar != b.shuffle_scalar and a.keys[0] != b.keys[0]
    assert LockerSecrets(seed, "a.1", 8).keys == a.keys
    assert "a.1" in repr(a) and a.shuffle_scalar.hex() not in repr(a)
    for bad in ("", "a/1", "a 1", ".a"):
        with pytest.raises(CryptoError, match="deck id"):
            LockerSecrets(seed, bad, 8)
    with pytest.raises(CryptoError, match="hkdf key"):
        LockerSecrets(b"short", "a.1", 8)
    with pytest.raises(CryptoError, match="generation"):
        LockerSecrets(seed, "a.1", 8, -1)


def test_locker_secrets_bind_deck_size_and_generation():
    """Issue 14.4: the key streams bind the deck id, its size and its generation, so no two differ only by n."""
    seed = player_seeds(1)[0]
    a = LockerSecrets(seed, "a.1", 8)
    for other in (LockerSecrets(seed, "a.1", 9), LockerSecrets(seed, "a.1", 8, 1), LockerSecrets(seed, "a.2", 8)):
        assert other.keys[0] != a.keys[0] and other.shuffle_scalar != a.shuffle_scalar
        assert other.unify_scalar != a.unify_scalar


def test_card_table():
    assert len(TABLE) == N
    assert TABLE[card_point(GAME, BASE, 7)] == 7
    assert card_point(GAME, BASE, 7) != card_point(GAME, "other", 7)
    assert card_point(GAME, BASE, 7) != card_point("g-other", BASE, 7)
    assert card_point(GAME, BASE, 1) != g.base_mul(g.scalar_from_int(1))
