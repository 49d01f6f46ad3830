"""The Warlords table as text, from one seat's view (or a spectator's, ``seat=None``).

Faces the viewer may see are shown with their refs (``KH a#3``); anything else is ``[??]``
followed by its ref, so the viewer can still name it (``ace a#9 [??] b#4``).

The state drawn is a ``WarlordsState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

from duelmail.games.base import GameState
from duelmail.games.cards import Card, CardRef
from duelmail.games.warlords.terms import OVER, PHASE_NAMES

_REFS: dict[CardRef, str] = {}  # a ref's text, made once (a replay renders every ref in every view of every step)


def _card(ref: CardRef | None, known: Mapping[CardRef, Card]) -> str:
    if ref is None:
        return "-"
    text = _REFS.get(ref)
    if text is None:
        text = _REFS[ref] = str(ref)
    face = known.get(ref)
    return f"{face} {text}" if face is not None else f"[??] {text}"


def render(state: GameState, seat: int | None, known: Mapping[CardRef, Card]) -> str:
    st = state
    lines: list[str] = []
    if st.phase == OVER:
        lines.append(f"Warlords, game over: {st.result.describe()}")
    else:
        who = ", ".join(f"seat {d}" for d in st.deciders()) or "nobody (cards being revealed or shuffled)"
        lines.append(f"Warlords, turn {st.turn + 1} (seat {st.current}), {PHASE_NAMES[st.phase]}; "
                     f"to move: {who}")
    for s in range(st.n):
        me = " (you)" if s == seat else ""
        status = "" if st.active[s] else ", out"
        if st.active[s] and st.revenge and s == st.current:
            status = ", revenge turn"
        lines.append(f"Seat {s}{me}{status}: draw pile {len(st.piles[s])}, hand {len(st.hands[s])}")
        wl = []
        for w in st.warlords[s]:
            tags = []
            if w in st.face_up:
                tags.append("face up")
            if w in st.used:
                tags.append("used")
            wl.append(_card(w, known) + (f" ({', '.join(tags)})" if tags else ""))
        lines.append(f"  Warlords: {'; '.join(wl) or 'none'}")
        if s == seat:
            lines.append(f"  Hand: {'  '.join(_card(r, known) for r in st.hands[s]) or 'empty'}")
            if st.piles[s] and st.piles[s][-1] in known:  # the reserved draw (W-29)
                lines.append(f"  Next draw: {_card(st.piles[s][-1], known)}")
        disc = st.discards[s]
        hidden = sum(map(st.locked.__contains__, disc)) if st.locked else 0
        top = _card(disc[-1], known) if disc else "empty"
        extra = f", {hidden} face down under it" if hidden else ""
        lines.append(f"  Discard pile {len(disc)}: top {top}{extra}")
    b = st.battle
    if b is not None:
        lines.append(f"Battle: seat {b.attacker} attacks seat {b.defender}")
        lines.append(f"  attack:  Warlord {_card(b.a_warlord, known)}, Army {_card(b.a_army, known)}, "
                     f"Support {_card(b.a_support, known)}")
        lines.append(f"  defence: Warlord {_card(b.d_warlord, known)}, Army {_card(b.d_army, known)}, "
                     f"Support {_card(b.d_support, known)}")
        if b.damage:
            lines.append(f"  strength {b.attack} against {b.defence}: {b.damage} damage")
    if seat is not None and seat in st.deciders():
        lines.append(f"Your move: {st.prompt(seat)}")
    return "\n".join(lines)
