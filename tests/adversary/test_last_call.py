"""The last call (issue 37; protocol section 6b): nobody's word but your own can cost you a game. Played between
separate real homes through the ``duelmail`` command, with the attacker's own signed files, under ``duelmail new``'s
defaults (a 24-hour last call):

1. a receiver that keeps a punctual move out of its home and claims the mover's timeout wins nothing in the mover's
   home, nor in a third home that had the move; an honest receiver that takes the resent move in drops its claim;
2. a draw a home recorded stays a draw when a claim comes after it;
4. a file of another seat from rounds ahead does not freeze the punctual seat: it is held, never trusted;

and a truly silent seat still loses by the claim, a last call later."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from freezegun import freeze_time
from homes import Homes, dm, run

LAST_CALL = timedelta(hours=24)
START = "2026-11-21 12:00:00"


def _answer_at_once(h: Homes, victim: str, seed: int) -> set:
    """``victim`` takes in what waits for it and answers (its home answers what needs no decision; a bot decides
    the rest). Its new files, which nobody has had yet."""
    before = set(h.out[victim].glob("*.toml"))
    h.deliver(victim)
    st = h.status(victim)
    if str(h.seat(victim)) in st["awaited"] and st["your_turn"]:
        code, out = h.play(victim, "--bot", "heuristic", "--seed", str(seed))
        assert code == 0, out
    return set(h.out[victim].glob("*.toml")) - before


def _to_the_victims_turn(h: Homes, attacker: str, victim: str, kind: str, limit: int = 60) -> int:
    """Play (bots, every file delivered) until the attacker's home awaits the victim alone, for ``kind``
    ("decision" or "answer": a file that needs none), with the victim's home not yet holding what it answers.
    The seed of the last bot move."""
    for i in range(limit):
        h.settle([n for n in h.names if n != victim])
        st = h.status(attacker)
        assert not st["over"], st["result"]
        awaited = [h.names[int(s)] for s in st["awaited"]]
        if awaited == [victim] and h.new_files(victim):
            from duelmail.home import Home

            duty = Home(h.home[attacker]).find(None).fold().duties[h.seat(victim)]
            if duty.needs_human == (kind == "decision"):
                return i
        h.deliver(victim)
        for name in h.names:
            st = h.status(name)
            if st["your_turn"]:
                h.play(name, "--bot", "heuristic", "--seed", str(i))
    raise AssertionError(f"no {kind} of {victim}'s came in {limit} moves")


GAMES = [("warlords", ()), ("summoner", ("life=4",)), ("grid", ()), ("skirmish", ())]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("kind", ["decision", "answer"])
def test_a_receiver_that_hides_a_punctual_move_wins_nothing_where_the_mover_is(tmp_path, game, options, kind):
    """Item 1 in two seats: bob answers at once; alice keeps his file out of her home, claims his timeout past his
    deadline and signs her next file on the claim when her own last call runs out. Bob's home sends his file again,
    never takes the claim, and never records his loss; with the file taken in, alice's claim does not stand."""
    with freeze_time(START) as clock:
        h = Homes(tmp_path, game, 2, *options)
        seed = _to_the_victims_turn(h, "alice", "bob", kind)
        due = datetime.fromisoformat(h.status("alice")["awaited"]["1"]["deadline"])
        answer = _answer_at_once(h, "bob", seed)
        assert answer, "bob answered nothing"
        h.keep_from("alice", answer)  # kept out of alice's home
        clock.move_to(due + timedelta(minutes=5))
        before = set(h.out["alice"].glob("*.toml"))
        out = dm(h.home["alice"], "claim", "--out", str(h.out["alice"]))
        assert "a last call" in out and h.status("alice")["result"] is None  # a claim ends nothing by itself
        (claim,) = h.mine("alice", before)
        code, out = h.deliver("bob")
        assert code == 0 and "your file for that round is signed" in out and "send to every other seat" in out, out
        resent = h.new_files("alice", ["bob"])
        assert resent and h.status("bob")["result"] is None
        trial = tmp_path / "alice-honest"  # an honest alice takes the file in: the claim does not stand
        import shutil

        shutil.copytree(h.home["alice"], trial)
        code, out = run(trial, "receive", *map(str, resent))
        assert code == 0 and "does not stand" in out, out
        assert "won" not in (run(trial, "status")[1])
        rnd = h.status("alice")["round"]
        clock.tick(LAST_CALL + timedelta(minutes=1))  # the attacker never takes it: its own last call runs out
        st = h.status("alice")  # there the claim stands: bob forfeits, or the rules' default answer is played
        assert not st["calls"] and ("bob ran out of time" in (st["result"] or "") or st["round"] > rnd), st
        code, out = run(h.home["alice"], "play", "--bot", "heuristic", "--out", str(h.out["alice"]))  # built on it
        if code != 0:  # the game is over there: its seed, for the audit, if not sent yet
            run(h.home["alice"], "play", "--out", str(h.out["alice"]))
        built = h.new_files("bob", ["alice"])
        code, out = h.deliver("bob")
        if any(int(p.name[1:5]) > rnd for p in built if p.name.startswith("r")):  # refused, and why in words
            assert code == 1 and "stood where it was signed" in out and "Traceback" not in out, out
        st = h.status("bob")
        assert "bob ran out of time" not in (st["result"] or ""), st["result"]
        assert not any("timeout" in line for line in st["last"]), st["last"]  # no default answer in bob's home
        assert claim.exists()


