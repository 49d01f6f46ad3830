"""The Summoner table as one SVG picture, from one seat's view (or a spectator's, ``seat=None``).

Drawn from the same state and known faces as the text view (``render.py``): life points as bars, the draw
pile's count, both fields with each unit's value (a double card drawn as two stacked cards, units that
attacked this turn marked "spent"), the viewer's hand (a card not shown to it yet marked), the opponent's hand as
backs, direct damage waiting and the jokers thrown in a chain; a legend explains the marks.

The state drawn is a ``SummonerState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from duelmail.games.base import GameState
from duelmail.games.cards import Card, CardRef
from duelmail.games.summoner.terms import OVER, PHASE_NAMES, SUMMON_BUDGET
from duelmail.games.svg import (
    CARD_W,
    MUTED,
    RED,
    SEATS,
    Canvas,
    backs,
    card,
    face_row,
    named,
    open_hand,
    seat_band,
    seat_name,
    unseen,
    wrap,
)

FIELD_W = 48  # a unit on the field, bigger than a card in hand
STEP = FIELD_W + 12
ROW = FIELD_W * 1.4 + 30


def picture(st: GameState, seat: int | None, known: Mapping[CardRef, Card],
            names: Sequence[str] | None = None) -> str:
    def name(s: int) -> str:
        return seat_name(names, s)

    c = Canvas(f"Summoner, {'the table' if seat is None else name(seat) + '’s view'}")
    if st.phase == OVER and st.result is not None:
        status = "Game over: " + named(st.result.describe(list(names) if names else None), names)
    else:
        who = ", ".join(name(d) for d in st.deciders()) or "nobody (cards being revealed)"
        status = (f"Turn {st.turn}, {name(st.current)}: {PHASE_NAMES[st.phase]}, summoned {st.budget} of "
                  f"{SUMMON_BUDGET}. To move: {who}")
    y = c.header("Summoner" + ("" if seat is None else f" · {name(seat)}’s view"), status)
    c.add('<g class="deck">')
    card(c, 16, y, None, w=30)
    c.text(54, y + 18, f"Draw pile: {len(st.pile)}", 13.5, weight="bold")
    c.text(54, y + 36, f"out of play: {len(st.gone)}", 13, fill=MUTED)
    c.add("</g>")
    if st.gone:
        c.text(c.width - 16, y + 14, "last out of play", 13, anchor="end", fill=MUTED)
        last = st.gone[-5:]
        for i, r in enumerate(last):
            card(c, c.width - 16 - (len(last) - i) * 30, y + 20, known.get(r), w=28, cls="gone")
    y += 66
    for s in range(2):
        mine = s == seat
        to_move = s in st.deciders() and st.phase != OVER
        extra = seat_band(c, y, s, name(s), you=mine, to_move=to_move)
        faces = None if mine else open_hand(st.hands[s], known)
        if not mine and faces is None:  # beside the name, or under it when the name takes the room
            beside = not extra and 16 + len(name(s)) * 0.68 * 15 + (80 if to_move else 0) < c.width - 156
            if not beside:
                y += extra + 30
            backs(c, c.width - 150 if beside else 16, y - 1, len(st.hands[s]), w=20)  # clear of the bar under it
        else:
            y += extra
        y += 28
        if faces:
            y = face_row(c, 16, y, faces) + 8
        left = f"{st.life[s]} life points" if st.life[s] > 0 else "no life points left"  # never "-6 life points"
        c.bar(16, y, c.width - 32, max(st.life[s], 0), st.start_life, SEATS[s], left)
        y += 28
        c.text(16, y + 12, "Field" if st.field[s] else "Field: empty", 13, fill=MUTED)
        per_row = max(1, int((c.width - 32) // STEP))
        row = ROW + (22 if any(u.attacked for u in st.field[s]) else 0)  # room for "spent" under the value
        for i, u in enumerate(st.field[s]):
            x, top = 16 + (i % per_row) * STEP, y + 18 + (i // per_row) * row
            face = st.face(u.refs[0])
            double = len(u.refs) > 1
            c.add(f'<g class="unit{" double" if double else ""}{" spent" if u.attacked else ""}">'
                  f'<title>{st.value(u)}{", a double card" if double else ""}'
                  f'{", spent: attacked this turn" if u.attacked else ""}</title>')
            if double:  # the second card's edge behind the first (its face is the same)
                c.rect(x + 5, top, FIELD_W, FIELD_W * 1.4, "#ffffff", "#7d7566", rx=4, cls="under")
                c.mark("double")
            card(c, x, top + 5, face, w=FIELD_W)
            if u.attacked:  # under its value, clear of the card
                c.rect(x, top + 5 + FIELD_W * 1.4 + 24, FIELD_W, 18, RED, rx=3, cls="spent-band")
                c.text(x + FIELD_W / 2, top + 5 + FIELD_W * 1.4 + 38, "spent", 13, anchor="middle", fill="#fff",
                       weight="bold")
                c.mark("spent")
            c.text(x + FIELD_W / 2 + 2, top + 5 + FIELD_W * 1.4 + 17, f"{st.value(u)}" + (" x2" if double else ""),
                   14, anchor="middle", weight="bold", cls="value")
            c.add("</g>")
        y += 26 + ((len(st.field[s]) - 1) // per_row + 1) * row if st.field[s] else 24
        if mine and st.hands[s]:
            c.text(16, y + 4, "Your hand", 13, fill=MUTED)
            hand_row = max(1, int((c.width - 32) // (CARD_W + 6)))
            for i, r in enumerate(st.hands[s]):
                hx, hy = 16 + (i % hand_row) * (CARD_W + 6), y + 10 + (i // hand_row) * (CARD_W * 1.4 + 8)
                if r in known:
                    card(c, hx, hy, known[r], cls="hand")
                else:
                    unseen(c, hx, hy, cls="hand")
            y += 10 + ((len(st.hands[s]) - 1) // hand_row + 1) * (CARD_W * 1.4 + 8) + 8
    notes = []
    if st.damage:
        notes.append(f"Direct attacks this turn: {sum(v for _, v in st.damage)} damage, answered at the start of "
                     f"{name(1 - st.current)}’s turn")
    if st.pending:
        notes.append(f"Direct damage waiting for {name(st.current)}’s answer: {sum(v for _, v in st.pending)}")
    for note in notes:
        for line in wrap(note, c.width - 32, 13, 2):
            c.text(16, y + 14, line, 13, fill=RED, weight="bold", width=c.width - 32, cls="damage")
            y += 18
        y += 4
    if st.chain is not None:
        ch = st.chain
        what = "destroy a unit" if ch.kind == "destroy" else "stop the direct attacks"
        c.text(16, y + 14, f"Jokers thrown to {what}:", 13, weight="bold", width=c.width - 32)
        for i, r in enumerate(ch.jokers):
            card(c, 16 + i * (CARD_W + 6), y + 22, known.get(r), cls="chain")
        y += 22 + CARD_W * 1.4 + 10
    return c.done(y)
