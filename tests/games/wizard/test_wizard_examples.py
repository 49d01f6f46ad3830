"""The source's worked example (004, "Wizard Duel") played through the engine with real files: a rigged deal
(``tests/rigged.py``), every pass proved, every card opened by key shares, the audit at the end.

The source: "if attacked with a 3 and a 7, one must defend with at least an 8 or with a combination of cards
which add up to at least 8." (Z-7, Z-9)
"""

from __future__ import annotations

import pytest
from rigged import rigged

from duelmail.errors import FileRefused
from duelmail.testing.selfplay import SelfPlay

LIVES = ["2C", "4C", "6C", "2D", "4D", "6D", "9C", "10C", "JC"]  # w#0..w#8: three Lives each (Z-2)
STOCK = ["3S", "7H", "2H",  # w#9..w#11: the first draws of seats 0, 1 and 2 (Z-4, Z-5)
         "7S", "5C", "4H",  # w#12..w#14
         "9D", "3D", "5H",  # w#15..w#17
         "10D"]  # w#18: seat 0's fourth draw


def await_decision(sp: SelfPlay, seat: int) -> None:
    """Send every decision-free file the game waits for (key shares for the draws, Z-28) until ``seat`` decides."""
    for _ in range(200):
        m = sp.match
        if seat in m.duties and m.duties[seat].decide and seat not in m.current:
            return
        owing = [s for s in sorted(m.duties) if s not in m.current]
        assert owing and not any(m.duties[s].decide for s in owing), (seat, m.duties)
        for s in owing:
            sp.deliver(sp.compose(s, []))
    raise AssertionError(f"seat {seat} was never asked to decide")


def drive(sp: SelfPlay, seat: int, actions: list[str]) -> None:
    """``seat``'s next decision: ``actions``, sent once every file before it came."""
    await_decision(sp, seat)
    sp.deliver(sp.compose(seat, actions))


def test_z9_attacked_with_a_3_and_a_7_one_must_defend_with_at_least_8(monkeypatch):
    """Z-7: the attack's strength is the higher of its two cards, 7. Z-9: a 7 does not beat it; a 5 and a 3 of
    different suits, adding up to 8, do. Z-10, Z-14: the 5 of clubs is the highest card, so clubs decide the
    effect: the spell fades with no further effect, and seat 1 keeps its three Lives."""
    sp = rigged(monkeypatch, "wizard", {"w": LIVES + STOCK}, n=3)
    for _ in range(3):  # three rounds of draws with nobody attacking (each seat now holds three cards)
        for seat in (0, 1, 2):
            drive(sp, seat, ["pass"])
    drive(sp, 0, ["attack w#9=3s w#12=7s at 1"])  # seat 0 drew its fourth card, w#18, and attacks
    m = sp.match
    st = m.state
    assert st.spell.strength == 7 and st.spell.target == 1
    words = [m.words(e) for e in m.events]
    assert any("alice's spell of strength 7 (the 3 of spades + the 7 of spades) flies at bob" in w for w in words)
    await_decision(sp, 1)  # the attack's cards open (Z-24), then bob alone is asked to answer (Z-25)
    m = sp.matches[1]
    assert m.duties[1].decide and m.state.spell.target == 1
    with pytest.raises(FileRefused) as err:
        m.compose(1, sp.ids[1], ["defend w#10=7h at 2"], sp.tick())
    assert err.value.rule == "Z-9" and "7 = 7 does not beat the attack's 7" in str(err.value)
    with pytest.raises(FileRefused) as err:
        m.compose(1, sp.ids[1], ["defend w#13=5c"], sp.tick())
    assert err.value.rule == "Z-9"
    sp.deliver(sp.compose(1, ["defend w#13=5c w#16=3d"]))
    m = sp.match
    words = [m.words(e) for e in m.events[-6:]]
    assert any("bob beats the spell's 7 with the 5 of clubs + the 3 of diamonds (8): clubs cancel the spell" in w
               for w in words), words
    st = m.state
    assert st.spell is None and [len(st.lives[s]) for s in range(3)] == [3, 3, 3]
    assert {"w#9", "w#12", "w#13", "w#16"} <= {str(r) for r in st.used}
    sp.run()
    assert m.finished and m.audit.ok, m.audit.lines
