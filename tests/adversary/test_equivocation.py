"""A seat that sends different files for one round to two other seats is named by the honest homes, with
proof, instead of the honest seats naming each other (issue 14, part 5; protocol §5 'seen'). Three real
homes play by files through the CLI."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from clitable import dm, runner

from duelmail.cli import main
from duelmail.home import Home
from duelmail.protocol.turnfile import SignedFile, parse_any


@pytest.fixture
def split(tmp_path):
    """Alice, Bob and Carol start a three-seat game of Warlords; Carol sends her round 1 file to Alice and
    another one, as validly signed, to Bob."""
    homes = {n: tmp_path / n for n in ("alice", "bob", "carol")}
    for n, h in homes.items():
        dm(h, "id", "new", n, "--email", f"{n}@example.org")
        (tmp_path / f"{n}.card").write_text(dm(h, "id", "card"))
    out = {n: tmp_path / f"out-{n}" for n in homes}
    dm(homes["alice"], "new", "warlords", "--seat", "alice", "--seat", str(tmp_path / "bob.card"),
       "--seat", str(tmp_path / "carol.card"), "--out", str(out["alice"]))
    genesis = out["alice"] / "genesis.toml"
    for n in ("bob", "carol"):
        dm(homes[n], "join", str(genesis), "--out", str(out[n]))
    to_alice = out["carol"] / "r0001-s2.toml"
    f = parse_any(to_alice.read_text(), "carol")[0]
    content = copy.deepcopy(f.content)
    content["time"] = (datetime.fromisoformat(content["time"]) + timedelta(seconds=1)).isoformat()
    other = SignedFile.sign(content, Home(homes["carol"]).load_identity(None))
    to_bob = tmp_path / "to-bob" / "r0001-s2.toml"
    to_bob.parent.mkdir()
    to_bob.write_text(other.to_toml())
    assert other.file_hash != f.file_hash
    return homes, out, to_alice, to_bob


def awaited(home: Path) -> list[int]:
    return sorted(int(s) for s in json.loads(dm(home, "status", "--json"))["awaited"])


def test_the_equivocating_seat_is_named_with_proof_not_an_honest_one(split, tmp_path):
    homes, out, to_alice, to_bob = split
    alice, bob = homes["alice"], homes["bob"]
    dm(alice, "receive", str(out["bob"] / "r0001-s1.toml"), str(to_alice), "--out", str(out["alice"]))
    dm(bob, "receive", str(to_bob), "--out", str(out["bob"]))
    rounds = [json.loads(dm(h, "status", "--json"))["round"] for h in (alice, bob)]
    assert rounds[0] == rounds[1] > 1  # each home closed round 1, with a different file of Carol's
    sent = {h: sorted(out[h.name].glob("r0002-*.toml")) for h in (alice, bob)}  # answered at once (deck passes)
    assert sent[alice] or sent[bob]
    for sender, receiver in ((alice, bob), (bob, alice)):
        for p in sent[sender]:
            res = dm(receiver, "receive", str(p), code=1)
            # one file of Carol's and another seat's word prove nothing (issue 37 item 5): the file is refused naming
            # its signer, nothing is recorded against Carol, and this home's copy of her file goes on
            assert "'seen' that carol's file for round 1 was" in res and "[P-chain]" in res, res
            assert "either carol signed two files for round 1 or" in res and "EQUIVOCATION" not in res, res
    for home in (alice, bob):
        assert "CHEAT" not in dm(home, "status") and not json.loads(dm(home, "status", "--json"))["cheats"]
    # the proof: the other home's copy of Carol's file, both signed by her, kept in the log: the game ends against her
    res = dm(bob, "receive", str(to_alice))
    assert "CHEAT: carol signed two different files for round 1" in res and "ends against them" in res, res
    folder = next((bob / "games").iterdir())
    (proof,) = folder.glob("r0001-s2-x*.toml")
    assert parse_any(proof.read_text(), "p")[0].file_hash == parse_any(to_alice.read_text(), "a")[0].file_hash
    assert "proof kept" in dm(bob, "status")
    out = dm(tmp_path, "verify", str(folder), code=1)  # the cheat and the result; the audit awaits the seeds
    assert "result: alice and bob won: carol signed two different files for round 1" in out, out


def test_a_false_seen_table_is_refused(split, tmp_path):
    homes, out, to_alice, to_bob = split
    alice = homes["alice"]
    dm(alice, "receive", str(out["bob"] / "r0001-s1.toml"), str(to_alice), "--out", str(out["alice"]))
    dm(homes["bob"], "receive", str(to_alice), "--out", str(out["bob"]))  # no split here: Carol's one file
    home = next(h for h in (alice, homes["bob"]) if list(out[h.name].glob("r0002-*.toml")))
    (tmp_path / "play").mkdir()
    for p in out[home.name].glob("r0002-*.toml"):
        p.rename(tmp_path / "play" / p.name)
    f = parse_any(next((tmp_path / "play").glob("r0002-*.toml")).read_text(), "x")[0]
    assert set(f.content["seen"]) == {"1", "2"}  # what it saw of round 1
    content = copy.deepcopy(f.content)
    content["seen"]["1"] = "0" * 64  # a lie about Bob's file, with the true 'prev'
    liar = tmp_path / "liar.toml"
    liar.write_text(SignedFile.sign(content, Home(home).load_identity(None)).to_toml())
    receiver = homes["bob"] if home != homes["bob"] else alice
    res = dm(receiver, "receive", str(liar), code=1)
    assert "'seen' table" in res and "[P-chain]" in res, res
    # issue 37 item 5, framing: the lie about Carol's file with a 'prev' consistent with it. The liar's own signed
    # statement is all there is: its file is refused naming its signer, Carol is accused of nothing, and what goes
    # on is Carol's own file as this home holds it, which proves nothing against her
    from duelmail.engine.log import hash_of_round

    content["seen"] = {**f.content["seen"], "2": "1" * 64}
    content["prev"] = hash_of_round(1, parse_any(to_alice.read_text(), "c")[0].content["prev"], content["seen"])
    framer = tmp_path / "framer.toml"
    framer.write_text(SignedFile.sign(content, Home(home).load_identity(None)).to_toml())
    liar_name, seat = home.name, f.seat
    res = dm(receiver, "receive", str(framer), "--out", str(tmp_path / "sent-on"), code=1)
    assert f"{liar_name} (seat {seat}) signed in its 'seen' that carol's file for round 1 was 1111" in res, res
    assert "[P-chain]" in res and f"round 2, seat {seat}" in res and "EQUIVOCATION" not in res, res
    st = dm(receiver, "status")
    assert "CHEAT" not in st and "cannot go on" not in st and not json.loads(dm(receiver, "status", "--json"))["cheats"]
    (copy_of_carol,) = (tmp_path / "sent-on").iterdir()  # her own file, as this home holds it: no proof
    assert parse_any(copy_of_carol.read_text(), "c")[0].file_hash == parse_any(to_alice.read_text(), "a")[0].file_hash
    assert not list(next((receiver / "games").iterdir()).glob("r0001-s2-x*.toml"))
    assert "verified and applied" in dm(receiver, "receive", *map(str, (tmp_path / "play").iterdir()))


def test_a_home_restored_from_a_backup_answers_again_and_it_is_the_same_answer(tmp_path):
    """Issue 27 item 4, between separate homes, in a game with a delivery allowance (the delivery rule): a player's home
    answers a decision-free duty by itself; the player restores an older backup of the home (or fetches on a second
    machine) and, five hours later, the same file arrives and is answered again, dated then. The other home takes the
    second copy as the same answer (said so), not as a cheat, and the game goes on between it and the restored home,
    with one chain."""
    import shutil

    from clitable import DeliveryTable
    from freezegun import freeze_time

    with freeze_time("2026-11-21 12:00:00") as clock:
        t = DeliveryTable(tmp_path)
        for i in range(40):
            t.settle()
            (s,) = t.todo(t.status(t.alice))
            mover = t.home(s)
            home = t.other(mover)  # the home that may answer by itself
            backup = tmp_path / f"backup-{i}"
            shutil.copytree(home, backup)
            t.turn(mover, "--bot", "heuristic", "--seed", str(i))
            incoming = list(t.inbox[home])
            before = set(t.out.iterdir())
            dm(home, "receive", *map(str, incoming), "--out", str(t.out))
            answers = sorted(set(t.out.iterdir()) - before)
            t.inbox[home] = []
            if answers:
                break
        else:
            raise AssertionError("no home answered by itself")
        name = "alice" if home == t.alice else "bob"
        clock.tick(timedelta(hours=5))
        again = tmp_path / "again"
        again.mkdir()
        dm(backup, "receive", *map(str, incoming), "--out", str(again))  # the restored home, five hours later
        copies = sorted(again.iterdir())
        assert [p.name for p in copies] == [p.name for p in answers]
        assert all(a.read_text() != c.read_text() for a, c in zip(answers, copies, strict=True))  # other dates
        before = set(t.out.iterdir())
        dm(mover, "receive", *map(str, answers), "--out", str(t.out))
        out = dm(mover, "receive", *map(str, copies), "--out", str(t.out))
        for p in copies:
            assert f"a second copy of {name}'s answer for round {int(p.name[1:5])}, dated later" in out, out
        assert out.count("the same answer, nothing changes") == len(copies), out
        st = dm(mover, "status")
        assert "CHEAT" not in st and "cannot go on" not in st and not t.status(mover)["cheats"], st
        setattr(t, name, backup)  # the restored home plays on
        t.inbox = {mover: [], backup: sorted(set(t.out.iterdir()) - before)}
        t.play_turns(4)
        mine, theirs = t.status(t.alice), t.status(t.bob)
        assert mine["round"] == theirs["round"] > max(int(p.name[1:5]) for p in copies) + 2
        assert mine["awaited"] == theirs["awaited"] and mine["over"] == theirs["over"]
        assert not mine["cheats"] and not theirs["cheats"]
        # the copies once more, their round now older than the kept state holds whole (``transport/kept.py``'s
        # ``KeptFile``): the same words, and no traceback (issue 40 item 7)
        out = dm(mover, "receive", *map(str, copies))
        for p in copies:
            assert f"a second copy of {name}'s answer for round {int(p.name[1:5])}, dated" in out, out
        assert "Traceback" not in out and "AttributeError" not in out


def test_a_copy_dated_early_and_kept_back_loses_to_the_claim_of_the_seat_it_reached_late(tmp_path):
    """Issue 27 item 2 through a second copy, between separate homes: a home answers a decision-free duty (its copy
    dated then, kept back), and eleven hours later sends another copy of the same answer to the other seat (from a
    backup of the home). Once a claim counted from the kept-back copy stands, it claims the other seat's timeout.
    That copy reaches the victim only inside the claim, long after its time: the victim's home says so and offers
    the claim; the victim's own claim, naming that copy, wins in both homes (protocol section 6b)."""
    import shutil

    from clitable import DeliveryTable
    from freezegun import freeze_time

    with freeze_time("2026-11-21 12:00:00") as clock:
        t = DeliveryTable(tmp_path)
        for i in range(40):
            t.settle()
            (s,) = t.todo(t.status(t.alice))
            victim = t.home(s)
            attacker = t.other(victim)  # the home that answers by itself
            backup = tmp_path / f"backup-{i}"
            shutil.copytree(attacker, backup)
            t.turn(victim, "--bot", "heuristic", "--seed", str(i))
            incoming = list(t.inbox[attacker])
            kept = tmp_path / f"kept-{i}"
            kept.mkdir()
            dm(attacker, "receive", *map(str, incoming), "--out", str(kept))  # its copy, dated now: kept back
            t.inbox[attacker] = []
            if list(kept.iterdir()):
                break
        else:
            raise AssertionError("no home answered by itself")
        clock.tick(timedelta(hours=11))  # (later, the file it answers would have come late: no answer by itself)
        sent = tmp_path / "sent"
        sent.mkdir()
        dm(backup, "receive", *map(str, incoming), "--out", str(sent))  # the copy sent, dated eleven hours later
        assert sorted(p.name for p in sent.iterdir()) == sorted(p.name for p in kept.iterdir())
        dm(victim, "receive", "--no-auto", *map(str, sorted(sent.iterdir())))  # in time: it came at once
        claim_dir = tmp_path / "claim"
        for _ in range(24 * 8):  # the attacker claims as soon as its own copy lets it
            clock.tick(timedelta(hours=1))
            result = runner.invoke(main, ["--home", str(attacker), "claim", "--out", str(claim_dir)],
                                   catch_exceptions=False)
            if result.exit_code == 0:
                break
            assert "too early" in result.output or "not yet" in result.output, result.output
        else:
            raise AssertionError("the attacker's claim never stood")
        (claim,) = claim_dir.iterdir()
        name, other = ("alice", "bob") if attacker == t.alice else ("bob", "alice")
        out = dm(victim, "receive", str(claim))
        assert f"this claim counts from a copy of {name}'s answer for round" in out and "'duelmail claim'" in out, out
        counter_dir = tmp_path / "counter"
        out = dm(victim, "claim", "--out", str(counter_dir))
        assert "ran out of time" in out, out
        (counter,) = counter_dir.iterdir()
        st = json.loads(dm(victim, "status", "--json"))  # the victim's home: the attacker lost by the clock
        assert st["over"] and st["result"].startswith(f"{other} won: {name} ran out of time"), st["result"]
        # the attacker's own home had recorded its win: no claim changes a recorded result (issue 37 item 2)
        assert "[P-over]" in dm(attacker, "receive", str(counter), code=1)


