"""Skirmish end to end by files through the CLI: two homes, an outbox folder, a custom battlefield embedded in the
genesis, bots deciding, a human's sealed build, refusals that change nothing, and the battlefield picture."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import clitable
from clitable import dm, snapshot

ROOT = Path(__file__).resolve().parents[3]


class Table(clitable.Table):
    game = "skirmish"


SMALL = """name = "Duelling ground"
width = 14
height = 10
starts = [[3, 5], [11, 5]]

[[terrain]]
id = "rock"
kind = "uneven"
circle = [7, 2, 1]
"""


def test_two_homes_play_a_whole_game_on_a_custom_battlefield_by_files(tmp_path):
    """K-33: the custom scenario travels in the genesis; K-35: the game ends, audits and verifies from either
    archive; the picture shows the scenario."""
    (tmp_path / "ground.toml").write_text(SMALL)
    t = Table(tmp_path, f"battlefield=@{tmp_path / 'ground.toml'}", "turns=12")
    genesis = (t.out / "genesis.toml").read_text()
    assert "Duelling ground" in genesis
    t.play_turns(200)
    a, b = t.status(t.alice), t.status(t.bob)
    assert a["over"] and b["over"] and a["audited"] and a["audit_ok"] and a["result"] == b["result"]
    for home in (t.alice, t.bob):
        out = dm(tmp_path, "verify", str(next((home / "games").iterdir())))
        assert "audit: PASSED" in out and "VERIFIED" in out
    picture = tmp_path / "map.svg"
    out = dm(t.bob, "show", "--svg", str(picture))
    assert "Duelling ground" in out and f"wrote {picture}" in out
    svg = picture.read_text()
    assert ElementTree.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"
    assert svg.startswith("<svg") and "Duelling ground" in svg and svg.count("<circle") >= 3


def test_a_human_builds_by_hand_and_bad_moves_are_refused_naming_the_rule(tmp_path):
    """K-2 and K-3 by hand (five sealed choices in one file, never in the clear), checked by the sender before
    sealing; K-11 through 'play'; every refusal exits 1, names the rule and the input, and writes nothing."""
    t = Table(tmp_path, "battlefield=ruined-keep")
    t.settle()
    assert set(t.status(t.alice)["awaited"]) == {"0", "1"}
    before = snapshot(t.alice)
    out = dm(t.alice, "play", "build str 10", "build spd 2", "build end 1", "build dex 1", code=1)
    assert "rule K-2" in out and "14 cards" in out
    build = ["build str 3", "build spd 3", "build end 5", "build dex 2"]
    out = dm(t.alice, "play", *build, "dual d0: str2 spd1 end1 dex1", code=1)
    assert "rule K-3" in out and "'Choose to show 2 Strength, 1 Speed, 1 Endurance, 1 Dexterity at the start" in out
    assert "dual" not in out and "d0" not in out  # the move in words, never its label (issue 39)
    assert snapshot(t.alice) == before
    t.turn(t.alice, *build, "dual d0: str1 spd1 end1 dex1")
    sent = sorted(t.out.glob("r*-s0.toml"))[-1].read_text()
    assert "sealed str" in sent and "build str 3" not in sent
    t.settle()
    shown = dm(t.alice, "show")
    assert "alice (you)" in shown and "your character: Strength 3, Speed 3, Endurance 5, Dexterity 2" in shown
    for i in range(6):  # on to a move of alice's
        st = t.status(t.alice)
        if "0" in st["awaited"] and "move" in st["awaited"]["0"]["what"]:
            break
        for s in t.todo(st):
            t.turn(t.home(s), "--bot", "heuristic", "--seed", str(i))
        t.settle()
    st = t.status(t.alice)
    assert "move" in st["awaited"]["0"]["what"]
    before = snapshot(t.alice)
    out = dm(t.alice, "play", "run 24,30", code=1)
    assert "rule K-11" in out and "'Run 26 in toward the south wall" in out and "farther" in out
    assert "24," not in out  # no coordinates: where, in words (issue 39)
    assert snapshot(t.alice) == before
    moves = json.loads(dm(t.alice, "moves", "--json"))
    assert {"stay"} <= {m["move"] for m in moves} and any(m["move"].startswith("run ") for m in moves)


def test_shipped_examples_are_the_shipped_scenarios():
    """The files under examples/battlefields/ are the ones users copy: they parse and match the package's."""
    from duelmail.games.skirmish.battlefield import SHIPPED, parse_battlefield

    for name, text in SHIPPED.items():
        assert parse_battlefield((ROOT / "examples" / "battlefields" / f"{name}.toml").read_text()) == \
            parse_battlefield(text)


def test_the_html_replay_shows_the_battlefield_map_with_names_escaped():
    """The replay's main view is the game's picture: the map is in the page, and a scenario's name is escaped."""
    from duelmail.replay import build_replay, render_html
    from duelmail.replay.html import page_data
    from duelmail.testing.selfplay import SelfPlay

    field = SMALL.replace('name = "Duelling ground"', 'name = "<b>Keep & Co</b>"')
    sp = SelfPlay("skirmish", n=2, seed=1, options={"battlefield": field, "turns": 3})
    sp.run()
    replay = build_replay([("genesis.toml" if f.kind == "genesis" else f"r{f.round:04d}-s{f.seat}.toml", f)
                           for f in sp.files])
    page = render_html(replay)
    data = page_data(replay)
    pieces = json.dumps(data["pieces"], ensure_ascii=False)  # the markup the page puts in innerHTML
    assert 'class=\\"terrain uneven\\"' in pieces and "pieces" in page and data["steps"][-1]["v"]["p"]["t"] >= 0
    assert "&lt;b&gt;Keep &amp; Co&lt;/b&gt;" in pieces and "<b>Keep" not in pieces
