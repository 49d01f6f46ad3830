"""The replay page as a player opens it, in headless Chromium: no spoiler before the last step, the address
selects the step and the view (either alone) and follows them, "Everything" draws every hand, the seats keep the
pictures' colours in every view and in the page's own marks, the table fills its panel, and a 400 px phone opens
on the table with text of 12 px at least."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from replay_archives import GAME

from duelmail.games.svg import MAX_PX, SEATS
from duelmail.replay import load_replay, write_html


def _page(browser, tmp_path, hash_: str, width: int = 1400):
    replay = load_replay(GAME)
    path = write_html(replay, tmp_path / "game.html")
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(path.as_uri() + hash_)
    return replay, page


def _shot(page, name: str) -> None:
    """A screenshot for docs/pictures/ when ``make pictures`` asks for them ($DUELMAIL_PICTURES_OUT)."""
    out = os.environ.get("DUELMAIL_PICTURES_OUT")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(out) / name))


def test_the_result_stays_hidden_until_the_last_step_or_asked_for(browser, tmp_path):
    replay, page = _page(browser, tmp_path, "")
    outcome = replay.outcome()
    assert replay.match.over() and outcome
    top = page.locator("header").inner_text() + page.locator("#tl").inner_text()
    assert outcome not in top and "Show result" in top
    _shot(page, "replay-desktop.png")
    page.keyboard.press("End")
    assert outcome in page.locator("#outcome").inner_text()
    page.keyboard.press("Home")  # once shown it stays shown
    assert outcome in page.locator("#outcome").inner_text()
    page.close()
    replay, page = _page(browser, tmp_path, "#step=2")
    page.click("#show-result")
    assert outcome in page.locator("#outcome").inner_text() and page.evaluate("duelmailReplay.step") == 2
    page.close()


def test_the_address_selects_the_view_and_the_step_and_follows_them(browser, tmp_path):
    replay, page = _page(browser, tmp_path, "#view=s1")
    assert page.evaluate("[duelmailReplay.step, duelmailReplay.view]") == [0, "s1"]
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#step=1&view=s1"
    page.close()
    for hash_, want in (("#step=4", [4, "t"]), ("#view=2&step=3", [3, "s1"]), ("#view=alice", [0, "s0"]),
                        ("#step=5&view=a", [5, "a"]), ("#view=s9", [0, "t"])):
        replay, page = _page(browser, tmp_path, hash_)
        assert page.evaluate("[duelmailReplay.step, duelmailReplay.view]") == want, hash_
        page.close()


def test_everything_draws_every_hand_face_up(browser, tmp_path):
    replay, page = _page(browser, tmp_path, "#step=12&view=a")
    st = replay.steps[12].state
    held = sum(len(h) for h in st.hands)
    assert held >= 2
    assert page.locator("#board .pic svg g.open-hand").count() == held  # no seat's own: every hand, face up
    assert page.locator("#board .pic svg g.backs").count() == 0
    assert "text view" not in page.locator("#board .note").inner_text()
    page.close()


def test_seats_keep_the_pictures_colours(browser, tmp_path):
    replay, page = _page(browser, tmp_path, "")
    css = page.evaluate("[0,1,2,3,4,5,6,7,8,9,10,11].map((s) => getComputedStyle(document.documentElement)"
                        ".getPropertyValue('--s' + s).trim())")
    assert css == list(SEATS)
    page.close()


def test_a_phone_opens_on_the_table_with_legible_text(browser, tmp_path):
    replay, page = _page(browser, tmp_path, "#step=20", width=400)
    m = page.evaluate("""() => { const svg = document.querySelector('#board .pic svg');
      const r = svg.getBoundingClientRect();
      const px = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize)
        * t.getScreenCTM().a);
      return {y: window.scrollY, top: r.top, inner: innerHeight, least: Math.min(...px),
              scroll: document.documentElement.scrollWidth}; }""")
    assert m["y"] == 0 and m["top"] < m["inner"], m  # the table is on screen, not scrolled away
    assert m["least"] >= 12 and m["scroll"] <= 400, m
    _shot(page, "replay-phone.png")
    page.close()


def test_each_seat_keeps_one_colour_in_every_view_and_in_the_page(browser, tmp_path):
    """Each seat's name is drawn in its colour (SEATS) in the table's picture and in each seat's, and the page's
    own marks for that seat (the dots of its events) use the same colour."""
    seen: dict[int, set[str]] = {}
    for view in ("t", "s0", "s1", "a"):
        replay, page = _page(browser, tmp_path, f"#step=12&view={view}")
        names = page.evaluate("""() => [...document.querySelectorAll('#board .pic svg .seat-name')].map((t) =>
          [parseInt(t.closest('[data-seat]').dataset.seat), getComputedStyle(t).fill])""")
        dots = page.evaluate("""() => [...document.querySelectorAll('#event-list li')].map((li) =>
          getComputedStyle(li).getPropertyValue('--c').trim()).filter((c) => c.startsWith('#'))""")
        page.close()
        assert {s for s, _ in names} == {0, 1}, (view, names)
        for s, fill in names:
            seen.setdefault(s, set()).add(fill)
        assert dots and set(dots) <= set(SEATS[:2]), (view, dots)
    rgb = {s: {f"rgb({int(c[1:3], 16)}, {int(c[3:5], 16)}, {int(c[5:7], 16)})"} for s, c in enumerate(SEATS[:2])}
    assert seen == rgb


@pytest.mark.parametrize("width", [1400, 400])
def test_the_table_fills_its_panel(browser, tmp_path, width):
    """The table's picture is as wide as its panel lets it be (up to MAX_PX): no empty felt beside it."""
    replay, page = _page(browser, tmp_path, "#step=12", width=width)
    m = page.evaluate("""() => { const svg = document.querySelector('#board .pic svg');
      const panel = svg.closest('.panel'), cs = getComputedStyle(panel);
      return {svg: svg.getBoundingClientRect().width,
              room: panel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)}; }""")
    page.close()
    assert m["svg"] >= min(m["room"], MAX_PX) - 2, m


def test_move_lines_wrap_and_are_never_cut(browser, tmp_path):
    """The list of moves shows each move whole: a long one wraps under itself, no ellipsis, nothing hidden."""
    replay, page = _page(browser, tmp_path, "#step=12")
    lines = page.evaluate("""() => [...document.querySelectorAll('#timeline li')].map((li) => ({text: li.innerText,
      cut: getComputedStyle(li).textOverflow === 'ellipsis' || li.scrollWidth > li.clientWidth + 1}))""")
    page.close()
    assert len(lines) > 12 and any(len(x["text"]) > 45 for x in lines)
    assert not [x for x in lines if x["cut"]], [x for x in lines if x["cut"]][:3]
