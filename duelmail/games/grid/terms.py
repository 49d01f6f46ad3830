"""The terms of Grid Duel that the rules, the text view and the picture share: the board (positions,
neighbours, the 3x3 frame, where arrows point), the decks and the phases.

Kept apart so that ``render.py`` and ``picture.py`` never import ``rules.py`` (which imports them).
"""

from __future__ import annotations

from duelmail.games.cards import CardRef

SIDE = 5
CENTRE = 12  # c3
DECK_IDS = ("a", "b")
COLS = "abcde"
PLAY, SCORE, OVER = range(3)
PHASE_NAMES = ("play", "scoring", "game over")


def pos_index(name: str) -> int:
    return COLS.index(name[0]) + SIDE * (int(name[1]) - 1)


def pos_name(p: int) -> str:
    return f"{COLS[p % SIDE]}{p // SIDE + 1}"


def _neighbours(p: int, step: int) -> list[int]:
    c, r = p % SIDE, p // SIDE
    out = []
    for dc, dr in ((0, step), (step, 0), (0, -step), (-step, 0)):
        if 0 <= c + dc < SIDE and 0 <= r + dr < SIDE:
            out.append(c + dc + SIDE * (r + dr))
    return out


ORTH = {p: _neighbours(p, 1) for p in range(SIDE * SIDE)}
LEAP = {p: {q: (p + q) // 2 for q in _neighbours(p, 2)} for p in range(SIDE * SIDE)}  # Swift: q -> middle


def seat_of(ref: CardRef) -> int:
    return DECK_IDS.index(ref.deck)


def frame_ok(occupied) -> bool:
    """Do these positions (and c3) fit in one 3x3 block? (G-5)"""
    c0 = c1 = r0 = r1 = 2
    for p in occupied:
        c, r = p % SIDE, p // SIDE
        c0, c1, r0, r1 = min(c0, c), max(c1, c), min(r0, r), max(r1, r)
    return c1 - c0 <= 2 and r1 - r0 <= 2


def aim(p: int, arrows, orient: int, seat: int) -> list[int]:
    """Positions the arrows of a card at ``p`` point at, given its orientation and owner (G-22)."""
    out = []
    for x, y in arrows:
        if orient == 1:
            x, y = y, -x
        elif orient == 2:
            x, y = -x, -y
        elif orient == 3:
            x, y = -y, x
        if seat == 1:
            x, y = -x, -y
        c, r = p % SIDE + x, p // SIDE + y
        if 0 <= c < SIDE and 0 <= r < SIDE:
            out.append(c + SIDE * r)
    return out
