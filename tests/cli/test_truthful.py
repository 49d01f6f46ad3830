"""Issue 29, section 1: what `status`, `receive` and `play` say must be true (seeds/skirmish.md K-2, K-3: both
characters are built in one round that awaits both seats)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import clitable
from clitable import dm
from freezegun import freeze_time


class Skirmish(clitable.Table):
    game = "skirmish"


BUILD = ("build str 3", "build spd 3", "build end 5", "build dex 2", "dual d0: str1 spd1 end1 dex1")


def test_whoever_has_answered_a_round_of_several_seats_is_not_told_it_is_their_move(tmp_path):
    """K-2: alice sends her build while bob's is still awaited. Her status no longer says 'awaiting you' nor
    'your_turn', it says she has answered; receiving the genesis and her own file again accuses nobody."""
    t = Skirmish(tmp_path, "battlefield=open-field")
    t.settle()
    assert t.status(t.alice)["your_turn"]
    t.turn(t.alice, *BUILD)
    st = t.status(t.alice)
    assert not st["your_turn"] and list(st["awaited"]) == ["1"] and st["answered"] == [0]
    said = dm(t.alice, "status")
    assert "awaiting you" not in said and "answered this round: you" in said
    for again in (t.out / "genesis.toml", t.out / "r0002-s0.toml"):
        out = dm(t.alice, "receive", str(again))
        assert "already applied (nothing changed)" in out and "EQUIVOC" not in out.upper()
    assert "CHEAT" not in dm(t.alice, "status")
    assert "nothing is awaited from you" in dm(t.alice, "play", *BUILD[:1], code=1)


def test_a_new_home_s_first_genesis_is_applied_not_already_applied(tmp_path):
    """A restored home (its identity imported) receiving the genesis for the first time is told the game, not
    'already applied (nothing changed)'; the second time it is."""
    t = clitable.Table(tmp_path)
    fresh = tmp_path / "restored"
    dm(fresh, "id", "import", str(next((t.alice / "identities").iterdir())))
    out = dm(fresh, "receive", str(t.out / "genesis.toml"))
    assert "verified and applied" in out and "alice opened a game of Warlords" in out and "already" not in out
    assert "already applied (nothing changed)" in dm(fresh, "receive", str(t.out / "genesis.toml"))


def test_a_short_answer_window_is_not_due_soon_as_it_opens(tmp_path):
    """A 24-hour answer window with a 24-hour reminder said 'due soon' with 23 h 59 m left; now only in its second
    half."""
    with freeze_time("2026-11-21 12:00:00") as clock:
        t = Skirmish(tmp_path, "battlefield=open-field")
        t.settle()
        for home in (t.alice, t.bob):
            t.turn(home, *BUILD)
        t.deliver(t.alice)  # alice opens her start reveal at once; bob's opening is awaited, a forced answer
        st = json.loads(dm(t.alice, "status", "--json"))
        due = datetime.fromisoformat(st["awaited"]["1"]["deadline"])
        assert due - datetime.fromisoformat(st["opened"]) <= timedelta(hours=24 + 12)  # and the delivery allowance (6b)
        clock.move_to(due - timedelta(hours=23, minutes=59))
        assert "23h 59m left" in dm(t.alice, "status") and "due soon" not in dm(t.alice, "status")
        clock.move_to(due - timedelta(hours=2))
        assert "2h 0m left (reminder: due soon)" in dm(t.alice, "status")


def test_receive_says_what_happened_in_play_not_the_protocol_s_bookkeeping(tmp_path):
    """'receive' said 'bob: shuffle pass on deck a' and 'published keys for 5 cards'; those are for
    'history --protocol' now."""
    t = clitable.Table(tmp_path)
    out = dm(t.alice, "receive", str(t.out / "r0001-s1.toml"), "--out", str(t.out))
    assert "bob accepted the game" in out and "pass on deck" not in out and "published keys" not in out
    assert "pass on deck" in dm(t.alice, "history", "--protocol")
