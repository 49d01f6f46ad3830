"""Play by email: settings, composing a turn as a message, sending by SMTP, reading IMAP, Maildir, mbox.

A turn travels twice in one message: as an attachment (``r0007-s1.toml``) and as armoured text in
the body, under a human summary, so a client that drops attachments still carries it. Finding
turns survives quoting, re-wrapping, CRLF, quoted-printable and base64 and HTML-only clients;
files are deduplicated by hash, so reading the same mail twice changes nothing.
"""

from __future__ import annotations

import email
import email.policy
import html
import imaplib
import mailbox
import os
import re
import smtplib
import ssl
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import field, fields
from datetime import UTC, datetime
from email.message import EmailMessage, Message
from email.utils import format_datetime, formataddr
from pathlib import Path

import tomlkit

from duelmail.errors import DuelmailError, unexpected
from duelmail.protocol.turnfile import BEGIN, MAX_TEXT, SignedFile, parse_pieces
from duelmail.transport.archive import file_name, header_for
from duelmail.util.classes import dataclass
from duelmail.util.fs import atomic_write, text_encoding

PASSWORD_ENV = "DUELMAIL_MAIL_PASSWORD"
KEYRING_SERVICE = "duelmail"
SECURITY = ("tls", "starttls", "plain")
PROCESSED = ("flag", "move")
KEYWORD = "$Duelmail"  # the IMAP keyword a processed message gets
REFUSED_KEYWORD = "$DuelmailRefused"  # and one holding a refused file (also \Flagged, left unread)
REFUSED_FOLDER = "Duelmail-refused"  # where a Maildir's messages holding a refused file are moved
THREAD_DOMAIN = "duelmail.invalid"


class MailError(DuelmailError):
    """Bad mail settings, or a mail server that refused or could not be reached."""


@dataclass
class MailSettings:
    """One mail account, as kept in the home's ``config.toml`` under ``[mail]``."""

    smtp_host: str = ""
    smtp_port: int = 587
    smtp_security: str = "starttls"
    smtp_user: str = ""
    imap_host: str = ""
    imap_port: int = 993
    imap_security: str = "tls"
    imap_user: str = ""
    imap_folder: str = "INBOX"
    processed: str = "flag"
    processed_folder: str = "duelmail"
    address: str = ""  # From: override; default is the identity's address
    ca_file: str = ""  # certificates to trust besides the system's (a private server's own CA)
    password: str = ""  # only with 'mail setup --password-in-config' (insecure, the user insisted)
    reply_play: bool = False  # 'duelmail watch' mails this player their moves and plays their replies
    reply_agent: bool = False  # a sealed identity is held by a long-lived 'duelmail watch' (asked once at start)

    def check(self, where: str = "[mail]") -> MailSettings:
        for key in ("smtp_security", "imap_security"):
            if getattr(self, key) not in SECURITY:
                raise MailError(f"{where}: {key} = {getattr(self, key)!r} is not one of {', '.join(SECURITY)}")
        if self.processed not in PROCESSED:
            raise MailError(f"{where}: processed = {self.processed!r} is not one of {', '.join(PROCESSED)}")
        for key in ("reply_play", "reply_agent"):
            if not isinstance(getattr(self, key), bool):
                raise MailError(f"{where}: {key} = {getattr(self, key)!r} is not true or false")
        for key in ("smtp_port", "imap_port"):
            v = getattr(self, key)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 < v < 65536:
                raise MailError(f"{where}: {key} = {v!r} is not a port number (1-65535)")
        return self

    def tls(self) -> ssl.SSLContext:
        """Certificates and host names are always checked; ``ca_file`` adds a private CA to trust."""
        try:
            return ssl.create_default_context(cafile=self.ca_file or None)
        except (OSError, ssl.SSLError) as e:
            raise MailError(f"[mail] ca_file = {self.ca_file!r}: cannot load it ({e})") from None

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) not in ("", False)}


def config_path(home) -> Path:
    return Path(home.root) / "config.toml"


def load_settings(home) -> MailSettings:
    """The ``[mail]`` table of the home's config; a clear error when mail was never set up."""
    p = config_path(home)
    try:
        cfg = tomllib.loads(p.read_text()) if p.exists() else {}
    except tomllib.TOMLDecodeError as e:
        raise MailError(f"{p}: not valid TOML ({e})") from None
    table = cfg.get("mail")
    if not isinstance(table, dict):
        raise MailError(f"no mail account in {p}: run 'duelmail mail setup' first")
    known = {f.name for f in fields(MailSettings)}
    unknown = sorted(set(table) - known)
    if unknown:
        raise MailError(f"{p} [mail]: unknown setting {unknown[0]!r} (known: {', '.join(sorted(known))})")
    return MailSettings(**table).check(f"{p} [mail]")


def save_settings(home, settings: MailSettings) -> Path:
    """Write ``[mail]`` into the home's config, keeping everything else there."""
    settings.check()
    p = config_path(home)
    doc = tomlkit.parse(p.read_text()) if p.exists() else tomlkit.document()
    doc["mail"] = settings.to_dict()
    return atomic_write(p, tomlkit.dumps(doc), mode=0o600)


# -- passwords ---------------------------------------------------------------------------------
def _keyring():
    try:
        import keyring  # optional: pip install duelmail[keyring]
    except ImportError:
        return None
    return keyring


def keyring_user(user: str, host: str) -> str:
    return f"{user}@{host}"


def store_in_keyring(user: str, host: str, password: str) -> bool:
    """Keep the password in the OS keyring; False when no keyring is available."""
    kr = _keyring()
    if kr is None:
        return False
    try:
        kr.set_password(KEYRING_SERVICE, keyring_user(user, host), password)
    except Exception:  # noqa: BLE001 - any keyring backend failure means "no keyring here"
        return False
    return True


