"""Whole Summoner games: random playouts, refusals that name their rule, bots, rendering, the digest."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from duelmail.errors import IllegalMove
from duelmail.games.base import RandomBot
from duelmail.games.cards import CardRef, standard_deck
from duelmail.games.simulate import Table, playout
from duelmail.games.summoner.bots import HeuristicBot
from duelmail.games.summoner.notation import (
    Attack,
    Double,
    End,
    Joker,
    Pass,
    Replace,
    Stop,
    Summon,
    Take,
    Win,
    parse_action,
)
from duelmail.games.summoner.notation import (
    Counter as CounterAction,
)

ROOT = Path(__file__).resolve().parents[3]
DIGEST = ROOT / "seeds" / "summoner.md"
CODE = ROOT / "duelmail" / "games" / "summoner"


def digest_rules() -> set[str]:
    return set(re.findall(r"\*\*(S-\d+) ", DIGEST.read_text()))


def test_digest_defines_every_rule_the_code_and_tests_name():
    defined = digest_rules()
    assert defined == {f"S-{i}" for i in range(1, len(defined) + 1)}
    used = set()
    for path in [*CODE.glob("*.py"), *Path(__file__).parent.glob("*.py")]:
        used |= set(re.findall(r'"(S-\d+)"', path.read_text()))
    assert used and used <= defined, used - defined
    text = DIGEST.read_text()
    assert "003_2f858f1ad1e503b4.txt" in text and "## Rulings made for play by mail" in text
    assert "v x 2^(k-1)" in text and "winning conditions is empty" in text


def test_random_playouts_end_and_pass_the_audit(game):
    """200 seeded random games (some with fewer life points): they end (S-28) and the audit is clean (S-26)."""
    reasons = Counter()
    for seed in range(200):
        options = {"life": 30} if seed % 4 == 3 else {}
        if seed % 3 == 1:
            options["mail-shortcuts"] = True
        outcome, table = playout(game, 2, [RandomBot(), RandomBot()], options, seed=seed)
        assert outcome is not None and not outcome.cheaters, (seed, outcome)
        assert table.violations == [] and table.state.audit(table.truth) == [], seed
        for _, action in table.history:
            assert parse_action(str(action)) == action
        reasons[re.search(r"S-\d+", outcome.reason).group(0)] += 1
    assert reasons["S-24"] > 150, reasons


def test_random_play_reaches_every_kind_of_action(game):
    kinds = Counter()
    for seed in range(60):  # every other game with the option mail-shortcuts (its 'take' and next-turn answers)
        options = {"mail-shortcuts": True} if seed % 2 else {}
        _, table = playout(game, 2, [RandomBot(), RandomBot()], options, seed=seed)
        for _, a in table.history:
            kinds[type(a)] += 1
            kinds["combined"] += type(a) is Attack and len(a.attackers) > 1
            kinds["direct"] += type(a) is Attack and a.target is None
    for kind in (Summon, Double, Joker, Attack, Replace, End, Take, Stop, CounterAction, Pass, "combined", "direct"):
        assert kinds[kind] > 0, kind


def test_clone_is_independent(game):
    t = Table.deal(game, 2, seed=5)
    bots = [RandomBot(), RandomBot()]
    for _ in range(40):
        seat = t.state.deciders()[0]
        t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), t.rng))
    copy = t.state.clone()

    def snap(st):
        return (repr(st.hands), repr(st.pile), repr(st.field), repr(st.gone), st.phase, st.life, st.budget)

    before = snap(t.state)
    for _ in range(30):
        if copy.is_terminal():
            break
        seat = copy.deciders()[0]
        copy.apply(seat, random.Random(1).choice(copy.legal_actions(seat, t.truth)))
        for ref, who in copy.visibility().items():
            if who == -1 and ref not in copy.public_faces():
                copy.reveal(ref, t.truth[ref])
    assert snap(t.state) == before


# -- refusals --------------------------------------------------------------------------------------------

def _random_action(rng: random.Random, refs: list[CardRef]):
    faces = standard_deck("RB")
    pick = lambda: rng.choice(refs)  # noqa: E731
    face = lambda: rng.choice(faces)  # noqa: E731
    plays = lambda: tuple((pick(), face()) for _ in range(rng.randint(1, 3)))  # noqa: E731
    return rng.choice([
        lambda: Summon(pick(), face()), lambda: Double(pick(), face(), pick()), lambda: Joker(pick(), face(), pick()),
        lambda: Win(plays()), lambda: Attack(tuple(pick() for _ in range(rng.randint(1, 3))),
                                             None if rng.random() < 0.3 else pick()),
        lambda: Replace(pick(), pick(), face()), lambda: End(), lambda: Take(), lambda: Stop(pick(), face()),
        lambda: CounterAction(plays()), lambda: Pass(),
    ])()


def _snap(st) -> tuple:
    return (repr(st.hands), repr(st.pile), repr(st.unseen), repr(st.field), repr(st.gone), repr(st.claims),
            repr(st.won), repr(st.answerable), repr(st.damage), repr(st.pending), repr(st.chain), st.phase,
            st.life, st.budget, st.current, st.turn, st.active, st.idle, st.result)


def test_every_refusal_names_its_rule_and_changes_nothing(game):
    """Random actions by random seats in random positions: each IllegalMove quotes the action and a rule,
    and leaves the state as it was."""
    defined = digest_rules()
    seen = set()
    for seed in range(15):
        t = Table.deal(game, 2, seed=seed)
        rng = random.Random(seed)
        bots = [RandomBot(), RandomBot()]
        while not t.state.is_terminal():
            seat = t.state.deciders()[0]
            mine = sorted(t.state.hands[seat]) + [u.refs[0] for f in t.state.field for u in f]
            for _ in range(6):
                action = _random_action(rng, mine)
                trial = t.state.clone()
                before = _snap(trial)
                try:
                    trial.apply(rng.randrange(2), action)
                except IllegalMove as err:
                    assert err.rule in defined and f"(rule {err.rule})" in str(err)
                    assert str(action) in str(err)
                    assert _snap(trial) == before, action
                    seen.add(err.rule)
            t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), t.rng))
        with pytest.raises(IllegalMove) as err:
            t.state.apply(0, End())
        assert err.value.rule == "S-28"
    assert {"S-4", "S-8", "S-9", "S-11", "S-14", "S-17", "S-18", "S-19", "S-20", "S-21", "S-22"} <= seen, seen


def test_legal_actions_are_all_accepted(game):
    """Whatever legal_actions offers, apply accepts (20 games, every offered action tried on a clone)."""
    for seed in range(20):
        t = Table.deal(game, 2, seed=seed)
        bots = [RandomBot(), RandomBot()]
        while not t.state.is_terminal():
            seat = t.state.deciders()[0]
            for action in t.state.legal_actions(seat, t.known(seat)):
                t.state.clone().apply(seat, action)
            t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), t.rng))


# -- bots and rendering --------------------------------------------------------------------------------------

def test_heuristic_bot_beats_random(game):
    wins = 0
    for seed in range(100):
        hero = seed % 2
        bots = [RandomBot(), RandomBot()]
        bots[hero] = HeuristicBot()
        outcome, table = playout(game, 2, bots, seed=seed)
        wins += hero in outcome.winners
        assert table.state.audit(table.truth) == []
    assert wins >= 90


def test_heuristic_bots_play_each_other(game):
    for seed in range(20):
        outcome, table = playout(game, 2, [HeuristicBot(), HeuristicBot()], seed=seed)
        assert outcome is not None and not table.violations and table.state.audit(table.truth) == []


def test_render_shows_own_hand_fields_and_hides_the_rest(rig, play):
    t = rig("KH 9H", "QS 10S")
    play(t, 0, "summon s#0=kh", "end")
    play(t, 1, "summon s#5=qs")
    mine = t.state.render(0, t.known(0))
    assert "Seat 0 (you): 80 life points" in mine and "9H s#1" in mine and "KH s#0 (13)" in mine
    assert "QS s#5 (12)" in mine and "10S" not in mine and "Draw pile: 98" in mine
    theirs = t.state.render(1, t.known(1))
    assert "10S s#6" in theirs and "Your move: summon" in theirs and "summoned 12 of 14" in theirs
    spectator = t.state.render(None, t.state.public_faces())
    assert "9H" not in spectator and "10S" not in spectator and "Hand:" not in spectator
    play(t, 1, "end")
    play(t, 0, "end")
    assert "Your move" not in t.state.render(0, t.known(0))
