"""Re-sharing after a departure (protocol section 6c, "Threshold" and "Removal"; issue 27, item 1): in a game whose
genesis says ``escrow = {reshare = true}``, once a seat has left (removed, or retired by the rules: Z-19) every seat
still in play deals its escrowed lock keys again among the seats now in play, so that a second silent seat can be
removed (W-32, Z-29) instead of forfeiting the game; the coalition of ``escrow_attack`` still opens nothing, and a
wrong share in a re-dealing is named by its holder's complaint. Real signed files between separate seats' matches."""

from __future__ import annotations

import copy

import pytest
from escrow_attack import hidden_cards_opened, rebuild
from escrow_play import claim_file, forfeits, play_with_silences

from duelmail.crypto import escrow as esc
from duelmail.crypto import group
from duelmail.errors import FileRefused
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay
from duelmail.transport.archive import fold

RESHARE = {"reshare": True}


def _redealt(sp: SelfPlay) -> list[SignedFile]:
    return [f for f in sp.files if f.kind == "turn" and "escrow_reshare" in f.content]


def _remove_next(sp: SelfPlay) -> int:
    """Play until a seat (every deck locked) owes a file whose silence would forfeit the game and is removable;
    claim its timeout and play the removal round. Returns the seat removed."""
    m = sp.match
    for _ in range(400):
        if all(d.locked for d in m.book.decks.values()) and m.round > 2 * m.n and not m.over():
            s = next((x for x in sorted(m.duties) if forfeits(m, x) and m.removable(x)), None)
            if s is not None:
                break
        sp.step()
    else:
        raise AssertionError("no seat became removable")
    sp.deliver(claim_file(sp, min(x for x in m.in_play() if x != s), s))
    sp.run(until=lambda m: s in m.removed or m.over(), limit=5)
    assert s in m.removed and not m.over()
    return s


def _two_departures(n: int, seed: int, game: str = "wizard") -> tuple[SelfPlay, list[int]]:
    sp = SelfPlay(game, n, seed=seed, escrow=RESHARE)
    return sp, [_remove_next(sp), _remove_next(sp)]


def test_in_warlords_a_second_silent_seat_is_removed_after_the_re_dealings_and_the_game_plays_on():
    """W-32, four seats, default threshold: after the first removal each seat re-deals among the other two in its
    next file; a second silent seat is then removed and the two left play on (without re-sharing it would
    forfeit: test_escrow_removal, the default threshold)."""
    sp, gone = _two_departures(4, 1, "warlords")
    m = sp.match
    assert m.removed == set(gone) and _redealt(sp)
    assert all(d.label and gone[0] not in d.holders for d in m.dealings[gone[1]].values())
    start = m.round
    sp.run(until=lambda m: m.over() or m.round > start + 8)
    assert not m.forced_outcome and (not m.over() or set(m.outcome().winners) <= m.in_play())


@pytest.mark.parametrize("game, seed", [("wizard", 2)])
def test_after_a_departure_the_others_re_deal_and_a_second_silent_seat_is_removed(game, seed):
    """Z-29, four seats, default threshold: the first removal leaves each dealing one holder short; without
    re-sharing a second silent seat forfeits the game (test_escrow_removal, the default threshold). Here every seat
    re-deals in its next file and the second one is removed too, the game played to an audited end and folded
    again."""
    first, second = seed % 4, (seed + 2) % 4
    sp, gone = play_with_silences(game, 4, seed, [first, second], escrow=RESHARE)
    m = sp.match
    assert [s for s, _, _ in gone] == [first, second]
    assert m.finished and m.removed == {first, second} and m.audit.ok, m.audit.lines
    assert not set(m.outcome().winners) & {first, second}
    redealt = _redealt(sp)
    assert redealt and {f.seat for f in redealt} >= {second}
    used = list(m.dealings[second].values())
    assert used and all(d.label and first not in d.holders for d in used)  # the removal used the re-dealing
    assert "re-dealt" in " ".join(e.text for e in m.events)
    fresh = fold([(f"{i:05d}.toml", f) for i, f in enumerate(sp.files)])
    assert fresh.finished and fresh.removed == {first, second} and fresh.audit.ok and fresh.prev == m.prev


