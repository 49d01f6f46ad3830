"""What the open round awaits from each seat (``Duty``), its deadlines and the answer windows."""

from __future__ import annotations

from dataclasses import field
from datetime import datetime, timedelta

from duelmail.engine.clock import MAX_ALLOWANCE, paused_deadline
from duelmail.engine.log import parse_time
from duelmail.errors import DuelmailError, IllegalMove
from duelmail.games.base import PUBLIC, Awaited, Window
from duelmail.games.cards import CardRef
from duelmail.protocol.turnfile import SignedFile
from duelmail.util.classes import dataclass


@dataclass
class Duty:
    """What one seat must send in the open round."""

    join: bool = False
    steps: list[str] = field(default_factory=list)  # deck ids with a pass for this seat
    decide: bool = False
    shares: set[CardRef] = field(default_factory=set)  # key shares the game is blocked on
    opens: set[str] = field(default_factory=set)  # sealed choices the rules want opened
    seed: bool = False
    retired: bool = False  # the seed is owed because the rules retired the seat, not for the end-of-game audit
    windows: tuple[Window, ...] = ()  # answer windows the decision answers out of turn (protocol section 5b)
    toss: bool = False  # the creator opens its part of the coin toss (protocol section 10)
    escrow: int | None = None  # a removal round: the seat whose escrow shares this seat publishes (section 6c)

    @property
    def needs_human(self) -> bool:
        return self.decide or self.join

    def describe(self, prompt: str = "") -> str:
        """What the seat owes, in a player's words (the protocol's: ``protocol_words``)."""
        parts = []
        if self.join:
            parts.append("accept the challenge")
        if self.steps:
            parts.append("shuffle the cards, unseen" if len(self.steps) == 1 else
                         f"shuffle {len(self.steps)} decks, unseen")
        if self.decide:
            if self.windows:
                own = all(w.in_turn for w in self.windows)
                parts.append("answer in your turn" if own else "answer out of turn")
            parts.append(prompt or "decide")
        if self.toss:
            parts.append("open the coin toss")
        if self.shares:
            n = len(self.shares)
            parts.append(f"unlock {'a card' if n == 1 else f'{n} cards'} for the player who may see "
                         f"{'it' if n == 1 else 'them'}")
        if self.opens:
            parts.append("reveal a sealed choice" if len(self.opens) == 1 else
                         f"reveal {len(self.opens)} sealed choices")
        if self.escrow is not None:
            parts.append(f"publish what lets the game go on without seat {self.escrow}")
        if self.seed:
            parts.append("publish the game seed (retired from play)" if self.retired else
                         "publish the game seed for the audit")
        return "; ".join(parts)

    def protocol_words(self) -> str:
        """What the seat owes in the protocol's words (deck passes, key shares by card, sealed labels), for
        ``--verbose``-like views and the tests."""
        parts = []
        if self.steps:
            parts.append(f"shuffle/lock deck {', '.join(self.steps)}")
        if self.windows:
            parts.append(f"answer window ({', '.join(w.rule for w in self.windows)})")
        if self.shares:
            parts.append(f"key shares for {', '.join(str(r) for r in sorted(self.shares))}")
        if self.opens:
            parts.append(f"open sealed {', '.join(sorted(self.opens))}")
        if self.escrow is not None:
            parts.append(f"publish the escrow shares of seat {self.escrow}")
        return "; ".join(parts)


