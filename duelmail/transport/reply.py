"""Play by reply, the mail side: the reply code, the "your move" mail, and a reply's answer read above the quote.

A home that plays a seat by reply mails its own player a list of the legal moves with a *reply code*
(``dm-GAME12-ROUND-N-MAC``: a MAC under a key derived from the player's master secret over the game, the round,
the seat, the mail's serial number and a digest of the list it answers). The code travels in the Message-ID (a
reply's In-Reply-To and References point at it), in the subject and in a line of the body, so that any client's
reply carries it back. What is checked, and who can forge what: docs/protocol.md, "Play by reply".
"""

from __future__ import annotations

import email.policy
import hashlib
import hmac
import re
from collections.abc import Sequence
from email.message import EmailMessage, Message
from email.utils import format_datetime, formataddr, parseaddr

from duelmail.crypto.derive import hkdf
from duelmail.transport import mail as mailt

TOKEN = re.compile(r"\bdm-([0-9a-f]{12})-(\d{1,7})-(\d{1,7})-([0-9a-f]{24})\b")
KIND_HEADER = "X-Duelmail-Reply"  # on every mail this home writes to its own player: never read back as a reply
SUBJECT_MARK = "[duelmail] your move"
MAX_REPLY = 1000  # characters of a reply's own text (above the quote): more is refused, not read


def reply_key(master: bytes) -> bytes:
    """The key of this player's reply codes, derived from their master secret (never leaves their home)."""
    return hkdf(master, "duelmail/reply-key/v1")


def list_digest(noted: Sequence[str], moves: Sequence[str]) -> str:
    """What a list is, for its code: the moves noted before it and the moves it offers, in order."""
    text = "\n".join(noted) + "\x00" + "\n".join(moves)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def make_token(key: bytes, game: str, round_: int, seat: int, serial: int, digest: str) -> str:
    """The reply code of the ``serial``-th list mailed in ``game``: only a holder of ``key`` can compute it."""
    data = f"duelmail reply v1\x00{game}\x00{round_}\x00{seat}\x00{serial}\x00{digest}".encode()
    mac = hmac.new(key, data, hashlib.sha256).hexdigest()[:24]
    return f"dm-{game[:12]}-{round_}-{serial}-{mac}"


