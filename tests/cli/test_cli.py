"""The CLI: two homes play Warlords by files; every refusal exits 1, names the problem and changes nothing."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import click
import pytest
from clitable import DeliveryTable, Table, dm, runner, snapshot  # noqa: E402

from duelmail.cli import main


def test_every_command_has_help_with_an_example():
    def walk(cmd, path):
        if isinstance(cmd, click.Group):  # the main group imports a command's module when asked for it by name
            ctx = click.Context(cmd)
            for name in cmd.list_commands(ctx):
                yield from walk(cmd.get_command(ctx, name), [*path, name])
        else:
            yield path, cmd

    commands = list(walk(main, []))
    assert len(commands) >= 12
    for path, cmd in commands:
        assert "Example:" in (cmd.help or ""), f"'duelmail {' '.join(path)}' has no Example block"
        out = runner.invoke(main, [*path, "--help"])
        assert out.exit_code == 0 and "Example:" in out.output


def test_two_homes_play_a_whole_game_by_files(tmp_path):
    t = Table(tmp_path)
    t.play_turns(400)
    a, b = t.status(t.alice), t.status(t.bob)
    assert a["over"] and b["over"] and a["audited"] and a["audit_ok"]
    assert a["result"] == b["result"]
    out = dm(tmp_path, "verify", str(next((t.alice / "games").iterdir())))
    assert "audit: PASSED" in out and "VERIFIED" in out
    # both homes hold the same signed files
    names = sorted(p.name for p in next((t.alice / "games").iterdir()).glob("[gr]*.toml"))
    assert names == sorted(p.name for p in next((t.bob / "games").iterdir()).glob("[gr]*.toml"))


@pytest.fixture
def midgame(tmp_path):
    t = Table(tmp_path)
    t.play_turns(6)
    return t


def test_each_home_remembers_the_files_whose_proofs_it_checked(midgame):
    """Playing and receiving record the checked files in the game folder's .proven cache, so later commands
    do not check the same proofs again; deleting the cache loses nothing."""
    for home in (midgame.alice, midgame.bob):
        folder = next((home / "games").iterdir())
        turns = {p.name for p in folder.glob("r*.toml")}
        proven = (folder / ".proven").read_text().split()
        assert len(proven) == len(turns) + 1  # and the genesis
        before = dm(home, "status")
        (folder / ".proven").unlink()
        assert dm(home, "status") == before


def _next_file(t: Table):
    """Produce the next file for whoever is awaited, without delivering it."""
    st = t.status(t.alice)
    seat = next(iter(st["awaited"]))
    home = t.alice if seat == "0" else t.bob
    before = set(t.out.iterdir())
    dm(home, "play", "--bot", "heuristic", "--out", str(t.out))
    (new,) = sorted(set(t.out.iterdir()) - before)
    return home, t.other(home), new


def _refused(home: Path, path: Path, *needles: str) -> None:
    before = snapshot(home)
    out = dm(home, "receive", str(path), code=1)
    assert str(path) in out
    for n in needles:
        assert n in out, out
    assert snapshot(home) == before  # nothing changed


def test_flipped_byte_is_refused_and_changes_nothing(midgame):
    t = midgame
    _, receiver, new = _next_file(t)
    text = new.read_text()
    i = text.index('signature = "') + 20
    bad = t.tmp / "bad.toml"
    bad.write_text(text[:i] + ("A" if text[i] != "A" else "B") + text[i + 1:])
    _refused(receiver, bad, "signature does not verify", "[P-signature]", "round")


def test_file_from_another_game_is_refused(midgame, tmp_path_factory):
    other = Table(tmp_path_factory.mktemp("other"))
    _refused(midgame.alice, other.out / "r0001-s1.toml", "no game")


def test_replayed_old_turn_changes_nothing(midgame):
    t = midgame
    old = t.out / "r0002-s0.toml"
    before = snapshot(t.bob)
    out = dm(t.bob, "receive", str(old))
    assert "already applied (nothing changed)" in out
    assert snapshot(t.bob) == before


def test_illegal_move_is_refused_naming_its_rule(midgame):
    t = midgame
    st = t.status(t.alice)
    seat = next(iter(st["awaited"]))
    home = t.alice if seat == "0" else t.bob
    before = snapshot(home)
    out = dm(home, "play", "attack a#1 a#1 extra", code=1)
    assert "'attack " in out and "extra" in out and "#" not in out  # the move quoted, its cards in words (issue 39)
    assert snapshot(home) == before


def test_game_state_is_only_a_cache_and_identity_backup_restores_the_hand(midgame):
    t = midgame
    seat = "1"
    dm(t.bob, "id", "export", str(t.tmp / "bob-backup.toml"))
    hand_before = dm(t.bob, "show")
    archive = t.tmp / "bob-archive"
    shutil.copytree(next((t.bob / "games").iterdir()), archive)
    shutil.rmtree(t.bob)  # the laptop is lost
    dm(t.bob, "id", "import", str(t.tmp / "bob-backup.toml"))
    files = [archive / "genesis.toml", *sorted(archive.glob("r*.toml"))]
    dm(t.bob, "receive", *map(str, files))
    assert dm(t.bob, "show") == hand_before
    assert t.status(t.bob)["you"] == int(seat)


def test_errors_are_messages_not_tracebacks(tmp_path):
    out = dm(tmp_path, "status", code=1)
    assert "no identity" in out or "no games" in out
    dm(tmp_path, "id", "new", "zed", "--email", "z@example.org")
    assert "no games" in dm(tmp_path, "status", code=1)
    assert "is not a game" in dm(tmp_path, "new", "chess", "--seat", "zed", code=2)


def test_passphrase_protected_identity(tmp_path, monkeypatch):
    monkeypatch.setenv("DUELMAIL_PASSPHRASE", "correct horse battery")
    out = dm(tmp_path, "id", "new", "pat", "--email", "pat@example.org", "--passphrase")
    assert "created identity pat" in out
    secret = (tmp_path / "identities" / "pat.toml").read_text()
    assert "box" in secret and "seed =" not in secret
    assert "pat <pat@example.org>" in dm(tmp_path, "id", "show")
    monkeypatch.setenv("DUELMAIL_PASSPHRASE", "wrong")
    assert "wrong passphrase" in dm(tmp_path, "id", "show", code=1)
    monkeypatch.delenv("DUELMAIL_PASSPHRASE")
    assert "DUELMAIL_PASSPHRASE" in dm(tmp_path, "id", "show", code=1)


def test_several_identities_and_as(tmp_path):
    dm(tmp_path, "id", "new", "one", "--email", "1@example.org")
    dm(tmp_path, "id", "new", "two", "--email", "2@example.org")
    assert dm(tmp_path, "--as", "two", "id", "show").startswith("two <2@example.org>")
    assert "other identities here: two" in dm(tmp_path, "id", "show")


def test_play_accepts_the_game_after_the_moves(midgame):
    t = midgame
    st = t.status(t.alice)
    home = t.alice if "0" in st["awaited"] else t.bob
    first = json.loads(dm(home, "moves", "--json"))[0]["move"]
    out = dm(home, "play", first, st["game"][:12])
    assert "noted" in out or "wrote" in out


def test_demo_plays_verifies_and_is_reproducible(tmp_path):
    outs = []
    for name in ("one", "two"):
        result = runner.invoke(main, ["demo", "warlords", "--seed", "5", "--quiet", "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        assert "audit: PASSED" in result.output and "VERIFIED" in result.output
        outs.append(result.output.replace(str(tmp_path / name), "DIR"))
    assert outs[0] == outs[1]
    assert "archive: DIR/homes/alice/games/warlords-" in outs[0]


def test_deadlines_reminders_and_timeout_claims(tmp_path):
    from datetime import datetime, timedelta

    from freezegun import freeze_time

    with freeze_time("2026-11-21 12:00:00") as clock:
        t = DeliveryTable(tmp_path)  # the delivery rule (the last call: tests/adversary/test_last_call.py)
        t.play_turns(3)
        st = t.status(t.alice)
        late_seat = next(iter(st["awaited"]))
        sleeper, claimant = (t.alice, t.bob) if late_seat == "0" else (t.bob, t.alice)
        due = datetime.fromisoformat(st["awaited"][late_seat]["deadline"])
        clock.move_to(due - timedelta(hours=2))
        assert "reminder: due soon" in dm(sleeper, "status") and "2h 0m left" in dm(sleeper, "status")
        clock.move_to(due - timedelta(seconds=1))
        assert "too early" in dm(claimant, "claim", code=1)
        clock.move_to(due + timedelta(seconds=1))  # a file signed by the deadline may still be on its way (§6b)
        stands = datetime.fromisoformat(st["awaited"][late_seat]["claim_from"])
        assert stands == due + timedelta(hours=12)
        assert "overdue by 1s" in dm(claimant, "status") and f"claim stands from {stands.isoformat()}" in \
            dm(claimant, "status")
        assert "too early" in dm(claimant, "claim", code=1)
        clock.move_to(stands + timedelta(seconds=1))
        assert "duelmail claim" in dm(claimant, "status")
        out = dm(claimant, "claim", "--out", str(t.out))
        assert "ran out of time" in out or "forfeit" in out
        assert t.status(claimant)["over"]
        # the sleeper wakes up and moves without having seen the claim: the claimant's home refuses it
        before = set(t.out.iterdir())
        dm(sleeper, "play", "--bot", "heuristic", "--out", str(t.out))
        (late,) = sorted(set(t.out.iterdir()) - before - {p for p in t.out.iterdir() if "claim" in p.name})
        refusal = dm(claimant, "receive", str(late), code=1)
        assert "[P-timeout]" in refusal and "ran out of time" in refusal
        # and the sleeper's home, given the claim, settles the same way: its late move is void
        claim_file = next(p for p in t.out.iterdir() if "claim" in p.name)
        dm(sleeper, "receive", str(claim_file))
        assert t.status(sleeper)["over"] and t.status(sleeper)["result"] == t.status(claimant)["result"]


def test_status_all_lists_games_soonest_deadline_first(tmp_path):
    a = Table(tmp_path / "one")
    b = Table(tmp_path / "two")
    for src in (b.alice,):
        for folder in (src / "games").iterdir():
            shutil.copytree(folder, a.alice / "games" / folder.name)
    out = dm(a.alice, "status", "--all")
    lines = [line for line in out.splitlines() if "round" in line]
    assert len(lines) == 2 and all("due 20" in line for line in lines)
    rows = json.loads(dm(a.alice, "status", "--all", "--json"))
    dues = [min(x["deadline"] for x in r["awaited"].values() if x["deadline"]) for r in rows]
    assert dues == sorted(dues)


def test_final_claim_refuses_a_backdated_move_and_the_game_audits(tmp_path):
    """Issue 14 §3: claim, the claimant's seed file, then a move backdated to before the deadline. The claim stood
    (signed more than the delivery allowance after the deadline, section 6b): the move is refused [P-final], and
    both homes finish the game and audit."""
    from datetime import datetime, timedelta

    from freezegun import freeze_time

    with freeze_time("2026-11-21 12:00:00") as clock:
        t = DeliveryTable(tmp_path)
        t.play_turns(3)
        st = t.status(t.alice)
        late_seat = next(iter(st["awaited"]))
        sleeper, claimant = (t.alice, t.bob) if late_seat == "0" else (t.bob, t.alice)
        due = datetime.fromisoformat(st["awaited"][late_seat]["deadline"])
        clock.move_to(datetime.fromisoformat(st["awaited"][late_seat]["claim_from"]) + timedelta(seconds=1))
        dm(claimant, "claim", "--out", str(t.out))
        before = set(t.out.iterdir())
        dm(claimant, "play", "--out", str(t.out))  # the seed file: it names the claim's round as prev
        (seed_file,) = set(t.out.iterdir()) - before
        assert "seed" in seed_file.read_text()
        clock.move_to(due - timedelta(minutes=1))  # the sleeper's clock says it is still in time
        before = set(t.out.iterdir())
        dm(sleeper, "play", "--bot", "heuristic", "--out", str(t.out))
        (late,) = set(t.out.iterdir()) - before
        clock.move_to(due + timedelta(hours=13))
        refusal = dm(claimant, "receive", str(late), code=1)  # a claim a day after the deadline: the move came late
        assert "[P-final]" in refusal and "had not" in refusal and "Traceback" not in refusal
        claim_file = next(p for p in t.out.iterdir() if "claim" in p.name)
        before = set(t.out.iterdir())
        dm(sleeper, "receive", str(claim_file), str(seed_file), "--out", str(t.out))  # answers with its seed
        (seed_back,) = set(t.out.iterdir()) - before
        assert t.status(sleeper)["result"] == t.status(claimant)["result"]
        dm(claimant, "receive", str(seed_back))
        for home in (t.alice, t.bob):
            folder = next((home / "games").iterdir())
            assert "audit: PASSED" in dm(home, "verify", str(folder))


def _bad_genesis(tmp: Path, bob_home: Path, created: str, **tc) -> Path:
    """A genesis signed by a fresh creator for Bob's card, with a date or time control the protocol bounds."""
    from datetime import datetime

    from duelmail.app import genesis_content
    from duelmail.protocol.identity import Identity, PlayerCard
    from duelmail.protocol.turnfile import SignedFile

    mallory = Identity.generate("mallory", "m@example.org", seed=b"m" * 32)
    bob = PlayerCard.from_dict(tomllib.loads(dm(bob_home, "id", "card")), "bob")
    content = genesis_content("warlords", [mallory.card, bob], 0, {}, datetime.fromisoformat(created), b"n" * 16,
                              {"days_per_move": 3, "forced_answer_hours": 24, **tc})
    path = tmp / f"genesis-{len(list(tmp.glob('genesis-*')))}.toml"
    path.write_text(SignedFile.sign(content, mallory).to_toml([]))
    return path


