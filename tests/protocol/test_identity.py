"""Identities: derivation, the backup file, passphrases and player cards."""

import json
import os
import stat
import time
from pathlib import Path

import pytest

from duelmail.crypto import group
from duelmail.crypto.encoding import b64e
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


# -- weak public keys and strict verification (issue 14, part 2) --------------------------------------
L = 2**252 + 27742317777372353535851937790883648493
SPECCHECK = json.loads((Path(__file__).parents[1] / "vectors" / "ed25519_speccheck.json").read_text())


def card_dict(key: bytes, email: str = "m@example.org") -> dict:
    return {"name": "mallory", "email": email, "key": b64e(key)}


@pytest.mark.parametrize("point", SPECCHECK["small_order"], ids=lambda p: f"order{p['order']}-{p['key'][:8]}")
def test_small_order_public_keys_are_refused(point):
    with pytest.raises(IdentityError, match="small-order|non-canonical"):
        PlayerCard.from_dict(card_dict(bytes.fromhex(point["key"])), "card.toml")


@pytest.mark.parametrize("point", SPECCHECK["non_canonical"], ids=lambda p: p["key"][:8] + p["key"][-2:])
def test_non_canonical_public_keys_are_refused(point):
    with pytest.raises(IdentityError, match="card.toml: public key [0-9a-f]{64} is a non-canonical encoding"):
        PlayerCard.from_dict(card_dict(bytes.fromhex(point["key"])), "card.toml")


@pytest.mark.parametrize("i", range(len(SPECCHECK["cases"])))
def test_speccheck_cases_never_verify_for_a_card_we_accept(i):
    """Taming the many EdDSAs, cases 0-11: no signature of them verifies under a key a card may carry.
    Case 3 (mixed-order A and R) passes libsodium's verify alone; its key is refused at import."""
    case = SPECCHECK["cases"][i]
    key, sig, msg = (bytes.fromhex(case[k]) for k in ("pub_key", "signature", "message"))
    loose = PlayerCard("mallory", "m@example.org", key)  # built around the checks, as an old archive might hold
    assert loose.verify(sig, msg) is case["libsodium_accepts"]
    if group.valid_point(key):
        assert not loose.verify(sig, msg)  # only cases 6 and 7 (S >= L) have a prime-order key
    else:
        with pytest.raises(IdentityError):
            PlayerCard.from_dict(card_dict(key), "card.toml")


def test_the_identity_key_and_zero_signature_no_longer_signs_everything():
    """With A = R = identity and S = 0, OpenSSL's verify (the old one) accepts any message."""
    identity = bytes.fromhex(SPECCHECK["small_order"][0]["key"])
    card = PlayerCard("mallory", "m@example.org", identity)
    forged = identity + bytes(32)
    for message in (b"anything", b"duelmail/signed-file/v1\n{}", b""):
        assert not card.verify(forged, message)


def test_honest_signatures_still_verify_strictly():
    ident = Identity.generate("dana", "dana@example.org", seed=b"\x07" * 32)
    card = PlayerCard.from_dict(ident.card.to_dict())
    sig = ident.sign(b"move")
    assert card.verify(sig, b"move") and not card.verify(sig, b"mover")
    s = int.from_bytes(sig[32:], "little") + L  # the same S plus the group order: malleable, refused
    assert not card.verify(sig[:32] + s.to_bytes(32, "little"), b"move")


# -- unsafe names and addresses (issue 14, part 6) -------------------------------------------------------
@pytest.mark.parametrize("email", ["bob@example.org\r\nX-Evil: 1", "bob@example.org\n", "a\x00@x", "a b@x",
                                   "a@x\u202e", "<a@x>", "a@x\u2028", "a\x7f@x", "x" * 255])
def test_control_and_unsafe_characters_in_an_email_are_refused(email):
    with pytest.raises(IdentityError, match="refused email"):
        PlayerCard.from_dict(card_dict(Identity.generate("m", "m@x", b"\x08" * 32).public_key, email), "card.toml")
    with pytest.raises(IdentityError, match="refused email"):
        Identity.generate("m", email)


# -- damaged identity files: one line naming the file (issue 14, part 6) ----------------------------------
GOOD = Identity("erin", "erin@example.org", b"\x09" * 32)
BOXED = GOOD.to_toml("pw", salt=b"\x01" * 16, nonce=b"\x02" * 12)


@pytest.mark.parametrize("text, needle", [
    (GOOD.to_toml().split("[secret]")[0] + 'secret = "x"\n', "[secret] must be a table"),
    (BOXED.split("box =")[0], "[secret] has no 'box'"),
    (BOXED.replace("n = 32768", "n = 3"), "scrypt n = 3 must be a power of two"),
    (BOXED.replace("n = 32768", "n = 1099511627776"), "scrypt n = 1099511627776 must be a power of two"),
    (BOXED.replace("n = 32768", 'n = "big"'), "scrypt n = 'big'"),
    (GOOD.to_toml().replace("seed = ", "seed = 5 #"), "expected base64 text"),
    (GOOD.to_toml().replace('email = "erin@example.org"', 'email = "erin@example.org\\r"'), "refused email"),
    ("duelmail_identity = [", "not valid TOML identity file"),
    ("duelmail_identity = 1\nname = " + "[" * 2000, "nested more than"),
])
def test_damaged_identity_files_are_one_clear_line(text, needle):
    t = time.process_time()
    with pytest.raises(IdentityError) as e:
        Identity.from_toml(text, "alice.toml", "pw")
    assert time.process_time() - t < 1.0  # n = 2**40 would take hours and a terabyte
    assert str(e.value).startswith("alice.toml: ") and needle in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("n", range(4))
def test_keys_and_signatures_are_rfc8032_ed25519_as_the_cryptography_package_makes_them(n):
    """The identity signs with libsodium (no ``cryptography`` import on every command): the same public key and
    the same signatures as that package's Ed25519 from the same key seed, and the card verifies them."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from duelmail.crypto.derive import hkdf

    ident = Identity.generate("alice", "alice@example.org", bytes([n]) * 32)
    theirs = Ed25519PrivateKey.from_private_bytes(hkdf(ident.seed, "identity/ed25519"))
    assert ident.public_key == theirs.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    message = b"duelmail/signed-file/v1\n" + bytes(range(n * 7))
    assert ident.sign(message) == theirs.sign(message)
    assert ident.card.verify(ident.sign(message), message)
    assert not ident.card.verify(ident.sign(message)[:63], message)  # a short signature never borrows the message
    assert not ident.card.verify(ident.sign(message)[:63], ident.sign(message)[63:] + message)


@pytest.mark.parametrize("email", ["alice@example.org", "élise@exemple.fr"])
def test_a_card_is_written_as_tomlkit_writes_it_and_reads_back(email):
    """``id card`` needs no tomlkit for a plain card (``util.toml.plain_dumps``), and tomlkit writes the rest: the
    same text either way."""
    import tomlkit

    card = Identity.generate("alice", email, b"\x01" * 32).card
    doc = tomlkit.document()
    doc.add(tomlkit.comment(f"duelmail player card for {card.name} <{card.email}>"))
    doc.add(tomlkit.comment(f"fingerprint {card.fingerprint}: compare it by voice or in person"))
    doc["duelmail_card"] = 1
    for k, v in card.to_dict().items():
        doc[k] = v
    assert card.to_toml() == tomlkit.dumps(doc)
    assert PlayerCard.from_toml(card.to_toml(), "card") == card
