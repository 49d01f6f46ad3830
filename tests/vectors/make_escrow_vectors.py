"""Generate tests/vectors/escrow.json, the known-answer vectors of duelmail.crypto.escrow.

Everything derives from the fixed seed ``bytes(range(32))`` through the Stream DRBG (label
``vec/escrow``), so the file is a pure function of the code. Regenerate ONLY on a deliberate format
change (a domain tag, the coefficient or nonce derivation, the pad, the ciphertext layout):
tests/crypto/test_escrow.py checks that the code reproduces every byte, so any other change that
alters them is a bug.

    python tests/vectors/make_escrow_vectors.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from duelmail.crypto import escrow, group
from duelmail.crypto.derive import Stream

OUT = Path(__file__).with_name("escrow.json")
SEED = bytes(range(32))


def hexes(items) -> list[str]:
    return [x.hex() for x in items]


def build() -> dict:
    st = Stream(SEED, "vec/escrow")
    v: dict = {"_comment": "Known answers for duelmail.crypto.escrow; byte strings hex, ciphertexts and proofs as "
                           "encoded. Made by make_escrow_vectors.py from the seed bytes(range(32)) (Stream label "
                           "'vec/escrow'); regenerate only on a deliberate format change."}

    game_seed = st.bytes(32)
    e = escrow.escrow_key(game_seed)
    v["escrow_key"] = {"game_seed": game_seed.hex(), "key": e.hex(), "public": group.base_mul(e).hex()}

    v["dealings"] = []
    for t, holders, rng in ((2, [1, 3], None), (3, [2, 3, 4, 5], None), (5, [1, 2, 3, 4, 6, 7, 8], b"hedge")):
        secret = st.scalar()
        ctx = escrow.escrow_context("g1", 4, 0, f"a.1#{t}")
        d = escrow.deal(secret, t, holders, ctx, rng)
        v["dealings"].append({"secret": secret.hex(), "threshold": t, "holders": holders, "context": ctx.hex(),
                              "rng_seed": rng.hex() if rng else None, "commitments": hexes(d.commitments),
                              "shares": {str(x): s.hex() for x, s in d.shares.items()}})

    holder_seed = st.bytes(32)
    key = escrow.escrow_key(holder_seed)
    public = group.base_mul(key)
    shares = [st.scalar() for _ in range(3)]
    ctx = escrow.escrow_context("g1", 4, 0, "a.1/to-2")
    ct = escrow.encrypt_shares(shares, public, ctx)
    dh, proof = escrow.prove_decryption(ct, key, ctx, len(shares))
    v["ciphertext"] = {"holder_seed": holder_seed.hex(), "key": key.hex(), "public": public.hex(),
                       "shares": hexes(shares), "context": ctx.hex(), "ciphertext": ct,
                       "dh": dh.hex(), "proof": proof}
    return v


if __name__ == "__main__":
    OUT.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
