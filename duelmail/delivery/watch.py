"""The watch loop: pull from every carrier (mail, git), answer what needs no decision, push the answers,
remind; ``duelmail watch`` runs it (clock and sleep injected; ``--once`` statuses 0 and 10)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import field
from datetime import datetime
from pathlib import Path

from duelmail.delivery.arrivals import Answer, Arrival, Decision, answer_duties
from duelmail.delivery.git import by_git, sync_git
from duelmail.delivery.mail import fetch_mail, mail_answers, mail_forwards
from duelmail.delivery.outbox import recover, send_outbox
from duelmail.delivery.reminders import send_reminders
from duelmail.errors import DuelmailError
from duelmail.home import Home
from duelmail.protocol.identity import Identity
from duelmail.transport import mail as mailt
from duelmail.util.classes import dataclass
from duelmail.util.lock import release_all

NOTHING, DECISION = 0, 10  # 'watch --once' exit statuses (1 is an error, as for every command)


@dataclass
class Poll:
    arrivals: list[Arrival] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


class Carrier:
    """Something turns travel by: ``pull`` brings files in, ``push`` sends this home's new files out, ``remind``
    tells players whose deadline is near (or past)."""

    name = "carrier"

    def remind(self, home: Home, identity: Identity, now: datetime) -> list[str]:
        return []

    def pull(self, home: Home, identity: Identity, now: datetime) -> list[Arrival]:
        raise NotImplementedError

    def push(self, home: Home, identity: Identity, answers: Sequence[Answer], now: datetime) -> list[str]:
        raise NotImplementedError

    def send_on(self, home: Home, identity: Identity, now: datetime) -> list[str]:
        """Send the files this home keeps to send on to every seat (the proof of an equivocation, protocol
        section 5); a git repository takes them in its ``push``."""
        return []


class MailCarrier(Carrier):
    def __init__(self, settings: mailt.MailSettings, password: Callable[[mailt.MailSettings, str, str], str],
                 source: str | None = None, take: Callable[[mailt.Letter], bool] | None = None):
        self.settings, self.password, self.source, self.take = settings, password, source, take
        self.name = f"mail {source or settings.imap_user + '@' + settings.imap_host}"

    def pull(self, home, identity, now):
        src = mailt.open_source(self.source, lambda: self.settings, self.password, home_root=home.root)
        return fetch_mail(home, identity, src, now, take=self.take).arrivals

    def push(self, home, identity, answers, now):
        s = self.settings
        answers = [a for a in answers if not by_git(home, a.folder)]  # a game played by git is never mailed
        if not answers:
            return []
        if not s.smtp_host:
            return ["answers written; no SMTP host set up, so send them with 'duelmail mail send'"]
        return mail_answers(home, identity, [a.played for a in answers], now, s,
                            lambda: self.password(s, s.smtp_user, s.smtp_host))[0]

    def send_on(self, home, identity, now):
        s = self.settings
        lines = []
        if s.smtp_host:  # what an earlier poll or command signed and could not mail: tried again at every poll
            lines += send_outbox(home, identity, now, s, lambda: self.password(s, s.smtp_user, s.smtp_host))[0]
        return lines + mail_forwards(home, identity, now, s, lambda: self.password(s, s.smtp_user, s.smtp_host))

    def remind(self, home, identity, now):
        s = self.settings
        if not s.smtp_host:
            return []
        return send_reminders(home, identity, now, s, lambda: self.password(s, s.smtp_user, s.smtp_host))


class GitCarrier(Carrier):
    def __init__(self, path: Path):
        self.path = Path(path)
        self.name = f"git {path}"

    def pull(self, home, identity, now):
        rep = sync_git(home, identity, self.path, now)
        self.notes = [f"{self.path}: {line}" for line in rep.recovered]
        return rep.arrivals

    def push(self, home, identity, answers, now):
        rep = sync_git(home, identity, self.path, now)
        return [f"{self.path}: {line}" for line in rep.recovered] + [f"{self.path}: committed {c}"
                                                                      for c in rep.committed]

    def remind(self, home, identity, now):
        notes, self.notes = getattr(self, "notes", []), []  # what the pull set aside or put in order, said once
        return notes


def poll(home: Home, identity: Identity, carriers: Sequence[Carrier], clock: Callable[[], datetime],
         bot: str | None = None, rng: random.Random | None = None,
         after: Callable[[Poll], None] | None = None, replies=None) -> Poll:
    """One round of watching: pull from every carrier, answer what can be answered, push the answers; then
    ``after(poll)``, while this process still holds the games it changed. ``replies`` (``replies.ReplyPlay``):
    the player's replies that came in are played first, and each decision left is mailed to the player."""
    out = Poll()
    try:
        out.lines += recover(home, clock())  # a file signed before a stop, not stored: before any decision is read
        for c in carriers:
            out.arrivals += c.pull(home, identity, clock())
        out.lines += [a.line() for a in out.arrivals if a.status != "duplicate"]
        by_reply: list[Answer] = []
        if replies is not None:
            try:
                by_reply, said = replies.play(home, identity, clock)
            except mailt.MailError as e:  # what was played is in its game's outbox: mailed below, or at a later poll
                said = [f"could not mail the answers to your replies: {e}"]
            out.lines += said
        out.answers, out.decisions = answer_duties(home, identity, clock, bot, rng)
        out.answers = [*by_reply, *out.answers]
        out.lines += [a.line() for a in out.answers]
        if out.answers:
            for c in carriers:
                out.lines += c.push(home, identity, out.answers, clock())
        for c in carriers:
            out.lines += c.send_on(home, identity, clock())
        if replies is not None:
            out.lines += replies.offer(home, identity, out.decisions, clock)
        out.lines += [d.line() for d in out.decisions]
        for c in carriers:
            out.lines += c.remind(home, identity, clock())
        if after is not None:
            after(out)
    finally:
        release_all()  # the player's own commands may run between polls
    return out


def watch(home: Home, identity: Identity, carriers: Sequence[Carrier], *, clock: Callable[[], datetime],
          sleep: Callable[[float], None], say: Callable[[str], None], interval: float = 300, once: bool = False,
          bot: str | None = None, rng: random.Random | None = None, polls: int | None = None,
          after: Callable[[Poll], None] | None = None, replies=None) -> int:
    """Poll every ``interval`` seconds (``polls`` times, or for ever), ``after`` each poll (see ``poll``); an error
    is said and the watch goes on. In ``once`` mode: one poll, errors raise, and the exit status says whether a
    decision of yours awaits (``DECISION``) or not (``NOTHING``)."""
    if not carriers:
        raise DuelmailError("nothing to watch: set up mail ('duelmail mail setup') or a repository "
                            "('duelmail git init DIR')")
    if interval <= 0:
        raise DuelmailError(f"--interval must be positive, not {interval}")
    n = 0
    told: set[tuple[str, int]] = set()
    while True:
        try:
            p = poll(home, identity, carriers, clock, bot, rng, after, replies)
        except (DuelmailError, OSError) as e:
            if once:
                raise
            say(f"duelmail watch: {e} (trying again in {interval:g} s)")  # a server down must not end the watch
            p = Poll()
        for line in p.lines:
            if line.startswith("duelmail: your move"):
                continue
            say(line)
        for d in p.decisions:  # one line per decision, said once (not at every poll)
            key = (d.match.gid, d.match.round)
            if once or key not in told:
                say(d.line())
                told.add(key)
        n += 1
        if once:
            return DECISION if p.decisions else NOTHING
        if polls is not None and n >= polls:
            return DECISION if p.decisions else NOTHING
        sleep(interval)
