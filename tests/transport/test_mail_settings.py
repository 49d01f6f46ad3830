"""Mail settings and passwords: keyring first, then $DUELMAIL_MAIL_PASSWORD, then a password the user insisted on
keeping in the config, then a prompt; never printed, never in config.toml unless asked."""

from __future__ import annotations

import keyring
import keyring.backend
import pytest
from clitable import dm

from duelmail.home import Home
from duelmail.transport import mail as mailt


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A keyring backend that keeps passwords in memory (the OS keyring of this test)."""

    priority = 1

    def __init__(self):
        super().__init__()
        self.store = {}

    def get_password(self, service, username):
        return self.store.get((service, username))

    def set_password(self, service, username, password):
        self.store[(service, username)] = password

    def delete_password(self, service, username):
        self.store.pop((service, username), None)


@pytest.fixture
def memory_keyring():
    before = keyring.get_keyring()
    kr = MemoryKeyring()
    keyring.set_keyring(kr)
    yield kr
    keyring.set_keyring(before)


@pytest.fixture
def home(tmp_path):
    h = tmp_path / "alice"
    dm(h, "id", "new", "alice", "--email", "alice@example.org")
    return h


def test_keyring_holds_the_password_and_comes_first(home, memory_keyring, monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, "s3cret-from-env")
    out = dm(home, "mail", "setup", "--user", "alice", "--smtp-host", "smtp.example.org", "--imap-host",
             "imap.example.org", "--keyring")
    assert "password: from the OS keyring" in out and "s3cret" not in out
    assert "s3cret" not in (home / "config.toml").read_text()
    assert memory_keyring.store[("duelmail", "alice@imap.example.org")] == "s3cret-from-env"
    memory_keyring.store[("duelmail", "alice@imap.example.org")] = "from-keyring"
    s = mailt.load_settings(Home(home))
    assert mailt.get_password(s, "alice", "imap.example.org", env={mailt.PASSWORD_ENV: "x"}) == "from-keyring"
    assert Home(home).load_identity(None).name == "alice"  # the rest of config.toml is kept


def test_without_keyring_the_environment_then_the_config_then_a_prompt(home):
    s = mailt.MailSettings(imap_host="imap.example.org", imap_user="alice")
    assert mailt.get_password(s, "alice", "imap.example.org", env={mailt.PASSWORD_ENV: "env"}) == "env"
    s.password = "insisted"
    assert mailt.get_password(s, "alice", "imap.example.org", env={}) == "insisted"
    s.password = ""
    asked = []
    assert mailt.get_password(s, "alice", "imap.example.org", env={},
                              prompt=lambda text: asked.append(text) or "typed") == "typed"
    assert asked == ["Password for alice at imap.example.org"]
    with pytest.raises(mailt.MailError, match=mailt.PASSWORD_ENV):
        mailt.get_password(s, "alice", "imap.example.org", env={})


def test_keyring_flag_without_a_keyring_is_a_clear_error(home, monkeypatch):
    from keyring.backends import fail

    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        monkeypatch.setenv(mailt.PASSWORD_ENV, "pw")
        out = dm(home, "mail", "setup", "--user", "alice", "--imap-host", "imap.example.org", "--keyring", code=1)
    finally:
        keyring.set_keyring(before)
    assert "no OS keyring here" in out
    assert "[mail]" not in (home / "config.toml").read_text()  # nothing written


@pytest.mark.parametrize("table, needle", [
    ({"smtp_port": 0}, "smtp_port = 0 is not a port number"),
    ({"imap_security": "ssl"}, "imap_security = 'ssl' is not one of"),
    ({"processed": "delete"}, "processed = 'delete' is not one of flag, move"),
    ({"smtp_hots": "x"}, "unknown setting 'smtp_hots'"),
])
def test_bad_settings_in_config_are_named(home, table, needle):
    import tomlkit

    cfg = home / "config.toml"
    doc = tomlkit.parse(cfg.read_text())
    doc["mail"] = table
    cfg.write_text(tomlkit.dumps(doc))
    out = dm(home, "mail", "fetch", code=1)
    assert needle in out and str(cfg) in out
