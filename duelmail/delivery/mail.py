"""How turns travel by mail: read every new message of a source and apply the turns in it, mail this home's
answers to the other seats. The mechanics (SMTP, IMAP, Maildir, mbox, finding a turn in a message) are in
``duelmail.transport.mail``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field
from datetime import datetime

from duelmail import app
from duelmail.delivery.arrivals import Arrival, apply_files, fold
from duelmail.delivery.git import by_git
from duelmail.errors import DuelmailError
from duelmail.home import Home
from duelmail.protocol.identity import Identity
from duelmail.protocol.turnfile import SignedFile, parse_any
from duelmail.transport import mail as mailt
from duelmail.transport.archive import file_name
from duelmail.transport.reply import looks_like_reply
from duelmail.util.classes import dataclass


@dataclass
class MailReport:
    letters: int = 0
    arrivals: list[Arrival] = field(default_factory=list)
    ignored: int = 0  # messages with no duelmail turn in them
    processed: str = ""  # what was done with the processed messages
    aside: int = 0  # messages holding a refused file, set aside
    aside_how: str = ""
    replies: int = 0  # replies to a "your move" mail: taken by the reply play, or left for it
    later: int = 0  # messages left unread: a file in them the held store had no room for yet


def fetch_mail(home: Home, identity: Identity | None, source: mailt.Source, now: datetime | None = None,
               take: Callable[[mailt.Letter], bool] | None = None) -> MailReport:
    """Read every new message of a source, verify and apply the turns in them, mark the messages done.

    A message whose files were all applied, duplicates or held (kept in the home until the files between
    arrive) is marked processed; one holding a file
    that cannot be read or is refused is set aside (``Letter.set_aside``), so it is reported once and
    never stops the messages behind it. ``take``: the reply play's hook (``replies.ReplyPlay.take``), given each
    message first; one it takes is marked processed. Without it, a reply to a "your move" mail is left unread."""
    report = MailReport(processed=source.processed, aside_how=source.aside)
    letters = []
    files: list[tuple[str, SignedFile]] = []
    try:
        for letter in source.letters():
            report.letters += 1
            if take is not None and take(letter):
                report.replies += 1
                letter.done()
                continue
            if take is None and looks_like_reply(letter.msg):
                report.replies += 1
                letter.leave()
                continue  # for the reply play of 'duelmail watch', never marked here, met again by its fetch
            found = mailt.find_turns(letter.msg, letter.where)  # never raises for a part it cannot read
            for problem in found.problems:
                report.arrivals.append(Arrival(letter.where, "?", 0, -1, "refused", reason=problem))
            if not found.files and not found.problems:
                report.ignored += 1
                letter.skip()
                continue
            letters.append((letter, found))
            files += [(f"{letter.where} ({file_name(f)})", f) for f in found.files]
        arrivals = apply_files(home, identity, files, now, strangers=True)
        for letter, found in letters:  # a person's words go with the first file of their message
            first = next((a for a in arrivals if found.files and a.where == f"{letter.where} "
                          f"({file_name(found.files[0])})"), None)
            if first is not None:
                first.unsigned = found.unsigned
        report.arrivals += arrivals
        refused = {a.where for a in arrivals if a.status == "refused"}
        later = {a.where for a in arrivals if a.status == "later"}
        for letter, found in letters:  # a file held for later is in the home now: its message is done too
            names = {f"{letter.where} ({file_name(f)})" for f in found.files}
            if names & later and not found.problems and not names & refused:
                letter.leave()  # a file the held store had no room for: read again by a later fetch
                report.later += 1
            elif found.problems or names & refused:
                letter.set_aside()  # reported now, never read again: it cannot stall the next fetch
                report.aside += 1
            else:
                letter.done()
        source.commit()  # every letter dealt with: the next fetch looks only at newer mail
    finally:
        source.close()
    return report


def mail_answers(home: Home, identity: Identity, answers: Sequence[app.Played], now: datetime,
                 settings: mailt.MailSettings, password: Callable[[], str]) -> tuple[list[str], list]:
    """Mail each new file to every other seat of its game, through the outbox (``delivery/outbox.py``), with
    whatever else the outbox still held: one line per message sent or failed, and what is still unsent (the
    transport's own error kept with each). No SMTP host: ``MailError``, and nothing is put in the outbox."""
    from duelmail.delivery.outbox import send_outbox
    from duelmail.transport.outbox import Outbox

    if not settings.smtp_host:
        raise mailt.MailError("no SMTP host in [mail]: run 'duelmail mail setup --smtp-host HOST'")
    for p in answers:
        Outbox(p.folder).add(p.file)  # (one signed here is in already: put there before it was stored)
    return send_outbox(home, identity, now, settings, password)


def mail_forwards(home: Home, identity: Identity, now: datetime, settings: mailt.MailSettings | None,
                  password: Callable[[], str]) -> list[str]:
    """Mail every file a game folder keeps to send on to every other seat still in play, and mark it sent: it goes
    once. Those are an equivocator's file this home holds, the proof for the others (protocol section 5), and under
    the last call (section 6b) a timeout claim sent on to the seat it names or this seat's own file once more
    (``GameFolder.send_again``). A game played by git is left to ``git sync``. A file that cannot be mailed (no
    outgoing server, a server that fails) is kept for the next run; one line each, in words, says what was done."""
    lines = []
    for folder in home.live_folders():  # (a proof is found in a game in play, and sent in the same command)
        kept = [(p, False) for p in folder.forwards()] + [(p, True) for p in folder.again()]
        if not kept or by_git(home, folder):
            continue
        match = fold(folder)
        me = home.me(folder).get("seat")
        to = [c.email for s, c in enumerate(match.cards) if s != me and s not in match.removed]
        sender = (settings.address if settings is not None else None) or identity.email
        for p, again in kept:
            try:
                text = p.read_text(encoding="utf-8")
                (f,) = parse_any(text, str(p))
            except (DuelmailError, OSError, ValueError):
                continue  # only this home writes there; a file it cannot read is nothing to send
            proven = (f.round, f.seat) in match.equivocations  # else a copy another seat's 'seen' disputed (§5)
            name = match.cards[f.seat].name
            if again:  # its first line says why, as ``send_again`` wrote it
                what = text.split("\n", 1)[0].removeprefix("# duelmail: ").strip() or f"round {f.round}, sent again"
            else:
                what = f"the proof that {name} signed two different files for round {f.round}" if proven else \
                    f"{name}'s file for round {f.round} (another seat's file disputes it)"
            if settings is None or not settings.smtp_host:
                lines.append(f"{what} (game {match.gid[:12]}) is kept to be mailed to the other players: no "
                             "outgoing server is set up ('duelmail mail setup --smtp-host HOST'), so the next "
                             "'duelmail mail fetch' mails it")
                continue
            try:
                message = mailt.compose_again(match, f, what, me, sender, to, now) if again else \
                    mailt.compose_proof(match, f, me, sender, to, now, proven)
                mailt.send(settings, [message], password)
            except mailt.MailError as e:
                lines.append(f"could not mail {what} (game {match.gid[:12]}): {e}; kept for the next "
                             "'duelmail mail fetch'")
                continue
            folder.mark_forwarded([p.name])
            lines.append(f"mailed {what} (game {match.gid[:12]}) to {', '.join(to)}")
    return lines