@pytest.mark.parametrize("game, n, seed", [
    ("wizard", 4, 1),  # two departures, two survivors
    ("wizard", 5, 1),  # two departures, three survivors
    ("warlords", 4, 1),
])
def test_after_two_departures_no_survivor_opens_another_seats_cards(game, n, seed):
    """The coalition (everything published, every seed, one survivor's secrets) against old and new dealings, and
    against shares of two dealings of one key taken together: it rebuilds the removed seats' keys and nothing else."""
    sp, silent = _two_departures(n, seed, game)
    m = sp.match
    assert m.removed == set(silent) and not m.over()
    assert _redealt(sp)
    for seat in sorted(m.in_play()):
        mine = sp.matches[seat]
        assert {dealer for dealer, _ in rebuild(mine, seat)} <= set(silent), seat
        assert hidden_cards_opened(mine, seat) == [], seat


def test_after_a_retirement_by_the_rules_the_others_re_deal_a_silent_seat_is_removed_and_none_opens_more():
    """Z-19: a Wizard Duel seat knocked out retires and publishes its seed; the others re-deal among themselves, the
    retired seat among no holder; the survivors still open nothing of one another's, and then a silent seat is
    removed (Z-29) and the two left open nothing of each other's either."""
    sp = SelfPlay("wizard", 4, seed=1, escrow=RESHARE)
    m = sp.match
    sp.run(until=lambda m: m.over() or any(s in m.seeds for s in m.state.retired()))
    assert not m.over()
    (gone,) = m.state.retired()
    sp.run(until=lambda m: m.over() or all(gone not in d.holders for x in m.in_play()
                                           for d in m.dealings.get(x, {}).values()))
    assert not m.over() and _redealt(sp)
    assert not any(gone in d.holders for x in m.in_play() for d in m.dealings.get(x, {}).values())
    for seat in sorted(m.in_play()):
        assert {dealer for dealer, _ in rebuild(sp.matches[seat], seat)} <= {gone}, seat
        assert hidden_cards_opened(sp.matches[seat], seat) == [], seat
    # the retired seat's shares are replaced: a silent seat is removed after it (without re-sharing it forfeits)
    removed = _remove_next(sp)
    assert m.removed == {removed} and len(m.in_play()) == 2
    for seat in sorted(m.in_play()):
        assert {dealer for dealer, _ in rebuild(sp.matches[seat], seat)} <= {gone, removed}, seat
        assert hidden_cards_opened(sp.matches[seat], seat) == [], seat


def test_a_genesis_without_reshare_deals_nothing_again():
    """Games begun before re-sharing (no ``reshare`` in the genesis) keep their behaviour: after a departure no
    file re-deals, and a file that does is refused."""
    sp = SelfPlay("wizard", 4, seed=2)
    gone = _remove_next(sp)
    m = sp.match
    sp.step()
    assert m.removed == {gone} and not _redealt(sp) and not any(m.removable(x) for x in m.in_play())
    seat = min(m.duties)
    content = dict(sp.compose(seat).content)
    content["escrow_reshare"] = {"a.1": {"commits": "", "shares": {}}}
    with pytest.raises(FileRefused) as err:
        m.apply(SignedFile.sign(content, sp.ids[seat]), "bad.toml")
    assert err.value.rule == "P-escrow" and "re-deals" in str(err.value) and "bad.toml" in str(err.value)


def test_a_wrong_share_in_a_re_dealing_is_named_by_its_holders_complaint():
    sp = SelfPlay("wizard", 4, seed=2, escrow=RESHARE)
    gone = _remove_next(sp)
    m = sp.match
    assert m.removed == {gone}
    dealer = next(s for s in sorted(m.duties) if m.redeal_due(s))
    f = sp.compose(dealer)
    content = copy.deepcopy(f.content)
    what = sorted(content["escrow_reshare"])[0]
    d = content["escrow_reshare"][what]
    holder = min(int(h) for h in d["shares"])
    label = m._redeal_label(dealer, what)
    ctx = esc.escrow_context(m.gid, m.round, dealer, f"{label}/to-{holder}")
    shares = esc.decrypt_shares(d["shares"][str(holder)], sp.matches[holder]._own_escrow_secret(holder), ctx,
                                m.book.decks[what].n)
    shares[3] = group.scalar_from_int(777)
    d["shares"][str(holder)] = esc.encrypt_shares(shares, m.escrow_keys[holder], ctx)
    sp.deliver(SignedFile.sign(content, sp.ids[dealer]))
    assert sp.matches[holder].complaints_due[holder] == [(dealer, what, 1)]
    sent = len(sp.files)
    sp.run(until=lambda m: any("escrow_complaint" in x.content for x in sp.files[sent:]), limit=40)
    for seat in m.in_play():
        mm = sp.matches[seat]
        assert any(v.seat == dealer and v.rule == "P-escrow" and "re-dealing" in v.message for v in mm.violations)
        assert dealer in mm.escrow_broken and not mm.removable(dealer)


