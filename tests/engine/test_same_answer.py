"""A decision-free answer is the same file wherever and whenever it is composed (issue 27 item 4, protocol §5):
a home restored from a backup, or a second machine, answers again with the very same file, a duplicate, never
an equivocation."""

from __future__ import annotations

from datetime import timedelta

import pytest
from helpers import Players

from duelmail.engine.log import Duplicate
from duelmail.engine.match import Match


def restored(p: Players, seat: int) -> Match:
    """``seat``'s home restored from a backup: its identity, and the log read again (a fresh fold)."""
    m = p.fresh()
    m.attach(seat, p.ids[seat])
    return m


def a_decision_free_duty(p: Players) -> int:
    for _ in range(200):
        free = [s for s, d in sorted(p.match.duties.items()) if not d.needs_human and s not in p.match.current]
        if free:
            return free[0]
        p.step()
    raise AssertionError("no decision-free duty came up")


@pytest.mark.parametrize("n", [2, 3])
def test_the_same_decision_free_answer_twice_is_one_file(n):
    p = Players(n=n, seed=3)
    p.run(until=lambda m: m.round > 3)
    seat = a_decision_free_duty(p)
    first = p.matches[seat].compose(seat, p.ids[seat], [], p.tick())
    again = restored(p, seat).compose(seat, p.ids[seat], [], p.clock + timedelta(hours=7))  # later, elsewhere
    assert again.file_hash == first.file_hash and again.content["time"] == first.content["time"]
    others = [s for s in range(n) if s != seat]
    p.matches[others[0]].apply(first, "first.toml")
    with pytest.raises(Duplicate):
        p.matches[others[0]].apply(again, "again.toml")
    if n == 3:  # each copy to a different seat: both close the round alike, so the game goes on
        p.matches[others[1]].apply(again, "again.toml")
        p.matches[seat].apply(first, "mine.toml")
        rnd = p.match.round
        for s in sorted(set(p.match.duties) - set(p.match.current)):
            p.deliver(p.compose(s))
        assert all(m.round > rnd for m in p.matches)
        assert p.matches[others[0]].prev == p.matches[others[1]].prev == p.matches[seat].prev
