"""Reminders and timeout notes: what the time control calls for in this home's mail games, mailed once per
deadline."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from datetime import datetime, timedelta

import tomlkit

from duelmail.delivery.arrivals import fold
from duelmail.delivery.git import by_git
from duelmail.engine.match import Match
from duelmail.home import Home
from duelmail.protocol.identity import Identity
from duelmail.transport import mail as mailt
from duelmail.util.fs import atomic_write


def due_notices(match: Match, mine: int, now: datetime) -> list[tuple[str, int, datetime]]:
    """What the time control calls for now: ``("reminder", seat, deadline)`` for another seat whose decision is
    due within ``reminder_hours``, ``("timeout", seat, deadline)`` for one a timeout claim stands against (its
    deadline and the delivery allowance after it have passed, protocol section 6b)."""
    out = []
    if match.over():
        return out
    for s, due in match.deadlines().items():
        if s == mine:
            continue
        if now > match.claim_from(s):
            out.append(("timeout", s, due))
        elif match.duties[s].needs_human and due - now <= timedelta(hours=match.tc.reminder_hours):
            out.append(("reminder", s, due))  # a person's decision: a machine's answer needs no reminder
    return out


def send_reminders(home: Home, identity: Identity, now: datetime, settings: mailt.MailSettings,
                   password: Callable[[], str]) -> list[str]:
    """Mail every reminder and timeout note the time control calls for in this home's mail games, each once per
    deadline (``.notices.toml`` in the game folder remembers them); one line per message sent."""
    messages, lines, marks = [], [], []
    for folder in home.live_folders():  # a settled game has no deadline
        if by_git(home, folder):
            continue
        me = home.me(folder)
        seat = me.get("seat")
        if seat is None or me.get("identity", identity.name) != identity.name:
            continue
        match = fold(folder)
        memo = folder.path / ".notices.toml"
        sent = set(tomllib.loads(memo.read_text()).get("sent", [])) if memo.exists() else set()
        new = []
        for kind, late, due in due_notices(match, seat, now):
            key = f"{kind} {late} {due.isoformat()}"
            if key in sent:
                continue
            if kind == "reminder":
                to = [match.cards[late].email]
            else:
                to = [c.email for s, c in enumerate(match.cards) if s != late]  # the watcher's player too
                lines.append(f"duelmail: {match.cards[late].name}'s time ran out in {match.game.spec.title} "
                             f"{match.gid[:12]}: 'duelmail claim {match.gid[:12]}' claims the game")
            if to:
                messages.append(mailt.compose_notice(match, kind, late, seat, settings.address or identity.email, to,
                                                     due, now))
                lines.append(f"mailed a {kind} about {match.cards[late].name} in {match.gid[:12]} to {', '.join(to)}")
            new.append(key)
        if new:
            marks.append((memo, sorted(sent | set(new))))
    mailt.send(settings, messages, password)
    for memo, keys in marks:  # remembered once sent: a server down means trying again at the next poll
        atomic_write(memo, tomlkit.dumps({"sent": keys}))
    return lines
