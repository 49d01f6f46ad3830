"""Identities: one 32-byte seed per player, from which the Ed25519 signing key and the master
secret are derived under different labels. The identity file is the only thing to back up.

A *player card* is the public half (name, email, public key, fingerprint) that others put in a
game's genesis.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import tomlkit
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from duelmail.crypto.derive import hkdf
from duelmail.crypto.encoding import b64d, b64e
from duelmail.errors import IdentityError
from duelmail.util.fs import atomic_write

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1


def fingerprint(public_key: bytes) -> str:
    """A short fingerprint to read aloud: 16 base32 characters in groups of four."""
    raw = base64.b32encode(hashlib.sha256(b"duelmail/fp/v1" + public_key).digest()[:10]).decode()
    return "-".join(raw[i:i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True)
class PlayerCard:
    """The public part of an identity, as it appears in a genesis file."""

    name: str
    email: str
    key: bytes  # Ed25519 public key, 32 bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    def to_dict(self) -> dict:
        return {"name": self.name, "email": self.email, "key": b64e(self.key)}

    @classmethod
    def from_dict(cls, d: dict, where: str = "player card") -> PlayerCard:
        try:
            name, email, key = d["name"], d["email"], b64d(d["key"], f"{where} key")
        except (KeyError, TypeError) as e:
            raise IdentityError(f"{where}: missing field {e}") from None
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            raise IdentityError(f"{where}: bad name {name!r}")
        if len(key) != 32:
            raise IdentityError(f"{where}: public key must be 32 bytes, not {len(key)}")
        return cls(name, str(email), key)

    def to_toml(self) -> str:
        doc = tomlkit.document()
        doc.add(tomlkit.comment(f"duelmail player card for {self.name} <{self.email}>"))
        doc.add(tomlkit.comment(f"fingerprint {self.fingerprint}: compare it by voice or in person"))
        doc["duelmail_card"] = 1
        for k, v in self.to_dict().items():
            doc[k] = v
        return tomlkit.dumps(doc)

    @classmethod
    def from_toml(cls, text: str, where: str) -> PlayerCard:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise IdentityError(f"{where}: not a TOML player card ({e})") from None
        if data.get("duelmail_card") != 1:
            raise IdentityError(f"{where}: not a duelmail player card (no 'duelmail_card = 1')")
        return cls.from_dict(data, where)

    def verify(self, signature: bytes, message: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.key).verify(signature, message)
            return True
        except (InvalidSignature, ValueError):
            return False


@dataclass(frozen=True)
class Identity:
    """A player's secret identity: name, email and the 32-byte seed everything derives from."""

    name: str
    email: str
    seed: bytes

    @classmethod
    def generate(cls, name: str, email: str, seed: bytes | None = None) -> Identity:
        if not NAME_RE.fullmatch(name):
            raise IdentityError(f"bad identity name {name!r}: use letters, digits, '.', '_' or '-' (max 40)")
        seed = os.urandom(32) if seed is None else seed
        if len(seed) != 32:
            raise IdentityError("an identity seed is 32 bytes")
        return cls(name, email, seed)

    @property
    def _signing_key(self) -> Ed25519PrivateKey:
        return Ed25519PrivateKey.from_private_bytes(hkdf(self.seed, "identity/ed25519"))

    @property
    def master(self) -> bytes:
        """The master secret: every per-game secret derives from it (never leaves this file)."""
        return hkdf(self.seed, "identity/master")

    @property
    def public_key(self) -> bytes:
        return self._signing_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @property
    def card(self) -> PlayerCard:
        return PlayerCard(self.name, self.email, self.public_key)

    def sign(self, message: bytes) -> bytes:
        return self._signing_key.sign(message)

    # -- the identity file --------------------------------------------------
    def to_toml(self, passphrase: str | None = None, salt: bytes | None = None,
                nonce: bytes | None = None) -> str:
        doc = tomlkit.document()
        doc.add(tomlkit.comment("duelmail identity: SECRET. This file is your one backup; keep it safe."))
        doc.add(tomlkit.comment(f"fingerprint {self.card.fingerprint}"))
        doc["duelmail_identity"] = 1
        doc["name"] = self.name
        doc["email"] = self.email
        secret = tomlkit.table()
        if passphrase:
            salt = os.urandom(16) if salt is None else salt
            nonce = os.urandom(12) if nonce is None else nonce
            key = _scrypt(passphrase, salt, SCRYPT_N)
            box = ChaCha20Poly1305(key).encrypt(nonce, self.seed, self.name.encode())
            secret["kdf"] = "scrypt"
            secret["n"] = SCRYPT_N
            secret["salt"] = b64e(salt)
            secret["box"] = b64e(nonce + box)
        else:
            secret["seed"] = b64e(self.seed)
        doc["secret"] = secret
        return tomlkit.dumps(doc)

    @classmethod
    def from_toml(cls, text: str, where: str, passphrase: str | None = None) -> Identity:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise IdentityError(f"{where}: not a TOML identity file ({e})") from None
        if data.get("duelmail_identity") != 1:
            raise IdentityError(f"{where}: not a duelmail identity file")
        secret = data.get("secret", {})
        name = data.get("name", "")
        if "seed" in secret:
            seed = b64d(secret["seed"], f"{where} seed")
        elif secret.get("kdf") == "scrypt":
            if not passphrase:
                raise IdentityError(f"{where}: identity {name!r} is protected by a passphrase "
                                    "(set DUELMAIL_PASSPHRASE or answer the prompt)")
            raw = b64d(secret["box"], f"{where} box")
            key = _scrypt(passphrase, b64d(secret["salt"], f"{where} salt"), int(secret.get("n", SCRYPT_N)))
            try:
                seed = ChaCha20Poly1305(key).decrypt(raw[:12], raw[12:], name.encode())
            except Exception:
                raise IdentityError(f"{where}: wrong passphrase for identity {name!r}") from None
        else:
            raise IdentityError(f"{where}: identity file has no secret")
        if len(seed) != 32:
            raise IdentityError(f"{where}: identity seed must be 32 bytes")
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            raise IdentityError(f"{where}: bad identity name {name!r}: use letters, digits, '.', '_' or '-'")
        return cls(name, str(data.get("email", "")), seed)

    @staticmethod
    def is_encrypted(text: str) -> bool:
        try:
            return tomllib.loads(text).get("secret", {}).get("kdf") == "scrypt"
        except tomllib.TOMLDecodeError:
            return False


def _scrypt(passphrase: str, salt: bytes, n: int) -> bytes:
    return Scrypt(salt=salt, length=32, n=n, r=SCRYPT_R, p=SCRYPT_P).derive(passphrase.encode())


def now_utc() -> datetime:
    return datetime.now(UTC)


def save_identity(path: Path, identity: Identity, passphrase: str | None = None) -> Path:
    return atomic_write(path, identity.to_toml(passphrase), mode=0o600)
