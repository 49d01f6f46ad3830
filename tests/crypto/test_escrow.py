"""Escrow primitives (issue 19, docs/protocol.md section 6c, docs/proofs.md "Escrow"): Feldman sharing,
share checks against the seat's key commitment, Lagrange reconstruction, hashed-ElGamal transport to a
holder and its DLEQ-proved decryption. Round trips for 3..8 seats, every tampering refused, property
tests, known answers."""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duelmail.crypto import escrow as E
from duelmail.crypto import group as g
from duelmail.crypto.derive import Stream
from duelmail.crypto.encoding import b64d, b64e, lp
from duelmail.errors import CryptoError

V = json.loads((Path(__file__).parents[1] / "vectors" / "escrow.json").read_text(encoding="utf-8"))
H = bytes.fromhex
GAME = "g-escrow"
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def scalars(seed: int, k: int) -> list[bytes]:
    stream = Stream(seed.to_bytes(32, "big"), "test/escrow")
    return [stream.scalar() for _ in range(k)]


def seat_key(seat: int) -> bytes:
    """A seat's escrow key, from a stand-in game seed."""
    return E.escrow_key(hashlib.sha256(lp("test/escrow/seed", seat)).digest())


def ctx(dealer: int, what: str, round: int = 3) -> bytes:
    return E.escrow_context(GAME, round, dealer, what)


class Table:
    """``m`` seats; every seat escrows its escrow key and ``n`` lock keys among the others, as the
    design deals them: C_0 is never sent (each holder uses the recorded commitment), the shares of one
    dealer to one holder travel as one ciphertext."""

    def __init__(self, m: int, n: int = 3, threshold: int | None = None):
        self.m = m
        self.keys = {s: seat_key(s) for s in range(m)}
        self.pub = {s: g.base_mul(self.keys[s]) for s in range(m)}
        self.secrets = {s: [self.keys[s]] + scalars(100 + s, n) for s in range(m)}
        self.names = ["escrow-key"] + [f"a#{j}" for j in range(n)]
        self.recorded = {s: [g.base_mul(k) for k in self.secrets[s]] for s in range(m)}  # E_s, K_s[j]
        self.t = threshold or m - 1
        self.dealings = {}
        self.ciphertexts = {}
        for s in range(m):
            holders = [h + 1 for h in range(m) if h != s]
            self.dealings[s] = [E.deal(k, self.t, holders, ctx(s, name))
                                for k, name in zip(self.secrets[s], self.names, strict=True)]
            for h in range(m):
                if h != s:
                    self.ciphertexts[s, h] = E.encrypt_shares(
                        [d.shares[h + 1] for d in self.dealings[s]], self.pub[h], ctx(s, f"to-{h}"))

    def received_commitments(self, dealer: int) -> list[list[bytes]]:
        """What a holder checks against: its records' C_0, then the commitments the file sent."""
        return [[self.recorded[dealer][j], *d.sent] for j, d in enumerate(self.dealings[dealer])]

    def receive(self, dealer: int, holder: int) -> list[bytes]:
        return E.receive_shares(self.ciphertexts[dealer, holder], self.keys[holder], holder + 1,
                                self.received_commitments(dealer), ctx(dealer, f"to-{holder}"), self.names,
                                threshold=self.t)


# -- round trips ------------------------------------------------------------------------------------

@pytest.mark.parametrize("m", range(3, 9))
def test_every_seat_escrows_and_a_removed_seat_is_reconstructed(m):
    """3..8 seats, default threshold (every other seat): each holder checks its shares on arrival; at
    a removal the others publish them, everyone checks and reconstructs the keys that open the layers."""
    table = Table(m)
    absent = m - 1
    published = {}
    for holder in range(m - 1):
        shares = table.receive(absent, holder)
        for j, share in enumerate(shares):  # what every home checks when the holder publishes
            E.verify_share(share, holder + 1, table.received_commitments(absent)[j], table.names[j], threshold=table.t)
        published[holder + 1] = shares
    for j, public in enumerate(table.recorded[absent]):
        got = E.reconstruct({x: s[j] for x, s in published.items()}, table.t, public, table.names[j])
        assert got == table.secrets[absent][j]


