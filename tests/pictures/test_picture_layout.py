"""The layout of every picture over whole bot games, in a real headless Chromium at 1,400 px and 400 px: no two
texts of a picture overlap, no text lies over a card, a tile's arrow or the spell's arrow, none is clipped by the
picture's edge or by the card, tile, bar or box it is written on, none is shortened with "..." unless it is
written whole elsewhere on the picture, and on a phone no text is smaller than 12 px. Every game, every view
(public, each seat's, every face), at positions spread over a whole game between heuristic bots and over its
busiest moments (picture_games.py), and the position the screenshots show (picture_tables.py), with the bots'
short names and with long ones, several pictures a page.
"""

from __future__ import annotations

import pytest
from picture_games import LONG_NAMES, positions, table_views
from picture_tables import GAMES

from duelmail.games.svg import inline
from duelmail.pictures import body_html, html_page

WIDTHS = {"desktop": 1400, "phone": 400}
FLOOR = {"desktop": 12, "phone": 12}  # the smallest text, in CSS pixels on the screen

LAYOUT = """() => [...document.querySelectorAll('.picture svg')].map((svg) => {
  const box = svg.getBoundingClientRect();
  const rect = (r) => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom});
  const texts = [...svg.querySelectorAll('text')].map((t) => {
    const r = t.getBoundingClientRect();
    const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    const holder = t.parentElement.closest('g.card, g.designed, g.back, g.battle, g.bar, g.box, g.to-move');
    let inside = true;
    if (holder) {
      const f = holder.querySelector('rect').getBoundingClientRect();
      inside = r.left >= f.left - 1 && r.right <= f.right + 1 && r.top >= f.top - 1 && r.bottom <= f.bottom + 1;
    }
    return {text: t.textContent, px, ...rect(r), inside, empty: r.width === 0, el: t};
  });
  // cards and backs: no text over them but their own (a back's "?" mark belongs to it too)
  const cards = [...svg.querySelectorAll('g.card, g.back')].map((g) => {
    const own = g.closest('g.unseen') || g;
    return {what: 'a card', ...rect(g.getBoundingClientRect()), own};
  });
  // drawn arrows and lines: points along their path on the screen, each as wide as the stroke
  const lines = [...svg.querySelectorAll('path.arrow, .arrow-line')].map((el) => {
    const m = el.getScreenCTM(), len = el.getTotalLength();
    const half = (parseFloat(el.getAttribute('stroke-width')) || 1) / 2 * m.a;
    const points = [];
    for (let d = 0; d <= len; d += 2) {
      const p = el.getPointAtLength(d).matrixTransform(m);
      points.push([p.x, p.y]);
    }
    return {what: el.classList.contains('arrow') ? "a tile's arrow" : 'an arrow', half, points};
  });
  const hits = [];
  for (const t of texts) {
    if (t.empty) continue;
    for (const c of cards) {
      if (!c.own.contains(t.el) && t.left + 1 < c.right && c.left + 1 < t.right && t.top + 1 < c.bottom
          && c.top + 1 < t.bottom) hits.push(`${JSON.stringify(t.text)} lies over ${c.what}`);
    }
    for (const l of lines) {
      if (l.points.some(([x, y]) => x + l.half > t.left + 1 && x - l.half < t.right - 1 && y + l.half > t.top + 1
          && y - l.half < t.bottom - 1)) hits.push(`${JSON.stringify(t.text)} is crossed by ${l.what}`);
    }
  }
  return {label: svg.closest('[data-label]').dataset.label, box: rect(box), hits,
          texts: texts.map(({el, ...t}) => t)};
})"""


def problems(picture: dict, floor: float) -> list[str]:
    """What is wrong with one measured picture: overlapping, clipped, shortened or too small texts, texts over a
    card or crossed by an arrow."""
    box, texts, out = picture["box"], [t for t in picture["texts"] if not t["empty"]], list(picture["hits"])
    whole = [t["text"] for t in texts if "\u2026" not in t["text"]]
    for t in texts:
        if t["px"] < floor - 0.05:
            out.append(f"{t['text']!r} is {t['px']:.1f} px")
        if not (box["left"] - 1 <= t["left"] and t["right"] <= box["right"] + 1
                and box["top"] - 1 <= t["top"] and t["bottom"] <= box["bottom"] + 1):
            out.append(f"{t['text']!r} is cut by the picture's edge")
        if not t["inside"]:
            out.append(f"{t['text']!r} is cut by the card or box it is written on")
        if "\u2026" in t["text"]:  # shortened: only if written whole elsewhere on the picture
            head = t["text"].split("\u2026")[0].strip()
            if not any(head in w and len(w) > len(head) for w in whole):
                out.append(f"{t['text']!r} is cut (and written whole nowhere on the picture)")
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            # a pixel of slack each way: glyph boxes of lines set close together may touch
            if (a["left"] + 1 < b["right"] and b["left"] + 1 < a["right"]
                    and a["top"] + 1 < b["bottom"] and b["top"] + 1 < a["bottom"]):
                out.append(f"{a['text']!r} overlaps {b['text']!r}")
    return out


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_chromium_no_text_overlaps_or_is_clipped_over_a_whole_game(browser, game, width):
    """Every view's picture at every sampled position of a whole game: one page holds them all."""
    shown = {f"{game} after {k} moves, {view}": svg for k, pics in positions(game) for view, svg in pics.items()}
    shown.update({f"{game}, the screenshots' table, {view}": svg for view, svg in table_views(game).items()})
    shown.update({f"{game}, long names, {view}": svg for view, svg in table_views(game, LONG_NAMES).items()})
    body = "".join(f'<div data-label="{label}">{body_html(inline(svg))}</div>' for label, svg in shown.items())
    page = browser.new_page(viewport={"width": WIDTHS[width], "height": 900})
    page.set_content(html_page("pictures", body))
    measured = page.evaluate(LAYOUT)
    page.close()
    assert len(measured) == len(shown)
    found = [f"{p['label']}: {what}" for p in measured for what in problems(p, FLOOR[width])]
    assert not found, "\n".join(found[:40]) + f"\n({len(found)} problems)"
