"""The Warlords table as one SVG picture, from one seat's view (or a spectator's, ``seat=None``).

Drawn from the same state and known faces as the text view (``render.py``): each seat's Warlords
(face up, face down, used), draw pile and discard pile with their counts and top card, the viewer's
hand, and the battle in progress with both sides' cards and, once revealed, the totals.

The state drawn is a ``WarlordsState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from duelmail.games.base import GameState
from duelmail.games.cards import Card, CardRef
from duelmail.games.svg import CARD_W, MUTED, RED, SEATS, Canvas, card, seat_band, seat_name
from duelmail.games.warlords.terms import ARMY, OVER, PHASE_NAMES, SUPPORT, WARLORD

STEP = CARD_W + 6
ROW = CARD_W * 1.4 + 22


def picture(st: GameState, seat: int | None, known: Mapping[CardRef, Card],
            names: Sequence[str] | None = None) -> str:
    def name(s: int) -> str:
        return seat_name(names, s)

    def face(ref: CardRef | None) -> Card | None:
        return None if ref is None else known.get(ref)

    c = Canvas(f"Warlords, {'the table' if seat is None else name(seat) + '’s view'}")
    if st.phase == OVER and st.result is not None:
        status = "Game over: " + st.result.describe(list(names) if names else None)
    else:
        who = ", ".join(name(d) for d in st.deciders()) or "nobody (cards being revealed or shuffled)"
        status = f"Turn {st.turn + 1}, {name(st.current)}: {PHASE_NAMES[st.phase]}. To move: {who}"
    y = c.header("Warlords" + ("" if seat is None else f" · {name(seat)}’s view"), status)
    for s in range(st.n):
        note = f"draw pile {len(st.piles[s])} · hand {len(st.hands[s])}"
        if not st.active[s]:
            note = "out · " + note
        elif st.revenge and s == st.current:
            note = "revenge turn · " + note
        y += seat_band(c, y, s, name(s), note, you=s == seat)
        y += 30
        x = 16
        c.text(x, y + 11, "Warlords", 12, fill=MUTED)
        for w in st.warlords[s]:
            tags = ["up" if w in st.face_up else "down"] + (["used"] if w in st.used else [])
            card(c, x, y + 16, face(w), tag=", ".join(tags), down=w not in st.face_up and w in known,
                 cls="warlord")
            x += STEP
        if not st.warlords[s]:
            c.text(x, y + 50, "none", 12.5, fill=MUTED)
        x = max(x, 16 + 2 * STEP) + 14
        c.text(x, y + 11, "Draw", 12, fill=MUTED)
        if st.piles[s]:
            top = st.piles[s][-1]
            card(c, x, y + 16, known.get(top) if s == seat else None, tag=str(len(st.piles[s])), cls="pile")
        else:
            c.rect(x, y + 16, CARD_W, CARD_W * 1.4, "none", MUTED, rx=4, extra=' stroke-dasharray="3 3"')
            c.text(x + CARD_W / 2, y + 16 + CARD_W * 1.4 + 13, "0", 12, anchor="middle", fill=RED)
        x += STEP + 8
        disc = st.discards[s]
        c.text(x, y + 11, "Discard", 12, fill=MUTED)
        if disc:
            card(c, x, y + 16, known.get(disc[-1]), tag=str(len(disc)), cls="discard")
        else:
            c.rect(x, y + 16, CARD_W, CARD_W * 1.4, "none", MUTED, rx=4, extra=' stroke-dasharray="3 3"')
            c.text(x + CARD_W / 2, y + 16 + CARD_W * 1.4 + 13, "0", 12, anchor="middle", fill=MUTED)
        x += STEP + 8
        if s == seat and st.hands[s]:
            c.text(x, y + 11, "Your hand", 12, fill=MUTED)
            per_row = max(1, int((c.width - x - 6) // STEP))
            for i, r in enumerate(st.hands[s]):
                card(c, x + (i % per_row) * STEP, y + 16 + (i // per_row) * ROW, known.get(r), cls="hand")
            y += ROW * ((len(st.hands[s]) - 1) // per_row)
        y += ROW + 18
    b = st.battle
    if b is not None:
        y = _battle(c, st, b, y, known, face, name)
    return c.svg(y + 6)


def _battle(c: Canvas, st, b, y: float, known, face, name) -> float:
    resolved = all(r in st.faces for r in b.refs())
    c.add('<g class="battle">')
    at, top = len(c.parts), y
    c.text(14, y + 22, f"Battle: {name(b.attacker)} attacks {name(b.defender)}", 15, weight="bold",
           width=c.width - 28)
    y += 34
    for label, who, cards in (("attack", b.attacker, (b.a_warlord, b.a_army, b.a_support)),
                              ("defence", b.defender, (b.d_warlord, b.d_army, b.d_support))):
        c.text(14, y + 12, label, 12.5, fill=SEATS[who % len(SEATS)], weight="bold")
        x = 80
        for ref, role in zip(cards, (WARLORD, ARMY, SUPPORT), strict=True):
            if ref is None:
                x += STEP + 14
                continue
            card(c, x, y, face(ref), tag=role, cls="battle-card", down=ref not in st.faces and ref in known)
            x += STEP + 14
        if resolved:
            total = b.attack if label == "attack" else b.defence
            c.text(c.width - 14, y + 36, f"{total}", 22, anchor="end", weight="bold", cls="total")
        y += 78
    if b.damage:
        c.text(14, y + 6, f"strength {b.attack} against {b.defence}: {b.damage} damage", 13, weight="bold",
               fill=RED, width=c.width - 28)
        y += 16
    c.frame(at, 4, top, c.width - 8, y - top, "#f3ead2", "#b9a66a")
    c.add("</g>")
    return y + 10