def test_the_proof_reaches_every_seat_and_the_game_ends_against_the_equivocator(split, tmp_path):
    """Issue 27 item 4: Carol's two files for round 1 split Alice's and Bob's homes. Each home that finds it (by the
    other's 'seen') sends on the file of Carol's it holds; each, receiving the other one, holds both signed files,
    and every home folds the same end: Carol loses, the game does not stay stuck."""
    homes, out, to_alice, to_bob = split
    alice, bob = homes["alice"], homes["bob"]
    dm(alice, "receive", str(out["bob"] / "r0001-s1.toml"), str(to_alice), "--out", str(out["alice"]))
    dm(bob, "receive", str(to_bob), "--out", str(out["bob"]))
    sent = {h: sorted(out[h.name].glob("r0002-*.toml")) for h in (alice, bob)}
    fwd = {h: tmp_path / f"fwd-{h.name}" for h in (alice, bob)}
    for sender, receiver in ((alice, bob), (bob, alice)):
        for p in sent[sender]:
            fwd[receiver].mkdir(exist_ok=True)
            res = dm(receiver, "receive", str(p), "--out", str(fwd[receiver]), code=1)
            assert "'seen' that carol's file for round 1 was" in res and "send to every seat" in res, res
    assert any(d.exists() and list(d.iterdir()) for d in fwd.values())
    for step in range(3):  # each home sends on what it got to send; the other receives it, until nothing is left
        moved = False
        for sender, receiver in ((alice, bob), (bob, alice)):
            for p in sorted(fwd[sender].iterdir()) if fwd[sender].exists() else []:
                nxt = tmp_path / f"fwd-{receiver.name}-{step}"
                nxt.mkdir(exist_ok=True)
                got = dm(receiver, "receive", str(p), "--out", str(nxt))
                assert "carol signed two different files for round 1" in got or "already applied" in got, got
                p.unlink()
                for q in nxt.iterdir():
                    fwd[receiver].mkdir(exist_ok=True)
                    q.rename(fwd[receiver] / q.name)
                moved = True
        if not moved:
            break
    results = set()
    for home in (alice, bob):
        st = json.loads(dm(home, "status", "--json"))
        assert st["over"], dm(home, "status")
        results.add(st["result"])
        verdict = runner.invoke(main, ["--home", str(tmp_path), "verify", str(next((home / "games").iterdir()))])
        assert "carol signed two different files for round 1" in verdict.output, verdict.output
    assert results == {"alice and bob won: carol signed two different files for round 1 (an equivocation, proven "
                       "by both signatures)"}


