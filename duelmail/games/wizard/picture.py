"""The Wizard Duel table as one SVG picture, from one seat's view (or a spectator's, ``seat=None``).

Drawn from the same state and known faces as the text view (``render.py``): the players in a circle in
turn order (the viewer at the bottom) with their Lives (three face-down cards each: nobody has seen them) and
hand sizes, the stock in the
middle, the spell in flight as an arrow from its caster to its target with its strength and cards, the
last used cards and the viewer's hand.

The state drawn is a ``WizardState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from duelmail.games.base import GameState
from duelmail.games.cards import Card, CardRef
from duelmail.games.svg import CARD_W, GOLD, MUTED, RED, SEATS, Canvas, card, face_row, n, named, open_hand, seat_name
from duelmail.games.wizard.terms import OVER, PHASE_NAMES

BOX_W, BOX_H = 108, 70
RX, RY = 140, 128


def picture(st: GameState, seat: int | None, known: Mapping[CardRef, Card],
            names: Sequence[str] | None = None) -> str:
    def name(s: int) -> str:
        return seat_name(names, s)

    c = Canvas(f"Wizard Duel, {'the table' if seat is None else name(seat) + '’s view'}")
    if st.phase == OVER and st.result is not None:
        status = "Game over: " + named(st.result.describe(list(names) if names else None), names)
    else:
        who = ", ".join(name(d) for d in st.deciders()) or "nobody (cards being turned up or shuffled)"
        status = f"Turn {st.turn}, {name(st.current)}: {PHASE_NAMES[st.phase]}. To move: {who}"
    top = c.header("Wizard Duel" + ("" if seat is None else f" · {name(seat)}’s view"), status)
    cx, cy = c.width / 2, top + RY + BOX_H / 2 + 6
    turn = 0 if seat is None else seat  # the viewer sits at the bottom, a spectator looks from seat 0's side
    at = {}
    for s in range(st.n):
        a = 2 * math.pi * (s - turn) / st.n + (0 if seat is None else math.pi)
        at[s] = (cx + RX * math.sin(a), cy - RY * math.cos(a))
    sp = st.spell
    for s in range(st.n):
        x, y = at[s]
        colour = SEATS[s % len(SEATS)]
        alive = s in st.alive
        c.add(f'<g class="seat box{" out" if not alive else ""}" data-seat="{s}">')
        edge = GOLD if s == st.current and alive else colour
        if edge == GOLD:
            c.mark("turn")
        left, up = x - BOX_W / 2, y - BOX_H / 2
        c.rect(left, up, BOX_W, BOX_H, "#ffffff" if alive else "#e4e0d6", edge, rx=8, extra=' stroke-width="3"')
        c.text(x, up + 17, name(s) + (" (you)" if s == seat else ""), 13, anchor="middle", weight="bold",
               fill=colour, width=BOX_W - 8)
        if alive:
            lives = len(st.lives[s])
            c.add(f'<g class="lives" data-lives="{lives}"><title>{lives} {"Life" if lives == 1 else "Lives"}, '
                  'face down: nobody has seen them</title>')
            c.text(left + 6, up + 38, "Lives", 13, fill=MUTED)
            for i in range(lives):
                card(c, left + 52 + i * 17, up + 24, None, w=14, cls="life")
            c.add("</g>")
            c.text(x, up + 60, f"hand {len(st.hands[s])}", 13, anchor="middle", fill=MUTED)
            c.mark("lives")
        else:
            c.text(x, up + 44, "out", 13, anchor="middle", fill=MUTED)
        c.add("</g>")
    if sp is not None:
        (x1, y1), (x2, y2) = at[sp.attacker], at[sp.target]
        c.add(f'<g class="spell"><title>{"out-of-turn " if sp.window else ""}attack by {name(sp.attacker)} '
              f'at {name(sp.target)}, strength {sp.strength}</title>')
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1
        ux, uy = dx / length, dy / length
        gap = BOX_H / 2 + 4
        hx, hy = x2 - ux * gap, y2 - uy * gap
        c.add(f'<line x1="{n(x1 + ux * gap)}" y1="{n(y1 + uy * gap)}" x2="{n(hx - ux * 12)}" y2="{n(hy - uy * 12)}" '
              f'stroke="{RED}" stroke-width="4" stroke-dasharray="10 5" opacity="0.8"/>')
        c.add(f'<path d="M{n(hx)} {n(hy)}L{n(hx - ux * 16 - uy * 9)} {n(hy - uy * 16 + ux * 9)}'
              f'L{n(hx - ux * 16 + uy * 9)} {n(hy - uy * 16 - ux * 9)}z" fill="{RED}"/>')
        c.add("</g>")
        c.mark("spell")
    c.add('<g class="stock">')
    card(c, cx - 46, cy - 40, None, w=34)
    c.text(cx - 29, cy + 24, f"stock {len(st.stock)}", 13, anchor="middle", weight="bold")
    c.text(cx - 29, cy + 41, f"pile {st.generation + 1} of 2", 13, anchor="middle", fill=MUTED)
    c.add("</g>")
    if st.used:
        card(c, cx + 18, cy - 40, known.get(st.used[-1]), w=34, cls="used")
        c.text(cx + 35, cy + 24, f"used {len(st.used)}", 13, anchor="middle")
    y = cy + RY + BOX_H / 2 + 14
    if sp is not None:
        kind = "Out-of-turn attack" if sp.window else "Attack"
        line = (f"{kind} by {name(sp.attacker)} at {name(sp.target)}: strength {sp.strength}"
                + (" (two face cards: no defence)" if sp.strike else ""))
        c.text(16, y + 12, line, 13.5, weight="bold", fill=RED, width=c.width - 32, cls="spell-line")
        y += 20
        if sp.protected:
            c.text(16, y + 12, "protected: " + ", ".join(name(p) for p in sorted(sp.protected)), 13,
                   fill=MUTED, width=c.width - 32)
            y += 18
        for i, r in enumerate(sp.cards):
            card(c, 16 + i * (CARD_W + 6), y + 4, known.get(r), cls="spell-card")
        y += CARD_W * 1.4 + 14
    for s in range(st.n):  # every hand, when the viewer knows every card (the audit's "Everything")
        faces = None if s == seat or s not in st.alive else open_hand(st.hands[s], known)
        if faces:
            c.text(16, y + 12, f"{name(s)}’s hand", 13, weight="bold", fill=SEATS[s % len(SEATS)],
                   width=c.width - 32)
            y = face_row(c, 16, y + 18, faces) + 8
    if seat is not None and seat in st.alive and st.hands[seat]:
        c.text(16, y + 12, "Your hand", 13, fill=MUTED)
        per_row = max(1, int((c.width - 32) // (CARD_W + 6)))
        hand = st.hands[seat]
        for i, r in enumerate(hand):
            card(c, 16 + (i % per_row) * (CARD_W + 6), y + 18 + (i // per_row) * (CARD_W * 1.4 + 8), known.get(r),
                 cls="hand")
        y += 18 + ((len(hand) - 1) // per_row + 1) * (CARD_W * 1.4 + 8)
    return c.done(y)
