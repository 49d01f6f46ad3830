"""Escrow, engine side (protocol section 6c): a seat that stops answering in a game of three or more seats is
claimed against, removed with its keys reconstructed from the others' escrow shares, and the rest play to the end;
every file is checked again by a fresh fold and the audit passes. The rules' rulings: W-32, Z-29, K-37."""

from __future__ import annotations

import copy

import pytest
from escrow_play import claim_file, play_with_silences

from duelmail.app import genesis_content
from duelmail.engine.match import Match
from duelmail.errors import FileRefused
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay
from duelmail.transport.archive import fold


def _genesis(game: str, n: int, escrow=None, drop_key: bool = False) -> SignedFile:
    sp = SelfPlay(game, n, seed=3)
    content = genesis_content(game, [i.card for i in sp.ids], 0, {}, sp.clock, b"e" * 16, master=sp.ids[0].master,
                              escrow=escrow)
    if drop_key:
        content.pop("escrow_key", None)
    return SignedFile.sign(content, sp.ids[0])


def test_escrow_is_on_by_default_in_games_of_three_or_more_seats_that_remove_seats():
    m = Match(_genesis("wizard", 3))
    assert m.escrow_on and m.escrow_material and m.creator in m.escrow_keys
    assert not Match(_genesis("warlords", 2)).escrow_on  # two seats: no escrow
    assert not Match(_genesis("wizard", 4, {"off": True})).escrow_on
    sk = Match(_genesis("skirmish", 3))
    assert sk.escrow_on and not sk.escrow_material  # no deck: nothing to escrow, a removal needs no key
    assert Match(_genesis("wizard", 5, {"threshold": 3})).escrow_threshold == 3
    old = Match(_genesis("warlords", 3, drop_key=True))  # neither table nor key: a genesis written before escrow
    assert not old.escrow_on and not old.escrow_material


@pytest.mark.parametrize("game, n, escrow, drop", [
    ("warlords", 2, {"threshold": 2}, False),  # two seats carry no escrow
    ("wizard", 4, {"threshold": 1}, False),  # at least 2
    ("wizard", 4, {"threshold": 4}, False),  # at most the seats minus one
    ("wizard", 4, {"off": "yes"}, False),
    ("wizard", 4, {"of": True}, False),
    ("wizard", 4, {"threshold": 2}, True),  # the creator's escrow key is missing
])
def test_a_genesis_with_a_wrong_escrow_table_is_refused(game, n, escrow, drop):
    with pytest.raises(FileRefused) as err:
        Match(_genesis(game, n, escrow, drop))
    assert err.value.rule == "P-genesis" and err.value.round == 0


def test_without_escrow_a_timeout_claim_still_forfeits_the_game():
    sp = SelfPlay("wizard", 4, seed=1, escrow={"off": True})
    sp.run(until=lambda m: m.round > 12 and any(not d.decide for d in m.duties.values()))
    m = sp.match
    s = next(x for x, d in m.duties.items() if not d.decide)
    sp.deliver(claim_file(sp, (s + 1) % 4, s))
    assert m.over() and not m.removed and s not in m.outcome().winners


def _check_removals(sp: SelfPlay, gone, n: int) -> None:
    m = sp.match
    removed = {s for s, _, _ in gone}
    assert m.finished and m.removed == removed
    assert m.audit.ok, m.audit.lines
    assert not set(m.outcome().winners) & removed
    # every file checked again from the genesis, as a receiver's new process does, with what each silent seat
    # would have sent in time arriving late: the claim is final (the removal round built on it), so it is void
    lates = [(f"late-r{rnd:04d}-s{s}.toml", late) for s, rnd, late in gone]
    s = next(iter(removed))
    back = SignedFile.sign({"duelmail": 1, "kind": "turn", "game": m.game_ref, "round": m.round, "prev": m.prev,
                            "seat": s, "time": sp.clock.isoformat(), "actions": []}, sp.ids[s])
    with pytest.raises(FileRefused) as err:  # nothing it sends afterwards counts
        sp.fresh().apply(back, "back.toml")
    assert err.value.rule == "P-escrow" and err.value.seat == s
    fresh = fold([(f"{i:05d}.toml", f) for i, f in enumerate(sp.files)] + lates + [("back.toml", back)])
    assert fresh.finished and fresh.removed == removed and fresh.audit.ok and fresh.prev == m.prev
    assert sorted(w for w, _ in fresh.void.values()) == sorted([w for w, _ in lates] + ["back.toml"])
    assert all("[P-final]" in reason for w, reason in fresh.void.values() if w != "back.toml")


@pytest.mark.parametrize("game, n, seed", [
    ("wizard", 3, 1), ("wizard", 6, 2),  # Z-29
    ("warlords", 3, 1), ("warlords", 5, 2),  # W-32
    ("skirmish", 3, 1), ("skirmish", 6, 2),  # K-37: no deck, the removal needs no key
])
def test_a_seat_that_goes_silent_is_removed_and_the_others_play_to_an_audited_end(game, n, seed):
    silent = seed * 7 % n
    sp, gone = play_with_silences(game, n, seed, [silent])
    assert [s for s, _, _ in gone] == [silent]
    _check_removals(sp, gone, n)
    if game != "skirmish":
        rnd = gone[0][1]
        published = [f for f in sp.files if f.kind == "turn" and f.round == rnd + 1]
        assert published and all(str(silent) in f.content["escrow_shares"] for f in published)