@pytest.mark.parametrize(("created", "tc", "why"), [
    ("9999-12-31T00:00:00+00:00", {}, "not between 2000-01-01 and 2200-01-01"),
    ("2026-11-21T12:00:00+00:00", {"days_per_move": 10**12}, "days_per_move must be a whole number from 0 to 365"),
    ("2026-11-21T12:00:00+00:00", {"vacation_days_per_year": 10**10}, "vacation_days_per_year must be"),
])
def test_unbounded_genesis_is_refused_by_receive_and_join_and_status_lists_the_rest(tmp_path, created, tc, why):
    """Issue 14 §3: such a genesis crashed receive, join and then status --all (OverflowError), and left a half
    game folder behind. Now each is refused with its rule, nothing is written, and every other game is listed."""
    from freezegun import freeze_time

    with freeze_time("2026-11-21 12:00:00"):
        t = Table(tmp_path)
        bad = _bad_genesis(tmp_path, t.bob, created, **tc)
        games = sorted((t.bob / "games").iterdir())
        for cmd in ("receive", "join"):
            out = dm(t.bob, cmd, str(bad), code=1)
            assert why in out and "Traceback" not in out and str(bad) in out
            assert sorted((t.bob / "games").iterdir()) == games
        out = dm(t.bob, "status", "--all")
        assert len([line for line in out.splitlines() if "round" in line]) == 1