def get_password(settings: MailSettings, user: str, host: str, env: dict | None = None,
                 prompt: Callable[[str], str] | None = None) -> str:
    """The OS keyring, else ``$DUELMAIL_MAIL_PASSWORD``, else a password the user insisted on keeping in the
    config, else a prompt. Never printed."""
    kr = _keyring()
    if kr is not None:
        try:
            found = kr.get_password(KEYRING_SERVICE, keyring_user(user, host))
        except Exception:  # noqa: BLE001
            found = None
        if found:
            return found
    env = os.environ if env is None else env
    if env.get(PASSWORD_ENV):
        return env[PASSWORD_ENV]
    if settings.password:
        return settings.password
    if prompt is None:
        raise MailError(f"no password for {user} at {host}: set ${PASSWORD_ENV}, or install the keyring extra "
                        "(pip install 'duelmail[keyring]') and run 'duelmail mail setup --keyring'")
    return prompt(f"Password for {user} at {host}")


# -- composing ---------------------------------------------------------------------------------
def thread_root(game_id: str) -> str:
    return f"<game-{game_id[:16]}@{THREAD_DOMAIN}>"


def message_id(f: SignedFile) -> str:
    return f"<turn-{f.file_hash[:32]}@{THREAD_DOMAIN}>"


def subject_for(match, f: SignedFile) -> str:
    title = match.game.spec.title if match is not None else "duelmail"
    if f.kind == "genesis":
        return f"[duelmail] {title} {f.game[:12]}: new game"
    who = match.cards[f.seat].name if match is not None else f"seat {f.seat}"
    return f"[duelmail] {title} {f.game[:12]}: round {f.round} ({who})"


def _when(t: datetime) -> str:
    return t.astimezone(UTC).strftime("%a %d %b %Y, %H:%M UTC")


def _whose_move(match) -> list[str]:
    """What now, in words: who is awaited and by when, what they may do, and the one command that does it."""
    gid = match.gid[:12]
    if match.over() and match.finished:
        return [f"The game is over: {match.describe_outcome()}. Nothing is left to do: every hidden card has been",
                "shown and checked. One command shows the result once this mail is in:", f"  duelmail status {gid}"]
    out = [f"The game is over: {match.describe_outcome()}."] if match.over() else []
    deadlines = match.deadlines()
    for s, duty in sorted(match.duties.items()):
        name = match.cards[s].name
        due = f", by {_when(deadlines[s])}" if s in deadlines else ""
        if duty.join:
            out += [f"Now {name} is to join the game{due}. {name} reads the invitation with one command, which then",
                    "shows the command that joins:", "  duelmail mail fetch"]
        elif duty.decide and not match.over():
            out += [f"Now it is {name}'s move{due}. {name} takes this mail in with 'duelmail mail fetch', sees the",
                    f"moves {name} may make with 'duelmail moves {gid}', and makes one with one command:",
                    f"  duelmail play {gid} MOVE --send"]
        else:
            what = "to finish the game's check" if match.over() else "to go on"
            out += [f"Now {name}'s duelmail answers on its own{due}: nothing to decide, only cards to shuffle or show",
                    f"{what}. {name} lets it answer with one command:", "  duelmail mail fetch"]
    return out or ["Nobody is awaited."]


def _options_in_words(match, options: dict) -> list[str]:
    if not options:
        return ["Options: none."]
    helps = {o.name: o for o in match.game.spec.options}
    lines = []
    for name, value in sorted(options.items()):
        opt = helps.get(name)
        shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
        lines.append(f"  {name}: {shown}" + (f" ({opt.help})" if opt is not None else ""))
    return ["Options:", *lines]


def invitation_lines(match, f: SignedFile) -> list[str]:
    """What a person invited to a game reads: what duelmail is, the game and options in words, how to join."""
    c = f.content
    host = c["seats"][f.seat]["name"]
    others = [s["name"] for i, s in enumerate(c["seats"]) if i != f.seat]
    spec = match.game.spec
    joins = [d for s, d in match.deadlines().items() if s != f.seat]
    lines = [f"{host} invites {', '.join(others)} to a game of {spec.title}, played by email with duelmail.", "",
             "duelmail plays card games by email or through a shared git repository: each move is a small signed",
             "file that your own copy checks the moment it arrives. There is no server and no dealer; hidden cards",
             "stay hidden, and once the game is over anyone can check that nobody cheated.", "",
             f"Game: {spec.title}, {len(c['seats'])} players: {', '.join(s['name'] for s in c['seats'])}.",
             *_options_in_words(match, dict(c.get("options") or {}))]
    if joins:
        lines.append(f"Join by {_when(min(joins))}.")
    lines += ["", "To join:",
              "  pip install duelmail                   (Python 3.11 or later; once)",
              "  duelmail id new YOURNAME --email YOUR@ADDRESS   (once: your identity)",
              "  duelmail mail setup ...                 (once: see 'duelmail mail setup --help')",
              "  duelmail mail fetch                     (reads this message and offers to join)",
              "or save the attached genesis.toml and run: duelmail join genesis.toml"]
    return lines


def turn_lines(match, f: SignedFile, events=()) -> list[str]:
    """What a player reads about a turn: what happened in words, whose move and the deadline."""
    who = match.cards[f.seat].name
    lines = [f"{who} played round {f.round} of {match.game.spec.title} (game {f.game[:12]}):"]
    said = [e.text for e in match.told_to([e for e in events if not e.technical])]
    lines += [f"  {t}" for t in said] or ["  nothing you see: the cards were shuffled or dealt"]
    return [*lines, "", *_whose_move(match)]