@pytest.mark.parametrize("m,t", [(m, t) for m in range(3, 9) for t in range(1, m)])
def test_any_threshold_subset_reconstructs_and_fewer_do_not(m, t):
    (secret,) = scalars(m * 10 + t, 1)
    holders = list(range(1, m))
    d = E.deal(secret, t, holders, ctx(0, "a#0"))
    assert len(d.commitments) == t and len(d.sent) == t - 1
    assert d.commitments[0] == g.base_mul(secret)
    for x, share in d.shares.items():
        E.verify_share(share, x, d.commitments, threshold=t)
    for subset in itertools.islice(itertools.combinations(holders, t), 12):
        assert E.reconstruct({x: d.shares[x] for x in subset}, t, d.commitments[0]) == secret
    if t > 1:
        few = {x: d.shares[x] for x in holders[:t - 1]}
        with pytest.raises(CryptoError, match="cannot reconstruct a secret of threshold"):
            E.reconstruct(few, t)
        # t-1 shares claimed as a lower threshold give some other scalar, which the commitment refuses
        with pytest.raises(CryptoError, match="is not the commitment"):
            E.reconstruct(few, t - 1, d.commitments[0])


@pytest.mark.parametrize("m", [3, 5, 8])
def test_published_shares_are_checked_in_one_batch(m):
    table = Table(m)
    absent = m - 1
    published = {h + 1: table.receive(absent, h) for h in range(m - 1)}
    E.verify_published(published, table.received_commitments(absent), table.names)


def test_a_wrong_published_share_is_named_by_the_batch_check():
    table = Table(5)
    comms = table.received_commitments(4)
    published = {h + 1: table.receive(4, h) for h in range(4)}
    bad = dict(published)
    bad[3] = list(published[3])
    bad[3][2] = g.scalar_from_int(g.scalar_to_int(bad[3][2]) + 1)
    with pytest.raises(CryptoError, match=r"published shares: a#1: the share of holder 3 does not match"):
        E.verify_published(bad, comms, table.names)
    # Two compensating changes in one holder's row still fail: the weights hash every share.
    bad[3] = list(published[3])
    bad[3][1] = g.scalar_from_int(g.scalar_to_int(bad[3][1]) + 1)
    bad[3][2] = g.scalar_from_int(g.scalar_to_int(bad[3][2]) - 1)
    with pytest.raises(CryptoError, match=r"a#0: the share of holder 3 does not match"):
        E.verify_published(bad, comms, table.names)
    # Swapping two holders' rows: each is another holder's.
    with pytest.raises(CryptoError, match="the share of holder 1 does not match"):
        E.verify_published({1: published[2], 2: published[1]}, comms, table.names)
    with pytest.raises(CryptoError, match="the share of holder 2 is zero"):
        E.verify_published({2: [bytes(32)] + published[2][1:]}, comms, table.names)
    with pytest.raises(CryptoError, match="holder 2 published 2 shares, expected 4"):
        E.verify_published({2: published[2][:2]}, comms, table.names)
    with pytest.raises(CryptoError, match="commitment list 1 has 2 points, expected 4"):
        E.verify_published(published, [comms[0], comms[1][:2], *comms[2:]], table.names)


def test_sequential_removals_use_the_removed_seats_held_shares():
    """Five seats: seat 4 is removed, then seat 3. The second reconstruction needs seat 4's share of
    seat 3, which everyone decrypts with seat 4's reconstructed escrow key."""
    table = Table(5)
    first = {h + 1: table.receive(4, h) for h in range(4)}
    e4 = E.reconstruct({x: s[0] for x, s in first.items()}, table.t, table.pub[4], "escrow-key")
    assert e4 == table.keys[4]
    held = E.decrypt_shares(table.ciphertexts[3, 4], e4, ctx(3, "to-4"), len(table.names))
    second = {h + 1: table.receive(3, h) for h in range(3)} | {5: held}
    for j, public in enumerate(table.recorded[3]):
        E.verify_share(held[j], 5, table.received_commitments(3)[j], table.names[j], threshold=table.t)
        assert E.reconstruct({x: s[j] for x, s in second.items()}, table.t, public) == table.secrets[3][j]


