"""Every cheat the protocol must catch is caught, and the catch names the rule (and, on arrival,
the round and the seat). The table these tests check is the one docs/adversaries.md reports."""

from __future__ import annotations

import pytest

from duelmail.testing.adversary import COMMON_CHEATS, GAME_CHEATS, run_cheat

NO_CHANCE = {("summoner", "withheld key share (awaited for it)")}  # summoner never waits on shares alone
CASES = [(game, name) for game in ("warlords", "summoner") for name in {**COMMON_CHEATS, **GAME_CHEATS.get(game, {})}]
CASES += [("wizard", name) for name in GAME_CHEATS["wizard"]]  # three seats: only the game's own cheats (cost),
# with the escrow cheats (ESCROW_CHEATS, protocol §6c: a dealer named by a complaint, a holder by a timeout claim)
CASES += [("skirmish", "memo whose size tells its choice")]  # issue 14.1: a bare memo would tell its choice


@pytest.mark.parametrize(("game", "name"), CASES)
def test_cheat_is_caught(game, name):
    cheat = {**COMMON_CHEATS, **GAME_CHEATS.get(game, {})}[name]
    result = run_cheat(game, name, cheat, seed=3)
    if result.when == "n/a":  # only where the game never offers the chance, and says why
        assert (game, name) in NO_CHANCE, result
        return
    assert result.caught, result
    assert result.rule
    if result.when.startswith("on arrival"):
        assert result.round is not None and result.seat is not None
        assert f"round {result.round}" in result.detail and f"seat {result.seat}" in result.detail
    if result.when in ("at the audit", "by a timeout claim", "by a complaint") \
            or name == "face-down card that breaks its rules":
        assert result.seat is not None and result.seat >= 0


def test_a_face_claim_is_checked_before_the_attack_it_decides():
    """Issue 14: a Summoner seat summoned a false face, left out its key share and attacked with it in the
    same file; the attack resolved on the unchecked face. Now the file is refused on arrival, before any
    outcome is applied (P-unchecked), naming the round, the seat and the card."""
    result = run_cheat("summoner", "false face summoned without its key share",
                       GAME_CHEATS["summoner"]["false face summoned without its key share"], seed=3)
    assert result.when == "on arrival" and result.rule == "P-unchecked", result
    assert "lies face up unopened" in result.detail and f"seat {result.seat}" in result.detail
