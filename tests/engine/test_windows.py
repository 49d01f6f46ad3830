"""Answer windows through the engine (protocol 5b): whole games of Summoner and Warlords under the source's
timing (the default), every file checked by the other seat's own Match, the audit passing; an action out of
turn actually taken; a file that does not answer its window refused (P-window)."""

from __future__ import annotations

import pytest

from duelmail.errors import FileRefused
from duelmail.games.warlords.bots import HeuristicBot
from duelmail.games.warlords.notation import PlayAce
from duelmail.games.warlords.rules import DEFEND
from duelmail.testing.selfplay import SelfPlay


def play_counting(sp: SelfPlay) -> list[tuple[str, int, str]]:
    """Play to the end; return (rule, seat, first action) for every file that answered a window."""
    answers = []
    for _ in range(5000):
        m = sp.match
        if m.finished:
            return answers
        for seat in sorted(m.duties):
            duty = m.duties[seat]
            f = sp.compose(seat)
            sp.deliver(f)
            if duty.windows:
                answers.append((duty.windows[0].rule, seat, f.content["actions"][0]))
    raise AssertionError("the game did not end")


def finished_and_audited(sp: SelfPlay) -> None:
    for m in sp.matches:  # each seat folded every file itself: signatures, passes, proofs, shares, moves
        assert m.finished and m.audit.ok, m.audit.lines
        assert not m.violations and m.prev == sp.matches[0].prev
    assert sp.fresh().audit.ok


@pytest.mark.parametrize("seed", range(2))
def test_summoner_whole_games_with_answer_windows(seed):
    """S-18, S-21, S-22: the opponent answers battles and direct attacks at once; the audit passes."""
    sp = SelfPlay("summoner", n=2, seed=seed)
    answers = play_counting(sp)
    finished_and_audited(sp)
    rules = {rule for rule, _, _ in answers}
    assert "S-18" in rules and "S-21" in rules, rules


def test_summoner_an_action_out_of_turn_is_taken():
    """Some seed of the heuristic bots stops a direct attack or replaces a winner in the opponent's turn."""
    for seed in range(2, 12):
        sp = SelfPlay("summoner", n=2, seed=seed)
        answers = play_counting(sp)
        taken = [a for a in answers if a[0] in ("S-18", "S-21") and not a[2].startswith("pass")]
        if taken:
            finished_and_audited(sp)
            assert taken[0][2].split()[0] in ("stop", "replace", "win")
            return
    raise AssertionError("no action out of turn in ten games")


@pytest.mark.parametrize("seed", range(1))
def test_warlords_whole_games_by_the_source(seed):
    """W-18, W-25, W-26 as the default, with the reinforcements option: the games end and audit clean."""
    sp = SelfPlay("warlords", n=2, seed=seed, options={"reinforcements": True})
    play_counting(sp)
    finished_and_audited(sp)


class AcesOutOfTurn(HeuristicBot):
    """Attacked, first discards any other Warlord of the attacker with an Ace (W-18)."""

    def choose(self, state, seat, known, rng):
        if state.phase == DEFEND:
            aces = [a for a in state.legal_actions(seat, known) if isinstance(a, PlayAce) and a.target is not None]
            if aces:
                return aces[0]
        return super().choose(state, seat, known, rng)


def test_warlords_an_ace_out_of_turn_is_taken():
    """W-18: the attacked seat plays an Ace outside battle in the attacker's turn, in its defence file."""
    for seed in range(10):
        sp = SelfPlay("warlords", n=2, seed=seed, bots=[AcesOutOfTurn(), AcesOutOfTurn()])
        sp.run()
        if any(f.content["actions"] and f.content["actions"][0].startswith("ace ")
               and len(f.content["actions"][0].split()) == 3 and len(f.content["actions"]) > 1
               and f.content["actions"][1].startswith("defend") for f in sp.files[1:]):
            finished_and_audited(sp)
            return
    raise AssertionError("no Ace out of turn in ten games")


def test_a_file_that_does_not_answer_its_window_is_refused():
    """P-window: a seat awaited to answer out of turn answers first, with one of the window's verbs."""
    for seed in range(20):
        sp = SelfPlay("summoner", n=2, seed=seed)
        sp.run(until=lambda m: any(d.windows and m.state.windows()[0].rule == "S-18" for d in m.duties.values()))
        seat = next(s for s, d in sp.match.duties.items() if d.windows)
        with pytest.raises(FileRefused) as err:
            sp.compose(seat, ["end"])
        assert err.value.rule == "P-window" and "S-18" in str(err.value)
        words = sp.match.duties[seat].describe("pass")
        assert words.startswith("answer out of turn; pass") and "S-18" not in words  # no rule id alone (issue 39)
        assert "answer window (S-18)" in sp.match.duties[seat].protocol_words()
        return
