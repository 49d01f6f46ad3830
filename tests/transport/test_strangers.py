"""What nobody a home plays with sent is bounded for the whole home, oldest dropped first (issue 38, item 3):
invitations never joined, and files of games the home does not hold (kept until their genesis comes). Real signed
files, read by ``mail fetch`` from a Maildir as any mail would reach the home."""

from __future__ import annotations

import mailbox
import os
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from freezegun import freeze_time

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from clitable import dm  # noqa: E402
from helpers import Players  # noqa: E402

from duelmail import app  # noqa: E402
from duelmail.home import Home  # noqa: E402
from duelmail.protocol.identity import Identity  # noqa: E402
from duelmail.protocol.turnfile import SignedFile  # noqa: E402
from duelmail.transport import mail as mailt  # noqa: E402
from duelmail.transport import strangers  # noqa: E402

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def invitation(creator: Identity, cards, n: int) -> SignedFile:
    content = app.genesis_content("summoner", cards, 0, {}, NOW, bytes([n]) * 16, master=creator.master)
    return SignedFile.sign(content, creator)


def post(md: Path, f: SignedFile, sender: str, to: str) -> None:
    mailbox.Maildir(md, create=True).add(mailt.compose(None, f, sender, [to], NOW).as_bytes())


def test_invitations_from_strangers_are_bounded_oldest_dropped_and_a_partners_is_kept(tmp_path, monkeypatch):
    with freeze_time(NOW + timedelta(hours=1), tick=True):  # the home's clock after the files it reads
        monkeypatch.setattr(strangers, "MAX_ITEMS", 3)
        alice, bob = tmp_path / "alice", tmp_path / "bob"
        dm(alice, "id", "new", "alice", "--email", "alice@example.org")
        dm(bob, "id", "new", "bob", "--email", "bob@example.org")
        (tmp_path / "bob.toml").write_text(dm(bob, "id", "card"))
        dm(alice, "new", "summoner", "--seat", "alice", "--seat", str(tmp_path / "bob.toml"))  # alice plays with bob
        me = Home(alice).load_identity(None).card
        mallory = Identity.generate("mallory", "mallory@example.org", seed=b"m" * 32)
        md = tmp_path / "md"
        sent = [invitation(mallory, [mallory.card, me], n) for n in range(5)]
        for f in sent:
            post(md, f, "mallory@example.org", "alice@example.org")
            out = dm(alice, "mail", "fetch", str(md))  # one at a time: each a little older than the next
        assert "dropped the invitation summoner-" in out and "the oldest of what nobody you play with sent" in out, out
        games = {p.name[-12:] for p in (alice / "games").iterdir()}
        assert {f.game[:12] for f in sent[2:]} <= games and not {f.game[:12] for f in sent[:2]} & games, games
        st = dm(alice, "status", "--all")
        assert "this home holds 3 things" in st and "that nobody you play with sent" in st, st
        one = dm(alice, "status", sent[-1].game[:12])
        assert "this home holds 3 things" in one and "nobody you play with sent" in one, one
        bobs = invitation(Home(bob).load_identity(None), [Home(bob).load_identity(None).card, me], 9)
        post(md, bobs, "bob@example.org", "alice@example.org")
        out = dm(alice, "mail", "fetch", str(md))
        assert "a new game" in out and "dropped" not in out, out  # bob plays with alice: his invitation never counts
        assert (alice / "games" / f"summoner-{bobs.game[:12]}").is_dir()
        assert not (alice / "games" / f"summoner-{bobs.game[:12]}" / strangers.MARK).exists()
        # joining takes an invitation out of the strangers' count
        genesis = alice / "games" / f"summoner-{sent[-1].game[:12]}" / "genesis.toml"
        dm(alice, "join", str(genesis))
        assert "this home holds 2 things" in dm(alice, "status", sent[-1].game[:12])


def test_a_file_of_a_game_not_held_yet_is_kept_and_applied_when_its_genesis_comes(tmp_path, monkeypatch):
    """Mail overtakes mail: bob's acceptance reaches a third home before the genesis. It is kept (within the bounds
    for strangers, oldest dropped first) and applied as soon as the genesis comes."""
    monkeypatch.setattr(strangers, "MAX_ITEMS", 3)
    p = Players("highcard", seed=3).run(limit=10_000)
    genesis, accept = p.files[0], next(f for f in p.files if f.round == 1)
    with freeze_time(p.clock + timedelta(hours=1), tick=True):  # the home's clock after the files it reads
        carol = tmp_path / "carol"
        dm(carol, "id", "new", "carol", "--email", "carol@example.org")
        md = tmp_path / "md"
        post(md, accept, "bob@example.org", "carol@example.org")
        out = dm(carol, "mail", "fetch", str(md))
        assert f"is waiting for the genesis of game {accept.game[:12]}" in out and "REFUSED" not in out, out
        junk = Identity.generate("mallory", "m@example.org", seed=b"j" * 32)
        for i in range(3):  # files of games nobody will ever see: the oldest of what strangers sent goes first
            fake = SignedFile.sign({**accept.content, "game": os.urandom(8).hex(), "round": 1 + i}, junk)
            post(md, fake, "m@example.org", "carol@example.org")
            out = dm(carol, "mail", "fetch", str(md))
        assert "dropped r0001-s1.toml of game" in out, out  # bob's acceptance was the oldest: dropped
        assert len(list((carol / strangers.DIR).glob("*.toml"))) == 3
        post(md, accept, "bob@example.org", "carol@example.org")  # its sender still has it: it comes again
        post(md, genesis, "alice@example.org", "carol@example.org")
        out = dm(carol, "mail", "fetch", str(md))
        assert "a new game" in out and "round 1 seat 1 verified and applied" in out, out
        assert Home(carol).game_folders()[0].fold().round >= 2


def test_the_bound_is_in_bytes_too_and_a_homes_own_genesis_never_counts(tmp_path, monkeypatch):
    """Eight invitations from a stranger in a home allowed about three of them by size: the newest stay. A
    genesis this home's own seat created (a home restored from its identity reads its log again) is no stranger's."""
    home = Home(tmp_path / "alice")
    alice = Identity.generate("alice", "alice@example.org", seed=b"a" * 32)
    home.add_identity(alice)
    mallory = Identity.generate("mallory", "mallory@example.org", seed=b"m" * 32)
    sent = [invitation(mallory, [mallory.card, alice.card], n) for n in range(8)]
    app.receive_files(home, alice, [("inv0", sent[0])], NOW)
    size = strangers.Strangers(home).usage()[1]  # a genesis and its caches
    monkeypatch.setattr(strangers, "MAX_BYTES", int(size * 3.5))
    for i, f in enumerate(sent[1:]):
        (r,) = app.receive_files(home, alice, [(f"inv{i}", f)], NOW)
    assert len(r.dropped) == 1 and "the invitation summoner-" in r.dropped[0], r
    held = {f.path.name[-12:] for f in home.game_folders()}
    n = len(held)  # three whole, and the newest before the caches its folder gains once read
    assert n in (3, 4) and held == {f.game[:12] for f in sent[-n:]}, held  # the oldest went first
    assert strangers.Strangers(home).usage()[1] <= strangers.MAX_BYTES + size
    mine = invitation(alice, [alice.card, mallory.card], 50)
    app.receive_files(home, alice, [("mine", mine)], NOW)
    assert not (home.folder_of(mine.game).path / strangers.MARK).exists()
