"""The Grid Duel table as one SVG picture, from one seat (or a spectator, ``seat=None``).

Drawn from the same state and known faces as the text view (``render.py``), and turned the same way (seat 1
sees the board from its side): the 5x5 area with the spaces the 3x3 grid may still float to, every card
by its designed name and strength (never the French face it is locked under), its arrows in the direction
they point once it is face up and oriented, face-down cards as backs (or, for their owner, dashed), battles
with the attack stacked on the defence and both totals, the spaces each seat holds, piles and the hand.

The state drawn is a ``GridState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from duelmail.games.base import GameState
from duelmail.games.cards import Card, CardRef
from duelmail.games.grid.terms import CENTRE, OVER, SCORE, aim, frame_ok, pos_name, seat_of
from duelmail.games.svg import INK, MUTED, RED, SEATS, Canvas, backs, esc, n, named, seat_band, seat_name, wrap

if TYPE_CHECKING:
    from duelmail.games.grid.library import CardDef

CELL = 72
LEFT = 26


def _arrows(c: Canvas, x: float, y: float, w: float, h: float, dirs: list[tuple[int, int]], colour: str) -> None:
    """Small triangles astride the tile's edge (clear of its name and strength), one per arrow, pointing (dx, dy)
    on screen."""
    cx, cy = x + w / 2, y + h / 2
    for dx, dy in dirs:
        px, py = cx + dx * (w / 2), cy + dy * (h / 2)
        norm = (dx * dx + dy * dy) ** 0.5 or 1
        ux, uy = dx / norm, dy / norm
        c.add(f'<path class="arrow" d="M{n(px + ux * 4)} {n(py + uy * 4)}L{n(px - ux * 4 - uy * 5)} '
              f'{n(py - uy * 4 + ux * 5)}L{n(px - ux * 4 + uy * 5)} {n(py - uy * 4 - ux * 5)}z" fill="{colour}"/>')


def _fits(text: str, width: float, size: float = 13) -> bool:
    return len(text) * 0.68 * size <= width


def abbreviation(name: str, width: float, size: float = 13) -> str:
    """A designed name's short form for a tile of ``width`` units: its longest beginning that fits with a full
    stop, ending on a consonant (``Stand.``, ``Sold.``), explained in full under the board."""
    room = max(int(width / (0.68 * size)) - 1, 2)
    head = name[:room].rstrip(" -")
    while len(head) > 3 and head[-1].lower() in "aeiouy -":
        head = head[:-1]
    return head + "."


def _two_lines(name: str, width: float) -> list[str] | None:
    """``name`` on two lines broken after its last space or hyphen, if both fit ``width``; else None."""
    for i in range(len(name) - 1, 0, -1):
        if name[i] in " -":
            first, second = name[:i + 1].rstrip(), name[i + 1:]
            if _fits(first, width) and _fits(second, width):
                return [first, second]
    return None


def _tile(c: Canvas, x: float, y: float, w: float, h: float, d: CardDef | None, owner: int, *, down: bool,
          dirs: list[tuple[int, int]] = (), value: int | None = None, more: int = 0, cls: str = "") -> None:
    """A designed card: its name and strength (value: the strength it counts with here), or its back. A name too
    long for the tile goes on two lines where the tile is tall enough, else as its abbreviation (``Canvas.cut``,
    written in full under the board)."""
    colour = SEATS[owner]
    if d is None:
        c.add(f'<g class="back {cls}"><title>a face-down card of {esc(c.names[owner])}</title>')
        c.rect(x, y, w, h, "#2f63ad", colour, rx=5, extra=' stroke-width="3"')
        c.rect(x + 5, y + 5, w - 10, h - 10, "none", "#9fb8e0", rx=3)
        c.text(x + w / 2, y + h / 2 + 6, "?", 18, anchor="middle", fill="#dfe8f6", weight="bold")
        c.add("</g>")
        return
    c.add(f'<g class="designed {cls}"><title>{esc(d.summary())}{" (face down)" if down else ""}</title>')
    dash = ' stroke-dasharray="5 3"' if down else ""
    c.rect(x, y, w, h, "#ffffff" if not down else "#eef1f6", colour, rx=5, extra=f' stroke-width="3"{dash}')
    room = w - 10
    lines = [d.name] if _fits(d.name, room) else (_two_lines(d.name, room) if h >= 84 else None)
    if lines is None:
        short = abbreviation(d.name, room)
        c.cut[d.name] = (short, d.summary())
        lines = [short]
    for i, line in enumerate(lines):
        c.text(x + w / 2, y + 17 + 15 * i, line, 13, anchor="middle", weight="bold", cls="name")
    strength = str(d.strength if value is None else value)
    if h >= 56:  # the big number under the name
        c.text(x + w / 2, y + min(h / 2 + 12, 50) + 15 * (len(lines) - 1), strength, 22, anchor="middle",
               weight="bold", fill=colour, cls="strength")
    else:  # a short tile (a battle's band under it): a smaller number
        c.text(x + w / 2, y + h - 6, strength, 15, anchor="middle", weight="bold", fill=colour, cls="strength")
    extras = [a.split(" [")[0] for a in d.abilities()]
    if more and h >= 84:
        c.text(x + w / 2, y + h - 7, f"+{more} {'card' if more == 1 else 'cards'}", 13, anchor="middle",
               fill=colour, weight="bold", width=room, cls="more")
    elif extras and h >= 84:
        shown = list(extras)
        words = ", ".join(shown)
        while len(shown) > 1 and not _fits(words, room):
            shown.pop()
            words = ", ".join(shown) + f" +{len(extras) - len(shown)}"
        if shown != extras or not _fits(words, room):
            c.cut.setdefault(d.name, ("", d.summary()))
        c.text(x + w / 2, y + h - 9, words, 13, anchor="middle", fill=MUTED, width=room)
    _arrows(c, x, y, w, h, list(dirs), colour)
    c.add("</g>")


def picture(st: GameState, seat: int | None, known: Mapping[CardRef, Card],
            names: Sequence[str] | None = None) -> str:
    def name(s: int) -> str:
        return seat_name(names, s)

    c = Canvas(f"Grid Duel, {'the table' if seat is None else name(seat) + '’s view'}")
    c.names = [name(0), name(1)]
    c.cut = {}  # designed names shortened on a tile -> (the short form, the card in words)
    decks = f"{st.deck_names[0]} vs {st.deck_names[1]}"
    if st.phase == OVER and st.result is not None:
        status = "Game over: " + named(st.result.describe(list(names) if names else None), names)
    elif st.phase == SCORE:
        status = f"Scoring ({st.ended_by}): the table’s cards are being revealed"
    else:
        who = name(st.current) if st.deciders() else "nobody (cards being revealed)"
        status = f"Turn {st.turn + 1}. To move: {who}"
    y = c.header(f"Grid Duel ({decks})" + ("" if seat is None else f" · {name(seat)}’s view"), status)
    flip = seat == 1
    cols = list(range(5))[::-1] if flip else list(range(5))
    rows = list(range(5)) if flip else list(range(5))[::-1]
    sx, sy = (-1, 1) if flip else (1, -1)  # a board step (column +1, row +1) on screen
    occ = list(st.spaces)
    area = {p for p in range(25) if p in st.spaces or (frame_ok([*occ, p]) if occ else p == CENTRE)}
    top = y + 16
    for i, col in enumerate(cols):
        c.text(LEFT + i * CELL + CELL / 2, top - 4, "abcde"[col], 13, anchor="middle", fill=MUTED)
    for j, row in enumerate(rows):
        c.text(LEFT - 12, top + j * CELL + CELL / 2 + 5, str(row + 1), 13, anchor="middle", fill=MUTED)
    c.add('<g class="board">')
    for j, row in enumerate(rows):
        for i, col in enumerate(cols):
            p = col + 5 * row
            x, yy = LEFT + i * CELL, top + j * CELL
            fill = "#e3eddc" if p in area else "#efece4"
            c.rect(x + 1, yy + 1, CELL - 2, CELL - 2, fill, "#c9c2b0", rx=4,
                   cls="space" + (" open" if p in area else ""))
            sp = st.spaces.get(p)
            if sp is None:
                if p in area:
                    c.mark("open")
                    c.text(x + CELL / 2, yy + CELL / 2 + 5, pos_name(p), 13, anchor="middle", fill="#9aa596")
                continue
            c.add(f'<g class="held" data-pos="{pos_name(p)}" data-owner="{sp.owner}">')
            h = CELL - 8 if not sp.attack else CELL - 30
            ref = sp.holder[0]
            d = st.card(ref, known)
            dirs = []
            if d is not None and ref in st.orient and ref in st.face_up and d.has_arrows:
                for q in aim(CENTRE, d.arrows, st.orient[ref], seat_of(ref)):
                    dc, dr = q % 5 - 2, q // 5 - 2
                    dirs.append((dc * sx, dr * sy))
            value = None
            if d is not None:
                defending = sp.defending()
                if all(st.card(r, known) is not None for r in defending):
                    value = sum(st.card(r, known).strength for r in defending)
            _tile(c, x + 4, yy + 4, CELL - 8, h, d, sp.owner, down=ref not in st.face_up, dirs=dirs, value=value,
                  more=len(sp.holder) - 1 + len(sp.allies), cls="holder")
            if dirs:
                c.mark("arrow")
            if ref not in st.face_up and d is not None:
                c.mark("down")
            if sp.attack:
                c.mark("battle")
                a = ", ".join(str(st.card(r, known).strength) if st.card(r, known) else "?"
                              for u in sp.attack for r in u)
                band = f"{st.attack(p)} vs {st.defence(p)}" if not st.waiting() else f"atk {a}"
                if not _fits(band, CELL - 12):  # whole words, shorter: 10 v 11, or the attackers' count
                    band = (f"{st.attack(p)} v {st.defence(p)}" if not st.waiting()
                            else f"atk {len(a.split(', '))} cards")
                c.add(f'<g class="battle"><title>attacked by {esc(name(1 - sp.owner))}: {esc(band)}</title>')
                c.rect(x + 4, yy + CELL - 26, CELL - 8, 22, RED, rx=4)
                c.text(x + CELL / 2, yy + CELL - 10, band, 13, anchor="middle", fill="#fff", weight="bold",
                       width=CELL - 12)
                c.add("</g>")
            c.add("</g>")
    c.add("</g>")
    y = top + 5 * CELL + 14
    count, _ = st.score()
    for s in (0, 1):
        note = (f"holds {count[s]} · pile {len(st.piles[s])} · hand {len(st.hands[s])} · "
                f"discards {len(st.discards[s])}")
        y += seat_band(c, y, s, f"{name(s)} ({st.deck_names[s]})", note, you=s == seat,
                       to_move=s in st.deciders() and st.phase != OVER)
        y += 30
        shown = s == seat or all(st.card(r, known) is not None for r in st.hands[s])
        if not shown and st.hands[s]:
            backs(c, 16, y - 2, len(st.hands[s]), w=20)
            y += 34
        if shown and st.hands[s]:
            w, h = 116, 92
            per_row = max(1, int((c.width - 26) // (w + 6)))
            for i, r in enumerate(st.hands[s]):
                _tile(c, 16 + (i % per_row) * (w + 6), y + (i // per_row) * (h + 6), w, h, st.card(r, known), s,
                      down=False, cls="hand" if s == seat else "open-hand")
            y += ((len(st.hands[s]) - 1) // per_row + 1) * (h + 6) + 6
    for _, (short, words) in sorted(c.cut.items()):
        for line in wrap(f"{short} = {words}" if short else words, c.width - 32, 13, 3):
            c.text(16, y + 12, line, 13, fill=INK, width=c.width - 32, cls="full-name")
            y += 18
    for note in st.news[-3:]:
        for line in wrap(named(note, names), c.width - 32, 13, 2):
            c.text(16, y + 12, line, 13, fill=RED if "takes" in note else MUTED, width=c.width - 32, cls="news")
            y += 18
    return c.done(y)