def test_a_lowered_threshold_survives_two_silent_seats():
    table = Table(6, n=2, threshold=3)
    remaining = {h + 1: table.receive(5, h) for h in (0, 1, 2)}  # seats 3 and 4 silent too
    for j, public in enumerate(table.recorded[5]):
        assert E.reconstruct({x: s[j] for x, s in remaining.items()}, 3, public) == table.secrets[5][j]


def test_a_dealing_is_deterministic_and_bound_to_its_context():
    (secret,) = scalars(7, 1)
    a = E.deal(secret, 3, [1, 2, 3], ctx(0, "a#1"))
    assert a == E.deal(secret, 3, [1, 2, 3], ctx(0, "a#1"))
    assert a.sent != E.deal(secret, 3, [1, 2, 3], ctx(0, "a#2")).sent
    assert a.sent != E.deal(secret, 3, [1, 2, 3], ctx(0, "a#1"), b"hedge").sent
    assert E.escrow_context(GAME, 3, 0, "a#1") == lp("duelmail/escrow/v1", GAME, 3, 0, "a#1")


def test_a_dealing_of_many_positions_is_each_position_dealt_alone():
    """``escrow_contexts`` and ``deal_sent_each`` (the audit's, their heads encoded and their holders checked once)
    give each position what ``escrow_context`` and ``deal_sent`` give it alone, with a seed and without."""
    names = ["a#0", "a#1", "a#12", "key/to-3"]
    contexts = E.escrow_contexts(GAME, 4, 2, names)
    assert contexts == [E.escrow_context(GAME, 4, 2, w) for w in names] == \
        [lp("duelmail/escrow/v1", GAME, 4, 2, w) for w in names]
    secrets = scalars(11, len(names))
    for seed in (None, b"hedge"):
        each = E.deal_sent_each(secrets, 3, [1, 2, 4, 5], contexts, seed)
        assert each == [E.deal_sent(k, 3, [1, 2, 4, 5], c, seed) for k, c in zip(secrets, contexts, strict=True)]
        assert [sent for sent, _ in each] == [E.deal(k, 3, [1, 2, 4, 5], c, seed).commitments[1:]
                                             for k, c in zip(secrets, contexts, strict=True)]
    with pytest.raises(CryptoError, match="what must be a non-empty string, got ''"):
        E.escrow_contexts(GAME, 4, 2, ["a#0", ""])
    with pytest.raises(CryptoError, match="escrowed secret"):
        E.deal_sent_each([secrets[0], b"short"], 3, [1, 2, 4], contexts[:2])
    with pytest.raises(CryptoError, match="2 secrets for 1 contexts"):
        E.deal_sent_each(secrets[:2], 3, [1, 2, 4], contexts[:1])


# -- tampering ------------------------------------------------------------------------------------

def test_a_wrong_share_is_refused_naming_holder_and_position():
    table = Table(4)
    comms = table.received_commitments(0)
    good = table.receive(0, 1)
    with pytest.raises(CryptoError, match=r"a#1: the share of holder 2 does not match the dealer's commitments"):
        E.verify_share(g.scalar_from_int(g.scalar_to_int(good[2]) + 1), 2, comms[2], "a#1", threshold=3)
    with pytest.raises(CryptoError, match="the share of holder 2 does not match"):  # another holder's share
        E.verify_share(table.receive(0, 2)[2], 2, comms[2], "a#1", threshold=3)
    with pytest.raises(CryptoError, match="the share of holder 2 is zero"):
        E.verify_share(bytes(32), 2, comms[2], "a#1", threshold=3)
    with pytest.raises(CryptoError, match="not canonical"):
        E.verify_share(b"\xff" * 32, 2, comms[2], "a#1", threshold=3)
    with pytest.raises(CryptoError, match="not a 32-byte scalar"):
        E.verify_share(good[2][:31], 2, comms[2], "a#1", threshold=3)


