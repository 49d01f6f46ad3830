"""Whole Warlords games: random playouts, cheats caught at reveal and audit, refusals, bots, rendering."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from duelmail.errors import IllegalMove
from duelmail.games.base import RandomBot, Violation
from duelmail.games.cards import CardRef
from duelmail.games.simulate import Table, playout
from duelmail.games.svg import SEATS
from duelmail.games.warlords.bots import HeuristicBot
from duelmail.games.warlords.notation import (
    Accept,
    Attack,
    Defend,
    EndTurn,
    Exchange,
    PlayAce,
    PlayWarlord,
    Reinforce,
    Support,
    parse_action,
)

DIGEST = Path(__file__).resolve().parents[3] / "seeds" / "warlords.md"
RULES = Path(__file__).resolve().parents[3] / "duelmail" / "games" / "warlords" / "rules.py"
OPTIONS = [{}, {"reinforcements": True}, {"hidden-ally": True}, {"reinforcements": True, "hidden-ally": True}]


def digest_rules() -> set[str]:
    return set(re.findall(r"\*\*(W-\d+) ", DIGEST.read_text()))


def test_digest_defines_every_rule_the_code_names():
    defined = digest_rules()
    assert defined == {f"W-{i}" for i in range(1, len(defined) + 1)}
    assert set(re.findall(r'"(W-\d+)"', RULES.read_text())) <= defined
    text = DIGEST.read_text()
    assert "000_0f178376af626676.txt" in text and "## Rulings made for play by mail" in text


def test_random_playouts_end_and_pass_the_audit(game):
    """200 seeded random games (2, 3 and 4 players, every option mix): W-24/W-31 end, W-30 audit clean."""
    reasons = set()
    for seed in range(200):
        n = 2 + seed % 3
        options = OPTIONS[(seed // 3) % 4]
        outcome, table = playout(game, n, [RandomBot()] * n, options, seed=seed)
        assert outcome is not None and len(outcome.winners) == 1 and not outcome.cheaters, (seed, outcome)
        assert table.violations == [] and table.state.audit(table.truth) == [], seed
        for _, action in table.history:
            assert parse_action(str(action)) == action
        reasons.add(outcome.reason)
    assert reasons


def test_reinforcements_happen_in_random_play(game):
    """W-25: random games with the option do reshuffle (new deck ids), and still audit clean."""
    seen = 0
    for seed in range(30):
        _, table = playout(game, 2, [RandomBot()] * 2, {"reinforcements": True}, seed=seed)
        seen += any(ref.deck.startswith("a.") or ref.deck.startswith("b.") for ref in table.truth)
        assert table.state.audit(table.truth) == []
    assert seen >= 10


def test_clone_is_independent(game):
    t = Table.deal(game, 3, {"reinforcements": True}, seed=5)
    bots = [RandomBot()] * 3
    for _ in range(40):
        seat = t.state.deciders()[0]
        t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), t.rng))
    copy = t.state.clone()
    snapshot = (repr(t.state.hands), repr(t.state.piles), repr(t.state.discards), t.state.phase)
    seat = copy.deciders()[0]
    copy.apply(seat, copy.legal_actions(seat, t.known(seat))[0])
    assert (repr(t.state.hands), repr(t.state.piles), repr(t.state.discards), t.state.phase) == snapshot


# -- W-30: cheating -----------------------------------------------------------------------------------

def test_w30_fake_warlord_is_caught_when_revealed(rig, play):
    """A face-down 'Warlord' that is a 7, discarded by an exchange: the reveal convicts seat 0."""
    t = rig(2, {0: "7S KH"})
    assert PlayWarlord(CardRef("a", 0)) not in t.state.legal_actions(0, t.known(0))  # bots stay honest
    play(t, 0, "warlord a#0")
    assert not t.violations and not t.state.is_terminal()
    play(t, 0, "exchange a#0 a#1")
    assert t.violations == [Violation(0, "W-7", t.violations[0].message)]
    assert "a#0" in t.violations[0].message and "7S" in t.violations[0].message
    st = t.state
    assert st.is_terminal() and st.deciders() == ()
    assert st.outcome().cheaters == (0,) and st.outcome().winners == (1,)
    assert [v.seat for v in st.audit(t.truth)] == [0]


def test_w30_fake_warlord_is_caught_in_battle(rig, play):
    t = rig(2, {1: "7S 10S"})
    play(t, 0, "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    play(t, 0, "defend - -")
    play(t, 1, "support -")
    play(t, 0, "support -")
    assert [(v.seat, v.rule) for v in t.violations] == [(1, "W-7")]
    assert t.state.outcome().cheaters == (1,) and t.state.outcome().winners == (0,)


def test_w30_fake_claim_never_revealed_is_caught_by_the_audit(rig, play):
    t = rig(2, {0: "7S"})
    play(t, 0, "warlord a#0", "end")
    assert not t.violations and not t.state.is_terminal()
    assert [(v.seat, v.rule) for v in t.state.audit(t.truth)] == [(0, "W-7")]


def test_w30_fake_army_and_ace_are_caught(rig, play):
    t = rig(2, {1: "QS"})
    play(t, 0, "end")
    play(t, 1, "attack - b#0")
    play(t, 0, "defend - -")
    play(t, 1, "support -")
    play(t, 0, "support -")
    assert [(v.seat, v.rule) for v in t.violations] == [(1, "W-10")]
    t = rig(2, {0: "KH", 1: "5S 10S"})
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "ace b#0 a#0")
    assert [(v.seat, v.rule) for v in t.violations] == [(1, "W-18")]


# -- refusals -----------------------------------------------------------------------------------------

def _random_action(rng: random.Random, refs: list[CardRef]):
    pick = lambda: rng.choice(refs)  # noqa: E731
    maybe = lambda: None if rng.random() < 0.3 else pick()  # noqa: E731
    return rng.choice([
        lambda: PlayWarlord(pick()), lambda: Exchange(pick(), pick()), lambda: PlayAce(pick(), maybe()),
        lambda: Reinforce(pick()), lambda: Attack(maybe(), pick()), lambda: EndTurn(),
        lambda: Defend(maybe(), maybe()), lambda: Support(maybe()), lambda: Accept(),
    ])()


def test_every_refusal_names_its_rule(game):
    """Random actions by random seats in random positions: each IllegalMove quotes the action and a rule."""
    defined = digest_rules()
    rules_seen = set()
    for seed in range(12):
        n = 2 + seed % 3
        options = OPTIONS[seed % 4]
        t = Table.deal(game, n, options, seed=seed)
        rng = random.Random(seed)
        bots = [RandomBot()] * n
        while not t.state.is_terminal():
            refs = sorted(t.truth)
            for _ in range(6):
                action = _random_action(rng, refs)
                trial = t.state.clone()
                try:
                    trial.apply(rng.randrange(n), action)
                except IllegalMove as err:
                    assert err.rule in defined and f"(rule {err.rule})" in str(err)
                    assert str(action) in str(err)
                    rules_seen.add(err.rule)
            seat = t.state.deciders()[0]
            t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), t.rng))
        with pytest.raises(IllegalMove) as err:
            t.state.apply(0, EndTurn())
        assert err.value.rule == "W-31"
    assert {"W-4", "W-7", "W-8", "W-10", "W-18", "W-19"} <= rules_seen


# -- bots and rendering -------------------------------------------------------------------------------

def test_heuristic_bot_beats_random(game):
    wins = 0
    for seed in range(100):
        hero = seed % 2
        bots = [RandomBot(), RandomBot()]
        bots[hero] = HeuristicBot()
        outcome, table = playout(game, 2, bots, OPTIONS[seed % 4], seed=seed)
        wins += hero in outcome.winners
        assert table.state.audit(table.truth) == []
    assert wins >= 70


@pytest.mark.parametrize("players", [8, 9, 12])
def test_eight_to_twelve_players_play_to_the_end_and_are_pictured(game, players):
    """W-1, W-24: the source's "more players" has no limit; up to twelve seats (the most we take) play the circle
    down to one, and the table's picture shows every seat, each in its own colour."""
    outcome, table = playout(game, players, [HeuristicBot()] * players, OPTIONS[3], seed=players)
    assert len(outcome.winners) == 1 and table.state.audit(table.truth) == []
    assert sum(table.state.active) == 1
    svg = table.state.picture(None, table.state.public_faces(), [f"player {s}" for s in range(players)])
    assert all(f"player {s}" in svg for s in range(players))
    assert len({SEATS[s] for s in range(players)}) == players and SEATS[players - 1] in svg


