"""Issue 39 (5): several games in one home, a join run twice, and what just happened on the page of the table.
With no game named, play, moves and show take the one game that awaits you and say which; 'status --all' names
the game and the opponents; a second 'join' writes the first one's file again; 'show --html' says the last moves."""

from __future__ import annotations

import html
import os
import re
import shutil
from pathlib import Path

import clitable
from clitable import dm, runner, snapshot

from duelmail.cli import main


def _two_games(tmp_path):
    """Alice's home with two Warlords games against bob: one awaiting her (its first turn), one awaiting bob."""
    a, b = clitable.Table(tmp_path / "one"), clitable.Table(tmp_path / "two")
    a.settle()
    b.settle()
    b.turn(b.alice, "end")
    b.settle()
    for folder in (b.alice / "games").iterdir():
        shutil.copytree(folder, a.alice / "games" / folder.name)
    mine = next(p.name for p in (a.alice / "games").iterdir() if not (p / "r0004-s0.toml").exists())
    return a, mine


def test_with_several_games_play_moves_and_show_take_the_one_awaiting_you_and_say_which(tmp_path):
    t, mine = _two_games(tmp_path)
    said = f"game {mine} (Warlords, against bob): the one game awaiting you"
    listed = runner.invoke(main, ["--home", str(t.alice), "status", "--all"])
    assert listed.exit_code == 0
    lines = sorted(line for line in listed.output.splitlines() if "round" in line)
    assert len(lines) == 2 and all(" Warlords against bob, round " in line for line in lines), lines
    assert any(line.startswith(mine[-12:]) and "awaiting you" in line for line in lines)
    for args in (["moves"], ["show"]):
        out = dm(t.alice, *args)
        assert out.startswith(said + "\n"), out
    assert "End the turn" in dm(t.alice, "moves")
    out = t.turn(t.alice, "end")
    assert said in out and "alice ends the turn" in out
    assert (t.alice / "games" / mine / "r0004-s0.toml").exists()
    out = dm(t.alice, "moves", code=1)  # now none awaits her: the game is to be named, as before
    assert "games in play here; name one" in out and "Traceback" not in out


def test_join_run_again_after_a_first_run_writes_the_same_file_again(tmp_path):
    """A first 'join' that stopped before its file went out (here: its copy lost): a second one writes it again,
    the same file, and changes nothing else."""
    t = clitable.Table(tmp_path)
    first = (t.out / "r0001-s1.toml").read_bytes()
    (t.out / "r0001-s1.toml").unlink()
    before = snapshot(t.bob)
    out = dm(t.bob, "join", str(t.out / "genesis.toml"), "--out", str(t.out))
    assert re.search(r"^joined game \w{12} as seat 1 \(bob\)$", out, re.M) and "not sent" not in out
    assert (t.out / "r0001-s1.toml").read_bytes() == first
    assert snapshot(t.bob) == before
    t.settle()
    assert t.status(t.alice)["your_turn"]


def test_show_html_says_what_just_happened_as_the_terminal_does(tmp_path):
    """'show --html' carries the lines the terminal's 'show' gives under "lately:" (the last moves, the cards they
    showed), under the title."""
    t = clitable.Table(tmp_path)
    t.play_turns(3)
    text = dm(t.bob, "show")
    lately = re.search(r"^lately:\n((?:  .+\n)+)", text, re.M).group(1).splitlines()
    assert lately
    page = tmp_path / "table.html"
    out = dm(t.bob, "show", "--html", str(page), "--no-open")
    assert f"wrote {page}" in out
    body = page.read_text()
    assert "What just happened:<br>" in body
    for line in lately:
        assert html.escape(line.strip(), quote=True) in body, line


PAGE = """() => {
  const svg = document.querySelector('.picture svg').getBoundingClientRect();
  const px = [...document.querySelectorAll('.picture svg text')].map(
    (t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  return {scroll: document.documentElement.scrollWidth, inner: innerWidth, top: svg.top, bottom: svg.bottom,
          width: svg.width, smallest: Math.min(...px), text: document.body.innerText};
}"""


def test_show_html_fits_the_first_screen_of_a_desktop_and_a_phone_s_width(browser, tmp_path):
    """Issue 39 (5), in Chromium: at 1,280 x 800 px the whole picture of the table is on the first screen, its words
    beside it, every text in it at least 12 px; at 400 px nothing scrolls sideways and the picture takes the
    phone's width; both say what just happened."""
    t = clitable.Table(tmp_path)
    t.play_turns(3)
    page_file = tmp_path / "table.html"
    dm(t.bob, "show", "--html", str(page_file), "--no-open")
    for width, height in ((1280, 800), (400, 800)):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(page_file.as_uri())
        m = page.evaluate(PAGE)
        out = os.environ.get("DUELMAIL_PICTURES_OUT")  # 'make pictures': docs/pictures.md shows the page
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(out) / f"show-{'desktop' if width > 900 else 'phone'}.png"))
        page.close()
        assert m["scroll"] <= m["inner"], (width, m["scroll"])
        assert m["smallest"] >= 12, (width, m["smallest"])
        assert "What just happened:" in m["text"]
        if width == 1280:
            assert m["top"] >= 0 and m["bottom"] <= height, m
        else:
            assert m["width"] >= width - 24, m
