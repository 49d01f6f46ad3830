"""Benchmark of the crypto layer: primitive costs and a realistic two-player deck set-up.

    python bench/bench_crypto.py

The set-up is two 54-card decks with two lockers, as played: A derives its secrets and the card
table, shuffles; B validates what it received, shuffle-locks and commits to its keys; A validates
B's deck and commitments, locks and commits; B validates A's deck and commitments. Every transfer
goes through encode_points/decode_points, so every received point is validated.
"""

from __future__ import annotations

import statistics
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duelmail.crypto import deck, group
from duelmail.crypto.derive import game_seed

GAME = "bench-game"
N = 54
DECKS = ("a.1", "b.1")
REPEAT = 7


def per_call_us(fn, number: int = 2000) -> float:
    """Best-of-5 microseconds per call."""
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def primitives() -> None:
    s = group.scalar_from_int(0x1234567890ABCDEF << 128)
    p = group.hash_to_point("bench", 1)
    k = deck.LockerSecrets(game_seed(bytes(32), GAME, bytes(32)), "x.1", 1).keys[0]
    c = group.base_mul(k)
    print(f"point_mul      {per_call_us(lambda: group.point_mul(s, p)):8.1f} us")
    print(f"base_mul       {per_call_us(lambda: group.base_mul(s)):8.1f} us")
    print(f"valid_point    {per_call_us(lambda: group.valid_point(p)):8.1f} us")
    print(f"hash_to_point  {per_call_us(lambda: group.hash_to_point(GAME, 'std', 17)):8.1f} us")
    print(f"check_share    {per_call_us(lambda: deck.check_share(k, c)):8.1f} us")


class Clock:
    """Accumulates the CPU time (``time.process_time``) each player spends."""

    def __init__(self) -> None:
        self.spent = {"A": 0.0, "B": 0.0}

    def run(self, who: str, fn, *args):
        t = time.process_time()
        out = fn(*args)
        self.spent[who] += time.process_time() - t
        return out


def a_shuffle(seed: bytes, deck_id: str):
    """A: derive secrets and the card table, shuffle the card points."""
    sec = deck.LockerSecrets(seed, deck_id, N)
    table = deck.card_table(GAME, deck_id.split(".")[0], N)
    cards = list(table)  # the table is built in face order
    return sec, deck.encode_points(deck.shuffle_pass(cards, sec.perm, sec.shuffle_scalar))


def b_shuffle_lock(seed: bytes, deck_id: str, msg: str):
    """B: validate A's deck, build the table, shuffle-lock, commit to the keys."""
    pts = deck.decode_points(msg, N, "A's shuffle")
    sec = deck.LockerSecrets(seed, deck_id, N)
    deck.card_table(GAME, deck_id.split(".")[0], N)  # B needs it too, to read its draws
    out = deck.shuffle_lock_pass(pts, sec.perm, sec.keys)
    return deck.encode_points(out), deck.encode_points(deck.key_commitments(sec.keys))


def a_lock(sec: deck.LockerSecrets, msg: str, commits: str):
    """A: validate B's deck and commitments, lock, commit to the keys."""
    pts = deck.decode_points(msg, N, "B's shuffle-lock")
    deck.decode_points(commits, N, "B's key commitments")
    out = deck.lock_pass(pts, sec.shuffle_scalar, sec.keys)
    return deck.encode_points(out), deck.encode_points(deck.key_commitments(sec.keys))


def b_receive(msg: str, commits: str) -> None:
    """B: validate A's locked deck and commitments."""
    deck.decode_points(msg, N, "A's lock")
    deck.decode_points(commits, N, "A's key commitments")


def setup_two_decks(seed_a: bytes, seed_b: bytes) -> dict[str, float]:
    """One full set-up of every deck in DECKS; returns seconds spent by each player."""
    clock = Clock()
    for deck_id in DECKS:
        sec_a, m1 = clock.run("A", a_shuffle, seed_a, deck_id)
        m2, c2 = clock.run("B", b_shuffle_lock, seed_b, deck_id, m1)
        m3, c3 = clock.run("A", a_lock, sec_a, m2, c2)
        clock.run("B", b_receive, m3, c3)
    return clock.spent


def main() -> None:
    print(f"python {sys.version.split()[0]}")
    primitives()
    seed_a, seed_b = game_seed(b"A" * 32, GAME, bytes(32)), game_seed(b"B" * 32, GAME, bytes(32))
    setup_two_decks(seed_a, seed_b)  # warm-up
    runs = [setup_two_decks(seed_a, seed_b) for _ in range(REPEAT)]
    a = statistics.median(r["A"] for r in runs) * 1e3
    b = statistics.median(r["B"] for r in runs) * 1e3
    print(f"set-up of {len(DECKS)} x {N}-card decks, 2 lockers (median of {REPEAT}):")
    print(f"  player A (shuffle, lock)   {a:7.1f} ms")
    print(f"  player B (shuffle-lock)    {b:7.1f} ms")
    print(f"  total                      {a + b:7.1f} ms")


if __name__ == "__main__":
    main()