def test_two_seats_leave_one_after_the_other_in_a_game_of_five_under_a_lowered_threshold():
    """escrow.threshold = 3: each dealing has four holders, so the shares lost with the first seat removed (its
    escrow key is never rebuilt, issue 27) leave three, enough for the second removal."""
    sp, gone = play_with_silences("wizard", 5, 3, [1, 3], escrow={"threshold": 3})
    assert [s for s, _, _ in gone] == [1, 3]
    assert any(1 in d.holders for d in sp.match.dealings[3].values())
    _check_removals(sp, gone, 5)


def test_under_the_default_threshold_a_seat_whose_shares_left_with_another_is_not_removable():
    """Every holder is needed by default: once a seat has left, a dealing it held cannot be rebuilt (its escrow key
    is never rebuilt or published), so a claim against that dealer would forfeit the game instead of removing it."""
    sp = SelfPlay("wizard", 5, seed=3)
    m = sp.match
    s = None
    for _ in range(400):
        if all(d.locked for d in m.book.decks.values()) and m.round > 10:
            s = next((x for x, d in sorted(m.duties.items()) if not d.decide and m.removable(x)), None)
            if s is not None:
                break
        sp.step()
    sp.deliver(claim_file(sp, min(x for x in m.in_play() if x != s), s))
    sp.run(until=lambda m: s in m.removed)
    assert len(m.in_play()) == 4 and not any(m.removable(x) for x in m.in_play())
    held = [d for t in m.dealings.values() for d in t.values() if s in d.holders]
    assert held and all(len(set(d.holders) - {s}) < d.threshold for d in held)


def test_a_lock_pass_without_its_dealing_is_refused():
    sp = SelfPlay("wizard", 3, seed=1)
    for _ in range(20):
        s = next((x for x, d in sp.match.duties.items() if d.steps), None)
        if s is not None and sp.match.book.decks["w"].next_step().op in ("shuffle_lock", "lock"):
            break
        sp.step()
    f = sp.compose(s)
    content = copy.deepcopy(f.content)
    del content["escrow"]
    with pytest.raises(FileRefused) as err:
        sp.fresh().apply(SignedFile.sign(content, sp.ids[s]), "nodeal.toml")
    assert err.value.rule == "P-escrow" and err.value.seat == s
    content = copy.deepcopy(f.content)
    table = content["escrow"]["w"]["shares"]
    table["9"] = table.pop(next(iter(table)))  # a ciphertext for a seat that holds nothing
    with pytest.raises(FileRefused) as err:
        sp.fresh().apply(SignedFile.sign(content, sp.ids[s]), "holders.toml")
    assert err.value.rule == "P-escrow"


def test_a_lowered_threshold_reconstructs_from_fewer_shares():
    """escrow.threshold = 2 in a game of four: every dealing needs two of its three holders."""
    sp = SelfPlay("wizard", 4, seed=1, escrow={"threshold": 2})
    sp.run(until=lambda m: all(d.locked for d in m.book.decks.values()))
    assert all(d.threshold == 2 and len(d.holders) == 3 for t in sp.match.dealings.values() for d in t.values())
    m = sp.match
    for _ in range(400):
        s = next((x for x, d in m.duties.items() if not d.decide and m.removable(x)), None)
        if s is not None:
            break
        sp.step()
    sp.deliver(claim_file(sp, (s + 1) % 4, s))
    sp.run()
    assert m.removed == {s} and m.audit.ok, m.audit.lines


def test_a_false_complaint_is_a_cheat_by_the_complainer():
    """A holder whose shares all open their commitments complains anyway: its file is refused (P-escrow)."""
    from duelmail.crypto import escrow as esc
    from duelmail.crypto.deck import encode_points

    sp = SelfPlay("wizard", 3, seed=1)
    sp.run(until=lambda m: "w" in m.dealings.get(m.creator, {}) and m.duties)
    m = sp.match
    holder = next(s for s in sorted(m.duties) if s != m.creator)
    d = m.dealings[m.creator]["w"]
    ctx = esc.escrow_context(m.gid, d.round, m.creator, f"w/to-{holder}")
    dh, proof = esc.prove_decryption(d.ciphertexts[holder], sp.matches[holder]._own_escrow_secret(holder), ctx, d.count)
    f = sp.compose(holder)
    content = copy.deepcopy(f.content)
    content["escrow_complaint"] = {"dealer": m.creator, "what": "w", "dh": encode_points([dh]), "proof": proof}
    with pytest.raises(FileRefused) as err:
        sp.fresh().apply(SignedFile.sign(content, sp.ids[holder]), "complaint.toml")
    assert err.value.rule == "P-escrow" and err.value.seat == holder and "false complaint" in str(err.value)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", [4, 5])
