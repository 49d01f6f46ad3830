"""Every registered game replays and renders with no code of its own: bots play it, the replay folds it,
every view of every step renders, in the terminal and in the page."""

from __future__ import annotations

import re

import pytest
import toy  # noqa: F401  (registers the High Card test game)

from duelmail.games.base import game_names, get_game
from duelmail.replay import build_replay, render_html
from duelmail.replay.html import page_data
from duelmail.replay.terminal import TerminalReplay
from duelmail.testing.selfplay import SelfPlay


def replay_of(game: str, rounds: int, options: dict | None = None, seed: int = 3):
    sp = SelfPlay(game, n=get_game(game).spec.min_players, options=options, seed=seed)
    sp.run(until=lambda m: m.finished or m.round > rounds)
    return build_replay([("genesis.toml" if f.kind == "genesis" else f"r{f.round:04d}-s{f.seat}.toml", f)
                         for f in sp.files])


@pytest.mark.parametrize("game", sorted(set(game_names()) | {"highcard"}))
def test_every_game_replays_in_the_terminal_and_as_a_page(game):
    replay = replay_of(game, rounds=40)
    assert len(replay.steps) == len(replay.match.rounds) + bool(replay.match.current)
    data = page_data(replay)
    assert len(data["steps"]) == len(replay.steps)
    for step in replay.steps:  # every view renders; public only unless audited
        for seat in (None, *range(replay.n)):
            assert isinstance(replay.render(step, seat), str)
            if not replay.audited:
                assert replay.known(step, seat) == step.public
    page = render_html(replay)
    assert "</html>" in page
    out: list[str] = []
    term = TerminalReplay(replay, write=out.append, colour=False)
    lines = iter(["n", "e", "s 1", "b", "l", "q"])
    term.run(lambda: next(lines, None))
    assert len([o for o in out if o.startswith("== ")]) == 5


def test_an_audited_game_with_reshuffles_shows_every_hand_and_every_deck():
    replay = replay_of("highcard", rounds=10_000, options={"reshuffle": True}, seed=5)
    assert replay.audited and replay.steps[-1].over
    decks = replay.deck_orders()
    assert "s" in decks and all(None not in cards for cards in decks.values())
    reshuffled = [d for d in decks if "." in d]
    last = replay.steps[-1]
    everything = "\n".join(replay.render_all(last, s) for s in range(replay.n))
    for seat in range(replay.n):  # every hand face up at the end of High Card: each seat's view names them all
        assert "??" not in replay.render(last, seat)
    assert "??" not in everything
    assert re.search(r"\d:[2-9JQKA1][0-9]?S", everything)
    assert reshuffled == ["s.1"] and 0 < len(decks["s.1"]) < 13  # the swap reshuffled discards and stock
    assert "alice holds: " in replay.render_all(replay.steps[6], 0)  # High Card's table names no refs
