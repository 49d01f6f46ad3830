"""Warlords' worked example and out-of-turn windows through the real engine, with a chosen deal (``tests/rigged.py``).

Every file is signed, every pass proved, every card opened by key shares and checked by each seat's own Match; the
games are played to the end and the end-of-game audit passes. Rule ids are the digest's (seeds/warlords.md).

Deck ids and dealing (W-1, W-2): seat 0 plays deck ``a``, seat 1 ``b``, seat 2 ``c``; ``#0``..``#4`` of a deck
are its owner's hand, ``#5`` its first draw, and so on. Seat 0 moves first; in the first round only the last seat
attacks (W-5), so seat 1 (two seats) or seat 2 (three) makes the first attack, against seat 0.
"""

from __future__ import annotations

import pytest
from rigged import rigged

from duelmail.engine.match import Match
from duelmail.errors import FileRefused
from duelmail.games.cards import CardRef
from duelmail.games.warlords.rules import LAST_CHANCE
from duelmail.testing.selfplay import SelfPlay

REINF = {"reinforcements": True}
SHORT = {"mail-shortcuts": True}


def act(sp: SelfPlay, seat: int, *actions: str) -> None:
    """Deliver the files that carry no decision (key shares, deck passes) until ``seat`` can send ``actions``;
    then send them (in a file that also carries its shares, as a client does)."""
    for _ in range(100):
        m = sp.match
        duty = m.duties.get(seat) if seat not in m.current else None
        if duty is not None and (duty.decide or len(m.duties) == 1):
            try:
                sp.deliver(sp.compose(seat, list(actions)))
                return
            except FileRefused:
                if duty.decide:
                    raise
        forced = [s for s, d in sorted(m.duties.items()) if not d.decide and s not in m.current]
        others = [s for s in forced if s != seat] or forced
        if not others:
            raise AssertionError(f"seat {seat} is not awaited: {m.duties}")
        sp.deliver(sp.compose(others[0], []))
    raise AssertionError(f"seat {seat} never got to send {actions}")


def told(m: Match, kind: str) -> list[str]:
    """The rules' events of ``kind``, in words with the faces every seat knows (the public record)."""
    public = m.state.public_faces()
    return [m.words(e, public) for e in m.events if e.said is not None and e.said.kind == kind]


def said(m: Match, kind: str):
    return [e.said for e in m.events if e.said is not None and e.said.kind == kind]


def finished_and_audited(sp: SelfPlay) -> None:
    sp.run()
    for m in sp.matches:  # each seat folded every file itself: signatures, passes, proofs, shares, moves
        assert m.finished and m.audit.ok, m.audit.lines
        assert not m.violations and m.prev == sp.matches[0].prev
    assert sp.fresh().audit.ok


def test_000_fifteen_against_twelve(monkeypatch):
    """000's worked example (W-14, W-15): an attack of 10 led by a Queen (+2) and supported by a 3 (+3) is 15; a
    defence of 7 led by a King (+3) and supported by a 2 (+2) is 12; the damage is half of 3, rounded up: 2 cards
    from the top of the defender's draw pile to its discard pile (W-29). The defender accepts (W-20); the battle
    cards go to the discard piles and the surviving Warlords stay face up (W-17, W-9)."""
    sp = rigged(monkeypatch, "warlords", {
        "a": ["KH", "7H", "2H", "4D", "5D", "8D", "5C", "6C", "9C"],  # hand, first draw a#5, then a#6, a#7 milled
        "b": ["QS", "10S", "3S", "4S", "5S", "8S"],
    })
    act(sp, 0, "warlord a#0", "end")
    act(sp, 1, "warlord b#0", "attack b#0 b#1")
    act(sp, 0, "defend a#0 a#1")
    act(sp, 1, "support b#2")
    act(sp, 0, "support a#2")  # not accepted in advance: the last chance comes after the reveal
    act(sp, 0, "accept")  # accepting ends seat 1's turn; seat 0's turn follows, its draw opened by seat 1's share
    act(sp, 0, "end")
    m = sp.match
    (battle,) = said(m, "battle")
    assert battle.numbers == (15, 12) and battle.rule == "W-14"
    assert told(m, "battle") == [
        "battle: bob the Queen of spades (Warlord 2) + the 10 of spades (Army 10) + the 3 of spades (Support 3) = 15 "
        "against alice the King of hearts (Warlord 3) + the 7 of hearts (Army 7) + the 2 of hearts (Support 2) = 12"]
    (won,) = said(m, "battle won")
    assert won.numbers == (15, 12, 2) and won.rule == "W-15"
    (damage,) = said(m, "damage")
    assert damage.numbers == (2,) and damage.cards == (CardRef("a", 6), CardRef("a", 7))
    assert told(m, "damage") == ["alice takes 2 damage: the 5 of clubs, the 6 of clubs milled face up to the "
                                 "discard pile"]
    st = m.state
    assert st.discards[0][-4:] == [CardRef("a", 1), CardRef("a", 2), CardRef("a", 6), CardRef("a", 7)]
    assert st.warlords[0] == [CardRef("a", 0)] and st.warlords[1] == [CardRef("b", 0)]
    assert {CardRef("a", 0), CardRef("b", 0)} <= st.face_up
    assert len(st.piles[0]) == 52 - 5 - 2 - 2 and CardRef("a", 8) in st.hands[0]  # two draws, two milled
    finished_and_audited(sp)


