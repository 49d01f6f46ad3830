"""Issue 14.1 for skirmish: a character, a dual reveal or a fight plan changes no public byte but its
ciphertexts and commitments until it is opened (protocol §6a, K-2, K-9, K-16)."""

from __future__ import annotations

import re

import pytest
from public_bytes import Alter, assert_same_public_bytes

from duelmail.crypto.seal import box_size
from duelmail.engine.memo import make_memo
from duelmail.errors import CryptoError
from duelmail.games.base import get_game
from duelmail.games.skirmish.bots import HeuristicBot
from duelmail.games.skirmish.notation import SEALED_BYTES
from duelmail.testing.selfplay import SelfPlay


def test_a_character_leaks_nothing_to_the_seat_that_builds_after_it_K2():
    """Bob builds first (round 1); Alice builds after reading his file. A 13-card all-round character and a
    10-Strength one with a different start reveal must look alike, byte for byte, until the start is opened."""
    runs = []
    for builds, start in ((("str 4", "spd 3", "end 3", "dex 3"), "str1 spd1 end1 dex1"),
                          (("str 10", "spd 1", "end 1", "dex 1"), "str1 spd1! end1! dex1!")):
        sp = SelfPlay("skirmish", n=2, seed=4)
        sp.deliver(sp.compose(1, [f"build {b}" for b in builds] + [f"dual d0: {start}"]))
        sp.run(until=lambda m: any(lb == "d0" for _, lb in m.opened) or m.state.openings())
        runs.append(sp.files)
    assert len(runs[0]) >= 3  # genesis, Bob's character, Alice's character
    assert assert_same_public_bytes(*runs) >= 1
    memo = runs[0][1].content["memo"]  # 4 builds and a dual, each in its kind's block
    assert len(memo) == len(runs[1][1].content["memo"]) and (len(memo) * 3) // 4 == box_size(
        4 * SEALED_BYTES["build"] + SEALED_BYTES["dual"])


@pytest.mark.parametrize("seed", [3])
def test_a_dual_reveal_of_nothing_looks_like_any_other_K9(seed):
    """The leak of issue 14: 'dual dN: -' made a 48-byte memo. Now a seat that reveals nothing in a dual
    reveal writes the same bytes as one that reveals cards, and the other seat's files do not change."""
    runs, played = [], []
    for alter in (lambda a: str(a), lambda a: f"dual {a.label}: -"):
        bot = Alter(HeuristicBot(), "skirmish", lambda lb: re.fullmatch(r"d[1-9][0-9]*", lb), alter)
        sp = SelfPlay("skirmish", n=2, seed=seed, bots=[HeuristicBot(), bot])
        sp.run(until=lambda m: any(re.fullmatch(r"d[1-9][0-9]*", lb) for _, lb in m.opened))
        runs.append(sp.files[:-1])  # every file before the one that opens it
        played.append(bot.done[0][1])
    assert played[1].endswith(": -") and len(played[0]) > len(played[1]), played
    assert assert_same_public_bytes(*runs) >= 1


def test_a_fight_plan_changes_no_public_byte_before_it_is_opened_K16():
    """Bob commits his fight plan first (Alice commits and opens hers in one file after reading his): his plan,
    the bot's or all retreats, changes no public byte but his memo and commitment until it is opened."""
    runs, played = [], []
    for alter in (lambda a: str(a), lambda a: f"plan {a.label}: " + " ".join("6" for _ in a.steps)):
        bot = Alter(HeuristicBot(), "skirmish", lambda lb: lb[0] == "p", alter)
        sp = SelfPlay("skirmish", n=2, seed=1, bots=[HeuristicBot(), bot])
        sp.run(until=lambda m: any(lb.startswith("p") for _, lb in m.opened))
        runs.append(sp.files[:-1])
        played.append(bot.done[0][1])
    assert played[0] != played[1], played
    assert assert_same_public_bytes(*runs) >= 1


@pytest.mark.parametrize("texts", [("build str 1", "build dex 10"), ("dual d3: -", "dual d12345: str10! spd10! "
                                   "end10! dex10!"), ("plan p9: 3", "plan p99999: " + " ".join(["1>5"] * 10))])
def test_every_choice_of_a_kind_seals_to_one_size_K2_K9_K16(texts):
    """The shortest and the longest text of each kind (a plan with a target per step, as in a fight of three)."""
    game = get_game("skirmish")
    sizes = set()
    for text in texts:
        label = game.parse_action(text).sealed()
        sizes.add(len(make_memo(game, bytes(32), "ab" * 32, 3, 1, {label: text})))
    assert len(sizes) == 1


def test_a_choice_longer_than_its_kind_is_refused_not_sealed_K16():
    sp = SelfPlay("skirmish", n=2, seed=4)
    with pytest.raises(CryptoError, match=r"sealed value b'plan p1: 3 3 3 .* its kind's block holds at most 62"):
        sp.compose(1, ["build str 4", "build spd 3", "build end 3", "build dex 3", "dual d0: str1 spd1 end1 dex1",
                       "plan p1: " + " ".join(["3"] * 30)])
