"""The exception hierarchy. Every error names its input and context; the CLI prints the message."""

from __future__ import annotations


class DuelmailError(Exception):
    """Base of every error duelmail raises on purpose."""


class NotationError(DuelmailError, ValueError):
    """Text that is not a valid action, card or reference."""


class Case:
    """The parts of a refusal that says more than what its seat must do now: a false claim about one's own cards
    (``games.base.FalseClaim``, else the ``games.base.Violation`` found), a card the seat does not have where the
    move needs it (``games.base.NotHeld``), an earlier commitment (``games.base.Committed``), an answer out of
    turn awaited first (``games.base.Awaited``). (Here a plain class: a status read from its cache imports this module
    and no dataclass.) ``choosing.refusal`` composes a player's words from them."""


class IllegalMove(DuelmailError):
    """A move the rules forbid. ``rule`` is the digest rule id, e.g. ``W-7``; ``str(error)`` the rules' own text
    (``message`` and the rule), what ``play --verbose`` and ``verify`` show.

    The parts a player's words are composed from (``choosing.refusal``), each where the raiser knows it: ``seat``,
    the seat refused; ``move``, the refused move's notation; ``must``, what the seat must do now, an order as its
    prompt says it (``summon, double, joker; then end ...``: "you must ..."); ``now``, what is asked of it now when
    the prompt is no order (``the attack deals 1 damage: accept, or play an Ace``); ``case``, the parts of a
    refusal that says more (``Case``)."""

    def __init__(self, rule: str, message: str, *, seat: int | None = None, move: str | None = None,
                 must: str | None = None, now: str | None = None, case: Case | None = None):
        self.rule, self.message = rule, message
        self.seat, self.move, self.must, self.now, self.case = seat, move, must, now, case
        super().__init__(f"{message} (rule {rule})")

    def reworded(self, message: str) -> IllegalMove:
        """The same refusal, its parts kept, with the rules' text ``message`` instead."""
        return IllegalMove(self.rule, message, seat=self.seat, move=self.move, must=self.must, now=self.now,
                           case=self.case)


class SeatNotRemovable(DuelmailError):
    """``GameState.remove`` refused: the game removes no seat (a silent seat forfeits the game), or not that seat
    now (no such seat, removed already, the game over)."""


class CheatDetected(DuelmailError):
    """Proof that a seat broke the protocol or the rules in a way only a cheat can."""

    def __init__(self, seat: int, rule: str, message: str, round: int | None = None):
        self.seat = seat
        self.rule = rule
        self.round = round
        where = f"round {round}, " if round is not None else ""
        super().__init__(f"cheat by seat {seat} ({where}rule {rule}): {message}")


class CryptoError(DuelmailError):
    """A malformed or invalid point, scalar, key, commitment or sealed box."""


class FileRefused(DuelmailError):
    """An incoming file failed a check. Names the file, the round, the seat and the rule; ``illegal``: the rules'
    refusal of a move it carries (an ``IllegalMove``, its parts for a player's words), if that is why."""

    def __init__(self, path: str, message: str, round: int | None = None,
                 seat: int | None = None, rule: str | None = None, illegal: IllegalMove | None = None):
        self.path, self.round, self.seat, self.rule = path, round, seat, rule
        self.message, self.illegal = message, illegal  # illegal: the rules' refusal it says, with its parts
        self.lead = ""  # what a refusal in a player's words begins with
        if path in OWN_FILES:  # this home's own file, checked before it is signed: said as the player would
            tail = f" [{rule}]" if rule and not message.endswith(f"(rule {rule})") else ""
            self.lead = f"{OWN_FILES[path]} was not sent" + (f" (round {round})" if round is not None else "") + ": "
            super().__init__(f"{self.lead}{message}{tail}")
            return
        parts = [f"refused {path}"]
        if round is not None:
            parts.append(f"round {round}")
        if seat is not None:
            parts.append(f"seat {seat}")
        head = ", ".join(parts)
        # the rule once: a message from an IllegalMove already ends "(rule W-7)"
        tail = f" [{rule}]" if rule and not message.endswith(f"(rule {rule})") else ""
        super().__init__(f"{head}: {message}{tail}")


OWN_FILES = {"your new turn": "your move", "your note": "your note", "your timeout claim": "your timeout claim"}
"""What this home's own files are called while they are checked before signing, and how a refusal names them."""


class NotYet(FileRefused):
    """An incoming file that cannot be checked yet because a file before it is missing (a later round, a note whose
    predecessor has not arrived). ``waiting``: what it waits for, in a player's words (``round 2``). A home keeps
    such a file aside and applies it once the gap is filled (``transport/held.py``)."""

    def __init__(self, path: str, message: str, waiting: str, round: int | None = None, seat: int | None = None,
                 rule: str | None = None):
        self.waiting = waiting
        super().__init__(path, message, round=round, seat=seat, rule=rule)


class HeldFull(FileRefused):
    """An early file its seat's share of a game's held store has no room for: not kept now, and not refused for good
    either. The carrier leaves it where it is (a mail stays unread), so that it comes again, once the files before
    it have let the held ones in (``transport/held.py``)."""


class IdentityError(DuelmailError):
    """Missing, ambiguous or unreadable identity."""


class LocalFileError(DuelmailError):
    """A damaged file of this home (config.toml, a game's .me.toml or .pending.toml): names it and what is wrong."""


class GameNotFound(DuelmailError):
    """No game (or more than one) matches what the user asked for."""


def unexpected(where: str, e: BaseException, round: int | None = None, seat: int | None = None) -> FileRefused:
    """An error no check meant to raise, met while reading or checking one incoming file, as a refusal of
    that file: the transports' last line of defence, so a hostile file is set aside, never a traceback."""
    text = " ".join(str(e).split())
    text = text if len(text) <= 160 else text[:157] + "..."
    return FileRefused(where, f"cannot be read or checked ({type(e).__name__}: {text or 'no message'})",
                       round=round, seat=seat, rule="P-format")
