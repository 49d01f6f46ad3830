"""Generate tests/vectors/crypto.json, the crypto layer's known-answer vectors.

Regenerate ONLY on a deliberate format change: these vectors pin the wire and derivation formats,
so any other change that alters them is a bug (tests/crypto/test_vectors.py catches it).

    python tests/vectors/make_crypto_vectors.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from duelmail.crypto import deck
from duelmail.crypto.commit import commit, commit_salt
from duelmail.crypto.derive import Stream, entropy_key, game_seed, hkdf
from duelmail.crypto.encoding import lp
from duelmail.crypto.seal import memo_key, pack, seal

OUT = Path(__file__).with_name("crypto.json")
MASTER_A = bytes(range(32))
MASTER_B = bytes(range(32, 64))
FRESH = bytes(range(64, 96))


def part(x: bytes | str | int) -> dict:
    """A JSON-typed lp part: {"bytes": hex} | {"str": s} | {"int": n}."""
    if isinstance(x, bytes):
        return {"bytes": x.hex()}
    return {"str": x} if isinstance(x, str) else {"int": x}


def hexes(items: list[bytes]) -> list[str]:
    return [x.hex() for x in items]


def build() -> dict:
    v: dict = {"_comment": "Known answers for duelmail.crypto; all byte strings hex. "
                           "Made by make_crypto_vectors.py; regenerate only on a deliberate format change."}

    lp_cases = [[b"duelmail", "g1", 7], ["", b"", 0, "é", 2**64 - 1]]
    v["lp"] = [{"parts": [part(x) for x in c], "out": lp(*c).hex()} for c in lp_cases]

    v["hkdf"] = [{"key": MASTER_A.hex(), "info": info, "length": n, "out": hkdf(MASTER_A, info, n).hex()}
                 for info, n in [("duelmail/test", 32), ("other", 48)]]

    v["game_seed"] = [{"master": m.hex(), "game_id": gid, "fresh": f.hex(), "out": game_seed(m, gid, f).hex()}
                      for m, gid, f in [(MASTER_A, "g1", FRESH), (MASTER_B, "g1", FRESH), (MASTER_A, "g2", FRESH),
                                        (MASTER_A, "g1", bytes(32))]]
    ekey = entropy_key(MASTER_A, "g1")
    v["entropy"] = {"master": MASTER_A.hex(), "game_id": "g1", "seat": 1, "fresh": FRESH.hex(), "key": ekey.hex(),
                    "aad": lp(b"duelmail/entropy/v1", "g1", 1).hex(),
                    "nonce": hkdf(ekey, lp(b"duelmail/entropy-nonce/v1", FRESH), 12).hex(),
                    "box": seal(ekey, FRESH, lp(b"duelmail/entropy/v1", "g1", 1),
                                hkdf(ekey, lp(b"duelmail/entropy-nonce/v1", FRESH), 12))}

    seed = game_seed(MASTER_A, "g1", FRESH)
    sc = Stream(seed, "vec/scalars")
    rb = Stream(seed, "vec/randbelow")
    v["stream"] = {
        "seed": seed.hex(), "bytes_label": "vec/bytes", "bytes": Stream(seed, "vec/bytes").bytes(80).hex(),
        "perm_label": "vec/perm", "perm_n": 20, "perm": Stream(seed, "vec/perm").permutation(20),
        "scalars_label": "vec/scalars", "scalars": [sc.scalar().hex(), sc.scalar().hex()],
        "randbelow_label": "vec/randbelow", "randbelow_n": [1000, 3, 2**40 + 1],
        "randbelow": [rb.randbelow(n) for n in (1000, 3, 2**40 + 1)],
    }

    salt = commit_salt(seed, "dice", 4)
    v["commit"] = {"seed": seed.hex(), "tag": "dice", "game_id": "g1", "round": 4, "seat": 1,
                   "salt": salt.hex(), "value": b"6,1,3".hex(),
                   "out": commit("dice", "g1", 4, 1, salt, b"6,1,3")}

    key = memo_key(seed)
    nonce, aad, msg = bytes(range(12)), b"g1/4/1", b"face down: QS"
    v["seal"] = {"seed": seed.hex(), "key": key.hex(), "nonce": nonce.hex(), "aad": aad.hex(),
                 "plaintext": msg.hex(), "box": seal(key, msg, aad, nonce)}

    # a memo as the engine seals it (protocol §6a): every value padded to its kind's block, sorted by label
    values, sizes = {"str": b"build str 4", "d0": b"dual d0: -"}, {"str": 16, "d0": 48}
    plain = pack(values, sizes)
    aad = lp(b"duelmail/memo/v2", "g1", 4, 1, "d0 str")
    v["memo"] = {"seed": seed.hex(), "key": key.hex(), "values": {k: x.hex() for k, x in values.items()},
                 "sizes": sizes, "padded": plain.hex(), "aad": aad.hex(), "nonce": nonce.hex(),
                 "box": seal(key, plain, aad, nonce)}

    v["card_point"] = [{"game_id": "g1", "base_deck": "std", "face": f,
                        "point": deck.card_point("g1", "std", f).hex()} for f in (0, 1, 53)]

    v["deck_run"] = deck_run()
    return v


def deck_run() -> dict:
    """3 faces, 2 lockers (A seat 0, B seat 1): A shuffles, B shuffle-locks, A locks."""
    gid, base, deck_id, n, gen = "g1", "std", "a.1", 3, 1
    seeds = [game_seed(MASTER_A, gid, FRESH), game_seed(MASTER_B, gid, FRESH)]
    a, b = (deck.LockerSecrets(s, deck_id, n, gen) for s in seeds)
    cards = [deck.card_point(gid, base, f) for f in range(n)]
    p1 = deck.shuffle_pass(cards, a.perm, a.shuffle_scalar)
    p2 = deck.shuffle_lock_pass(p1, b.perm, b.keys)
    p3 = deck.lock_pass(p2, a.shuffle_scalar, a.keys)
    table = deck.card_table(gid, base, n)
    faces = [table[deck.unlock(p, [a.keys[j], b.keys[j]])] for j, p in enumerate(p3)]
    return {
        "game_id": gid, "base_deck": base, "deck_id": deck_id, "nfaces": n, "generation": gen,
        "masters": [MASTER_A.hex(), MASTER_B.hex()], "fresh": FRESH.hex(), "seeds": hexes(seeds),
        "cards": hexes(cards),
        "secrets": [{"perm": s.perm, "shuffle_scalar": s.shuffle_scalar.hex(),
                     "unify_scalar": s.unify_scalar.hex(), "keys": hexes(s.keys)} for s in (a, b)],
        "shuffle_a": hexes(p1), "shuffle_lock_b": hexes(p2), "lock_a": hexes(p3),
        "encoded_final": deck.encode_points(p3),
        "commitments": [hexes(deck.key_commitments(a.keys)), hexes(deck.key_commitments(b.keys))],
        "faces": faces,
    }


if __name__ == "__main__":
    OUT.write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
