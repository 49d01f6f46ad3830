"""Every file a home signs reaches the other seats (issue 38, item 1): it goes into its game's outbox before it is
stored, and every later command that reaches the network mails it until the server takes it. Real SMTP and IMAP
servers (OpenSMTPD, Dovecot), a real bare git remote, separate homes, real kills (``tests/adversary/killer.py``).
Play by reply with a failing server: ``test_reply_play_servers.py``."""

from __future__ import annotations

import json
import mailbox
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from clitable import dm, runner
from mailtable import MailTable
from servers import PASSWORD, free_port
from test_git import GitTable, git

from duelmail.protocol.turnfile import parse_any
from duelmail.transport import mail as mailt

KILLER = Path(__file__).resolve().parents[1] / "adversary" / "killer.py"


def kill_at(home: Path, point: str, nth: int, *args: str, start: str = "") -> int:
    """Run duelmail, SIGKILLed at the ``nth`` ``point`` (``start``: counted from the first write of that file)."""
    return subprocess.run([sys.executable, str(KILLER), point, str(nth), "--home", str(home), *args],
                          capture_output=True, text=True, env=dict(os.environ, KILL_FROM=start)).returncode


def carried(servers, user: str) -> Counter:
    """How many messages in ``user``'s inbox carry each turn file (by hash)."""
    c = servers.imap(user)
    try:
        c.select("INBOX", readonly=True)
        _, data = c.search(None, "ALL")
        out: Counter = Counter()
        for n in data[0].split():
            _, got = c.fetch(n, "(BODY.PEEK[])")
            msg = mailt.parse_message(got[0][1])
            out.update(f.file_hash for f in mailt.find_turns(msg, "m").files)
        return out
    finally:
        c.logout()


def to_maildir(servers, user: str, folder: Path) -> Path:
    """Every message of ``user``'s inbox, copied into a Maildir (a source a test can set back as it was)."""
    box = mailbox.Maildir(folder, create=True)
    c = servers.imap(user)
    try:
        c.select("INBOX", readonly=True)
        _, data = c.search(None, "ALL")
        for n in data[0].split():
            _, got = c.fetch(n, "(BODY.PEEK[])")
            box.add(got[0][1])
    finally:
        c.logout()
    return folder


def own_file(home: Path, name: str):
    (folder,) = (home / "games").iterdir()
    (f,) = parse_any((folder / name).read_text(), name)
    return f


def outbox_of(home: Path) -> Path:
    (folder,) = (home / "games").iterdir()
    return folder / ".outbox"


def test_a_failing_server_keeps_the_answer_and_the_next_command_sends_it_once(mail_servers, tmp_path, monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)
    t = MailTable(tmp_path, mail_servers)
    alice, bob = t.homes
    t.start()  # alice's genesis mailed, bob's acceptance mailed back
    mail_servers.wait_for(t.user(alice), t.sent[t.user(alice)])
    good = str(mail_servers.smtp_port)
    dm(alice, "mail", "setup", "--smtp-port", str(free_port()))  # nothing listens there: SMTP fails
    out = dm(alice, "mail", "fetch", code=1)  # bob's acceptance applied, alice's deck pass signed, not mailed
    assert "round 1 seat 1 verified and applied" in out and "could not mail round 2" in out, out
    assert "kept in the outbox" in out and "1 file signed here not sent yet" in out, out
    st = dm(alice, "status")
    assert "not sent yet: r0002-s0.toml" in st and "SMTP 127.0.0.1" in st, st  # the transport's own words
    assert "and 1 file signed here not sent yet" in dm(alice, "status", "--all")
    again = dm(alice, "mail", "fetch", code=1)  # a later command tries again, and says so
    assert "0 messages read" in again and "could not mail round 2" in again, again
    dm(alice, "mail", "setup", "--smtp-port", good)
    out = dm(alice, "mail", "fetch")
    assert "mailed round 2 of" in out, out
    assert not outbox_of(alice).exists() and "not sent" not in dm(alice, "status")
    assert "mailed" not in dm(alice, "mail", "fetch")  # sent once: the outbox is empty
    t.note_sent(alice, out)
    got = t.fetch(bob)
    assert "round 2 seat 0 verified and applied" in got, got
    assert carried(mail_servers, t.user(bob))[own_file(alice, "r0002-s0.toml").file_hash] == 1


