"""Generate tests/vectors/proofs.json, the known-answer vectors of duelmail.crypto.proofs.

Regenerate ONLY on a deliberate format change (a transcript, a domain tag, the nonce derivation or a
proof layout): these vectors pin the proof formats, so any other change that alters them is a bug
(tests/crypto/test_proofs.py catches it).

    python tests/vectors/make_proof_vectors.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from duelmail.crypto import deck, group, proofs
from duelmail.crypto.derive import Stream
from duelmail.crypto.encoding import lp

OUT = Path(__file__).with_name("proofs.json")
SEED = bytes(range(32))


def hexes(items: list[bytes]) -> list[str]:
    return [x.hex() for x in items]


def ctx(deck_id: str, index: int) -> bytes:
    """The engine's context shape: lp(game id, round, seat, deck id, pass index)."""
    return lp("g1", 1, 0, deck_id, index)


def cards(n: int) -> list[bytes]:
    return [deck.card_point("g1", "std", f) for f in range(n)]


def build() -> dict:
    st = Stream(SEED, "vec/proofs")
    v: dict = {"_comment": "Known answers for duelmail.crypto.proofs; byte strings hex, proofs as encoded. "
                           "Made by make_proof_vectors.py; regenerate only on a deliberate format change."}

    x = st.scalar()
    b1, b2 = group.hash_to_point("vec", "b1"), group.hash_to_point("vec", "b2")
    p1, p2 = group.point_mul(x, b1), group.point_mul(x, b2)
    v["dleq"] = []
    for rng in (None, bytes(range(16))):
        c = ctx("dleq", 0)
        v["dleq"].append({"b1": b1.hex(), "p1": p1.hex(), "b2": b2.hex(), "p2": p2.hex(), "x": x.hex(),
                          "context": c.hex(), "rng_seed": rng.hex() if rng else None,
                          "proof": proofs.prove_dleq(b1, p1, b2, p2, x, c, rng)})

    xs = [st.scalar() for _ in range(3)]
    stmts = []
    for j, w in enumerate(xs):
        q1, q2 = group.hash_to_point("vec", "q1", j), group.hash_to_point("vec", "q2", j)
        stmts.append((q1, group.point_mul(w, q1), q2, group.point_mul(w, q2)))
    c = ctx("batch", 0)
    v["dleq_batch"] = {"statements": [hexes(list(s)) for s in stmts], "witnesses": hexes(xs), "context": c.hex(),
                       "proof": proofs.prove_dleq_batch(stmts, xs, c)}

    n = 3
    x3 = cards(n)
    layer = st.scalar()
    keys = [st.scalar() for _ in range(n)]
    big_c = group.base_mul(layer)
    big_k = deck.key_commitments(keys)
    factors = [group.smul(k, group.sinv(layer)) for k in keys]
    y3 = [group.point_mul(a, p) for a, p in zip(factors, x3, strict=True)]
    c = ctx("a.1", 2)
    v["lock"] = {"x": hexes(x3), "y": hexes(y3), "k": hexes(big_k), "c": big_c.hex(), "factors": hexes(factors),
                 "context": c.hex(), "proof": proofs.prove_lock(x3, y3, big_k, big_c, factors, c)}

    u = st.scalar()
    big_u = group.base_mul(u)
    ufactors = [group.smul(u, group.sinv(k)) for k in keys]
    yu = [group.point_mul(a, p) for a, p in zip(ufactors, x3, strict=True)]
    c = ctx("a.2", 0)
    v["unify"] = {"x": hexes(x3), "y": hexes(yu), "k_old": hexes(big_k), "u": big_u.hex(),
                  "factors": hexes(ufactors), "context": c.hex(),
                  "proof": proofs.prove_unify(x3, yu, big_k, big_u, ufactors, c)}

    v["shuffle"] = []
    for n, base in ((5, None), (3, big_u)):
        xn = cards(n)
        perm, s = st.permutation(n), st.scalar()
        yn = deck.shuffle_pass(xn, perm, s)
        big_s = group.point_mul(s, base if base else proofs.G)
        c = ctx("a.1", 0)
        v["shuffle"].append({"x": hexes(xn), "y": hexes(yn), "perm": perm, "s": s.hex(), "S": big_s.hex(),
                             "base": base.hex() if base else None, "context": c.hex(),
                             "proof": proofs.prove_shuffle(xn, yn, perm, s, c, base=base)})

    v["shuffle_lock"] = []
    for n, prior in ((4, layer), (2, None)):
        xn = cards(n)
        perm = st.permutation(n)
        ks = [st.scalar() for _ in range(n)]
        kc = deck.key_commitments(ks)
        cc = group.base_mul(prior) if prior else proofs.G
        fs = [group.smul(k, group.sinv(prior)) for k in ks] if prior else ks
        yn = deck.shuffle_lock_pass(xn, perm, ks, prior)
        c = ctx("a.1", 1)
        v["shuffle_lock"].append({"x": hexes(xn), "y": hexes(yn), "k": hexes(kc), "c": cc.hex(), "perm": perm,
                                  "factors": hexes(fs), "context": c.hex(),
                                  "proof": proofs.prove_shuffle_lock(xn, yn, kc, cc, perm, fs, c)})
    return v


if __name__ == "__main__":
    OUT.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
