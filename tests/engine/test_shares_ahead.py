"""Key shares ahead of a draw (issue 39 item 3, protocol section 6 "Shares ahead of a draw"): in a game whose
genesis says ``ahead = true``, a seat's share for a card the rules already make certain to be drawn by another seat,
with no decision of that seat before it, rides in a file the seat sends anyway. Played between separate folds (one
``Match`` per seat, each checking every signed file it receives), with the cheats a home could try."""

from __future__ import annotations

import copy

import pytest

from duelmail.app import BEFORE_DELIVERY_TIME_CONTROL, genesis_content
from duelmail.crypto import deck as sra
from duelmail.engine.match import Match
from duelmail.errors import FileRefused
from duelmail.games.base import PUBLIC
from duelmail.games.cards import CardRef
from duelmail.games.wizard.terms import TURN
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay

NO_ESCROW = {"off": True}


def _files_per_kind(sp: SelfPlay) -> tuple[int, int]:
    decisions = sum(1 for f in sp.files[1:] if f.content.get("actions"))
    return decisions, len(sp.files) - 1 - decisions


def test_wizard_shares_ride_ahead_of_a_forced_pass_and_no_drawer_sees_its_card_early():
    """Z-5, Z-7: a player on turn with one card can only pass, so the next player's draw is certain: the shares for
    it ride in the files sent before. Each seat's own fold never shows it a card before the rules do (its view is
    checked after every file), the whole game folds again from scratch with the audit passing, and the same game
    with the flag ignored sends more answers and as many decisions."""
    sp = SelfPlay("wizard", n=3, seed=1, escrow=NO_ESCROW, ahead=True)
    assert sp.genesis.content["ahead"] is True and all(m.ahead_on for m in sp.matches)
    shown: dict[int, set[CardRef]] = {s: set() for s in range(3)}
    ahead = 0
    while not sp.match.finished:
        for f in sp.step():
            pending = sp.matches[(f.seat + 1) % 3].ahead_pending
            ahead += bool(pending)
            for s, m in enumerate(sp.matches):
                assert m.ahead_pending == pending  # every fold reads the file alike
                if m.over():
                    continue
                shown[s] |= {r for r, who in m.state.visibility().items() if who in (s, PUBLIC)}
                seen = set(m.seen(s))
                assert seen <= shown[s] | set(m.faces), sorted(seen - shown[s])  # nothing before the rules show it
                assert not seen & {r for r, d in pending.items() if d == s}
    assert ahead >= 3
    fresh = sp.fresh()
    assert fresh.finished and fresh.audit.ok, fresh.audit
    with_flag = _files_per_kind(sp)
    again = SelfPlay("wizard", n=3, seed=1, shared=True, escrow=NO_ESCROW, ahead=True)
    again.match.ahead_on = False  # the same game, every share sent once owed
    again.run()
    without = _files_per_kind(again)
    assert with_flag[0] == without[0] and with_flag[1] < without[1], (with_flag, without)


def _at_a_pass(sp: SelfPlay, certain: bool) -> tuple[int, SignedFile, Match]:
    """Play on until a seat's pass after which the next player's draw is (``certain``) or is not named certain by
    the rules; return the seat, its honest file unsent, and the fold as it will stand once the file is applied."""
    for _ in range(400):
        for seat in sorted(sp.match.duties):
            m = sp.matches[seat]
            if m.duties[seat].decide and m.state.phase == TURN:
                f, after = m._compose(seat, sp.ids[seat], ["pass"], sp.tick())
                if bool(after.state.draws_ahead()) == certain and after.state.stock \
                        and all(d.locked for d in after.book.decks.values()):
                    return seat, f, after
            sp.deliver(sp.compose(seat))
    raise AssertionError("no such pass")


def _with_key(f: SignedFile, sp: SelfPlay, seat: int, ref: CardRef, key_of: CardRef | None = None) -> SignedFile:
    content = copy.deepcopy(f.content)
    key = sp.matches[seat].own_key(seat, key_of or ref)
    content["keys"] = dict(sorted({**content.get("keys", {}), str(ref): sra.encode_scalars([key])}.items()))
    return SignedFile.sign(content, sp.ids[seat])


def _refused(sp: SelfPlay, f: SignedFile) -> FileRefused:
    other = sp.matches[(f.seat + 1) % 3].clone()  # a fold that raised is spent: the honest file goes on after
    with pytest.raises(FileRefused) as e:
        other.apply(f, f"r{f.round:04d}-s{f.seat}.toml")
    return e.value