@pytest.mark.parametrize("game, n, seed", [("wizard", 4, 3), ("warlords", 4, 2)])
def test_a_set_up_abandoned_at_a_removal_is_not_re_dealt_and_the_game_ends_audited(game, n, seed):
    """A seat removed while a deck generation it locks is being set up: that generation is set up again without it
    (fresh secrets). The dealings the others made of the abandoned one are not re-dealt (their keys lock nothing);
    the new generation is dealt with its locks, the locked decks are re-dealt, and the audit recomputes every
    dealing, the abandoned generation's included."""
    sp = SelfPlay(game, n, seed=seed, escrow=RESHARE)
    m = sp.match
    for _ in range(3000):
        s = next((x for x, d in m.duties.items() if d.steps and m.book.decks[d.steps[0]].done >= 1
                  and m.round > 1 and any(x != y and d.steps[0] in m.dealings.get(y, {}) for y in range(n))), None)
        if s is not None and m.removable(s):
            break
        sp.step()
    unlocked = [d.id for d in m.book.decks.values() if s in d.lockers and not d.locked]
    assert unlocked
    sp.deliver(claim_file(sp, next(x for x in range(n) if x != s), s))
    sp.run()
    assert m.removed == {s} and m.finished and m.audit.ok, m.audit.lines
    abandoned = [d for (dealer, what), h in m.dealing_history.items() if what in unlocked for d in h
                 if d.generation != m.book.decks[what].generation]
    assert abandoned and not any(d.label for d in abandoned)
    again = fold([(f"{i:05d}.toml", f) for i, f in enumerate(sp.files)])
    assert again.finished and again.audit.ok and again.prev == m.prev


def test_with_three_seats_a_departure_leaves_nobody_to_re_deal_among():
    """Two seats left: one holder would learn the keys, and no removal is possible anyway; nothing is dealt."""
    sp = SelfPlay("wizard", 3, seed=1, escrow=RESHARE)
    _remove_next(sp)
    start = sp.match.round
    sp.run(until=lambda m: m.over() or m.round > start + 4)
    assert not _redealt(sp) and all(not sp.match.redeal_due(x) for x in sp.match.in_play())


@pytest.mark.parametrize("table, why", [
    ({"off": True, "reshare": True}, "only with escrow on"),
    ({"reshare": "yes"}, "reshare must be true or false"),
    ({"reshare": True, "again": 1}, "off, threshold and reshare"),
])
def test_a_genesis_with_a_wrong_reshare_is_refused(table, why):
    from duelmail.app import genesis_content
    from duelmail.engine.match import Match

    sp = SelfPlay("wizard", 4, seed=3)
    content = genesis_content("wizard", [i.card for i in sp.ids], 0, {}, sp.clock, b"e" * 16, master=sp.ids[0].master,
                              escrow=table)
    with pytest.raises(FileRefused) as err:
        Match(SignedFile.sign(content, sp.ids[0]))
    assert err.value.rule == "P-genesis" and why in str(err.value)


def test_a_departed_seat_and_a_survivor_pooling_old_and_new_shares_open_nothing():
    """Four seats, default threshold: seat A leaves; each other dealer re-deals among the two others (t = 2). A (its
    escrow key) and a survivor B pool A's shares of the old dealing (t = 3) with B's of the new one: two shares,
    the new dealing's threshold, of two different polynomials. They give no key (Lagrange on them misses ``C_0``),
    and no card opens; the pooling was really tried with enough shares."""
    sp = SelfPlay("wizard", 4, seed=1, escrow=RESHARE)
    a = _remove_next(sp)
    m = sp.match
    sp.run(until=lambda m: m.over() or not any(m.redeal_due(x) for x in m.in_play()) and all(
        a not in d.holders for x in m.in_play() for d in m.dealings.get(x, {}).values()))
    assert not m.over() and _redealt(sp)
    partner = {a: sp.matches[a]._own_escrow_secret(a)}
    for b in sorted(m.in_play()):
        tries: list = []
        assert {dealer for dealer, _ in rebuild(sp.matches[b], b, partner, tries)} <= {a}, b
        assert tries and all(pooled >= t for _, _, pooled, t in tries), b
        assert hidden_cards_opened(sp.matches[b], b) == [], b


