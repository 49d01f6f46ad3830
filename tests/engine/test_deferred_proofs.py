"""A fold that defers the pass proofs (what the replay does): the audit's recomputation of every pass,
key and layer commitment stands in for them once a game is audited; otherwise they are all checked,
and a failing one is refused as on arrival."""

from __future__ import annotations

import copy

import pytest
from helpers import Players

from duelmail.crypto import deck as sra
from duelmail.crypto import group
from duelmail.errors import FileRefused
from duelmail.protocol.turnfile import SignedFile
from duelmail.transport.archive import fold
from duelmail.transport.folder import GameFolder


def named(files):
    return [(f"r{f.round:04d}-s{f.seat}.toml" if f.kind != "genesis" else "genesis.toml", f) for f in files]


def test_an_audited_game_folds_to_the_same_chain_without_rechecking_proofs():
    p = Players(n=3, seed=2, options={"reshuffle": True}).run()
    plain = fold(named(p.files))
    deferred = fold(named(p.files), defer_proofs=True)
    assert deferred.audit.ok and deferred.prev == plain.prev and deferred.applied == plain.applied
    assert "not re-checked: the audit recomputed every pass" in deferred.proofs
    assert "checked as its file was applied" in plain.proofs
    assert deferred.book.deferred is None


def test_a_game_in_progress_has_every_proof_checked():
    p = Players(n=2, seed=1).run(until=lambda m: m.round >= 4)
    m = fold(named(p.files), defer_proofs=True)
    assert m.audit is None
    assert m.proofs.endswith("pass proofs checked") and not m.proofs.startswith("0 ")


def test_the_deferred_proofs_are_checked_as_one_batch(monkeypatch):
    """``check_deferred``: one ``verify_batch`` over every queued proof when they all hold."""
    from duelmail.crypto import proofs

    p = Players(n=2, seed=1).run(until=lambda m: m.round >= 4)
    calls, real = [], proofs.verify_batch

    def spy(items):
        calls.append(len(items))
        return real(items)

    monkeypatch.setattr(proofs, "verify_batch", spy)
    m = fold(named(p.files), defer_proofs=True)
    assert calls == [int(m.proofs.split()[0])] and calls[0] >= 3


def forged_pass(p: Players, field: str, value: str) -> SignedFile:
    """The next file with a deck pass, its ``field`` replaced and re-signed by its author."""
    for _ in range(50):
        seat = sorted(p.match.duties)[0]
        f = p.compose(seat)
        if f.content.get("deck") and any(field in t for t in f.content["deck"].values()):
            content = copy.deepcopy(f.content)
            for table in content["deck"].values():
                if field in table:
                    table[field] = value
                    break
            return SignedFile.sign(content, p.ids[seat])
        p.deliver(f)
    raise AssertionError("no deck pass with " + field)


def test_a_bad_proof_in_a_game_in_progress_is_refused_naming_the_file():
    p = Players(n=2, seed=3)
    honest = p.compose(sorted(p.match.duties)[0])
    p.deliver(honest)
    bad = forged_pass(p, "proof", honest.content["deck"][next(iter(honest.content["deck"]))]["proof"])
    files = named([*p.files, bad])
    with pytest.raises(FileRefused) as plain:
        fold(files)
    with pytest.raises(FileRefused) as deferred:
        fold(files, defer_proofs=True)
    assert str(deferred.value) == str(plain.value)
    assert deferred.value.rule in ("P-proof", "P-crypto") and f"r{bad.round:04d}-s{bad.seat}.toml" in str(plain.value)


def test_the_audit_recomputes_layer_commitments():
    """A shuffle whose layer commitment is not c·C (accepted here without proofs) fails the audit."""
    p = Players(n=2, seed=4)
    while True:
        seat = sorted(p.match.duties)[0]
        f = p.compose(seat)
        if any(t.get("op") == "shuffle" for t in f.content.get("deck", {}).values()):
            break
        p.deliver(f)
    content = copy.deepcopy(f.content)
    table = next(t for t in content["deck"].values() if t.get("op") == "shuffle")
    table["layer"] = sra.encode_points([group.base_mul(group.scalar_from_int(12345))])
    bad = SignedFile.sign(content, p.ids[seat])
    for _ in range(200):  # the rest of the game, accepted without proofs (seat's later passes build on it)
        for m in p.matches:
            m.apply(bad, "forged.toml", strict=False)
        if p.match.finished:
            break
        bad = p.compose(sorted(p.match.duties)[0])
    audit = p.match.audit
    assert not audit.ok
    assert any(rule == "P-audit-pass" and "layer commitment of the shuffle pass" in msg and s == seat
               for s, rule, msg in audit.cheats)