def test_status_all_gives_one_line_for_a_game_it_cannot_read(tmp_path):
    """A game folder an older duelmail left behind (a genesis this one refuses) is one line; the others list."""
    from freezegun import freeze_time

    with freeze_time("2026-11-21 12:00:00"):
        t = Table(tmp_path)
        bad = _bad_genesis(tmp_path, t.bob, "2026-11-21T12:00:00+00:00", days_per_move=10**12)
        broken = t.bob / "games" / "warlords-000000000000"
        broken.mkdir()
        shutil.copy(bad, broken / "genesis.toml")
        out = dm(t.bob, "status", "--all")
        assert "warlords-000000000000: cannot be read:" in out and "days_per_move" in out
        assert len([line for line in out.splitlines() if "round" in line]) == 1
        rows = json.loads(dm(t.bob, "status", "--all", "--json"))
        assert [r.get("folder") for r in rows if "error" in r] == ["warlords-000000000000"]


def test_join_refuses_an_invitation_older_than_the_join_window(tmp_path):
    """The joiner's own clock bounds ``created``: an invitation dated more than a day before it arrives is
    refused (a backdated one would have shortened the join deadline), and nothing is written."""
    from freezegun import freeze_time

    with freeze_time("2026-11-25 12:00:01"):
        t = Table(tmp_path)
        old = _bad_genesis(tmp_path, t.bob, "2026-11-24T12:00:00+00:00")
        games = sorted((t.bob / "games").iterdir())
        out = dm(t.bob, "join", str(old), code=1)
        assert "[P-time]" in out and "more than 1 day before it reached you" in out
        assert sorted((t.bob / "games").iterdir()) == games
        fresh = _bad_genesis(tmp_path, t.bob, "2026-11-24T13:00:00+00:00")
        dm(t.bob, "join", str(fresh))
        assert len(list((t.bob / "games").iterdir())) == len(games) + 1


