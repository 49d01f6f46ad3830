"""The DUEL skirmish battlefield as one SVG picture, from one seat's view (or a spectator's, ``seat=None``).

Drawn to scale from the same state as the text view (``render.py``): an inch grid with a ruler along the
top and left edges (K-30: inches from the table's top left corner, x to the right, y down), every terrain
piece drawn and labelled where it lies, each character's base with its name, its range this turn (a run
of its revealed speed, K-11) and its revealed stats, this turn's moves, the fight in progress and the last
events. The viewer's own stat totals are shown only in its own view.

The state drawn is a ``SkirmishState``; ``rules.py`` imports this module, so this module never imports
``rules.py``: what both need is in ``terms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from duelmail.games.base import GameState, for_player
from duelmail.games.cards import Card, CardRef
from duelmail.games.skirmish.geometry import Circle
from duelmail.games.skirmish.terms import BASE_RADIUS, piece_words
from duelmail.games.svg import MUTED, RED, SEATS, Canvas, esc, n, named, seat_band, seat_name, wrap

FILL = {"level": "#cfe3bb", "uneven": "#b8966a", "blocking": "#5d6d7e"}
KIND_WORDS = {"level": "level ground", "uneven": "uneven: climb it", "blocking": "blocking: impassable"}
LEFT, TOP = 26, 22


def picture(st: GameState, seat: int | None, known: Mapping[CardRef, Card],
            names: Sequence[str] | None = None) -> str:
    from duelmail.games.skirmish.notation import STATS

    def name(s: int) -> str:
        return seat_name(names, s)

    f = st.field
    c = Canvas(f"DUEL skirmish on {f.name}, {'the table' if seat is None else name(seat) + '’s view'}")
    if st.result is not None:
        status = "Game over: " + named(st.result.reason, names)
    else:
        who = ", ".join(name(d) for d in st.deciders()) or "nobody"
        status = f"Turn {st.turn}. To move: {who}"
    y0 = c.header(f"{f.name} ({float(f.width):g} × {float(f.height):g} in)"
                  + ("" if seat is None else f" · {name(seat)}’s view"), status)
    w, h = float(f.width), float(f.height)
    k = (c.width - LEFT - 14) / w  # units per inch
    ox, oy = LEFT, y0 + TOP

    def X(x) -> float:  # noqa: N802
        return ox + float(x) * k

    def Y(y) -> float:  # noqa: N802
        return oy + float(y) * k

    c.add('<g class="grid">')
    c.rect(ox, oy, w * k, h * k, "#eef3e2", "#333", extra=' stroke-width="1.5"')
    lines = []
    for i in range(1, int(w)):
        lines.append(f'<line x1="{n(X(i))}" y1="{n(oy)}" x2="{n(X(i))}" y2="{n(Y(h))}" '
                     f'stroke="{"#9fae8c" if i % 6 == 0 else "#d7dfc9"}" stroke-width="{1 if i % 6 == 0 else 0.5}"/>')
    for j in range(1, int(h)):
        lines.append(f'<line x1="{n(ox)}" y1="{n(Y(j))}" x2="{n(X(w))}" y2="{n(Y(j))}" '
                     f'stroke="{"#9fae8c" if j % 6 == 0 else "#d7dfc9"}" stroke-width="{1 if j % 6 == 0 else 0.5}"/>')
    c.add("".join(lines))
    c.add("</g>")
    c.add('<g class="ruler">')
    for i in range(6, int(w) + 1, 6):
        c.text(X(i), oy - 6, f"{i}", 12, anchor="middle", fill=MUTED)
    for j in range(6, int(h) + 1, 6):
        c.text(ox - 5, Y(j) + 4, f"{j}", 12, anchor="end", fill=MUTED)
    c.text(ox - 5, oy - 6, "in", 12, anchor="end", fill=MUTED)
    c.text(ox, oy - 6, "0", 12, anchor="middle", fill=MUTED)
    c.add("</g>")
    placed: list[tuple[float, float, float]] = []  # labels so far: x, baseline y, half width

    def place(x: float, y: float, label: str, size: float, anchor_y: float) -> tuple[float, float]:
        """Where a label of ``size`` units centred at ``x`` goes: at baseline ``y`` if no label placed so far is in
        the way, else the nearest free line above or below (kept on the field)."""
        half = len(label) * 0.68 * size / 2 + 4
        x = min(max(x, ox + half), X(w) - half)
        for dy in (0, 16, -16, 32, -32, 48, -48, 64, -64, 80, -80, 96):
            ty = min(max(y + dy, oy + size), Y(h) - 3)
            if not any(abs(x - ax) < half + bh and abs(ty - ay) < 16 for ax, ay, bh in placed):
                break
        placed.append((x, ty, half))
        return x, ty

    at: dict[int, tuple[float, float]] = {}  # the characters' names first: each next to its base
    for s in range(st.n):
        x, y = st.pos[s]
        r = max(float(BASE_RADIUS) * k, 6)
        label = name(s) + ("" if st.alive[s] else " (removed)")
        at[s] = place(X(x), Y(y) - r - 4 if Y(y) - r - 16 > oy else Y(y) + r + 14, label, 13, Y(y))
    labels: list[str] = []  # the terrain labels, drawn over the lines
    for p in st.pieces():
        sh = st.shape(p)
        dash = ' stroke-dasharray="4 3"' if p.destructible or p.projectile else ""
        what = KIND_WORDS[p.kind] + (f", destructible (weight {p.destructible})" if p.destructible else "") + (
            f", projectile (weight {p.projectile})" if p.projectile else "")
        c.add(f'<g class="terrain {p.kind}"><title>{esc(piece_words(p.id))}: {esc(what)}</title>')
        if isinstance(sh, Circle):
            c.add(f'<circle cx="{n(X(sh.c[0]))}" cy="{n(Y(sh.c[1]))}" r="{n(float(sh.r) * k)}" fill="{FILL[p.kind]}" '
                  f'stroke="#333" stroke-width="1"{dash}/>')
        else:
            pts = " ".join(f"{n(X(x))},{n(Y(y))}" for x, y in sh.points)
            c.add(f'<polygon points="{pts}" fill="{FILL[p.kind]}" stroke="#333" stroke-width="1"{dash}/>')
        cx, cy = sh.centre()
        label = piece_words(p.id, short=True) + (f" ({p.weight})" if p.weight else "")  # "S wall": the moves' "south
        # wall" as a map labels it
        _, y0_, _, y1 = (float(v) for v in sh.box)
        tx, ty = place(X(cx), Y(cy) + 4 if (y1 - y0_) * k > 14 else Y(y1) + 14, label, 13, Y(cy))
        labels.append(f'<text x="{n(tx)}" y="{n(ty)}" font-size="13" text-anchor="middle" fill="#1d2326" '
                      f'stroke="#fff" stroke-width="3" paint-order="stroke" class="terrain-label">{esc(label)}</text>')
        c.add("</g>")
    for s, (a, b, mode) in sorted(st.moves.items()):
        dash = ' stroke-dasharray="6 3"' if mode != "run" else ""
        c.add(f'<line class="move" x1="{n(X(a[0]))}" y1="{n(Y(a[1]))}" x2="{n(X(b[0]))}" y2="{n(Y(b[1]))}" '
              f'stroke="{SEATS[s % len(SEATS)]}" stroke-width="2.5"{dash}/>')
    fight = st.fight
    fighters = set(fight["members"]) if fight else set()
    if fight:
        ms = [s for s in fight["members"] if st.alive[s]]
        for i, a in enumerate(ms):
            for b in ms[i + 1:]:
                c.add(f'<line class="fight" x1="{n(X(st.pos[a][0]))}" y1="{n(Y(st.pos[a][1]))}" '
                      f'x2="{n(X(st.pos[b][0]))}" y2="{n(Y(st.pos[b][1]))}" stroke="{RED}" stroke-width="4" '
                      'opacity="0.6"/>')
    c.parts.extend(labels)  # over this turn's moves and the fight's lines, under the characters
    for s in range(st.n):
        x, y = st.pos[s]
        colour = SEATS[s % len(SEATS)]
        c.add(f'<g class="character{" removed" if not st.alive[s] else ""}" data-seat="{s}">'
              f'<title>{esc(name(s))}, {esc(named(st.whereabouts(s), names))}</title>')  # where, in words
        spd = st.rev[s]["spd"]
        if st.alive[s] and spd and st.result is None:
            c.mark("range")
            c.add(f'<circle class="range" cx="{n(X(x))}" cy="{n(Y(y))}" r="{n(spd * k)}" fill="{colour}" '
                  f'fill-opacity="0.08" stroke="{colour}" stroke-width="1" stroke-dasharray="5 4"/>')
        r = max(float(BASE_RADIUS) * k, 6)
        ring = f' stroke="{RED if s in fighters else "#000"}" stroke-width="{3 if s in fighters else 1}"'
        c.add(f'<circle cx="{n(X(x))}" cy="{n(Y(y))}" r="{n(r)}" fill="{colour}" '
              f'opacity="{1 if st.alive[s] else 0.35}"{ring}/>')
        label = name(s) + ("" if st.alive[s] else " (removed)")
        tx, ty = at[s]
        c.add(f'<text x="{n(tx)}" y="{n(ty)}" font-size="13" text-anchor="middle" font-weight="bold" '
              f'fill="{colour}" stroke="#fff" stroke-width="3" paint-order="stroke" class="name">{esc(label)}</text>')
        c.add("</g>")
    y = Y(h) + 8
    c.mark("square", "stats")
    own = st.own_totals(known) if seat is not None else {}
    for s in range(st.n):
        stats = "  ".join(f"{stat.upper()} {st.rev[s][stat]}" + (f"/{st.totals[s][stat]}" if stat in st.totals[s]
                                                                  else f"/{own[stat]}?" if s == seat and stat in own
                                                                  else "") for stat in STATS)
        note = "removed" if not st.alive[s] else ("fighting" if s in fighters else "")
        y += seat_band(c, y, s, name(s), note, you=s == seat, to_move=s in st.deciders() and not st.is_terminal())
        c.text(24, y + 36, stats, 13, cls="stats", width=c.width - 40)
        y += 46
    if fight:
        acting = name(fight["acting"])
        for line in wrap(f"Fight: {', '.join(name(s) for s in fight['members'])}; {acting} acts", c.width - 32,
                         13.5):
            c.text(16, y + 14, line, 13.5, weight="bold", fill=RED, width=c.width - 32, cls="fight-line")
            y += 18
        y += 4
    for line in st.lines[-4:]:
        for part in wrap(for_player(named(line, names)), c.width - 32, 13, 2):
            c.text(16, y + 12, part, 13, fill=MUTED, width=c.width - 32, cls="news")
            y += 18
    return c.done(y)
