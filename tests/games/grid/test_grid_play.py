"""Whole Grid Duel games in the plain simulator: random playouts of every deck pairing with the audit,
refusals that name their rule, bots, clones and rendering."""

from __future__ import annotations

import itertools
import os
import random
import re
from pathlib import Path

import pytest

from duelmail.errors import IllegalMove
from duelmail.games.base import RandomBot
from duelmail.games.cards import CardRef
from duelmail.games.grid.bots import HeuristicBot
from duelmail.games.grid.notation import Concede, End, Move, Orient, Pass, Place, Reveal, parse_action
from duelmail.games.grid.rules import frame_ok
from duelmail.games.simulate import Table, playout

from .conftest import DECKS

ROOT = Path(__file__).resolve().parents[3]
DIGEST = ROOT / "seeds" / "grid.md"
PAIRINGS = list(itertools.combinations_with_replacement(DECKS, 2))


def digest_rules() -> set[str]:
    return set(re.findall(r"\*\*(G-\d+) ", DIGEST.read_text()))


def test_digest_has_its_rules_and_rulings():
    """The numbering and the code's citations are checked for every game in tests/games/test_digests.py."""
    assert len(digest_rules()) == 30
    text = DIGEST.read_text()
    assert "001_b01adea1f81d9c4b.txt" in text and "## Rulings made for play by mail" in text
    for name in DECKS:
        assert f"**{'Ordinary pack' if name == 'pack' else name.capitalize()}" in text or name == "pack"


def test_tests_cite_every_rule():
    cited = set()
    for f in Path(__file__).parent.glob("test_*.py"):
        cited |= {f"G-{n}" for n in re.findall(r"def test_g(\d+)_", f.read_text())}
    assert cited == digest_rules(), digest_rules() - cited


@pytest.mark.parametrize("deck_a, deck_b", PAIRINGS)
def test_200_random_games_per_pairing_end_and_pass_the_audit(game, deck_a, deck_b):
    """G-30: seeded random games per pairing (seats alternate) end; no claim is broken (G-28). The suite plays 60 a
    pairing, `make soak` 200 (``DUELMAIL_SEEDS``)."""
    reasons = set()
    for seed in range(min(200, int(os.environ.get("DUELMAIL_SEEDS", "60")))):
        d0, d1 = (deck_a, deck_b) if seed % 2 == 0 else (deck_b, deck_a)
        outcome, table = playout(game, 2, [RandomBot(), RandomBot()], {"deck0": d0, "deck1": d1}, seed=seed)
        assert outcome is not None and not outcome.cheaters, (seed, outcome)
        assert table.violations == [] and table.state.audit(table.truth) == [], seed
        st = table.state
        assert frame_ok(st.spaces) and sum(st.score()[0]) == len(st.spaces)
        cards = [r for h in st.hands for r in h] + [r for p in st.piles for r in p] + \
            [r for d in st.discards for r in d] + list(st.where)
        assert len(cards) == len(set(cards)) == len(table.truth)  # no card lost or doubled
        for _, action in table.history[::7]:
            assert parse_action(str(action)) == action
        reasons.add(outcome.reason.split(";")[0])
    assert any("ended the game" in r for r in reasons)


def test_clone_is_independent(game):
    t = Table.deal(game, 2, {"deck0": "hive", "deck1": "tempest"}, seed=5)
    bots = [RandomBot(), RandomBot()]
    for _ in range(30):
        seat = t.state.deciders()[0]
        t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), t.rng))
    copy = t.state.clone()

    def snap(st):
        return repr((st.hands, st.piles, st.discards, sorted(st.spaces.items()), st.faces, st.orient, st.claims))

    before = snap(t.state)
    seat = copy.deciders()[0]
    for a in copy.legal_actions(seat, t.known(seat))[:3]:
        try:
            copy.apply(seat, a)
        except IllegalMove:
            pass
    assert snap(t.state) == before


def _random_action(rng: random.Random, refs: list[CardRef]):
    space = lambda: f"{rng.choice('abcde')}{rng.randint(1, 5)}"  # noqa: E731
    return rng.choice([
        lambda: Place(rng.choice(["play", "ally", "merge"]), rng.choice(refs), space(), rng.random() < 0.4,
                      0),
        lambda: Move(space(), space(), rng.randrange(4)), lambda: Reveal(rng.choice(refs), rng.randrange(4)),
        lambda: Orient(rng.choice(refs), rng.randrange(4)), lambda: Concede(space()), lambda: End(),
        lambda: Pass(),
    ])()


