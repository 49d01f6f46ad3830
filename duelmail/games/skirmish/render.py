"""Skirmish in words and pictures: the text table, an SVG map of the battlefield, and the replay's HTML view.

``svg(state)`` draws the terrain (level, uneven, blocking; destructible and projectile pieces marked
with their weight), every character's base and this turn's moves. ``duelmail show --svg FILE`` writes
it; ``html_view`` puts it in the HTML replay. Everything taken from the archive (piece ids, the
battlefield's name) is escaped.
"""

from __future__ import annotations

from html import escape

from duelmail.games.skirmish.geometry import Circle, fmt, pfmt
from duelmail.games.skirmish.notation import STAT_NAMES, STATS

COLOURS = ("#c0392b", "#2471a3", "#229954", "#b9770e", "#7d3c98", "#17202a")
FILL = {"level": "#d5e8c4", "uneven": "#b08d57", "blocking": "#5d6d7e"}


def render_text(state, seat: int | None, known) -> str:
    f = state.field
    lines = [f"DUEL skirmish on {f.name} ({fmt(f.width)}x{fmt(f.height)} inches), turn {state.turn}"]
    totals = state.own_totals(known) if seat is not None else {}
    for s in range(state.n):
        you = " (you)" if s == seat else ""
        status = "standing" if state.alive[s] else "removed"
        stats = "  ".join(
            f"{st} {state.rev[s][st]}" + (f"/{state.totals[s][st]}" if st in state.totals[s] else
                                          f"/{totals[st]}?" if s == seat and st in totals else "")
            + ("x" if st in state.flagged[s] else "") for st in STATS)
        lines.append(f"  seat {s}{you} at {pfmt(state.pos[s])}, {status}: {stats}")
    if seat is not None and totals:
        lines.append("  your character: " + ", ".join(f"{STAT_NAMES[st]} {totals[st]}" for st in STATS
                                                     if st in totals) + " (n/N?: revealed/yours, x: exhausted)")
    pieces = state.pieces()
    if pieces:
        lines.append("  terrain: " + "; ".join(
            f"{p.id} {p.kind}" + (f" destructible {p.destructible}" if p.destructible else "")
            + (f" projectile {p.projectile}" if p.projectile else "") for p in pieces))
    for line in state.lines[-6:]:
        lines.append(f"  > {line}")
    if state.result is not None:
        lines.append(f"  game over: {state.result.reason}")
    elif seat is not None:
        lines.append(f"  you: {state.prompt(seat)}")
    return "\n".join(lines)


def _shape(shape, fill: str, extra: str = "") -> str:
    if isinstance(shape, Circle):
        return (f'<circle cx="{float(shape.c[0]):g}" cy="{float(shape.c[1]):g}" r="{float(shape.r):g}" '
                f'fill="{fill}" {extra}/>')
    pts = " ".join(f"{float(x):g},{float(y):g}" for x, y in shape.points)
    return f'<polygon points="{pts}" fill="{fill}" {extra}/>'


def svg(state, scale: int = 20) -> str:
    """The battlefield as a standalone SVG picture (1 inch = ``scale`` pixels)."""
    f = state.field
    w, h = float(f.width), float(f.height)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * scale:g}" height="{(h + 1.2) * scale:g}" '
           f'viewBox="0 -1.2 {w:g} {h + 1.2:g}" font-family="sans-serif">',
           f'<title>{escape(f.name)}, turn {state.turn}</title>',
           f'<text x="0.2" y="-0.3" font-size="0.9">{escape(f.name)}, turn {state.turn}</text>',
           f'<rect x="0" y="0" width="{w:g}" height="{h:g}" fill="#eef3e2" stroke="#333" stroke-width="0.08"/>']
    for p in state.pieces():
        sh = state.shape(p)
        dash = ' stroke-dasharray="0.3 0.2"' if p.destructible or p.projectile else ""
        out.append(_shape(sh, FILL[p.kind], f'stroke="#333" stroke-width="0.06"{dash}'))
        cx, cy = sh.centre()
        label = p.id + (f" ({p.weight})" if p.weight else "")
        out.append(f'<text x="{float(cx):g}" y="{float(cy):g}" font-size="0.7" text-anchor="middle">'
                   f'{escape(label)}</text>')
    for s, (a, b, mode) in sorted(state.moves.items()):
        dash = ' stroke-dasharray="0.4 0.2"' if mode != "run" else ""
        out.append(f'<line x1="{float(a[0]):g}" y1="{float(a[1]):g}" x2="{float(b[0]):g}" y2="{float(b[1]):g}" '
                   f'stroke="{COLOURS[s % len(COLOURS)]}" stroke-width="0.12"{dash}/>')
    for s in range(state.n):
        x, y = state.pos[s]
        colour = COLOURS[s % len(COLOURS)]
        opacity = "1" if state.alive[s] else "0.3"
        out.append(f'<circle cx="{float(x):g}" cy="{float(y):g}" r="0.5" fill="{colour}" opacity="{opacity}" '
                   'stroke="#000" stroke-width="0.05"/>')
        out.append(f'<text x="{float(x):g}" y="{float(y) + 0.25:g}" font-size="0.7" fill="#fff" '
                   f'text-anchor="middle">{s}</text>')
    out.append("</svg>")
    return "\n".join(out)


def html_view(state, seat: int | None, known) -> str:
    """The replay's view: the battlefield map with this turn's moves (names escaped in ``svg``)."""
    return f'<div class="skirmish-map" style="max-width:40em">{svg(state, 12)}</div>'
