"""The engine on the High Card test game: folding, rounds, audit, and every refusal path."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest
import toy
from helpers import Players

from duelmail.crypto import deck as sra
from duelmail.crypto import group
from duelmail.engine.decks import DeckBook
from duelmail.engine.log import Duplicate
from duelmail.engine.match import Match
from duelmail.errors import CheatDetected, CryptoError, FileRefused
from duelmail.games.base import Shuffle, register
from duelmail.protocol.turnfile import SignedFile


def resign(f: SignedFile, identity, **changes) -> SignedFile:
    content = copy.deepcopy(f.content)
    content.update(changes)
    return SignedFile.sign(content, identity)


def refused(match: Match, f: SignedFile, rule: str) -> FileRefused:
    with pytest.raises(FileRefused) as info:
        match.apply(f, "incoming.toml")
    assert info.value.rule == rule, str(info.value)
    assert "incoming.toml" in str(info.value) and f"round {f.round}" in str(info.value)
    return info.value


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("reshuffle", [False, True])
def test_games_fold_audit_and_refold_identically(n, reshuffle):
    for seed in range(4):
        p = Players(n=n, seed=seed, options={"reshuffle": reshuffle})
        p.run()
        m = p.match
        assert m.finished and m.audit.ok, m.audit.lines
        assert all(other.prev == m.prev for other in p.matches)
        assert p.fresh().prev == m.prev  # the state is a pure fold: nothing lives outside the log


def test_reshuffle_of_public_and_locked_cards_keeps_every_card():
    for seed in range(20):
        p = Players(n=2, seed=seed, options={"reshuffle": True})
        p.run()
        if any(d.id.startswith("s.") for d in p.match.book.decks.values()):
            faces = p.match.audit.faces
            new = sorted(f for r, f in faces.items() if r.deck == "s.1")
            assert len(new) == len(set(new)) == p.match.book.decks["s.1"].n
            return
    pytest.fail("no seed produced a swap")


def test_concurrent_round_applies_in_any_order():
    p = Players(n=3, seed=5)
    p.run(until=lambda m: len(m.duties) >= 2 and not m.state.deciders() and not m.state.is_terminal())
    files = [p.compose(s) for s in sorted(p.match.duties)]
    a, b = p.fresh(), p.fresh()
    for f in files:
        a.apply(f, "x")
    for f in reversed(files):
        b.apply(f, "x")
    assert a.prev == b.prev and a.round == b.round
    assert a.state.outcome() == b.state.outcome()


def test_duplicate_file_changes_nothing():
    p = Players(seed=1)
    p.step()
    m = p.fresh()
    with pytest.raises(Duplicate):
        m.apply(p.files[1], "again.toml")
    assert m.prev == p.match.prev


def test_flipped_byte_is_refused():
    p = Players(seed=1)
    f = p.compose(1)
    bad = SignedFile(f.content, bytes([f.signature[0] ^ 1]) + f.signature[1:])
    refused(p.fresh(), bad, "P-signature")
    tampered = SignedFile({**f.content, "time": "2026-11-21T13:00:00+00:00"}, f.signature)
    assert "signature does not verify" in str(refused(p.fresh(), tampered, "P-signature"))


def test_signature_by_the_wrong_key_is_refused():
    p = Players(seed=1)
    f = p.compose(1)
    forged = resign(f, p.ids[0])  # seat 0 signs a file that claims to be seat 1's
    assert "bob" in str(refused(p.fresh(), forged, "P-signature"))


def test_file_from_another_game_is_refused():
    p, q = Players(seed=1), Players(seed=2)
    f = q.compose(1)
    assert "not of this game" in str(refused(p.fresh(), f, "P-game"))


def test_turn_out_of_order_is_refused():
    p = Players(seed=1)
    p.step()
    f2 = p.compose(sorted(p.match.duties)[0])
    early = Players(seed=1).fresh()
    assert "round 1" in str(refused(early, f2, "P-round"))


def test_old_round_rewritten_is_equivocation():
    p = Players(seed=1)
    p.step()
    p.step()
    first = p.files[1]
    other = resign(first, p.ids[first.seat], time="2026-11-21T12:01:00+00:00")
    err = refused(p.fresh(), other, "P-equivocation")
    assert "proves" in str(err)


def test_equivocation_in_the_open_round():
    p = Players(n=3, seed=5)
    p.run(until=lambda m: len(m.duties) >= 2 and not m.state.deciders() and not m.state.is_terminal())
    seat = sorted(p.match.duties)[0]
    f = p.compose(seat)
    m = p.fresh()
    m.apply(f, "a.toml")
    twin = resign(f, p.ids[seat], time="2026-11-21T23:00:00+00:00")
    refused(m, twin, "P-equivocation")


def test_chain_must_name_the_last_round():
    p = Players(seed=1)
    f = p.compose(1)
    refused(p.fresh(), resign(f, p.ids[1], prev="00" * 32), "P-chain")


def test_seat_not_awaited_is_refused():
    p = Players(seed=1)
    f = p.compose(1)
    wrong = resign(f, p.ids[0], seat=0)
    assert "not awaited" in str(refused(p.fresh(), wrong, "P-turn"))


def test_illegal_move_is_refused_with_its_rule():
    p = Players(seed=1)
    p.run(until=lambda m: any(d.decide for d in m.duties.values()))
    seat = next(s for s, d in p.match.duties.items() if d.decide)
    f = p.compose(seat, ["keep"])
    bad = resign(f, p.ids[seat], actions=["dance"])
    assert "dance" in str(refused(p.fresh(), bad, "notation"))


def _key_file(p: Players):
    p.run(until=lambda m: any(d.shares for d in m.duties.values()) or any(
        "keys" in f.content for f in p.files[-1:]))
    for _ in range(50):
        seat = sorted(p.match.duties)[0]
        f = p.compose(seat)
        if f.content.get("keys"):
            return seat, f
        p.deliver(f)
    raise AssertionError("no file with keys")


def test_wrong_key_share_is_refused():
    p = Players(seed=3)
    seat, f = _key_file(p)
    keys = dict(f.content["keys"])
    ref = sorted(keys)[0]
    keys[ref] = sra.encode_scalars([group.scalar_from_int(12345)])
    err = refused(p.fresh(), resign(f, p.ids[seat], keys=keys), "P-keys")
    assert ref in str(err) and "commitment" in str(err)


def test_early_peek_is_refused():
    p = Players(seed=3)
    seat, f = _key_file(p)
    keys = dict(f.content["keys"])
    keys["s#12"] = sra.encode_scalars([p.matches[seat].own_key(seat, _ref("s#12"))])
    err = refused(p.fresh(), resign(f, p.ids[seat], keys=keys), "P-peek")
    assert "s#12" in str(err)


def _ref(text):
    from duelmail.games.cards import CardRef

    return CardRef.parse(text)


def test_withheld_key_share_is_refused():
    p = Players(n=3, seed=5)
    p.run(until=lambda m: len(m.duties) >= 2 and not m.state.deciders() and not m.state.is_terminal())
    seat = sorted(p.match.duties)[0]
    f = p.compose(seat)
    stripped = {k: v for k, v in f.content.items() if k != "keys"}
    err = refused(p.fresh(), SignedFile.sign(stripped, p.ids[seat]), "P-withheld")
    assert "withholds" in str(err)


def _forged_deck_step(p: Players, mutate) -> SignedFile:
    """Seat 1 (the cheater) writes its first deck pass with mutated points, signed by itself."""
    f = p.compose(1)
    content = copy.deepcopy(f.content)
    pts = sra.decode_points(content["deck"]["s"]["points"], None, "x")
    content["deck"]["s"]["points"] = sra.encode_points(mutate(pts))
    return SignedFile.sign(content, p.ids[1])


def _accept_unchecked(p: Players, f: SignedFile) -> None:
    """Receivers that skip proof checks (as an archive from before proofs would need): defence in depth."""
    for m in p.matches:
        m.apply(f, "forged.toml", strict=False)
    p.files.append(f)


def test_forged_shuffle_is_refused_on_arrival_by_its_proof():
    for mutate in (lambda pts: [pts[0], pts[0], *pts[2:]], lambda pts: [pts[1], pts[0], *pts[2:]],
                   lambda pts: [group.hash_to_point(b"junk"), *pts[1:]]):
        p = Players(seed=4)
        err = refused(p.fresh(), _forged_deck_step(p, mutate), "P-proof")
        assert "seat 1" in str(err) and "round 1" in str(err) and "proof" in str(err)


def test_duplicated_card_in_a_shuffle_is_caught_at_the_audit():
    p = Players(seed=4)
    _accept_unchecked(p, _forged_deck_step(p, lambda pts: [pts[0], pts[0], *pts[2:]]))
    try:
        p.run()
    except (FileRefused, CheatDetected) as e:  # the duplicate may also surface when both copies are revealed
        assert "CHEAT" in str(e) or "no card" in str(e)
        return
    audit = p.match.audit
    assert not audit.ok
    assert any(seat == 1 and rule == "P-audit-pass" for seat, rule, _ in audit.cheats), audit.lines


def test_card_that_decrypts_to_no_card_is_refused():
    p = Players(seed=4)
    junk = group.hash_to_point(b"junk")
    _accept_unchecked(p, _forged_deck_step(p, lambda pts: [junk] * len(pts)))
    # whoever first strips the junk (a drawer privately, or everyone at a reveal) is stopped
    with pytest.raises((FileRefused, CheatDetected)) as info:
        p.run()
    assert "no card" in str(info.value) and info.value.rule == "P-card"


class ReusedIdState(toy.HighCardState):
    """A buggy game: its reshuffle asks for the fresh deck's own id, ``s``, again."""

    def clone(self):
        twin = super().clone()
        twin.__class__ = ReusedIdState
        return twin

    def chance(self):
        return self.pending and Shuffle("s", self.pending.refs)


