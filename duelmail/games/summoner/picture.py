"""The Summoner table as one SVG picture, from one seat's view (or a spectator's, ``seat=None``).

Drawn from the same state and known faces as the text view (``render.py``): life points as bars, the draw
pile's count, both fields with each unit's value (a double card drawn as two stacked cards, units that
attacked this turn marked), the viewer's hand, direct damage waiting and the jokers thrown in a chain.

The state drawn is a ``SummonerState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from duelmail.games.base import GameState
from duelmail.games.cards import Card, CardRef
from duelmail.games.summoner.terms import OVER, PHASE_NAMES, SUMMON_BUDGET
from duelmail.games.svg import CARD_W, MUTED, RED, SEATS, Canvas, card, seat_band, seat_name

STEP = CARD_W + 10
ROW = CARD_W * 1.4 + 30


def picture(st: GameState, seat: int | None, known: Mapping[CardRef, Card],
            names: Sequence[str] | None = None) -> str:
    def name(s: int) -> str:
        return seat_name(names, s)

    c = Canvas(f"Summoner, {'the table' if seat is None else name(seat) + '’s view'}")
    if st.phase == OVER and st.result is not None:
        status = "Game over: " + st.result.describe(list(names) if names else None)
    else:
        who = ", ".join(name(d) for d in st.deciders()) or "nobody (cards being revealed)"
        status = (f"Turn {st.turn}, {name(st.current)}: {PHASE_NAMES[st.phase]}, summoned {st.budget} of "
                  f"{SUMMON_BUDGET}. To move: {who}")
    y = c.header("Summoner" + ("" if seat is None else f" · {name(seat)}’s view"), status)
    c.add('<g class="deck">')
    card(c, 16, y, None, w=30)
    c.text(56, y + 18, f"Draw pile: {len(st.pile)} cards", 13.5, weight="bold")
    c.text(56, y + 36, f"out of play: {len(st.gone)}", 12.5, fill=MUTED)
    c.add("</g>")
    if st.gone:
        c.text(260, y + 14, "last out of play", 12, fill=MUTED)
        for i, r in enumerate(st.gone[-5:]):
            card(c, 260 + i * 34, y + 20, known.get(r), w=28, cls="gone")
    y += 70
    for s in range(2):
        y += seat_band(c, y, s, name(s), f"hand {len(st.hands[s])}", you=s == seat)
        y += 28
        c.bar(16, y, c.width - 32, st.life[s], st.start_life, SEATS[s], f"{st.life[s]} life points")
        y += 28
        c.text(16, y + 12, "Field" if st.field[s] else "Field: empty", 12, fill=MUTED)
        x = 16
        for u in st.field[s]:
            face = st.face(u.refs[0])
            c.add(f'<g class="unit{" double" if len(u.refs) > 1 else ""}">')
            if len(u.refs) > 1:
                card(c, x + 6, y + 14, face, cls="under")
            card(c, x, y + 20, face)
            tag = f"{st.value(u)}" + (" ×2" if len(u.refs) > 1 else "") + (", attacked" if u.attacked else "")
            c.text(x + CARD_W / 2 + 3, y + 20 + CARD_W * 1.4 + 15, tag, 13, anchor="middle", weight="bold",
                   cls="value")
            c.add("</g>")
            x += STEP + 8
        y += ROW + 22
        if s == seat and st.hands[s]:
            c.text(16, y + 4, "Your hand", 12, fill=MUTED)
            per_row = max(1, int((c.width - 32) // (CARD_W + 6)))
            for i, r in enumerate(st.hands[s]):
                card(c, 16 + (i % per_row) * (CARD_W + 6), y + 10 + (i // per_row) * (CARD_W * 1.4 + 8),
                     known.get(r), cls="hand")
            y += 10 + ((len(st.hands[s]) - 1) // per_row + 1) * (CARD_W * 1.4 + 8) + 8
    notes = []
    if st.damage:
        notes.append(f"Direct attacks this turn: {sum(v for _, v in st.damage)} damage, answered at the start of "
                     f"{name(1 - st.current)}’s turn")
    if st.pending:
        notes.append(f"Direct damage waiting for {name(st.current)}’s answer: {sum(v for _, v in st.pending)}")
    for note in notes:
        c.text(16, y + 14, note, 13, fill=RED, weight="bold", width=c.width - 32, cls="damage")
        y += 22
    if st.chain is not None:
        ch = st.chain
        what = "destroy a unit" if ch.kind == "destroy" else "stop the direct attacks"
        c.text(16, y + 14, f"Jokers thrown to {what}:", 13, weight="bold", width=c.width - 32)
        for i, r in enumerate(ch.jokers):
            card(c, 16 + i * (CARD_W + 6), y + 22, known.get(r), cls="chain")
        y += 22 + CARD_W * 1.4 + 10
    return c.svg(y + 8)
