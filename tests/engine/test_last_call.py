"""The last call in the engine (protocol section 6b): a claim waits; the claimed seat's file, or its first note that
it is here, meets it; a home's ``stood`` settles it; an archive read without its home settles a claim once a file of
the next round builds on it. (Between homes through the command: ``tests/adversary/test_last_call.py``.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from test_clock import claim, game, move_at, to_decision

from duelmail.errors import FileRefused
from duelmail.transport.archive import fold, ordered

DAY = timedelta(days=1)


def setup(seed=1):
    p = game(seed=seed, last_call_hours=24)
    x = to_decision(p)
    due = p.match.deadline(x)
    return p, x, 1 - x, due


def test_a_valid_claim_waits_and_the_move_meets_it_whatever_its_time():
    p, x, by, due = setup()
    c = claim(p, by, x, due + timedelta(seconds=1))
    m = p.fresh()
    m.apply(c, "claim")
    assert m.last_calls() and not m.over() and m.round == p.match.round  # nothing closed
    late = move_at(p, x, due + 5 * DAY)  # long after the deadline: while the claim waits, it still answers it
    m.apply(late, "move")
    assert not m.last_calls() and m.round == p.match.round + 1


def test_a_claim_signed_by_the_deadline_is_too_early():
    p, x, by, due = setup()
    with pytest.raises(FileRefused, match="too early") as e:
        p.fresh().apply(claim(p, by, x, due), "claim")
    assert e.value.rule == "P-timeout"


def test_stand_settles_the_claim_and_a_move_after_it_is_final():
    p, x, by, due = setup()
    c = claim(p, by, x, due + timedelta(seconds=1))
    m = p.fresh()
    m.apply(c, "claim")
    m.stand(c.file_hash)
    assert m.over() and "ran out of time" in m.describe_outcome() and c.file_hash in m.built_on
    with pytest.raises(FileRefused) as e:
        m.apply(move_at(p, x, due - DAY), "move")  # dated in time, but after this home's last call
    assert e.value.rule == "P-final"


def test_a_home_that_remembers_the_claim_stood_folds_it_standing():
    p, x, by, due = setup()
    c = claim(p, by, x, due + timedelta(seconds=1))
    files = [(f"f{i}", f) for i, f in enumerate([*p.files, c])]
    assert not fold(files, stood=frozenset()).over()
    assert fold(files, stood=frozenset({c.file_hash})).over()


def test_here_answers_the_claim_once_a_round_and_starts_the_clock_again():
    p, x, by, due = setup()
    c = claim(p, by, x, due + timedelta(seconds=1))
    m = p.fresh()
    m.apply(c, "claim")
    m.attach(x, p.ids[x])
    assert m.owes_here(x)
    at = due + 2 * DAY
    note = m.compose_note(x, p.ids[x], at, here=True)
    m.apply(note, "here")
    assert not m.last_calls() and not m.owes_here(x)
    assert m.deadline(x) == at + m.tc.per_move  # its allowance again, from the note
    second = claim(p, by, x, at + m.tc.per_move + timedelta(seconds=1))
    m.apply(second, "claim")
    assert m.last_calls() and not m.owes_here(x)  # a second claim: only the move answers it


def test_an_archive_without_its_home_settles_a_claim_a_next_round_file_builds_on():
    p, x, by, due = setup()
    c = claim(p, by, x, due + timedelta(seconds=1))
    home = p.fresh()
    home.apply(c, "claim")
    home.stood = set()
    home.stand(c.file_hash)
    home.attach(by, p.ids[by])
    seed = home.compose(by, p.ids[by], [], due + 2 * DAY)  # the claimant's seed, built on the claim
    files = [(f"f{i}", f) for i, f in enumerate([*p.files, c, seed])]
    assert fold(ordered(files)).over()  # stood=None: the file built on the claim shows it stood
    assert not fold(ordered(files[:-1])).over()  # without it, the claim still waits