def test_a_kill_at_every_step_between_signing_and_sending_loses_nothing(mail_servers, tmp_path, monkeypatch):
    """Alice's home is watched (``watch --once``, a bot deciding for her): the poll applies bob's acceptance, signs
    her first move and mails it. It is killed after each of its writes from the one that puts the move in the
    outbox on (the first after signing it), in turn, and once just after the server took the mail. Run again, it
    mails what the killed run signed; a second copy sent after a kill is taken by bob as already applied."""
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)
    t = MailTable(tmp_path, mail_servers)
    alice, bob = t.homes
    t.start("skirmish")  # a game without a deck: what is killed is the mail, so no time goes to shuffling
    mail_servers.wait_for(t.user(alice), t.sent[t.user(alice)])
    md = to_maildir(mail_servers, t.user(alice), tmp_path / "alice-md")
    snap = tmp_path / "snap"
    shutil.copytree(alice, snap / "home")
    shutil.copytree(md, snap / "md")
    bob_user = t.user(bob)
    before = mail_servers.count(bob_user)

    watch = ("watch", "--once", "--bot", "heuristic", "--seed", "1", "--source", str(md), "--no-git")
    signed = []  # the move alice's home holds after each attempt: each must reach bob

    def attempt(point: str, nth: int) -> tuple[int, str]:
        for src, dst in ((snap / "home", alice), (snap / "md", md)):  # the moment before the fetch, again
            shutil.rmtree(dst)
            shutil.copytree(src, dst)
        code = kill_at(alice, point, nth, *watch, start=".outbox")  # from the signed answer on
        out = dm(alice, *watch)  # run again: whatever the kill left is finished
        assert not outbox_of(alice).exists(), (point, nth, out)
        signed.append(own_file(alice, "r0002-s0.toml").file_hash)
        return code, out

    kills = 0
    for nth in range(1, 60):
        code, _ = attempt("after", nth)
        if code == 0:  # the fetch ran to its end: every write was a kill point
            break
        assert code == -9
        kills += 1
    assert kills >= 5, kills
    code, out = attempt("sent", 1)  # the server took it, the outbox could not say so: sent again
    assert code == -9 and "mailed round 2" in out, out
    h = signed[-1]
    mail_servers.wait_for(bob_user, before + len(signed) + 1)  # one mail each, and the last one twice
    got = carried(mail_servers, bob_user)
    assert all(got[x] >= 1 for x in signed) and got[h] == 2, (signed, got)  # nothing lost
    bob_md = to_maildir(mail_servers, bob_user, tmp_path / "bob-md")
    copies = [m for m in mailbox.Maildir(bob_md) if h in {f.file_hash for f in mailt.find_turns(m, "m").files}]
    assert len(copies) == 2, len(copies)
    for i, m in enumerate(copies):
        (tmp_path / f"copy{i}.eml").write_bytes(m.as_bytes())
    assert "round 2 seat 0 verified and applied" in dm(bob, "mail", "fetch", "--no-auto", str(tmp_path / "copy0.eml"))
    assert "already applied (nothing changed)" in dm(bob, "mail", "fetch", "--no-auto", str(tmp_path / "copy1.eml"))


def test_by_git_a_kill_right_after_signing_loses_nothing(tmp_path):
    """A game kept in git has no outbox: its folder is what every sync exports. Bob's 'join --push' is killed after
    the write that stores his signed acceptance, and after the next one (the sync's own git steps are killed in
    ``tests/adversary/test_git_kills.py``); the next 'git sync' pushes what his home holds."""
    t = GitTable(tmp_path)
    clone = t.start("skirmish")[1]
    bob = t.homes[1]
    assert "a new game" in dm(bob, "git", "sync")
    (folder,) = (bob / "games").iterdir()
    genesis = str(folder / "genesis.toml")
    snap = tmp_path / "snap"
    places = (bob, clone, t.remote)
    for p in places:
        shutil.copytree(p, snap / p.name, symlinks=True)
    for nth in (1, 2):
        for p in places:  # the moment before the join, again
            shutil.rmtree(p)
            shutil.copytree(snap / p.name, p, symlinks=True)
        assert kill_at(bob, "after", nth, "join", genesis, "--push", start="r0001-s1.toml") == -9
        dm(bob, "git", "sync")  # the next sync finishes the job
        mine = (folder / "r0001-s1.toml").read_text()
        pushed = git(t.remote, "show", f"main:{folder.name}/r0001-s1.toml")
        assert parse_any(pushed, "remote")[0].file_hash == parse_any(mine, "home")[0].file_hash, nth


