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
import unicodedata
from datetime import UTC, datetime
from pathlib import Path

import nacl.bindings as _nb
from nacl.exceptions import BadSignatureError

from duelmail.crypto import group
from duelmail.crypto.derive import hkdf
from duelmail.crypto.encoding import b64d, b64e
from duelmail.errors import DuelmailError, IdentityError
from duelmail.util import toml
from duelmail.util.classes import dataclass
from duelmail.util.fs import atomic_write

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
MAX_EMAIL = 254
_UNSAFE_IN_EMAIL = set('<>"\\,;')
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1
SCRYPT_N_RANGE = (2**10, 2**17)  # what an identity file may ask for: 2**17 takes 128 MiB and near a second
_P = 2**255 - 19


def check_email(email: object, where: str) -> str:
    """Refuse an address with control, format or space characters (they would change a signed header)."""
    if not isinstance(email, str):
        raise IdentityError(f"{where}: email must be text, not {email!r}"[:200])
    bad = next((c for c in email if unicodedata.category(c)[0] in "CZ" or c in _UNSAFE_IN_EMAIL), None)
    if bad is not None or len(email) > MAX_EMAIL:
        why = f"character {bad!r} (U+{ord(bad):04X})" if bad is not None else f"more than {MAX_EMAIL} characters"
        raise IdentityError(f"{where}: refused email {email[:80]!r}: {why}; "
                            "an address has no control, space or '<>\",;' characters")
    return email


def check_public_key(key: bytes, where: str) -> bytes:
    """Refuse an Ed25519 public key that is non-canonical, small-order or outside the prime-order subgroup.

    With such a key a forged signature (R = identity, S = 0, or R of small order) verifies under lax rules
    on every message, so a seat holding one could disown or forge anything."""
    if len(key) != 32:
        raise IdentityError(f"{where}: public key must be 32 bytes, not {len(key)}")
    y = int.from_bytes(key, "little") & ((1 << 255) - 1)
    if y >= _P or (key[31] & 0x80 and y in (1, _P - 1)):
        raise IdentityError(f"{where}: public key {key.hex()} is a non-canonical encoding")
    if not group.valid_point(key):
        raise IdentityError(f"{where}: public key {key.hex()} is small-order, off the curve or outside the "
                            "prime-order subgroup")
    return key


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
        if not isinstance(d, dict):
            raise IdentityError(f"{where}: a player card is a table (name, email, key), not {d!r}"[:200])
        missing = [k for k in ("name", "email", "key") if k not in d]
        if missing:
            raise IdentityError(f"{where}: missing field {missing[0]!r}")
        name, email = d["name"], d["email"]
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            raise IdentityError(f"{where}: bad name {name!r}"[:200])
        if not isinstance(d["key"], str):
            raise IdentityError(f"{where}: key must be base64 text")
        try:
            key = b64d(d["key"], f"{where} key")
        except DuelmailError as e:
            raise IdentityError(str(e)) from None
        return cls(name, check_email(email, where), check_public_key(key, where))

    def to_toml(self) -> str:
        header = [f"duelmail player card for {self.name} <{self.email}>",
                  f"fingerprint {self.fingerprint}: compare it by voice or in person"]
        text = toml.plain_dumps([("duelmail_card", 1), *self.to_dict().items()], header)  # as tomlkit writes it
        if text is not None:
            return text
        import tomlkit

        doc = tomlkit.document()
        for line in header:
            doc.add(tomlkit.comment(line))
        doc["duelmail_card"] = 1
        for k, v in self.to_dict().items():
            doc[k] = v
        return tomlkit.dumps(doc)

    @classmethod
    def from_toml(cls, text: str, where: str) -> PlayerCard:
        data = toml.loads(text, where, IdentityError, "TOML player card")
        if data.get("duelmail_card") != 1:
            raise IdentityError(f"{where}: not a duelmail player card (no 'duelmail_card = 1')")
        return cls.from_dict(data, where)

    def verify(self, signature: bytes, message: bytes) -> bool:
        """Strict Ed25519 (libsodium): refuses small-order R and A and a non-canonical S."""
        if not isinstance(signature, bytes) or len(signature) != 64 or not isinstance(message, bytes):
            return False
        try:
            _nb.crypto_sign_open(signature + message, self.key)
            return True
        except (BadSignatureError, ValueError, TypeError):
            return False