def test_a_truly_silent_seat_loses_a_last_call_after_the_claim(tmp_path):
    """The price: a claim against a seat that stays silent stands a last call (24 hours) after it reaches a home,
    not before."""
    with freeze_time(START) as clock:
        h = Homes(tmp_path, "warlords", 2)
        _to_the_victims_turn(h, "alice", "bob", "decision")
        due = datetime.fromisoformat(h.status("alice")["awaited"]["1"]["deadline"])
        clock.move_to(due + timedelta(minutes=1))
        dm(h.home["alice"], "claim", "--out", str(h.out["alice"]))
        clock.tick(LAST_CALL - timedelta(minutes=1))
        assert h.status("alice")["result"] is None and h.status("alice")["calls"]
        clock.tick(timedelta(minutes=2))
        assert "bob ran out of time" in h.status("alice")["result"]


def test_a_seat_still_thinking_answers_the_last_call_and_gets_its_time_again(tmp_path):
    """A claim that reaches a seat owing a decision: its home answers at once that it is here, its clock starts
    again, and the claim does not stand in the claimant's home either."""
    with freeze_time(START) as clock:
        h = Homes(tmp_path, "warlords", 2)
        _to_the_victims_turn(h, "alice", "bob", "decision")
        due = datetime.fromisoformat(h.status("alice")["awaited"]["1"]["deadline"])
        h.deliver("bob")  # bob has alice's move, and thinks
        clock.move_to(due + timedelta(minutes=1))
        dm(h.home["alice"], "claim", "--out", str(h.out["alice"]))
        code, out = h.deliver("bob")
        assert code == 0 and "you are here" in out, out
        code, out = h.deliver("alice")
        assert code == 0 and "does not stand" in out, out
        clock.tick(LAST_CALL * 2)  # a last call would have run out: the claim was answered
        st = h.status("alice")
        assert st["result"] is None and not st["calls"]
        new_due = datetime.fromisoformat(st["awaited"]["1"]["deadline"])
        assert new_due > due + timedelta(days=2)
        code, out = h.play("bob", "--bot", "heuristic", "--seed", "1")
        assert code == 0, out
        h.settle()
        assert h.status("alice")["result"] is None and h.status("bob")["result"] is None


DRAWS = [*((g, o, 2) for g, o in GAMES), ("warlords", (), 3), ("wizard", (), 3), ("skirmish", (), 3)]


@pytest.mark.parametrize(("game", "options", "n"), DRAWS, ids=[f"{g}-{n}" for g, _, n in DRAWS])
def test_a_draw_a_home_recorded_stays_a_draw_when_a_claim_comes_after_it(tmp_path, game, options, n):
    """Item 2: alice offers a draw while bob owes a move; the others accept, bob last and at once (his home records
    the draw). Alice keeps bob's acceptance out of her home and claims bob's timeout past his deadline. Bob's home
    (and carol's) refuse to change their result, bob's sends the acceptance again, and with it alice's home records
    the draw too."""
    with freeze_time(START) as clock:
        h = Homes(tmp_path, game, n, *options)
        _to_the_victims_turn(h, "alice", "bob", "decision")
        due = datetime.fromisoformat(h.status("alice")["awaited"]["1"]["deadline"])
        dm(h.home["alice"], "draw", "offer", "--out", str(h.out["alice"]))
        for name in h.names[2:]:  # the third seat accepts first
            h.deliver(name)
            dm(h.home[name], "draw", "accept", "--out", str(h.out[name]))
        before = set(h.out["bob"].glob("*.toml"))
        h.deliver("bob")
        dm(h.home["bob"], "draw", "accept", "--out", str(h.out["bob"]))
        assert "agreed" in h.status("bob")["result"]
        h.keep_from("alice", h.mine("bob", before))
        h.settle(h.names[2:])
        clock.move_to(due + timedelta(minutes=5))
        code, out = run(h.home["alice"], "claim", "--out", str(h.out["alice"]))
        assert code == 0, out
        for name in ("bob", *h.names[2:]):
            code, out = h.deliver(name)
            assert code == 0 and "does not stand" in out, out
            assert "agreed" in h.status(name)["result"]
        code, out = h.deliver("alice")  # what bob sent again: the acceptance
        assert code == 0, out
        assert "agreed" in (h.status("alice")["result"] or ""), h.status("alice")
        clock.tick(LAST_CALL * 2)
        for name in h.names:
            assert "agreed" in h.status(name)["result"]