def test_a_dealer_sending_a_wrong_share_is_caught_on_arrival():
    table = Table(4)
    shares = [d.shares[2] for d in table.dealings[0]]
    shares[3] = scalars(9, 1)[0]
    table.ciphertexts[0, 1] = E.encrypt_shares(shares, table.pub[1], ctx(0, "to-1"))
    with pytest.raises(CryptoError, match=r"escrow ciphertext: a#2: the share of holder 2 does not match"):
        table.receive(0, 1)


def test_a_share_of_a_wrong_secret_is_refused():
    table = Table(4)
    (other,) = scalars(11, 1)
    fake = E.deal(other, 3, [2, 3, 4], ctx(0, "a#0"))
    # C_0 is never received: the holder takes it from its records, so the share of another secret fails.
    with pytest.raises(CryptoError, match="the share of holder 2 does not match"):
        E.verify_share(fake.shares[2], 2, [table.recorded[0][1], *fake.sent], "a#0", threshold=3)
    honest = table.dealings[0][1].shares[2]
    E.verify_share(honest, 2, table.received_commitments(0)[1], "a#0", threshold=3)


def test_a_dealing_of_another_seats_key_is_refused():
    """C_0 is the dealer's own recorded commitment for that position: a dealing of another position's key, or
    of another seat's, does not open this layer."""
    table = Table(4)
    for public in (table.recorded[0][2], table.recorded[1][1], table.pub[0]):
        with pytest.raises(CryptoError, match="a#0: the share of holder 2 does not match"):
            E.verify_share(table.dealings[0][1].shares[2], 2, [public, *table.dealings[0][1].sent], "a#0", threshold=3)


def test_a_commitment_list_longer_than_the_threshold_is_refused_where_the_share_is_checked():
    """Issue 27, item 5: a dealer of threshold 2 that sends a degree-2 polynomial's commitments gives shares that
    each open their commitments, but two of them reconstruct nothing: verify_share refuses the list's length."""
    table = Table(3, threshold=2)
    secret = table.secrets[0][1]
    wide = E.deal(secret, 3, [2, 3, 4], ctx(0, "a#0"))  # degree 2, three commitments (a fourth index to deal it)
    for x in (2, 3):
        E.verify_share(wide.shares[x], x, wide.commitments, "a#0", threshold=3)  # opens its own three
        with pytest.raises(CryptoError, match=r"a#0: expected 2 commitments \(the threshold\), got 3"):
            E.verify_share(wide.shares[x], x, wide.commitments, "a#0", threshold=2)
        with pytest.raises(TypeError, match="threshold"):  # no call leaves the length unchecked
            E.verify_share(wide.shares[x], x, wide.commitments, "a#0")
    with pytest.raises(CryptoError, match="reconstruct a secret whose image"):
        E.reconstruct(wide.shares, 2, table.recorded[0][1], "a#0")
    with pytest.raises(CryptoError, match=r"expected 2 \(the threshold\)"):
        E.verify_published({2: [wide.shares[2]]}, [list(wide.commitments)], ["a#0"], "published", 2)
    c = ctx(0, "to-1")
    box = E.encrypt_shares([wide.shares[2]], table.pub[1], c)
    with pytest.raises(CryptoError, match="expected 2 commitments"):
        E.receive_shares(box, table.keys[1], 2, [list(wide.commitments)], c, ["a#0"], threshold=2)
    E.verify_share(table.dealings[0][1].shares[2], 2, table.received_commitments(0)[1], "a#0", threshold=2)


