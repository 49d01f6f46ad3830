"""What every game's table picture shares: a plain SVG 1.1 canvas, playing cards, card backs and bars.

A picture is one ``<svg>`` (one element or group a line) with a ``viewBox`` 400 units wide, so it fills a 400 px
phone at about a pixel a unit (``MIN_FONT`` 13 units reads at 12 px or more there) and a desktop column up to
``MAX_PX``; no script, font, stylesheet or link (mail clients strip them), no ``id`` (several pictures may share
a page). Suit symbols are paths, not font glyphs. Text never goes below ``MIN_FONT`` units; a long line wraps at
spaces (``wrap``), and only what is also written whole elsewhere on the picture (a long name) is shortened
(``fit``). Every element a test or a person looks for carries a ``class`` (``card``, ``back``, ``seat``, ...).
Marks that need explaining (a dashed edge, a spent unit) are named with ``Canvas.mark`` and
explained by the legend under the picture. Whatever comes from an archive (names) is escaped here. Cards and
texts are drawn once and reused (a replay page draws thousands of pictures).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from html import escape

from duelmail.games.cards import Card
from duelmail.util.lines import Lines

WIDTH = 400
MIN_FONT = 13
MAX_PX = 960  # the widest a picture is shown (2.4 px a unit): it fills a page's column up to that
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
INK, MUTED, RED, PAPER = "#1d2326", "#5f676c", "#c62828", "#fffdf8"
FELT, FELT_DARK, GOLD = "#1d5a3c", "#154530", "#e0b84c"
# Seat colours: never gold or yellow (GOLD marks the player to move), each its own hue.
SEATS = ("#2f6fc0", "#c8562a", "#7d4fc0", "#23936d", "#127a8a", "#c23f7e", "#4b6372", "#8b1e3f",
         "#5a7d1a", "#8a3a9c", "#3b3b98", "#7a5230")  # one colour a seat, up to twelve
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_WORDS = {11: "jack", 12: "queen", 13: "king", 14: "ace"}
# Suit symbols drawn in a 100x100 box (the replay page's own shapes).
SUIT_PATHS = {
    "H": "M50 92C22 68 2 50 2 29 2 13 14 3 28 3c10 0 18 6 22 15 4-9 12-15 22-15 14 0 26 10 26 26 0 21-20 39-48 63z",
    "D": "M50 2 88 50 50 98 12 50z",
    "S": "M50 3C72 25 97 42 97 63c0 14-10 24-23 24-9 0-16-4-20-11 1 10 6 17 14 22H32c8-5 13-12 14-22-4 7-11 11-20 "
         "11C13 87 3 77 3 63 3 42 28 25 50 3z",
    "C": "M50 5a22 22 0 1 1 0 44 22 22 0 1 1 0-44zM26 38a22 22 0 1 1 0 44 22 22 0 1 1 0-44zM74 38a22 22 0 1 1 0 44 "
         "22 22 0 1 1 0-44zM45 55c0 18-5 32-15 43h40C60 87 55 73 55 55z",
    "star": "M50 4 61 38h36L68 59l11 35-29-21-29 21 11-35L3 38h36z",
}


_SPECIAL = re.compile(r"[&<>\"']")


def esc(text: object) -> str:
    """``text`` as SVG character data or an attribute value, in ASCII: a character beyond it (``·``, ``’``, a
    player's name) as its numeric reference. An ASCII picture joins, counts, hashes and goes into a replay page's
    JSON at a byte a character."""
    text = str(text)
    if _SPECIAL.search(text):
        text = escape(text, quote=True)
    return text if text.isascii() else text.encode("ascii", "xmlcharrefreplace").decode("ascii")


@lru_cache(maxsize=1 << 16)
def n(x: float) -> str:
    """A coordinate to one decimal, without trailing zeros (``12``, ``12.5``)."""
    r = round(x, 1)
    i = int(r)
    return str(i) if i == r else str(r)


def fit(text: str, width: float, size: float = 14, least: float = MIN_FONT) -> tuple[str, float]:
    """``text`` and a font size that fit ``width`` units (at most 0.68 em a character, bold included), shortened
    with '…' if need be."""
    per = 0.68
    if len(text) * per * size <= width:
        return text, size
    size = max(least, width / (per * max(len(text), 1)))
    room = int(width / (per * size))
    return (text if len(text) <= room else text[:max(room - 1, 1)] + "\u2026"), size


def wrap(text: str, width: float, size: float = 13, lines: int = 3) -> list[str]:
    """``text`` broken at spaces into lines of ``width`` units at ``size``, ``lines`` of them as a rule but more
    rather than drop a word: a sentence is never cut (only a single word longer than a line is, by ``fit``)."""
    room = max(int(width / (0.68 * size)), 1)
    out: list[str] = []
    words = text.split(" ")
    while words:
        line = words.pop(0)
        while words and len(line) + 1 + len(words[0]) <= room:
            line += " " + words.pop(0)
        out.append(line)
    return out


XMLNS = ' xmlns="http://www.w3.org/2000/svg"'


def inline(svg: str | None) -> str | None:
    """A picture to put inside an HTML page, which needs no namespace (and so names no URL)."""
    if svg is None:
        return None
    text = svg.replace(XMLNS, "", 1)
    lines = getattr(svg, "lines", None)
    if lines is None:
        return text
    out = Lines(text)
    out.lines = (lines[0].replace(XMLNS, "", 1), *lines[1:])  # the namespace is on the first line
    return out



def card_words(face: Card) -> str:
    """``queen of hearts``, ``red joker``."""
    if face.is_joker:
        return f"{'red' if face.suit == 'R' else 'black'} joker"
    return f"{RANK_WORDS.get(face.rank, str(face.rank))} of {SUIT_WORDS[face.suit]}"


class Canvas:
    """Elements in drawing order, then ``svg(height)`` wraps them."""

    def __init__(self, title: str, width: int = WIDTH):
        self.title = title
        self.width = width
        self.parts: list[str] = []
        self.marks: dict[str, None] = {}  # the marks drawn, in order, for the legend (LEGEND)

    def mark(self, *keys: str) -> None:
        """Note that marks ``keys`` (LEGEND's) are on the picture, so that the legend explains them."""
        self.marks.update(dict.fromkeys(keys))

    def add(self, markup: str) -> None:
        self.parts.append(markup)

    def text(self, x: float, y: float, words: str, size: float = 14, anchor: str = "start", weight: str = "normal",
             fill: str = INK, cls: str = "", width: float | None = None) -> None:
        self.parts.append(_text(x, y, words, size, anchor, weight, fill, cls, width))

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str = "none", rx: float = 0,
             cls: str = "", extra: str = "") -> None:
        c = f' class="{cls}"' if cls else ""
        self.add(f'<rect x="{n(x)}" y="{n(y)}" width="{n(w)}" height="{n(h)}" rx="{n(rx)}" fill="{fill}" '
                 f'stroke="{stroke}"{c}{extra}/>')

    def frame(self, at: int, x: float, y: float, w: float, h: float, fill: str, stroke: str, rx: float = 8) -> None:
        """A box drawn under what was added since ``at = len(canvas.parts)``, once its height is known."""
        self.parts.insert(at, f'<rect x="{n(x)}" y="{n(y)}" width="{n(w)}" height="{n(h)}" rx="{n(rx)}" '
                              f'fill="{fill}" stroke="{stroke}"/>')

    def header(self, title: str, line: str, y: float = 0) -> float:
        """The dark band on top: the game (on two lines if need be) and what happens now (wrapped at spaces).
        Returns the y below it. ``line`` is said as a player reads it (``for_player``: no rule id alone)."""
        from duelmail.games.base import for_player

        line = for_player(line)
        room = self.width - 24
        titles = wrap(title, room, 17, 2)
        lines = [line]
        if len(line) * 0.68 * 13 > room:
            head, dot, rest = line.partition(". ")
            lines = [head + ".", *wrap(rest, room, 13, 2)] if dot and len(head) * 0.68 * 13 < room else \
                wrap(line, room, 13, 3)
        top = 21 * (len(titles) - 1)
        h = 36 + top + 18 * len(lines)
        self.rect(0, y, self.width, h, FELT_DARK)
        for i, text in enumerate(titles):
            self.text(12, y + 22 + 21 * i, text, 17, weight="bold", fill="#f6f3ec", width=room, cls="title")
        for i, text in enumerate(lines):
            self.text(12, y + top + 42 + 18 * i, text, 13, fill=GOLD, width=room, cls="status")
        return y + h + 8

    def bar(self, x: float, y: float, w: float, value: int, whole: int, colour: str, label: str) -> None:
        """A filled bar (life points) with its label over it."""
        part = 0 if whole <= 0 else max(0.0, min(1.0, value / whole))
        self.add(f'<g class="bar"><title>{esc(label)}</title>')
        self.rect(x, y, w, 18, "#e6e1d5", rx=4)
        self.rect(x, y, w * part, 18, colour, rx=4)
        self.text(x + 6, y + 14, label, 13, fill=INK if part < 0.5 else "#fff", weight="bold", width=w - 12)
        self.add("</g>")

    def legend(self, y: float) -> float:
        """The legend of the marks drawn (``mark``) from ``y`` down, a mark and its words a line; the y below it."""
        if not self.marks:
            return y
        self.add('<g class="legend">')
        self.text(16, y + 14, "Key", 13, weight="bold", fill=MUTED)
        y += 20
        for key in self.marks:
            draw, words = LEGEND[key]
            self.add(f'<g class="key" data-mark="{key}" transform="translate(16 {n(y)})">{draw}</g>')
            for i, line in enumerate(wrap(words, self.width - 56, 13, 3)):
                self.text(44, y + 13 + 17 * i, line, 13, fill=MUTED, width=self.width - 56)
            y += 20 + 17 * i
        self.add("</g>")
        return y + 4

    def done(self, y: float) -> str:
        """The legend, if any mark needs one, and the picture (``svg``) ending below it."""
        return self.svg(self.legend(y) + 8)

    def svg(self, height: float) -> str:
        """The picture: its head on the first line, then a line for each part (an empty line if none), then
        ``</svg>`` (a ``Lines``, which keeps its lines for the replay page)."""
        title, h = esc(self.title), n(height)
        head = (f'<svg{XMLNS} version="1.1" width="{self.width}" height="{h}" '
                f'viewBox="0 0 {self.width} {h}" font-family="{FONT}" role="img" '
                f'style="width:100%;max-width:{MAX_PX}px;height:auto" aria-label="{title}">'
                f'<title>{title}</title>'
                f'<rect width="{self.width}" height="{h}" fill="{PAPER}"/>')
        return Lines.of((head, *(self.parts or ("",)), "</svg>"))


@lru_cache(maxsize=1 << 16)
def _text(x: float, y: float, words: str, size: float, anchor: str, weight: str, fill: str, cls: str,
          width: float | None) -> str:
    if width is not None:
        words, size = fit(words, width, size)
    size = max(size, MIN_FONT)
    bold = ' font-weight="bold"' if weight == "bold" else ""
    c = f' class="{cls}"' if cls else ""
    return (f'<text x="{n(x)}" y="{n(y)}" font-size="{n(size)}" text-anchor="{anchor}" fill="{fill}"{bold}{c}>'
            f'{esc(words)}</text>')


CARD_W, CARD_H = 40, 56


def card(c: Canvas, x: float, y: float, face: Card | None, w: float = CARD_W, tag: str = "",
         down: bool = False, cls: str = "") -> None:
    """A French card face (``face``), or its back when the viewer cannot see it (``face=None``).

    ``down``: a card lying face down that this viewer may look at (drawn as its face with a dashed edge).
    ``tag`` is a short word under the card (``used``, ``top``). Each card is drawn once at the origin and moved
    into place (a page of many pictures shares the markup)."""
    c.parts.extend(_card_parts(x, y, face, w, tag, down, cls))


@lru_cache(maxsize=1 << 16)
def _card_parts(x: float, y: float, face: Card | None, w: float, tag: str, down: bool, cls: str) -> tuple[str, ...]:
    """The markup ``card`` adds, made once per place, face and tag (a replay draws the same card in the same place
    in many pictures)."""
    extra = f" {cls}" if cls else ""
    head = "back" if face is None else f'card{extra}" data-card="{face}'
    if face is None:
        head += extra
    out = f'<g class="{head}" transform="translate({n(x)} {n(y)})">{_card_body(face, w, down)}</g>'
    if not tag:
        return (out,)
    return out, _text(x + w / 2, y + w * 1.4 + 14, tag, 13, "middle", "normal", MUTED, "", None)


_BODIES: dict[tuple, str] = {}


def _card_body(face: Card | None, w: float, down: bool) -> str:
    key = (face, w, down)
    body = _BODIES.get(key)
    if body is not None:
        return body
    c = Canvas("")
    h = w * 1.4
    if face is None:
        c.add("<title>a face-down card</title>")
        c.rect(0, 0, w, h, "#2f63ad", "#173a6b", rx=4)
        c.rect(4, 4, w - 8, h - 8, "none", "#9fb8e0", rx=3)
        c.add(f'<path d="M8 {n(h - 8)}L{n(w - 8)} 8M8 8L{n(w - 8)} {n(h - 8)}" stroke="#9fb8e0" '
              'stroke-width="1.5"/>')
    else:
        colour = RED if face.suit in "HDR" else INK
        c.add(f'<title>{card_words(face)}{" (face down)" if down else ""}</title>')
        c.rect(0, 0, w, h, "#ffffff", "#7d7566", rx=4, extra=' stroke-dasharray="4 3"' if down else "")
        rank = "JKR" if face.is_joker else {11: "J", 12: "Q", 13: "K", 14: "A"}.get(face.rank, str(face.rank))
        if not face.is_joker or w >= 36:  # a small joker is its star alone
            c.text(4, 16, rank, 13 if face.is_joker or w < 36 else 15, weight="bold", fill=colour)
        shape = SUIT_PATHS["star" if face.is_joker else face.suit]
        c.add(f'<path transform="translate({n(w * 0.25)} {n(h * 0.42)}) scale({w * 0.5 / 100:.3f})" d="{shape}" '
              f'fill="{colour}"/>')
    body = _BODIES[key] = "".join(c.parts)
    return body


def named(text: str, names: Sequence[str] | None) -> str:
    """The rules' ``seat 1`` as the player's name."""
    if not names:
        return text
    return re.sub(r"\b[Ss]eat (\d+)\b", lambda m: seat_name(names, int(m.group(1))), text)


def seat_name(names: Sequence[str] | None, s: int) -> str:
    return names[s] if names and 0 <= s < len(names) else f"seat {s}"


def seat_band(c: Canvas, y: float, s: int, words: str, note: str = "", you: bool = False,
              to_move: bool = False) -> float:
    """A seat's coloured name line (with the gold "to move" tag when the rules await it; a long name on more lines),
    its note on the right (or on a line of its own when it does not fit there). Returns the height used beyond the
    usual line."""
    parts, extra = _seat_band(c.width, y, s, words, note, you, to_move)
    c.parts.extend(parts)
    if to_move:
        c.mark("turn")
    return extra


TAG_W, TAG_H = 66, 18


def to_move_tag(c: Canvas, x: float, y: float) -> float:
    """The mark of the player to move, the same in every game: a gold tag reading "to move" (never a seat's
    colour, SEATS) at ``x``, ``y`` (its top left); the x after it."""
    c.add('<g class="to-move"><title>the rules await this player</title>')
    c.rect(x, y, TAG_W, TAG_H, GOLD, "#8a6a12", rx=9)
    c.text(x + TAG_W / 2, y + 13.5, "to move", 13, anchor="middle", weight="bold", fill=INK)
    c.add("</g>")
    return x + TAG_W


@lru_cache(maxsize=1 << 14)
def _seat_band(width: int, y: float, s: int, words: str, note: str, you: bool,
               to_move: bool = False) -> tuple[tuple[str, ...], float]:
    """``seat_band``'s markup and extra height, made once per place and words."""
    c = Canvas("", width)
    colour = SEATS[s % len(SEATS)]
    c.add(f'<g class="seat" data-seat="{s}">')
    c.rect(0, y, 8, 22, colour)
    words += " (you)" if you else ""
    tag = TAG_W + 8 if to_move else 0
    most = c.width - 26 - tag - 16
    room = min(max(c.width * 0.6 - tag, most), len(words) * 0.68 * 15 + 4)
    lines = wrap(words, most, 15) if len(words) * 0.68 * 15 > most else [words]  # a long name: on more lines
    for i, line in enumerate(lines):
        c.text(16, y + 16 + 19 * i, line, 15, weight="bold", fill=colour, width=room, cls="seat-name")
    if to_move:
        to_move_tag(c, 16 + room + 6, y + 3)
    room += tag
    extra = 19 * (len(lines) - 1)
    if note and (extra or len(note) * 0.68 * 13 > c.width - room - 40):
        c.text(16, y + extra + 36, note, 13, fill=MUTED, width=c.width - 26)
        extra += 18
    elif note:
        c.text(c.width - 10, y + 16, note, 13, anchor="end", fill=MUTED, width=c.width - room - 40)
    c.add("</g>")
    return tuple(c.parts), extra


def backs(c: Canvas, x: float, y: float, count: int, words: str = "in hand", w: float = 24, most: int = 8,
          below: bool = False) -> float:
    """``count`` face-down cards fanned from ``x`` (a hand nobody else sees), then its count in words (``words``
    empty: the count alone; ``below``: the count alone, under the fan); the x after."""
    label = f"{count} {words}" if words else str(count)
    c.add(f'<g class="backs" data-count="{count}"><title>{esc(label)}, face down</title>')
    shown = min(count, most)
    for i in range(shown):
        c.parts.extend(_card_parts(x + i * w * 0.3, y, None, w, "", False, ""))
    fan = (shown - 1) * w * 0.3 + w if shown else 0
    if below:
        c.text(x + max(fan, w) / 2, y + w * 1.4 + 14, str(count), 13, anchor="middle", fill=MUTED)
        c.add("</g>")
        return x + max(fan, w)
    x += fan + 6 if shown else 0
    c.text(x, y + w * 0.7 + 5, label, 13, fill=MUTED)
    c.add("</g>")
    return x + len(label) * 0.68 * 13


def open_hand(hand: Sequence, known) -> list[Card] | None:
    """Another seat's hand as faces when the viewer knows every card of it (the audit's "Everything"), else None."""
    return [known[r] for r in hand] if hand and all(r in known for r in hand) else None


def face_row(c: Canvas, x: float, y: float, faces: Sequence[Card], w: float = 28, cls: str = "open-hand") -> float:
    """Small cards side by side from ``x`` (another seat's hand, every card known); the y below them."""
    per_row = max(1, int((c.width - x - 10) // (w + 4)))
    for i, face in enumerate(faces):
        card(c, x + (i % per_row) * (w + 4), y + (i // per_row) * (w * 1.4 + 4), face, w=w, cls=cls)
    return y + ((len(faces) - 1) // per_row + 1) * (w * 1.4 + 4)


def unseen(c: Canvas, x: float, y: float, w: float = CARD_W, cls: str = "") -> None:
    """A card of the viewer's own that it has not been shown yet: a back with a gold ring and a "?" (LEGEND)."""
    c.add(f'<g class="unseen {cls}"><title>your card, not shown to you yet</title>')
    c.parts.extend(_card_parts(x, y, None, w, "", False, ""))
    c.add(f'<circle cx="{n(x + w / 2)}" cy="{n(y + w * 0.7)}" r="{n(w * 0.3)}" fill="#fffdf8" stroke="{GOLD}" '
          'stroke-width="2"/>')
    c.text(x + w / 2, y + w * 0.7 + 5, "?", 13, anchor="middle", weight="bold", fill=INK)
    c.add("</g>")
    c.mark("unseen")


_DOWN = ('<rect x="2" y="1" width="13" height="18" rx="2" fill="#fff" stroke="#7d7566" stroke-dasharray="3 2"/>')
_BACK = '<rect x="2" y="1" width="13" height="18" rx="2" fill="#2f63ad" stroke="#173a6b"/>'
LEGEND = {  # a mark -> (its small drawing, 20 units high, and its words)
    "back": (_BACK, "a face-down card: nobody at this view sees it"),
    "down": (_DOWN, "dashed edge: face down on the table, only this view sees it"),
    "unseen": (_BACK + f'<circle cx="8.5" cy="10" r="5" fill="#fffdf8" stroke="{GOLD}"/>',
               "?: your own card, its face not shown to you yet"),
    "spent": (f'<rect x="0" y="5" width="22" height="10" rx="2" fill="{RED}"/>', "spent: attacked this turn"),
    "double": (f'<text x="0" y="15" font-size="13" font-weight="bold" fill="{INK}">x2</text>',
               "two cards stacked: a double card, worth twice its rank"),
    "turn": (f'<rect x="0" y="2" width="24" height="15" rx="7.5" fill="{GOLD}" stroke="#8a6a12"/>',
             "gold tag \u201cto move\u201d: the rules await this player"),
    "lives": (_BACK, "Lives: three face-down cards each, nobody has seen them"),
    "spell": (f'<path d="M0 10H16" stroke="{RED}" stroke-width="3" stroke-dasharray="5 3"/>'
              f'<path d="M24 10 15 5V15z" fill="{RED}"/>', "red arrow: the spell in flight, caster to target"),
    "range": ('<circle cx="11" cy="10" r="8" fill="none" stroke="#4b6372" stroke-dasharray="3 2"/>',
              "dashed circle: how far the character may run this turn"),
    "square": ('<rect x="4" y="3" width="14" height="14" fill="#eef3e2" stroke="#9fae8c"/>', "a square: 1 inch"),
    "stats": (f'<text x="0" y="15" font-size="13" fill="{INK}">4/6</text>',
              "stats: revealed so far / the whole, once every card is shown (? : only you know it)"),
    "open": ('<rect x="2" y="2" width="18" height="16" rx="2" fill="#e3eddc" stroke="#c9c2b0"/>',
             "green: a space the grid may still reach"),
    "battle": (f'<rect x="0" y="5" width="22" height="10" rx="2" fill="{RED}"/>', "red band: attack against defence"),
    "arrow": (f'<path d="M4 4 18 10 4 16z" fill="{INK}"/>', "triangles: the card's arrows"),
}
