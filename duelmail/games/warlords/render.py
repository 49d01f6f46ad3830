"""The Warlords table as text, from one seat's view (or a spectator's, ``seat=None``).

Faces the viewer may see are shown with their refs (``KH a#3``); anything else is ``[??]``
followed by its ref, so the viewer can still name it (``ace a#9 [??] b#4``).

The state drawn is a ``WarlordsState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    return render_views(state, [(seat, known)])[0]


def render_views(state: GameState, views: Sequence[tuple[int | None, Mapping[CardRef, Card]]]) -> list[str]:
    """``render`` of each ``(seat, known)`` in ``views``: what does not depend on the view is found once."""
    st = state
    if st.phase == OVER:
        head = f"Warlords, game over: {st.result.describe()}"
    else:
        who = ", ".join(f"seat {d}" for d in st.deciders()) or "nobody (cards being revealed or shuffled)"
        head = f"Warlords, turn {st.turn + 1} (seat {st.current}), {PHASE_NAMES[st.phase]}; to move: {who}"
    # Each seat's lines come from ``_seat_lines``, memoised on exactly what they show (the refs, the faces the
    # viewer knows for them, their tags): a replay renders 2n + 1 views a step, and a seat's part rarely changes.
    face_up, used, locked = st.face_up, st.used, st.locked
    seats = []
    for s in range(st.n):
        status = "" if st.active[s] else ", out"
        if st.active[s] and st.revenge and s == st.current:
            status = ", revenge turn"
        ws, disc = tuple(st.warlords[s]), st.discards[s]
        seats.append((s, status, len(st.piles[s]), len(st.hands[s]), ws, tuple(map(face_up.__contains__, ws)),
                      tuple(map(used.__contains__, ws)), len(disc), disc[-1] if disc else None,
                      sum(map(locked.__contains__, disc)) if locked else 0))
    b = st.battle
    deciders = st.deciders()
    # Views that share their faces (every view of a game in progress shares the public ones) share the lines of
    # every seat but the viewer's, and the battle's: each is found once a call, by the faces' identity.
    shared: dict[tuple, tuple[str, ...]] = {}
    out = []
    for seat, known in views:
        get = known.get
        lines = [head]
        for s, status, npile, nhand, ws, up, tags_used, ndisc, top, hidden in seats:
            if s != seat:
                key = (id(known), s)
                part = shared.get(key)
                if part is None:
                    part = shared[key] = _seat_lines(s, False, status, npile, nhand, ws, tuple(map(get, ws)), up,
                                                     tags_used, None, None, None, ndisc, top,
                                                     get(top) if ndisc else None, hidden)
                lines.extend(part)
                continue
            hand = tuple(st.hands[s])
            hand_faces = tuple(map(get, hand))
            pile = st.piles[s]
            next_draw = (pile[-1], known[pile[-1]]) if pile and pile[-1] in known else None  # the reserved draw (W-29)
            lines.extend(_seat_lines(s, True, status, npile, nhand, ws, tuple(map(get, ws)), up, tags_used,
                                     hand, hand_faces, next_draw, ndisc, top, get(top) if ndisc else None, hidden))
        if b is not None:
            key = (id(known), "battle")
            part = shared.get(key)
            if part is None:
                part = [f"Battle: seat {b.attacker} attacks seat {b.defender}",
                        f"  attack:  Warlord {_card(b.a_warlord, known)}, Army {_card(b.a_army, known)}, "
                        f"Support {_card(b.a_support, known)}",
                        f"  defence: Warlord {_card(b.d_warlord, known)}, Army {_card(b.d_army, known)}, "
                        f"Support {_card(b.d_support, known)}"]
                if b.damage:
                    part.append(f"  strength {b.attack} against {b.defence}: {b.damage} damage")
                part = shared[key] = tuple(part)
            lines.extend(part)
        if seat is not None and seat in deciders:
            lines.append(f"Your move: {st.prompt(seat)}")
        out.append(Lines.of(tuple(lines)))
    return out


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
