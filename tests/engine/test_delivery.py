"""Issue 27 item 2: a mover's date cannot time out a punctual seat (protocol section 6b, docs/proofs.md).

The attack, played with real signed files in every game that has forced answers, in two and three seats: a mover
holds its move for most of its allowance and signs it with the round's opening time, then sends it with a timeout
claim against the next seat and its own next file, which made the claim final under the old rule. Under the
delivery rule the next seat's clock starts no earlier than the delivery allowance after the move's signed time,
and a claim stands only that allowance after the deadline: so a seat the move reached in time answers in minutes
and keeps its seat, and a seat it reached later than its signed time allows claims the mover's timeout and wins.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from duelmail.app import DELIVERY_TIME_CONTROL, bot_actions
from duelmail.engine.match import Match
from duelmail.errors import FileRefused
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay
from duelmail.transport.archive import fold, fold_into, ordered

MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)
DELIVERY = timedelta(hours=DELIVERY_TIME_CONTROL.get("delivery_hours", 12))  # (12 on the code before the rule)
# (game, seats, options, seed, what the victim owes): every game has forced answers (key shares, sealed openings)
# after a move; Summoner's answer windows (S-21) come in the attacked seat's own decision; Wizard Duel takes three
# seats or more, and its option answer-hours gives the attacked seat a short window (Z-23)
GAMES = [("warlords", 2, {}, 1, "forced"), ("warlords", 3, {}, 1, "forced"), ("summoner", 2, {}, 1, "window"),
         ("grid", 2, {}, 1, "forced"), ("skirmish", 2, {}, 1, "forced"), ("skirmish", 3, {}, 1, "forced"),
         ("wizard", 3, {}, 1, "forced"), ("wizard", 3, {"answer-hours": 4}, 2, "hours")]
IDS = [f"{g}-{n}-{what}" for g, n, _, _, what in GAMES]


class Position:
    """A game in progress where one seat (the mover) decides alone and its move makes another seat (the victim)
    owe a forced answer: a decision-free file, or with ``answer-hours`` an attacked seat's short answer."""

    def __init__(self, game: str, n: int, options: dict, seed: int, what: str):
        self.p = SelfPlay(game, n, options, seed=seed, shared=True, time_control=DELIVERY_TIME_CONTROL)
        self.rng = random.Random(seed)
        for _ in range(400):
            m = self.p.match
            if len(m.duties) == 1 and m.round > 2:
                (a,) = m.duties
                if m.duties[a].decide and self._fits(a, what):
                    break
            self.p.step()
        else:
            raise AssertionError(f"{game}: no position for the attack")
        self.base = fold(self.named(self.p.files))
        self.opened = m.opened_at

    def _fits(self, a: int, what: str) -> bool:
        m = self.p.match
        self.actions = bot_actions(m, a, self.p.ids[a], self.p.bots[a], self.rng)
        trial = m.clone()
        trial.apply(trial.compose(a, self.p.ids[a], self.actions, m.opened_at), "trial")
        owes = {"forced": lambda d, s: not d.needs_human, "window": lambda d, s: d.decide and d.windows,
                "hours": lambda d, s: d.decide and trial.state.answer_deadline_hours(s)}[what]
        victims = [s for s in sorted(trial.duties) if s != a and owes(trial.duties[s], s)]
        if trial.over() or not victims:
            return False
        self.mover, self.victim = a, victims[0]
        return True

    def named(self, files) -> list[tuple[str, SignedFile]]:
        return [("genesis.toml" if f.kind == "genesis" else _name(f), f) for f in files]

    def mover_deadline(self) -> datetime:
        return self.p.match.deadline(self.mover)

    def move(self, when: datetime) -> tuple[Match, SignedFile]:
        """The mover's move signed with ``when``, and the mover's match after it."""
        m = self.p.match.clone()
        f = m.compose(self.mover, self.p.ids[self.mover], self.actions, when)
        m.apply(f, _name(f))
        return m, f

    def attack(self, m: Match, when: datetime) -> list[SignedFile]:
        """The mover's timeout claim against the victim signed at ``when``, and, if the mover's own home takes the
        claim, its next file built on it."""
        claim = sign_claim(m, self.mover, self.victim, when, self.p.ids[self.mover])
        try:
            m.apply(claim, _name(claim))
        except FileRefused as e:
            assert e.rule == "P-timeout" and "too early" in str(e)
            return [claim]
        out = [claim]
        if self.mover in m.duties and not m.finished:
            acts = bot_actions(m, self.mover, self.p.ids[self.mover], self.p.bots[self.mover], self.rng)
            out.append(m.compose(self.mover, self.p.ids[self.mover], acts, when + MIN))
        return out

    def answer(self, move: SignedFile, when: datetime) -> SignedFile:
        """The victim's answer to the move, signed at ``when``."""
        m = self.p.match.clone()
        m.apply(move, _name(move))
        acts = bot_actions(m, self.victim, self.p.ids[self.victim], self.p.bots[self.victim], self.rng)
        return m.compose(self.victim, self.p.ids[self.victim], acts, when)

    def home(self, files: list[SignedFile], now: datetime) -> Match:
        """What a home holding the game so far and ``files`` folds (the archive's fold: the set decides)."""
        m = self.base.clone()
        m.applied, m.void = set(self.base.applied), dict(self.base.void)
        return fold_into(m, ordered([(_name(f), f) for f in files]), now=now)


