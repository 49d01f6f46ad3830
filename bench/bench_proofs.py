"""Benchmark of the deck-pass proofs (duelmail.crypto.proofs).

    python bench/bench_proofs.py

For n = 52 and 54: prove and verify times of the shuffle proof, the shuffle-lock proof and the n
lock (and unify) DLEQs; microseconds to verify one DLEQ; proof sizes; libsodium operation counts
(machine-independent: multiply a count by the point_mul figure of the machine). Then the CPU each
player spends on one proved 52-card set-up with two and with four lockers (every pass proved by its
author and verified by every other player, every received deck decoded with validation), and the
bytes the proofs add to a two-player game with two 54-card decks.
"""

from __future__ import annotations

import collections
import statistics
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import nacl.bindings as nb

from duelmail.crypto import deck, group
from duelmail.crypto import proofs as P
from duelmail.crypto.derive import game_seed
from duelmail.crypto.encoding import lp

GAME = "bench-proofs"
REPEAT = 7


def median_ms(fn, repeat: int = REPEAT) -> tuple[float, float]:
    """Medians of ``fn()``'s CPU time (``time.process_time``) and wall time, in ms."""
    cpu, wall = [], []
    for _ in range(repeat):
        c, t = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return statistics.median(cpu) * 1e3, statistics.median(wall) * 1e3


def per_call_us(fn, number: int = 1000) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


class Counter:
    """Counts libsodium calls while active (multiplications, additions, hash-to-curve, validations)."""

    NAMES = {"crypto_scalarmult_ed25519_noclamp": "mul", "crypto_scalarmult_ed25519_base_noclamp": "base_mul",
             "crypto_core_ed25519_add": "add", "crypto_core_ed25519_sub": "add",
             "crypto_core_ed25519_from_uniform": "h2c", "crypto_core_ed25519_is_valid_point": "valid"}

    def __init__(self) -> None:
        self.counts: collections.Counter = collections.Counter()
        self.saved = {}

    def __enter__(self):
        for name, short in self.NAMES.items():
            fn = getattr(nb, name)
            self.saved[name] = fn

            def wrapped(*a, _fn=fn, _short=short):
                self.counts[_short] += 1
                return _fn(*a)
            setattr(nb, name, wrapped)
        return self

    def __exit__(self, *exc):
        for name, fn in self.saved.items():
            setattr(nb, name, fn)

    def text(self) -> str:
        return ", ".join(f"{self.counts[k]} {k}" for k in ("mul", "base_mul", "add", "h2c", "valid") if self.counts[k])


def counted(fn) -> str:
    with Counter() as c:
        fn()
    return c.text()


def ctx(i: int) -> bytes:
    return lp(GAME, 1, 0, "a.1", i)


def primitives() -> float:
    s = group.scalar_from_int(0x1234567890ABCDEF << 128)
    p, q = group.hash_to_point("bench", 1), group.hash_to_point("bench", 2)
    mul = per_call_us(lambda: group.point_mul(s, p))
    print(f"point_mul {mul:6.1f} us   base_mul {per_call_us(lambda: group.base_mul(s)):5.1f} us   "
          f"point add {per_call_us(lambda: nb.crypto_core_ed25519_add(p, q)):5.1f} us   "
          f"valid_point {per_call_us(lambda: group.valid_point(p)):5.1f} us")
    x = group.scalar_from_int(987654321987654321)
    b1, b2 = group.hash_to_point("bench", 3), group.hash_to_point("bench", 4)
    p1, p2 = group.point_mul(x, b1), group.point_mul(x, b2)
    pr = P.prove_dleq(b1, p1, b2, p2, x, ctx(0))
    print(f"one DLEQ (64 bytes): prove {per_call_us(lambda: P.prove_dleq(b1, p1, b2, p2, x, ctx(0)), 200):6.0f} us, "
          f"verify {per_call_us(lambda: P.verify_dleq(b1, p1, b2, p2, pr, ctx(0)), 200):6.0f} us "
          f"({counted(lambda: P.verify_dleq(b1, p1, b2, p2, pr, ctx(0)))})")
    return mul


