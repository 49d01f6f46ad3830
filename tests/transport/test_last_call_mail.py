"""The last call by real mail (protocol section 6b): a claim against a seat whose answer is already signed reaches
its home by IMAP, which mails its answer again by itself; the claimant's fetch takes it, and the claim does not
stand. Dovecot and OpenSMTPD on loopback; a forced answer due at once (``forced_answer_hours=0``), the clock moved a
minute on before the claim (freezegun, ticking)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from clitable import dm
from freezegun import freeze_time
from mailtable import MailTable
from servers import PASSWORD


@pytest.fixture(autouse=True)
def password(monkeypatch):
    monkeypatch.setenv("DUELMAIL_MAIL_PASSWORD", PASSWORD)


def test_a_claim_by_mail_is_answered_by_the_claimed_seats_next_fetch(mail_servers, tmp_path):
    with freeze_time(datetime.now(UTC), tick=True) as clock:
        _claim_by_mail(mail_servers, tmp_path, clock)


def _claim_by_mail(mail_servers, tmp_path, clock) -> None:
    t = MailTable(tmp_path, mail_servers)
    alice, bob = t.homes
    dm(alice, "new", "summoner", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"), "--option", "life=3",
       "--time", "forced_answer_hours=0")
    t.note_sent(alice, dm(alice, "mail", "send"))
    t.fetch(bob)
    genesis = next((bob / "games").iterdir()) / "genesis.toml"
    t.note_sent(bob, dm(bob, "join", str(genesis), "--send"))
    for _ in range(6):  # to a round where bob owes a file with no decision in it, answered by his home at once
        t.fetch(alice)
        st = t.status(alice)
        if st["awaited"].keys() == {"1"} and t.sent[t.users[1]] > t.read[t.users[1]]:
            break
        if st["your_turn"]:
            t.note_sent(alice, dm(alice, "play", "--bot", "heuristic", "--send"))
    else:
        raise AssertionError("bob never owed a file with no decision")
    out = t.fetch(bob)  # bob's home answers by itself and mails it; alice has not fetched it yet
    assert "mailed round" in out, out
    clock.tick(timedelta(minutes=1))
    out = dm(alice, "claim", "--send")  # due at once: a claim may be signed, and it opens a last call
    assert "a last call" in out, out
    t.note_sent(alice, out.replace("mailed", "mailed round") if "mailed" in out else out)
    out = t.fetch(bob)
    assert "your file for that round is signed" in out and "sent again" in out, out
    assert "mailed the file of yours for round" in out, out
    t.sent[t.users[0]] += 1
    out = t.fetch(alice)
    assert "does not stand" in out, out
    st = t.status(alice)
    assert not st["calls"] and st["result"] is None