def _name(f: SignedFile) -> str:
    return f"r{f.round:04d}-s{f.seat}{'-claim' if f.kind == 'claim' else ''}.toml"


def sign_claim(m: Match, by: int, against: int, when: datetime, identity, rnd: int | None = None) -> SignedFile:
    """The claim ``by``'s home holding ``m`` signs: it names the copies it counts from (protocol section 6b)."""
    return m.compose_claim(by, identity, against, when, rnd)


_positions: dict[str, Position] = {}


@pytest.fixture(params=GAMES, ids=IDS)
def pos(request) -> Position:
    game, n, options, seed, what = request.param
    key = f"{game}-{n}-{what}"
    if key not in _positions:
        _positions[key] = Position(game, n, options, seed, what)
    return _positions[key]


def lost(m: Match, seat: int) -> bool:
    """Whether ``seat`` lost by the clock in ``m``: claimed against (its default answer played, removed, or the
    game forfeit), or beaten."""
    if seat in m.removed or m.removing == seat or any(t[0] == seat for t in m.timed_out.values()):
        return True
    return m.over() and seat not in m.outcome().winners


def allowance(m: Match, seat: int) -> timedelta:
    """The time ``seat``'s duty in ``m``'s open round gives it: a forced answer's, a short answer's, or a move's."""
    duty, hours = m.duties[seat], m.state.answer_deadline_hours(seat)
    return m.tc.forced if not duty.decide else timedelta(hours=hours) if hours else m.tc.per_move + m.bank[seat]


def test_a_move_dated_early_but_delivered_in_time_gives_the_next_seat_its_whole_allowance(pos):
    """The move, dated as early as still reaches the victim within the delivery allowance of its time, is sent an
    hour before the mover's own deadline; the victim answers a minute before its allowance from that moment runs
    out. The mover's claim against it, signed a minute before that answer, with the mover's next file built on it if
    the mover's home took the claim, crosses the answer: the claim is too early in every home (it never reaches a
    seat's clock), and the answer stands."""
    sent = pos.mover_deadline() - HOUR
    m_attacker, move = pos.move(sent - DELIVERY + MIN)
    given = allowance(m_attacker, pos.victim)
    attack = pos.attack(m_attacker, sent + given - 2 * MIN)
    answer = pos.answer(move, sent + given - MIN)
    try:
        home = pos.home([move, *attack, answer], now=sent + given)
    except FileRefused as e:  # what 'receive' does with the claim: refused, nothing stored
        assert e.rule == "P-timeout" and "too early" in str(e) and e.seat == pos.mover
        home = pos.home([move, answer], now=sent + given)
    assert answer.file_hash in home.applied, home.void.get(answer.file_hash)
    assert not lost(home, pos.victim)