def per_size(n: int, mul_us: float) -> None:
    sec = deck.LockerSecrets(game_seed(bytes(32), GAME, bytes(32)), "a.1", n)
    sec2 = deck.LockerSecrets(game_seed(bytes([1]) * 32, GAME, bytes(32)), "a.1", n)
    x = [deck.card_point(GAME, "std", f) for f in range(n)]
    s, perm = sec.shuffle_scalar, sec.perm
    y = deck.shuffle_pass(x, perm, s)
    big_s = group.base_mul(s)
    c = s  # the lock below is by the shuffler: its layer is s, C = S
    keys = sec2.keys
    k = deck.key_commitments(keys)
    factors = [group.smul(kk, group.sinv(c)) for kk in keys]
    ylock = [group.point_mul(a, p) for a, p in zip(factors, x, strict=True)]
    ysl = [group.point_mul(factors[i], x[sec2.perm[i]]) for i in range(n)]
    u = sec.unify_scalar
    ufac = [group.smul(u, group.sinv(kk)) for kk in keys]
    yu = [group.point_mul(a, p) for a, p in zip(ufac, x, strict=True)]
    big_u = group.base_mul(u)
    P._gprime(n)  # warm the generator cache, as a long-running process would be
    rows = [
        ("shuffle", lambda: P.prove_shuffle(x, y, perm, s, ctx(1)),
         lambda pr: P.verify_shuffle(x, y, big_s, pr, ctx(1))),
        ("shuffle-lock", lambda: P.prove_shuffle_lock(x, ysl, k, big_s, sec2.perm, factors, ctx(2)),
         lambda pr: P.verify_shuffle_lock(x, ysl, k, big_s, pr, ctx(2))),
        (f"lock ({n} DLEQs)", lambda: P.prove_lock(x, ylock, k, big_s, factors, ctx(3)),
         lambda pr: P.verify_lock(x, ylock, k, big_s, pr, ctx(3))),
        (f"unify ({n} DLEQs)", lambda: P.prove_unify(x, yu, k, big_u, ufac, ctx(4)),
         lambda pr: P.verify_unify(x, yu, k, big_u, pr, ctx(4))),
    ]
    print(f"\nn = {n}: {'':14s} prove ms  verify ms CPU (wall: prove; verify)   bytes (base64 chars)   "
          "prove ops | verify ops")
    for name, prove, verify in rows:
        pr = prove()
        assert verify(pr), name
        (tp, wp), (tv, wv) = median_ms(prove), median_ms(lambda pr=pr, verify=verify: verify(pr))
        print(f"  {name:20s} {tp:8.1f} {tv:10.1f} ({wp:.1f}; {wv:.1f}) {len(pr) * 3 // 4:7d} ({len(pr):5d})   "
              f"{counted(prove)} | {counted(lambda pr=pr, verify=verify: verify(pr))}")
    print(f"  (one point_mul here: {mul_us:.1f} us)")


# -- per-player CPU of a proved set-up -------------------------------------------------------------------

class Clock:
    """CPU time per seat (``time.process_time``; wall time in ``wall``); with ``count``, libsodium operations per
    seat instead (no timing).

    Each seat runs as its own process would: with its own memo of the points it checked (``group._VALID``, swapped
    in while the seat works), empty when the set-up starts, so no seat is spared a check another seat made (issue
    42: a memo shared by all seats left every received point unchecked, 5-9% off the figures)."""

    def __init__(self, seats: int, count: bool = False) -> None:
        self.spent = [0.0] * seats
        self.wall = [0.0] * seats
        self.ops = [collections.Counter() for _ in range(seats)] if count else None
        self.memos: list[set[bytes]] = [set() for _ in range(seats)]

    def run(self, who: int, fn, *args):
        kept, group._VALID = group._VALID, self.memos[who]
        try:
            return self._run(who, fn, *args)
        finally:
            self.memos[who], group._VALID = group._VALID, kept

    def _run(self, who: int, fn, *args):
        if self.ops is not None:
            with Counter() as c:
                out = fn(*args)
            self.ops[who].update(c.counts)
            return out
        c, t = time.process_time(), time.perf_counter()
        out = fn(*args)
        self.spent[who] += time.process_time() - c
        self.wall[who] += time.perf_counter() - t
        return out