def _forged_ahead(h: Homes, name: str, rounds: int):
    """A turn file ``name`` signs for a round ``rounds`` ahead of the one open in its home, built on nothing."""
    from duelmail.protocol.turnfile import SignedFile

    st = h.status(name)
    content = {"duelmail": 1, "kind": "turn", "game": st["game"][:16], "round": st["round"] + rounds,
               "prev": "A" * 43, "seat": h.seat(name), "time": datetime.now().astimezone().isoformat(
                   timespec="seconds"), "actions": []}
    path = h.tmp / f"ahead-{name}-{rounds}.toml"
    path.write_text(SignedFile.sign(content, h.identity(name)).to_toml())
    return path


AHEAD = [("warlords", 2, 1), ("warlords", 2, 1000), ("summoner", 2, 1), ("grid", 2, 1), ("skirmish", 2, 1),
         ("warlords", 3, 1), ("wizard", 3, 1), ("skirmish", 3, 1000)]


@pytest.mark.parametrize(("game", "n", "ahead"), AHEAD, ids=[f"{g}-{n}-{a}" for g, n, a in AHEAD])
def test_a_file_from_rounds_ahead_freezes_nobody(tmp_path, game, n, ahead):
    """Item 4: bob signs a file for a round ahead while alice owes a move, and sends it to her. Her home holds it and
    plays on: she can move and talk, her status says it awaits her, and nobody's home records her loss."""
    with freeze_time(START) as clock:
        h = Homes(tmp_path, game, n)
        _to_the_victims_turn(h, "bob", "alice", "decision")
        h.deliver("alice")
        due = datetime.fromisoformat(h.status("bob")["awaited"]["0"]["deadline"])
        code, out = h.deliver("alice", files=[_forged_ahead(h, "bob", ahead)])
        assert "waiting for" in out or code != 0, out
        assert h.status("alice")["your_turn"]
        dm(h.home["alice"], "say", "still here", "--out", str(h.out["alice"]))
        code, out = h.play("alice", "--bot", "heuristic", "--seed", "3")
        assert code == 0, out
        clock.move_to(due + timedelta(hours=1))
        h.settle()
        for name in h.names:
            assert "ran out of time" not in (h.status(name)["result"] or "")


THREE = ["warlords", "wizard", "skirmish"]


@pytest.mark.parametrize("game", THREE)
@pytest.mark.parametrize("kind", ["decision", "answer"])
def test_a_third_home_that_had_the_move_never_removes_the_punctual_seat(tmp_path, game, kind):
    """Item 1 in three seats: bob answers at once and carol gets his file; alice keeps it out of her home, claims,
    and builds on the claim when her own last call runs out. In bob's and carol's homes the claim does not stand,
    bob keeps his seat, and alice's files built on the claim are refused, naming alice's home's view."""
    with freeze_time(START) as clock:
        h = Homes(tmp_path, game, 3)
        seed = _to_the_victims_turn(h, "alice", "bob", kind)
        due = datetime.fromisoformat(h.status("alice")["awaited"]["1"]["deadline"])
        answer = _answer_at_once(h, "bob", seed)
        assert answer, "bob answered nothing"
        h.keep_from("alice", answer)
        h.deliver("carol")  # carol has it, and answers what it asks of her
        clock.move_to(due + timedelta(minutes=5))
        before = set(h.out["alice"].glob("*.toml"))
        code, out = run(h.home["alice"], "claim", "--out", str(h.out["alice"]))
        if code != 0:  # the round awaits carol too in alice's home: the claim waits for her file (her own rule)
            assert "also awaits" in out, out
            h.deliver("alice", ["carol"])
            h.keep_from("alice", h.new_files("alice", ["bob"]))
            dm(h.home["alice"], "claim", "--out", str(h.out["alice"]))
        claim = h.mine("alice", before)
        for name in ("carol", "bob"):
            code, out = h.deliver(name, files=claim)
            assert code == 0 and "does not stand" in out, out
        clock.tick(LAST_CALL + timedelta(minutes=1))
        st = h.status("alice")
        assert not st["calls"], st
        run(h.home["alice"], "play", "--bot", "heuristic", "--out", str(h.out["alice"]))
        for name in ("carol", "bob"):
            h.deliver(name, ["alice"])
            st = h.status(name)
            assert "bob" not in (st["result"] or "") and not any("timeout" in line for line in st["last"]), st


