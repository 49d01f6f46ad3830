"""Skirmish in words: the text table (the battlefield's picture is ``picture.py``)."""

from __future__ import annotations

from duelmail.games.skirmish.geometry import fmt
from duelmail.games.skirmish.notation import STAT_NAMES, STATS
from duelmail.games.skirmish.terms import piece_words


def render_text(state, seat: int | None, known) -> str:
    f = state.field
    lines = [f"DUEL skirmish on {f.name} ({fmt(f.width)}x{fmt(f.height)} inches), turn {state.turn}"]
    totals = state.own_totals(known) if seat is not None else {}
    for s in range(state.n):
        you = " (you)" if s == seat else ""
        status = "standing" if state.alive[s] else "removed"
        stats = ", ".join(
            f"{STAT_NAMES[st]} {state.rev[s][st]}" + (f"/{state.totals[s][st]}" if st in state.totals[s] else
                                                      f"/{totals[st]}?" if s == seat and st in totals else "")
            + ("x" if st in state.flagged[s] else "") for st in STATS)
        lines.append(f"  seat {s}{you}, {state.whereabouts(s)}, {status}: {stats}")  # where in words, no coordinate
    if seat is not None and totals:
        lines.append("  your character: " + ", ".join(f"{STAT_NAMES[st]} {totals[st]}" for st in STATS
                                                     if st in totals) + " (n/N?: revealed/yours, x: exhausted)")
    pieces = state.pieces()
    if pieces:
        lines.append("  terrain: " + "; ".join(
            f"{piece_words(p.id)} {p.kind}" + (f" destructible {p.destructible}" if p.destructible else "")
            + (f" projectile {p.projectile}" if p.projectile else "") for p in pieces))
    for line in state.lines[-6:]:
        lines.append(f"  > {line}")
    if state.result is not None:
        lines.append(f"  game over: {state.result.reason}")
    elif seat is not None:
        lines.append(f"  you: {state.prompt(seat)}")
    return "\n".join(lines)
