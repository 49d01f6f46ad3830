"""Identities: derivation, the backup file, passphrases and player cards."""

import os
import stat

import pytest

from duelmail.errors import IdentityError
from duelmail.home import Home
from duelmail.protocol.identity import Identity, PlayerCard


def test_backup_restores_the_same_keys(tmp_path):
    ident = Identity.generate("alice", "alice@example.org")
    home = Home(tmp_path / "h")
    path = home.add_identity(ident)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again = Home(tmp_path / "h").load_identity("alice")
    assert again == ident and again.master == ident.master


def test_passphrase_protects_the_seed(tmp_path):
    ident = Identity.generate("bob", "bob@example.org", seed=b"\x02" * 32)
    text = ident.to_toml("correct horse")
    assert "AgICAg" not in text and Identity.is_encrypted(text)
    assert Identity.from_toml(text, "f", "correct horse") == ident
    with pytest.raises(IdentityError, match="wrong passphrase"):
        Identity.from_toml(text, "f", "wrong")
    with pytest.raises(IdentityError, match="passphrase"):
        Identity.from_toml(text, "f", None)


def test_card_round_trip_and_bad_cards():
    card = Identity.generate("carol", "c@example.org", seed=b"\x03" * 32).card
    assert PlayerCard.from_toml(card.to_toml(), "c.toml") == card
    with pytest.raises(IdentityError, match="c.toml: not a duelmail player card"):
        PlayerCard.from_toml("x = 1", "c.toml")
    with pytest.raises(IdentityError, match="bad identity name"):
        Identity.generate("../evil", "e@x")


def test_several_identities_need_a_choice(tmp_path):
    home = Home(tmp_path)
    home.add_identity(Identity.generate("a1", "a@x"))
    home.add_identity(Identity.generate("a2", "b@x"))
    assert home.load_identity(None).name == "a1"  # the first one created is the default
    with pytest.raises(IdentityError, match="no identity 'zz'"):
        home.load_identity("zz")
    with pytest.raises(IdentityError, match="already exists"):
        home.add_identity(Identity.generate("a1", "a@x"))


def test_import_refuses_a_name_that_would_escape_the_home(tmp_path):
    evil = Identity("x", "x@example.org", b"\x05" * 32).to_toml().replace('name = "x"', 'name = "../../evil"')
    with pytest.raises(IdentityError, match="bad identity name"):
        Identity.from_toml(evil, "evil.toml")
    assert not (tmp_path.parent / "evil.toml").exists()
