"""The Wizard Duel table as text, from one seat's view (or a spectator's, ``seat=None``).

Faces the viewer may see are shown with their refs (``8H w#23``); a card it cannot see is ``[??]``.
Lives are only counted: nobody, their owner included, has seen them.

The state drawn is a ``WizardState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

from duelmail.games.base import GameState, plural
from duelmail.games.cards import Card, CardRef
from duelmail.games.wizard.terms import OVER, PHASE_NAMES


def _card(ref: CardRef, known: Mapping[CardRef, Card]) -> str:
    face = known.get(ref)
    return f"{face} {ref}" if face is not None else f"[??] {ref}"


def render(state: GameState, seat: int | None, known: Mapping[CardRef, Card]) -> str:
    st = state
    lines: list[str] = []
    if st.phase == OVER:
        lines.append(f"Wizard Duel, game over: {st.result.describe()}")
    else:
        who = ", ".join(f"seat {d}" for d in st.deciders()) or "nobody (cards being turned up or shuffled)"
        lines.append(f"Wizard Duel, turn {st.turn} (seat {st.current}), {PHASE_NAMES[st.phase]}; to move: {who}")
    lines.append(f"Stock: {plural(len(st.stock), 'card')} (pile {st.generation + 1} of 2); used: {len(st.used)}")
    for s in range(st.n):
        me = " (you)" if s == seat else ""
        state_ = plural(len(st.lives[s]), "Life", "Lives") if s in st.alive else "out"
        lines.append(f"Seat {s}{me}: {state_}, hand {len(st.hands[s])}")
        if s == seat:
            lines.append(f"  Hand: {'  '.join(_card(r, known) for r in st.hands[s]) or 'empty'}")
    sp = st.spell
    if sp is not None:
        kind = "out-of-turn " if sp.window else ""
        prot = f"; protected: {', '.join(map(str, sorted(sp.protected)))}" if sp.protected else ""
        lines.append(f"Spell: {kind}attack by seat {sp.attacker} at seat {sp.target}, strength {sp.strength}"
                     f"{' (two face cards)' if sp.strike else ''}{prot}")
        lines.append(f"  cards: {', '.join(_card(r, known) for r in sp.cards)}")
    if st.used:
        lines.append(f"Last used: {', '.join(_card(r, known) for r in st.used[-6:])}")
    if seat is not None and seat in st.deciders():
        lines.append(f"Your move: {st.prompt(seat)}")
    return "\n".join(lines)
