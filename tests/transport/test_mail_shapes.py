"""Every shape a person's mail client gives a turn is read over IMAP (real Dovecot) as from a Maildir: an
attachment under the sender's own subject (mutt's ``-a r0001-s1.toml``), a bare file pasted in the body, an
attachment-only reply with an edited subject, a forward; a damaged quoted armour is normal mail; mail
without a turn is looked at once."""

from __future__ import annotations

import itertools
import mailbox
import os
from email.message import EmailMessage

import pytest
from clitable import Table, dm, snapshot
from mailtable import mail_setup
from servers import PASSWORD

from duelmail.protocol.turnfile import parse_any
from duelmail.transport import mail as mailt

_users = itertools.count()


@pytest.fixture(autouse=True)
def password(monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)


@pytest.fixture
def table(tmp_path):
    return Table(tmp_path)


def _inbox(servers, home) -> str:
    """A fresh IMAP account for ``home`` (alice's), set up as its mail."""
    user = f"shape{os.getpid()}x{next(_users)}"
    servers.account(user)
    mail_setup(home, servers, user)
    return user


def _append(servers, user: str, *messages: EmailMessage) -> None:
    c = servers.imap(user)
    try:
        for m in messages:
            assert c.append("INBOX", None, None, m.as_bytes())[0] == "OK"
    finally:
        c.logout()


def _message(subject: str) -> EmailMessage:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "bob@example.org", "alice@example.org", subject
    return m


def mutt_attachment(path) -> EmailMessage:
    """``mutt -s "my move" -a r0001-s1.toml``: a line of text, the file attached as text/plain (mutt's guess for
    an unknown extension with text in it), no armour anywhere."""
    m = _message("my move")
    m.set_content("here you go\n")
    m.add_attachment(path.read_text(), subtype="plain", filename=path.name)
    return m


def pasted_bare(path) -> EmailMessage:
    """The file's text pasted into the body under the sender's own subject, sent quoted-printable."""
    m = _message("round 1")
    m.set_content(path.read_text(), cte="quoted-printable")
    return m


def attachment_only(path) -> EmailMessage:
    """A reply whose subject the user edited, holding nothing but the file, as a bare binary attachment."""
    m = _message("Re: ok then")
    m.add_attachment(path.read_bytes(), maintype="application", subtype="octet-stream", filename=path.name)
    return m


def forwarded(path) -> EmailMessage:
    """A mutt-style attachment, forwarded as message/rfc822 under a new subject."""
    m = _message("Fwd: my move")
    m.set_content("forwarding bob's move\n")
    m.add_attachment(mutt_attachment(path))
    return m


@pytest.mark.parametrize("shape", [mutt_attachment, pasted_bare, attachment_only, forwarded])
def test_every_client_shape_is_read_over_imap(table, mail_servers, shape):
    user = _inbox(mail_servers, table.alice)
    _append(mail_servers, user, shape(table.out / "r0001-s1.toml"))
    out = dm(table.alice, "mail", "fetch", "--no-auto")
    assert "round 1 seat 1 verified and applied" in out and "1 messages read, 1 turns applied" in out, out
    assert "0 messages read" in dm(table.alice, "mail", "fetch", "--no-auto")


def test_imap_looks_at_each_message_once_and_downloads_only_what_may_carry_a_turn(table, mail_servers):
    user = _inbox(mail_servers, table.alice)
    junk = []
    for n in range(5):
        m = _message(f"lunch {n}?")
        m.set_content("no turn here\n")
        junk.append(m)
    _append(mail_servers, user, *junk)
    assert "0 messages read" in dm(table.alice, "mail", "fetch", "--no-auto")  # plain text the server searched
    _append(mail_servers, user, mutt_attachment(table.out / "r0001-s1.toml"))
    out = dm(table.alice, "mail", "fetch", "--no-auto")
    assert "1 messages read, 1 turns applied" in out, out
    seen = list((table.alice / "mail").glob("seen-*.json"))
    assert len(seen) == 1 and '"uid": 6' in seen[0].read_text()


def _reply_with_trimmed_quote(new: str, old: str, how: str) -> str:
    """A reply holding ``new``'s armour, and below it ``old``'s armour quoted and trimmed by hand."""
    (a,), (b,) = parse_any(new, "new"), parse_any(old, "old")
    quoted = b.armour().splitlines()
    if how == "middle":
        quoted = quoted[:4] + quoted[-3:]
    else:  # its END line cut, and what followed
        quoted = quoted[:-2]
    return "\n".join(["ok, my move:", "", a.armour(), "", "On Monday bob wrote:", *("> " + q for q in quoted), ""])


@pytest.mark.parametrize("how", ["middle", "end"])
def test_a_damaged_quoted_armour_is_normal_mail_not_an_error(table, mail_servers, how):
    """A reply quoting an older turn whose armour the player trimmed: its own turn is applied, the fetch exits 0
    and the message is processed, not flagged refused (issue 40 item 5)."""
    user = _inbox(mail_servers, table.alice)
    m = _message("Re: [duelmail] round 1")
    m.set_content(_reply_with_trimmed_quote((table.out / "r0001-s1.toml").read_text(),
                                            (table.out / "genesis.toml").read_text(), how))
    _append(mail_servers, user, m)
    out = dm(table.alice, "mail", "fetch", "--no-auto")
    assert "round 1 seat 1 verified and applied" in out and "REFUSED" not in out, out
    assert "with a refused file" not in out, out
    c = mail_servers.imap(user)
    try:
        c.select("INBOX")
        flags = c.fetch(b"1", "(FLAGS)")[1][0].decode()
    finally:
        c.logout()
    assert mailt.KEYWORD in flags and mailt.REFUSED_KEYWORD not in flags and "\\Flagged" not in flags, flags


def test_junk_in_a_maildir_and_an_mbox_is_read_once(table, tmp_path):
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    mbox = mailbox.mbox(str(tmp_path / "inbox.mbox"))
    for n in range(3):
        m = _message(f"news {n}")
        m.set_content("nothing for duelmail\n")
        box.add(m.as_bytes())
        mbox.add(m.as_bytes())
    mbox.close()
    for source in (tmp_path / "Maildir", tmp_path / "inbox.mbox"):
        out = dm(table.alice, "mail", "fetch", str(source), "--no-auto")
        assert "3 messages read, 0 turns applied, 3 without a turn" in out, out
        before = snapshot(table.alice)
        assert "0 messages read" in dm(table.alice, "mail", "fetch", str(source), "--no-auto")
        assert snapshot(table.alice) == before
    assert all(box.get_message(k).get_subdir() == "new" for k in box.keys())  # left unread for their reader
