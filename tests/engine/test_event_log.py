"""``EventLog``: a game's events behave as a list, and a pickled log keeps its older events as the bytes they were
pickled to, read only when asked for (issue 18: a kept state's history is neither rebuilt nor pickled again)."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from duelmail.engine.log import Event, EventLog
from duelmail.games.base import GameEvent


def events(n: int, start: int = 0) -> list[Event]:
    return [Event(i // 3, i % 2, f"event {i}", GameEvent("k", f"seat {i % 2}", (i % 2,)) if i % 5 == 0 else None)
            for i in range(start, start + n)]


def kept(log: EventLog) -> EventLog:
    """The log as a kept state has it when read back."""
    return pickle.loads(pickle.dumps(log, protocol=pickle.HIGHEST_PROTOCOL))


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(0, 300), min_size=1, max_size=5), i=st.integers(-2000, 2000),
       a=st.integers(-2000, 2000) | st.none(), b=st.integers(-2000, 2000) | st.none(),
       step=st.sampled_from([None, 1, 2, -1]))
def test_a_log_kept_and_extended_again_and_again_reads_as_the_list(sizes, i, a, b, step):
    log, plain, n = EventLog(), [], 0
    for size in sizes:
        new = events(size, n)
        n += size
        log += new[: size // 2]
        rest = new[size // 2:]
        if rest:
            log.extend(rest[:-1])
            log.append(rest[-1])
        plain += new
        log = kept(log)
    assert len(log) == len(plain) and list(log) == plain and list(reversed(log)) == plain[::-1]
    assert log == plain and log == EventLog(plain) and log[a:b:step] == plain[a:b:step]
    if -len(plain) <= i < len(plain):
        assert log[i] == plain[i]
    else:
        try:
            log[i]
        except IndexError:
            pass
        else:
            raise AssertionError(f"event {i} of {len(plain)} given")
    copy = log.copy()
    copy.append(events(1, 9999)[0])
    assert list(log) == plain and len(copy) == len(plain) + 1


def test_older_events_stay_the_bytes_they_were_pickled_to_until_read():
    log = kept(EventLog(events(3 * EventLog.BLOCK + 5)))
    blocks = [b.data for b in log._blocks]
    assert len(blocks) == 3 and len(log._tail) == 5
    log.append(events(1, 10_000)[0])
    assert log[-2:][0] == events(1, 3 * EventLog.BLOCK + 4)[0]  # read from the end: no block unpickled
    assert all(b._events is None for b in log._blocks)
    again = kept(log)
    assert [b.data for b in again._blocks] == blocks  # not pickled again
    assert next(reversed(list(again)[: EventLog.BLOCK])) == events(1, EventLog.BLOCK - 1)[0]