def test_a_commitment_that_does_not_match_is_refused():
    table = Table(4)
    comms = table.received_commitments(0)[1]
    share = table.receive(0, 1)[1]
    forged = [comms[0], comms[1], g.hash_to_point("test", "forged")]
    with pytest.raises(CryptoError, match="does not match the dealer's commitments"):
        E.verify_share(share, 2, forged, "a#0", threshold=3)
    with pytest.raises(CryptoError, match="commitment 2: not a point of the prime-order group"):
        E.verify_share(share, 2, [comms[0], comms[1], b"\x00" * 32], "a#0", threshold=3)
    with pytest.raises(CryptoError, match="expected 3 commitments"):
        E.check_commitments(comms[:2], 3, "a#0")
    assert E.check_commitments(comms, 3, "a#0") == comms


def test_a_share_encrypted_to_the_wrong_recipient_is_caught_and_proved():
    """The dealer encrypts seat 1's shares to seat 2's key: seat 1's check fails on arrival, and its
    complaint (D with a DLEQ proof) lets every seat see the shares fail: the dealer's cheat."""
    table = Table(4)
    shares = [d.shares[2] for d in table.dealings[0]]
    c = ctx(0, "to-1")
    table.ciphertexts[0, 1] = bad = E.encrypt_shares(shares, table.pub[2], c)
    with pytest.raises(CryptoError, match="escrow-key: the share of holder 2 does not match"):
        table.receive(0, 1)
    dh, proof = E.prove_decryption(bad, table.keys[1], c, len(shares))
    opened = E.open_with_proof(bad, table.pub[1], dh, proof, c, len(shares))
    with pytest.raises(CryptoError, match="the share of holder 2 does not match"):
        E.verify_share(opened[0], 2, table.received_commitments(0)[0], "escrow-key", threshold=3)


def test_a_false_complaint_is_seen_as_false():
    table = Table(3)
    c = ctx(0, "to-1")
    ct = table.ciphertexts[0, 1]
    dh, proof = E.prove_decryption(ct, table.keys[1], c, len(table.names))
    opened = E.open_with_proof(ct, table.pub[1], dh, proof, c, len(table.names))
    for j, share in enumerate(opened):  # every share opens: the complainer, not the dealer, cheated
        E.verify_share(share, 2, table.received_commitments(0)[j], table.names[j], threshold=2)


def test_a_forged_decryption_proof_is_refused():
    table = Table(3)
    c = ctx(0, "to-1")
    ct = table.ciphertexts[0, 1]
    n = len(table.names)
    dh, proof = E.prove_decryption(ct, table.keys[1], c, n)
    other_dh, other_proof = E.prove_decryption(table.ciphertexts[0, 2], table.keys[2], ctx(0, "to-2"), n)
    raw = bytearray(b64d(proof, "proof"))
    raw[40] ^= 1
    cases = [
        (dh, b64e(bytes(raw))),  # a flipped bit
        (g.hash_to_point("test", "dh"), proof),  # another D
        (dh, other_proof),  # another holder's proof
        (other_dh, other_proof),  # another holder's D and proof
    ]
    for d, p in cases:
        with pytest.raises(CryptoError, match="the decryption proof does not verify"):
            E.open_with_proof(ct, table.pub[1], d, p, c, n)
    with pytest.raises(CryptoError, match="the decryption proof does not verify"):  # under another context
        E.open_with_proof(ct, table.pub[1], dh, proof, ctx(0, "to-1", round=4), n)
    with pytest.raises(CryptoError, match="the decryption proof does not verify"):  # claimed for another key
        E.open_with_proof(ct, table.pub[2], dh, proof, c, n)


def test_a_ciphertext_copied_to_another_context_or_holder_fails():
    table = Table(3)
    with pytest.raises(CryptoError, match="does not match the dealer's commitments"):
        E.receive_shares(table.ciphertexts[0, 1], table.keys[1], 2, table.received_commitments(0),
                         ctx(0, "to-1", round=9), table.names, threshold=2)
    with pytest.raises(CryptoError, match="does not match the dealer's commitments"):
        E.receive_shares(table.ciphertexts[0, 2], table.keys[1], 2, table.received_commitments(0),
                         ctx(0, "to-1"), table.names, threshold=2)


