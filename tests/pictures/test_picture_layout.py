"""The layout of every picture over whole bot games, in a real headless Chromium at 1,400 px and 400 px: no two
texts of a picture overlap, none is clipped by the picture's edge or by the card, tile, bar or box it is written
on, and on a phone no text is smaller than 12 px. Every game, every view (public, each seat's, every face), at
positions spread over a whole game between heuristic bots (picture_games.py), several pictures a page.
"""

from __future__ import annotations

import pytest
from picture_games import positions
from picture_tables import GAMES

from duelmail.games.svg import inline
from duelmail.pictures import body_html, html_page

WIDTHS = {"desktop": 1400, "phone": 400}
FLOOR = {"desktop": 12, "phone": 12}  # the smallest text, in CSS pixels on the screen

LAYOUT = """() => [...document.querySelectorAll('.picture svg')].map((svg) => {
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')].map((t) => {
    const r = t.getBoundingClientRect();
    const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    const holder = t.parentElement.closest('g.card, g.designed, g.back, g.battle, g.bar, g.box');
    let inside = true;
    if (holder) {
      const f = holder.querySelector('rect').getBoundingClientRect();
      inside = r.left >= f.left - 1 && r.right <= f.right + 1 && r.top >= f.top - 1 && r.bottom <= f.bottom + 1;
    }
    return {text: t.textContent, px, left: r.left, right: r.right, top: r.top, bottom: r.bottom, inside,
            empty: r.width === 0};
  });
  return {label: svg.closest('[data-label]').dataset.label,
          box: {left: box.left, right: box.right, top: box.top, bottom: box.bottom}, texts};
})"""


def problems(picture: dict, floor: float) -> list[str]:
    """What is wrong with one measured picture: overlapping, clipped or too small texts."""
    box, texts, out = picture["box"], [t for t in picture["texts"] if not t["empty"]], []
    for t in texts:
        if t["px"] < floor - 0.05:
            out.append(f"{t['text']!r} is {t['px']:.1f} px")
        if not (box["left"] - 1 <= t["left"] and t["right"] <= box["right"] + 1
                and box["top"] - 1 <= t["top"] and t["bottom"] <= box["bottom"] + 1):
            out.append(f"{t['text']!r} is cut by the picture's edge")
        if not t["inside"]:
            out.append(f"{t['text']!r} is cut by the card or box it is written on")
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
    body = "".join(f'<div data-label="{label}">{body_html(inline(svg))}</div>' for label, svg in shown.items())
    page = browser.new_page(viewport={"width": WIDTHS[width], "height": 900})
    page.set_content(html_page("pictures", body))
    measured = page.evaluate(LAYOUT)
    page.close()
    assert len(measured) == len(shown)
    found = [f"{p['label']}: {what}" for p in measured for what in problems(p, FLOOR[width])]
    assert not found, "\n".join(found[:40]) + f"\n({len(found)} problems)"
