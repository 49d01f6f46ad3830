"""Known-answer vectors for the canonical encoding, identity derivation and signatures."""

import json
from pathlib import Path

from duelmail.crypto.encoding import b64e
from duelmail.protocol.canonical import canonical, digest
from duelmail.protocol.identity import Identity, PlayerCard, fingerprint
from duelmail.protocol.turnfile import SignedFile

V = json.loads((Path(__file__).parents[1] / "vectors" / "protocol.json").read_text())


def test_canonical_bytes_and_digest():
    assert canonical(V["canonical"]["input"]).hex() == V["canonical"]["bytes_hex"]
    assert digest(V["canonical"]["input"]) == V["canonical"]["digest"]


def test_identity_derivation():
    ident = Identity.generate("vector", "vector@example.org", seed=bytes.fromhex(V["identity"]["seed_hex"]))
    assert b64e(ident.public_key) == V["identity"]["public_key"]
    assert ident.master.hex() == V["identity"]["master_hex"]
    assert fingerprint(ident.public_key) == V["identity"]["fingerprint"]


def test_signature_known_answer():
    ident = Identity.generate("vector", "vector@example.org", seed=bytes.fromhex(V["identity"]["seed_hex"]))
    signed = SignedFile.sign(V["signature"]["content"], ident)
    assert b64e(signed.signature) == V["signature"]["signature"]
    assert signed.file_hash == V["signature"]["file_hash"]
    assert signed.verify(PlayerCard("vector", "v", ident.public_key))
