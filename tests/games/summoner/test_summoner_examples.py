"""The source's worked examples (003) played through the engine with real signed files, in rigged deals.

Every file is composed by its seat's own ``Match``, checked by the other seat's, and the audit at the end agrees.
Who plays first is the coin toss's choice (S-3): the deal gives the example's hands by turn order.
"""

from __future__ import annotations

import pytest
from rigged import rigged, starter

from duelmail.games.cards import CardRef
from duelmail.testing.selfplay import SelfPlay

FILLER = ["2C", "2D", "2H", "2S", "3D"]


def deal(monkeypatch, first: list[str], second: list[str], starting: int = 0) -> tuple[SelfPlay, int, int]:
    """Hands by turn order (each filled up to five with 2s and a 3): ``first`` goes to the seat the coin toss
    will choose, ``starting`` (the first seeds whose toss chooses it). Returns the game, the first seat and the
    second."""
    def tops(sp: SelfPlay):
        a = starter(sp)
        hands = [None, None]
        hands[a], hands[1 - a] = (h + FILLER[:5 - len(h)] for h in (first, second))
        return {"s": [*hands[0], *hands[1]]}

    seed = next(i for i in range(64) if starter(SelfPlay("summoner", seed=i)) == starting)
    sp = rigged(monkeypatch, "summoner", tops, seed=seed)
    a = starter(sp)
    return sp, a, 1 - a


def ref(seat: int, i: int) -> str:
    """The i-th card of a seat's dealt hand (S-3: s#0..s#4 and s#5..s#9)."""
    return str(CardRef("s", 5 * seat + i))


def advance(sp: SelfPlay, seat: int) -> None:
    """Send every file the game waits for, passing any answer window (S-18), until ``seat`` must decide."""
    for _ in range(50):
        m = sp.match
        duties = m.duties
        if seat in duties and duties[seat].decide and not duties[seat].windows:
            return
        for s in sorted(duties):
            d = duties[s]
            assert not (d.decide and not d.windows), f"seat {s} must decide: {d.describe()}"
            sp.deliver(sp.compose(s, ["pass"] if d.windows else []))
    raise AssertionError("the game never came back to the seat")


def play(sp: SelfPlay, seat: int, *actions: str) -> None:
    """``seat`` plays ``actions`` in as many files as the rules make it: a file ends where an answer window opens
    for the other seat (S-18, S-20, S-21), and the rest follows once it is answered."""
    rest = list(actions)
    while rest:
        advance(sp, seat)
        m = sp.matches[seat]
        k = next((k for k in range(1, len(rest)) if seat not in m.draft(seat, sp.ids[seat], rest[:k]).state.deciders()),
                 len(rest))
        sp.deliver(sp.compose(seat, rest[:k]))
        rest = rest[k:]


def said(sp: SelfPlay, kind: str) -> list[str]:
    m = sp.matches[0]
    return [m.words(e, m.seen(0)) for e in m.events if e.said is not None and e.said.kind == kind]


def finish(sp: SelfPlay) -> None:
    """Play on to the end with the bots; every seat's fold and a fresh one pass the audit."""
    sp.run()
    assert all(m.audit.ok for m in sp.matches) and sp.fresh().audit.ok


@pytest.mark.parametrize("starting", [0, 1])
def test_weakening_a_winning_ace_with_a_3(monkeypatch, starting):
    """S-14, S-17: "our opponent summoned an ace ... he summons a jack and attacks the ace. The jack loses the
    battle, but the player throws in a 3, which replaces the ace. This 3 can be beaten with ease." """
    sp, a, b = deal(monkeypatch, ["AS"], ["5C", "JC", "3H"], starting)
    ace, five, jack, three = ref(a, 0), ref(b, 0), ref(b, 1), ref(b, 2)
    play(sp, a, f"summon {ace}=as", "end")
    play(sp, b, f"summon {five}=5c", "end")
    play(sp, a, "end")
    play(sp, b, f"summon {jack}=jc", f"attack {jack} {ace}", f"replace {ace} {three}=3h", f"attack {five} {three}",
         "end")
    (replaced,) = said(sp, "replace")  # the loser's 3 takes the ace's place, on the ace's side
    assert replaced.startswith("the Ace of spades, the winner, leaves play; the 3 of hearts") and \
        f"seat {a}" not in replaced and sp.match.cards[a].name in replaced
    st = sp.match.state
    assert st.field[a] == [] and [u.refs[0] for u in st.field[b]] == [CardRef.parse(five)]
    names = sp.match.cards
    assert said(sp, "battle")[:2] == [
        f"battle: {names[b].name}'s Jack of clubs (11) against {names[a].name}'s Ace of spades (14): "
        f"{names[a].name} wins by 3; the Jack of clubs leaves play",
        f"battle: {names[b].name}'s 5 of clubs (5) against {names[a].name}'s 3 of hearts (3): "
        f"{names[b].name} wins by 2; the 3 of hearts leaves play"]
    finish(sp)


def test_a_king_beats_a_5_an_8_replaces_it_and_beats_the_7(monkeypatch):
    """S-14, S-17, S-18: "our opponent has a 7 and a 5 summoned ... summon a king. Attack the 5, then we throw in a
    8 from our hand to remove the king from play and replace it with the 8. The 8 then attacks again and beats the
    7 too." """
    sp, a, b = deal(monkeypatch, ["7C", "5C"], ["KS", "8H"], starting=1)
    seven, five, king, eight = ref(a, 0), ref(a, 1), ref(b, 0), ref(b, 1)
    play(sp, a, f"summon {seven}=7c", f"summon {five}=5c", "end")
    play(sp, b, f"summon {king}=ks", f"attack {king} {five}", f"replace {king} {eight}=8h", f"attack {eight} {seven}",
         "end")
    st = sp.match.state
    assert st.field[a] == [] and [u.refs[0] for u in st.field[b]] == [CardRef.parse(eight)]
    assert {CardRef.parse(r) for r in (seven, five, king)} <= set(st.gone)
    assert any("the 8 of hearts takes its place" in w for w in said(sp, "replace"))
    finish(sp)


def test_three_7s_against_a_double_ace(monkeypatch):
    """S-11, S-16: "We already have a 7 on the field ... we summon two another 7 next to it ... the three 7 cards,
    they worth 28 ... can beat any card or double card, including the double ace." As the source says: 28 against
    28, the combined attack wins the tie, the double ace leaves play and the three 7s stay."""
    sp, a, b = deal(monkeypatch, ["AS", "AS"], ["7C", "7D", "7H"])
    ace, ace2 = ref(a, 0), ref(a, 1)
    sevens = [ref(b, i) for i in range(3)]
    play(sp, a, f"summon {ace}=as", f"double {ace2}=as {ace}", "end")
    play(sp, b, f"summon {sevens[0]}=7c", "end")
    play(sp, a, "end")
    play(sp, b, f"summon {sevens[1]}=7d", f"summon {sevens[2]}=7h", f"attack {'+'.join(sevens)} {ace}", "end")
    st = sp.match.state
    assert st.field[a] == [] and [u.refs[0] for u in st.field[b]] == [CardRef.parse(r) for r in sevens]
    assert {CardRef.parse(r) for r in (ace, ace2)} <= set(st.gone)
    (battle,) = said(sp, "battle")
    assert "(28)" in battle and "a tie, which a combined attack wins" in battle
    finish(sp)
