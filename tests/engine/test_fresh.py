"""Issue 14.4: per-game secrets mix fresh randomness each seat seals to itself in its first file of the game, so
the identity and the log recover them, and an old genesis sent again to a restored home gets new ones."""

from __future__ import annotations

import copy

import pytest
from helpers import T0, Players

from duelmail.app import join_game
from duelmail.crypto.deck import LockerSecrets
from duelmail.engine.match import Match
from duelmail.errors import FileRefused
from duelmail.home import Home
from duelmail.protocol.turnfile import SignedFile


def first_file(p: Players, seat: int) -> SignedFile:
    return next(f for f in p.files[1:] if f.seat == seat)


def test_an_old_genesis_sent_to_a_restored_home_gets_fresh_secrets(tmp_path):
    p = Players(n=2, seed=3).run()
    published = p.match.seeds[1]  # the game is over: bob's seed is public
    assert published == p.matches[1].own[1]
    home = Home(tmp_path / "restored")  # bob's laptop was lost; he restored his identity only
    home.add_identity(p.ids[1])
    again = join_game(home, p.ids[1], p.genesis, T0, "old-genesis.toml")
    assert again.match.own[1] != published
    assert again.file.content["entropy"] != first_file(p, 1).content["entropy"]
    old, new = (LockerSecrets(s, "s", 13) for s in (published, again.match.own[1]))
    assert old.perm != new.perm or old.keys != new.keys
    assert old.keys[0] != new.keys[0]
    # whoever replayed the genesis holds both round-1 files: the second one is equivocation, proven by the pair
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(again.file, "rejoin.toml")
    assert info.value.rule == "P-equivocation"


def test_the_identity_and_the_log_recover_the_seed():
    p = Players(n=2, seed=4)
    p.run(until=lambda m: len(p.matches[1].known(1)) > len(m.known(None)))  # bob sees a card nobody else does
    lost = p.fresh()  # a new machine: only the files, then the identity
    lost.attach(1, p.ids[1], bytes(32))  # whatever randomness it offers, the log's wins
    assert lost.own[1] == p.matches[1].own[1]
    assert lost.known(1) == p.matches[1].known(1)
    early = Match(p.genesis)  # attached before reading the log: the first file fixes the seed
    early.attach(1, p.ids[1], bytes(32))
    guessed = early.own[1]
    for f in p.files[1:]:
        early.apply(f, "x")
    assert early.own[1] == p.matches[1].own[1] != guessed


def test_only_a_seats_first_file_carries_its_sealed_randomness():
    p = Players(n=2, seed=5)
    f = p.compose(1)
    assert f.round == 1 and "entropy" in f.content
    for change, why in ((lambda c: c.pop("entropy"), "only its first file"),
                        (lambda c: c.update(entropy=c["entropy"][:-4]), "a sealed box of 32 bytes")):
        content = copy.deepcopy(f.content)
        change(content)
        with pytest.raises(FileRefused) as info:
            p.fresh().apply(SignedFile.sign(content, p.ids[1]), "r0001-s1.toml")
        assert info.value.rule == "P-entropy" and why in str(info.value) and "round 1" in str(info.value)
    p.deliver(f)
    p.run(until=lambda m: 1 in m.duties)
    later = p.compose(1)
    assert "entropy" not in later.content
    content = {**copy.deepcopy(later.content), "entropy": f.content["entropy"]}
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(SignedFile.sign(content, p.ids[1]), "again.toml")
    assert info.value.rule == "P-entropy" and "the log has it already" in str(info.value)
