"""The page in a real headless Chromium (Debian's, driven by Playwright): step controls, keys, the timeline,
the cards shown at a given round for each view, and a screenshot.

The browser comes from ``tests/chromium.py`` (no download; skipped outside CI when missing).
"""

from __future__ import annotations

import re

from replay_archives import GAME, cheat

from duelmail.games.base import face_words
from duelmail.replay import load_replay, write_html

CARD = re.compile(r"\[\?\?\]|(?<![\w#.])(?:10|[2-9JQKA])[SHDC](?![\w#])|(?<![\w#.])X[RB](?![\w#])")


def events_text(page) -> str:
    """The events' words, without the small cards drawn beside the refs they name."""
    return page.locator("#event-list").evaluate(
        "ol => [...ol.children].map((li) => [...li.childNodes].filter((n) => n.nodeType === 3)"
        ".map((n) => n.textContent).join('')).join('\\n')")


def cards_shown(page) -> list[str]:
    return page.locator("#board svg.card").evaluate_all("els => els.map(e => e.dataset.card)")


def expected_cards(text: str) -> list[str]:
    return ["??" if t == "[??]" else t for t in CARD.findall(text)]


def test_step_controls_keys_timeline_and_cards(browser, tmp_path):
    c = cheat()
    replay = c.replay
    n, last = len(replay.steps), replay.steps[-1].round
    path = write_html(replay, tmp_path / "cheat.html")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems, requests = [], []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    label = page.locator("#round-label")

    def at() -> str:
        return label.inner_text()

    assert at() == f"Start \u00b7 step 1 of {n}"
    assert page.locator("#verdict").inner_text() == "Audit: CHEATING FOUND"
    page.click("#next")
    assert at().startswith("Round 1 ")
    page.keyboard.press("ArrowRight")
    assert at().startswith("Round 2 ")
    page.keyboard.press("ArrowLeft")
    assert at().startswith("Round 1 ")
    page.click("#prev")
    assert at().startswith("Start") and page.locator("#prev").is_disabled()
    page.keyboard.press("End")
    assert at().startswith(f"Round {last} ") and page.locator("#next").is_disabled()
    page.keyboard.press("Home")
    assert at().startswith("Start")

    step = c.played  # the timeline: the round in which bob plays his false Warlord face down
    page.click(f"#tl li[data-i='{step.index}']")
    assert at().startswith(f"Round {step.round} ")
    assert "bob plays a card face down as a Warlord" in events_text(page)  # in words, never "b#0" (issue 39)
    assert page.locator("#event-list svg.card.mini").count() == 0  # face down: nobody knows it yet
    table = cards_shown(page)
    assert table == expected_cards(replay.render(step, None)) and set(table) == {"??"}  # face-down Warlords only
    assert len(table) >= 2  # bob's false one among them
    page.click("#views button[data-view='s1']")
    bob = cards_shown(page)
    assert bob == expected_cards(replay.render(step, 1))
    hand = [str(replay.all_faces[r]) for r in c.hand(1)]
    assert bob.count("??") == table.count("??") - 1 and str(c.face) in bob  # his own Warlord: its real face
    assert bob[-len(hand):] == hand  # and his hand
    page.keyboard.press("1")  # alice's view: her hand, bob's Warlord face down
    alice = cards_shown(page)
    assert alice == expected_cards(replay.render(step, 0))
    assert str(replay.all_faces[c.alice_warlord]) in alice and "??" in alice
    page.keyboard.press("a")  # everything, from the audit
    everything = cards_shown(page)
    assert everything == expected_cards(replay.render_all(step, 0) + "\n" + replay.render_all(step, 1))
    assert "??" not in everything
    assert {str(c.face), str(replay.all_faces[c.alice_warlord]), *hand} <= set(everything)
    label_of = page.locator(f"#board svg.card[data-card='{c.face}']").first.get_attribute("aria-label")
    assert label_of.endswith({"S": "of spades", "H": "of hearts", "D": "of diamonds", "C": "of clubs"}[c.face.suit])
    page.keyboard.press("t")
    assert cards_shown(page) == table

    page.locator("#slider").fill(str(c.caught.index))
    assert at().startswith(f"Round {c.caught.round} ")
    # the card is face up by then: the event names it by its face (issue 15)
    assert f"CHEAT: bob played {face_words(c.face)} face down as a Warlord, but it is {c.face}" in events_text(page)
    page.keyboard.press("2")  # the slider has the focus: digits still switch the view, arrows move the slider
    assert page.locator("#views button.on").inner_text() == "bob"
    assert page.locator("#board h3").inner_text().lower() == "bob's view"
    page.keyboard.press("ArrowLeft")
    assert at().startswith(f"Round {replay.steps[c.caught.index - 1].round} ")
    page.keyboard.press("ArrowRight")
    shot = tmp_path / "replay.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000
    assert not problems, problems
    assert requests and all(u.startswith("file:") for u in requests), requests  # no network at all
    page.close()


def test_a_link_opens_a_round_and_view(browser, tmp_path):
    replay = load_replay(GAME)
    path = write_html(replay, tmp_path / "game.html")
    page = browser.new_page()
    page.goto(path.as_uri() + "#step=12&view=s0")
    assert page.locator("#round-label").inner_text().startswith("Round 12 ")
    assert page.locator("#views button.on").inner_text() == "alice"
    assert cards_shown(page) == expected_cards(replay.render(replay.steps[12], 0))
    assert page.locator("#verdict").inner_text() == "Audit: PASSED"
    assert page.locator("#tl li").count() == len(replay.steps)
    page.close()
