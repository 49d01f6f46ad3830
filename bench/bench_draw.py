"""Cost of one private draw through the engine's deck: the key share check by the other player on
arrival, and the drawer's unlock and card lookup."""

from __future__ import annotations

import timeit

import common  # noqa: F401


def main() -> dict:
    from duelmail.crypto import deck

    game = "ab" * 32
    table = deck.card_table(game, "a", 54)
    cards = [deck.card_point(game, "a", f) for f in range(54)]
    a, b = deck.LockerSecrets(b"A" * 32, "a", 54), deck.LockerSecrets(b"B" * 32, "a", 54)
    locked = deck.shuffle_lock_pass(deck.shuffle_pass(cards, a.perm, a.shuffle_scalar), b.perm, b.keys)
    locked = deck.lock_pass(locked, a.shuffle_scalar, a.keys)
    commits = deck.key_commitments(b.keys)

    def check():
        assert deck.check_share(b.keys[7], commits[7])

    def open_card():
        assert deck.unlock(locked[7], [a.keys[7], b.keys[7]]) in table

    n = 2000
    c = min(timeit.repeat(check, number=n, repeat=5)) / n * 1e6
    o = min(timeit.repeat(open_card, number=n, repeat=5)) / n * 1e6
    print(f"per draw: checking the other player's key share on arrival {c:.0f} us; the drawer's unlock and "
          f"card lookup {o:.0f} us; {c + o:.0f} us in all")
    return {"check": c, "open": o}


if __name__ == "__main__":
    main()
