"""Benchmark of the escrow primitives (duelmail.crypto.escrow; issue 19, docs/protocol.md section 6c).

    python bench/bench_escrow.py [n]

For 3, 4, 6 and 8 seats with the default threshold (every other seat) and one deck generation of
``n`` cards (default 54): the bytes each seat adds to the set-up (the escrow key, its dealing, and the
dealing of its n lock keys: commitments without C_0, one ciphertext per holder), the CPU it spends
dealing them, and the CPU it spends checking the shares every other seat dealt to it. Then the CPU
of one removal at every home: check every share the remaining seats publish (one batch,
``verify_published``), reconstruct the n keys and the escrow key, and decrypt the shares the removed seat
held (they are checked when a later removal uses them, in that removal's batch). CPU is
``time.process_time`` (this process only), wall time beside it. These are the primitives' costs; the
engine's, in real games, are measured by ``bench/bench_escrow_engine.py``.
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duelmail.crypto import escrow as E
from duelmail.crypto import group as g
from duelmail.crypto.derive import Stream
from duelmail.crypto.encoding import b64e, lp

GAME = "bench-escrow"
SEATS = (3, 4, 6, 8)


class Clock:
    """CPU (process_time) and wall time spent inside ``with`` blocks, summed."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.wall = 0.0

    def __enter__(self):
        self._c, self._w = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.cpu += time.process_time() - self._c
        self.wall += time.perf_counter() - self._w

    def ms(self, per: int = 1) -> str:
        return f"{self.cpu / per * 1e3:7.1f} ms CPU ({self.wall / per * 1e3:7.1f} wall)"


def run(m: int, n: int) -> None:
    t = m - 1
    seeds = {s: hashlib.sha256(lp("bench/escrow", m, s)).digest() for s in range(m)}
    keys = {s: E.escrow_key(seeds[s]) for s in range(m)}
    pub = {s: g.base_mul(keys[s]) for s in range(m)}
    secrets = {s: [keys[s]] + [Stream(seeds[s], "bench/keys").scalar() for _ in range(n)] for s in range(m)}
    names = ["escrow-key"] + [f"a#{j}" for j in range(n)]
    recorded = {s: [g.base_mul(k) for k in secrets[s]] for s in range(m)}

    deal_clock, check_clock = Clock(), Clock()
    dealings, cts, sent_bytes = {}, {}, {}
    for s in range(m):
        holders = [h + 1 for h in range(m) if h != s]
        with deal_clock:
            dealings[s] = [E.deal(k, t, holders, E.escrow_context(GAME, 2, s, w))
                           for k, w in zip(secrets[s], names, strict=True)]
            for h in range(m):
                if h != s:
                    cts[s, h] = E.encrypt_shares([d.shares[h + 1] for d in dealings[s]], pub[h],
                                                 E.escrow_context(GAME, 2, s, f"to-{h}"))
        commit_text = b64e(b"".join(c for d in dealings[s] for c in d.sent))
        ct_text = sum(len(cts[s, h]) for h in range(m) if h != s)
        raw = 32 * len(dealings[s]) * (t - 1) + sum(E.ciphertext_size(len(names)) for _ in range(m - 1)) + 32
        sent_bytes[s] = (raw, len(commit_text) + ct_text + len(b64e(pub[s])))

    def commitments(dealer: int) -> list[list[bytes]]:
        return [[recorded[dealer][j], *d.sent] for j, d in enumerate(dealings[dealer])]

    for h in range(m):
        for s in range(m):
            if s != h:
                with check_clock:
                    E.receive_shares(cts[s, h], keys[h], h + 1, commitments(s),
                                     E.escrow_context(GAME, 2, s, f"to-{h}"), names, threshold=t)

    raw, chars = sent_bytes[0]
    print(f"{m} seats, threshold {t}, {m - 1} holders, one deck of {n} + the escrow key:")
    print(f"  bytes per seat: {raw:7d} ({chars} base64 chars): commitments {32 * (n + 1) * (t - 1)}, "
          f"ciphertexts {(m - 1) * E.ciphertext_size(n + 1)}, escrow key 32")
    print(f"  deal, per seat:            {deal_clock.ms(m)}")
    print(f"  check on arrival, per seat: {check_clock.ms(m)}  ({m - 1} dealers x {n + 1} shares)")

    # Removal of the last seat: every home checks the published shares, reconstructs, opens what it held.
    absent = m - 1
    published = {h + 1: E.decrypt_shares(cts[absent, h], keys[h], E.escrow_context(GAME, 2, absent, f"to-{h}"),
                                         n + 1) for h in range(m - 1)}
    removal = Clock()
    with removal:
        E.verify_published(published, commitments(absent), names)
        got = [E.reconstruct({x: s[j] for x, s in published.items()}, t, recorded[absent][j], names[j])
               for j in range(n + 1)]
        for s in range(m - 1):  # checked when a later removal uses them, in that removal's batch
            held = E.decrypt_shares(cts[s, absent], got[0], E.escrow_context(GAME, 2, s, f"to-{absent}"), n + 1)
    assert got == secrets[absent] and held == [d.shares[absent + 1] for d in dealings[m - 2]]
    print(f"  removal, per home:          {removal.ms()}  (check {(m - 1) * (n + 1)} published shares in one "
          f"batch, reconstruct {n + 1} secrets, decrypt the {(m - 1) * (n + 1)} shares the seat held)")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 54
    print(f"python {sys.version.split()[0]}")
    for m in SEATS:
        run(m, n)


if __name__ == "__main__":
    main()