def compose(match, f: SignedFile, sender: str, recipients: Sequence[str], now: datetime, events=()) -> EmailMessage:
    """One turn as a message, threaded per game: ``multipart/alternative`` with a plain text a person reads (what
    happened in words, whose move and by when, the public table) and the armour, and an HTML part with the same
    words around the picture of the public table; the turn file attached. ``From:`` carries the player's name."""
    if not recipients:
        raise MailError(f"round {f.round}: no other seat to mail this turn to")
    from duelmail.pictures import body_html, inline_svg, table_text

    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = formataddr((match.cards[f.seat].name, sender)) if match is not None else sender
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = subject_for(match, f)
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = thread_root(f.game) if f.kind == "genesis" else message_id(f)
    if f.kind != "genesis":
        msg["In-Reply-To"] = thread_root(f.game)
        msg["References"] = thread_root(f.game)
    msg["X-Duelmail"] = f"game={f.game[:12]}; round={f.round}; seat={f.seat}"
    summary = header_for(match, f, events)
    if match is None:  # a file sent without its game at hand: its header is all there is to say
        words, table, svg = list(summary), "", None
    else:
        words = invitation_lines(match, f) if f.kind == "genesis" else turn_lines(match, f, events)
        table, svg = table_text(match, None), inline_svg(match, None)
    machine = ["This is a duelmail turn. To apply it: 'duelmail mail fetch', or save the attachment",
               "(or this whole message) and run 'duelmail receive FILE'."]
    tail = ["-- ", *header_for(match, f, events, plain=True), ""] if f.kind != "genesis" and match is not None \
        else ["-- "]
    shown = ["The table, as everyone sees it:", table, ""] if table else []
    body = "\n".join([*words, "", *shown, *tail, *machine, "", f.armour()])
    msg.set_content(body, subtype="plain", charset="utf-8", cte="quoted-printable")
    page = body_html(svg, [w for w in words if w.strip()], table,
                     ["The turn file is attached for duelmail; the plain-text part of this message carries it too."])
    msg.add_alternative(f"<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
                        f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head>"
                        f"<body style=\"margin:0\">{page}</body></html>", subtype="html", charset="utf-8",
                        cte="quoted-printable")
    msg.add_attachment(f.to_toml(summary).encode(), maintype="application", subtype="toml",
                       filename=file_name(f))
    return msg


def compose_again(match, f: SignedFile, why: str, sender_seat: int | None, sender: str, recipients: Sequence[str],
                  now: datetime) -> EmailMessage:
    """A file of the game sent (again) to the other seats under the last call (protocol section 6b): a timeout claim
    sent on to the seat it names, or the claimed seat's own file once more. ``why`` says which, in words."""
    if not recipients:
        raise MailError(f"round {f.round}: no other seat to send this file to")
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = formataddr((match.cards[sender_seat].name, sender)) if sender_seat is not None else sender
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = f"[duelmail] {match.game.spec.title} {f.game[:12]}: {why.split(':')[0]}"
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = f"<again-{f.file_hash[:32]}-{int(now.timestamp())}@{THREAD_DOMAIN}>"
    msg["In-Reply-To"] = msg["References"] = thread_root(f.game)
    msg["X-Duelmail"] = f"game={f.game[:12]}; round={f.round}; seat={f.seat}"
    machine = ["This is a duelmail file. To apply it: 'duelmail mail fetch', or save the attachment",
               "(or this whole message) and run 'duelmail receive FILE'."]
    msg.set_content("\n".join([why[:1].upper() + why[1:] + ".", "", "-- ", *machine, "", f.armour()]),
                    subtype="plain", charset="utf-8", cte="quoted-printable")
    msg.add_attachment(f.to_toml([f"duelmail: {why}"]).encode(), maintype="application", subtype="toml",
                       filename=file_name(f))
    return msg


def proof_subject(match, f: SignedFile, proven: bool = True) -> str:
    """``proven``: the sender holds two files of the seat for that round; otherwise another seat's 'seen' disputed
    the sender's file, and one file proves nothing (protocol section 5)."""
    if not proven:
        return (f"[duelmail] {match.game.spec.title} {f.game[:12]}: {match.cards[f.seat].name}'s file for round "
                f"{f.round}, as this player holds it")
    return (f"[duelmail] {match.game.spec.title} {f.game[:12]}: proof that {match.cards[f.seat].name} signed two "
            f"different files for round {f.round}")


def compose_proof(match, f: SignedFile, sender_seat: int | None, sender: str, recipients: Sequence[str],
                  now: datetime, proven: bool = True) -> EmailMessage:
    """A file of an equivocator that this home holds, sent on to the other seats (protocol section 5): with the
    other file the seat signed for that round, which a receiver holds, it proves the equivocation. Said in words,
    the file in the armour and attached as a turn is; threaded in the game."""
    if not recipients:
        raise MailError(f"round {f.round}: no other seat to mail this proof to")
    title, gid, name = match.game.spec.title, f.game[:12], match.cards[f.seat].name
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = formataddr((match.cards[sender_seat].name, sender)) if sender_seat is not None else sender
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = proof_subject(match, f, proven)
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = f"<proof-{f.file_hash[:32]}@{THREAD_DOMAIN}>"
    msg["In-Reply-To"] = msg["References"] = thread_root(f.game)
    msg["X-Duelmail"] = f"game={gid}; round={f.round}; seat={f.seat}"
    words = [f"{name} signed two different files for round {f.round} of {title} (game {gid}) and sent them to",
             "different players. This is the one that reached this sender; the other one reached you. Both carry",
             f"{name}'s signature, so together they prove it: the game ends against {name} as soon as your",
             "duelmail holds both. It takes this one in with one command:", "  duelmail mail fetch"] if proven else [
        f"Another player's file says it saw a different file of {name} for round {f.round} of {title} (game {gid})",
        f"than this one, which reached this sender signed by {name}. One file proves nothing: if {name} signed",
        "two, your duelmail then holds both and the game ends against them; if not, nothing changes. It takes",
        "this one in with one command:", "  duelmail mail fetch"]
    machine = ["This is a duelmail file. To apply it: 'duelmail mail fetch', or save the attachment",
               "(or this whole message) and run 'duelmail receive FILE'."]
    header = [f"duelmail: {name}'s file for round {f.round} of game {gid}, sent on: with the other file "
              f"{name} signed for that round it proves an equivocation"]
    msg.set_content("\n".join([*words, "", "-- ", *machine, "", f.armour()]), subtype="plain", charset="utf-8",
                    cte="quoted-printable")
    msg.add_attachment(f.to_toml(header).encode(), maintype="application", subtype="toml",
                       filename=file_name(f))
    return msg