class ReusedId(toy.HighCard):
    spec = replace(toy.HighCard.spec, id="highcard-reused")

    def new_state(self, nseats, options):
        state = super().new_state(nseats, options)
        state.__class__ = ReusedIdState
        return state


register(ReusedId())


def test_reshuffle_reusing_a_deck_id_is_refused_naming_it_and_the_round():
    """Issue 14.4: a new generation under an id already used would reuse that generation's secrets."""
    p = Players("highcard-reused", n=2, seed=1, options={"reshuffle": True})
    p.run(until=lambda m: 0 in m.state.deciders() and m.duties.get(0) and m.duties[0].decide)
    rnd = p.match.round
    with pytest.raises(FileRefused) as info:
        p.compose(0, ["swap"])
    assert info.value.rule == "P-crypto" and f"round {rnd}" in str(info.value)
    assert "deck id 's' is already in use" in str(info.value)
    assert p.match.book.decks["s"].n == 13  # nothing replaced the deck


def test_deck_book_refuses_a_second_generation_under_one_id():
    book = DeckBook("ab" * 32, 0, 2)
    book.add_fresh("s", 4, (0, 1))
    book.add_reshuffle("s.1", [("s", 0), ("s", 1)], {("s", 0): 0, ("s", 1): 1}, 5)
    assert [d.generation for d in book.decks.values()] == [0, 1]
    with pytest.raises(CryptoError, match=r"round 7: deck id 's.1' is already in use"):
        book.add_reshuffle("s.1", [("s", 2)], {("s", 2): 2}, 7)
    assert book.decks["s.1"].n == 2