def test_a_home_behind_what_its_seat_signed_is_told_before_signing_again(tmp_path):
    """Issue 27 item 4: Bob moves from his home, then restores an older backup of it (or turns to a second
    machine). Alice's answer reaches the restored home: it builds on Bob's move, which that home lacks. Before
    Bob can sign the round again (a second, different decision: an equivocation), the home tells him, and
    nothing is written."""
    import shutil

    from clitable import Table
    from freezegun import freeze_time

    with freeze_time("2026-11-21 12:00:00"):
        t = Table(tmp_path)
        for i in range(30):
            t.settle()
            st = t.status(t.bob)
            if t.todo(st) == ["1"] and "awaited" in st and "1" in st["awaited"]:
                moves = json.loads(dm(t.bob, "moves", "--json"))
                if moves:
                    break
            (s,) = t.todo(t.status(t.alice))
            t.turn(t.home(s), "--bot", "heuristic", "--seed", str(i))
        else:
            raise AssertionError("bob never had a decision")
        backup = tmp_path / "bob-backup"
        shutil.copytree(t.bob, backup)
        rnd = t.status(backup)["round"]
        t.turn(t.bob, "--bot", "heuristic", "--seed", "1")

        def later(seat: str) -> list:
            return sorted(p for p in t.out.iterdir() if p.name.startswith("r") and int(p.name[1:5]) > rnd
                          and f"-s{seat}" in p.name)

        for j in range(20):  # on until bob has signed a file of a later round too
            t.settle()
            if later("1") and later("0"):
                break
            for s in t.todo(t.status(t.alice)):
                t.turn(t.home(s), "--bot", "heuristic", "--seed", str(j))
        # alice's file of a later round says nothing of what bob signed: kept, and bob's home is not frozen by it
        res = runner.invoke(main, ["--home", str(backup), "receive", str(later("0")[0])])
        assert res.exit_code == 0 and "is waiting for round" in res.output, res.output  # kept until the gap fills
        assert "behind" not in dm(backup, "status") and t.status(backup)["your_turn"]
        # bob's own file of a later round does: he signed this round elsewhere
        res = runner.invoke(main, ["--home", str(backup), "receive", str(later("1")[0])])
        assert res.exit_code == 0 and "is waiting for round" in res.output, res.output
        fresh = tmp_path / "fresh-out"
        fresh.mkdir()
        out = dm(backup, "play", "--bot", "heuristic", "--seed", "2", "--out", str(fresh), code=1)
        assert "this home is behind what you already signed" in out and "Nothing was signed or sent" in out, out
        assert not list(fresh.iterdir())
