"""Turns as mail: composed with a summary, armour and attachment, threaded per game, and found again
after quoting, re-wrapping, CRLF, quoted-printable, base64, HTML-only clients and lost attachments."""

from __future__ import annotations

import base64
import email
import email.policy
import quopri
import textwrap
from email.message import EmailMessage

import pytest

from duelmail.engine.log import parse_time
from duelmail.protocol.turnfile import BEGIN
from duelmail.testing.selfplay import SelfPlay
from duelmail.transport import mail as mailt


def signed_at(f):
    """A mail's Date: the time its file was signed (no fixed date beside files signed on the clock)."""
    return parse_time(f.content["time"], "time")


@pytest.fixture(scope="module")
def turns():
    sp = SelfPlay("summoner", options={"life": 3}, seed=3)
    sp.run(until=lambda m: m.round >= 5)
    m = sp.match
    msgs = [mailt.compose(m, f, "alice@example.org" if f.seat == 0 else "bob@example.org",
                          mailt.recipients_for(m, f.seat), signed_at(f)) for f in sp.files[1:]]
    return sp, msgs


def _body(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def _plain(body: str, cte: str | None = None, html: bool = False) -> bytes:
    """A message with only a body (the attachment dropped), the body encoded as a client might."""
    ctype = "text/html" if html else "text/plain"
    if cte == "quoted-printable":
        payload = quopri.encodestring(body.encode()).decode()
    elif cte == "base64":
        payload = base64.encodebytes(body.encode()).decode()
    else:
        payload, cte = body, "8bit"
    head = (f"From: bob@example.org\r\nTo: alice@example.org\r\nSubject: Re: duelmail\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: {ctype}; charset=utf-8\r\nContent-Transfer-Encoding: {cte}\r\n\r\n")
    return (head + payload.replace("\r\n", "\n").replace("\n", "\r\n")).encode()


def test_message_carries_the_turn_twice_but_it_is_found_once(turns):
    sp, msgs = turns
    f, msg = sp.files[3], msgs[2]
    parsed = mailt.parse_message(msg.as_bytes())
    assert [p.get_filename() for p in parsed.iter_attachments()] == [f"r{f.round:04d}-s{f.seat}.toml"]
    assert BEGIN in _body(parsed)
    found = mailt.find_turns(parsed, "mail")
    assert [g.file_hash for g in found.files] == [f.file_hash] and not found.problems


def test_subject_summary_and_thread_headers_keep_a_game_in_one_thread(turns):
    sp, msgs = turns
    gid = sp.match.gid
    ids = {m["Message-ID"] for m in msgs}
    assert len(ids) == len(msgs)  # one id per turn
    for f, m in zip(sp.files[1:], msgs, strict=True):
        assert m["In-Reply-To"] == m["References"] == f"<game-{gid[:16]}@duelmail.invalid>"
        assert gid[:12] in m["Subject"] and f"round {f.round}" in m["Subject"] and "Summoner" in m["Subject"]
        body = _body(m)
        summary = body[:body.index(BEGIN)]
        assert f"round {f.round}" in summary and ("now awaited" in summary or "game over" in summary)
        assert m["To"] == ("bob@example.org" if f.seat == 0 else "alice@example.org")


def test_quoted_and_rewrapped_reply_without_attachment(turns):
    sp, msgs = turns
    f, body = sp.files[4], _body(msgs[3])
    wrapped = "\n".join(line for para in body.splitlines() for line in (textwrap.wrap(para, 50) or [""]))
    quoted = "On Sat, Bob wrote:\n" + "\n".join("> " + line for line in wrapped.splitlines())
    assert max(len(line) for line in quoted.splitlines()) <= 52
    found = mailt.find_turns(mailt.parse_message(_plain(quoted)), "reply")
    assert [g.file_hash for g in found.files] == [f.file_hash]


@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
def test_transfer_encodings_and_crlf(turns, cte):
    sp, msgs = turns
    f, body = sp.files[2], _body(msgs[1])
    raw = _plain(body, cte)
    assert b"\r\n" in raw and (b"=\r\n" in raw or cte == "base64")
    found = mailt.find_turns(mailt.parse_message(raw), cte)
    assert [g.file_hash for g in found.files] == [f.file_hash]


def test_html_only_client(turns):
    sp, msgs = turns
    f, body = sp.files[1], _body(msgs[0])
    html = "<html><body><p>" + "<br>\n".join(body.replace("&", "&amp;").splitlines()) + "</p></body></html>"
    found = mailt.find_turns(mailt.parse_message(_plain(html, "quoted-printable", html=True)), "html")
    assert [g.file_hash for g in found.files] == [f.file_hash]


def test_sent_twice_in_one_message_is_one_file(turns):
    sp, msgs = turns
    body = _body(msgs[0])
    found = mailt.find_turns(mailt.parse_message(_plain(body + "\n\n" + body)), "twice")
    assert len(found.files) == 1


def test_damaged_armour_is_a_problem_not_a_file(turns):
    sp, msgs = turns
    body = _body(msgs[0])
    lines = body.splitlines()
    k = lines.index(BEGIN) + 4
    lines[k] = lines[k][:10] + ("A" if lines[k][10] != "A" else "B") + lines[k][11:]
    found = mailt.find_turns(mailt.parse_message(_plain("\n".join(lines))), "damaged mail")
    assert not found.files and len(found.problems) == 1 and "damaged mail" in found.problems[0]


def test_ordinary_mail_holds_no_turn():
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["Subject"] = "lunch?"
    msg.set_content("duelmail is fun\n")
    found = mailt.find_turns(email.message_from_bytes(msg.as_bytes(), policy=email.policy.default), "lunch")
    assert not found.files and not found.problems