def compose_notice(match, kind: str, late: int, sender_seat: int, sender: str, recipients: Sequence[str],
                   due: datetime, now: datetime) -> EmailMessage:
    """A reminder (``kind='reminder'``: ``late``'s deadline is near; sent to ``late``) or a note that a timeout
    can be claimed (``kind='timeout'``: ``late``'s deadline has passed; sent to the others), in the game's thread,
    in words, with the picture of the table in its HTML part. It carries no turn: duelmail ignores it."""
    from duelmail.pictures import body_html, inline_svg, table_text

    title, gid, name = match.game.spec.title, match.gid[:12], match.cards[late].name
    if kind == "reminder":
        subject = f"[duelmail] {title} {gid}: reminder, your move by {_when(due)}"
        words = [f"{name}, your move in {title} (game {gid}) is due by {_when(due)}.",
                 "After that the other players may claim the game on time.", "",
                 f"To play: duelmail moves {gid}, then duelmail play {gid} MOVE --send"]
    else:
        subject = f"[duelmail] {title} {gid}: {name}'s time ran out"
        words = [f"{name}'s deadline in {title} (game {gid}) passed at {_when(due)} without a move.",
                 "You may claim the game on time:", f"  duelmail claim {gid} --send   (or wait: a move signed "
                 "before your claim still counts)"]
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = formataddr((match.cards[sender_seat].name, sender))
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = f"<{kind}-{match.gid[:16]}-{late}-{int(due.timestamp())}@{THREAD_DOMAIN}>"
    msg["In-Reply-To"] = msg["References"] = thread_root(match.gid)
    msg["X-Duelmail"] = f"game={gid}; {kind}={late}"
    table = table_text(match, None)
    msg.set_content("\n".join([*words, "", "The table, as everyone sees it:", table, ""]), subtype="plain",
                    charset="utf-8", cte="quoted-printable")
    page = body_html(inline_svg(match, None), [w for w in words if w.strip()], table)
    msg.add_alternative(f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>{page}</body></html>",
                        subtype="html", charset="utf-8", cte="quoted-printable")
    return msg


def recipients_for(match, seat: int) -> list[str]:
    return [c.email for s, c in enumerate(match.cards) if s != seat]


# -- sending -----------------------------------------------------------------------------------
def smtp_connect(settings: MailSettings, password: Callable[[], str], timeout: float = 30) -> smtplib.SMTP:
    host, port = settings.smtp_host, settings.smtp_port
    if not host:
        raise MailError("no SMTP host in [mail]: run 'duelmail mail setup --smtp-host HOST'")
    try:
        if settings.smtp_security == "tls":
            conn = smtplib.SMTP_SSL(host, port, timeout=timeout, context=settings.tls())
        else:
            conn = smtplib.SMTP(host, port, timeout=timeout)
            if settings.smtp_security == "starttls":
                conn.starttls(context=settings.tls())
        if settings.smtp_user:
            conn.login(settings.smtp_user, password())
    except smtplib.SMTPNotSupportedError as e:
        raise MailError(f"SMTP {host}:{port} ({settings.smtp_security}): the server does not offer this ({e}); "
                        "check smtp_security and smtp_user") from None
    except smtplib.SMTPAuthenticationError as e:
        raise MailError(f"SMTP {host}:{port}: login as {settings.smtp_user} refused ({e.smtp_code})") from None
    except (OSError, smtplib.SMTPException) as e:
        raise MailError(f"SMTP {host}:{port} ({settings.smtp_security}): {e}") from None
    return conn


def send(settings: MailSettings, messages: Sequence[EmailMessage], password: Callable[[], str]) -> int:
    """Send messages over one SMTP connection; the number sent."""
    if not messages:
        return 0
    conn = smtp_connect(settings, password)
    try:
        for m in messages:
            try:
                refused = conn.send_message(m)
            except smtplib.SMTPRecipientsRefused as e:
                raise MailError(f"SMTP {settings.smtp_host}: every recipient of {m['Subject']!r} was refused "
                                f"({', '.join(e.recipients)})") from None
            except smtplib.SMTPException as e:
                raise MailError(f"SMTP {settings.smtp_host}: sending {m['Subject']!r} failed ({e})") from None
            if refused:
                raise MailError(f"SMTP {settings.smtp_host}: recipients refused for {m['Subject']!r}: "
                                f"{', '.join(refused)}")
    finally:
        try:
            conn.quit()
        except (OSError, smtplib.SMTPException):
            pass
    return len(messages)


# -- finding turns in a message ----------------------------------------------------------------
@dataclass
class Found:
    """What one message carries: files (deduplicated by hash) and the damage met on the way."""

    files: list[SignedFile] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unsigned: str = ""  # what a person wrote above the armour: shown, marked unsigned, never trusted
    quoted: list[str] = field(default_factory=list)  # damaged armours a reply quotes (an older turn): not a problem


