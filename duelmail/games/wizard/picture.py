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
from duelmail.games.svg import (
    CARD_W,
    GOLD,
    MUTED,
    RED,
    SEATS,
    TAG_H,
    TAG_W,
    Canvas,
    backs,
    card,
    esc,
    face_row,
    fit,
    n,
    named,
    open_hand,
    seat_name,
    to_move_tag,
    wrap,
)
from duelmail.games.wizard.terms import OVER, PHASE_NAMES

BOX_W, BOX_H = 116, 78
RX, RY = 134, 128  # a box and its glow stay inside the picture at 3 o'clock and 9


def _box(c: Canvas, st: GameState, s: int, at: tuple[float, float], label: str, known: Mapping[CardRef, Card],
         seat: int | None, to_move: bool) -> None:
    """A player's box: its name in its colour, its Lives (three backs, or their faces where ``known`` holds them: the
    replay's everything view) and its hand (backs, or "below" where the picture draws it face up), a gold glow and
    "to move" tag when the rules await it."""
    x, y = at
    colour = SEATS[s % len(SEATS)]
    alive = s in st.alive
    left, up = x - BOX_W / 2, y - BOX_H / 2
    if to_move:
        c.rect(left - 3, up - 3, BOX_W + 6, BOX_H + 6, "none", GOLD, rx=11, cls="glow",
               extra=' stroke-width="7" stroke-opacity="0.6"')
    c.add(f'<g class="seat box{" out" if not alive else ""}" data-seat="{s}">')
    c.rect(left, up, BOX_W, BOX_H, "#ffffff" if alive else "#e4e0d6", colour, rx=8, extra=' stroke-width="3"')
    c.text(x, up + 17, label, 13, anchor="middle", weight="bold", fill=colour, width=BOX_W - 8, cls="seat-name")
    if alive:
        lives = len(st.lives[s])
        faces = [known.get(r) for r in st.lives[s]]
        seen = "face up, from the audit" if None not in faces else "face down: nobody has seen them"
        c.add(f'<g class="lives" data-lives="{lives}"><title>{lives} {"Life" if lives == 1 else "Lives"}, '
              f'{seen}</title>')
        c.text(left + 6, up + 38, "Life" if lives == 1 else "Lives", 13, fill=MUTED)
        for i, face in enumerate(faces):  # a face needs a wider card than a back for its rank ("10") to fit
            if face is None:
                card(c, left + 56 + i * 17, up + 24, None, w=14, cls="life")
            else:
                card(c, left + 44 + i * 21, up + 22, face, w=20, cls="life")
        c.add("</g>")
        c.mark("lives")
        hand = st.hands[s]
        c.text(left + 6, up + 65, "Hand", 13, fill=MUTED)
        if s == seat or (hand and open_hand(hand, known)):
            c.text(left + 56, up + 65, f"{len(hand)}, below", 13, fill=MUTED)
        elif hand:
            backs(c, left + 56, up + 50, len(hand), "", w=14, most=6)
            c.mark("back")
        else:
            c.text(left + 56, up + 65, "none", 13, fill=MUTED)
    else:
        c.text(x, up + 48, "out", 13, anchor="middle", fill=MUTED)
    c.add("</g>")
    if to_move:
        to_move_tag(c, x - TAG_W / 2, up - TAG_H - 4)
        c.mark("turn")


def _exit(x: float, y: float, ux: float, uy: float, tag: bool) -> float:
    """How far from a box's centre, along (ux, uy), the box ends (with its "to move" tag above it, ``tag``), and
    a little more: where the spell's arrow starts or stops, clear of the box and its tag."""
    half_up = BOX_H / 2 + (TAG_H + 4 if tag else 0)
    out = [BOX_W / 2 / abs(ux)] if ux else []
    if uy:
        out.append((half_up if uy < 0 else BOX_H / 2) / abs(uy))
    return min(out) + 6


