"""Issue 39 (3): what the game awaits, from whom and why, in words, the one sentence show, status, moves and play
say (``transport.archive.waiting_words``), checked at every step of whole bot games of each game."""

from __future__ import annotations

import re

import pytest

from duelmail.testing.selfplay import SelfPlay
from duelmail.transport.archive import waiting_words

GAMES = [("warlords", 2), ("wizard", 3), ("summoner", 2), ("grid", 2), ("skirmish", 2)]
MACHINE = re.compile(r"#\d|\bseat \d|shuffle/lock|key shares?|sealed|\bdeck [a-z]|\bREF\b|escrow|\bd\d\b")


@pytest.mark.parametrize(("game", "n"), GAMES)
def test_every_view_s_sentence_says_who_is_awaited_and_why_in_words(game, n):
    """At every step of a whole game, for every seat: the sentence holds no protocol word nor card position (but in
    the rules' own prompt, which item 2 of the issue words); a seat
    whose decision is awaited reads "your move"; one awaited for a file that needs no decision reads that its
    machine sends it; the others read whom they wait for, by name, and never "your move"."""
    sp = SelfPlay(game, n=n, seed=7, shared=True)
    names = sp.match.names()
    why = set()
    for _ in range(5000):
        m = sp.match
        if m.over():
            break
        for seat in range(n):
            said = waiting_words(m, seat)
            assert not MACHINE.search(said.partition("your move: ")[0]), said  # the rules' prompt: issue 39 (2)
            duty = m.duties.get(seat)
            if duty is not None and seat not in m.current:  # its own part first
                assert said.startswith("your move" if duty.decide else
                                       "you are to accept" if duty.join else "your machine is to"), said
            else:
                assert "your move" not in said and said.startswith("waiting for "), said
                assert any(name in said for s, name in enumerate(names) if s != seat), said
            why |= set(re.findall(r"machine to ([a-z ]+)", said))
        sp.step()
    assert m.over()
    assert why, "no file that needs no decision was awaited"
