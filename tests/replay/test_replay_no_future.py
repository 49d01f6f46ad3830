"""Issue 39 item 4: the replay page never tells the future. In a real headless Chromium (``tests/chromium.py``), at
400 and 1,280 px, for the Warlords, Grid and Wizard examples: the list of moves shows the moves up to the current
step and each later one only as its round ("R25 ..."), keeps the current row in view, never names a card by its
position nor one the table still shows face down, and the events count the protocol's bookkeeping in words; the
Wizard "Everything" view draws the Lives face up."""

from __future__ import annotations

import re

import pytest
from replay_archives import ROOT

from duelmail.games.base import PUBLIC, face_words
from duelmail.replay import load_replay, write_html

POSITION = re.compile(r"[a-z]+[0-9]*(?:\.[0-9]+)?#[0-9]+")

ROWS = """ol => [...ol.children].map((li) => { const r = li.getBoundingClientRect(), box = ol.getBoundingClientRect();
  return { text: li.textContent, cur: li.classList.contains("cur"),
           inView: r.top >= box.top - 1 && r.bottom <= box.bottom + 1 }; })"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Each example's replay and page, written once for the module."""
    out = tmp_path_factory.mktemp("pages")
    made = {}
    for game in ("warlords", "grid", "wizard"):
        replay = load_replay(ROOT / "examples" / f"{game}-game")
        made[game] = (replay, write_html(replay, out / f"{game}.html"))
    return made


def face_down(replay, index: int) -> set[str]:
    """The faces (in words) of the cards lying on the table face down at step ``index``, which no list may name."""
    step = replay.steps[index]
    shown = {r for r, who in step.state.visibility().items() if who == PUBLIC}
    public = {str(c) for r, c in step.public.items()}
    return {face_words(c) for r, c in replay.all_faces.items()
            if r not in shown and r not in step.public and str(c) not in public}


@pytest.mark.parametrize("width", [400, 1280])
@pytest.mark.parametrize("game", ["warlords", "grid", "wizard"])
def test_the_moves_end_at_the_current_step_which_stays_in_view(browser, pages, game, width):
    replay, path = pages[game]
    n = len(replay.steps)
    page = browser.new_page(viewport={"width": width, "height": 900})
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    for at in (n // 7, n // 2, n - 2):
        page.goto(f"{path.as_uri()}#step={at}")
        page.reload()  # the address alone does not reload a page already open at that file
        assert page.evaluate("document.body.dataset.step") == str(at)
        rows = page.locator("#tl").evaluate(ROWS)
        assert len(rows) == n
        assert [i for i, r in enumerate(rows) if r["cur"]] == [at]
        assert rows[at]["inView"], (game, width, at, rows[at])  # the list follows the current row
        for i, r in enumerate(rows[at + 1:], at + 1):  # nothing of what is to come, its round alone
            assert re.fullmatch(r"R\d+ \.\.\.", r["text"]), (game, at, i, r["text"])
        said = " ".join(r["text"] for r in rows[:at + 1]) + page.locator("#event-list").inner_text()
        assert rows[at]["text"].startswith("start" if at == 0 else f"R{replay.steps[at].round} ")
        assert not POSITION.search(said), POSITION.search(said)  # "a face-down card", never "b#22"
        assert not re.search(r"pass on deck|published keys|shuffle_lock", said)  # bookkeeping: counted, in words
        hidden = [w for w in face_down(replay, at) if re.search(rf"{re.escape(w)}\b", said)]
        assert not hidden, (game, at, hidden)
        titles = page.locator("#strip i").evaluate_all("els => els.map((e) => e.title)")
        assert all(":" not in t for t in titles[at + 1:])  # the strip's tooltips neither
    page.keyboard.press("ArrowRight")  # stepping on uncovers the next move, and the list follows
    rows = page.locator("#tl").evaluate(ROWS)
    assert rows[n - 1]["cur"] and rows[n - 1]["inView"] and not rows[n - 1]["text"].endswith("...")
    assert not problems, problems
    page.close()


def test_the_wizard_everything_view_draws_the_lives_face_up(browser, pages):
    replay, path = pages["wizard"]
    at = len(replay.steps) // 3
    lives = [r for s in replay.steps[at].state.alive for r in replay.steps[at].state.lives[s]]
    assert lives
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{path.as_uri()}#step={at}&view=a")
    drawn = page.locator("#board .pic g.lives g.card").evaluate_all("els => els.map((e) => e.dataset.card)")
    assert sorted(drawn) == sorted(str(replay.all_faces[r]) for r in lives)
    assert page.locator("#board .pic g.lives g.back").count() == 0
    page.keyboard.press("t")  # the table: nobody has seen a Life, so backs
    assert page.locator("#board .pic g.lives g.card").count() == 0
    assert page.locator("#board .pic g.lives g.back").count() == len(lives)
    page.close()
