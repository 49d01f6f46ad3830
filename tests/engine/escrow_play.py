"""Games where seats go silent and are removed through escrow (protocol section 6c), played by bots in memory."""

from __future__ import annotations

import random
from datetime import timedelta

from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay


def claim_file(sp: SelfPlay, by: int, against: int) -> SignedFile:
    """``by``'s timeout claim against ``against``, signed a minute after it stands (its deadline, and the delivery
    allowance after it: protocol section 6b; the clock is injected)."""
    m = sp.matches[by]
    due = m.claim_from(against)
    sp.clock = max(sp.clock, due) + timedelta(minutes=1)
    return SignedFile.sign({"duelmail": 1, "kind": "claim", "game": m.game_ref, "round": m.round, "prev": m.prev,
                            "seat": by, "time": sp.clock.isoformat(), "against": against}, sp.ids[by])


def forfeits(m, seat: int) -> bool:
    """A timeout claim against ``seat`` now would end the game without escrow (no default answer is played)."""
    duty = m.duties[seat]
    return not duty.join and not (duty.decide and not m.over() and (
        m.state.default_action(seat) is not None or duty.windows))


def play_with_silences(game: str, n: int, seed: int, silent: list[int], after: int | None = None,
                       limit: int = 8000, escrow: dict | None = None
                       ) -> tuple[SelfPlay, list[tuple[int, int, SignedFile]]]:
    """Play ``game``; each seat of ``silent`` in turn stops answering after a seeded number of its files
    (``after``, random by default) once every deck is locked. Whenever it is awaited another seat claims its
    timeout: a default answer is played for it, or it is removed. A claim that would forfeit the game (a deck
    generation it has yet to lock: not removable) waits: the seat answers that once.

    Returns the game and, per removal, (seat, round of the claim, the file it would have sent in time)."""
    sp = SelfPlay(game, n, seed=seed, escrow=escrow)
    rng = random.Random(seed * 7919 + n)
    gone: list[tuple[int, int, SignedFile]] = []
    todo = list(silent)
    waits = rng.randrange(1, 12) if after is None else after
    for _ in range(limit):
        m = sp.match
        if m.finished:
            return sp, gone
        s = todo[0] if todo else None
        quiet = s is not None and waits <= 0
        if quiet and s in m.duties and not m.over() and not (forfeits(m, s) and not m.removable(s)):
            # a claim closes the open round at once (the fold weighs claims before the round's turns)
            late = sp.compose(s)  # what it would have sent in time: void once the claim is final
            by = min(x for x in range(n) if x != s and x not in m.removed and x not in m.state.retired())
            rnd = m.round
            sp.deliver(claim_file(sp, by, s))
            if s in m.removed or m.removing == s:
                gone.append((s, rnd, late))
                todo.pop(0)
                waits = rng.randrange(1, 12) if after is None else after
            continue
        for seat in sorted(m.duties):
            if seat == s and all(d.locked for d in m.book.decks.values()) and m.round > 2 and not m.over():
                waits -= 1
            sp.deliver(sp.compose(seat))
    raise AssertionError(f"{game} with {n} seats did not end")
