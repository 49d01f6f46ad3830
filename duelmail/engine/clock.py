"""Time control: deadlines from the signed times in the log, banks, increments and vacations.

Every figure comes from the files themselves (each file's signed ``time``); the receiver's own
clock is used only to say how much time is left and to refuse files from the future.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from duelmail.errors import DuelmailError
from duelmail.util.classes import dataclass

FUTURE_TOLERANCE = timedelta(hours=1)  # clocks disagree a little; a file from further ahead is refused
# Every signed time lies in [EARLIEST, LATEST) and every duration under its limit, so no deadline, however
# many vacations and increments it adds up, comes near datetime's year 9999 (no OverflowError anywhere).
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
LIMITS = {"days_per_move": 365, "extra_hours_per_move": 24 * 365, "bank_days": 3650, "forced_answer_hours": 24 * 365,
          "reminder_hours": 24 * 365, "vacation_days_per_year": 366, "delivery_hours": 24 * 365,
          "last_call_hours": 24 * 365}
MAX_ALLOWANCE = timedelta(days=LIMITS["days_per_move"] + LIMITS["bank_days"])  # caps a bank grown by increments
JOIN_WINDOW = timedelta(days=1)  # how long before a joiner sees it an invitation may have been created (§6b)


class TimeControlError(DuelmailError, ValueError):
    """A time control or vacation that does not make sense."""


@dataclass(frozen=True)
class TimeControl:
    """How long each seat has. Days and hours may be fractional in spirit, but are whole numbers on file."""

    days_per_move: int = 3
    extra_hours_per_move: int = 0  # added to the bank after every move (a Fischer increment)
    bank_days: int = 0  # a reserve spent when a move takes longer than days_per_move
    forced_answer_hours: int = 24  # for a file with no decision in it (key shares, reveals, openings)
    reminder_hours: int = 24  # status flags a deadline this close
    vacation_days_per_year: int = 14
    on_timeout: str = "forfeit"  # the outcome a valid timeout claim brings
    # How long a file may take to reach the other seats after its signed time (protocol section 6b): a seat's clock
    # starts no earlier than that after another seat's file of the round before, and a claim needs it past the
    # deadline. None: a game begun before this rule (no such key in its genesis), whose clock keeps the old meaning.
    delivery_hours: int | None = None
    # The last call (protocol section 6b): a timeout claim ends nothing by itself; the claimed seat keeps its seat if
    # its file for the round (or, once a round, a note that it is here) reaches a home within this many hours of the
    # claim reaching that home. None: a game begun before the rule, whose clock keeps its meaning.
    last_call_hours: int | None = None

    FIELDS = ("days_per_move", "extra_hours_per_move", "bank_days", "forced_answer_hours", "reminder_hours",
              "vacation_days_per_year", "delivery_hours", "last_call_hours")

    @classmethod
    def from_dict(cls, d: dict | None, where: str = "time_control") -> TimeControl:
        d = dict(d or {})
        unknown = set(d) - set(cls.FIELDS) - {"on_timeout"}
        if unknown:
            raise TimeControlError(f"{where}: unknown time control {sorted(unknown)} (known: {', '.join(cls.FIELDS)})")
        for k in cls.FIELDS:
            if k in d and (not isinstance(d[k], int) or isinstance(d[k], bool) or not 0 <= d[k] <= LIMITS[k]):
                raise TimeControlError(f"{where}: {k} must be a whole number from 0 to {LIMITS[k]}, not {d[k]!r}")
        if d.get("days_per_move", 1) == 0 and d.get("bank_days", 0) == 0:
            raise TimeControlError(f"{where}: a move needs some time: days_per_move or bank_days above 0")
        if "delivery_hours" in d and "last_call_hours" in d:
            raise TimeControlError(f"{where}: delivery_hours and last_call_hours are two clocks: a game keeps one")
        if d.get("last_call_hours", 1) == 0:
            raise TimeControlError(f"{where}: a last call needs some time: last_call_hours above 0")
        if d.get("on_timeout", "forfeit") != "forfeit":
            raise TimeControlError(f"{where}: on_timeout can only be 'forfeit' (the default answer applies first)")
        return cls(**d)

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.FIELDS if getattr(self, k) is not None}

    @property
    def per_move(self) -> timedelta:
        return timedelta(days=self.days_per_move)

    @property
    def forced(self) -> timedelta:
        return timedelta(hours=self.forced_answer_hours)

    @property
    def delivery(self) -> timedelta | None:
        """The delivery allowance, or None under the rule of games begun before it (section 6b)."""
        return None if self.delivery_hours is None else timedelta(hours=self.delivery_hours)

    @property
    def last_call(self) -> timedelta | None:
        """How long a timeout claim's last call lasts in each home, or None in a game begun before the rule."""
        return None if self.last_call_hours is None else timedelta(hours=self.last_call_hours)


def check_date(t: datetime, what: str) -> datetime:
    """``t`` if it lies in [EARLIEST, LATEST), else a ``TimeControlError`` naming it."""
    if not EARLIEST <= t < LATEST:
        raise TimeControlError(f"{what} {t.isoformat()} is not between {EARLIEST.date()} and {LATEST.date()}")
    return t


def join_window(tc: TimeControl) -> timedelta:
    """How old an invitation may be when a joiner first sees it: a day, or half the join allowance if less."""
    return min(JOIN_WINDOW, tc.per_move / 2 if tc.days_per_move else timedelta(days=tc.bank_days) / 2)


def paused_deadline(start: datetime, allowance: timedelta, vacations: Iterable[tuple[datetime, datetime]]) -> datetime:
    """``start + allowance``, with the clock stopped during every vacation."""
    t, left = start, allowance
    for v_start, v_end in sorted(vacations):
        if v_end <= t:
            continue
        if v_start >= t + left:
            break
        if v_start > t:
            left -= v_start - t
        t = v_end
    return t + left


def time_used(start: datetime, end: datetime, vacations: Iterable[tuple[datetime, datetime]]) -> timedelta:
    """Clock time between ``start`` and ``end``, not counting vacations."""
    used = end - start
    for v_start, v_end in vacations:
        lo, hi = max(start, v_start), min(end, v_end)
        if hi > lo:
            used -= hi - lo
    return max(used, timedelta(0))


def check_vacation(existing: list[tuple[datetime, datetime]], start: datetime, days: int, allowance: int,
                   sent: datetime) -> tuple[datetime, datetime]:
    """A new vacation, checked: whole days, announced before it starts, within the yearly allowance."""
    if not isinstance(days, int) or isinstance(days, bool) or days < 1:
        raise TimeControlError(f"a vacation is one or more whole days, not {days!r}")
    if days > allowance:
        raise TimeControlError(f"{days} vacation days in one go; the allowance is {allowance} a year")
    if start < sent:
        raise TimeControlError(f"a vacation must be announced before it starts ({start.isoformat()} is before "
                               f"the file's time {sent.isoformat()})")
    end = start + timedelta(days=days)
    if any(s < end and start < e for s, e in existing):
        raise TimeControlError("a vacation may not overlap another")
    year = start.year
    taken = sum((e - s).days for s, e in existing if s.year == year)
    if taken + days > allowance:
        raise TimeControlError(f"{days} vacation days would make {taken + days} in {year}; "
                               f"the allowance is {allowance}")
    return start, end
