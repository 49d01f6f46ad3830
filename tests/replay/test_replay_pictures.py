"""The replay page around the game's picture, in headless Chromium: the picture is the main view (the text a
click away), the move list shows faces as each view knew them at each step, autoplay steps through the game,
and the page saves the archive it was built from, which duelmail reads back."""

from __future__ import annotations

from replay_archives import GAME, cheat

from duelmail.games.base import face_words
from duelmail.replay import load_replay, write_html


def test_picture_main_view_moves_with_faces_autoplay_and_saved_archive(browser, tmp_path):
    c = cheat()
    replay = c.replay
    path = write_html(replay, tmp_path / "cheat.html")
    page = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(path.as_uri() + f"#step={c.played.index}&view=t")
    board = page.locator("#board")
    assert board.locator(".pic svg .battle, .pic svg .seat").count() >= 2  # the Warlords picture is drawn
    assert board.locator("details.text-view").get_attribute("open") is None  # the text is folded away
    board.locator("details.text-view summary").click()
    assert "Warlords" in board.locator("details.text-view .tbl").inner_text()
    # the move list: bob's face-down Warlord has no face in the public view, its face in bob's own view
    item = page.locator(f"#tl li[data-i='{c.played.index}']")
    said = item.inner_text()
    assert "bob plays a card face down" in said and str(c.fake) not in said  # in words, never "b#0" (issue 39)
    assert item.locator("svg.card.mini").count() == 0
    page.keyboard.press("2")
    assert item.locator(f"svg.card.mini[data-card='{c.face}']").count() == 1
    assert f"bob plays {face_words(c.face)}" in item.inner_text()
    assert page.locator("#board .pic svg").count() == 1 and "bob (you)" in page.locator("#board .pic").inner_text()
    # autoplay from the start walks forward by itself, and pauses
    page.keyboard.press("Home")
    page.click("#play")
    page.wait_for_selector("body[data-step='2']", timeout=10_000)  # moved on by itself, twice
    page.click("#play")
    assert page.evaluate("document.body.dataset.playing") == "0" and "Play" in page.locator("#play").inner_text()
    # the archive the page was built from, saved and read back
    with page.expect_download() as dl:
        page.click("#save")
    saved = tmp_path / "saved.txt"
    dl.value.save_as(saved)
    again = load_replay(saved)
    assert again.match.gid == replay.match.gid and len(again.steps) == len(replay.steps)
    assert again.verdict()[0] == replay.verdict()[0] == "CHEATING FOUND"
    assert not problems, problems
    page.close()


def test_everything_is_one_picture_of_the_table_not_a_copy_per_seat(browser, tmp_path):
    replay = load_replay(GAME)
    path = write_html(replay, tmp_path / "game.html")
    page = browser.new_page()
    page.goto(path.as_uri() + "#step=12&view=a")
    assert page.locator("#board .panel").count() == 1 and page.locator("#board .pic svg").count() == 1
    assert page.locator("#board .pic svg g.back:not(.pile)").count() == 0  # every card face up (piles aside)
    assert page.locator("#board .pic svg g.card.warlord").count() >= 1
    page.close()
