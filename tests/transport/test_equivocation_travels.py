"""Issue 27 item 4 (protocol §5, "Equivocation to different seats"): a seat that signs two different files for
one round and sends one to Alice, the other to Bob, does not stop the game. The home that finds it sends the
file of the cheat it holds on to the others by itself, by mail (``mail fetch``, ``watch``) or by git (``git
sync``), and both honest homes record the same end against the equivocator. Three real homes; real mail
servers on loopback, a real bare git remote."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from clitable import dm
from mailtable import MailTable
from servers import PASSWORD, free_port
from test_git import GitTable, git

from duelmail.home import Home
from duelmail.protocol.turnfile import SignedFile, parse_any
from duelmail.transport import mail as mailt

RESULT = ("alice and bob won: carol signed two different files for round 1 (an equivocation, proven by both "
          "signatures)")


@pytest.fixture(autouse=True)
def password(monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)


def second_file(carol: Path, first: SignedFile) -> SignedFile:
    """Another file of Carol's for the same round, as validly signed by her key: the same acceptance, a second
    later."""
    content = copy.deepcopy(first.content)
    content["time"] = (datetime.fromisoformat(content["time"]) + timedelta(seconds=1)).isoformat()
    other = SignedFile.sign(content, Home(carol).load_identity(None))
    assert other.file_hash != first.file_hash
    return other


def status(home: Path) -> dict:
    return json.loads(dm(home, "status", "--json"))


# -- by mail -----------------------------------------------------------------------------------
def mail_to(servers, f: SignedFile, sender: str, to: str) -> None:
    """Carol's own client mails one file to one player only (what an equivocator does)."""
    msg = mailt.compose(None, f, sender, [to], datetime.now(UTC))
    mailt.send(servers.settings("carol", smtp_user=""), [msg], lambda: PASSWORD)


@pytest.fixture
def split_by_mail(mail_servers, tmp_path):
    """Alice, Bob and Carol start a three-seat Warlords game by mail; Carol accepts with one file mailed to Alice
    only and another, as validly signed, mailed to Bob only."""
    t = MailTable(tmp_path, mail_servers, ("alice", "bob", "carol"))
    alice, bob, carol = t.homes
    dm(alice, "new", "warlords", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"),
       "--seat", str(tmp_path / "carol-card.toml"))
    t.note_sent(alice, dm(alice, "mail", "send"))
    for home in (bob, carol):
        assert "duelmail join" in t.fetch(home)
    genesis = next((bob / "games").iterdir()) / "genesis.toml"
    t.note_sent(bob, dm(bob, "join", str(genesis), "--send"))
    dm(carol, "join", str(genesis))  # written, not sent: Carol sends it herself, to Alice only
    first = parse_any(next((carol / "games").iterdir()).joinpath("r0001-s2.toml").read_text(), "carol")[0]
    other = second_file(carol, first)
    addr = {u: f"{u}@example.org" for u in t.users}
    mail_to(mail_servers, first, addr[t.users[2]], addr[t.users[0]])
    mail_to(mail_servers, other, addr[t.users[2]], addr[t.users[1]])
    t.sent[t.users[0]] += 1
    t.sent[t.users[1]] += 1
    return t, first, other


def fetch(t: MailTable, home: Path, *command: str) -> str:
    """``mail fetch`` (or ``command``) once the mail sent to ``home`` is in (exit status 1 when a file was
    refused); what it mailed on is counted in the others' inboxes."""
    me = t.user(home)
    t.servers.wait_for(me, t.sent[me])
    t.read[me] = t.sent[me]
    out = dm_any(home, *(command or ("mail", "fetch")))
    t.note_sent(home, out)
    for line in out.splitlines():
        if line.startswith("mailed the proof") or line.startswith("mailed carol's file"):
            for u in t.others(home):
                assert u in line, line
                t.sent[u] += 1
    return out


@pytest.mark.parametrize("bobs", [("mail", "fetch"), ("watch", "--once")])
def test_by_mail_the_proof_reaches_the_other_home_and_both_end_against_the_equivocator(split_by_mail, bobs):
    """Bob's home fetches by hand, or is watched (``watch --once``, the same poll as the loop's)."""
    t, first, other = split_by_mail
    alice, bob, _ = t.homes
    out = fetch(t, alice)  # Bob's acceptance and Carol's first file: round 1 closes, Alice answers and mails
    assert "mailed round 2" in out, out
    out = fetch(t, bob, *bobs)  # Carol's other file, then Alice's round 2, built on the first: refused, naming Carol
    assert "'seen' that carol's file for round 1 was" in out, out  # one file proves nothing: a copy goes on
    assert "mailed carol's file for round 1 (another seat's file disputes it)" in out, out
    for _ in range(3):  # only the ordinary fetches, until each home has read what the other mailed
        for home, command in ((alice, ()), (bob, bobs)):
            if t.read[t.user(home)] < t.sent[t.user(home)]:
                fetch(t, home, *command)
    for home in (alice, bob):
        st = status(home)
        assert st["over"] and st["result"] == RESULT, dm(home, "status")
    folder = next((alice / "games").iterdir())
    kept = {parse_any(p.read_text(), "p")[0].file_hash for p in folder.glob("r0001-s2*.toml")}
    assert kept == {first.file_hash, other.file_hash}  # both signed files are in Alice's log: the proof
    copies = 0
    for user, carried in ((t.users[0], other), (t.users[1], first)):  # each got the other's copy, once
        (msg,) = proofs_in(t.servers, user)
        text = msg.get_body(("plain",)).get_content()
        assert "duelmail mail fetch" in text
        if msg["Subject"].endswith("carol's file for round 1, as this player holds it"):  # sent on a 'seen' only:
            assert "a different file of carol for round 1 of Warlords" in text  # no accusation (issue 37)
            assert "One file proves nothing" in text and "signed two different" not in text
            copies += 1
        else:  # sent by a home that held both
            assert msg["Subject"].endswith("proof that carol signed two different files for round 1"), msg["Subject"]
            assert "carol signed two different files for round 1 of Warlords" in text
        assert parse_any(text, "mail")[0].file_hash == carried.file_hash  # the armour, as in a turn's mail
        (part,) = [p for p in msg.iter_attachments()]
        assert parse_any(part.get_content().decode(), "attachment")[0].file_hash == carried.file_hash
    assert copies >= 1  # the first to go is sent on another seat's 'seen' alone: a copy, not a proof
    for home, command in ((alice, ()), (bob, bobs)):  # nothing is left to send on
        out = fetch(t, home, *command)
        assert "proof" not in out, out


