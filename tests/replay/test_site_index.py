"""The spectator site's index (``duelmail git site``) as a visitor opens it, in headless Chromium, over a
repository of bot games (the examples, some cut short so they are in progress): each game a card with its picture,
its players by name, its state in words; no word cut (no ellipsis, no text running out of its box) and no text
under 12 px on a 400 px phone."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from replay_archives import ROOT, prefix

from duelmail.games.svg import SEATS
from duelmail.replay.site import write_site

SOURCES = {  # example -> the last round kept (None: the whole game, over)
    "summoner-game": None,
    "wizard-game": 20,
    "grid-game": 12,
}

MEASURE = """() => [...document.querySelectorAll('li.game')].map((li) => {
  const about = li.querySelector('.about');
  const boxes = [...about.querySelectorAll('h2, p, span')].map((e) => ({
    text: e.textContent, px: parseFloat(getComputedStyle(e).fontSize), overflow: e.scrollWidth > e.clientWidth + 1
      && getComputedStyle(e).display !== 'inline', ellipsis: getComputedStyle(e).textOverflow === 'ellipsis'}));
  const svg = li.querySelector('.thumb svg');
  const least = svg ? Math.min(...[...svg.querySelectorAll('text')].map((t) =>
    parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)) : null;
  const colours = [...about.querySelectorAll('.players span')].map((e) => getComputedStyle(e).color);
  return {words: about.innerText, boxes, least, colours, right: li.getBoundingClientRect().right};
})"""


def _rgb(colour: str) -> str:
    return f"rgb({int(colour[1:3], 16)}, {int(colour[3:5], 16)}, {int(colour[5:7], 16)})"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    base = tmp_path_factory.mktemp("site")
    repo = base / "repo"
    for i, (name, last) in enumerate(SOURCES.items()):
        folder = repo / f"{name.split('-')[0]}-{i:012x}"
        if last is None:
            shutil.copytree(ROOT / "examples" / name, folder)
        else:
            prefix(ROOT / "examples" / name, folder, last)
    write_site(repo, base / "out")
    return base / "out" / "index.html"


@pytest.mark.parametrize("width", [1400, 400])
def test_chromium_the_index_reads_at_a_glance(browser, site, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(site.as_uri())
    cards = page.evaluate(MEASURE)
    scroll = page.evaluate("document.documentElement.scrollWidth")
    out = os.environ.get("DUELMAIL_PICTURES_OUT")  # make pictures: the index's screenshot for docs/pictures/
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(out) / f"site-{'phone' if width == 400 else 'desktop'}.png"))
    page.close()
    assert len(cards) == len(SOURCES) and scroll <= width
    states = []
    for card in cards:
        words = card["words"]
        assert "alice" in words and "bob" in words, words  # the players by name
        assert card["colours"] == [_rgb(c) for c in SEATS[:len(card["colours"])]] and card["colours"]  # SEATS
        assert not re.search(r"\bseat \d", words) and "\u2026" not in words and "..." not in words, words
        state = next(b["text"] for b in card["boxes"] if b["text"].startswith(("Over", "In progress")))
        states.append(state.split(":")[0].split(",")[0])
        for box in card["boxes"]:
            assert not box["overflow"] and not box["ellipsis"], box  # nothing runs out of its box, cut
            assert box["px"] >= 12, box
        if width == 400:
            assert card["least"] >= 12, card["least"]  # the picture's text too
    assert sorted(states) == ["In progress", "In progress", "Over"]
