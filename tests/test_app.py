"""``app.resolve_move``: a move as a player types it becomes the game's notation (faces, names, seats)."""

from __future__ import annotations

from collections import Counter

import pytest
from rigged import rigged

from duelmail.app import resolve_move
from duelmail.errors import NotationError
from duelmail.testing.selfplay import SelfPlay


def test_twin_faces_take_the_legal_reading_or_list_the_choices(monkeypatch):
    """S-9, S-11: Summoner's 110-card deck holds two of each card. 'summon 4C' with both 4C in hand summons one of
    them (twins are interchangeable); a move no reading of which is legal lists the readings."""
    sp = rigged(monkeypatch, "summoner", {"s": ["4C", "4C", "9H", "KS", "2D", "4D", "4D", "9S", "KH", "2C"]})
    for _ in range(20):
        m = sp.match
        for seat in [s for s, d in m.duties.items() if d.decide]:
            draft = m.draft(seat, sp.ids[seat])
            known = draft.known(seat)
            faces = Counter(known[r] for r in draft.state.hands[seat] if r in known)
            legal = [str(a) for a in draft.state.legal_actions(seat, known)]
            twins = [f for f, n in faces.items() if n > 1 and "=" + str(f).lower() in " ".join(legal)]
            if not twins:
                continue
            face = twins[0]
            assert resolve_move(m, seat, sp.ids[seat], f"summon {face}") in legal
            assert resolve_move(m, seat, sp.ids[seat], f"summon {str(face).lower()}") in legal
            with pytest.raises(NotationError) as e:
                resolve_move(m, seat, sp.ids[seat], f"double {face} {face}")
            assert "several of your cards" in str(e.value) and f"({face})" in str(e.value)
            return
        sp.step()
    raise AssertionError("no twins in a hand came up")


def test_players_names_become_seat_numbers():
    """Z-12, K-28: wherever a seat is named, a player's name does."""
    sp = SelfPlay("wizard", n=3, seed=0, shared=True)
    sp.run(lambda m: any(d.decide for d in m.duties.values()))
    seat = next(s for s, d in sp.match.duties.items() if d.decide)
    assert resolve_move(sp.match, seat, sp.ids[seat], "target Carol") == "target 2"
    assert resolve_move(sp.match, seat, sp.ids[seat], "pass") == "pass"
