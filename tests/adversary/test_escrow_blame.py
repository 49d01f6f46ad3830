"""Issue 37, item 3: a dealer's wrong escrow share never costs its holder the game (protocol section 6c, "Removal").

Four homes play by files through ``duelmail`` commands (``new``, ``join``, ``play``, ``receive``, ``resign``,
``claim``). Dave resigns and leaves; every seat re-deals its escrowed keys among the three left. The attacker X
re-deals with one wrong share to holder B (the dealer's own signed file, forged with the test's harness as
``adversary.wrong_escrow_share`` does), then either plays on honestly until it owes a file whose silence would forfeit
the game and falls silent, a partner claiming its timeout (B's home complains in its next file first), or leaves at
once by resigning (B's home complains at the removal itself, its proved decryption in place of the shares). Every
home names X and records that B did not lose.
The identities and every per-game random value are fixed, so the games (and where the attack falls) are the same on
every run."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from clitable import dm
from freezegun import freeze_time

from duelmail.app import demo_identity
from duelmail.crypto import escrow as esc
from duelmail.crypto import group
from duelmail.home import Home
from duelmail.protocol.turnfile import SignedFile, parse_any

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
from escrow_play import forfeits  # noqa: E402

NAMES = ["alice", "bob", "carol", "dave"]


class Homes:
    """Four homes with fixed identities; every file one writes goes to the other three's inboxes."""

    def __init__(self, tmp: Path, game: str):
        self.tmp, self.out = tmp, tmp / "outbox"
        self.homes = [tmp / n for n in NAMES]
        self.ids = [demo_identity(37, n) for n in NAMES]
        for home, ident in zip(self.homes, self.ids, strict=True):
            Home(home).add_identity(ident)
            (tmp / f"{ident.name}.card").write_text(dm(home, "id", "card"))
        self.inbox: dict[Path, list[Path]] = {h: [] for h in self.homes}
        seats = [x for n in NAMES for x in ("--seat", n if n == "alice" else str(tmp / f"{n}.card"))]
        dm(self.homes[0], "new", game, *seats, "--out", str(self.out))
        for home in self.homes[1:]:
            self.written(home, "join", str(self.out / "genesis.toml"))

    def written(self, home: Path, *args: str, code: int = 0) -> str:
        before = set(self.out.iterdir())
        text = dm(home, *args, "--out", str(self.out), code=code)
        self.post(home, sorted(set(self.out.iterdir()) - before))
        return text

    def post(self, sender: Path | None, files: list[Path]) -> None:
        for other in self.homes:
            if other != sender:
                self.inbox[other] += files

    def settle(self, *skip: Path) -> None:
        for _ in range(12):
            for home in self.homes:
                if self.inbox[home] and home not in skip:
                    files, self.inbox[home] = self.inbox[home], []
                    self.written(home, "receive", *map(str, files))
            if not any(v for h, v in self.inbox.items() if h not in skip):
                return

    def settle_until_silent(self, x: int) -> bool:
        """``settle``, but seat ``x``'s home takes its files in (and answers by itself) only while the open round,
        as the honest homes hold it, awaits no file of ``x`` whose silence forfeits the game: from then on ``x`` is
        silent. True if it fell silent."""
        honest = [h for h in self.homes[:3] if h != self.homes[x]]
        for _ in range(12):
            self.settle(self.homes[x], self.homes[3])
            m = self.match(self.homes.index(honest[0]))
            if x in m.duties and forfeits(m, x):
                return True
            if not self.inbox[self.homes[x]]:
                return False
            files, self.inbox[self.homes[x]] = self.inbox[self.homes[x]], []
            self.written(self.homes[x], "receive", *map(str, files))
        return False

    def status(self, home: Path) -> dict:
        return json.loads(dm(home, "status", "--json"))

    def todo(self) -> list[int]:
        st = self.status(self.homes[0])
        return [int(s) for s in st["awaited"] if not (self.out / f"r{st['round']:04d}-s{s}.toml").exists()]

    def match(self, seat: int):
        """Seat ``seat``'s home's game (its kept state), acting for the seat."""
        (folder,) = Home(self.homes[seat]).game_folders()
        m = folder.fold()
        m.attach(seat, self.ids[seat])
        return m


