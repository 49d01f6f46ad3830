"""Both replays show table talk in order among the moves, also talk after the end, and never as protocol noise."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from duelmail.cli.replay import replay as command
from duelmail.replay import load_replay
from duelmail.replay.html import page_data
from duelmail.testing.selfplay import SelfPlay
from duelmail.transport.folder import GameFolder

SNEAKY = "<b>hi</b> published keys for 3 cards"  # looks like markup and like bookkeeping: it is talk


@pytest.fixture(scope="module")
def talky(tmp_path_factory):
    """A Warlords game with talk in a note out of turn, in a turn file, in a resignation and after the end."""
    sp = SelfPlay("warlords", seed=6)
    sp.run(until=lambda m: any(d.decide for d in m.duties.values()))
    seat = next(s for s, d in sp.match.duties.items() if d.decide)

    def note(s, **kw):
        sp.deliver(sp.matches[s].compose_note(s, sp.ids[s], sp.tick(), **kw))

    note(1 - seat, say=SNEAKY)
    sp.deliver(sp.matches[seat].compose(seat, sp.ids[seat], ["end"], sp.tick(), extra={"say": "first words"}))
    note(seat, resign=True, say="I give up")
    sp.run()
    note(1 - seat, say="good game")
    folder = GameFolder(tmp_path_factory.mktemp("talky"))
    m = sp.fresh()
    for f in sp.files:
        folder.store(f, m)
    return folder.path, [sp.match.cards[s].name for s in (1 - seat, seat, seat, 1 - seat)]


def test_the_model_keeps_talk_in_order_and_as_play(talky):
    path, names = talky
    r = load_replay(path)
    talk = [e.text for st in r.steps for e in st.play_events() if " says: " in e.text]
    assert talk == [f'{names[0]} says: "{SNEAKY}"', f'{names[1]} says: "first words"',
                    f'{names[2]} says: "I give up"', f'{names[3]} says: "good game"']
    assert r.match.audit.ok and r.steps[-1].partial  # talk after the audit is a last step of its own


def test_terminal_log_shows_the_talk(talky):
    path, names = talky
    out = CliRunner().invoke(command, [str(path)], input="l\nq\n", catch_exceptions=False).output
    said = re.findall(r'(\w+) says: "([^"]*)"', out)
    assert [w for _, w in said][-4:] == [SNEAKY, "first words", "I give up", "good game"]


def test_html_marks_talk_and_never_writes_it_as_markup(talky, tmp_path):
    path, _ = talky
    data = page_data(load_replay(path))
    kinds = {text: kind for st in data["steps"] for _, text, kind in st["e"]}
    assert {k for t, k in kinds.items() if " says: " in t} == {3}
    target = tmp_path / "game.html"
    assert CliRunner().invoke(command, [str(path), "--html", str(target)]).exit_code == 0
    page = target.read_text()
    assert "<b>hi</b>" not in page and json.dumps("first words")[1:-1] in page
