"""Every game's picture of the table: what must be on it (from the public view and from a seat), what must
not (another seat's hand, a designed card drawn as a French face), and in a real headless Chromium at 1,400 px
and 400 px wide: text legible, nothing overflowing the screen, the picture or the card it is written on, the
picture as wide as the page lets it be (up to MAX_PX).

Screenshots go to the test's temporary folder; with $DUELMAIL_PICTURES_OUT set (``make pictures``) they are
also written there, which is how docs/pictures/ is made.
"""

from __future__ import annotations

import colorsys
import os
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest
from picture_tables import GAMES, NAMES, table

from duelmail.games.svg import GOLD, MAX_PX, SEATS, inline
from duelmail.pictures import body_html, html_page

SVG = "{http://www.w3.org/2000/svg}"
WIDTHS = {"desktop": 1400, "phone": 400}
FLOOR = {"desktop": 12, "phone": 12}  # the smallest text, in CSS pixels on the screen
MUST = {  # classes that must be on each game's picture (the state tables.py plays to)
    "warlords": ("seat", "warlord", "pile", "discard", "battle", "battle-card"),
    "summoner": ("seat", "bar", "unit", "double", "deck", "value"),
    "grid": ("board", "held", "designed", "battle", "arrow", "strength", "name"),
    "wizard": ("seat", "lives", "stock", "spell", "spell-line"),
    "skirmish": ("grid", "ruler", "terrain", "terrain-label", "character", "range", "fight", "stats"),
}
HAND = {"warlords": "hand", "summoner": "hand", "grid": "hand", "wizard": "hand"}


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request):
    t = table(request.param)
    n = GAMES[request.param][0]
    names = list(NAMES[:n])
    pics = {"public": t.state.picture(None, t.state.public_faces(), names),
            **{f"seat{s}": t.state.picture(s, t.known(s), names) for s in range(n)}}
    return request.param, t, names, pics


def classes(svg: str) -> list[str]:
    root = ElementTree.fromstring(svg)
    return [c for el in root.iter() for c in el.get("class", "").split()]


def test_each_picture_is_plain_svg_with_what_the_game_must_show(game):
    """Plain SVG 1.1 with a viewBox (it scales), nothing a mail client strips (scripts, links, fonts), the players'
    names, and the game's own elements (MUST)."""
    name, t, names, pics = game
    for view, svg in pics.items():
        root = ElementTree.fromstring(svg)
        assert root.tag == f"{SVG}svg" and root.get("version") == "1.1", view
        assert re.fullmatch(r"0 0 400 \d+(\.\d+)?", root.get("viewBox")), root.get("viewBox")
        tags = {el.tag.removeprefix(SVG) for el in root.iter()}
        assert not tags & {"script", "foreignObject", "image", "use", "style", "a"}, (view, tags)
        assert "href" not in svg and "url(" not in svg and "@import" not in svg
        words = " ".join(el.text or "" for el in root.iter(f"{SVG}text"))
        assert all(p in words for p in names), (view, words)
        found = set(classes(svg))
        assert set(MUST[name]) <= found, (view, set(MUST[name]) - found)


def test_a_seat_sees_its_own_hand_and_nobody_elses(game):
    """The public picture draws no hand; a seat's picture draws its hand face up, each card as it is."""
    name, t, names, pics = game
    if name not in HAND:
        return
    st = t.state
    assert "hand" not in classes(pics["public"])
    for s in range(len(names)):
        hand = st.hands[s]
        shown = classes(pics[f"seat{s}"]).count("hand")
        assert shown == (len(hand) if s in getattr(st, "alive", range(len(names))) else 0), (s, shown, len(hand))
        others = [o for o in range(len(names)) if o != s]
        assert all(classes(pics[f"seat{o}"]).count("hand") == len(st.hands[o]) or not st.hands[o] for o in others)
    seat0 = ElementTree.fromstring(pics["seat0"])
    hand_titles = [g.find(f"{SVG}title").text for g in seat0.iter(f"{SVG}g") if "hand" in g.get("class", "").split()]
    assert hand_titles and "face-down" not in " ".join(hand_titles)


def test_grid_cards_are_drawn_as_designed_never_as_french_faces(game):
    """G-3: a designed card is locked under a French face, but the picture names it and its strength."""
    name, t, names, pics = game
    if name != "grid":
        return
    st = t.state
    for view, svg in pics.items():
        root = ElementTree.fromstring(svg)
        titles = " ".join(el.text or "" for el in root.iter(f"{SVG}title"))
        assert not re.search(r"\bof (spades|hearts|diamonds|clubs)\b", titles), view
    seat0 = pics["seat0"]
    for ref in st.hands[0]:
        d = st.card(ref, t.known(0))
        assert f">{d.name}<" in seat0 or f">{d.name[:6]}" in seat0
        assert f"{d.name} {d.strength}" in seat0  # the tile's title: Swordmaster 7, Strike 2 [...]


def test_skirmish_is_drawn_to_scale_with_terrain_where_it_lies(game):
    """K-30: inches from the top left, y down; every piece's label sits over or just under the piece."""
    name, t, names, pics = game
    if name != "skirmish":
        return
    root = ElementTree.fromstring(pics["public"])
    ruler = [el.text for g in root.iter(f"{SVG}g") if g.get("class") == "ruler" for el in g.iter(f"{SVG}text")]
    assert {"0", "12", "24", "36", "48"} <= set(ruler)
    assert "S wall" in pics["public"] and "wall-" not in pics["public"]  # by where it lies, as a map writes it


def page_for(svg: str) -> str:
    return html_page("picture", body_html(inline(svg), ["A picture of the table"]))