def test_a_share_ahead_of_a_draw_the_rules_do_not_make_certain_is_refused_naming_its_signer():
    """After this pass the next player holds two cards and may attack: the card after its draw is nobody's yet, so
    a share for it is an early peek, refused on arrival with the signer's round and seat."""
    sp = SelfPlay("wizard", n=3, seed=2, escrow=NO_ESCROW, ahead=True)
    seat, f, after = _at_a_pass(sp, certain=False)
    e = _refused(sp, _with_key(f, sp, seat, after.state.stock[0]))
    assert e.rule == "P-peek" and f"seat {seat}" in str(e) and f"round {f.round}" in str(e), e
    assert f"{sp.match.cards[seat].name}'s share may go ahead of a draw only once the rules make that draw certain" \
        in str(e)


def test_a_share_ahead_for_the_wrong_card_or_with_the_wrong_key_is_refused():
    """Where the rules make the next draw certain, a share for the card after it (a peek) or the right card's name
    with another position's key (a false share) is refused; the honest file carries the right share and goes in."""
    sp = SelfPlay("wizard", n=3, seed=2, escrow=NO_ESCROW, ahead=True)
    seat, f, after = _at_a_pass(sp, certain=True)
    (p, drawer), = after.state.draws_ahead().items()
    assert drawer != seat and str(p) in f.content["keys"]  # the honest file sends it ahead
    wrong = CardRef(p.deck, p.index + 1)
    assert _refused(sp, _with_key(f, sp, seat, wrong)).rule == "P-peek"
    content = copy.deepcopy(f.content)
    content["keys"][str(p)] = sra.encode_scalars([sp.matches[seat].own_key(seat, wrong)])
    assert _refused(sp, SignedFile.sign(content, sp.ids[seat])).rule == "P-keys"
    sp.deliver(f)
    assert all(m.ahead_pending == {p: drawer} for m in sp.matches)


def test_without_the_flag_a_share_ahead_is_an_early_peek_and_the_flag_needs_a_game_without_escrow():
    """A game whose genesis does not say ``ahead = true`` (every game begun before it, every game with escrow) folds
    as before: the same share ahead is refused as an early peek. A genesis that asks for it with escrow is refused:
    a removal would open the drawer's layer, and the share sent ahead would then open the card to another seat."""
    sp = SelfPlay("wizard", n=3, seed=2, escrow=NO_ESCROW)
    assert "ahead" not in sp.genesis.content
    seat, f, after = _at_a_pass(sp, certain=True)
    (p, _), = after.state.draws_ahead().items()
    assert str(p) not in f.content.get("keys", {})
    e = _refused(sp, _with_key(f, sp, seat, p))
    assert e.rule == "P-peek" and "ahead of a draw" not in str(e)
    escrowed = SelfPlay("wizard", n=3, seed=2, ahead=True)
    assert "ahead" not in escrowed.genesis.content  # new games write it only where it can serve
    content = {**escrowed.genesis.content, "ahead": True}
    with pytest.raises(FileRefused, match="escrows no keys") as e:
        Match(SignedFile.sign(content, escrowed.ids[0]))
    assert e.value.rule == "P-genesis"
    warlords = genesis_content("warlords", [i.card for i in escrowed.ids[:2]], 0, {}, escrowed.clock, b"n" * 16,
                               BEFORE_DELIVERY_TIME_CONTROL, master=escrowed.ids[0].master, ahead=True)
    assert "ahead" not in warlords  # its rules name no such draw


def test_duelmail_verify_checks_a_game_with_shares_ahead(tmp_path):
    """The archive of a game whose shares rode ahead, checked from its files by ``duelmail verify``."""
    from tests.homes import dm

    sp = SelfPlay("wizard", n=3, seed=0, shared=True, escrow=NO_ESCROW, ahead=True).run()
    m, ahead = Match(sp.genesis), 0
    for f in sp.files[1:]:
        m.apply(f, "file")
        ahead += bool(m.ahead_pending)
    assert ahead  # the archive has shares that rode ahead
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "genesis.toml").write_text(sp.genesis.to_toml())
    for f in sp.files[1:]:
        (folder / f"r{f.round:04d}-s{f.seat}.toml").write_text(f.to_toml())
    out = dm(tmp_path / "home", "verify", str(folder))
    assert "audit: PASSED" in out, out