def _forge_redealing(sp: SelfPlay, f: SignedFile, holder: int) -> SignedFile:
    """``f`` (a file that re-deals) with the share of position 1 of its first re-dealing to ``holder`` replaced."""
    m = sp.matches[f.seat]
    content = copy.deepcopy(f.content)
    what = sorted(content["escrow_reshare"])[0]
    d = content["escrow_reshare"][what]
    ctx = esc.escrow_context(m.gid, m.round, f.seat, f"{m._redeal_label(f.seat, what)}/to-{holder}")
    shares = esc.decrypt_shares(d["shares"][str(holder)], sp.matches[holder]._own_escrow_secret(holder), ctx,
                                m.book.decks[what].n)
    shares[1] = group.scalar_from_int(777)
    d["shares"][str(holder)] = esc.encrypt_shares(shares, m.escrow_keys[holder], ctx)
    return SignedFile.sign(content, sp.ids[f.seat])


@pytest.mark.parametrize("game, n, seed, escrow, dealer, holder", [
    ("warlords", 4, 1, RESHARE, 2, 3),  # threshold 2 of the 2 left: the removal cannot go on, the dealer forfeits
    ("wizard", 5, 1, {**RESHARE, "threshold": 2}, 0, 1),  # threshold 2 of 3: the removal goes on without B's
])
def test_a_wrong_share_found_at_the_removal_names_the_dealer_not_its_holder(game, n, seed, escrow, dealer, holder):
    """Issue 37, item 3: after a departure the dealer X re-deals with one wrong share to holder B, then falls silent
    before B has sent a file; a partner claims X's timeout and the removal round awaits B's shares of X. B's file
    carries its proved decryption in place of them (composed by itself): every seat's match names X; the removal
    goes on with the good shares when the threshold allows, and otherwise ends the game against X, B among the
    winners. Every file folded again gives the same."""
    sp = SelfPlay(game, n, seed=seed, escrow=escrow)
    gone = _remove_next(sp)
    m = sp.match
    forged = False
    for _ in range(40):
        if forged and dealer in m.duties and forfeits(m, dealer):
            break
        for seat in sorted(m.duties):
            f = sp.compose(seat)
            if seat == dealer and "escrow_reshare" in f.content:
                f, forged = _forge_redealing(sp, f, holder), True
            sp.deliver(f)
    assert forged and sp.matches[holder].complaints_due.get(holder)  # B has not answered since the dealing
    assert m.removable(dealer) and dealer not in m.escrow_broken
    partner = min(m.in_play() - {dealer, holder})
    sp.deliver(claim_file(sp, partner, dealer))
    assert m.removing == dealer and holder in m.duties
    mine = sp.compose(holder)
    assert any(isinstance(v, dict) and set(v) == {"dh", "proof"} for v in mine.content["escrow_shares"][str(dealer)]
               .values())
    sp.deliver(mine)
    for seat in [s for s in sorted(m.duties) if s not in m.current]:
        sp.deliver(sp.compose(seat))
    assert m.removing is None
    threshold_allows = "threshold" in escrow
    for seat in sorted(set(range(n)) - {gone, dealer}):
        mm = sp.matches[seat]
        assert [v.seat for v in mm.violations] == [dealer], mm.violations
        assert "a re-dealing" in mm.violations[0].message and f"seat {holder}'s complaint" in mm.violations[0].message
        if threshold_allows:
            assert mm.removed == {gone, dealer} and not mm.over()
        else:
            assert mm.over() and dealer not in mm.removed
            o = mm.outcome()
            assert set(o.winners) == {partner, holder} and "wrong escrow share" in o.reason, o
    again = fold([(f"{i:05d}.toml", f) for i, f in enumerate(sp.files)])
    assert again.prev == m.prev and again.removed == m.removed and [v.seat for v in again.violations] == [dealer]