def until_decides(sp: SelfPlay, seat: int) -> None:
    """Deliver the files that carry no decision until ``seat`` is awaited for one."""
    for _ in range(100):
        m = sp.match
        if seat in m.duties and m.duties[seat].decide:
            return
        forced = [s for s, d in sorted(m.duties.items()) if not d.decide and s not in m.current]
        if not forced:
            raise AssertionError(f"seat {seat} is not awaited: {m.duties}")
        sp.deliver(sp.compose(forced[0], []))
    raise AssertionError(f"seat {seat} is never awaited for a decision")


SEAT_1_ATTACKS = [("b#1", "b#2"), ("b#3", "b#4"), ("b#5", "b#6"), ("b#7", "b#8"), ("b#9", None), ("b#10", None)]


def six_attacks(monkeypatch, options):
    """Seat 1 attacks seat 0 six times with its King, a 10 or 9 and a 3 or none (16 or 12: 8 or 6 damage, W-15);
    seat 0 (its joker a#0 in hand) never defends and never attacks. Seat 0's 48-card pile loses a card per draw
    and 8, 8, 8, 8, 6 to the first five battles (4 left); the sixth battle's 6 damage empties it."""
    opts = {**REINF, **options}
    sp = rigged(monkeypatch, "warlords", {
        "a": ["XR", "4D", "5D", "6D", "7D"],
        "b": ["KS", "10S", "3S", "10H", "3H", "10D", "3D", "10C", "3C", "9S", "9H"],
    }, options=opts)
    short = bool(options.get("mail-shortcuts"))
    act(sp, 0, "end")
    for i, (army, support) in enumerate(SEAT_1_ATTACKS):
        act(sp, 1, *(["warlord b#0"] if i == 0 else []), f"attack b#0 {army}")
        act(sp, 0, "defend - -")
        act(sp, 1, f"support {support or '-'}")
        if short:  # no acceptance in advance with mail-shortcuts: the last chance, then seat 0's turn (W-20)
            act(sp, 0, "support -")
            if i < len(SEAT_1_ATTACKS) - 1:
                act(sp, 0, "accept", "end")
        else:
            act(sp, 0, "support - accept")
            if i < len(SEAT_1_ATTACKS) - 1:
                act(sp, 1, "pass")  # the renewal (W-25): seat 1's joker is not played
                act(sp, 0, "end")
    return sp


def test_w26_a_battle_empties_the_pile_and_the_joker_answers_at_once(monkeypatch):
    """W-26 by the source: the sixth battle's damage empties seat 0's draw pile in seat 1's turn; a window opens for
    seat 0 at once; its joker, played out of turn, brings back 8 cards; then seat 1's renewal (W-25), then seat 0's
    turn begins with a normal draw (W-4), not a revenge turn (W-23)."""
    sp = six_attacks(monkeypatch, {})
    until_decides(sp, 0)
    m = sp.match
    st = m.state
    assert st.piles[0] == [] and st.current == 1  # still seat 1's turn
    (w,) = m.duties[0].windows
    assert w.rule == "W-26" and w.answers == ("pass", "joker")
    assert m.duties[0].describe("pass").startswith("answer out of turn; pass")
    assert m.duties[0].protocol_words() == "answer window (W-26)"
    assert told(m, "empty")[-1] == "alice's draw pile is empty: it may play its Reinforcements joker at once"
    act(sp, 0, "joker a#0")
    until_decides(sp, 1)
    assert sp.match.duties[1].windows[0].rule == "W-25"
    act(sp, 1, "pass")
    act(sp, 0, "end")
    m = sp.match
    st = m.state
    assert told(m, "reinforce") == ["alice shuffles 8 discarded cards back: the draw pile has 8 cards"]
    assert len(st.piles[0]) == 7 and not st.revenge and st.active[0] and st.current == 1
    assert [e.said.rule for e in m.events if e.said and e.said.kind == "draw" and e.said.seats == (0,)][-1] == "W-4"
    finished_and_audited(sp)


