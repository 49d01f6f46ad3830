"""A decision-free answer is the same file wherever and whenever it is composed (issue 27 item 4, protocol §5):
a home restored from a backup, or a second machine, answers again with the very same file, a duplicate, never
an equivocation."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import pytest
from helpers import Players

from duelmail.app import DELIVERY_TIME_CONTROL, bot_actions
from duelmail.crypto.encoding import b64e
from duelmail.engine.log import Duplicate, answer_hash, parse_time
from duelmail.engine.match import Match
from duelmail.errors import FileRefused
from duelmail.protocol.turnfile import SignedFile
from duelmail.transport.archive import fold


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


# -- with a delivery allowance: one answer, two dates ------------------------------------------------------------------
# A decision-free answer carries the time it is composed (a file must reach the others within the allowance of its
# time), so a home restored from a backup composes it again with another date. The chain covers its answer hash (its
# content without 'time'): the second copy is the same answer, and a timeout claim names the copies it counts from.

def two_copies(n: int, decision_next: bool = False, **time_control):
    """A game with a delivery allowance where ``seat`` owes a decision-free answer, the last file of its round: its
    home sends it (``first``); the home restored from a backup taken before composes it again seven hours later
    (``again``). Returns the players, the seat, both copies and the restored home. ``decision_next``: a position
    where a decision follows the answer."""
    p = Players(n=n, seed=3, time_control={**DELIVERY_TIME_CONTROL, **time_control},
                **({"game": "warlords"} if decision_next else {}))  # (its key shares come before a defence)
    p.run(until=lambda m: m.round > 3)
    seat = a_decision_free_duty(p)
    while decision_next and not (len(p.match.duties) == 1 and _decision_follows(p, seat)):
        p.step()
        seat = a_decision_free_duty(p)
    for s in sorted(set(p.match.duties) - set(p.match.current) - {seat}):  # the others' files of the round first
        p.deliver(p.compose(s))
    home = restored(p, seat)
    first = p.matches[seat].compose(seat, p.ids[seat], [], p.tick())
    again = home.compose(seat, p.ids[seat], [], p.clock + timedelta(hours=7))
    return p, seat, first, again, home


def _decision_follows(p: Players, seat: int) -> bool:
    trial = p.match.clone()
    trial.apply(p.matches[seat].compose(seat, p.ids[seat], [], p.clock), "trial.toml")
    return any(d.decide for d in trial.duties.values())


@pytest.mark.parametrize("n", [2, 3])
def test_a_restored_home_answers_again_with_another_date_and_it_is_the_same_answer(n):
    """The two copies differ only in their date: every other home takes the second as the same answer (said so),
    never as an equivocation; every home closes the round with one hash whichever copy it holds, and the game goes
    on to later rounds at every home (the restored one too, whose copy is dated after the files that follow). A file
    whose content differs is still an equivocation, and ends the game against its seat."""
    p, seat, first, again, home = two_copies(n)
    assert first.file_hash != again.file_hash and first.content["time"] != again.content["time"]
    assert answer_hash(first) == answer_hash(again)
    others = [s for s in range(n) if s != seat]
    rnd = first.round
    p.matches[seat].apply(first, "mine.toml")
    home.apply(again, "mine.toml")
    p.matches[others[0]].apply(first, "first.toml")
    with pytest.raises(Duplicate, match=rf"a second copy of {p.ids[seat].name}'s answer for round {rnd}, dated later"
                                        r".*the same answer, nothing changes"):
        p.matches[others[0]].apply(again, "again.toml")
    forged = SignedFile.sign({**copy.deepcopy(first.content), "note": "another answer"}, p.ids[seat])
    with pytest.raises(FileRefused) as info:  # a different answer (not only a date) is still an equivocation
        p.matches[others[0]].clone().apply(forged, "forged.toml")
    assert info.value.rule == "P-equivocation" and answer_hash(forged) != answer_hash(first)
    cheat = fold([(f"{i}.toml", f) for i, f in enumerate([*p.files, first, forged])])
    assert cheat.over() and seat not in cheat.outcome().winners and (rnd, seat) in cheat.equivocations
    if n == 3:  # the other copy to the third seat
        p.matches[others[1]].apply(again, "again.toml")
    p.matches[seat] = home  # the restored home plays on; the first one is gone
    assert len({m.prev for m in p.matches}) == 1 and all(m.round > rnd for m in p.matches)
    p.run(until=lambda m: m.round > rnd + 3 or m.finished)
    assert p.match.round >= rnd + 2
    assert len({m.prev for m in p.matches}) == 1 and all(m.round == p.match.round for m in p.matches)
    assert all(not m.over() or m.finished and m.audit.ok for m in p.matches)  # (a short game may end: audited)
    both = fold([(f"{i}.toml", f) for i, f in enumerate([*p.files, first, again])])  # an archive with both copies
    assert both.prev == p.match.prev and both.outcome() == p.match.outcome() and not both.equivocations


@pytest.mark.parametrize("n", [2, 3])
def test_a_timeout_claim_counts_from_the_copies_it_names_in_every_home(n):
    """Two homes hold different copies of the last round's decision-free answer, so each counts the next seat's
    clock from another time. A claim names the copies it counts from (their times and signatures, which every home
    checks with the answering seat's key): signed between the two homes' own counts, it stands in both if it names
    the earlier copy and is too early in both if it names the later one; the outcome never depends on the home."""
    p, seat, first, again, home = two_copies(n)
    early, late = p.matches[[s for s in range(n) if s != seat][0]], home  # a home holding each copy
    early.apply(first, "first.toml")
    late.apply(again, "again.toml")
    rnd = early.round
    x = sorted(early.duties)[0]  # the seat claimed against
    claimant = next(s for s in range(n) if s != x)
    assert early.claim_from(x) < late.claim_from(x)  # the homes' own counts differ by the copies' dates
    when = early.claim_from(x) + timedelta(minutes=1)  # too early by the later copy's count
    by_early = early.compose_claim(claimant, p.ids[claimant], x, when)
    by_late = late.compose_claim(claimant, p.ids[claimant], x, when)
    assert by_early.content["dates"][str(seat)]["time"] == first.content["time"]
    for m in (early, late):
        t = m.clone()
        t.apply(by_early, "claim.toml")
        assert t.timed_out[rnd][0] == x and t.round == rnd + 1
        with pytest.raises(FileRefused, match="too early"):
            m.clone().apply(by_late, "claim.toml")
    outcomes = set()
    for m in (early, late):
        t = m.clone()
        t.apply(late.compose_claim(claimant, p.ids[claimant], x, late.claim_from(x) + timedelta(minutes=1)), "c.toml")
        outcomes.add((t.prev, t.timed_out[rnd][:2], t.over()))
    assert len(outcomes) == 1


def test_a_claim_must_name_a_true_copy_of_each_answer_it_counts_from():
    """A claim without the copy of a decision-free answer its clock counts from, or with a date its seat never
    signed, is refused: no claimant can move a clock by a date of its own."""
    p, seat, first, _, _ = two_copies(2)
    m = p.matches[1 - seat]
    m.apply(first, "first.toml")
    x = sorted(m.duties)[0]
    claimant = 1 - x
    good = m.compose_claim(claimant, p.ids[claimant], x, m.claim_from(x) + timedelta(minutes=1))
    bare = {k: v for k, v in good.content.items() if k != "dates"}
    moved, early = copy.deepcopy(good.content), copy.deepcopy(good.content)
    signed = datetime.fromisoformat(first.content["time"])
    moved["dates"][str(seat)]["time"] = (signed + timedelta(hours=1)).isoformat()  # a date its seat never signed
    early["dates"][str(seat)]["time"] = (m.last_floor - timedelta(hours=2)).isoformat()  # before its round opened
    for content, rule in ((bare, "P-dates"), (moved, "P-signature"), (early, "P-time")):
        with pytest.raises(FileRefused) as info:
            m.clone().apply(SignedFile.sign(content, p.ids[claimant]), "claim.toml")
        assert info.value.rule == rule
    m.clone().apply(good, "claim.toml")


def test_a_copy_dated_early_and_kept_back_is_met_by_the_claim_of_the_seat_it_never_reached():
    """Item 2's attack through a second copy, in two seats: the seat owing a decision-free answer signs one copy dated
    at its round's opening and keeps it back, sends another dated twenty hours later, and claims the next seat's
    timeout counted from the copy kept back (it names it). That copy reaches the victim only inside the claim, more
    than the delivery allowance after its time: the victim's own claim against the answer for its round, naming that
    copy, stands in every home; the answer, and the attacker's claim built on it, are set aside."""
    p, x, _, _, _ = two_copies(2)
    v = 1 - x
    victim, attacker = p.matches[v], p.matches[x]
    hidden = attacker.compose(x, p.ids[x], [], attacker.floor_at)
    sent = attacker.compose(x, p.ids[x], [], p.clock + timedelta(hours=20))
    attacker.apply(hidden, "hidden.toml")
    victim.apply(sent, "sent.toml")
    rnd = victim.round
    assert v in victim.duties and attacker.claim_from(v) < victim.claim_from(v)
    when = attacker.claim_from(v) + timedelta(minutes=1)
    claim = attacker.compose_claim(x, p.ids[x], v, when)
    trial = victim.clone()
    trial.apply(claim, "claim.toml")
    assert trial.timed_out[rnd][0] == v  # judged by the copy it names, the claim alone would stand
    copied = claim.content["dates"][str(x)]
    counter = victim.compose_claim(v, p.ids[v], x, when + timedelta(minutes=2), rnd=rnd - 1, copy=copied)
    for held in ([sent], [hidden], [sent, hidden]):  # every home, whichever copies it holds
        home = fold([(f"{i}.toml", f) for i, f in enumerate([*p.files, *held, claim, counter])])
        assert counter.file_hash in home.applied and claim.file_hash not in home.applied
        assert home.timed_out[rnd - 1][:2] == (x, v) and home.over() and home.outcome().winners == (v,)


def test_with_a_bank_a_decision_names_the_copies_its_time_counts_from():
    """With a bank, the time a decision takes comes out of it, counted from the clock's start, which the last round's
    decision-free answer sets: the decision names the copy it counts from, so every home holding either copy charges
    the same bank (otherwise a later claim against the seat would stand in one home and not in another)."""
    p, seat, first, again, home = two_copies(2, decision_next=True, bank_days=3)
    early = p.matches[1 - seat]
    early.apply(first, "first.toml")
    home.apply(again, "again.toml")
    (x,) = early.duties
    assert early.duties[x].decide
    maker = early if x != seat else p.matches[seat]  # the decider's own home holds the first copy
    if maker is not early:
        maker.apply(first, "mine.toml")
    actions = bot_actions(maker, x, p.ids[x], p.bots[x], p.rng)
    slow = maker.compose(x, p.ids[x], actions, maker.clock_start(x) + timedelta(days=4))  # a day of the bank
    assert slow.content["dates"][str(seat)]["time"] == first.content["time"]
    for m in (early, home):
        m.apply(slow, "slow.toml")
    assert early.bank[x] == home.bank[x] == timedelta(days=2)
    bare = SignedFile.sign({k: v for k, v in slow.content.items() if k != "dates"}, p.ids[x])
    fresh = p.fresh()
    fresh.apply(first, "first.toml")
    with pytest.raises(FileRefused) as info:  # refused, never taken as late
        fresh.apply(bare, "bare.toml")
    assert info.value.rule == "P-dates"


def test_a_decision_cannot_name_a_copy_dated_after_itself_to_keep_its_bank():
    """Issue 37 item 5 (the bank dodge, delivery rule): a decider and a partner's copy dated after the decision (2150,
    or an hour past it) would make the decision take no time: a copy signed after the file that names it is refused."""
    p, seat, first, again, home = two_copies(2, decision_next=True, bank_days=3)
    early = p.matches[1 - seat]
    early.apply(first, "first.toml")
    (x,) = early.duties
    maker = early if x != seat else p.matches[seat]
    if maker is not early:
        maker.apply(first, "mine.toml")
    actions = bot_actions(maker, x, p.ids[x], p.bots[x], p.rng)
    slow = maker.compose(x, p.ids[x], actions, maker.clock_start(x) + timedelta(days=4))
    for later in (datetime(2150, 1, 1, tzinfo=UTC), parse_time(slow.content["time"], "t") + timedelta(hours=2)):
        copy = SignedFile.sign({**first.content, "time": later.isoformat()}, p.ids[seat])  # the partner's copy
        content = {**slow.content, "dates": {str(seat): {"time": copy.content["time"],
                                                          "signature": b64e(copy.signature)}}}
        with pytest.raises(FileRefused, match="after its own time") as info:
            early.clone().apply(SignedFile.sign(content, p.ids[x]), "dodge.toml")
        assert info.value.rule == "P-dates"
