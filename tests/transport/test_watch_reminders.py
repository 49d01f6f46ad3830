"""``duelmail watch`` and the time control: a reminder mail to the player whose deadline is near, a note to the
others once a timeout can be claimed, never twice for one deadline; and a game played by git is never mailed.
Real messages through OpenSMTPD into Dovecot; the watch's clock is injected (no sleeping, no today's date)."""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta

from clitable import dm
from mailtable import MailTable, mail_setup
from servers import PASSWORD
from test_git import GitTable

from duelmail.delivery import watch as watching
from duelmail.home import Home
from duelmail.transport import mail as mailt


def _inbox(servers, user: str) -> list:
    c = servers.imap(user)
    try:
        c.select("INBOX")
        typ, data = c.fetch("1:*", "(BODY.PEEK[])")
        return [email.message_from_bytes(d[1], policy=email.policy.default) for d in data if isinstance(d, tuple)]
    finally:
        c.logout()


def test_a_reminder_near_the_deadline_and_a_timeout_note_after_it_each_once(mail_servers, tmp_path, monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)
    t = MailTable(tmp_path, mail_servers)
    t.start("summoner", "life=3")  # alice invites, bob joins by mail: now alice's machine answers, then bob decides
    alice, bob = t.homes
    for i in range(10):  # until bob has a decision to make and nothing is in flight
        for home in t.homes:
            if t.read[t.user(home)] < t.sent[t.user(home)]:
                t.fetch(home)
        if t.status(alice)["your_turn"]:
            t.note_sent(alice, dm(alice, "play", "--bot", "heuristic", "--seed", str(i), "--send"))
        elif t.status(bob)["your_turn"] and all(t.read[u] == t.sent[u] for u in t.users):
            break
    assert t.status(bob)["your_turn"] and not t.status(alice)["your_turn"]
    folder = Home(alice).game_folders()[0]
    match = folder.fold()
    due = match.deadlines()[1]
    reminder_point = due - timedelta(hours=match.tc.reminder_hours)
    ident = Home(alice).load_identity(None)
    carrier = watching.MailCarrier(mailt.load_settings(Home(alice)), lambda s, u, h: PASSWORD)
    before = {u: len(_inbox(mail_servers, u)) for u in t.users}

    def poll(at):
        return watching.poll(Home(alice), ident, [carrier], clock=lambda: at).lines

    assert not [line for line in poll(reminder_point - timedelta(minutes=1)) if "mailed a" in line]  # too early
    lines = poll(reminder_point + timedelta(minutes=1))
    assert [line for line in lines if "mailed a reminder about bob" in line]
    assert not [line for line in poll(reminder_point + timedelta(hours=2)) if "mailed a" in line]  # never twice
    mail_servers.wait_for(t.users[1], before[t.users[1]] + 1)
    reminder = _inbox(mail_servers, t.users[1])[-1]
    assert reminder["Subject"].endswith("reminder, your move by " + mailt._when(due))
    assert reminder["In-Reply-To"] == mailt.thread_root(match.gid) and "alice" in reminder["From"]
    assert [p.get_content_type() for p in reminder.walk()][1:] == ["text/plain", "text/html"]
    assert "<svg" in reminder.get_body(("html",)).get_content()
    assert not mailt.find_turns(reminder, "mail").files  # a note carries no turn
    stands = match.claim_from(1)  # under the last call a claim may be signed once the deadline passed (§6b)
    assert stands == due
    assert not [line for line in poll(due - timedelta(minutes=5)) if "mailed a" in line]  # not yet
    lines = poll(stands + timedelta(minutes=5))
    assert [line for line in lines if "bob's time ran out" in line and "duelmail claim" in line]
    assert [line for line in lines if "mailed a timeout about bob" in line]
    assert not [line for line in poll(stands + timedelta(hours=1)) if "mailed a" in line]
    mail_servers.wait_for(t.users[0], before[t.users[0]] + 1)
    note = _inbox(mail_servers, t.users[0])[-1]
    assert "bob's time ran out" in note["Subject"] and "duelmail claim" in note.get_body(("plain",)).get_content()
    assert len(_inbox(mail_servers, t.users[1])) == before[t.users[1]] + 1  # bob got the reminder only


def test_a_game_played_by_git_is_never_mailed_even_with_mail_set_up(mail_servers, tmp_path, monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)
    t = GitTable(tmp_path)
    repos = t.start("summoner", "life=3")
    t.join(1)  # bob's join is pushed: alice's machine has answers to make (deck passes, key shares)
    alice = t.homes[0]
    user = f"alice-git-{id(t)}"
    mail_servers.account(user)
    mail_setup(alice, mail_servers, user)
    ident = Home(alice).load_identity(None)
    carriers = [watching.MailCarrier(mailt.load_settings(Home(alice)), lambda s, u, h: PASSWORD),
                watching.GitCarrier(repos[0])]
    opened = Home(alice).game_folders()[0].fold().opened_at
    p = watching.poll(Home(alice), ident, carriers, clock=lambda: opened + timedelta(hours=1))  # bob's join in time
    assert p.answers and "committed" in " ".join(p.lines), p.lines  # answered, and pushed by git
    assert not [line for line in p.lines if "mailed" in line], p.lines
    p = watching.poll(Home(alice), ident, carriers, clock=lambda: opened + timedelta(days=2, hours=12))
    assert not [line for line in p.lines if "mailed" in line], p.lines  # neither the answers nor a reminder
    assert not list((Home(alice).game_folders()[0].path).glob(".notices.toml"))