def test_the_attack_of_the_issue_is_met_by_the_victims_own_claim(pos):
    """The issue's attack as played: the move signed at the round's opening and sent a minute before the mover's
    deadline, with a claim against the victim and the mover's next file. The move reached the victim more than the
    delivery allowance after its time: the victim's home offers a claim against the mover, which wins in every
    home (the mover's move, claim and next file are set aside), signed two minutes after the files came."""
    sent = pos.mover_deadline() - MIN
    m_attacker, move = pos.move(pos.opened)
    attack = pos.attack(m_attacker, sent + HOUR - MIN)  # as late as the victim's clock takes a file from the future
    try:
        victim = pos.home([move, *attack], now=sent)
    except FileRefused as e:  # a long allowance: even this claim is too early, and 'receive' refuses it
        assert e.rule == "P-timeout" and "too early" in str(e) and attack == [e_file(e, attack)]
        victim = pos.home([move], now=sent)
    counter = sign_claim(victim, pos.victim, pos.mover, sent + 2 * MIN, pos.p.ids[pos.victim], rnd=move.round)
    home = pos.home([move, *attack, counter], now=sent + 3 * MIN)  # every home holding these files
    assert [f for f in (move, *attack) if victim.arrived_late(f, sent)] == [move]  # what the home offers a claim for
    assert counter.file_hash in home.applied
    assert not lost(home, pos.victim)
    assert lost(home, pos.mover)
    assert all(f.file_hash not in home.applied for f in (move, *attack))
    assert "[P-final]" in home.void[move.file_hash][1] and "had not" in home.void[move.file_hash][1]


def e_file(e: FileRefused, files: list[SignedFile]) -> SignedFile:
    """The file among ``files`` that ``e`` refuses (by its name, round and seat)."""
    return next(f for f in files if _name(f) in str(e) and f.round == e.round and f.seat == e.seat)


def test_a_truly_silent_seat_is_still_claimable_twice_the_delivery_allowance_later(pos):
    """The move signed at the round's opening and delivered at once; the victim never answers. The claim stands
    from the victim's deadline under the old clock plus twice the delivery allowance (its clock starts one
    allowance after the move's time, and a claim waits one more for a file signed by the deadline), not before."""
    m_attacker, move = pos.move(pos.opened)
    old_deadline = m_attacker.opened_at + allowance(m_attacker, pos.victim)
    stands = m_attacker.claim_from(pos.victim)
    assert stands - old_deadline == 2 * DELIVERY
    early = sign_claim(m_attacker, pos.mover, pos.victim, stands, pos.p.ids[pos.mover])
    with pytest.raises(FileRefused) as info:
        pos.home([move, early], now=stands)
    assert info.value.rule == "P-timeout" and "too early" in str(info.value)
    claim = sign_claim(m_attacker, pos.mover, pos.victim, stands + timedelta(seconds=1), pos.p.ids[pos.mover])
    home = pos.home([move, claim], now=stands + MIN)
    assert claim.file_hash in home.applied and lost(home, pos.victim)


def test_a_late_move_and_a_file_built_on_it_are_set_aside_by_the_claim(pos):
    """A move signed after its sender's deadline reaches the victim more than the delivery allowance later, and the
    victim's file built on it goes out before the victim claims (an answer made without a look at the dates): the
    claim stands, and the move and that file are set aside in the fold rather than stopping it."""
    due = pos.mover_deadline()
    _, move = pos.move(due + MIN)
    came = due + DELIVERY + HOUR
    answer = pos.answer(move, came + MIN)
    counter = sign_claim(pos.base, pos.victim, pos.mover, came + 2 * MIN, pos.p.ids[pos.victim], rnd=move.round)
    home = pos.home([move, answer, counter], now=came + 3 * MIN)
    assert counter.file_hash in home.applied and lost(home, pos.mover) and not lost(home, pos.victim)
    assert "[P-timeout]" in home.void[move.file_hash][1] and "displaced" in home.void[answer.file_hash][1]


def test_the_delivery_allowance_is_a_bounded_field_and_its_absence_keeps_the_old_clock():
    """A genesis without ``delivery_hours`` is a game begun before the rule (its clock keeps its meaning); with
    it, a whole number of hours up to a year (P-genesis otherwise); new games write it."""
    from duelmail.engine.clock import LIMITS, TimeControl, TimeControlError

    assert TimeControl.from_dict({}).delivery is None and "delivery_hours" not in TimeControl.from_dict({}).to_dict()
    assert TimeControl.from_dict({"delivery_hours": 0}).delivery == timedelta(0)
    assert TimeControl.from_dict(DELIVERY_TIME_CONTROL).to_dict()["delivery_hours"] == 12
    for bad in (LIMITS["delivery_hours"] + 1, -1, 1.5, True):
        with pytest.raises(TimeControlError, match="delivery_hours"):
            TimeControl.from_dict({"delivery_hours": bad})