class Duties:
    """``Match``'s room: what the open round awaits from each seat (``Duty``), its deadlines and the answer windows."""

    # -- who is awaited ------------------------------------------------------------------
    def owed(self, seat: int, visibility=None) -> set[CardRef]:
        """Key shares ``seat`` owes now: for refs shown to another seat or to everyone.

        None once the game is over: the per-game seeds published for the audit open every card."""
        out: set[CardRef] = set()
        if self.over():
            return out
        for ref, who in (visibility if visibility is not None else self.state.visibility()).items():
            if who == seat:
                continue
            deck = self.book.decks.get(ref.deck)
            if deck is None or seat not in deck.lockers or seat not in deck.commits:
                continue
            if ref.index not in deck.keys.get(seat, {}):
                out.add(ref)
        return out

    def ahead_owed(self, seat: int) -> set[CardRef]:
        """Key shares ``seat`` sends ahead of a draw (protocol section 6, "Shares ahead of a draw"): in a game whose
        genesis says ``ahead = true``, for each card the rules' ``draws_ahead`` names for another seat, if ``seat``
        has locked its deck and not yet published its key for it."""
        out: set[CardRef] = set()
        if not self.ahead_on or self.over():
            return out
        for ref, drawer in self.state.draws_ahead().items():
            deck = self.book.decks.get(ref.deck)
            if drawer == seat or deck is None or seat not in deck.lockers or seat not in deck.commits:
                continue
            if ref.index not in deck.keys.get(seat, {}):
                out.add(ref)
        return out

    def _missing_for(self, seat: int) -> dict[int, set[CardRef]]:
        """Shares other seats still owe before ``seat`` can see what the rules show it."""
        missing: dict[int, set[CardRef]] = {}
        decks = self.book.decks
        for ref, who in self.state.visibility().items():
            if who != seat:
                continue
            deck = decks.get(ref.deck)
            if deck is None:
                continue
            i, keys = ref.index, deck.keys
            for s in deck.lockers:
                if s != seat and i not in keys.get(s, ()):  # (no table made for a locker without keys)
                    missing.setdefault(s, set()).add(ref)
        return missing

    def _unchecked(self, seat: int) -> list[CardRef]:
        """Cards the rules turned face up that only ``seat``'s key share keeps closed. An honest file carries
        every share its own actions make owed, so after each of its actions none is left: a claim about a card
        played face up (``FaceClaims``) is checked at its reveal before anything else is applied."""
        public = self.state.public_faces()
        claims = getattr(self.state, "claims", {})  # FaceClaims: cards played *as* a face
        out = []
        if seat in self.state.retired() or not getattr(self.state, "checked_at_once", False):
            return out
        for ref, who in self.state.visibility().items():
            if who != PUBLIC or ref in public or ref not in claims:
                continue
            deck = self.book.decks.get(ref.deck)
            if deck is None or not deck.locked or seat not in deck.lockers or ref.index in deck.keys.get(seat, {}):
                continue
            if seat not in self.retired_seeds and all(ref.index in deck.keys.get(s, {}) for s in deck.lockers
                                                      if s != seat):
                out.append(ref)
        return sorted(out)

    def ready(self, seat: int) -> bool:
        return not self._missing_for(seat)

    def _compute_duties(self) -> dict[int, Duty]:
        duties: dict[int, Duty] = {}

        def duty(s: int) -> Duty:
            got = duties.get(s)
            if got is None:  # (a Duty, made with its three containers, only for a seat not awaited yet)
                got = duties[s] = Duty()
            return got

        if self.removing is not None:  # a removal round awaits the escrow shares of the seat removed, and only them
            for s in self._publishers(self.removing):
                duty(s).escrow = self.removing
            return duties
        if self.round == 1:
            for s in range(self.n):
                if s != self.creator:
                    duty(s).join = True
        stepping = False
        for deck in self.book.decks.values():
            if not deck.locked:  # (most decks are locked: no step to look up)
                duty(deck.next_step().seat).steps.append(deck.id)
                stepping = True
        if self.tossing:
            duty(self.creator).toss = True
        if stepping or self.round == 1 or self.tossing:
            self._retired_seed_duties(duties)
            return duties
        if self.state.is_terminal() and self.state.windows():
            raise DuelmailError(f"game {self.gid[:12]}, round {self.round}: the rules ended the game while an answer "
                                "window is open (a bug in the rules: no outcome is fixed while an answer is possible)")
        if self.over():
            for s in range(self.n):
                if s not in self.seeds and s not in self.removed:
                    duty(s).seed = True
            return duties
        for s, labels in self.state.openings().items():
            todo = {lb for lb in labels if (s, lb) not in self.opened}
            if todo:
                duty(s).opens |= todo
        deciders = self.state.deciders()
        windows = self._windows(deciders)
        for x in deciders:
            missing = self._missing_for(x)
            for s, refs in missing.items():
                duty(s).shares |= refs
            if not missing:
                duty(x).decide = True
                if windows:  # (most rounds open none)
                    duty(x).windows = tuple(w for w in windows if w.seat == x)
        if not deciders:
            public = self.state.public_faces()
            for ref, who in self.state.visibility().items():
                if who == PUBLIC and ref not in public:
                    deck = self.book.decks[ref.deck]
                    for s in deck.lockers:
                        if ref.index not in deck.keys.get(s, {}):
                            duty(s).shares.add(ref)
        self._retired_seed_duties(duties)
        if not duties:
            raise DuelmailError(f"game {self.gid[:12]} is stuck in round {self.round}: nobody is awaited "
                                "(a bug in the rules or the engine)")
        return duties

    @property
    def tossing(self) -> bool:
        """The coin toss waits for the creator's opening, owed in its first file after the acceptances."""
        return self.toss_commit is not None and self.starter is None and self.round > 1

    def _windows(self, deciders: tuple[int, ...]) -> tuple[Window, ...]:
        """The rules' open answer windows, checked against the contract (protocol section 5b): each window's seat
        is awaited, and no outcome is fixed while a window is open."""
        windows = tuple(self.state.windows())
        for w in windows:
            if w.seat not in deciders or "pass" not in w.answers:
                raise DuelmailError(f"game {self.gid[:12]}, round {self.round}: the window of {w.rule} for seat "
                                    f"{w.seat} is not awaited or cannot be passed (a bug in the rules)")
        return windows

    def _check_window_answer(self, seat: int, duty: Duty, text: str) -> None:
        """A seat awaited to answer a window answers it first: one of the window's verbs (``P-window``)."""
        verbs = sorted({v for w in duty.windows for v in w.answers})
        if text.split(" ", 1)[0].strip() not in verbs:
            rules = ", ".join(f"{w.rule} ({w.what})" for w in duty.windows)
            raise IllegalMove("P-window", f"action {text!r}: seat {seat} is awaited to answer out of turn, {rules}; "
                              f"the file must answer first: {' or '.join(verbs)}", seat=seat, move=text,
                              case=Awaited(duty.windows[0].rule, "; ".join(w.what for w in duty.windows)))

    def _retired_seed_duties(self, duties: dict[int, Duty]) -> None:
        """A retired seat awaited anyway (for shares or a pass) must publish its seed in that file."""
        retired = self.state.retired()
        if not retired:  # (most games retire nobody)
            return
        for s in retired - set(self.seeds) - self.removed:
            if s in duties:
                duties[s].seed = duties[s].retired = True

    # -- the clock ----------------------------------------------------------------------------
    def clock_start(self, seat: int, opening: tuple[datetime, dict[int, datetime]] | None = None) -> datetime:
        """When ``seat``'s clock started in the open round: the round's opening, and, with a delivery allowance
        (protocol section 6b), no earlier than that allowance after the signed time of any other seat's file that
        closed the round before: a file dated early starts nobody's clock before it could have arrived.
        ``opening``: (opening, clock starts) counted from the copies a timeout claim names, not this home's."""
        opened, starts = opening or (self.opened_at, getattr(self, "clock_starts", {}))
        here = getattr(self, "here", {}).get((self.round, seat))  # the last call: a seat that said it is here
        return max(opened, starts.get(seat, opened), here or opened)

    def deadline(self, seat: int, opening: tuple[datetime, dict[int, datetime]] | None = None) -> datetime | None:
        """When ``seat``'s part of the open round is due (None if it owes nothing); ``opening`` as for
        ``clock_start``."""
        duty = self.duties.get(seat)
        if duty is None or seat in self.current:
            return None
        allowance = self.tc.per_move + max(self.bank[seat], timedelta(0)) if duty.needs_human else self.tc.forced
        hours = self.state.answer_deadline_hours(seat) if duty.decide and not duty.join else None
        if hours:
            allowance = timedelta(hours=min(hours, MAX_ALLOWANCE // timedelta(hours=1)))
        return paused_deadline(self.clock_start(seat, opening), min(allowance, MAX_ALLOWANCE), self.vacations[seat])

    def deadlines(self) -> dict[int, datetime]:
        return {s: d for s in sorted(self.duties) if (d := self.deadline(s)) is not None}

    def claim_from(self, seat: int, answered_at: datetime | None = None,
                   opening: tuple[datetime, dict[int, datetime]] | None = None) -> datetime | None:
        """The time after which a timeout claim against ``seat`` stands (protocol section 6b): its deadline, plus
        the delivery allowance, since a file signed by the deadline may still be in the mail until then. Sooner
        if the claim counts from a move of the seat for the round (``answered_at``, the signed time of the copy it
        names): that file had the delivery allowance from its own time to arrive, and a claim signed after that
        says it did not. ``opening`` as for ``clock_start``."""
        due = self.deadline(seat, opening)
        if due is None or self.tc.delivery is None:
            return due
        if answered_at is not None:
            due = min(due, answered_at)
        return due + self.tc.delivery

    def arrived_late(self, f: SignedFile, now: datetime) -> bool:
        """Whether ``f``, a turn file reaching this home at ``now``, came later than the delivery
        allowance after the time it carries (protocol section 6b): its sender's own deadline for it had passed,
        and a timeout claim against it stands (``claim_from`` with its time)."""
        if self.tc.delivery is None or f.kind != "turn":
            return False
        return parse_time(f.content["time"], "file") + self.tc.delivery < now

    def overdue(self, now: datetime) -> list[int]:
        """The seats a timeout claim signed at ``now`` stands against (under the last call: that it may be signed
        against, leaving aside seats a claim still waits on)."""
        called = {c.content["against"] for _, c in getattr(self, "calls", {}).values()}
        return [s for s in self.deadlines() if now > self.claim_from(s) and s not in called]

    def owes_here(self, seat: int) -> bool:
        """Whether ``seat`` can answer a timeout claim's last call with a note that it is here (protocol section
        6b): a claim against it waits, it owes a decision in the open round, and it has not said so this round."""
        duty = self.duties.get(seat)
        return duty is not None and duty.needs_human and seat not in self.current \
            and (self.round, seat) not in getattr(self, "here", {}) \
            and any(c.content["against"] == seat for _, c in self.last_calls())

    def last_calls(self) -> list[tuple[str, SignedFile]]:
        """The open round's timeout claims whose last call is open (protocol section 6b), as (hash, claim)."""
        return [(h, c) for h, (_, c) in getattr(self, "calls", {}).items()]
