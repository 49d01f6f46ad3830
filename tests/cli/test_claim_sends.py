"""Issue 29, section 4: 'claim' sends what it writes like every other command that writes a file (--push, --send)."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta
from pathlib import Path

from clitable import dm
from freezegun import freeze_time

sys.path.insert(0, str(Path(__file__).parents[1] / "transport"))
from test_git import GitTable, git  # noqa: E402


def test_claim_push_puts_the_claim_in_the_repository_and_the_other_home_gets_it(tmp_path):
    with freeze_time("2026-11-21 12:00:00") as clock:
        t = GitTable(tmp_path)
        repos = t.start("summoner", "life=3")
        t.join(1)
        alice, bob = t.homes
        dm(alice, "git", "sync")
        st = t.status(alice)
        late = next(iter(st["awaited"]))
        sleeper, claimant = (alice, bob) if late == "0" else (bob, alice)
        clock.move_to(datetime.fromisoformat(st["awaited"][late]["claim_from"]) + timedelta(seconds=1))
        out = dm(claimant, "claim", "--push")
        assert "send it to the other players" not in out
        game = next((claimant / "games").iterdir()).name
        git(repos[0], "pull", "-q")
        assert list((repos[0] / game).glob("*claim*.toml")), "the claim is in the shared repository"
        dm(sleeper, "git", "sync")
        assert t.status(sleeper)["over"] and t.status(sleeper)["result"] == t.status(claimant)["result"]


def test_claim_send_without_mail_settings_says_the_claim_is_written_and_how_to_send_it(tmp_path):
    with freeze_time("2026-11-21 12:00:00") as clock:
        t = GitTable(tmp_path)
        t.start("summoner", "life=3")
        t.join(1)
        alice, bob = t.homes
        dm(alice, "git", "sync")
        st = t.status(alice)
        late = next(iter(st["awaited"]))
        claimant = bob if late == "0" else alice
        clock.move_to(datetime.fromisoformat(st["awaited"][late]["claim_from"]) + timedelta(seconds=1))
        out = dm(claimant, "claim", "--send", code=1)
        assert "claim" in out and "'duelmail mail send'" in out and "Traceback" not in out
        assert t.status(claimant)["over"]