REF_US = {"mul": 60.9, "base_mul": 12.7, "valid": 30.1, "h2c": 18.4}  # docs/benchmarks.md, quiet machine


def model_ms(ops: collections.Counter, add_us: float) -> float:
    """CPU estimate from operation counts at the reference primitive costs (libsodium work only)."""
    return (sum(REF_US[k] * ops[k] for k in REF_US) + add_us * ops["add"]) / 1e3


def relay(points: list[bytes]) -> list[bytes]:
    return deck.decode_points(deck.encode_points(points), len(points), "deck")


def proved_setup(nseats: int, n: int, clock: Clock, with_proofs: bool = True) -> int:
    """One deck: o0..o(k-1) shuffle, ok shuffle-locks, o(k-1)..o0 lock; every other seat checks each
    pass on arrival (decode with validation, then verify the proof). Returns proof bytes."""
    secrets = [clock.run(s, deck.LockerSecrets, game_seed(bytes([s + 1]) * 32, GAME, bytes(32)), "a.1", n)
               for s in range(nseats)]
    layer = [group.scalar_from_int(1)] * nseats
    big_c = [P.G] * nseats
    pts = clock.run(0, lambda: [deck.card_point(GAME, "std", f) for f in range(n)])
    size, idx = 0, 0

    def arrive(author: int, out: list[bytes], verify) -> list[bytes]:
        got = out
        for seat in range(nseats):
            if seat != author:
                got = clock.run(seat, relay, out)
                if with_proofs:
                    assert clock.run(seat, verify, got)
        return got

    for seat in range(nseats - 1):
        sec = secrets[seat]
        out = clock.run(seat, deck.shuffle_pass, pts, sec.perm, sec.shuffle_scalar)
        new_c = clock.run(seat, group.point_mul, sec.shuffle_scalar, big_c[seat])
        if with_proofs:
            pr = clock.run(seat, P.prove_shuffle, pts, out, sec.perm, sec.shuffle_scalar, ctx(idx), None, big_c[seat],
                           layer[seat])
            size += len(pr)

            def verify(got, pr=pr, base=big_c[seat], new_c=new_c, src=pts, i=idx):
                return P.verify_shuffle(src, got, new_c, pr, ctx(i), base=base)
        pts = arrive(seat, out, verify if with_proofs else None)
        layer[seat], big_c[seat], idx = group.smul(layer[seat], secrets[seat].shuffle_scalar), new_c, idx + 1
    last = nseats - 1
    sec = secrets[last]
    inv = group.sinv(layer[last])
    factors = clock.run(last, lambda: [group.smul(k, inv) for k in sec.keys])
    out = clock.run(last, lambda: [group.point_mul(factors[i], pts[sec.perm[i]]) for i in range(n)])
    kc = clock.run(last, deck.key_commitments, sec.keys)
    if with_proofs:
        pr = clock.run(last, P.prove_shuffle_lock, pts, out, kc, big_c[last], sec.perm, factors, ctx(idx), None,
                       layer[last])
        size += len(pr)

        def verify(got, pr=pr, src=pts, kc=kc, c=big_c[last], i=idx):
            return P.verify_shuffle_lock(src, got, kc, c, pr, ctx(i))
    for seat in range(nseats):
        if seat != last:
            clock.run(seat, relay, kc)
    pts, idx = arrive(last, out, verify if with_proofs else None), idx + 1
    for seat in range(nseats - 2, -1, -1):
        sec = secrets[seat]
        inv = group.sinv(layer[seat])
        factors = clock.run(seat, lambda sec=sec, inv=inv: [group.smul(k, inv) for k in sec.keys])
        out = clock.run(seat, lambda f=factors, src=pts: [group.point_mul(a, p) for a, p in zip(f, src, strict=True)])
        kc = clock.run(seat, deck.key_commitments, sec.keys)
        if with_proofs:
            pr = clock.run(seat, P.prove_lock, pts, out, kc, big_c[seat], factors, ctx(idx), None, layer[seat])
            size += len(pr)

            def verify(got, pr=pr, src=pts, kc=kc, c=big_c[seat], i=idx):
                return P.verify_lock(src, got, kc, c, pr, ctx(i))
        for other in range(nseats):
            if other != seat:
                clock.run(other, relay, kc)
        pts, idx = arrive(seat, out, verify if with_proofs else None), idx + 1
    return size


