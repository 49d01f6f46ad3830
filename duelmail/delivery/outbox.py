"""Sending what the outboxes of a home hold (``transport/outbox.py``): each file this home signed and the server
has not taken yet, mailed to every other seat of its game, again at every command that reaches the network until
it goes. What cannot go is said with the server's own words, and stays."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime

from duelmail.delivery.arrivals import fold
from duelmail.delivery.git import by_git
from duelmail.errors import DuelmailError
from duelmail.home import Home
from duelmail.protocol.identity import Identity
from duelmail.transport import mail as mailt
from duelmail.transport.folder import GameFolder
from duelmail.transport.outbox import LISTED, OUTBOX, Outbox
from duelmail.util.classes import dataclass
from duelmail.util.lock import locked

RETRIED_BY = "the next 'duelmail play', 'receive', 'mail fetch', 'watch' or 'git sync' tries again"


@dataclass
class Unsent:
    game: str
    round: int
    kind: str
    file: str
    error: str
    tries: int

    def line(self) -> str:
        what = "your genesis" if self.kind == "genesis" else f"your {self.kind} of round {self.round}"
        why = self.error or "not tried yet (the command that signed it ended first)"
        return f"game {self.game[:12]}: {what} ({self.file}) is not sent yet: {why}"


def with_outbox(home: Home) -> list[GameFolder]:
    """The game folders of ``home`` that hold an outbox, found by the home's list of them (``LISTED``: an empty file
    a folder, written before its outbox), so a command reads no folder of the thousands a club's home holds that
    have none. The list is a cache: without it (a home from before it, ``HOME/index`` deleted) every folder is
    looked at once and the list made again."""
    listed = home.root / LISTED
    if not listed.is_dir():
        listed.mkdir(parents=True, exist_ok=True)  # (first: an outbox written during the look below lists itself)
        found = [f for f in home.game_folders() if (f.path / OUTBOX).exists()]
        for f in found:
            (listed / f.path.name).touch()
        return found
    out = []
    for name in sorted(os.listdir(listed)):
        folder = GameFolder(home.games_dir / name, home.root)
        if (folder.path / OUTBOX).exists():
            out.append(folder)
        else:
            (listed / name).unlink(missing_ok=True)  # (its outbox emptied by a process stopped before this line)
    return out


def unsent(home: Home) -> list[Unsent]:
    """What every outbox of ``home`` still holds, with the last error of each."""
    out = []
    for folder in with_outbox(home):
        box = Outbox(folder)
        if not box.path.exists():
            continue
        for e, f in box.files():
            out.append(Unsent(f.game, f.round, f.kind, e["file"], e.get("error", ""), int(e.get("tries", 0) or 0)))
    return out


def recover(home: Home, now: datetime) -> list[str]:
    """Store each file an outbox holds and its folder does not (a process killed between the outbox and the store:
    ``transport/outbox.py``) while it still follows its game: it is this home's file, and goes out as any other. One
    the game has passed by (this seat wrote another file for that round since, or the game moved on) leaves the
    outbox unsent: nobody saw it. A line for each."""
    lines: list[str] = []
    for folder in with_outbox(home):
        box = Outbox(folder)
        if not box.path.exists():
            continue
        for e, f in box.unstored():
            if f.kind == "genesis":
                continue  # (a game's folder is made from its genesis: never missing from one)
            what = f"your {f.kind} of round {f.round} of {f.game[:12]} ({e['file']})"
            with locked(folder.path):
                try:
                    if (folder.path / e["file"]).exists():
                        raise DuelmailError("another file of yours for that round is there")
                    match = folder.fold()
                    events = match.apply(f, f"the outbox ({e['file']})", now=now)
                    folder.store(f, match, events, own=True)
                except DuelmailError as err:
                    box.drop(e["hash"])
                    lines.append(f"dropped {what}, signed here before a stop and never sent: {err}")
                    continue
                if hasattr(match, "applied"):
                    match.applied.add(f.file_hash)
                    folder.remember_proven(match.applied)
            lines.append(f"stored {what}: signed here before a stop, kept in the outbox, sent with it")
    return lines


def send_outbox(home: Home, identity: Identity, now: datetime, settings: mailt.MailSettings | None,
                password: Callable[[], str]) -> tuple[list[str], list[Unsent]]:
    """Mail every file in the outboxes of ``home`` to the other seats of its game; one line per file sent or
    failed, and what is still unsent. The first failure ends the run (the server is likely down for the rest:
    they keep their place); first, a file signed and not stored before a stop is stored (``recover``)."""
    lines: list[str] = recover(home, now)
    for folder in with_outbox(home):
        box = Outbox(folder)
        if not box.path.exists():
            continue
        pending = box.files()
        if not pending:
            continue
        if by_git(home, folder):  # moved into a repository since: the sync pushes the folder's files
            for e, _ in pending:
                box.sent(e["hash"])
            continue
        if settings is None or not settings.smtp_host:
            break
        match = fold(folder)
        sender = settings.address or identity.email
        for e, f in pending:
            to = mailt.recipients_for(match, f.seat)
            what = f"round {f.round} of {match.gid[:12]}"
            events = [ev for ev in match.events if ev.round == f.round]
            try:
                mailt.send(settings, [mailt.compose(match, f, sender, to, now, events)], password)
            except mailt.MailError as err:
                box.failed(e["hash"], str(err))
                lines.append(f"could not mail {what}: {err}; kept in the outbox: {RETRIED_BY}")
                return lines, unsent(home)
            box.sent(e["hash"])
            lines.append(f"mailed {what} to {', '.join(to)}")
    return lines, unsent(home)