def stored(tmp_path, files) -> GameFolder:
    folder = GameFolder(tmp_path / "game")
    for f in files:
        folder.store(f)
    return folder


def test_a_folder_skips_only_the_proofs_it_has_checked_before(tmp_path):
    """The .proven cache: a proof is checked once per home; signatures, chain and moves every time."""
    p = Players(n=2, seed=3)
    p.deliver(p.compose(sorted(p.match.duties)[0]))
    honest_proof = next(iter(p.files[1].content["deck"].values()))["proof"]
    bad = forged_pass(p, "proof", honest_proof)  # a well-formed proof of another pass
    folder = stored(tmp_path, [*p.files, bad])
    assert folder.proven() == frozenset()
    with pytest.raises(FileRefused) as info:
        folder.fold()
    assert info.value.rule in ("P-proof", "P-crypto")
    folder.remember_proven({f.file_hash for f in p.files})
    with pytest.raises(FileRefused):
        folder.fold()  # the forged file is not in the cache: still refused
    folder.remember_proven({f.file_hash for f in [*p.files, bad]})
    assert folder.fold().round >= bad.round  # a cache entry is trusted for the proof (and points), nothing else


def test_a_folder_skips_the_point_checks_of_the_files_it_has_checked_before(tmp_path, monkeypatch):
    """The .proven cache covers a file's points as well as its proofs (both checked as it arrived): a fold in the
    home, or a replay of its game in progress, validates no point of those files; a file it does not list is
    checked as before, and so is everything a fold from elsewhere reads (``verify``)."""
    p = Players(n=2, seed=3)
    while sum(bool(f.content.get("deck")) for f in p.files) < 2:  # passes before the bad one, their points checked
        p.deliver(p.compose(sorted(p.match.duties)[0]))
    bad = bad_point_pass(p)
    folder = stored(tmp_path, [*p.files, bad])
    with pytest.raises(FileRefused) as refused:
        folder.fold()
    assert refused.value.rule == "P-crypto" and "not a point of the prime-order" in str(refused.value)
    folder.remember_proven({f.file_hash for f in p.files})
    with pytest.raises(FileRefused):
        folder.fold()  # the bad file is not in the cache: its points are checked
    with pytest.raises(FileRefused):
        fold(named([*p.files, bad]), defer_proofs=True, proven=folder.proven())  # nor in a replay's fold
    calls = []
    real = sra.valid_point
    monkeypatch.setattr(sra, "valid_point", lambda pt: calls.append(1) or real(pt))
    good = fold(named(p.files), proven=frozenset(f.file_hash for f in p.files))
    assert calls == [] and good.round == p.match.round
    fold(named(p.files))
    assert len(calls) > 20  # from elsewhere, every point of every pass



def bad_point_pass(p: Players) -> SignedFile:
    """The next file with a deck pass, its first point replaced by the identity (small order: no group point)."""
    for _ in range(50):
        seat = sorted(p.match.duties)[0]
        f = p.compose(seat)
        if f.content.get("deck"):
            content = copy.deepcopy(f.content)
            table = content["deck"][sorted(content["deck"])[0]]
            points = sra.decode_points(table["points"], None, "points")
            table["points"] = sra.encode_points([group.IDENTITY, *points[1:]])
            return SignedFile.sign(content, p.ids[seat])
        p.deliver(f)
    raise AssertionError("no deck pass")


def test_a_point_outside_the_group_is_refused_as_on_arrival_when_validated_after_the_fold():
    """A replay's fold validates the passes' points after the fold (P-crypto, the same file and words)."""
    p = Players(n=2, seed=3)
    bad = bad_point_pass(p)
    files = named([*p.files, bad])
    with pytest.raises(FileRefused) as plain:
        fold(files)
    with pytest.raises(FileRefused) as deferred:
        fold(files, defer_proofs=True)
    assert str(deferred.value) == str(plain.value) and deferred.value.rule == "P-crypto"
    assert f"r{bad.round:04d}-s{bad.seat}.toml" in str(plain.value) and "not a point of the prime-order" in str(
        plain.value)