def proofs_in(servers, user: str) -> list:
    """The proof messages in ``user``'s inbox."""
    import email
    import email.policy

    c = servers.imap(user)
    try:
        c.select("INBOX")
        found = []
        for n in c.search(None, "ALL")[1][0].split():
            msg = email.message_from_bytes(c.fetch(n, "(BODY.PEEK[])")[1][0][1], policy=email.policy.default)
            if "proof" in msg["Subject"] or "as this player holds it" in msg["Subject"]:
                found.append(msg)
        return found
    finally:
        c.logout()


def test_a_proof_that_cannot_be_mailed_waits_for_the_next_fetch(split_by_mail, mail_servers):
    t, first, other = split_by_mail
    alice, bob, _ = t.homes
    fetch(t, alice)
    dm(bob, "mail", "setup", "--smtp-port", str(free_port()))  # nothing listens there: sending fails
    out = fetch(t, bob)
    assert "'seen' that carol's file for round 1 was" in out, out
    assert "could not mail carol's file for round 1 (another seat's file disputes it)" in out, out
    assert "kept for the next 'duelmail mail fetch'" in out and "Traceback" not in out, out
    assert not status(bob)["over"]
    dm(bob, "mail", "setup", "--smtp-port", str(mail_servers.smtp_port))
    out = fetch(t, bob)  # no new mail: the copy goes now
    assert "mailed carol's file for round 1 (another seat's file disputes it)" in out, out
    fetch(t, alice)
    assert status(alice)["result"] == RESULT


# -- by git ------------------------------------------------------------------------------------
def test_by_git_the_proof_reaches_the_other_home_and_both_end_against_the_equivocator(tmp_path):
    """Carol pushes her acceptance; Alice takes it in; Carol force-pushes another one over it; Bob takes that in.
    Each honest home holds one of Carol's files; the ordinary syncs carry the proof across."""
    t = GitTable(tmp_path, ("alice", "bob", "carol"))
    repos = t.start("warlords")
    alice, bob, carol = t.homes
    t.join(1)
    assert "duelmail join" in dm(carol, "git", "sync")
    game = next((carol / "games").iterdir()).name
    before = git(repos[2], "rev-parse", "HEAD").strip()
    dm(carol, "join", str(carol / "games" / game / "genesis.toml"), "--push")
    first = parse_any((carol / "games" / game / "r0001-s2.toml").read_text(), "carol")[0]
    dm(alice, "git", "sync")  # Alice closes round 1 with Carol's first file
    assert status(alice)["round"] > 1
    other = second_file(carol, first)
    git(repos[2], "reset", "-q", "--hard", before)  # Carol rewrites the remote: her other file instead
    (repos[2] / game).mkdir(exist_ok=True)
    (repos[2] / game / "r0001-s2.toml").write_text(other.to_toml())
    git(repos[2], "add", "-A")
    git(repos[2], "commit", "-qm", "carol accepts")
    git(repos[2], "push", "-q", "--force", "origin", "main")
    dm(bob, "git", "sync")  # Bob closes round 1 with the other file
    assert status(bob)["round"] > 1
    for _ in range(3):  # only the ordinary syncs
        for home in (alice, bob):
            runner_out = dm_any(home, "git", "sync")
            assert "Traceback" not in runner_out
    for home in (alice, bob):
        st = status(home)
        assert st["over"] and st["result"] == RESULT, dm(home, "status")
    kept = {parse_any(p.read_text(), "p")[0].file_hash for p in (alice / "games" / game).glob("r0001-s2*.toml")}
    assert kept == {first.file_hash, other.file_hash}
    assert "round 1: carol's file for round 1 as this home holds it, sent on (another seat's file disputes it)" in git(
        t.remote, "log", "--format=%s", "main")
    squat = repos[2] / game / f"r0001-s2-x{'0' * 12}.toml"  # only a file's own second-file name is a proof's
    git(repos[2], "pull", "-q", "--rebase=false", "-X", "theirs", "origin", "main")
    squat.write_text(first.to_toml())
    git(repos[2], "add", "-A")
    git(repos[2], "commit", "-qm", "a copy under another name")
    git(repos[2], "push", "-q", "origin", "main")
    out = dm(bob, "git", "sync", code=1)
    assert f"REFUSED {game}/{squat.name}" in out and "squatter" in out and "[P-format]" in out, out
    dm_any(alice, "git", "sync")  # (it reports the copy above, once)
    head = git(t.remote, "rev-parse", "main")
    for home in (alice, bob):  # settled: another sync commits nothing (no tug of war over Carol's file's name)
        out = dm(home, "git", "sync")
        assert "committed" not in out, out
    assert git(t.remote, "rev-parse", "main") == head


def dm_any(home: Path, *args: str) -> str:
    """A command whose exit status may be 1 (a refused file is reported): its output."""
    from clitable import runner

    from duelmail.cli import main

    res = runner.invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert res.exit_code in (0, 1), res.output
    return res.output
