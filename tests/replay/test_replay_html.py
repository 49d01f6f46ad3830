"""The page as a file: self-contained, its data faithful to the replay, nothing hidden leaked before the audit."""

from __future__ import annotations

import json
import re

from replay_archives import CHEAT, GAME, cheat

from duelmail.games.base import face_words
from duelmail.replay import load_replay, render_html
from duelmail.replay.html import _script_json, page_data


def data_of(page: str) -> dict:
    m = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, flags=re.S)
    return json.loads(m.group(1))


def test_the_page_is_one_self_contained_file():
    page = render_html(load_replay(GAME))
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not re.search(r"https?://", page)
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page) and not re.search(r"\ssrc=", page)
    assert re.findall(r"url\(([^)]*)\)", page) == ["#dm-back"]  # only the card back's own pattern
    assert "default-src 'none'" in page  # and the page forbids itself any fetch


def test_the_embedded_data_is_the_replay():
    c = cheat()
    replay = c.replay
    data = data_of(render_html(replay))
    assert data == json.loads(json.dumps(page_data(replay)))
    assert len(data["steps"]) == len(replay.steps) and data["names"] == ["alice", "bob"]
    assert data["audited"] and data["verdict"]["word"] == "CHEATING FOUND"
    assert data["verdict"]["cheats"][0]["seat"] == 1 and data["verdict"]["cheats"][0]["rule"] == "W-7"

    def text(tid: int) -> str:
        return "\n".join(data["lines"][i] for i in data["texts"][tid])

    step = c.played.index
    views = data["steps"][step]["v"]
    assert text(views["t"]) == replay.render(replay.steps[step], None)
    assert text(views["s"][1]) == replay.render(replay.steps[step], 1)
    assert [text(t) for t in views["a"]] == [replay.render_all(replay.steps[step], s) for s in (0, 1)]
    assert f"bob plays {c.fake} face down as a Warlord" in [e[1] for e in data["steps"][step]["e"] if e[2] == 0]
    caught = data["steps"][c.caught.index]
    assert caught["e"][0][2] == 2 and caught["x"].startswith(f"CHEAT: bob played {face_words(c.face)} face down")
    assert [d["id"] for d in data["decks"]] == ["a", "b"] and data["decks"][1]["cards"][c.fake.index] == str(c.face)


def test_nothing_hidden_is_in_the_page_of_a_game_in_progress(in_progress):
    c = cheat()
    page = render_html(load_replay(in_progress))
    data = data_of(page)
    assert not data["audited"] and data["verdict"]["word"] == "IN PROGRESS" and data["decks"] == []
    assert all("a" not in s["v"] for s in data["steps"])
    for ref in [c.fake, c.alice_warlord, *c.hand(0), *c.hand(1)]:  # cards only their holders saw
        assert f"{c.replay.all_faces[ref]} {ref}" not in page


def test_archive_text_cannot_close_the_script_element():
    hostile = {"x": "</script><script>alert(1)</script> & <!-- \u2028"}
    text = _script_json(hostile)
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == hostile


def test_a_game_may_add_its_own_view(monkeypatch):
    import duelmail.games.warlords as warlords

    calls = []

    def html_view(state, seat, known):
        calls.append(seat)
        return f"<div class='map'>map for {seat}, {len(known)} faces</div>"

    monkeypatch.setattr(warlords, "html_view", html_view, raising=False)
    replay = load_replay(CHEAT)
    data = page_data(replay)
    assert len(calls) == len(replay.steps) * 5  # the table, two seats, two seats with every card
    step = data["steps"][cheat().played.index]
    assert data["frags"][step["v"]["h"]["s1"]].startswith("<div class='map'>map for 1")
    assert set(step["v"]["h"]) == {"t", "s0", "s1", "a0", "a1"}
