"""The table's picture where people look: one self-contained HTML page (``duelmail show --html``) and the
HTML body of a turn mail, both around the game's own SVG (``GameState.picture``, ``games/svg.py``).

Everything here is plain HTML with inline styles: no script, no external font, stylesheet or image, so the
same markup works in a browser and in a mail client's rendering engine. The SVG is inlined (see
docs/transports.md for why); the text view follows it for readers whose client drops SVG.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from duelmail.engine.match import Match
from duelmail.games.svg import MAX_PX, inline


def table_svg(match: Match, seat: int | None) -> str | None:
    """The game's picture of the table as ``seat`` sees it (None: a spectator), with the players' names."""
    return match.state.picture(seat, match.known(seat), match.names())


def inline_svg(match: Match, seat: int | None) -> str | None:
    """The same picture to put inside an HTML page."""
    return inline(table_svg(match, seat))


def table_text(match: Match, seat: int | None) -> str:
    """The game's text view, with names for seats, as a player reads it (no card's position: ``for_player``)."""
    from duelmail.games.base import for_player

    return for_player(match.named(match.state.render(seat, match.known(seat))))


def body_html(svg: str | None, lines: Sequence[str] = (), text: str = "", foot: Sequence[str] = ()) -> str:
    """The page's content: lines of words, the picture (as wide as the page, up to ``MAX_PX``), the text table,
    small print (each escaped but ``svg``)."""
    out = [f'<div style="max-width:{MAX_PX}px;margin:0 auto;padding:8px;font:15px/1.45 Verdana,Arial,sans-serif;'
           'color:#1d2326">']
    for line in lines:  # a newline inside a paragraph: a line break
        out.append(f'<p style="margin:0 0 8px">{escape(line).replace(chr(10), "<br>")}</p>')
    if svg:
        out.append(f'<div class="picture" style="margin:10px 0">{svg}</div>')
    if text:
        out.append('<pre style="white-space:pre-wrap;overflow-wrap:anywhere;font:13px/1.45 Menlo,Consolas,'
                   f'monospace;background:#f6f3ec;padding:8px;border-radius:6px">{escape(text)}</pre>')
    for line in foot:
        out.append(f'<p style="margin:6px 0;color:#5f676c;font-size:13px">{escape(line)}</p>')
    out.append("</div>")
    return "\n".join(out)


def html_page(title: str, body: str) -> str:
    """A whole HTML document around ``body``; it scales to a phone's width."""
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(title)}</title></head>\n'
            f'<body style="margin:0;background:#fffdf8">\n{body}\n</body></html>\n')


def table_page(match: Match, seat: int | None, lately: Sequence[str] = ()) -> str:
    """``duelmail show --html``: the picture of the table over its text view; ``lately``: what just happened (the
    last moves and the cards they showed, as the terminal's ``show`` says it), under the title."""
    who = "the table" if seat is None else f"{match.names()[seat]}’s view"
    title = f"{match.game.spec.title} {match.gid[:12]}: {who}"
    said = ["What just happened:\n" + "\n".join(lately)] if lately else []
    svg = inline_svg(match, seat)
    if svg is None:
        return html_page(title, body_html(None, [title, *said], table_text(match, seat)))
    # a desktop sees the whole table at once: the picture no taller than the window (at its narrowest as wide as a
    # phone's, where it is drawn to be read), the words beside it; a phone gets them one under the other
    return html_page(title, (
        "<style>.table-page .picture svg{display:block;height:auto}"
        "@media (min-width:900px){.table-page .picture svg{max-height:calc(100vh - 16px);width:auto;"
        "max-width:100%}}</style>\n"
        f'<div class="table-page" style="display:flex;flex-wrap:wrap;align-items:flex-start;justify-content:center;'
        f'gap:0 8px;padding:0 8px;max-width:{2 * MAX_PX}px;margin:0 auto">\n'
        f'<div class="picture" style="flex:1 1 400px;max-width:{MAX_PX}px;min-width:0;margin:8px 0">{svg}</div>\n'
        f'<div style="flex:1 1 360px;min-width:0">{body_html(None, [title, *said], table_text(match, seat))}</div>'
        "\n</div>"))