def test_a_move_played_by_reply_killed_at_every_step_before_the_server_took_it_loses_nothing(
        mail_servers, tmp_path, monkeypatch):
    """Bob plays by reply: his 'watch --once' reads his reply (from a Maildir: a source the test can set back as it
    was), signs the move, answers him and mails the move to Alice. The poll is killed after each of its writes, in
    turn (the reply kept in the home, marked read, the move in the outbox...), and just after the server took each
    mail; each time a
    second watch finishes the job. Every move Bob's home signed reaches Alice's inbox, and applied there (in a copy
    of her home as it was) each is taken once: a second copy is 'already applied'."""
    from replyplay import Player, mutt
    from test_reply_play_servers import ReplyMailTable

    from duelmail.cli import main
    from duelmail.delivery import watch as watching
    from duelmail.transport import reply as rt

    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)
    t = ReplyMailTable(tmp_path, mail_servers, game="skirmish")  # no deck: what is killed is the mail
    alice, bob = t.alice, t.bob
    orig = t.first_list()
    rnd = int(rt.TOKEN.search(str(orig["Subject"])).group(2))
    reply = mutt(orig, Player(bob, t.address).answer_text(), t.address)
    md = tmp_path / "bob-md"
    mailbox.Maildir(md, create=True).add(reply.as_bytes())
    snap = tmp_path / "snap"
    for p in (bob, md, alice):
        shutil.copytree(p, snap / p.name)
    alice_user = t.users[0]
    before = mail_servers.count(alice_user)

    watch = ("watch", "--once", "--source", str(md), "--no-git")
    signed = []

    def attempt(point: str, nth: int) -> tuple[int, str]:
        for p in (bob, md):
            shutil.rmtree(p)
            shutil.copytree(snap / p.name, p)
        code = kill_at(bob, point, nth, *watch)  # from its first write: the reply taken, marked read, played...
        res = runner.invoke(main, ["--home", str(bob), *watch], catch_exceptions=False)
        assert res.exit_code in (watching.NOTHING, watching.DECISION), res.output
        assert not outbox_of(bob).exists(), (point, nth, res.output)
        signed.append(own_file(bob, f"r{rnd:04d}-s1.toml").file_hash)  # the reply was played: not lost
        return code, res.output

    kills = 0
    for nth in range(1, 80):
        code, _ = attempt("after", nth)
        if code in (watching.NOTHING, watching.DECISION):  # the poll ran to its end: every write was a kill point
            break
        assert code == -9, code
        kills += 1
    assert 3 <= kills < 79, kills
    assert not list((bob / "replies").glob("*.eml"))  # every reply taken was played
    code, out = attempt("sent", 1)  # the server took the answer to Bob's reply, not yet his move
    assert code == -9 and f"mailed round {rnd}" in out, out
    code, out = attempt("sent", 2)  # the server took the move, the outbox could not say so: sent again
    assert code == -9 and f"mailed round {rnd}" in out, out
    mail_servers.wait_for(alice_user, before + len(signed) + 1)
    got = carried(mail_servers, alice_user)
    want = Counter(signed)  # one mail an attempt (two attempts in one second sign the same file), the last twice
    want[signed[-1]] += 1
    assert {h: got[h] for h in want} == want, (signed, got)  # nothing lost, nothing sent more than said
    box = mailbox.Maildir(to_maildir(mail_servers, alice_user, tmp_path / "alice-md"))
    for i, h in enumerate(dict.fromkeys(signed)):  # each move alone, in Alice's home as it was before it
        copies = [m for m in box if h in {f.file_hash for f in mailt.find_turns(m, "m").files}]
        home = tmp_path / f"alice{i}"
        shutil.copytree(snap / alice.name, home)
        for j, m in enumerate(copies):
            eml = tmp_path / f"m{i}-{j}.eml"
            eml.write_bytes(m.as_bytes())
            out = dm(home, "mail", "fetch", "--no-auto", str(eml))
            want = f"round {rnd} seat 1 verified and applied" if j == 0 else "already applied (nothing changed)"
            assert want in out, (i, j, out)


def test_a_file_killed_before_its_store_and_passed_by_is_dropped_unsent(mail_servers, tmp_path, monkeypatch):
    """Alice's 'play --send' is killed once her move is in the outbox, before it is stored; she plays again (another
    move for the same round, which is stored). The next command drops the first from the outbox, unsent: nobody saw
    it, and storing it now would make her home hold two files for one round."""
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)
    t = MailTable(tmp_path, mail_servers)
    alice, bob = t.homes
    t.start("skirmish")
    t.fetch(alice)  # bob's acceptance: alice's move of round 2
    assert kill_at(alice, "after", 1, "play", "--bot", "heuristic", "--seed", "1", "--send", start=".outbox") == -9
    (folder,) = (alice / "games").iterdir()
    (entry,) = json.loads(outbox_of(alice).read_text())
    assert entry["file"] == "r0002-s0.toml" and not (folder / entry["file"]).exists()
    out = dm(alice, "play", "--bot", "heuristic", "--seed", "2", "--send")
    assert "dropped your turn of round 2" in out and "mailed round 2" in out, out
    assert not outbox_of(alice).exists() and own_file(alice, "r0002-s0.toml").file_hash != entry["hash"]
    t.note_sent(alice, out)
    assert "round 2 seat 0 verified and applied" in t.fetch(bob)