def test_a_home_that_folds_before_it_knows_its_seat_still_complains_about_a_first_dealing():
    """Issue 37, item 3, the first dealing: a home folds its log without its identity (so the check on arrival does not
    run there) and learns its seat only to sign. Its next file still carries the complaint about the wrong share of
    the dealing with a lock pass, and every seat names the dealer, not the holder."""
    from duelmail.engine.match import Match
    from duelmail.testing.adversary import _dealing

    sp = SelfPlay("wizard", 4, seed=3)
    dealer, f, what = _dealing(sp)
    m = sp.matches[dealer]
    content = copy.deepcopy(f.content)
    d = content["escrow"][what]
    holder = max(int(h) for h in d["shares"])
    ctx = esc.escrow_context(m.gid, m.round, dealer, f"{what}/to-{holder}")
    shares = esc.decrypt_shares(d["shares"][str(holder)], sp.matches[holder]._own_escrow_secret(holder), ctx,
                                m.book.decks[what].n)
    shares[2] = group.scalar_from_int(99)
    d["shares"][str(holder)] = esc.encrypt_shares(shares, m.escrow_keys[holder], ctx)
    sp.deliver(SignedFile.sign(content, sp.ids[dealer]))
    home = Match(sp.genesis)  # the holder's home: every file folded first, its identity attached only to sign
    for g in sp.files[1:]:
        home.apply(g, f"r{g.round:04d}-s{g.seat}.toml")
    home.attach(holder, sp.ids[holder])
    assert not home.complaints_due.get(holder)
    sp.matches[holder] = home
    sp.run(until=lambda m: holder in m.duties, limit=40)
    mine = sp.compose(holder)
    assert mine.content["escrow_complaint"]["dealer"] == dealer and mine.content["escrow_complaint"]["what"] == what
    sp.deliver(mine)
    for seat in range(4):
        assert [(v.seat, v.rule) for v in sp.matches[seat].violations] == [(dealer, "P-escrow")], seat
        assert dealer in sp.matches[seat].escrow_broken


@pytest.mark.parametrize("game, n, seed", [("warlords", 4, 1), ("wizard", 4, 2)])
def test_a_seats_acceptance_of_the_dealings_is_noted_again_after_a_re_dealing(monkeypatch, game, n, seed):
    """A file accepts every dealing made to its seat in a round before (``_note_acceptance``); once a file of the seat
    accepted every dealing there was, the next ones skip the walk until a dealing is made (``accepted_all``): the
    fold records the same acceptances, the re-dealings' included, as one that walks every dealing at every file."""
    from duelmail.engine.escrowing import Escrowing

    sp, _ = _two_departures(n, seed, game)
    start = sp.match.round
    sp.run(until=lambda m: m.over() or m.round > start + 8)
    files = [(f"{i:04d}.toml", f) for i, f in enumerate(sp.files)]
    skipped = []
    note = Escrowing._note_acceptance

    def counted(self, seat, rnd, published=None):
        skipped.append(self.accepted_all.get(seat) == self.dealings_made and not isinstance(published, dict))
        return note(self, seat, rnd, published)

    monkeypatch.setattr(Escrowing, "_note_acceptance", counted)
    kept = fold(files)

    def walking(self, seat, rnd, published=None):
        self.accepted_all.clear()
        return note(self, seat, rnd, published)

    monkeypatch.setattr(Escrowing, "_note_acceptance", walking)
    walked = fold(files)
    redealt = {k: v for k, v in walked.escrow_accepted.items() if "@" in k[1]}
    assert redealt and all(redealt.values()) and sum(skipped) > 5
    assert kept.escrow_accepted == walked.escrow_accepted
    # a dealing of the file's own round (another seat's file of that round, applied before) is accepted only by a
    # file of a later round: until then the walk is not skipped
    (dealer, what), history = next(iter(kept.dealing_history.items()))
    d, holder = history[-1], history[-1].holders[0]
    kept.escrow_accepted[(dealer, d.tag(what))].discard(holder)
    kept.accepted_all.clear()
    note(kept, holder, d.round)
    assert holder not in kept.escrow_accepted[(dealer, d.tag(what))]
    note(kept, holder, d.round + 1)
    assert holder in kept.escrow_accepted[(dealer, d.tag(what))]
