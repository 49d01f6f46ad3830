"""The page's shortcuts change nothing: every text and picture it carries is what the replay renders for that
view and step, memos warm or cold, and the memos key on what they show (a face the viewer knows, a Warlord's
tags, W-9)."""

from __future__ import annotations

import pytest
from replay_archives import CHEAT, GAME, cheat

from duelmail.games import svg
from duelmail.games.warlords import picture as warlords_picture
from duelmail.games.warlords import render as warlords_render
from duelmail.replay import load_replay, render_html
from duelmail.replay.html import _ids, _Interner, page_data
from duelmail.util.lines import Lines, lines_of

ROOT = GAME.parent


def forget() -> None:
    """Empty every drawing memo, as a fresh process starts."""
    for memo in (svg._text, svg._card_parts, svg._seat_band, warlords_render._seat_lines,
                 warlords_picture._seat_parts):
        memo.cache_clear()
    svg._BODIES.clear()


@pytest.mark.parametrize("archive", [GAME, CHEAT, ROOT / "wizard-game", ROOT / "skirmish-game"],
                         ids=lambda p: p.name)
def test_every_view_of_every_step_is_what_the_replay_renders(archive):
    replay = load_replay(archive)
    data = page_data(replay)
    names = replay.names

    def text(tid: int) -> str:
        return "\n".join(data["lines"][i] for i in data["texts"][tid])

    def picture(pid: int) -> str:
        return "\n".join(data["pieces"][i] for i in data["pictures"][pid])

    assert replay.audited
    for step, got in zip(replay.steps, data["steps"], strict=True):
        v, st = got["v"], step.state
        assert text(v["t"]) == replay.render(step, None)
        assert [text(t) for t in v["s"]] == [replay.render(step, s) for s in range(replay.n)]
        assert [text(t) for t in v["a"]] == [replay.render_all(step, s) for s in range(replay.n)]
        # a picture drawn at an earlier step whose text was the same is this step's picture too
        views = [("t", None, replay.known(step, None)), ("a", None, replay.all_faces),
                 *((f"s{s}", s, replay.known(step, s)) for s in range(replay.n))]
        for key, seat, known in views:
            drawn = svg.inline(st.picture(seat, known, names))
            assert (picture(v["p"][key]) if key in v["p"] else None) == drawn


def test_a_page_is_the_same_with_its_memos_cold_or_warm():
    forget()
    cold = render_html(load_replay(CHEAT))
    render_html(load_replay(GAME))  # fills the memos with another game's cards and places
    assert render_html(load_replay(CHEAT)) == cold


def test_the_warlords_memos_key_on_the_faces_known_and_the_tags():
    """The same state drawn for a spectator, then with every face, then again for the spectator: bob's face-down
    Warlord is a back, a face, a back; and a Warlord that fought is tagged used (W-9) in its own step only."""
    c = cheat()
    replay, st = c.replay, c.played.state
    public, everything = replay.known(c.played, None), replay.all_faces
    line = f"{everything[c.fake]} {c.fake}"
    first, full, again = (st.render(None, k) for k in (public, everything, public))
    assert line not in first and line in full and again == first
    pfirst, pfull, pagain = (st.picture(None, k, replay.names) for k in (public, everything, public))
    assert pfirst == pagain != pfull and f'data-card="{everything[c.fake]}"' in pfull
    views = [(None, public), (None, everything), (1, public), (None, public)]
    assert st.render_views(views) == [first, full, st.render(1, public), first]
    assert st.picture_views(views, replay.names) == [pfirst, pfull, st.picture(1, public, replay.names), pfirst]
    forget()
    assert st.render(None, everything) == full and st.picture(None, everything, replay.names) == pfull
    replay = load_replay(GAME)
    used = next(s for s in replay.steps if s.state.used)
    st2 = used.state.clone()
    st2.used = set()
    known = replay.known(used, None)
    assert "used" in used.state.render(None, known) and "used" not in st2.render(None, known)
    assert used.state.picture(None, known) != st2.picture(None, known)


def test_lines_keep_their_lines_unless_a_line_holds_a_newline():
    text = Lines.of(("a", "b", ""))
    assert text == "a\nb\n" and isinstance(text, str) and text.lines == ("a", "b", "") == tuple(lines_of(text))
    plain = Lines.of(("a", "b\nc"))
    assert plain == "a\nb\nc" and not hasattr(plain, "lines") and lines_of(plain) == ["a", "b", "c"]
    # lines met before are known to hold no newline (not counted again); a new line among them still is
    assert Lines.of(("b", "a", "")).lines == ("b", "a", "")
    assert not hasattr(Lines.of(("a", "b", "c\n")), "lines") and not hasattr(Lines.of(("a", "b\nc")), "lines")
    pic = svg.Canvas("x").svg(10)
    inline = svg.inline(pic)
    assert inline == pic.replace(svg.XMLNS, "", 1) and list(inline.lines) == inline.split("\n")


def test_the_interner_numbers_named_lines_as_naming_the_whole_text_would():
    """A rules' line is named once and looked up by the line the rules wrote; the ids come out as if every text
    were named whole and split, even where two lines name alike or a name would hold a newline."""

    def named(text: str) -> str:
        return "\n".join(line.replace("seat 1", "bob").replace("seat 2", "x\ny") for line in text.split("\n"))

    texts = ["a\nseat 1\nbob", "seat 1\nc\na", "a\nbob\nd\nd", "seat 2\na", "e\nseat 2"]
    inter, lines = _Interner(named), {}
    for raw in texts:
        assert inter.table(raw) == _ids(lines, named(raw).split("\n"))
        assert inter.named_text(raw) == named(raw)
    assert inter.lines == lines