def test_reconstruction_from_a_wrong_share_is_refused_by_the_commitment():
    table = Table(4)
    shares = {h + 1: table.receive(0, h)[1] for h in (1, 2, 3)}
    shares[2] = scalars(12, 1)[0]
    with pytest.raises(CryptoError, match=r"a#0: the shares of holders \[2, 3, 4\] reconstruct a secret whose image"):
        E.reconstruct(shares, 3, table.recorded[0][1], "a#0")


# -- malformed input ------------------------------------------------------------------------------

def test_malformed_dealings_are_refused():
    (secret,) = scalars(13, 1)
    c = ctx(0, "a#0")
    with pytest.raises(CryptoError, match="escrowed secret: scalar is zero"):
        E.deal(bytes(32), 2, [1, 2], c)
    with pytest.raises(CryptoError, match=r"threshold must be in 1..2 \(the holders\), got 3"):
        E.deal(secret, 3, [1, 2], c)
    with pytest.raises(CryptoError, match="threshold must be in"):
        E.deal(secret, 0, [1, 2], c)
    with pytest.raises(CryptoError, match="holder indices repeat"):
        E.deal(secret, 2, [1, 1], c)
    with pytest.raises(CryptoError, match=r"holder index must be an integer in 1..65536, got 0"):
        E.deal(secret, 1, [0, 1], c)
    with pytest.raises(CryptoError, match="holders must be a non-empty list"):
        E.deal(secret, 1, [], c)
    with pytest.raises(CryptoError, match="escrow context: expected bytes"):
        E.deal(secret, 1, [1], "ctx")
    with pytest.raises(CryptoError, match="game id must be a non-empty string"):
        E.escrow_context("", 1, 0, "a#0")
    with pytest.raises(CryptoError, match="cannot reconstruct"):
        E.reconstruct({}, 1)


def test_malformed_ciphertexts_are_refused():
    table = Table(3)
    c = ctx(0, "to-1")
    ct = table.ciphertexts[0, 1]
    n = len(table.names)
    raw = b64d(ct, "ct")
    assert len(raw) == E.ciphertext_size(n) == 32 * (n + 1)
    with pytest.raises(CryptoError, match=f"expected {32 * (n + 2)} bytes for {n + 1} shares, got {32 * (n + 1)}"):
        E.decrypt_shares(ct, table.keys[1], c, n + 1)
    with pytest.raises(CryptoError, match="R: not a point of the prime-order group"):
        E.decrypt_shares(b64e(bytes(32) + raw[32:]), table.keys[1], c, n)
    with pytest.raises(CryptoError, match="scalar 1 is not canonical"):
        E.decrypt_shares(b64e(raw[:64] + b"\xff" * 32 + raw[96:]), table.keys[1], c, n)
    with pytest.raises(CryptoError, match="not URL-safe base64"):
        E.decrypt_shares(ct + "!", table.keys[1], c, n)
    with pytest.raises(CryptoError, match="recipient's escrow key: not a point"):
        E.encrypt_shares([table.keys[0]], b"\x01" * 31 + b"\x80", c)
    with pytest.raises(CryptoError, match="expected a non-empty list of shares"):
        E.encrypt_shares([], table.pub[1], c)
    with pytest.raises(CryptoError, match="3 names for 4 shares"):
        E.receive_shares(ct, table.keys[1], 2, table.received_commitments(0), c, table.names[:3], threshold=2)


# -- properties -----------------------------------------------------------------------------------

