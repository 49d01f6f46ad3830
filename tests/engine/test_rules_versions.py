"""A game begun under an older rules version goes on under it (protocol: the genesis's ``rules_version``)."""

from __future__ import annotations

import pytest

from duelmail.app import demo_fresh
from duelmail.engine.match import Match
from duelmail.errors import FileRefused
from duelmail.games.base import get_game
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import NAMES, SelfPlay


def begun_under(game: str, version: int, seed: int = 0) -> SelfPlay:
    """A self-played game whose genesis names ``version`` (as an archive made by an older duelmail does)."""
    sp = SelfPlay(game, n=get_game(game).spec.min_players, seed=seed)
    sp.genesis = SignedFile.sign({**sp.genesis.content, "rules_version": version}, sp.ids[0])
    sp.files = [sp.genesis]
    sp.matches = [Match(sp.genesis) for _ in sp.ids]
    for s, m in enumerate(sp.matches):
        m.attach(s, sp.ids[s], demo_fresh(seed, NAMES[s], game))
    return sp


@pytest.mark.parametrize(("game", "old"), [("grid", 4), ("warlords", 3), ("summoner", 3), ("skirmish", 1)])
def test_a_game_begun_under_an_older_version_plays_on_under_it(game, old):
    spec = get_game(game).spec
    assert spec.oldest_rules_version == old < spec.rules_version
    assert SelfPlay(game).match.state.rules_version == spec.rules_version
    sp = begun_under(game, old).run(lambda m: m.round > 3)
    assert {m.state.rules_version for m in sp.matches} == {old}
    assert sp.match.state.plays_before(spec.rules_version) and sp.fresh().state.rules_version == old


@pytest.mark.parametrize("game", ["grid", "warlords", "summoner", "wizard", "skirmish"])
def test_a_version_this_duelmail_does_not_play_is_refused(game):
    spec = get_game(game).spec
    oldest = spec.oldest_rules_version or spec.rules_version
    for version in (oldest - 1, spec.rules_version + 1):
        with pytest.raises(FileRefused, match=f"rules version {version} of {game}; this duelmail plays") as e:
            begun_under(game, version)
        assert e.value.rule == "P-genesis"
