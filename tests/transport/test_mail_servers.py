"""Play by email against real servers: OpenSMTPD delivers into Dovecot, duelmail fetches by IMAP."""

from __future__ import annotations

import smtplib

import pytest
from clitable import dm, snapshot
from mailtable import MailTable, mail_setup
from servers import PASSWORD

from duelmail.engine.log import parse_time
from duelmail.protocol.turnfile import BEGIN, parse_any
from duelmail.transport import mail as mailt


@pytest.fixture(autouse=True)
def password(monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)


def _flags(servers, user: str) -> list[str]:
    c = servers.imap(user)
    try:
        c.select("INBOX")
        typ, data = c.fetch("1:*", "(FLAGS)")
        return [d.decode() for d in data if d]
    finally:
        c.logout()


def test_whole_game_every_turn_by_smtp_and_imap(mail_servers, tmp_path):
    t = MailTable(tmp_path, mail_servers)
    t.start("summoner", "life=3")
    t.play()
    a, b = t.status(t.homes[0]), t.status(t.homes[1])
    assert a["over"] and a["audited"] and a["audit_ok"] and a["result"] == b["result"]
    assert "VERIFIED" in dm(t.homes[0], "verify", str(next((t.homes[0] / "games").iterdir())))
    files = list(next((t.homes[0] / "games").iterdir()).glob("[gr]*.toml"))
    assert sum(t.sent.values()) == len(files) >= 6  # every file travelled by mail, once
    for u in t.users:  # every message was read and flagged processed
        flags = _flags(mail_servers, u)
        assert len(flags) == t.sent[u] and all("$Duelmail" in f and "\\Seen" in f for f in flags)
    before = snapshot(t.homes[1])  # fetching again changes nothing
    out = dm(t.homes[1], "mail", "fetch")
    assert "0 messages read" in out and snapshot(t.homes[1]) == before


def test_processed_mail_moved_and_refetch_is_idempotent(mail_servers, tmp_path):
    t = MailTable(tmp_path, mail_servers)
    alice, bob = t.homes
    mail_setup(bob, mail_servers, t.users[1], "--processed", "move", "--processed-folder", "Duels")
    t.start("summoner", "life=3")
    c = mail_servers.imap(t.users[1])
    try:
        assert c.select("INBOX")[1][0] == b"0"  # the genesis message was moved away
        assert c.select("Duels")[1][0] == b"1"
        c.store("1", "-FLAGS", "($Duelmail)")  # as if a client reset it: the next fetch reads it again
        c.copy("1", "INBOX")
    finally:
        c.logout()
    before = snapshot(bob)
    out = dm(bob, "mail", "fetch")
    assert "already applied (nothing changed)" in out and snapshot(bob) == before
    assert "processed mail moved to Duels" in out


def test_forged_turn_by_mail_is_reported_and_never_applied(mail_servers, tmp_path):
    t = MailTable(tmp_path, mail_servers)
    alice, bob = t.homes
    t.start("summoner", "life=3")
    t.fetch(alice)  # alice applies bob's acceptance and answers
    t.fetch(bob)
    # Mallory re-sends alice's last file with one byte of its signature changed
    folder = next((alice / "games").iterdir())
    last = sorted(folder.glob("r*-s0.toml"))[-1]
    text = last.read_text()
    i = text.index('signature = "') + 20
    forged = text[:i] + ("A" if text[i] != "A" else "B") + text[i + 1:]
    (f,) = parse_any(text, "x")
    msg = mailt.compose(None, parse_any(forged, "forged")[0], "mallory@example.org", [f"{t.users[1]}@example.org"],
                        parse_time(f.content["time"], "f"))  # the Date of the file it forges
    assert BEGIN in msg.get_body(("plain",)).get_content()
    with smtplib.SMTP("127.0.0.1", mail_servers.smtp_port) as s:
        s.send_message(msg)
    t.sent[t.users[1]] += 1
    before = snapshot(bob)
    out = t.fetch(bob, code=1)
    assert "REFUSED" in out and "[P-signature]" in out and f"round {f.round}" in out, out
    assert "refused files were not applied" in out
    assert snapshot(bob) == before


def test_bad_settings_give_clear_errors(mail_servers, tmp_path, monkeypatch):
    t = MailTable(tmp_path, mail_servers)
    alice = t.homes[0]
    monkeypatch.setenv(mailt.PASSWORD_ENV, "wrong")
    assert "login as" in dm(alice, "mail", "fetch", code=1)
    monkeypatch.delenv(mailt.PASSWORD_ENV)
    assert mailt.PASSWORD_ENV in dm(alice, "mail", "fetch", code=1)  # no terminal, no password: say how
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)
    dm(alice, "mail", "setup", "--imap-port", "1")
    out = dm(alice, "mail", "fetch", code=1)
    assert "IMAP 127.0.0.1:1" in out
    cfg = alice / "config.toml"
    cfg.write_text(cfg.read_text().replace('smtp_security = "plain"', 'smtp_security = "ssl3"'))
    assert "smtp_security = 'ssl3' is not one of tls, starttls, plain" in dm(alice, "mail", "fetch", code=1)
    cfg.write_text(cfg.read_text().replace('smtp_security = "ssl3"', 'smtp_security = "starttls"'))
    dm(alice, "new", "summoner", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"))
    out = dm(alice, "mail", "send", code=1)
    assert f"SMTP 127.0.0.1:{mail_servers.smtp_port} (starttls)" in out and "STARTTLS" in out
    nohome = tmp_path / "nomail"
    dm(nohome, "id", "new", "carol", "--email", "carol@example.org")
    assert "duelmail mail setup" in dm(nohome, "mail", "fetch", code=1)


def test_password_is_never_written_unless_insisted(mail_servers, tmp_path):
    t = MailTable(tmp_path, mail_servers)
    alice = t.homes[0]
    out = dm(alice, "mail", "setup", "--folder", "INBOX")
    assert PASSWORD not in (alice / "config.toml").read_text() and PASSWORD not in out
    out = dm(alice, "mail", "setup", "--password-in-config")
    assert PASSWORD in (alice / "config.toml").read_text() and PASSWORD not in out
    assert "plain text" in out


def test_ordinary_mail_is_left_unread_and_not_downloaded_again(mail_servers, tmp_path):
    from email.message import EmailMessage

    t = MailTable(tmp_path, mail_servers)
    alice = t.homes[0]
    for subject in ("lunch?", "[duelmail] are you in?"):
        m = EmailMessage()
        m["From"], m["To"], m["Subject"] = "carol@example.org", f"{t.users[0]}@example.org", subject
        m.set_content("no turn here\n")
        with smtplib.SMTP("127.0.0.1", mail_servers.smtp_port) as s:
            s.send_message(m)
    mail_servers.wait_for(t.users[0], 2)
    assert "1 messages read, 0 turns applied, 1 without a turn" in dm(alice, "mail", "fetch")
    assert "0 messages read" in dm(alice, "mail", "fetch")
    flags = _flags(mail_servers, t.users[0])
    assert "\\Seen" not in " ".join(flags)  # both stay unread for their reader
    assert sum("$Duelmail" in f for f in flags) == 1  # only the one that looked like duelmail was read