@pytest.mark.parametrize("game", THREE)
def test_a_claim_kept_from_the_seat_it_names_reaches_it_through_the_third_home(tmp_path, game):
    """A claimant that sends its claim to carol only: carol's home sends it on to bob with the files of the round
    before, bob's home answers that he is here, and in carol's home the claim does not stand."""
    with freeze_time(START) as clock:
        h = Homes(tmp_path, game, 3)
        _to_the_victims_turn(h, "alice", "bob", "decision")
        h.settle(["carol"])
        due = datetime.fromisoformat(h.status("alice")["awaited"]["1"]["deadline"])
        clock.move_to(due + timedelta(minutes=5))
        before = set(h.out["alice"].glob("*.toml"))
        dm(h.home["alice"], "claim", "--out", str(h.out["alice"]))
        claim = h.mine("alice", before)
        h.keep_from("bob", set(h.out["alice"].glob("*.toml")))  # alice sends bob nothing at all
        code, out = h.deliver("carol", files=claim)
        assert code == 0 and "send to every other seat" in out, out
        code, out = h.deliver("bob", ["carol"])
        assert code == 0 and "you are here" in out, out
        h.deliver("carol", ["bob"])
        clock.tick(LAST_CALL + timedelta(hours=1))
        st = h.status("carol")
        assert not st["calls"] and "bob" not in (st["result"] or ""), st
        assert str(h.seat("bob")) in st["awaited"]  # bob still has his seat, and his clock started again


def test_new_writes_the_last_call_and_takes_another_clock_in_words(tmp_path):
    """``duelmail new`` writes ``last_call_hours = 24``; ``--time`` sets a time control (the delivery rule of games
    begun before replaces the last call), and a wrong one is refused in one line, writing nothing."""
    import tomllib

    home = tmp_path / "alice"
    dm(home, "id", "new", "alice")
    dm(tmp_path / "bob", "id", "new", "bob")
    (tmp_path / "bob.card").write_text(dm(tmp_path / "bob", "id", "card"))
    seats = ("--seat", "alice", "--seat", str(tmp_path / "bob.card"))
    for times, want in (((), {"last_call_hours": 24}), (("last_call_hours=6",), {"last_call_hours": 6}),
                        (("delivery_hours=12", "days_per_move=5"), {"delivery_hours": 12, "days_per_move": 5})):
        out = tmp_path / f"out{len(times)}"
        dm(home, "new", "warlords", *seats, "--out", str(out), *(x for t in times for x in ("--time", t)))
        tc = tomllib.loads((out / "genesis.toml").read_text())["time_control"]
        assert want.items() <= tc.items() and not ("delivery_hours" in tc and "last_call_hours" in tc), tc
    games = sorted((home / "games").iterdir())
    for bad, said in (("last_call_hours=0", "last call needs some time"), ("speed=3", "no time control 'speed'"),
                      ("days_per_move=x", "whole number")):
        code, out = run(home, "new", "warlords", *seats, "--time", bad)
        assert code != 0 and said in out and "Traceback" not in out and len(out.strip().splitlines()) == 1, out
    assert sorted((home / "games").iterdir()) == games


def test_honest_slow_mail_leaves_every_home_of_the_delivery_rule_in_one_state(tmp_path):
    """Issue 37 item 5, a game begun under the delivery rule (12 hours): bob answers at once, his file reaches alice
    12 h 5 min later, and alice claims naming his copy. Carol, who gets the claim before bob's file, holds the claim
    until the file comes, and ends as alice's home does: the outcome depends on the set of files."""
    with freeze_time(START) as clock:
        h = Homes(tmp_path, "warlords", 3, extra=("--time", "delivery_hours=12"))
        seed = _to_the_victims_turn(h, "alice", "bob", "decision")
        answer = _answer_at_once(h, "bob", seed)
        h.keep_from("carol", answer)
        clock.tick(timedelta(hours=12, minutes=5))
        code, out = h.deliver("alice", files=sorted(answer))
        assert code == 0 and "'duelmail claim'" in out, out
        before = set(h.out["alice"].glob("*.toml"))
        dm(h.home["alice"], "claim", "--out", str(h.out["alice"]))
        claim = h.mine("alice", before)
        code, out = h.deliver("carol", files=claim)
        assert code == 0 and "waiting for bob's file" in out, out
        code, out = h.deliver("carol", files=sorted(answer))
        assert code == 0 and "claimed bob's timeout" in out, out
        h.keep_from("alice", h.new_files("alice", ["bob"]))
        h.settle(["alice", "carol"])  # what each answered since
        a, c = h.status("alice"), h.status("carol")
        assert (a["round"], a["result"], a["awaited"].keys()) == (c["round"], c["result"], c["awaited"].keys())
