"""Regenerate tests/vectors/protocol.json. Run only on a deliberate format change:
the vectors exist to catch accidental ones."""

import json
from pathlib import Path

from duelmail.crypto.encoding import b64e
from duelmail.protocol.canonical import canonical, digest
from duelmail.protocol.identity import Identity, fingerprint
from duelmail.protocol.turnfile import SignedFile

SAMPLE = {"duelmail": 1, "kind": "turn", "game": "ab" * 32, "round": 7, "prev": "cd" * 32, "seat": 1,
          "time": "2026-11-21T12:00:00+00:00", "actions": ["attack a#3 a#17"],
          "keys": {"b#4": "AAAA", "a#10": "BBBB"}, "note": "Zoë ♥"}


def build() -> dict:
    ident = Identity.generate("vector", "vector@example.org", seed=bytes(range(32)))
    signed = SignedFile.sign(SAMPLE, ident)
    return {
        "canonical": {"input": SAMPLE, "bytes_hex": canonical(SAMPLE).hex(), "digest": digest(SAMPLE)},
        "identity": {"seed_hex": bytes(range(32)).hex(), "public_key": b64e(ident.public_key),
                     "master_hex": ident.master.hex(), "fingerprint": fingerprint(ident.public_key)},
        "signature": {"content": SAMPLE, "signature": b64e(signed.signature), "file_hash": signed.file_hash},
    }


if __name__ == "__main__":
    out = Path(__file__).with_name("protocol.json")
    out.write_text(json.dumps(build(), indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {out}")