@FAST
@given(secret=st.integers(1, g.L - 1), m=st.integers(3, 8), data=st.data())
def test_property_any_threshold_subset_reconstructs(secret, m, data):
    holders = data.draw(st.lists(st.integers(1, 300), min_size=m - 1, max_size=m - 1, unique=True))
    t = data.draw(st.integers(1, m - 1))
    d = E.deal(g.scalar_from_int(secret), t, holders, b"prop")
    subset = data.draw(st.lists(st.sampled_from(holders), min_size=t, max_size=t, unique=True))
    assert g.scalar_to_int(E.reconstruct({x: d.shares[x] for x in subset}, t)) == secret
    x = data.draw(st.sampled_from(holders))
    E.verify_share(d.shares[x], x, d.commitments, threshold=t)


@FAST
@given(values=st.lists(st.integers(1, g.L - 1), min_size=1, max_size=6), seat=st.integers(0, 7),
       label=st.text(min_size=1, max_size=8))
def test_property_encryption_round_trips_and_binds_the_context(values, seat, label):
    shares = [g.scalar_from_int(v) for v in values]
    key = seat_key(seat)
    c = E.escrow_context(GAME, 1, seat, label)
    ct = E.encrypt_shares(shares, g.base_mul(key), c)
    assert E.decrypt_shares(ct, key, c, len(shares)) == shares
    assert E.decrypt_shares(ct, key, c + b"x", len(shares)) != shares
    dh, proof = E.prove_decryption(ct, key, c, len(shares))
    assert E.open_with_proof(ct, g.base_mul(key), dh, proof, c, len(shares)) == shares


@FAST
@given(secret=st.integers(1, g.L - 1), t=st.integers(1, 7), delta=st.integers(1, g.L - 1), data=st.data())
def test_property_any_changed_share_is_refused(secret, t, delta, data):
    holders = list(range(1, 8))
    d = E.deal(g.scalar_from_int(secret), t, holders, b"prop")
    x = data.draw(st.sampled_from(holders))
    changed = (g.scalar_to_int(d.shares[x]) + delta) % g.L
    with pytest.raises(CryptoError, match=f"holder {x}"):
        E.verify_share(changed.to_bytes(32, "little"), x, d.commitments, threshold=t)


# -- known answers ----------------------------------------------------------------------------------

def test_known_answer_escrow_key():
    v = V["escrow_key"]
    assert E.escrow_key(H(v["game_seed"])).hex() == v["key"]
    assert g.base_mul(H(v["key"])).hex() == v["public"]


@pytest.mark.parametrize("case", V["dealings"])
def test_known_answer_dealings(case):
    d = E.deal(H(case["secret"]), case["threshold"], case["holders"], H(case["context"]),
               H(case["rng_seed"]) if case["rng_seed"] else None)
    assert [c.hex() for c in d.commitments] == case["commitments"]
    assert {str(x): s.hex() for x, s in d.shares.items()} == case["shares"]
    # Independently: the shares interpolate to the secret, and each opens the commitments.
    shares = {int(x): H(s) for x, s in case["shares"].items()}
    assert E.reconstruct(shares, case["threshold"], d.commitments[0]).hex() == case["secret"]


def test_known_answer_ciphertext():
    v = V["ciphertext"]
    c, shares, key, public = H(v["context"]), [H(s) for s in v["shares"]], H(v["key"]), H(v["public"])
    assert E.escrow_key(H(v["holder_seed"])).hex() == v["key"]
    assert E.encrypt_shares(shares, public, c) == v["ciphertext"]
    dh, proof = E.prove_decryption(v["ciphertext"], key, c, len(shares))
    assert (dh.hex(), proof) == (v["dh"], v["proof"])
    # Independently of the module: the pads are SHA-512 of the documented transcript.
    raw = b64d(v["ciphertext"], "ct")
    r_point = raw[:32]
    for j, share in enumerate(shares):
        pad = int.from_bytes(hashlib.sha512(lp(b"duelmail/escrow/pad/v1", c, public, r_point, dh, j)).digest(),
                             "little") % g.L
        cj = int.from_bytes(raw[32 + 32 * j:64 + 32 * j], "little")
        assert (cj - pad) % g.L == int.from_bytes(share, "little")