@dataclass(frozen=True)
class Identity:
    """A player's secret identity: name, email and the 32-byte seed everything derives from."""

    name: str
    email: str
    seed: bytes

    @classmethod
    def generate(cls, name: str, email: str, seed: bytes | None = None) -> Identity:
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            raise IdentityError(f"bad identity name {name!r}: use letters, digits, '.', '_' or '-' (max 40)")
        check_email(email, f"identity {name}")
        seed = os.urandom(32) if seed is None else seed
        if len(seed) != 32:
            raise IdentityError("an identity seed is 32 bytes")
        return cls(name, email, seed)

    @property
    def _keypair(self) -> tuple[bytes, bytes]:
        """Ed25519 (RFC 8032) from the 32-byte key seed: libsodium's public key and its 64-byte secret key."""
        return _nb.crypto_sign_seed_keypair(hkdf(self.seed, "identity/ed25519"))

    @property
    def master(self) -> bytes:
        """The master secret: every per-game secret derives from it (never leaves this file)."""
        return hkdf(self.seed, "identity/master")

    @property
    def public_key(self) -> bytes:
        return self._keypair[0]

    @property
    def card(self) -> PlayerCard:
        return PlayerCard(self.name, self.email, self.public_key)

    def sign(self, message: bytes) -> bytes:
        return _nb.crypto_sign(message, self._keypair[1])[:64]

    # -- the identity file --------------------------------------------------
    def to_toml(self, passphrase: str | None = None, salt: bytes | None = None,
                nonce: bytes | None = None) -> str:
        import tomlkit

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
            from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

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
        data = toml.loads(text, where, IdentityError, "TOML identity file")
        if data.get("duelmail_identity") != 1:
            raise IdentityError(f"{where}: not a duelmail identity file (no 'duelmail_identity = 1')")
        name, email = data.get("name", ""), data.get("email", "")
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            raise IdentityError(f"{where}: bad identity name {name!r}: use letters, digits, '.', '_' or '-'"[:200])
        check_email(email, where)
        secret = data.get("secret")
        if not isinstance(secret, dict):
            raise IdentityError(f"{where}: [secret] must be a table holding 'seed' or 'kdf', 'n', 'salt' and 'box'")

        def field(key: str) -> bytes:
            if key not in secret:
                raise IdentityError(f"{where}: [secret] has no {key!r}")
            try:
                return b64d(secret[key], f"{where}: secret.{key}")
            except DuelmailError as e:
                raise IdentityError(str(e)) from None

        if "seed" in secret:
            seed = field("seed")
        elif secret.get("kdf") == "scrypt":
            n = secret.get("n", SCRYPT_N)
            lo, hi = SCRYPT_N_RANGE
            if not isinstance(n, int) or isinstance(n, bool) or not lo <= n <= hi or n & (n - 1):
                raise IdentityError(f"{where}: scrypt n = {n!r} must be a power of two from 2**10 to 2**17"[:200])
            raw, salt = field("box"), field("salt")
            if len(raw) != 12 + 32 + 16:
                raise IdentityError(f"{where}: secret.box must be 60 bytes (nonce, sealed seed, tag), not {len(raw)}")
            if not passphrase:
                raise IdentityError(f"{where}: identity {name!r} is protected by a passphrase "
                                    "(set DUELMAIL_PASSPHRASE or answer the prompt)")
            from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

            key = _scrypt(passphrase, salt, n)
            try:
                seed = ChaCha20Poly1305(key).decrypt(raw[:12], raw[12:], name.encode())
            except Exception:
                raise IdentityError(f"{where}: wrong passphrase for identity {name!r}") from None
        else:
            raise IdentityError(f"{where}: identity file has no secret (neither secret.seed nor secret.kdf = 'scrypt')")
        if len(seed) != 32:
            raise IdentityError(f"{where}: identity seed must be 32 bytes, not {len(seed)}")
        return cls(name, email, seed)

    @staticmethod
    def is_encrypted(text: str) -> bool:
        """True if the file asks for a passphrase; a damaged file is not (``from_toml`` then says what is wrong)."""
        try:
            secret = toml.loads(text, "identity", IdentityError).get("secret")
        except IdentityError:
            return False
        return isinstance(secret, dict) and secret.get("kdf") == "scrypt"


def _scrypt(passphrase: str, salt: bytes, n: int) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt  # only for an identity under a passphrase

    return Scrypt(salt=salt, length=32, n=n, r=SCRYPT_R, p=SCRYPT_P).derive(passphrase.encode())


def now_utc() -> datetime:
    return datetime.now(UTC)


def save_identity(path: Path, identity: Identity, passphrase: str | None = None) -> Path:
    return atomic_write(path, identity.to_toml(passphrase), mode=0o600)
