"""The Warlords table as one SVG picture, from one seat's view (or a spectator's, ``seat=None``).

Drawn from the same state and known faces as the text view (``render.py``): each seat's Warlords
(face up, face down, used), draw pile and discard pile with their counts and top card, the viewer's
hand, and the battle in progress with both sides' cards and, once revealed, the totals.

The state drawn is a ``WarlordsState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from duelmail.games.base import GameState
from duelmail.games.cards import Card, CardRef
from duelmail.games.svg import (
    CARD_W,
    MUTED,
    RED,
    SEATS,
    Canvas,
    backs,
    card,
    named,
    open_hand,
    seat_band,
    seat_name,
    wrap,
)
from duelmail.games.warlords.terms import ARMY, OVER, PHASE_NAMES, SUPPORT, WARLORD

STEP = CARD_W + 6
ROW = CARD_W * 1.4 + 22


def picture(st: GameState, seat: int | None, known: Mapping[CardRef, Card],
            names: Sequence[str] | None = None) -> str:
    return picture_views(st, [(seat, known)], names)[0]


def picture_views(st: GameState, views: Sequence[tuple[int | None, Mapping[CardRef, Card]]],
                  names: Sequence[str] | None = None) -> list[str]:
    """``picture`` of each ``(seat, known)`` in ``views``: what does not depend on the view is found once."""
    def name(s: int) -> str:
        return seat_name(names, s)

    if st.phase == OVER and st.result is not None:
        status = "Game over: " + named(st.result.describe(list(names) if names else None), names)
    else:
        who = ", ".join(name(d) for d in st.deciders()) or "nobody (cards being revealed or shuffled)"
        status = f"Turn {st.turn + 1}, {name(st.current)}: {PHASE_NAMES[st.phase]}. To move: {who}"
    # Each seat's part comes from ``_seat_parts``, memoised on exactly what it draws (its place, the faces the viewer
    # knows, their tags): a replay draws up to n + 2 pictures a step, and a seat's part rarely changes.
    face_up, used = st.face_up, st.used
    seats = []
    deciders = set(st.deciders()) if st.phase != OVER else set()
    for s in range(st.n):
        state = "out" if not st.active[s] else "revenge turn" if st.revenge and s == st.current else ""
        ws, pile, disc = tuple(st.warlords[s]), st.piles[s], st.discards[s]
        seats.append((s, name(s), state, len(st.hands[s]), ws, tuple(map(face_up.__contains__, ws)),
                      tuple(map(used.__contains__, ws)), len(pile), pile[-1] if pile else None, len(disc),
                      disc[-1] if disc else None))
    # Views that share their faces (every view of a game in progress shares the public ones) share the parts of
    # every seat but the viewer's, and the battle: each is found once a call, by the faces' identity and its y.
    shared: dict[tuple, tuple[tuple[str, ...], float]] = {}
    out = []
    for seat, known in views:
        get = known.get

        def face(ref: CardRef | None, get=get) -> Card | None:
            return None if ref is None else get(ref)

        c = Canvas(f"Warlords, {'the table' if seat is None else name(seat) + '’s view'}")
        y = c.header("Warlords" + ("" if seat is None else f" · {name(seat)}’s view"), status)
        for s, words, state, nhand, ws, up, tags_used, npile, pile_top, ndisc, disc_top in seats:
            mine = s == seat
            key = (id(known), s, y)
            done = None if mine else shared.get(key)
            if done is None:
                done = _seat_parts(c.width, y, s, words, state, nhand, mine, tuple(map(get, ws)), up, tags_used,
                                   tuple(map(known.__contains__, ws)), npile,
                                   get(pile_top) if npile and mine else None, ndisc,
                                   get(disc_top) if ndisc else None,
                                   tuple(map(get, st.hands[s])) if mine or open_hand(st.hands[s], known) else (),
                                   s in deciders)
                if not mine:
                    shared[key] = done
            c.parts.extend(done[0])
            y = done[1]
            c.mark(*done[2])
        if st.battle is not None:
            key = (id(known), "battle", y)
            done = shared.get(key)
            if done is None:
                part = Canvas("", c.width)
                below = _battle(part, st, st.battle, y, known, face, name)
                done = shared[key] = (tuple(part.parts), below, tuple(part.marks))
            c.parts.extend(done[0])
            y = done[1]
            c.mark(*done[2])
        out.append(c.done(y))
    return out


@lru_cache(maxsize=1 << 14)
def _seat_parts(width: int, y: float, s: int, words: str, state: str, nhand: int, mine: bool,
                faces: tuple[Card | None, ...], up: tuple[bool, ...], used: tuple[bool, ...], known: tuple[bool, ...],
                npile: int, pile_face: Card | None, ndisc: int, disc_face: Card | None,
                hand: tuple[Card | None, ...], to_move: bool = False) -> tuple[tuple[str, ...], float, tuple[str, ...]]:
    """Seat ``s``'s part of the picture from ``y`` down (``mine``: the viewer's own seat, with its hand), from its
    arguments alone: the markup and the y below it. ``state``: "out", "revenge turn" or "". ``faces``, ``up``,
    ``used``, ``known``: its Warlords' faces as the viewer knows them (None: a back), face up, used, and seen by
    the viewer (a face-down card drawn dashed); ``to_move``: the rules await it. Also the marks drawn, for the
    legend."""
    c = Canvas("", width)
    y += seat_band(c, y, s, words, state, you=mine, to_move=to_move)
    y += 30
    x = 16
    c.text(x, y + 11, "Warlords", 13, fill=MUTED)
    for face, is_up, is_used, is_known in zip(faces, up, used, known, strict=True):
        tags = ["up" if is_up else "down"] + (["used"] if is_used else [])
        card(c, x, y + 16, face, tag=", ".join(tags), down=not is_up and is_known, cls="warlord")
        if not is_up and is_known:
            c.mark("down")
        x += STEP + (14 if is_used else 0)
    if not faces:
        c.text(x, y + 50, "none", 13, fill=MUTED)
    x = max(x, 16 + 2 * STEP) + 14
    _pile(c, x, y, "Draw", npile, pile_face, "pile", RED)  # an empty draw pile is shown in red
    x += STEP + 10
    _pile(c, x, y, "Discard", ndisc, disc_face, "discard", MUTED)
    x += STEP + 18
    if not mine and not hand and state != "out":
        c.text(x, y + 11, "Hand", 13, fill=MUTED)
        backs(c, x, y + 16, nhand, w=CARD_W, most=4, below=True)
    y += ROW + 26
    if hand:
        c.text(16, y + 4, "Your hand" if mine else "Hand", 13, fill=MUTED)
        per_row = max(1, int((c.width - 32) // STEP))
        for i, face in enumerate(hand):
            card(c, 16 + (i % per_row) * STEP, y + 10 + (i // per_row) * (CARD_W * 1.4 + 8), face,
                 cls="hand" if mine else "open-hand")
        y += 10 + ((len(hand) - 1) // per_row + 1) * (CARD_W * 1.4 + 8) + 10
    return tuple(c.parts), y, tuple(c.marks)


def _pile(c: Canvas, x: float, y: float, label: str, count: int, top, cls: str, empty: str) -> None:
    """A pile under its label: its top card and count, or a dashed outline and "0" in the colour ``empty``."""
    c.text(x, y + 11, label, 13, fill=MUTED)
    if count:
        card(c, x, y + 16, top, tag=str(count), cls=cls)
    else:
        c.rect(x, y + 16, CARD_W, CARD_W * 1.4, "none", MUTED, rx=4, extra=' stroke-dasharray="3 3"')
        c.text(x + CARD_W / 2, y + 16 + CARD_W * 1.4 + 14, "0", 13, anchor="middle", fill=empty)


def _battle(c: Canvas, st, b, y: float, known, face, name) -> float:
    resolved = all(r in st.faces for r in b.refs())
    c.add('<g class="battle">')
    at, top = len(c.parts), y
    for line in wrap(f"Battle: {name(b.attacker)} attacks {name(b.defender)}", c.width - 28, 15):
        c.text(14, y + 22, line, 15, weight="bold", width=c.width - 28)
        y += 19
    y += 15
    for label, who, cards in (("attack", b.attacker, (b.a_warlord, b.a_army, b.a_support)),
                              ("defence", b.defender, (b.d_warlord, b.d_army, b.d_support))):
        c.text(14, y + 12, label, 13, fill=SEATS[who % len(SEATS)], weight="bold")
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
        for line in wrap(f"strength {b.attack} against {b.defence}: {b.damage} damage", c.width - 28):
            c.text(14, y + 16, line, 13, weight="bold", fill=RED, width=c.width - 28)
            y += 18
        y += 6
    c.frame(at, 4, top, c.width - 8, y - top, "#f3ead2", "#b9a66a")
    c.add("</g>")
    return y + 10
