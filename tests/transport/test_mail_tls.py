"""Mail over TLS with logins: IMAPS and IMAP STARTTLS, SMTP submission with STARTTLS and with implicit TLS
(Dovecot's submission service relaying into OpenSMTPD); certificates are always checked."""

from __future__ import annotations

import pytest
from clitable import dm
from servers import PASSWORD

from duelmail.transport import mail as mailt


@pytest.fixture(autouse=True)
def password(monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)


def setup(home, servers, name, smtp: str, imap: str, ca: bool = True) -> None:
    sport = {"starttls": servers.sub_port, "tls": servers.subs_port}[smtp]
    iport = {"starttls": servers.imap_port, "tls": servers.imaps_port}[imap]
    dm(home, "mail", "setup", "--user", name, "--smtp-host", "127.0.0.1", "--smtp-port", str(sport),
       "--smtp-security", smtp, "--imap-host", "127.0.0.1", "--imap-port", str(iport), "--imap-security", imap,
       *(["--ca-file", str(servers.ca_file)] if ca else []))


def test_a_game_starts_over_tls_with_logins(mail_servers, tmp_path):
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    users = {alice: "tls-alice", bob: "tls-bob"}
    for home, user in users.items():
        dm(home, "id", "new", home.name, "--email", mail_servers.account(user))
    setup(alice, mail_servers, users[alice], smtp="starttls", imap="tls")
    setup(bob, mail_servers, users[bob], smtp="tls", imap="starttls")
    (tmp_path / "bob-card.toml").write_text(dm(bob, "id", "card"))
    dm(alice, "new", "summoner", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"))
    assert "mailed round 0" in dm(alice, "mail", "send")
    mail_servers.wait_for(users[bob], 1)
    assert "a new game" in dm(bob, "mail", "fetch")
    dm(bob, "join", str(next((bob / "games").iterdir()) / "genesis.toml"), "--send")
    mail_servers.wait_for(users[alice], 1)
    out = dm(alice, "mail", "fetch")
    assert "round 1 seat 1 verified and applied" in out and "mailed round 2" in out


def test_an_unknown_certificate_is_refused_with_a_clear_message(mail_servers, tmp_path):
    home, dave = tmp_path / "carol", tmp_path / "dave"
    dm(home, "id", "new", "carol", "--email", mail_servers.account("tls-carol"))
    dm(dave, "id", "new", "dave", "--email", "dave@example.org")
    (tmp_path / "dave-card.toml").write_text(dm(dave, "id", "card"))
    setup(home, mail_servers, "tls-carol", smtp="tls", imap="tls", ca=False)  # the system's CAs only
    out = dm(home, "mail", "fetch", code=1)
    assert f"IMAP 127.0.0.1:{mail_servers.imaps_port} (tls)" in out and "certificate verify failed" in out
    dm(home, "new", "summoner", "--seat", "carol", "--seat", str(tmp_path / "dave-card.toml"))
    out = dm(home, "mail", "send", code=1)
    assert f"SMTP 127.0.0.1:{mail_servers.subs_port} (tls)" in out and "certificate verify failed" in out