def test_heuristic_bot_plays_multiplayer_games(game):
    for seed in range(6):
        n = 3 + seed % 2
        outcome, table = playout(game, n, [HeuristicBot()] * n, OPTIONS[seed % 4], seed=seed)
        assert outcome.winners and table.state.audit(table.truth) == []


def test_render_shows_own_faces_hidden_cards_and_the_battle(rig, play):
    t = rig(2, {0: "KH 9H", 1: "QS 10S"})
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "warlord b#0", "attack b#0 b#1")
    mine = t.state.render(0, t.known(0))
    assert "Seat 0 (you)" in mine and "KH a#0" in mine and "9H a#1" in mine
    assert "[??] b#0" in mine and "[??] b#1" in mine and "seat 1 attacks seat 0" in mine
    assert "Your move: defend" in mine and "draw pile 46" in mine
    theirs = t.state.render(1, t.known(1))
    assert "QS b#0" in theirs and "[??] a#0" in theirs and "Hand:" in theirs
    spectator = t.state.render(None, t.state.public_faces())
    assert "KH" not in spectator and "QS" not in spectator
    play(t, 0, "defend a#0 a#1")
    play(t, 1, "support -")
    play(t, 0, "support -")
    over = t.state.render(None, t.state.public_faces())
    assert "KH a#0 (face up, used)" in over and "top QS b#0" in over


def test_w30_cheat_by_the_winner_found_after_the_end(rig, play):
    t = rig(2, {0: "7S"})
    t.state.piles[1].clear()
    t.state._vis = None  # changed by hand: drop the visibility kept
    play(t, 0, "warlord a#0", "end")
    play(t, 1, "end")  # seat 1's revenge turn: it is out, seat 0 wins
    st = t.state
    assert st.outcome().winners == (0,)
    [v] = st.reveal(CardRef("a", 0), t.truth[CardRef("a", 0)])
    assert (v.seat, v.rule) == (0, "W-7")
    assert st.outcome().winners == (1,) and st.outcome().cheaters == (0,)