def test_an_audited_game_validates_no_pass_point_twice(monkeypatch):
    """Once audited, every pass's points equal the audit's recomputation: the deferred fold does not validate them
    on decoding (the plain fold does)."""
    p = Players(n=2, seed=2).run()
    calls = []
    real = sra.valid_point
    monkeypatch.setattr(sra, "valid_point", lambda pt: calls.append(1) or real(pt))
    plain = fold(named(p.files))
    n_plain, calls[:] = len(calls), []
    deferred = fold(named(p.files), defer_proofs=True)
    assert deferred.audit.ok and deferred.prev == plain.prev and deferred.book.unvalidated is None
    assert n_plain > 50 and len(calls) < n_plain // 4, (n_plain, len(calls))


def test_an_escrow_commitment_outside_the_group_is_refused_as_on_arrival_when_validated_after_the_fold():
    """A replay's fold validates the escrow dealings' commitments after the fold too (issue 42: the audit recomputes
    them, so an audited game's are never checked twice); one outside the group is refused with the same words."""
    from duelmail.testing.selfplay import SelfPlay

    sp = SelfPlay("warlords", 3, seed=5)
    f = None
    for _ in range(100):
        for seat in sorted(sp.match.duties):
            f = sp.compose(seat)
            if any(w != "key" for w in f.content.get("escrow", {})):
                break
            sp.deliver(f)
            f = None
        if f is not None:
            break
    assert f is not None, "no escrow dealing"
    content = copy.deepcopy(f.content)
    table = content["escrow"][next(w for w in sorted(content["escrow"]) if w != "key")]
    commits = sra.decode_points(table["commits"], None, "commits")
    table["commits"] = sra.encode_points([group.IDENTITY, *commits[1:]])
    bad = SignedFile.sign(content, sp.ids[seat])
    files = named([*sp.files, bad])
    with pytest.raises(FileRefused) as plain:
        fold(files)
    with pytest.raises(FileRefused) as deferred:
        fold(files, defer_proofs=True)
    assert str(deferred.value) == str(plain.value) and "commits" in str(plain.value), str(plain.value)
    assert f"r{bad.round:04d}-s{bad.seat}.toml" in str(plain.value) and "not a point of the prime-order" in str(
        plain.value)


def test_an_escrow_dealing_that_does_not_follow_from_the_seed_fails_the_audit(monkeypatch):
    """A dealing its holders accept (its shares open its commitments) but that the dealer's published seed does not
    give: the audit, which recomputes every dealing (without ``C_0``, the recorded key commitment), names it."""
    from duelmail.engine import escrowing
    from duelmail.testing.selfplay import SelfPlay

    honest, forged = escrowing.deal_table, []

    def deal_table(gid, rnd, dealer, what, *rest):
        if forged or what == escrowing.KEY:
            return honest(gid, rnd, dealer, what, *rest)
        forged.append((dealer, what))  # the same keys, other coefficients and nonces
        return honest(gid, rnd, dealer, what, *rest[:-1], b"\x07" * 32)

    monkeypatch.setattr(escrowing, "deal_table", deal_table)
    sp = SelfPlay("warlords", 3, seed=5).run()
    assert len(forged) == 1
    (seat, what), = forged
    audit = fold(named(sp.files), defer_proofs=True).audit
    assert not audit.ok
    assert [(s, rule) for s, rule, msg in audit.cheats if f"escrow dealing of {what} " in msg] == [
        (seat, "P-audit-pass")], audit.lines


def test_the_audit_recomputes_key_commitments_the_fold_never_checked():
    """A lock's key commitments must be those of the keys the seed gives. The audit multiplies only the keys no
    share checked on arrival (``record_key`` checked the others against the same commitments): a commitment changed
    at a position whose key was never shared is still found."""
    from duelmail.engine.audit import audit_match

    m = fold(named(Players(n=2, seed=2).run().files), defer_proofs=True)
    assert m.audit.ok
    deck, seat, j = next((d, s, j) for d in m.book.decks.values() for s in d.lockers for j in range(d.n)
                         if s in d.commits and j not in d.keys.get(s, {}))
    deck.commits[seat] = [*deck.commits[seat][:j], group.base_mul(group.scalar_from_int(12345)),
                          *deck.commits[seat][j + 1:]]
    audit = audit_match(m)
    assert [(s, rule) for s, rule, msg in audit.cheats if "key commitments do not follow" in msg] == [
        (seat, "P-audit-pass")], audit.lines