def test_every_refusal_names_its_rule(game):
    """Random actions by random seats in random positions: each IllegalMove quotes the action and a rule."""
    defined = digest_rules()
    seen = set()
    for seed in range(12):
        t = Table.deal(game, 2, {"deck0": DECKS[seed % 5], "deck1": DECKS[(seed + 2) % 5]}, seed=seed)
        rng = random.Random(seed)
        bots = [RandomBot(), RandomBot()]
        refs = sorted(t.truth)
        while not t.state.is_terminal():
            for _ in range(8):
                action = _random_action(rng, refs)
                trial = t.state.clone()
                try:
                    trial.apply(rng.randrange(2), action)
                except IllegalMove as err:
                    assert err.rule in defined and f"(rule {err.rule})" in str(err)
                    assert str(action) in str(err)
                    seen.add(err.rule)
            seat = t.state.deciders()[0]
            t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), t.rng))
        with pytest.raises(IllegalMove) as err:
            t.state.apply(0, End())
        assert err.value.rule == "G-30"
    assert {"G-5", "G-7", "G-9", "G-10", "G-12", "G-13", "G-14", "G-15", "G-16", "G-23", "G-24"} <= seen


def test_bots_play_only_legal_moves_and_heuristic_beats_random(game):
    wins = 0
    for seed in range(20):
        d0, d1 = DECKS[seed % 5], DECKS[(seed * 3 + 1) % 5]
        bots = [HeuristicBot(), RandomBot()] if seed % 2 == 0 else [RandomBot(), HeuristicBot()]
        outcome, table = playout(game, 2, bots, {"deck0": d0, "deck1": d1}, seed=seed)
        assert not table.violations and not outcome.cheaters
        wins += outcome.winners == ((0,) if seed % 2 == 0 else (1,))
    assert wins >= 17


def test_heuristic_bot_ends_the_game_when_ahead(rig, play):
    t = rig({0: "Knight, Spearman", 1: "Pit"})
    t.state.piles[0].clear()
    t.state.piles[1].clear()
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 c4 hidden")
    play(t, 0, "play a#1 d3 hidden")
    assert HeuristicBot().choose(t.state, 1, t.known(1), random.Random(0)) != End()  # behind: play on
    t = rig({0: "Knight"})
    t.state.piles[1].clear()
    play(t, 0, "play a#0 c3 hidden")
    play(t, 1, "play b#0 d4 hidden")
    assert t.state.end_allowed()
    choice = HeuristicBot().choose(t.state, 0, t.known(0), random.Random(0))
    assert choice == End() or t.state.score()[0] == [1, 1]


def test_render_from_each_seat_and_a_spectator(game):
    t = Table.deal(game, 2, {"deck0": "bastion", "deck1": "pack"}, seed=3)
    bots = [HeuristicBot(), HeuristicBot()]
    while t.state.turn < 14 or t.state.current != 0:  # a G-7 window may add a decision to a turn
        seat = t.state.deciders()[0]
        t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), t.rng))
    views = {s: t.state.render(s, t.known(s) if s is not None else dict(t.state.public_faces())) for s in (0, 1, None)}
    assert views[0].startswith("Grid Duel [bastion vs pack], turn 15; to move: seat 0 (you)")
    assert "Your move:" in views[0] and "Your move:" not in views[1]
    for s, text in views.items():
        for ref in t.state.where:
            up = ref in t.state.face_up
            shown = up or (s is not None and ref.deck == "ab"[s])
            assert (f"{ref} [face down]" in text) == (not shown), (s, ref)
        for ref in t.state.hands[0]:  # a hand card by its design's name, to its holder alone; never a French face
            assert (f"{ref} {t.state.card_name(ref, t.truth[ref])}" in text) == (s == 0), (s, ref)
            assert f"({t.truth[ref]})" not in text
    map0 = views[0].splitlines()[1:6]
    map1 = views[1].splitlines()[1:6]
    assert map0[0].split() == list(reversed(map1[0].split()))  # seat 1 sees the table turned round