def test_a_backdated_move_cannot_time_out_a_punctual_seat_between_homes(tmp_path):
    """Issue 27 item 2, between two homes (protocol section 6b, delivery rule): the mover signs its move with the
    round's opening time but sends it a minute before its own deadline, with a timeout claim against the other
    seat's forced answer and its next file. The other home says the file came late and offers the claim; the
    claim wins in both homes, and the attacker's move, claim and next file are set aside."""
    from datetime import datetime, timedelta

    from freezegun import freeze_time

    forced = ("unlock", "sealed choice", "shuffle")
    with freeze_time("2026-11-21 12:00:00") as clock:
        t = DeliveryTable(tmp_path)
        for i in range(30):  # to a move that leaves the other seat a forced answer (tried on a copy of the home)
            t.settle()
            st = t.status(t.alice)
            (mover,) = st["awaited"]
            attacker, victim = t.home(mover), t.other(t.home(mover))
            trial = tmp_path / f"trial{i}"
            shutil.copytree(attacker, trial)
            dm(trial, "play", "--bot", "heuristic", "--seed", str(i), "--out", str(tmp_path / "trials"))
            waits = t.status(trial)["awaited"]
            if not any(w in st["awaited"][mover]["what"] for w in forced) and list(waits) == [str(1 - int(mover))] \
                    and any(w in waits[str(1 - int(mover))]["what"] for w in forced):
                break
            t.turn(attacker, "--bot", "heuristic", "--seed", str(i))
        due = datetime.fromisoformat(st["awaited"][mover]["deadline"])
        clock.move_to(due - timedelta(days=3))  # the attacker's clock set back to its clock's start
        before = set(t.out.iterdir())
        t.turn(attacker, "--bot", "heuristic", "--seed", str(i))
        t.inbox[victim] = []  # held back
        clock.move_to(due - timedelta(minutes=1))  # held until a minute before its own deadline
        dm(attacker, "claim", "--out", str(t.out))
        dm(attacker, "play", "--out", str(t.out))  # its next file (its seed after the forfeit), built on the claim
        attack = sorted(set(t.out.iterdir()) - before)
        assert len(attack) == 3 and "won" in t.status(attacker)["result"]
        clock.move_to(due)
        out = dm(victim, "receive", *map(str, attack))
        assert "came more than 12 hours after the time it carries" in out and "'duelmail claim'" in out
        assert "came later than the time it carries allows: 'duelmail claim'" in dm(victim, "status")
        before = set(t.out.iterdir())
        out = dm(victim, "claim", "--out", str(t.out))
        assert "ran out of time" in out and "came later" not in dm(victim, "status")
        (counter,) = set(t.out.iterdir()) - before
        name, other = ("alice", "bob") if attacker == t.alice else ("bob", "alice")
        st = t.status(victim)  # the victim's home: the attacker lost by the clock
        assert st["over"] and st["result"].startswith(f"{other} won: {name} ran out of time"), st["result"]
        # the attacker's own home had recorded its win: no claim changes a recorded result (issue 37 item 2)
        assert "[P-over]" in dm(attacker, "receive", str(counter), code=1)