def _arrow(c: Canvas, a: tuple[float, float], b: tuple[float, float], title: str, tags: tuple[bool, bool]) -> None:
    """The spell in flight: a red dashed arrow from the caster's box edge to the target's (``tags``: whether each
    box has the "to move" tag over it, which the arrow keeps clear of)."""
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1
    ux, uy = dx / length, dy / length
    start, stop = _exit(x1, y1, ux, uy, tags[0]), _exit(x2, y2, -ux, -uy, tags[1])
    hx, hy = x2 - ux * stop, y2 - uy * stop
    c.add(f'<g class="spell"><title>{esc(title)}</title>')
    c.add(f'<line class="arrow-line" x1="{n(x1 + ux * start)}" y1="{n(y1 + uy * start)}" x2="{n(hx - ux * 12)}" '
          f'y2="{n(hy - uy * 12)}" stroke="{RED}" stroke-width="4" stroke-dasharray="10 5" opacity="0.8"/>')
    c.add(f'<path class="arrow-line" d="M{n(hx)} {n(hy)}L{n(hx - ux * 16 - uy * 9)} {n(hy - uy * 16 + ux * 9)}'
          f'L{n(hx - ux * 16 + uy * 9)} {n(hy - uy * 16 - ux * 9)}z" fill="{RED}"/>')
    c.add("</g>")
    c.mark("spell")


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
    cx, cy = c.width / 2, top + RY + BOX_H / 2 + TAG_H + 8
    turn = 0 if seat is None else seat  # the viewer sits at the bottom, a spectator looks from seat 0's side
    at = {}
    for s in range(st.n):
        a = 2 * math.pi * (s - turn) / st.n + (0 if seat is None else math.pi)
        at[s] = (cx + RX * math.sin(a), cy - RY * math.cos(a))
    sp = st.spell
    deciders = set(st.deciders()) if st.phase != OVER else set()
    short = []  # names too long for their box: written whole under the table
    for s in range(st.n):
        label = name(s) + (" (you)" if s == seat else "")
        if fit(label, BOX_W - 8, 13)[0] != label:
            short.append(s)
        _box(c, st, s, at[s], label, known, seat, s in deciders)
    if sp is not None:
        _arrow(c, at[sp.attacker], at[sp.target], f'{"out-of-turn " if sp.window else ""}attack by '
               f'{name(sp.attacker)} at {name(sp.target)}, strength {sp.strength}',
               (sp.attacker in deciders, sp.target in deciders))
    y = cy + RY + BOX_H / 2 + 14
    c.add('<g class="stock">')
    card(c, 16, y, None, w=34)
    c.text(58, y + 20, f"stock {len(st.stock)}", 13, weight="bold")
    c.text(58, y + 38, f"pile {st.generation + 1} of 2", 13, fill=MUTED)
    c.add("</g>")
    if st.used:
        card(c, c.width / 2 + 10, y, known.get(st.used[-1]), w=34, cls="used")
        c.text(c.width / 2 + 52, y + 20, f"used {len(st.used)}", 13)
        c.text(c.width / 2 + 52, y + 38, "the last on top", 13, fill=MUTED)
    y += 34 * 1.4 + 10
    if short:
        c.text(16, y + 12, "Names in full", 13, fill=MUTED)
        y += 18
    for s in short:
        for line in wrap(name(s), c.width - 32):
            c.text(16, y + 12, line, 13, weight="bold", fill=SEATS[s % len(SEATS)], width=c.width - 32,
                   cls="full-name")
            y += 18
    y += 6 if short else 0
    if sp is not None:
        kind = "Out-of-turn attack" if sp.window else "Attack"
        line = (f"{kind} by {name(sp.attacker)} at {name(sp.target)}: strength {sp.strength}"
                + (" (two face cards: no defence)" if sp.strike else ""))
        for part in wrap(line, c.width - 32, 13.5, 3):
            c.text(16, y + 12, part, 13.5, weight="bold", fill=RED, width=c.width - 32, cls="spell-line")
            y += 18
        y += 2
        if sp.protected:
            for part in wrap("protected: " + ", ".join(name(p) for p in sorted(sp.protected)), c.width - 32, 13, 3):
                c.text(16, y + 12, part, 13, fill=MUTED, width=c.width - 32)
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