def _forge(t: Homes, f: SignedFile, holder: int) -> SignedFile:
    """The dealer's re-dealing with the share of position 1 of its first deck to ``holder`` replaced."""
    m = t.match(holder)
    content = copy.deepcopy(f.content)
    what = sorted(content["escrow_reshare"])[0]
    d = content["escrow_reshare"][what]
    label = f"{what}@{len(m.dealing_history[(f.seat, what)])}"
    ctx = esc.escrow_context(m.gid, f.round, f.seat, f"{label}/to-{holder}")
    shares = esc.decrypt_shares(d["shares"][str(holder)], m._own_escrow_secret(holder), ctx, m.book.decks[what].n)
    shares[1] = group.scalar_from_int(4242)
    d["shares"][str(holder)] = esc.encrypt_shares(shares, m.escrow_keys[holder], ctx)
    return SignedFile.sign(content, t.ids[f.seat])


def fixed_randomness(monkeypatch) -> None:
    """The seats' fresh randomness and the genesis nonce from a counter: the same game every run."""
    counter = iter(range(10**9))

    def fixed(n: int) -> bytes:
        c = next(counter)
        return b"".join(hashlib.sha256(b"i37 %d %d" % (c, k)).digest() for k in range(n // 32 + 1))[:n]

    monkeypatch.setattr(os, "urandom", fixed)


def after_a_departure(tmp_path: Path, game: str, clock) -> Homes:
    """Four homes play a few turns (every deck locked and dealt); dave resigns and leaves."""
    t = Homes(tmp_path, game)
    for i in range(80):
        t.settle()
        if t.status(t.homes[0])["round"] > 8:
            break
        for s in t.todo():
            t.written(t.homes[s], "play", "--bot", "heuristic", "--seed", str(i))
        clock.tick(timedelta(minutes=5))
    assert "the others publish their escrow shares of dave" in t.written(t.homes[3], "resign")
    t.settle()
    return t


def trial(t: Homes, tmp_path: Path, seat: int, i: int) -> tuple[SignedFile, Path, Path]:
    """``seat``'s next move (the bot's), played on a copy of its home: the file, its name, the copy."""
    home, out = tmp_path / f"trial{i}-{seat}", tmp_path / f"trial-out{i}-{seat}"
    shutil.copytree(t.homes[seat], home)
    dm(home, "play", "--bot", "heuristic", "--seed", str(i), "--out", str(out))
    (path,) = out.iterdir()
    return parse_any(path.read_text(), path.name)[0], path, home


@pytest.mark.parametrize("game", ["warlords", "wizard"])
def test_a_dealers_wrong_share_names_the_dealer_and_its_holder_loses_in_no_home(tmp_path, monkeypatch, game):
    """B's home checks the dealing before it signs its next file (a home folds its log before it knows its
    identity: before issue 37 it never checked, published the wrong share at the removal and was named the cheat)
    and complains in it; the claim against the silent dealer then ends the game against it, B and A winning."""
    fixed_randomness(monkeypatch)
    with freeze_time("2026-11-21 12:00:00") as clock:
        t = after_a_departure(tmp_path, game, clock)
        x = b = None
        for i in range(80):  # the three left play on; a re-dealing is forged, its dealer then falls silent
            if x is not None and t.settle_until_silent(x):
                break  # it withheld a decision-free answer whose silence forfeits
            t.settle(t.homes[3])
            todo = t.todo()
            if x is not None and x in todo and forfeits(t.match(x), x):
                break  # it owes a decision whose silence forfeits
            for s in todo:
                if x is None:  # played on a copy of the home first: does this file re-deal?
                    f, path, copied = trial(t, tmp_path, s, i)
                    if "escrow_reshare" in f.content:
                        nxt = [int(a) for a in t.status(copied)["awaited"]]  # who answers it: B is another holder
                        holders = sorted(int(h) for h in next(iter(f.content["escrow_reshare"].values()))["shares"])
                        x, b = s, next((h for h in holders if h not in nxt), holders[-1])
                        forged = t.out / path.name
                        forged.write_text(_forge(t, f, b).to_toml())
                        t.post(None, [forged])  # its own home too: it signed this file and sent it
                        continue
                t.written(t.homes[s], "play", "--bot", "heuristic", "--seed", str(i))
            clock.tick(timedelta(minutes=5))
        else:
            raise AssertionError("the dealer never owed a file whose silence forfeits")
        a = next(s for s in range(3) if s not in (x, b))
        complained = any("escrow_complaint" in parse_any(p.read_text(), p.name)[0].content
                         for p in t.out.glob(f"r*-s{b}.toml"))
        assert complained  # its next file, which came before the dealer's silence in both games
        st = t.status(t.homes[a])
        assert str(x) in st["awaited"], (x, b, a, st)
        clock.move_to(datetime.fromisoformat(st["awaited"][str(x)]["claim_from"]) + timedelta(minutes=1))
        t.written(t.homes[a], "claim")
        t.settle(t.homes[3], t.homes[x])  # the dealer stays silent: its home reads nothing
        clock.tick(timedelta(hours=25))  # the claim's last call (protocol section 6b) runs out in every home
        for seat in range(3):
            if seat != x:
                t.status(t.homes[seat])  # (any command that reads the game closes a last call run out)
        t.settle(t.homes[3], t.homes[x])
        for seat in (a, b):
            home = t.homes[seat]
            st = t.status(home)
            assert st["over"] and NAMES[x] in st["result"] and "ran out of time" in st["result"], (seat, st)
            winners = st["result"].split(" won:")[0]
            assert NAMES[b] in winners and NAMES[a] in winners and NAMES[x] not in winners, (seat, st["result"])
            history = dm(home, "history")
            assert f"CHEAT: seat {x} dealt seat {b} a wrong escrow share" in history, history
            assert f"CHEAT: seat {b}" not in history and "cheat by seat" not in history
            assert not [c for c in st.get("cheats", []) if NAMES[b] in c or f"seat {b}" in c], st
        assert not any(str(x) in parse_any(p.read_text(), p.name)[0].content.get("escrow_shares", {})
                       for p in t.out.glob("r*.toml"))  # no removal round: the proved cheat forfeits at the claim


@pytest.mark.parametrize("game", ["warlords", "wizard"])
def test_a_dealer_that_resigns_after_a_wrong_share_is_named_and_its_holder_wins(tmp_path, monkeypatch, game):
    """The moment of issue 37, item 3, between homes: the dealer's file re-deals with a wrong share to B, and the
    dealer leaves at once, before B has sent a file (it resigns: its removal round opens as after a timeout claim).
    B's home answers the removal round by itself with its proved decryption in place of the shares; the removal
    cannot go on without them (threshold 2 of 2) and the game ends against the dealer, B and A winning."""
    fixed_randomness(monkeypatch)
    with freeze_time("2026-11-21 12:00:00") as clock:
        t = after_a_departure(tmp_path, game, clock)
        x = b = None
        for i in range(40):
            t.settle(t.homes[3])
            for s in t.todo():
                f, path, _ = trial(t, tmp_path, s, i)
                if "escrow_reshare" in f.content:
                    x, b = s, max(int(h) for h in next(iter(f.content["escrow_reshare"].values()))["shares"])
                    forged = t.out / path.name
                    forged.write_text(_forge(t, f, b).to_toml())
                    t.post(None, [forged])
                    break
                t.written(t.homes[s], "play", "--bot", "heuristic", "--seed", str(i))
            if x is not None:
                break
            clock.tick(timedelta(minutes=5))
        assert x is not None
        home = t.homes[x]
        files, t.inbox[home] = t.inbox[home], []
        before = set(t.out.iterdir())
        dm(home, "receive", *map(str, files), "--out", str(t.out))  # its own file; nothing it answers goes out
        for p in set(t.out.iterdir()) - before:
            p.unlink()
        assert "the others publish their escrow shares" in t.written(home, "resign")  # B has the file and the note
        t.settle(t.homes[3], home)
        a = next(s for s in range(3) if s not in (x, b))
        for seat in (a, b):
            st = t.status(t.homes[seat])
            assert st["over"] and st["result"].startswith(f"{NAMES[min(a, b)]} and {NAMES[max(a, b)]} won: "
                                                          f"{NAMES[x]} resigned and could not be removed (it dealt "
                                                          "a wrong escrow share"), (seat, st["result"])
            history = dm(t.homes[seat], "history")
            assert f"CHEAT: seat {x} dealt seat {b} a wrong escrow share" in history, history
            assert f"CHEAT: seat {b}" not in history and "cheat by seat" not in history
        mine = [parse_any(p.read_text(), p.name)[0] for p in t.out.glob(f"r*-s{b}.toml")]
        assert not any("escrow_complaint" in g.content for g in mine)  # it had sent nothing since the dealing
        (removal,) = [g for g in mine if str(x) in g.content.get("escrow_shares", {})]
        published = removal.content["escrow_shares"][str(x)]
        what = sorted(f.content["escrow_reshare"])[0]  # the deck of the forged share: a complaint; the others, shares
        assert set(published[what]) == {"dh", "proof"} and all(isinstance(v, str) for w, v in published.items()
                                                                  if w != what)
