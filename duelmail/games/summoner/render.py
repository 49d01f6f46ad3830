"""The Summoner table as text, from one seat's view (or a spectator's, ``seat=None``).

Faces the viewer may see are shown with their refs (``8H s#23``); a card the viewer cannot see
is ``[??]`` with its ref. Summoned cards show their value; a double card shows both refs.

The state drawn is a ``SummonerState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

from duelmail.games.base import GameState
from duelmail.games.cards import Card, CardRef
from duelmail.games.summoner.terms import OVER, PHASE_NAMES, SUMMON_BUDGET, Unit


def _card(ref: CardRef, known: Mapping[CardRef, Card]) -> str:
    face = known.get(ref)
    return f"{face} {ref}" if face is not None else f"[??] {ref}"


def _unit(st: GameState, u: Unit) -> str:
    face = st.face(u.refs[0])
    refs = "+".join(map(str, u.refs))
    tags = ["double"] if len(u.refs) > 1 else []
    if u.attacked:
        tags.append("attacked")
    extra = f", {', '.join(tags)}" if tags else ""
    return f"{face} {refs} ({st.value(u)}{extra})"


def render(state: GameState, seat: int | None, known: Mapping[CardRef, Card]) -> str:
    st = state
    lines: list[str] = []
    if st.phase == OVER:
        lines.append(f"Summoner, game over: {st.result.describe()}")
    else:
        who = ", ".join(f"seat {d}" for d in st.deciders()) or "nobody (cards being revealed)"
        lines.append(f"Summoner, turn {st.turn} (seat {st.current}), {PHASE_NAMES[st.phase]}; to move: {who}; "
                     f"summoned {st.budget} of {SUMMON_BUDGET}")
    lines.append(f"Draw pile: {len(st.pile)} cards; out of play: {len(st.gone)}")
    for s in range(2):
        me = " (you)" if s == seat else ""
        life = f"{st.life[s]} life points" if st.life[s] > 0 else "no life points left"  # never '-6 life points'
        lines.append(f"Seat {s}{me}: {life}, hand {len(st.hands[s])}")
        lines.append(f"  Field: {'; '.join(_unit(st, u) for u in st.field[s]) or 'empty'}")
        if s == seat:
            lines.append(f"  Hand: {'  '.join(_card(r, known) for r in st.hands[s])}")
    if st.damage:
        lines.append(f"Direct attacks this turn: {sum(v for _, v in st.damage)} damage, answered at the start "
                     f"of seat {1 - st.current}'s turn")
    if st.pending:
        lines.append(f"Direct damage waiting for seat {st.current}'s answer: {sum(v for _, v in st.pending)}")
    if st.chain is not None:
        ch = st.chain
        what = f"destroy {ch.target[0]}" if ch.kind == "destroy" else "stop the direct attacks"
        lines.append(f"Jokers thrown to {what}: {', '.join(_card(r, known) for r in ch.jokers)}")
    if st.gone:
        lines.append(f"  last out of play: {', '.join(_card(r, known) for r in st.gone[-5:])}")
    if seat is not None and seat in st.deciders():
        lines.append(f"Your move: {st.prompt(seat)}")
    return "\n".join(lines)