def test_skirmish_sweep_a_removal_at_every_count(n, seed):
    """K-37 at every seat count (cheap: no deck, the removal happens at the claim)."""
    silent = seed % n
    sp, gone = play_with_silences("skirmish", n, seed, [silent], after=1)
    assert [s for s, _, _ in gone] == [silent]
    _check_removals(sp, gone, n)


def test_a_replay_checks_the_proofs_of_a_removed_seat_the_audit_cannot_recompute():
    """A replay leaves pass proofs to the audit, which recomputes every pass from the seeds; a removed seat has
    no seed, so its passes' proofs are checked after all (transport.archive.fold with defer_proofs)."""
    sp, gone = play_with_silences("warlords", 3, 1, [1])
    m = fold([(f"{i:05d}.toml", f) for i, f in enumerate(sp.files)], defer_proofs=True)
    assert m.removed == {1} and m.audit.ok and m.proofs.endswith("pass proofs checked"), m.proofs


@pytest.mark.parametrize("game, n, seed, during", [
    ("wizard", 4, 3, "reshuffle"),  # Z-21's reshuffle under way, the silent seat's lock pass due
    ("warlords", 4, 2, "set-up"),  # the first shuffles, the creator's lock due on two decks
])
def test_a_seat_silent_while_a_deck_is_being_locked_is_removed_and_the_deck_set_up_again(game, n, seed, during):
    """The generation it had yet to lock is abandoned and set up again without it, under a new generation
    number (fresh secrets for every locker); a reshuffle's locked inputs lose its layer with its reconstructed
    keys. The game then goes on to an audited end."""
    sp = SelfPlay(game, n, seed=seed)
    m = sp.match
    for _ in range(3000):
        s = next((x for x, d in m.duties.items() if d.steps and m.book.decks[d.steps[0]].done >= 1
                  and (m.round > 3 * n if during == "reshuffle" else m.round > 1)), None)
        if s is not None and m.removable(s):
            break
        sp.step()
    unlocked = [d.id for d in m.book.decks.values() if s in d.lockers and not d.locked]
    assert unlocked
    sp.deliver(claim_file(sp, next(x for x in range(n) if x != s), s))
    sp.run()
    assert m.removed == {s} and m.audit.ok, m.audit.lines
    for deck_id in unlocked:
        deck = m.book.decks[deck_id]
        assert deck.locked and s not in deck.lockers and deck.generation >= 1000
    again = fold([(f"{i:05d}.toml", f) for i, f in enumerate(sp.files)])
    assert again.finished and again.audit.ok and again.prev == m.prev


def test_a_late_complaint_names_the_dealer_and_the_holder_that_had_accepted_the_dealing():
    """Issue 27, item 5: a holder's home finds a wrong share on arrival, yet the holder answers without complaining
    (an accomplice) and complains only later. Both are named (P-escrow), the dealer cannot be removed, and a claim
    against it forfeits the game to the one seat that cheated in neither way."""
    from escrow_play import forfeits

    from duelmail.crypto import escrow as esc
    from duelmail.crypto import group
    from duelmail.testing.adversary import _dealing

    sp = SelfPlay("wizard", 3, seed=1)
    dealer, f, what = _dealing(sp)
    content = copy.deepcopy(f.content)
    d = content["escrow"][what]
    holder = min(int(h) for h in d["shares"])
    m = sp.matches[dealer]
    ctx = esc.escrow_context(m.gid, m.round, dealer, f"{what}/to-{holder}")
    shares = esc.decrypt_shares(d["shares"][str(holder)], sp.matches[holder]._own_escrow_secret(holder), ctx,
                                m.book.decks[what].n)
    shares[0] = group.scalar_from_int(424242)
    d["shares"][str(holder)] = esc.encrypt_shares(shares, m.escrow_keys[holder], ctx)
    sp.deliver(SignedFile.sign(content, sp.ids[dealer]))
    due = sp.matches[holder].complaints_due.pop(holder)  # the accomplice keeps quiet
    assert due == [(dealer, what, 0)]  # the dealer, the deck, the first dealing of it
    sent = len(sp.files)
    while not any(x.seat == holder and x.kind == "turn" for x in sp.files[sent:]):
        sp.step()
    assert not any("escrow_complaint" in x.content for x in sp.files[sent:])
    sp.matches[holder].complaints_due[holder] = due  # ... and complains later
    while not any("escrow_complaint" in x.content for x in sp.files[sent:]):
        sp.step()
    late = sp.match
    assert {(v.seat, v.rule) for v in late.violations} >= {(dealer, "P-escrow"), (holder, "P-escrow")}
    assert any(v.seat == holder and "accepted" in v.message for v in late.violations)
    assert late.escrow_accomplices == {dealer: {holder}} and not late.removable(dealer)
    third = ({0, 1, 2} - {dealer, holder}).pop()
    for _ in range(300):
        if dealer in late.duties and forfeits(late, dealer) and not late.over():
            break
        sp.step()
    sp.deliver(claim_file(sp, third, dealer))
    assert late.over() and late.outcome().winners == (third,)
    assert "could not be removed" in late.outcome().reason and sp.ids[holder].card.name in late.outcome().reason