MEASURE = """() => {
  const svg = document.querySelector('.picture svg');
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')].map((t) => {
    const r = t.getBoundingClientRect();
    const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    let holder = t.parentElement.closest('g.card, g.designed, g.back, g.battle, g.bar, g.box');
    let inside = true;
    if (holder) {
      const frame = holder.querySelector('rect').getBoundingClientRect();
      inside = r.left >= frame.left - 1 && r.right <= frame.right + 1 && r.top >= frame.top - 1
        && r.bottom <= frame.bottom + 1;
    }
    return {text: t.textContent, px, left: r.left, right: r.right, top: r.top, bottom: r.bottom, inside};
  });
  return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
          box: {left: box.left, right: box.right, top: box.top, bottom: box.bottom, width: box.width}, texts};
}"""


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_pictures_in_chromium_are_legible_and_fit(browser, game, width, tmp_path):
    """At 1,400 px and on a 400 px phone: no sideways scrolling, the picture uses the room it has, every text is
    at least FLOOR px and lies inside the picture (and inside the card, tile or box it is written on)."""
    name, t, names, pics = game
    out = os.environ.get("DUELMAIL_PICTURES_OUT")
    page = browser.new_page(viewport={"width": WIDTHS[width], "height": 900})
    for view in ("public", "seat0"):
        page.set_content(page_for(pics[view]))
        m = page.evaluate(MEASURE)
        assert m["scroll"] <= m["inner"], (view, m["scroll"], m["inner"])
        box = m["box"]
        # it fills the page's column: the whole phone, on a desktop up to its largest (MAX_PX, less the padding)
        assert box["right"] <= m["inner"] and box["width"] >= min(WIDTHS[width], MAX_PX) - 20, (view, box)
        for tx in m["texts"]:
            assert tx["px"] >= FLOOR[width], (view, tx)
            assert box["left"] - 1 <= tx["left"] and tx["right"] <= box["right"] + 1, (view, tx)
            assert box["top"] - 1 <= tx["top"] and tx["bottom"] <= box["bottom"] + 1, (view, tx)
            assert tx["inside"], (view, tx)
        shot = tmp_path / f"{name}-{view}-{width}.png"
        page.locator(".picture").screenshot(path=str(shot))
        assert shot.stat().st_size > 5_000
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, Path(out) / shot.name)
    page.close()


def test_names_from_the_archive_are_escaped_in_every_picture(game):
    """A player's name is whatever its identity says: markup in it stays text, and the picture still parses."""
    name, t, names, pics = game
    evil = ['<b onload="x()">al&ce</b>', *names[1:]]
    for seat in (None, 0):
        known = t.state.public_faces() if seat is None else t.known(seat)
        svg = t.state.picture(seat, known, evil)
        root = ElementTree.fromstring(svg)
        assert "<b " not in svg and "&lt;b onload=" in svg
        words = " ".join(el.text or "" for el in root.iter(f"{SVG}text"))
        assert "<b onload" in words  # drawn as the text it is (shortened where room is short)


def test_a_picture_is_ascii_and_a_name_beyond_ascii_reads_as_written(game):
    """Each character beyond ASCII (a name's, the ``’s view`` of a title, a ``·``) is written as its numeric
    reference: the picture is ASCII (a replay page joins, interns and encodes it at a byte a character) and an
    SVG reader gets the text as written."""
    name, t, names, pics = game
    named = ["Zoë 名", *names[1:]]
    svg = t.state.picture(0, t.known(0), named)
    assert svg.isascii() and "&#235;" in svg
    root = ElementTree.fromstring(svg)
    assert root.get("aria-label").endswith("Zoë 名’s view")
    words = " ".join(el.text or "" for el in root.iter(f"{SVG}text"))
    assert "Zoë 名" in words
    assert all(svg.isascii() for svg in pics.values())


def _hue(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hsv(r, g, b)[0] * 360


def test_seat_colours_are_kept_and_never_the_gold_of_the_player_to_move(game):
    """Each seat's name is in its own colour (SEATS) in every view; no seat colour is gold or yellow (the colour
    of the "to move" tag); the tag is on exactly the seats the rules await, and the legend explains it."""
    name, t, names, pics = game
    assert not [c for c in SEATS if 35 <= _hue(c) <= 75], "a seat colour is gold or yellow"
    assert 35 <= _hue(GOLD) <= 75
    awaited = set(t.state.deciders())
    for view, svg in pics.items():
        root = ElementTree.fromstring(svg)
        fills = {}
        for g in root.iter(f"{SVG}g"):
            if g.get("data-seat") is not None:
                for el in g.iter(f"{SVG}text"):
                    if "seat-name" in el.get("class", "").split():
                        fills[int(g.get("data-seat"))] = el.get("fill")
        assert fills == {s: SEATS[s] for s in range(len(names))}, (view, fills)
        tags = [g for g in root.iter(f"{SVG}g") if g.get("class") == "to-move"]
        assert len(tags) == len(awaited) >= 1, (view, len(tags), awaited)
        assert "the rules await this player" in " ".join(el.text or "" for el in root.iter(f"{SVG}text"))


def test_wizard_hands_of_the_others_are_drawn_as_backs(game):
    """Wizard Duel: every other living player's hand is a fan of backs with its count in its box; the viewer's
    own is face up under the table, not among the backs."""
    name, t, names, pics = game
    if name != "wizard":
        return
    st = t.state
    for view, seat in (("public", None), ("seat0", 0)):
        root = ElementTree.fromstring(pics[view])
        fans = {int(box.get("data-seat")): int(g.get("data-count"))
                for box in root.iter(f"{SVG}g") if box.get("data-seat") is not None
                for g in box.iter(f"{SVG}g") if g.get("class") == "backs"}
        want = {s: len(st.hands[s]) for s in st.alive if st.hands[s] and s != seat}
        assert fans == want and want, (view, fans, want)
