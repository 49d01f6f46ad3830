"""The Warlords table as text, from one seat's view (or a spectator's, ``seat=None``).

Faces the viewer may see are shown with their refs (``KH a#3``); anything else is ``[??]``
followed by its ref, so the viewer can still name it (``ace a#9 [??] b#4``).

The state drawn is a ``WarlordsState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from duelmail.games.base import GameState
from duelmail.games.cards import Card, CardRef
from duelmail.games.warlords.terms import OVER, PHASE_NAMES
from duelmail.util.lines import Lines

_REFS: dict[CardRef, str] = {}  # a ref's text, made once (a replay renders every ref in every view of every step)


def _card(ref: CardRef | None, known: Mapping[CardRef, Card]) -> str:
    return "-" if ref is None else _face(ref, known.get(ref))


def _face(ref: CardRef, face: Card | None) -> str:
    """``KH a#3`` for a face the viewer knows, else ``[??] a#3``."""
    text = _REFS.get(ref)
    if text is None:
        text = _REFS[ref] = str(ref)
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
    # Each seat's lines come from ``_seat_lines``, memoised on exactly what they show (the refs, the faces the
    # viewer knows for them, their tags): a replay renders 2n + 1 views a step, and a seat's part rarely changes.
    get, face_up, used, locked = known.get, st.face_up, st.used, st.locked
    for s in range(st.n):
        status = "" if st.active[s] else ", out"
        if st.active[s] and st.revenge and s == st.current:
            status = ", revenge turn"
        ws = tuple(st.warlords[s])
        pile, disc = st.piles[s], st.discards[s]
        hand = hand_faces = next_draw = None
        if s == seat:
            hand = tuple(st.hands[s])
            hand_faces = tuple(map(get, hand))
            if pile and pile[-1] in known:  # the reserved draw (W-29)
                next_draw = (pile[-1], known[pile[-1]])
        top = disc[-1] if disc else None
        hidden = sum(map(locked.__contains__, disc)) if locked else 0
        lines.extend(_seat_lines(s, s == seat, status, len(pile), len(st.hands[s]), ws, tuple(map(get, ws)),
                                 tuple(map(face_up.__contains__, ws)), tuple(map(used.__contains__, ws)), hand,
                                 hand_faces, next_draw, len(disc), top, get(top) if disc else None, hidden))
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
    return Lines.of(tuple(lines))


@lru_cache(maxsize=1 << 14)
def _seat_lines(s: int, me: bool, status: str, npile: int, nhand: int, warlords: tuple[CardRef, ...],
                faces: tuple[Card | None, ...], up: tuple[bool, ...], used: tuple[bool, ...],
                hand: tuple[CardRef, ...] | None, hand_faces: tuple[Card | None, ...] | None,
                next_draw: tuple[CardRef, Card] | None, ndisc: int, top: CardRef | None, top_face: Card | None,
                hidden: int) -> tuple[str, ...]:
    """Seat ``s``'s lines of the table (``me``: the viewer's own seat, with its hand), from its arguments alone."""
    lines = [f"Seat {s}{' (you)' if me else ''}{status}: draw pile {npile}, hand {nhand}"]
    wl = []
    for w, face, is_up, is_used in zip(warlords, faces, up, used, strict=True):
        tags = (["face up"] if is_up else []) + (["used"] if is_used else [])
        wl.append(_face(w, face) + (f" ({', '.join(tags)})" if tags else ""))
    lines.append(f"  Warlords: {'; '.join(wl) or 'none'}")
    if me:
        lines.append(f"  Hand: {'  '.join(map(_face, hand, hand_faces)) or 'empty'}")
        if next_draw is not None:
            lines.append(f"  Next draw: {_face(*next_draw)}")
    extra = f", {hidden} face down under it" if hidden else ""
    lines.append(f"  Discard pile {ndisc}: top {_face(top, top_face) if ndisc else 'empty'}{extra}")
    return tuple(lines)
