"""Whole skirmish games: 200 seeded random games in the plain simulator and 200 through the real engine that fold
and verify, the engine agreeing with the simulator, a three-character fight, and the bots."""

from __future__ import annotations

import random

import pytest
from skirmish_helpers import GAME, start

from duelmail.games.simulate import Table, playout
from duelmail.games.skirmish.bots import HeuristicBot, RandomSkirmishBot
from duelmail.testing.selfplay import SelfPlay

FIELDS = ("open-field", "ruined-keep", "cliff-top")


def test_200_seeded_random_games_end_and_audit_clean_K34_K35():
    """Every option mix (battlefield, 2-4 players, short and long turn limits) ends, and the audit of every sealed
    choice finds nothing: honest bots never reveal more than they have nor hide an exhaustion."""
    reasons = set()
    for seed in range(200):
        n = 2 + seed % 3
        options = {"battlefield": FIELDS[seed % 3], "turns": 30 if seed % 4 else 8}
        out, t = playout(GAME, n, [RandomSkirmishBot() for _ in range(n)], options, seed=seed)
        assert t.state.is_terminal() and out is t.state.outcome()
        assert t.state.audit_sealed(t.sealed) == [], seed
        assert len(out.winners) <= 1 and all(t.state.alive[w] for w in out.winners)
        reasons.add(out.reason.split(" ")[0])
    assert reasons == {"last", "turn"}


@pytest.mark.parametrize("seed", range(200))
def test_200_seeded_random_games_through_the_engine_fold_verify_and_audit(seed):
    """K-35 through the real engine: signed files, sealed choices opened on demand, 2-4 players on every
    battlefield; a receiver's fresh fold checks every file, opens every memo in the audit and reaches the same
    chain head. One process plays every seat (``shared``), as the Warlords and Summoner seeded games do."""
    n = 2 + seed % 3
    # most games short (the plain simulator above plays 200 full-length ones); every 25th to the full 30 turns
    options = {"battlefield": FIELDS[seed % 3], "turns": 30 if seed % 25 == 0 else 10 if seed % 4 else 6}
    sp = SelfPlay("skirmish", n=n, seed=seed, options=options, bots=[RandomSkirmishBot() for _ in range(n)],
                  shared=True)
    sp.rng = random.Random(seed)
    sp.run()
    m = sp.match
    assert m.finished and m.audit.ok and not m.violations, m.audit.lines
    receiver = sp.fresh()
    assert receiver.prev == m.prev and receiver.audit.ok, receiver.audit.lines
    assert any("sealed choices" in line for line in receiver.audit.lines)


def test_heuristic_games_through_the_engine_with_one_match_per_seat():
    """The same, each seat with its own Match checking every file it receives (heuristic bots, three seats)."""
    sp = SelfPlay("skirmish", n=3, seed=1, options={"battlefield": "ruined-keep"},
                  bots=[HeuristicBot(), RandomSkirmishBot(), HeuristicBot()])
    sp.run()
    assert sp.match.finished and sp.match.audit.ok, sp.match.audit.lines
    assert all(other.prev == sp.match.prev for other in sp.matches) and sp.fresh().prev == sp.match.prev


def test_engine_and_plain_simulator_agree():
    """The same choices give the same game: the engine's files, sealed choices replaced by the real ones (from
    each seat's memos), replayed through the simulator."""
    sp = SelfPlay("skirmish", n=2, seed=5, options={"battlefield": "ruined-keep"})
    sp.run()
    secrets = {s: sp.matches[s].sealed_choices(s) for s in range(2)}
    t = Table.deal(GAME, 2, {"battlefield": "ruined-keep"}, 0)
    for f in sp.files[1:]:
        seat = f.content["seat"]
        for text in f.content["actions"]:
            if text == "join":
                continue
            real = secrets[seat][text[len("sealed "):]] if text.startswith("sealed ") else text
            t.play(seat, GAME.parse_action(real))
    mine, theirs = t.state, sp.match.state
    assert mine.outcome() == theirs.outcome()
    assert (mine.rev, mine.pos, mine.alive, mine.totals, mine.turn) == \
        (theirs.rev, theirs.pos, theirs.alive, theirs.totals, theirs.turn)


def test_a_three_character_fight_with_targets_K15_K17():
    """Three heuristic characters close together fight all at once; every attack names a target; the fight (and
    the game) play out to a winner and a clean audit."""
    t = start((3, 3, 5, 2), (4, 2, 5, 2), (2, 3, 5, 3), at=[(10, 12), (12, 12), (11, 13.5)])
    bots = [HeuristicBot() for _ in range(3)]
    plans = 0
    while not t.state.is_terminal():
        seat = t.state.deciders()[0]
        action = bots[seat].choose(t.state, seat, t.known(seat), t.rng)
        if t.state.wait[0] == "plan" and len(t.state.fight["members"]) == 3:
            plans += 1
            assert all(tgt is not None and tgt != seat for a, tgt in action.steps if a in (1, 2, 4))
        t.play(seat, action)
    assert plans >= 3 and len(t.state.outcome().winners) == 1
    assert t.state.audit_sealed(t.sealed) == []


def test_the_heuristic_bot_beats_the_random_one():
    wins = 0
    for seed in range(40):
        hero = seed % 2
        bots = [RandomSkirmishBot(), RandomSkirmishBot()]
        bots[hero] = HeuristicBot()
        out, _ = playout(GAME, 2, bots, {"battlefield": FIELDS[seed % 3]}, seed=seed)
        wins += hero in out.winners
    assert wins >= 28, wins


def test_bots_only_choose_legal_actions_and_read_their_own_totals():
    """The bots see their own stat totals through Known.sealed (and nobody else's)."""
    t = Table.deal(GAME, 2, {}, 3)
    rng = random.Random(0)
    while t.state.wait[0] == "build" or t.state.wait[0] == "start":
        seat = t.state.deciders()[0]
        t.play(seat, HeuristicBot().choose(t.state, seat, t.known(seat), rng))
    totals = [t.state.own_totals(t.known(s)) for s in range(2)]
    assert all(len(x) == 4 and sum(x.values()) <= 13 for x in totals)
    for s in range(2):
        assert t.known(s).sealed == {label: a for (seat, label), a in t.sealed.items() if seat == s}