MAX_UNSIGNED = 2000
MAX_LINE = 1000  # longer lines are never a reply's attribution nor duelmail's own words: not matched at all
# a reply's attribution line ("On ... wrote:", "Name <a@b> wrote:", "----- Original Message -----"); each pattern
# scans a line once (a pattern like ".*<[^>]+@[^>]+>" backtracks cubically on a long line of '<' and '@')
_ATTRIBUTION = re.compile(r"On .*wrote:$|-----\s*Original Message\s*-----$", re.I)
_ADDRESS_WROTE = re.compile(r"<[^<>@]*@[^<>]*>\s*wrote:$", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


_OURS = re.compile(r"duelmail: |-- $|This is a duelmail turn\.|.+ played round \d+ of .+ \(game [0-9a-f]{12}\):$|"
                   r".+ invites .+ to a game of .+, played by email with duelmail\.$")
"""The first line of each block of a message that duelmail writes itself (a turn's words, the invitation,
the signature line, the file's header, the machine's note)."""


def unsigned_text(text: str) -> str:
    """The words above the first armour of a mail body, as a person typed them in a reply: not the quoted
    mail (``>`` lines, the "On ... wrote:" line), not duelmail's own summary; bounded, control characters
    removed. Nothing signs it: it is only ever shown marked as unsigned."""
    if BEGIN not in text:
        return ""
    keep: list[str] = []
    size = 0
    for line in text[:text.index(BEGIN)].splitlines():
        short = len(line) <= MAX_LINE
        if short and _OURS.match(line):  # our own words start here: what follows is machine-written
            break
        if line.lstrip().startswith(">") or short and _attribution(line.strip()):
            continue
        keep.append(_CONTROL.sub("", line[:MAX_UNSIGNED + 1]).rstrip())
        size += len(keep[-1]) + 1
        if size > MAX_UNSIGNED + 1:
            break  # enough to show: the rest would be cut
    out = "\n".join(keep).strip()
    return out if len(out) <= MAX_UNSIGNED else out[:MAX_UNSIGNED] + " [...]"


def _attribution(line: str) -> bool:
    return bool(_ATTRIBUTION.match(line) or (line[-6:].lower() == "wrote:" and _ADDRESS_WROTE.search(line)))


# a tag ends at the next '>' or gives way at the next '<' (so an unclosed one is never scanned again from every later
# '<': quadratic on 50 KB of '<')
_TAG = re.compile(r"<[^<>]*>")
_BREAK = re.compile(r"<\s*(br|/p|/div|/pre|/blockquote)\b[^<>]*>", re.I)
_BARE_FILE = re.compile(r"^[ \t]*duelmail[ \t]*=[ \t]*1[ \t\r]*$", re.M)  # a turn file's first line, not armoured


def html_text(text: str) -> str:
    """Plain text of an HTML body, with line breaks kept (cheap: enough for armour)."""
    return html.unescape(_TAG.sub("", _BREAK.sub("\n", text)))


def _texts(msg: Message) -> Iterator[tuple[str, str]]:
    """(part label, decoded text) of every text part and attachment that may hold a turn."""
    for n, part in enumerate(msg.walk()):
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        name = part.get_filename() or ""
        if not (ctype.startswith("text/") or name.endswith((".toml", ".asc", ".txt"))
                or ctype in ("application/toml", "application/octet-stream")):
            continue
        raw = part.get_payload(decode=True) or b""
        # a byte-order mark (or UTF-16 without one) tells more than a charset a client guessed for a file it attached
        charset = text_encoding(raw) or part.get_content_charset() or "utf-8"
        try:
            text = raw.decode(charset, errors="replace")
        except LookupError:
            text = raw.decode("utf-8", errors="replace")
        if ctype == "text/html":
            text = html_text(text)
        yield (name or f"part {n}"), text


def find_turns(msg: Message, where: str) -> Found:
    """Every turn in a message; a part that cannot be read is a problem of its own, never an exception."""
    out = Found()
    try:
        _find(msg, where, out)
    except Exception as e:  # noqa: BLE001 - a malformed message (headers, MIME structure): the rest goes on
        out.problems.append(str(unexpected(where, e)))
    return out


def _find(msg: Message, where: str, out: Found) -> None:
    seen: set[str] = set()
    for label, text in _texts(msg):
        if BEGIN not in text and not _BARE_FILE.search(text):  # (not \s: it crosses lines, quadratic on blank lines)
            continue
        try:  # each armour on its own: a damaged one (a quote a person trimmed) never hides the good ones
            pieces = parse_pieces(text, f"{where} {label}")
            files = [p for p in pieces if isinstance(p, SignedFile)]
            hashes = [f.file_hash for f in files]
        except DuelmailError as e:
            out.problems.append(str(e))
            continue
        except Exception as e:  # noqa: BLE001 - whatever a hostile part makes a parser raise, the rest goes on
            out.problems.append(str(unexpected(f"{where} {label}", e)))
            continue
        damaged = [p for p in pieces if not isinstance(p, SignedFile)]
        reply = _reply_starts(text) if damaged else 0
        for p in damaged:
            if getattr(p, "quoted", False) or getattr(p, "line", 0) > reply:
                out.quoted.append(str(p))  # an older turn a reply quotes, trimmed or re-wrapped: normal mail
            else:
                out.problems.append(str(p))
        if not out.unsigned and not label.endswith((".toml", ".asc", ".txt")):
            out.unsigned = unsigned_text(text)
        for f, h in zip(files, hashes, strict=True):
            if h not in seen:
                seen.add(h)
                out.files.append(f)


_OUTLOOK_FROM = re.compile(r"\*?From:\*? .{1,200}$")
_OUTLOOK_SENT = re.compile(r"\*?(Sent|Date):\*? ")


def _reply_starts(text: str) -> int:
    """The line (1-based) where the quoted mail of a reply starts: its attribution ("On ... wrote:", "-----Original
    Message-----"), or Outlook's block of "From: ..." then "Sent: ..."; past the end when there is none."""
    lines = text.splitlines()
    for n, line in enumerate(lines):
        line = line.strip()
        if len(line) > MAX_LINE:
            continue
        if _attribution(line) or _OUTLOOK_FROM.match(line) and any(
                _OUTLOOK_SENT.match(x.strip()) for x in lines[n + 1:n + 3]):
            return n + 1
    return len(lines) + 1


MAX_HEADER = 4 * MAX_LINE  # characters of a header parsed (duelmail reads References raw: see ``header``)


class _Bounded(email.policy.EmailPolicy):
    """``email.policy.default``, but a header is parsed from its first ``MAX_HEADER`` characters only: the
    standard library parses a header in time quadratic in its length (a 200 KB ``Content-Type:`` took 3 s to parse
    and as long again at each look)."""

    def header_fetch_parse(self, name, value):
        if isinstance(value, str) and len(value) > MAX_HEADER:
            value = value[:MAX_HEADER]
        return super().header_fetch_parse(name, value)


_POLICY = _Bounded()


def parse_message(data: bytes | str) -> Message:
    if isinstance(data, str):
        data = data.encode("utf-8", errors="replace")
    return email.message_from_bytes(data, policy=_POLICY)


def header(msg: Message, name: str) -> str:
    """The first ``name`` header of a message as text, never an exception: decoded (RFC 2047) when it can be, else
    as it came; empty when there is none. (``msg.get`` parses an address header and raises on a malformed one, such
    as ``From: bob <bob@``.)"""
    import email.header

    for key, value in msg.raw_items():
        if key.lower() == name.lower():
            raw = re.sub(r"\r?\n[ \t]+", " ", str(value)).strip()
            if len(raw) > 4 * MAX_LINE:  # no honest header is this long: as it came (decoding it is quadratic)
                return raw
            try:
                return str(email.header.make_header(email.header.decode_header(raw)))
            except Exception:  # noqa: BLE001 - any damage in an encoded word: the header as it came
                return raw
    return ""


def describe(msg: Message) -> str:
    subject = header(msg, "Subject") or "(no subject)"
    return f"{subject!r} from {header(msg, 'From') or '?'}"


# -- a message's structure over IMAP ---------------------------------------------------------------
_TOKEN = re.compile(rb'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+')
TURN_NAMES = (".toml", ".asc", ".txt")


def _sexp(chunks: list[bytes | tuple[bytes]]) -> list:
    """The parenthesised lists of an IMAP response (strings, atoms as bytes; NIL as None; literals as bytes)."""
    stack: list[list] = [[]]
    for chunk in chunks:
        if isinstance(chunk, tuple):  # a literal, already cut out by imaplib
            stack[-1].append(chunk[0])
            continue
        for m in _TOKEN.finditer(chunk):
            t = m.group()
            if t == b"(":
                stack.append([])
            elif t == b")":
                if len(stack) > 1:
                    done = stack.pop()
                    stack[-1].append(done)
            elif t.startswith(b'"'):
                stack[-1].append(re.sub(rb"\\(.)", rb"\1", t[1:-1]))
            elif t.upper() == b"NIL":
                stack[-1].append(None)
            elif not re.fullmatch(rb"\{\d+\}", t):
                stack[-1].append(t)
    return stack[0]


def structures(fetched: list) -> Iterator[tuple[int, list]]:
    """(UID, BODYSTRUCTURE) of each message of a ``UID FETCH ... (UID BODYSTRUCTURE)`` response."""
    chunks: list = []
    for item in fetched:
        if isinstance(item, tuple):
            head, literal = item
            chunks += [re.sub(rb"\{\d+\}$", b"", head), (literal,)]
        elif isinstance(item, bytes):
            chunks.append(item)
    items = _sexp(chunks)
    for k, item in enumerate(items):
        if isinstance(item, list) and k > 0:
            pairs = dict(zip(item[0::2], item[1::2], strict=False))
            uid, body = pairs.get(b"UID"), pairs.get(b"BODYSTRUCTURE")
            if isinstance(uid, bytes) and uid.isdigit() and isinstance(body, list):
                yield int(uid), body


def _text(v) -> str:
    return v.decode("utf-8", errors="replace").lower() if isinstance(v, bytes) else ""


def _params(v) -> list[str]:
    """The values of a parameter list (``("name" "r0007-s1.toml" ...)``), lowercased."""
    return [_text(x) for x in v[1::2]] if isinstance(v, list) else []


def may_carry_turn(part: list) -> bool:
    """Whether a part of a message's structure (or a part inside it) may hold a turn."""
    if part and isinstance(part[0], list):  # multipart: its parts, then its subtype and extensions
        parts = []
        for p in part:
            if not isinstance(p, list):
                break
            parts.append(p)
        return any(may_carry_turn(p) for p in parts)
    if len(part) < 7:
        return False
    kind, sub, enc = _text(part[0]), _text(part[1]), _text(part[5])
    size = int(part[6]) if isinstance(part[6], bytes) and part[6].isdigit() else 0
    names = _params(part[2])
    for extra in part[7:]:  # the disposition's parameters (its place depends on the type)
        if isinstance(extra, list) and len(extra) == 2 and isinstance(extra[0], bytes):
            names += _params(extra[1])
    if kind == "message" and sub == "rfc822" and len(part) > 8 and isinstance(part[8], list):
        return may_carry_turn(part[8])  # a forwarded message: its own parts
    if any(ext in n for n in names for ext in TURN_NAMES):
        return True
    if size > 4 * MAX_TEXT:
        return False
    if kind == "application" and sub in ("toml", "x-toml", "octet-stream"):
        return True
    return kind == "text" and enc in ("quoted-printable", "base64")  # the server's search may not decode it


# -- mail sources ------------------------------------------------------------------------------
@dataclass
class Letter:
    """One message from a source, and how to mark it processed."""

    where: str
    msg: Message
    done: Callable[[], None] = lambda: None
    skip: Callable[[], None] = lambda: None  # for a message with no turn in it: never read it again, quietly
    refuse: Callable[[], None] | None = None  # for one holding a refused file: set it aside (default: done)
    leave: Callable[[], None] = lambda: None  # for one left for another reader of the home (a reply, for 'watch'):
    # neither marked nor remembered as looked at, so the next fetch meets it again

    def set_aside(self) -> None:
        (self.refuse or self.done)()


class Seen:
    """What a home remembers it has looked at in one mail source (``HOME/mail/seen-*.json``), so a later fetch
    reads only what is new: the keys of a Maildir's and an mbox's messages that held no turn (or were done with),
    and an IMAP folder's UIDVALIDITY with the highest UID looked at. A cache: lost, the next fetch looks at
    everything again, and reading a message twice changes nothing."""

    def __init__(self, root: Path | None, source: str):
        import hashlib

        self.path = (Path(root) / "mail" / f"seen-{hashlib.sha256(source.encode()).hexdigest()[:16]}.json"
                     if root is not None else None)
        self.data: dict = {"source": source}
        if self.path is not None and self.path.exists():
            import json

            try:
                data = json.loads(self.path.read_text())
                if isinstance(data, dict) and data.get("source") == source:
                    self.data = data
            except (OSError, ValueError):
                pass  # unreadable: looked at again

    def keys(self) -> set[str]:
        keys = self.data.get("keys", [])
        return {k for k in keys if isinstance(k, str)} if isinstance(keys, list) else set()

    def save(self) -> None:
        if self.path is None:
            return
        import json

        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            atomic_write(self.path, json.dumps(self.data), mode=0o600, durable=False)
        except OSError:
            pass  # a cache: the next fetch looks at these messages again


class Source:
    processed = ""  # what happens to a processed message, said after a fetch
    aside = "marked as processed"  # and to one holding a refused file (said when there was one)

    def letters(self) -> Iterator[Letter]:
        raise NotImplementedError

    def commit(self) -> None:
        """Every letter was dealt with: remember what was looked at, so the next fetch skips it."""

    def close(self) -> None:
        pass


class FileSource(Source):
    """A single .eml file, or raw bytes (standard input from procmail, fetchmail or a sieve pipe)."""

    def __init__(self, data: bytes, where: str):
        self.data, self.where = data, where

    def letters(self) -> Iterator[Letter]:
        yield Letter(self.where, parse_message(self.data))


class MaildirSource(Source):
    """A Maildir: new messages are read, then moved to cur/ and flagged seen."""

    def __init__(self, path: Path, seen: Seen | None = None):
        if not (Path(path) / "cur").is_dir() or not (Path(path) / "new").is_dir():
            raise MailError(f"{path}: not a Maildir (no cur/ and new/ folders)")
        self.box = mailbox.Maildir(str(path), factory=None, create=False)
        self.path = path
        self.processed = "processed mail moved to cur/ and marked seen"
        self.aside = f"moved to the folder {REFUSED_FOLDER}"
        self.seen = seen or Seen(None, str(path))
        self.looked: set[str] = set()  # messages without a turn looked at by this fetch

    def letters(self) -> Iterator[Letter]:
        known = self.seen.keys()
        keys = sorted(self.box.keys())
        self.present = set(keys)
        for key in keys:
            if key in known:  # held no turn when it was looked at: left for its reader, never parsed again
                self.looked.add(key)
                continue
            m = self.box.get_message(key)
            if "S" in m.get_flags() and m.get_subdir() == "cur":
                continue

            def done(key=key):
                mm = self.box.get_message(key)
                mm.set_subdir("cur")
                mm.add_flag("S")
                self.box[key] = mm

            def refuse(key=key):
                mm = self.box.get_message(key)
                folder = (self.box.get_folder(REFUSED_FOLDER) if REFUSED_FOLDER in self.box.list_folders()
                          else self.box.add_folder(REFUSED_FOLDER))
                folder.add(mm)
                self.box.remove(key)

            yield Letter(f"{self.path}/{key}", parse_message(m.as_bytes()), done,
                         lambda key=key: self.looked.add(key), refuse=refuse)

    def commit(self) -> None:
        self.seen.data["keys"] = sorted(self.looked & self.present)  # a message gone is forgotten
        self.seen.save()


class MboxSource(Source):
    """An mbox file: read only (marking is left to the mail client); dedupe by file hash keeps it idempotent."""

    def __init__(self, path: Path, seen: Seen | None = None):
        if not Path(path).is_file():
            raise MailError(f"{path}: no such mbox file")
        self.box = mailbox.mbox(str(path), create=False)
        self.path = path
        self.processed = "the mbox is left as it is; what was read is remembered in the home"
        self.seen = seen or Seen(None, str(path))
        self.looked: set[str] = set()

    def letters(self) -> Iterator[Letter]:
        import hashlib

        known = self.seen.keys()
        self.present: set[str] = set()
        for n, key in enumerate(self.box.keys()):
            raw = self.box.get_bytes(key)
            mark = hashlib.sha256(raw).hexdigest()[:32]  # an mbox rewritten by a client keeps its messages' marks
            self.present.add(mark)
            if mark in known:
                self.looked.add(mark)
                continue
            looked = lambda mark=mark: self.looked.add(mark)  # noqa: E731
            yield Letter(f"{self.path} message {n + 1}", parse_message(raw), looked, looked)

    def commit(self) -> None:
        self.seen.data["keys"] = sorted(self.looked & self.present)
        self.seen.save()

    def close(self) -> None:
        self.box.close()


class ImapSource(Source):
    """An IMAP folder. Each new message's structure (``BODYSTRUCTURE``) is read, never every body: a message is
    downloaded when it may carry a turn or be a reply to duelmail's mail (duelmail's subject; an ``In-Reply-To``
    or ``References`` naming a Message-ID of duelmail's, whatever the subject became; an attachment named
    ``*.toml``, ``*.asc`` or ``*.txt`` or of a TOML or bare binary type; a text part the server may not search
    through, encoded quoted-printable or base64; a body the server finds the armour or a bare file's first line in).
    Processed messages are flagged (keyword and \\Seen) or moved to ``processed_folder``; a downloaded one with no
    turn in it only gets the keyword (it stays unread for its reader). The home remembers the folder's
    UIDVALIDITY and the highest UID looked at (``Seen``), so the next fetch looks only at newer messages."""

    def __init__(self, settings: MailSettings, password: Callable[[], str], timeout: float = 30,
                 seen: Seen | None = None):
        s = settings
        if not s.imap_host:
            raise MailError("no IMAP host in [mail]: run 'duelmail mail setup --imap-host HOST'")
        self.settings = s
        self.seen = seen or Seen(None, "")
        self.processed = (f"processed mail moved to {s.processed_folder}" if s.processed == "move"
                          else f"processed mail flagged {KEYWORD} and seen")
        self.aside = f"flagged {REFUSED_KEYWORD}, left unread"
        try:
            if s.imap_security == "tls":
                self.conn = imaplib.IMAP4_SSL(s.imap_host, s.imap_port, ssl_context=s.tls(),
                                              timeout=timeout)
            else:
                self.conn = imaplib.IMAP4(s.imap_host, s.imap_port, timeout=timeout)
                if s.imap_security == "starttls":
                    self.conn.starttls(s.tls())
        except (TimeoutError, OSError, imaplib.IMAP4.error) as e:
            raise MailError(f"IMAP {s.imap_host}:{s.imap_port} ({s.imap_security}): {e}") from None
        try:
            self.conn.login(s.imap_user, password())
        except imaplib.IMAP4.error as e:
            self.conn.shutdown()
            raise MailError(f"IMAP {s.imap_host}:{s.imap_port}: login as {s.imap_user!r} refused ({e})") from None
        typ, data = self.conn.select(self._quote(s.imap_folder))
        if typ != "OK":
            self.close()
            raise MailError(f"IMAP {s.imap_host}: no folder {s.imap_folder!r} ({data[0]!r})")
        validity = self.conn.response("UIDVALIDITY")[1]
        self.validity = validity[0].decode() if validity and validity[0] else ""
        self.moved = False
        self.last = 0  # the highest UID this fetch looked at
        self.left: set[int] = set()  # UIDs left for another reader (Letter.leave): looked at again next time

    @staticmethod
    def _quote(name: str) -> str:
        return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def _ok(self, what: str, result) -> list:
        typ, data = result
        if typ != "OK":
            raise MailError(f"IMAP {self.settings.imap_host}: {what} failed ({data!r})")
        return data

    def _search(self, first: int, *criteria: str) -> list[int]:
        data = self._ok("search", self.conn.uid("SEARCH", None, "UID", f"{first}:*", "UNKEYWORD", KEYWORD,
                                                "UNDELETED", *criteria))
        return [int(u) for u in (data[0].split() if data and data[0] else []) if int(u) >= first]

    def candidates(self) -> list[int]:
        """The UIDs of the new messages that may carry a turn, from their structure and the server's search."""
        seen = self.seen.data
        first = int(seen.get("uid", 0)) + 1 if seen.get("uidvalidity") == self.validity else 1
        new = self._search(first)
        if not new:
            return []
        self.last = max(new)
        found = set(self._search(first, "OR", "OR", "OR", "OR", "OR", "SUBJECT", '"[duelmail]"', "BODY",
                                 f'"{BEGIN}"', "BODY", '"duelmail = 1"', "HEADER", "In-Reply-To",
                                 f'"@{THREAD_DOMAIN}"', "HEADER", "References", f'"@{THREAD_DOMAIN}"',
                                 "BODY", '"reply code: dm-"'))  # a reply that kept only the quote of its list
        fetched = self._ok("fetch", self.conn.uid("FETCH", f"{first}:{self.last}", "(UID BODYSTRUCTURE)"))
        for uid, structure in structures(fetched):
            if uid in new and uid not in found and may_carry_turn(structure):
                found.add(uid)
        return sorted(found)

    def letters(self) -> Iterator[Letter]:
        for n in self.candidates():
            uid = str(n).encode()
            fetched = self._ok("fetch", self.conn.uid("FETCH", uid, "(BODY.PEEK[])"))
            raw = next((item[1] for item in fetched if isinstance(item, tuple)), None)
            if raw is None:
                continue
            yield Letter(f"imap:{self.settings.imap_folder}/{uid.decode()}", parse_message(raw),
                         lambda uid=uid: self._mark(uid),
                         lambda uid=uid: self._ok("flag", self.conn.uid("STORE", uid, "+FLAGS", f"({KEYWORD})")),
                         lambda uid=uid: self._ok("flag", self.conn.uid("STORE", uid, "+FLAGS",
                                                                        f"({KEYWORD} {REFUSED_KEYWORD} \\Flagged)")),
                         leave=lambda n=n: self.left.add(n))

    def commit(self) -> None:
        if self.last:  # up to the first message left for another reader: the next fetch looks from there
            self.seen.data.update(uidvalidity=self.validity, uid=min(self.left) - 1 if self.left else self.last)
            self.seen.save()

    def _mark(self, uid: bytes) -> None:
        s = self.settings
        self._ok("flag", self.conn.uid("STORE", uid, "+FLAGS", f"({KEYWORD} \\Seen)"))
        if s.processed == "move":
            target = self._quote(s.processed_folder)
            self.conn.create(target)  # already there is fine
            if "MOVE" in self.conn.capabilities:
                self._ok("move", self.conn.uid("MOVE", uid, target))
            else:
                self._ok("copy", self.conn.uid("COPY", uid, target))
                self._ok("delete", self.conn.uid("STORE", uid, "+FLAGS", "(\\Deleted)"))
                self.moved = True

    def close(self) -> None:
        try:
            if self.moved:
                self.conn.expunge()
            self.conn.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


def open_source(spec: str | None, settings: Callable[[], MailSettings], password_for: Callable, stdin=None,
                home_root: Path | None = None) -> Source:
    """``-`` (standard input), a Maildir, an mbox or an .eml file; none: the configured IMAP account.
    ``home_root``: the home that remembers what it has looked at in each source (``Seen``)."""
    if spec is None:
        s = settings()
        seen = Seen(home_root, f"imap {s.imap_user}@{s.imap_host}:{s.imap_port}/{s.imap_folder}")
        return ImapSource(s, lambda: password_for(s, s.imap_user, s.imap_host), seen=seen)
    if spec == "-":
        return FileSource(stdin.read(), "standard input")
    p = Path(spec)
    if p.is_dir():
        return MaildirSource(p, Seen(home_root, f"maildir {p.resolve()}"))
    if not p.exists():
        raise MailError(f"{spec}: no such Maildir, mbox or message file")
    return file_source(p, home_root)


def file_source(p: Path, home_root: Path | None = None) -> Source:
    """A saved mail file: an mbox (its first line starts "From "), else one message (an .eml, a message a client
    saved or forwarded). ``mail fetch FILE`` and ``receive FILE`` both read a saved mail through here."""
    with open(p, "rb") as fh:
        head = fh.read(5)
    if head == b"From ":
        return MboxSource(p, Seen(home_root, f"mbox {p.resolve()}"))
    return FileSource(p.read_bytes(), str(p))


def saved_turns(p: Path) -> tuple[list[tuple[str, SignedFile]], list[str]]:
    """The turns in a saved mail file, read as ``mail fetch FILE`` reads them (``file_source``, ``find_turns``):
    each with where it came from, and the problems met, one line each. A file holding no turn at all is a problem
    (said in words: what its message held, or that none of an mbox's messages holds one), so a saved mail never
    gives nothing without saying why."""
    files: list[tuple[str, SignedFile]] = []
    problems: list[str] = []
    empty: list[str] = []  # what each message without a turn held, in words
    source = file_source(p)
    try:
        for letter in source.letters():
            found = find_turns(letter.msg, letter.where)
            problems += found.problems
            files += [(f"{letter.where} ({file_name(f)})", f) for f in found.files]
            if not found.files and not found.problems:
                why = (f"only a damaged quote of an older turn ({found.quoted[0]})" if found.quoted else
                       "no duelmail turn: no armour in its text and no turn file attached")
                empty.append(f"{letter.where}: the mail {describe(letter.msg)} holds {why}: nothing to apply")
    finally:
        source.close()
    if not files and not problems:  # (in an mbox, messages without a turn beside one with a turn are no problem)
        problems = empty if len(empty) == 1 else [f"{p}: none of its {len(empty)} messages holds a duelmail turn: "
                                                  "nothing to apply"]
    return files, problems

