"""Time control: deadlines, banks, increments, vacations and timeout claims, at every boundary."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from helpers import T0, Players

from duelmail.engine.clock import (
    LATEST,
    LIMITS,
    MAX_ALLOWANCE,
    TimeControl,
    TimeControlError,
    check_vacation,
    paused_deadline,
    time_used,
)
from duelmail.engine.match import Match
from duelmail.errors import FileRefused
from duelmail.protocol.turnfile import SignedFile
from duelmail.transport.archive import fold

SEC = timedelta(seconds=1)
DAY = timedelta(days=1)


def game(seed=1, n=2, **tc) -> Players:
    """A High Card game under this time control; without ``delivery_hours``, the clock of games begun before it
    (protocol section 6b: their deadlines keep their meaning; ``test_delivery.py`` tests the delivery rule)."""
    from duelmail.app import genesis_content

    p = Players(n=n, seed=seed)
    content = genesis_content("highcard", [i.card for i in p.ids], 0, {}, p.clock, b"tc" * 8,
                              {"days_per_move": 3, "forced_answer_hours": 24, **tc})
    p.genesis = SignedFile.sign(content, p.ids[0])
    p.matches = [Match(p.genesis) for _ in p.ids]
    for s, m in enumerate(p.matches):
        m.attach(s, p.ids[s])
    p.files = [p.genesis]
    return p


def to_decision(p: Players) -> int:
    p.run(until=lambda m: any(d.decide for d in m.duties.values()))
    return next(s for s, d in p.match.duties.items() if d.decide)


def claim(p: Players, by: int, against: int, when: datetime) -> SignedFile:
    m = p.match
    return SignedFile.sign({"duelmail": 1, "kind": "claim", "game": m.game_ref, "round": m.round, "prev": m.prev,
                            "seat": by, "time": when.isoformat(), "against": against}, p.ids[by])


def move_at(p: Players, seat: int, when: datetime, actions=None) -> SignedFile:
    p.clock = when - timedelta(minutes=5)  # the next tick signs at ``when``
    return p.compose(seat, actions)


def test_claim_one_second_early_is_refused_and_one_second_late_wins():
    p = game()
    x = to_decision(p)
    due = p.match.deadline(x)
    assert due == p.match.opened_at + 3 * DAY
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(claim(p, 1 - x, x, due), "early.toml")
    assert info.value.rule == "P-timeout" and "too early" in str(info.value) and due.isoformat() in str(info.value)
    m = p.fresh()
    m.apply(claim(p, 1 - x, x, due + SEC), "claim.toml")
    assert m.over() and m.outcome().winners == (1 - x,) and "ran out of time" in m.describe_outcome()


def test_forced_answers_have_the_short_deadline():
    p = game()
    p.run(until=lambda m: m.duties and not any(d.needs_human for d in m.duties.values()))
    seat = sorted(p.match.duties)[0]
    assert p.match.deadline(seat) == p.match.opened_at + timedelta(hours=24)


def test_move_after_a_valid_claim_is_refused_with_the_reason():
    p = game()
    x = to_decision(p)
    due = p.match.deadline(x)
    late = move_at(p, x, due + 2 * SEC)
    m = p.fresh()
    m.apply(claim(p, 1 - x, x, due + SEC), "claim.toml")
    with pytest.raises(FileRefused) as info:
        m.apply(late, "late.toml")
    assert info.value.rule == "P-timeout" and "ran out of time" in str(info.value)


def test_late_move_without_a_claim_counts():
    p = game()
    x = to_decision(p)
    late = move_at(p, x, p.match.deadline(x) + DAY)
    m = p.fresh()
    m.apply(late, "late.toml")
    assert any("after the deadline" in e.text for e in m.events)


@pytest.mark.parametrize("order", ["claim first", "move first"])
def test_claim_and_late_move_settle_alike_in_any_order(order):
    p = game()
    x = to_decision(p)
    due = p.match.deadline(x)
    files = [("late.toml", move_at(p, x, due + 5 * SEC)), ("claim.toml", claim(p, 1 - x, x, due + SEC))]
    if order == "claim first":
        files.reverse()
    m = fold([("genesis.toml", p.genesis), *((f"f{i}", f) for i, f in enumerate(p.files[1:])), *files])
    assert m.over() and m.outcome().winners == (1 - x,)
    assert [w for w, _ in m.void.values()] == ["late.toml"]


def test_move_signed_in_time_beats_a_claim_that_arrives_first():
    p = game()
    x = to_decision(p)
    due = p.match.deadline(x)
    timely = move_at(p, x, due - SEC)  # signed in time, delivered late
    m = fold([("genesis.toml", p.genesis), *((f"f{i}", f) for i, f in enumerate(p.files[1:])),
              ("claim.toml", claim(p, 1 - x, x, due + DAY)), ("move.toml", timely)])
    assert not m.forced_outcome and [w for w, _ in m.void.values()] == ["claim.toml"]


def test_bank_absorbs_a_slow_move_and_increment_refills_it():
    p = game(bank_days=2, extra_hours_per_move=6)
    x = to_decision(p)
    opened = p.match.opened_at
    assert p.match.deadline(x) == opened + 5 * DAY  # 3 days a move + 2 in the bank
    p.deliver(move_at(p, x, opened + 4 * DAY))  # one day over: the bank pays it, then gains 6 hours
    assert p.match.bank[x] == DAY + timedelta(hours=6)


def test_vacation_crossing_a_deadline_stops_the_clock():
    p = game(vacation_days_per_year=10)
    x = to_decision(p)
    opened = p.match.opened_at
    m = p.fresh()
    m.vacations[x] = [check_vacation([], opened + 2 * DAY, 4, 10, opened)]
    due = m.deadline(x)
    assert due == opened + 7 * DAY  # 2 days, 4 paused, 1 more
    for when, ok in ((opened + 3 * DAY + SEC, False), (due, False), (due + SEC, True)):
        twin = p.fresh()
        twin.vacations[x] = list(m.vacations[x])
        if ok:
            twin.apply(claim(p, 1 - x, x, when), "c.toml")
            assert twin.over()
        else:
            with pytest.raises(FileRefused, match="too early"):
                twin.apply(claim(p, 1 - x, x, when), "c.toml")


def test_vacation_announced_in_a_file_and_its_allowance():
    p = game(vacation_days_per_year=5)
    x = to_decision(p)
    start = p.match.opened_at + DAY
    f = move_at(p, x, p.match.opened_at + timedelta(hours=1))
    content = {**f.content, "vacation": {"start": start.isoformat(), "days": 3}}
    m = p.fresh()
    m.apply(SignedFile.sign(content, p.ids[x]), "v.toml")
    assert m.vacations[x] == [(start, start + 3 * DAY)]
    too_long = {**f.content, "vacation": {"start": start.isoformat(), "days": 6}}
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(SignedFile.sign(too_long, p.ids[x]), "v.toml")
    assert info.value.rule == "P-vacation" and "allowance is 5" in str(info.value)
    backdated = {**f.content, "vacation": {"start": (p.match.opened_at - DAY).isoformat(), "days": 1}}
    with pytest.raises(FileRefused, match="before it starts"):
        p.fresh().apply(SignedFile.sign(backdated, p.ids[x]), "v.toml")


def test_clocks_in_different_time_zones_compare_as_instants():
    p = game()
    x = to_decision(p)
    due = p.match.deadline(x)
    tokyo, new_york = timezone(timedelta(hours=9)), timezone(timedelta(hours=-5))
    with pytest.raises(FileRefused, match="too early"):
        p.fresh().apply(claim(p, 1 - x, x, (due - SEC).astimezone(tokyo)), "c.toml")
    m = p.fresh()
    m.apply(claim(p, 1 - x, x, (due + SEC).astimezone(new_york)), "c.toml")
    assert m.over()


def test_file_from_the_future_is_refused():
    p = game()
    x = to_decision(p)
    f = move_at(p, x, p.match.opened_at + DAY)
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(f, "future.toml", now=p.match.opened_at + timedelta(hours=2))
    assert info.value.rule == "P-time" and "future" in str(info.value)


def test_clock_arithmetic():
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    vac = [(t0 + DAY, t0 + 3 * DAY)]
    assert paused_deadline(t0, 2 * DAY, vac) == t0 + 4 * DAY
    assert paused_deadline(t0, DAY / 2, vac) == t0 + DAY / 2  # ends before the vacation
    assert paused_deadline(t0 + 2 * DAY, DAY, vac) == t0 + 4 * DAY  # starts inside it
    assert time_used(t0, t0 + 4 * DAY, vac) == 2 * DAY
    with pytest.raises(TimeControlError, match="overlap"):
        check_vacation(vac, t0 + 2 * DAY, 1, 30, t0)
    with pytest.raises(TimeControlError, match="unknown time control"):
        TimeControl.from_dict({"days": 3})


def _log(p: Players, *extra: tuple[str, SignedFile]) -> list[tuple[str, SignedFile]]:
    return [("genesis.toml", p.genesis), *((f"f{i}", f) for i, f in enumerate(p.files[1:])), *extra]


def test_claim_a_later_file_builds_on_is_final_and_the_archive_audits():
    """The issue's scenario: A claims B's timeout, A's home publishes its seed, then B sends a move dated
    before its deadline. The claim is final (A's seed file names its round as prev): the move is refused
    with P-final, nobody reopens the game, and the archive folds and audits (protocol §6b)."""
    p = game()
    x = to_decision(p)
    a = 1 - x
    due = p.match.deadline(x)
    backdated = move_at(p, x, due - SEC)  # signed after the claim, dated before the deadline
    c = claim(p, a, x, due + SEC)
    home_a = p.matches[a]
    home_a.apply(c, "claim.toml")
    seed_a = home_a.compose(a, p.ids[a], [], due + 2 * SEC)
    assert "seed" in seed_a.content and seed_a.content["prev"] == home_a.prev
    home_a.apply(seed_a, "seed-a.toml")
    m = fold(_log(p, ("claim.toml", c), ("seed-a.toml", seed_a), ("late.toml", backdated)))
    assert m.over() and m.outcome().winners == (a,) and m.final_claims == {c.round: "seed-a.toml"}
    (where, reason), = m.void.values()
    assert where == "late.toml" and "[P-final]" in reason and "is final" in reason
    # B's home, holding its own move, reaches the same state once it has the claim and A's seed file
    home_b = fold(_log(p, ("mine.toml", backdated), ("claim.toml", c), ("seed-a.toml", seed_a)))
    home_b.attach(x, p.ids[x])
    assert home_b.over() and home_b.prev == m.prev and x in home_b.duties and home_b.duties[x].seed
    seed_b = home_b.compose(x, p.ids[x], [], due + 3 * SEC)
    done = fold(_log(p, ("claim.toml", c), ("seed-a.toml", seed_a), ("late.toml", backdated),
                     ("seed-b.toml", seed_b)))
    assert done.finished and done.audit.ok


def test_claim_nobody_built_on_still_yields_to_a_move_signed_in_time():
    """Before any file builds on it, a claim can still meet a move signed by the deadline (mail is slow):
    the move counts and the claim is void, as before."""
    p = game()
    x = to_decision(p)
    due = p.match.deadline(x)
    timely = move_at(p, x, due - SEC)
    m = fold(_log(p, ("claim.toml", claim(p, 1 - x, x, due + SEC)), ("move.toml", timely)))
    assert not m.over() and not m.final_claims and [w for w, _ in m.void.values()] == ["claim.toml"]


def _genesis(p: Players, created: datetime, **tc) -> SignedFile:
    from duelmail.app import genesis_content

    content = genesis_content("highcard", [i.card for i in p.ids], 0, {}, created, b"tc" * 8,
                              {"days_per_move": 3, "forced_answer_hours": 24, **tc})
    return SignedFile.sign(content, p.ids[0])


@pytest.mark.parametrize("key", sorted(LIMITS))
def test_every_duration_has_a_limit(key):
    """Issue 14 §3: days_per_move = 10**12 crashed every command with OverflowError."""
    TimeControl.from_dict({key: LIMITS[key], "days_per_move": 3} if key != "days_per_move" else {key: LIMITS[key]})
    for bad in (LIMITS[key] + 1, 10**12):
        with pytest.raises(TimeControlError, match=f"{key} must be a whole number from 0 to {LIMITS[key]}"):
            TimeControl.from_dict({key: bad})


@pytest.mark.parametrize("created", [datetime(9999, 12, 31, tzinfo=UTC), datetime(1, 1, 1, tzinfo=UTC),
                                     datetime(1999, 12, 31, 23, 59, 59, tzinfo=UTC), LATEST])
def test_genesis_from_the_far_past_or_future_is_refused(created):
    p = game(seed=0)
    with pytest.raises(FileRefused) as info:
        Match(_genesis(p, created), "genesis.toml")
    assert info.value.rule == "P-time" and created.isoformat() in str(info.value)


def test_a_huge_vacation_is_refused_before_any_arithmetic():
    """Issue 14 §3: a vacation of 10**10 days crashed receive with OverflowError."""
    p = game()
    x = to_decision(p)
    plain = p.compose(x)
    f = SignedFile.sign({**plain.content, "vacation": {"start": (p.clock + DAY).isoformat(), "days": 10**10}},
                        p.ids[x])
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(f, "vacation.toml")
    assert info.value.rule == "P-vacation" and "10000000000 vacation days" in str(info.value)


def test_the_latest_deadline_the_limits_allow_is_computed():
    """Every limit at its maximum, at the last instant a file may carry: deadlines stay representable."""
    p = game(seed=0)
    m = Match(_genesis(p, LATEST - SEC, days_per_move=365, bank_days=3650, extra_hours_per_move=24 * 365,
                       vacation_days_per_year=366))
    m.vacations[1] = [(LATEST, LATEST + 366 * DAY)]
    m.bank[1] = timedelta(days=10**6)  # far more than increments could ever add up to
    assert m.deadline(1) == LATEST - SEC + MAX_ALLOWANCE + 366 * DAY


def test_a_claim_against_a_seat_that_never_joined_wins_nothing():
    """Issue 14 §3: a creator who backdates ``created`` could claim the invitee's timeout before sending the
    invitation. A seat that never accepted agreed to nothing: the challenge lapses and nobody wins."""
    p = game(seed=0)
    m = Match(_genesis(p, T0))
    due = m.deadline(1)
    m.apply(SignedFile.sign({"duelmail": 1, "kind": "claim", "game": m.game_ref, "round": 1, "prev": m.prev,
                             "seat": 0, "time": (due + SEC).isoformat(), "against": 1}, p.ids[0]), "claim.toml")
    assert m.over() and m.outcome().winners == () and "did not accept the challenge" in m.describe_outcome()


@pytest.mark.parametrize(("age", "ok"), [(timedelta(hours=23), True), (DAY + SEC, False), (-timedelta(hours=2), False)])
def test_the_joiner_checks_created_against_its_own_clock(age, ok):
    """The join deadline starts at ``created``; the joiner accepts only an invitation created at most a day
    (the join window) before it saw it, so a backdated ``created`` takes at most a day of its time."""
    p = game(seed=0)
    m = Match(_genesis(p, T0))
    if ok:
        m.check_invitation(T0 + age, "genesis.toml")
        return
    with pytest.raises(FileRefused) as info:
        m.check_invitation(T0 + age, "genesis.toml")
    assert info.value.rule == "P-time" and ("ask for a fresh one" in str(info.value) or "future" in str(info.value))


def test_a_third_seat_that_built_on_the_displaced_move_is_set_aside():
    """Three seats: C saw B's move (signed in time) and built on it; A's claim against B reached others with
    A's seed file built on it. The claim is final, so B's move and C's file on top of it are set aside with
    the reason, and the archive still folds (nobody's copy stops folding)."""
    p = game(seed=2, n=3)
    x = to_decision(p)
    due = p.match.deadline(x)
    timely = move_at(p, x, due - SEC)
    view_c = p.fresh()
    view_c.apply(timely, "b.toml")
    c = next(s for s in sorted(view_c.duties) if s != x)
    a = next(s for s in range(3) if s not in (x, c))
    p.matches[c].apply(timely, "b.toml")
    built_on_move = p.compose(c)
    cl = claim(p, a, x, due + SEC)
    p.matches[a].apply(cl, "claim.toml")
    seed_a = p.matches[a].compose(a, p.ids[a], [], due + 2 * SEC)
    m = fold(_log(p, ("b.toml", timely), ("c.toml", built_on_move), ("claim.toml", cl), ("seed-a.toml", seed_a)))
    assert m.over() and m.outcome().winners == tuple(s for s in range(3) if s != x)
    assert sorted(w for w, _ in m.void.values()) == ["b.toml", "c.toml"]
    assert "displaced" in dict(m.void.values())["c.toml"]
