"""The Grid Duel table as text, from one seat (or a spectator, ``seat=None``).

The map is the whole 5x5 frame of the picture, drawn from the viewer's side of the table as the picture
is (seat 1 sees it turned round), its columns ``a``-``e`` and rows ``1``-``5`` the squares' names. Each
space shows its owner in capitals (``A:`` is seat 0, ``B:`` seat 1), never as a square's name, and its
defence; ``?`` marks a card the viewer cannot see, ``*`` one only its owner sees (face down);
``A:5<B:7`` is a battle: seat 0 defends with 5 against seat 1's attack of 7; ``.`` is a square a card
may go to now, ``-`` one out of the frame the cards allow. The lines under the map name every card.

The state drawn is a ``GridState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

from duelmail.games.base import GameState
from duelmail.games.cards import Card, CardRef
from duelmail.games.grid.notation import ORIENTS
from duelmail.games.grid.terms import OVER, SCORE, frame_ok, pos_name, seat_of

CELL = 9
OWNER = ("A:", "B:")
"""A space's owner on the map: capitals and a colon, never a square's name (``b3`` is a square)."""


def _name(st: GameState, ref: CardRef, known: Mapping[CardRef, Card], seat: int | None) -> str:
    d = st.card(ref, known)
    if d is None:
        return f"{ref} [face down]"
    text = f"{ref} {d.summary()}"
    if ref not in st.where:
        return text
    if ref not in st.face_up:
        text += " [face down]" if seat == seat_of(ref) else " [face down, seen]"
    elif ref in st.orient and d.has_arrows:
        aims = " ".join(pos_name(q) for q in st.targets(ref)) or "nothing"
        text += f" {ORIENTS[st.orient[ref]]}, aims at {aims}"
    elif d.has_arrows:
        text += " (not oriented yet)"
    return text


def _value(st: GameState, refs, known, role: str) -> tuple[int, bool, bool]:
    """(strength, any unseen by the viewer, any face down) of some cards."""
    total, unseen, down = 0, False, False
    for r in refs:
        d = st.card(r, known)
        if d is None:
            unseen = True
        else:
            total += d.strength + (2 if (role, d.rare) in (("defend", "rooted"), ("attack", "siege")) else 0)
        down = down or r not in st.face_up
    return total, unseen, down


def render(st: GameState, seat: int | None, known: Mapping[CardRef, Card]) -> str:
    lines: list[str] = []
    decks = f"[{st.deck_names[0]} vs {st.deck_names[1]}]"
    you = {s: " (you)" if s == seat else "" for s in (0, 1)}
    if st.phase == OVER:
        lines.append(f"Grid Duel {decks}, game over: {st.result.describe()}")
    elif st.phase == SCORE:
        lines.append(f"Grid Duel {decks}, scoring ({st.ended_by}): waiting for the table's cards to be revealed")
    else:
        who = f"seat {st.current}{you[st.current]}" if st.deciders() else "nobody (cards being revealed)"
        lines.append(f"Grid Duel {decks}, turn {st.turn + 1}; to move: {who}")
    occ = list(st.spaces)
    area = [p for p in range(25) if p in st.spaces or (frame_ok([*occ, p]) if occ else p == 12)]
    cols = sorted(range(5), reverse=seat == 1)  # the picture's frame and orientation (picture.py)
    rows = sorted(range(5), reverse=seat != 1)
    lines.append(("     " + "".join(f"{'abcde'[c]:<{CELL}}" for c in cols)).rstrip())
    for r in rows:
        cells = []
        for c in cols:
            p = c + 5 * r
            sp = st.spaces.get(p)
            if sp is None:
                cells.append(("." if p in area else "-").ljust(CELL))
                continue
            d, unseen, down = _value(st, sp.defending(), known, "defend")
            d += st.support(p, sp.owner, "boost")
            text = f"{OWNER[sp.owner]}{'?' if unseen else d}{'*' if down and not unseen else ''}"
            if sp.attack:
                a, _, _ = _value(st, [x for u in sp.attack for x in u], known, "attack")
                text += f"<{OWNER[1 - sp.owner]}{a}"
            cells.append(text.ljust(CELL))
        lines.append(f"  {r + 1}  " + "".join(cells).rstrip())
    lines.append(f"({OWNER[0]} seat 0's cards, {OWNER[1]} seat 1's, with their defence; . a square open now)")
    count, _ = st.score()
    lines.append(f"Spaces held: seat 0{you[0]} {count[0]}, seat 1{you[1]} {count[1]} "
                 "(a battle counts for its defender)")
    for p, sp in sorted(st.spaces.items()):
        owner = f"seat {sp.owner}{you[sp.owner]}"
        lines.append(f"{pos_name(p)}  {owner}: " + " + ".join(_name(st, r, known, seat) for r in sp.holder))
        for r in sp.allies:
            lines.append(f"      ally: {_name(st, r, known, seat)}")
        if sp.attack:
            lines.append(f"      attacked by seat {1 - sp.owner}: "
                         + "; ".join(" + ".join(_name(st, r, known, seat) for r in u) for u in sp.attack))
            if not st.waiting():
                lines.append(f"      attack {st.attack(p)} against defence {st.defence(p)}")
    for s in (0, 1):
        hand = st.hands[s]
        lines.append(f"Seat {s}{you[s]} [{st.deck_names[s]}]: draw pile {len(st.piles[s])}, hand {len(hand)}, "
                     f"discards {len(st.discards[s])}")
        if s == seat:
            for r in hand:
                lines.append(f"  hand: {_name(st, r, known, seat)}")
    for note in st.news:
        lines.append(f"On the board: {note}")
    if st.end_allowed() and st.phase not in (OVER, SCORE):
        lines.append("The game may be ended now (end).")
    if seat is not None and seat in st.deciders():
        lines.append(f"Your move: {st.prompt(seat)}")
    return "\n".join(lines)
