"""Whole Wizard Duel games in the plain simulator: 200 seeded random games per player count with the audit,
every option, refusals that name their rule, bots, and rendering; the digest and the tests cite every rule.

The crypto engine plays a few whole games per count (``test_wizard_engine.py``); a game through it costs
seconds, so the 200 per count run here, where no point is multiplied.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from duelmail.errors import IllegalMove
from duelmail.games.base import RandomBot
from duelmail.games.simulate import Table, playout
from duelmail.games.wizard.bots import HeuristicBot
from duelmail.games.wizard.notation import Attack, Defend, Pass, Take, Target, parse_action

ROOT = Path(__file__).resolve().parents[3]
DIGEST = ROOT / "seeds" / "wizard.md"
OPTIONS = [{}, {"anytime": True}, {"sudden-death": True}, {"anytime": True, "sudden-death": True}]


def digest_rules() -> set[str]:
    return set(re.findall(r"\*\*(Z-\d+) ", DIGEST.read_text()))


def test_digest_has_its_rules_and_rulings():
    """The numbering and the code's citations are checked for every game in tests/games/test_digests.py."""
    assert len(digest_rules()) == 29  # Z-29: a player removed by escrow
    text = DIGEST.read_text()
    assert "004_c35a70166b26c3ea.txt" in text and "## Rulings made for play by mail" in text
    for gap in ("deflected spell's strength", "An ace of hearts may deflect", "lasts until the spell is over",
                "attack window", "answer-hours"):
        assert gap in text


def test_tests_cite_every_rule():
    cited = set()
    for f in Path(__file__).parent.glob("test_*.py"):
        cited |= {f"Z-{n}" for n in re.findall(r"def test_z(\d+)_", f.read_text())}
    assert cited == digest_rules(), digest_rules() - cited


def _check(table: Table, seed: int) -> str:
    outcome = table.state.outcome()
    assert outcome is not None and not outcome.cheaters, (seed, outcome)
    assert table.violations == [] and table.state.audit(table.truth) == [], seed
    st = table.state
    held = [r for h in st.hands for r in h] + [r for x in st.lives for r in x] + st.stock + st.used
    base = [r for r in held if r.deck == "w"] + st.spent
    fresh = [r for r in held if r.deck == "w.1"]
    assert len(base) == len(set(base)) == 52 and len(fresh) == len(set(fresh)) == len(st.spent), seed  # no card
    # lost or doubled
    for _, action in table.history[::5]:
        assert parse_action(str(action)) == action
    return outcome.reason


@pytest.mark.parametrize("players", [3, 4, 6])
def test_200_random_games_per_player_count_end_and_pass_the_audit(game, players):
    """Z-20, Z-21: 200 seeded random games per count (the options mixed) end with a winner or a draw; no
    claim is broken (Z-24) and no card is lost or doubled."""
    reasons = set()
    for seed in range(200):
        options = OPTIONS[seed % len(OPTIONS)]
        outcome, table = playout(game, players, [RandomBot() for _ in range(players)], options, seed=seed)
        reasons.add(re.sub(r"seat \d+", "seat N", _check(table, seed)))
    assert "seat N is the last player in play (Z-20)" in reasons


@pytest.mark.parametrize("players", [7, 8, 9, 12])
def test_seven_to_twelve_players(game, players):
    """Z-1: from three to twelve players (the source's "virtually any number"); 12 seats leave 16 cards of stock."""
    for seed in range(20):
        _, table = playout(game, players, [HeuristicBot() for _ in range(players)], OPTIONS[seed % 4], seed=seed)
        _check(table, seed)


def _random_action(rng: random.Random, refs, faces):
    def card():
        return rng.choice(refs), rng.choice(faces)

    return rng.choice([
        lambda: Pass(), lambda: Take(), lambda: Target(rng.randrange(5)),
        lambda: Attack((card(), card()), rng.randrange(5)),
        lambda: Defend(tuple(card() for _ in range(rng.randint(1, 3))), rng.choice([None, rng.randrange(5)])),
    ])()


def test_every_refusal_names_its_rule_and_changes_nothing(game):
    """Random actions by random seats in random positions: each IllegalMove quotes the action and a rule."""
    defined = digest_rules()
    seen = set()
    for seed in range(10):
        t = Table.deal(game, 4, OPTIONS[seed % 4], seed=seed)
        rng = random.Random(seed)
        bots = [RandomBot() for _ in range(4)]
        refs, faces = sorted(t.truth), sorted(set(t.truth.values()))
        while not t.state.is_terminal():
            for _ in range(6):
                seat = rng.randrange(4)
                mine = [r for r in t.state.hands[seat]]
                action = _random_action(rng, mine + refs[:3] if mine else refs, faces)
                trial = t.state.clone()
                try:
                    trial.apply(seat, action)
                except IllegalMove as err:
                    assert err.rule in defined and f"(rule {err.rule})" in str(err)
                    assert str(action) in str(err)
                    seen.add(err.rule)
            seat = t.state.deciders()[0]
            t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), t.rng))
        with pytest.raises(IllegalMove) as err:
            t.state.apply(0, Pass())
        assert err.value.rule == "Z-26"
    assert {"Z-5", "Z-7", "Z-9", "Z-25"} <= seen


def test_bots_play_only_legal_moves_and_heuristic_beats_random(game):
    wins = 0
    games = 60
    for seed in range(games):
        hero = seed % 4
        bots = [RandomBot() for _ in range(4)]
        bots[hero] = HeuristicBot()
        outcome, table = playout(game, 4, bots, {}, seed=seed)
        assert not table.violations and not outcome.cheaters
        wins += outcome.winners == (hero,)
    assert wins > games / 4 + 10  # better than a fair share of four


def test_render_from_each_seat_and_a_spectator(game):
    t = Table.deal(game, 4, {}, seed=3)
    bots = [HeuristicBot() for _ in range(4)]
    for _ in range(12):
        seat = t.state.deciders()[0]
        t.play(seat, bots[seat].choose(t.state, seat, t.known(seat), t.rng))
    views = {s: t.state.render(s, t.known(s) if s is not None else dict(t.state.public_faces()))
             for s in (0, 1, 2, 3, None)}
    mover = t.state.deciders()[0]
    assert views[mover].startswith("Wizard Duel, turn ") and "Your move:" in views[mover]
    for s, text in views.items():
        for seat in range(4):
            for ref in t.state.hands[seat]:
                assert (f"{t.truth[ref]} {ref}" in text) == (s == seat), (s, ref)
        assert f"Seat {s} (you)" in text if s is not None else "(you)" not in text