def setups(mul_us: float) -> None:
    n = 52
    p, q = group.hash_to_point("bench", 1), group.hash_to_point("bench", 2)
    add_ref = REF_US["mul"] * per_call_us(lambda: nb.crypto_core_ed25519_add(p, q)) / mul_us
    print(f"\nCPU per player, one proved {n}-card set-up (median of {REPEAT}; passes, key commitments, "
          "decoding of every received deck, proofs):")
    for nseats, target in ((2, 150), (4, 400)):
        for with_proofs in (False, True):
            runs, walls = [], []
            for _ in range(REPEAT):
                clock = Clock(nseats)
                proved_setup(nseats, n, clock, with_proofs)
                runs.append(clock.spent)
                walls.append(clock.wall)
            per = [statistics.median(r[s] for r in runs) * 1e3 for s in range(nseats)]
            wall = [statistics.median(r[s] for r in walls) * 1e3 for s in range(nseats)]
            label = "with proofs   " if with_proofs else "without proofs"
            print(f"  {nseats} players {label}: " + ", ".join(f"seat {s} {v:5.1f} ms" for s, v in enumerate(per))
                  + f" CPU (wall {', '.join(f'{w:.1f}' for w in wall)})"
                  + (f"   (target: at most {target} ms each)" if with_proofs else ""))
        clock = Clock(nseats, count=True)
        proved_setup(nseats, n, clock, True)
        for seat, ops in enumerate(clock.ops):
            print(f"    seat {seat}: {ops['mul']} mul, {ops['base_mul']} base_mul, {ops['add']} add, "
                  f"{ops['valid']} valid, {ops['h2c']} h2c = {model_ms(ops, add_ref):5.1f} ms at the reference costs "
                  f"(point_mul {REF_US['mul']} us, add {add_ref:.1f} us)")


def log_size() -> None:
    n = 54
    sizes = {k: P.proof_size(k, n) for k in ("shuffle", "shuffle_lock", "lock", "unify")}
    per_deck = sizes["shuffle"] + 32 + sizes["shuffle_lock"] + sizes["lock"]  # + the published S
    b64 = lambda b: (4 * b + 2) // 3  # noqa: E731
    print(f"\nProof bytes in a two-player game, {n}-card decks (raw / base64): shuffle {sizes['shuffle']} + S 32, "
          f"shuffle-lock {sizes['shuffle_lock']}, lock {sizes['lock']}")
    print(f"  per deck set-up {per_deck} / {b64(per_deck)}; two decks {2 * per_deck} / {2 * b64(per_deck)}")
    reshuffle = 2 * (sizes["unify"] + 32) + per_deck
    print(f"  each reshuffle of {n} cards (two unify passes with U, then a set-up): {reshuffle} / {b64(reshuffle)}")


if __name__ == "__main__":
    print(f"python {sys.version.split()[0]}")
    mul_us = primitives()
    for n in (52, 54):
        per_size(n, mul_us)
    setups(mul_us)
    log_size()