def test_w26_shortcuts_the_rescue_comes_at_the_start_of_the_next_turn(monkeypatch):
    """With mail-shortcuts no window opens: seat 0's turn begins with an empty pile (W-22) and the joker, its first
    action, rescues it with 8 cards (W-26); then it draws and plays on."""
    sp = six_attacks(monkeypatch, SHORT)
    until_decides(sp, 0)
    m = sp.match
    assert m.state.phase == LAST_CHANCE and not m.duties[0].windows  # no emergency window: the last chance
    act(sp, 0, "accept", "joker a#0")
    act(sp, 0, "end")
    m = sp.match
    st = m.state
    assert told(m, "empty")[-1] == "alice's draw pile is empty: a last (revenge) turn, then out"
    assert told(m, "reinforce") == ["alice shuffles 8 discarded cards back: the draw pile has 8 cards"]
    assert [w for w in told(m, "draw") if w.startswith("alice")][-1].startswith("alice is rescued and draws")
    assert len(st.piles[0]) == 7 and not st.revenge and st.active[0]
    finished_and_audited(sp)


def test_w18_three_seats_the_seat_not_in_the_battle_answers_the_attack(monkeypatch):
    """W-18 with three seats (W-24): seat 2 attacks seat 0 with its Queen; seat 1, not in the battle, is asked at
    once (an answer window) and plays an Ace against the attacking Queen, which withdraws the attack (its Army goes
    back to seat 2's hand); seat 2 attacks again with the Army alone; seat 1 is asked again and discards seat 0's
    King; with no Warlord left on the table the window closes, and the battle is fought (W-14, W-15)."""
    sp = rigged(monkeypatch, "warlords", {
        "a": ["KH", "9H", "4D", "5D", "6D"],
        "b": ["AH", "AD", "4C", "5C", "6C"],
        "c": ["QS", "10S", "3S", "4S", "5S"],
    }, n=3)
    act(sp, 0, "warlord a#0", "end")
    act(sp, 1, "end")
    act(sp, 2, "warlord c#0", "attack c#0 c#1")
    until_decides(sp, 1)
    m = sp.match
    (w,) = m.duties[1].windows
    assert w.rule == "W-18" and w.answers == ("pass", "ace") and set(m.duties) == {1}  # seat 0 waits its turn
    with pytest.raises(FileRefused) as err:
        sp.compose(1, ["end"])
    assert err.value.rule == "P-window"
    act(sp, 1, "ace b#0 c#0")
    st = sp.match.state
    assert st.battle is None and st.current == 2 and CardRef("c", 1) in st.hands[2]
    act(sp, 2, "attack - c#1")
    until_decides(sp, 1)
    assert sp.match.duties[1].windows[0].rule == "W-18"
    act(sp, 1, "ace b#1 a#0")  # no Warlord left to discard: the window closes by itself
    act(sp, 0, "defend - a#1")
    act(sp, 2, "support c#2")
    act(sp, 0, "support - accept")
    until_decides(sp, 0)
    m = sp.match
    assert told(m, "withdrawn") == ["carol's attack is withdrawn: its Warlord fell before the battle, the 10 of "
                                    "spades goes back to its hand and it prepares on"]  # (public since the battle)
    assert told(m, "ace") == [
        "the Ace of hearts (an Ace) destroys carol's Warlord the Queen of spades: both go to the discard piles",
        "the Ace of diamonds (an Ace) destroys alice's Warlord the King of hearts: both go to the discard piles"]
    assert told(m, "battle") == ["battle: carol the 10 of spades (Army 10) + the 3 of spades (Support 3) = 13 against "
                                 "alice the 9 of hearts (Army 9) = 9"]
    assert [e.numbers for e in said(m, "damage")] == [(2,)]
    finished_and_audited(sp)


def test_w25_the_joker_in_the_renewal_through_the_engine(monkeypatch):
    """W-25: after its battle the attacker is asked once more (an answer window in its own turn) and plays its joker:
    its discards, the battle's Army and Support among them, go back into its draw pile; then its turn ends."""
    sp = rigged(monkeypatch, "warlords", {
        "a": ["4D", "5D", "6D", "7D", "8D"],
        "b": ["KS", "10S", "3S", "XR", "5S"],
    }, options=REINF)
    act(sp, 0, "end")
    act(sp, 1, "warlord b#0", "attack b#0 b#1")
    act(sp, 0, "defend - -")
    act(sp, 1, "support b#2")
    act(sp, 0, "support - accept")
    until_decides(sp, 1)
    assert [w.rule for w in sp.match.duties[1].windows] == ["W-25"]
    assert sp.match.duties[1].describe().startswith("answer in your turn;")  # its own turn, not out of turn
    assert sp.match.duties[1].protocol_words() == "answer window (W-25)"
    act(sp, 1, "joker b#3")
    act(sp, 0, "end")
    m = sp.match
    assert told(m, "reinforce") == ["bob shuffles 2 discarded cards back: the draw pile has 49 cards"]
    assert [str(r) for r in m.state.discards[1]] == ["b#3"] and m.state.current == 1
    finished_and_audited(sp)