def same_token(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def find_token(msg: Message) -> str | None:
    """The reply code a reply carries back: In-Reply-To, then References, the subject, then the body (the quote)."""
    for name in ("In-Reply-To", "References", "Subject"):
        m = TOKEN.search(mailt.header(msg, name))
        if m:
            return m.group(0)
    for _label, text in mailt._texts(msg):
        m = TOKEN.search(text[:200_000])
        if m:
            return m.group(0)
    return None


def sender(msg: Message) -> str:
    """The address of a message's From: (lower case; empty when there is none, or none can be read in it)."""
    try:  # (email.utils recurses once per ':' group: a From: of 1000 colons is a RecursionError)
        return parseaddr(mailt.header(msg, "From")[:mailt.MAX_LINE])[1].strip().lower()
    except (RecursionError, ValueError, IndexError):
        return ""


def is_ours(msg: Message) -> bool:
    """A mail this home wrote to its own player (a list, an answer): it comes back into the inbox, never as a reply."""
    return any(key.lower() == KIND_HEADER.lower() for key, _ in msg.raw_items())


def looks_like_reply(msg: Message) -> bool:
    """Whether a message is (or poses as) a reply to a "your move" mail: it names a reply code (in its headers, or
    in its text: a reply that lost the subject's tag and both headers but kept the quote) or the mail's subject.
    Such a message is checked by the reply play, never read for turns; our own mails, and a message that holds a
    turn (or a damaged one), are not replies."""
    try:
        if is_ours(msg):
            return False
        texts = [text for _label, text in mailt._texts(msg)]  # (decoded once: a fetch looks at every message)
        if any(mailt.BEGIN in text or mailt._BARE_FILE.search(text) for text in texts):
            return False  # a turn (or a damaged one): read for turns
        subject = mailt.header(msg, "Subject")
        if SUBJECT_MARK in subject.lower() or TOKEN.search(subject):
            return True
        refs = f"{mailt.header(msg, 'In-Reply-To')} {mailt.header(msg, 'References')}"
        return bool(TOKEN.search(refs)) or any(TOKEN.search(text[:200_000]) for text in texts)
    except Exception:  # noqa: BLE001 - a malformed message (headers, MIME): read for turns, where it is reported
        return False


# -- a reply's own words --------------------------------------------------------------------------------
_HTML_QUOTE = re.compile(r"<blockquote\b|<div[^<>]*\b(?:gmail_quote|moz-cite-prefix|divRplyFwdMsg|appendonsend)\b",
                         re.I)
_SIGN_OFF = re.compile(r"(?:sent from my |get outlook for |sent from .*mail)", re.I)
_HEADER_BLOCK = re.compile(r"(?:from|sent|date|to|subject):\s", re.I)


def _part(msg: Message, ctype: str) -> str | None:
    for part in msg.walk():
        if part.is_multipart() or part.get_content_type() != ctype or part.get_filename():
            continue
        if part.get_content_disposition() == "attachment":
            continue
        raw = part.get_payload(decode=True) or b""
        try:
            return raw.decode(part.get_content_charset() or "utf-8", errors="replace")
        except LookupError:
            return raw.decode("utf-8", errors="replace")
    return None


def reply_text(msg: Message) -> str:
    """What the player wrote, above the quote: the plain-text part (or the HTML part's text before its first
    ``<blockquote>`` or quote block) without quoted lines (``>``), the attribution line ("On ... wrote:"), the
    original under it (a top-posted reply), a signature (``-- ``) or a phone's "Sent from my ..."; bottom-posted text
    under a leading quote is read too. Control characters are removed."""
    text = _part(msg, "text/plain")
    if text is None or not text.strip():
        page = _part(msg, "text/html") or ""
        cut = _HTML_QUOTE.search(page)
        text = mailt.html_text(page[:cut.start()] if cut else page)
    kept: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        s = line.strip().replace("\xa0", " ")
        if s.startswith(">"):
            continue
        said = any(k.strip() for k in kept)
        short = len(s) <= mailt.MAX_LINE
        if line.rstrip("\r") in ("-- ", "--") or (short and _SIGN_OFF.match(s)):
            break
        if short and (mailt._attribution(s) or s.lower().startswith("-----original message")):
            if said:
                break  # a top-posted reply: the original follows
            continue  # a bottom-posted one: the answer is under the quote
        if said and _HEADER_BLOCK.match(s) and not kept[-1].strip():
            break  # Outlook's "From: ... Sent: ..." block opens the original
        kept.append(mailt._CONTROL.sub("", s))
    return "\n".join(k for k in kept if k.strip()).strip()


# -- the mails to the player --------------------------------------------------------------------------------
def _message(kind: str, name: str, address: str, subject: str, words: Sequence[str], now, msg_id: str,
             in_reply_to: str | None = None, svg: str | None = None, table: str = "") -> EmailMessage:
    from duelmail.pictures import body_html

    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = formataddr((f"{name}'s duelmail", address))
    msg["To"] = formataddr((name, address))
    msg["Subject"] = subject
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = msg_id
    if in_reply_to:
        msg["In-Reply-To"] = msg["References"] = in_reply_to
    msg[KIND_HEADER] = kind
    body = list(words) + (["", "Your table:", table] if table else [])
    msg.set_content("\n".join(body) + "\n", subtype="plain", charset="utf-8", cte="quoted-printable")
    page = body_html(svg, paragraphs(words), table)
    msg.add_alternative(f"<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
                        f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head>"
                        f"<body style=\"margin:0\">{page}</body></html>", subtype="html", charset="utf-8",
                        cte="quoted-printable")
    return msg


def paragraphs(words: Sequence[str]) -> list[str]:
    """The plain text's lines as the HTML part's paragraphs: a blank line ends one; a line wrapped for the plain
    text goes on the line before it, while an indented line, a numbered move, or the line after one ending in ':'
    starts a line of its own in the paragraph (kept as a newline, which the page draws as a line break)."""
    out: list[str] = []
    block: list[str] = []
    for line in [*words, ""]:
        if not line.strip():
            if block:
                out.append("".join(block))
            block = []
            continue
        if block and not (line[:1].isspace() or re.match(r"\d+\. ", line) or block[-1].rstrip().endswith(":")
                          or "\n" in line):
            block.append(" " + line.strip())
        else:
            block.append(("\n" if block else "") + line)
    return out


def list_subject(match, token: str) -> str:
    return f"{SUBJECT_MARK}: {match.game.spec.title} {match.gid[:12]} round {match.round} [{token}]"


def compose_list(match, seat: int, address: str, token: str, listed_lines: Sequence[str], happened: Sequence[str],
                 now, copy: int = 0, heading: Sequence[str] = (), noted_words: Sequence[str] = (),
                 view=None) -> EmailMessage:
    """The "your move" mail, to its reader in the second person: what happened, by when, the numbered list of legal
    moves in words, how to answer (nothing about commands), the reply code; the seat's own table (its hand: this
    mail goes to the player alone) as text and, in the HTML part, as the picture: ``view``, the match after the
    steps noted for the turn (default ``match``)."""
    from duelmail.pictures import inline_svg, table_text

    title, name = match.game.spec.title, match.cards[seat].name
    others = " and ".join(c.name for s, c in enumerate(match.cards) if s != seat)
    due = match.deadlines().get(seat)
    words = [*heading, *([""] if heading else [])]
    words += [f"{name}, it is your move in {title} against {others}"
              + (f", by {mailt._when(due)}." if due is not None else ".")]
    if happened:
        words += ["", "What happened:", *(f"  {h}" for h in happened)]
    if noted_words:
        words += ["", "Chosen so far (not sent yet): " + "; ".join(noted_words)]
    words += ["", "Your moves:", *listed_lines, "",
              "Answer by replying to this mail: the number of a move (\"2\"), several (\"1 then 4\"), the move in",
              "words, \"say ...\" (a line of talk), \"offer a draw\", \"accept the draw\", \"resign\", or \"undo\".",
              "Write your answer above the quoted mail; keep the subject.",
              f"reply code: {token}"]
    msg_id = f"<{token}.{copy}@{mailt.THREAD_DOMAIN}>"
    table = view if view is not None else match  # after the steps noted: the hand as it now stands
    return _message("list", name, address, list_subject(match, token), words, now, msg_id,
                    svg=inline_svg(table, seat), table=table_text(table, seat))


def compose_answer(name: str, address: str, subject: str, words: Sequence[str], now, serial: str,
                   in_reply_to: str | None = None) -> EmailMessage:
    """The answer to a reply (or a refused one): what was signed and sent, or why nothing was. No reply code."""
    return _message("answer", name, address, subject, words, now,
                    f"<dm-answer-{serial}@{mailt.THREAD_DOMAIN}>", in_reply_to=in_reply_to)
