"""Issue 29, section 4: 'claim' sends what it writes like every other command that writes a file (--push, --send)."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta
from pathlib import Path

from clitable import dm
from freezegun import freeze_time

sys.path.insert(0, str(Path(__file__).parents[1] / "transport"))
from test_git import GitTable, git  # noqa: E402


def past_a_deadline(tmp_path, clock):
    """A Summoner game by git whose awaited seat's deadline has just passed: the table, the repositories, the home
    of that seat (the sleeper) and the other's (the claimant)."""
    t = GitTable(tmp_path)
    repos = t.start("summoner", "life=3")
    t.join(1)
    alice, bob = t.homes
    dm(alice, "git", "sync")
    st = t.status(alice)
    late = next(iter(st["awaited"]))
    clock.move_to(datetime.fromisoformat(st["awaited"][late]["claim_from"]) + timedelta(seconds=1))
    return (t, repos, *((alice, bob) if late == "0" else (bob, alice)))



def test_claim_push_puts_the_claim_in_the_repository_and_the_other_home_gets_it(tmp_path):
    with freeze_time("2026-11-21 12:00:00") as clock:
        t, repos, sleeper, claimant = past_a_deadline(tmp_path, clock)
        out = dm(claimant, "claim", "--push")
        assert "send it to the other players" not in out and "a last call" in out
        game = next((claimant / "games").iterdir()).name
        git(repos[0], "pull", "-q")
        assert list((repos[0] / game).glob("*claim*.toml")), "the claim is in the shared repository"
        clock.tick(timedelta(hours=25))  # the claimant's last call (24 hours) closes with no answer: it stands there
        dm(claimant, "git", "sync")
        assert t.status(claimant)["over"]
        dm(sleeper, "git", "sync")  # the claimant's seed built on it is in the repository: the claim stood there
        assert t.status(claimant)["over"]


def test_a_claim_pushed_is_answered_by_the_claimed_seats_next_sync(tmp_path):
    """The last call by git (protocol section 6b): the claimed seat's sync takes the claim in and answers that it is
    here; the claimant's sync takes the answer in, and the claim does not stand anywhere."""
    with freeze_time("2026-11-21 12:00:00") as clock:
        t, _, sleeper, claimant = past_a_deadline(tmp_path, clock)
        dm(claimant, "claim", "--push")
        clock.tick(timedelta(hours=3))
        dm(sleeper, "git", "sync")
        clock.tick(timedelta(hours=1))
        dm(claimant, "git", "sync")
        clock.tick(timedelta(days=2))
        for home in (sleeper, claimant):
            st = t.status(home)
            assert not st["over"] and not st["calls"], st
        assert any("does not stand" in line for line in t.status(claimant)["last"])  # answered: file or "here"


def test_claim_send_without_mail_settings_says_the_claim_is_written_and_how_to_send_it(tmp_path):
    with freeze_time("2026-11-21 12:00:00") as clock:
        t, _, _, claimant = past_a_deadline(tmp_path, clock)
        out = dm(claimant, "claim", "--send", code=1)
        assert "claim" in out and "'duelmail mail send'" in out and "Traceback" not in out
        assert t.status(claimant)["calls"]  # written and waiting: a last call
