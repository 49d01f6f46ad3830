"""Play by reply over the real Dovecot and OpenSMTPD: Bob's seat is played only by his replies to the mails his own
'duelmail watch --once' (IMAP in, SMTP out) sends him, Alice plays by the CLI; and every refused reply: a forged
From:, no reply code, a forged code, a replayed one, one answering an old list, two replies to one mail, and an
illegal move (answered with the legal ones). A refused reply is never played and is reported to the player, in one
mail a poll, quoting nothing of it; a flood from other addresses is told once a day. A reply whose subject lost
duelmail's tag is found by IMAP through its In-Reply-To or References, or by the quote of its list alone."""

from __future__ import annotations

import re
import smtplib

import pytest
from clitable import dm, runner, snapshot
from mailtable import MailTable
from replyplay import Hasty, Player, is_list, mutt, phone, plain_of, webmail
from servers import PASSWORD, free_port

from duelmail.cli import main
from duelmail.delivery import watch as watching
from duelmail.transport import mail as mailt


@pytest.fixture(autouse=True)
def password(monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)


class ReplyMailTable(MailTable):
    """Alice and Bob by real mail; Bob plays by reply (``mail setup --reply-play``)."""

    def __init__(self, tmp, servers, life: int = 3, game: str = "summoner"):
        super().__init__(tmp, servers)
        self.start(game, *([f"life={life}"] if game == "summoner" else []))
        self.alice, self.bob = self.homes
        out = dm(self.bob, "mail", "setup", "--reply-play")
        assert "reply play: on" in out, out
        self.address = f"{self.users[1]}@example.org"
        self.self_mail = 0  # mail in Bob's inbox besides Alice's turns: his watch's mails to him, his replies
        self.seen: set[str] = set()

    def bob_total(self) -> int:
        return self.sent[self.users[1]] + self.self_mail

    def watch(self) -> str:
        self.servers.wait_for(self.users[1], self.bob_total())
        res = runner.invoke(main, ["--home", str(self.bob), "watch", "--once"], catch_exceptions=False)
        assert res.exit_code in (watching.NOTHING, watching.DECISION), res.output
        self.note_sent(self.bob, res.output)
        for line in res.output.splitlines():
            if line.startswith("mailed your moves"):
                self.self_mail += 1
            elif line.startswith("mailed ") and " answer" in line:
                self.self_mail += int(line.split()[1])
        return res.output

    def inbox(self) -> list:
        self.servers.wait_for(self.users[1], self.bob_total())
        c = self.servers.imap(self.users[1])
        try:
            c.select("INBOX")
            typ, data = c.fetch("1:*", "(BODY.PEEK[])")
            return [mailt.parse_message(d[1]) for d in data if isinstance(d, tuple)]
        finally:
            c.logout()

    def new_lists(self) -> list:
        out = []
        for m in self.inbox():
            if is_list(m) and m["Message-ID"] not in self.seen:
                self.seen.add(m["Message-ID"])
                out.append(m)
        return out

    def send(self, msg) -> None:
        with smtplib.SMTP("127.0.0.1", self.servers.smtp_port) as s:
            s.send_message(msg, to_addrs=[self.address])
        self.self_mail += 1

    def alice_moves(self, i: int) -> None:
        if self.read[self.users[0]] < self.sent[self.users[0]]:
            self.fetch(self.alice)
        st = self.status(self.alice)
        folder = next((self.alice / "games").iterdir())
        if st["your_turn"] and not (folder / f"r{st['round']:04d}-s0.toml").exists():
            self.note_sent(self.alice, dm(self.alice, "play", "--bot", "heuristic", "--seed", str(i), "--send"))

    def first_list(self):
        for i in range(20):
            self.alice_moves(i)
            self.watch()
            lists = self.new_lists()
            if lists:
                return lists[-1]
        raise AssertionError("no list was mailed")


def whole_game_by_replies(t: ReplyMailTable, player: Player) -> str:
    """One game to its end and audit, Bob answering each list by ``player``'s next client: what his polls said."""
    said = []
    for i in range(80):
        t.alice_moves(i)
        said.append(t.watch())
        for orig in t.new_lists()[-1:]:
            t.send(player.reply(orig, player.answer_text(one_step=player.replies < 3)))
        if all(t.status(h)["audited"] for h in t.homes) and t.read[t.users[0]] == t.sent[t.users[0]]:
            break
    else:
        raise AssertionError("the game did not end in 80 polls:\n" + "\n".join(said[-10:]))
    a, b = t.status(t.alice), t.status(t.bob)
    assert a["audited"] and a["audit_ok"] and a["result"] == b["result"] and "resign" not in a["result"], said
    return "\n".join(said)


def test_a_whole_game_by_replies_over_real_mail(mail_servers, tmp_path):
    """Summoner to its end over IMAP and SMTP, Bob choosing only by replies from mutt (with a subject of his own:
    the reply is found by its In-Reply-To), an HTML-only webmail and a phone, the moves that end a game soonest
    (his first three replies a step each). A deal can end a game at once (two jokers, S-22): then another game,
    until all three clients have answered."""
    player = Player(None, None, seed=5, bot=Hasty("summoner"), mutt_subject="my move")
    for n in range(4):
        t = ReplyMailTable(tmp_path / f"game{n}", mail_servers, life=4)  # a short game: every list comes by mail
        player.sit(t.bob, t.address)
        before = player.replies
        text = whole_game_by_replies(t, player)
        assert ": by reply: " in text and "REFUSED" not in text and "not played" not in text, text
        assert text.count(": reply ") == player.replies - before, text
        if set(player.used) == {"mutt", "webmail", "phone"}:
            return
    raise AssertionError(f"four games ended before all three clients answered: {player.used}")


def test_a_reply_whose_subject_lost_its_tag_is_found_by_its_references(mail_servers, tmp_path):
    """A client that lets its user rewrite the subject: IMAP finds the reply by the In-Reply-To and References that
    name the "your move" mail (mutt), or by References alone (a phone); the reply code in them, checked as always,
    lets it play. Both in 8bit plain text, which the server's search looks into and finds nothing of duelmail's."""
    t = ReplyMailTable(tmp_path, mail_servers)
    reply = mutt(t.first_list(), Player(t.bob, t.address).answer_text(), t.address, subject="Re: that card game")
    assert "duelmail" not in str(reply["Subject"]) and reply["Content-Transfer-Encoding"] == "8bit"
    t.send(reply)
    out = t.watch()
    assert ": by reply: " in out and "REFUSED" not in out, out
    reply = phone(t.first_list(), Player(t.bob, t.address).answer_text(), t.address)
    reply.replace_header("Subject", "my move")
    reply.set_content(plain_of(reply), cte="8bit")
    assert "In-Reply-To" not in reply and "dm-" in str(reply["References"])
    t.send(reply)
    out = t.watch()
    assert ": by reply: " in out and "REFUSED" not in out, out


def test_a_reply_left_by_mail_fetch_is_played_by_the_next_watch(mail_servers, tmp_path):
    """'duelmail mail fetch' run by hand in the home leaves a reply for 'watch': unread, and not counted among the
    messages IMAP has looked at, so the next watch still finds it."""
    t = ReplyMailTable(tmp_path, mail_servers)
    orig = t.first_list()
    t.send(webmail(orig, Player(t.bob, t.address).answer_text(), t.address))
    mail_servers.wait_for(t.users[1], t.bob_total())
    out = dm(t.bob, "mail", "fetch")
    assert "reply" in out and "by reply" not in out, out
    out = t.watch()
    assert ": by reply: " in out and "REFUSED" not in out, out


def _folder(home):
    return next((home / "games").iterdir())


def _game_files(home) -> dict:
    return {k: v for k, v in snapshot(home).items() if "/games/" in f"/{k}" and k.rsplit("/", 1)[-1][0] in "gr"}


def test_refused_replies_are_reported_and_never_played(mail_servers, tmp_path):
    t = ReplyMailTable(tmp_path, mail_servers)
    orig = t.first_list()
    assert "played by reply" in dm(t.bob, "status") and "(by reply)" in dm(t.bob, "status", "--all")
    body = plain_of(orig)
    assert "Your moves:" in body and "  1. " in body and "reply code: dm-" in body
    before, alice_mail = _game_files(t.bob), t.sent[t.users[0]]

    # a forged From: with the right code (someone who read the mail): refused, not from the player
    forged = mutt(orig, "1", "mallory@example.org")
    t.send(forged)
    # no reply code at all: the subject kept, every pointer to the mail gone
    bare = phone(orig, "1", t.address)
    del bare["References"], bare["Subject"]
    bare["Subject"] = "Re: [duelmail] your move"
    bare.set_content("1\n\nSent from my phone\n")
    t.send(bare)
    # a code not made by Bob's home (its MAC changed)
    token = re.search(r"dm-[0-9a-f]{12}-\d+-\d+-[0-9a-f]{24}", str(orig["Subject"])).group(0)
    fake = token[:-1] + ("0" if token[-1] != "0" else "1")
    wrong = mutt(orig, "1", t.address)
    for h in ("Subject", "In-Reply-To", "References"):
        v = str(wrong[h]).replace(token, fake)
        del wrong[h]
        wrong[h] = v
    wrong.set_content(plain_of(wrong).replace(token, fake))
    t.send(wrong)
    # an illegal move: answered with the legal ones
    t.send(webmail(orig, "99", t.address))
    out = t.watch()
    assert out.count("REFUSED") == 3, out
    assert f"not from your address {t.address}" in out and "no reply code" in out
    assert "was not made by your duelmail" in out and "reply '99' not played: there is no move 99" in out, out
    assert _game_files(t.bob) == before and t.sent[t.users[0]] == alice_mail  # nothing signed, nothing sent
    mails = t.inbox()
    refusals = [m for m in mails if "reply refused" in str(m["Subject"])]
    assert len(refusals) == 1 and "3 replies that reached your duelmail were refused" in plain_of(refusals[0])
    assert "mallory" not in refusals[0].as_string()  # a stranger's words are never mailed on
    again = [m for m in t.new_lists() if "Nothing was sent" in plain_of(m)]
    assert len(again) == 1 and token in str(again[0]["Subject"]) and "  1. " in plain_of(again[0])

    # two replies to one mail, in one poll: only the first plays; the second is a replay
    first = phone(orig, Player(t.bob, t.address).answer_text(), t.address)  # a whole turn
    second = mutt(orig, "1", t.address)
    t.send(first)
    t.servers.wait_for(t.users[1], t.bob_total())  # delivered before the second is sent: the relay keeps no order
    t.send(second)
    out = t.watch()
    assert ": by reply: " in out and out.count("REFUSED") == 1 and "was answered already" in out, out
    assert t.sent[t.users[0]] == alice_mail + 1
    # the first again, later: a replayed code
    t.send(first)
    out = t.watch()
    assert "REFUSED" in out and "was answered already" in out and ": by reply: " not in out, out

    # a list made old: Bob plays from a terminal meanwhile, then answers the old mail
    nxt = t.first_list()
    t.note_sent(t.bob, dm(t.bob, "play", "--bot", "heuristic", "--send"))
    before = _game_files(t.bob)
    t.send(webmail(nxt, "1", t.address))
    out = t.watch()
    assert "REFUSED" in out and "answers an old list" in out, out
    assert all(k in _game_files(t.bob) for k in before)
    refusals = [plain_of(m) for m in t.inbox() if "reply refused" in str(m["Subject"])]
    assert len(refusals) == 4, refusals  # each poll's refused replies told the player: the second, the replay, the old
    assert sum("was answered already" in r for r in refusals) == 2 and "answers an old list" in refusals[-1]


def test_reply_play_refuses_a_sealed_identity_without_an_agent(mail_servers, tmp_path, monkeypatch):
    carol = tmp_path / "carol"
    monkeypatch.setenv("DUELMAIL_PASSPHRASE", "correct horse")
    dm(carol, "id", "new", "carol", "--email", "carol@example.org", "--passphrase")
    from mailtable import mail_setup

    mail_setup(carol, mail_servers, "carol-x")
    out = dm(carol, "mail", "setup", "--reply-play", code=1)
    assert "sealed by a passphrase" in out and "--agent" in out
    assert "reply_play" not in (carol / "config.toml").read_text()
    assert "reply play: on" in dm(carol, "mail", "setup", "--reply-play", "--agent")
    assert "without --once" in dm(carol, "watch", "--once", code=1)


def test_a_reply_in_a_game_kept_in_git_is_pushed_to_the_repository(mail_servers, tmp_path):
    """The move goes by the game's transport: here git (never mailed to Alice), while the list and the reply go
    through Bob's real mailbox."""
    from mailtable import mail_setup
    from test_git import GitTable

    t = GitTable(tmp_path)
    repos = t.start("summoner", "life=3")
    alice, bob = t.homes
    user = f"bob-git-{id(t)}"
    address = mail_servers.account(user)
    mail_setup(bob, mail_servers, user, "--address", address)
    dm(bob, "mail", "setup", "--reply-play")
    t.join(1, sync=False)
    mails, seen = 0, set()
    orig = None
    for i in range(12):
        dm(alice, "git", "sync")
        st = t.status(alice)
        if st["your_turn"] and not (_folder(alice) / f"r{st['round']:04d}-s0.toml").exists():
            dm(alice, "play", "--bot", "heuristic", "--seed", str(i), "--push")
        mail_servers.wait_for(user, mails)
        res = runner.invoke(main, ["--home", str(bob), "watch", "--once"], catch_exceptions=False)
        mails += res.output.count("mailed your moves")
        assert "mailed round" not in res.output  # a game kept in git is never mailed to the others
        mail_servers.wait_for(user, mails)
        c = mail_servers.imap(user)
        try:
            c.select("INBOX")
            data = c.fetch("1:*", "(BODY.PEEK[])")[1] if mails else []
        finally:
            c.logout()
        lists = [m for m in (mailt.parse_message(d[1]) for d in data if isinstance(d, tuple))
                 if is_list(m) and m["Message-ID"] not in seen]
        if lists:
            orig = lists[-1]
            break
    assert orig is not None, "no list was mailed"
    reply = phone(orig, Player(bob, address).answer_text(), address)
    with smtplib.SMTP("127.0.0.1", mail_servers.smtp_port) as s:
        s.send_message(reply, to_addrs=[address])
    mail_servers.wait_for(user, mails + 1)
    res = runner.invoke(main, ["--home", str(bob), "watch", "--once"], catch_exceptions=False)
    assert ": by reply: " in res.output and f"{repos[1]}: committed" in res.output, res.output
    rnd = int(re.search(r"game [0-9a-f]{12} round (\d+): by reply", res.output).group(1))
    assert f"round {rnd} seat 1 verified and applied" in dm(alice, "git", "sync")


def test_a_move_played_by_reply_while_smtp_fails_is_mailed_by_the_next_watch(mail_servers, tmp_path):
    """Issue 38: Bob's reply is played while his outgoing server is down. The move is signed and kept in the
    game's outbox; 'status' says it is not sent and why; the next watch mails it, and Alice's home applies it."""
    t = ReplyMailTable(tmp_path, mail_servers)
    t.send(mutt(t.first_list(), Player(t.bob, t.address).answer_text(), t.address))
    mail_servers.wait_for(t.users[1], t.bob_total())
    dm(t.bob, "mail", "setup", "--smtp-port", str(free_port()))
    res = runner.invoke(main, ["--home", str(t.bob), "watch", "--once"])
    assert "could not mail round" in res.output and "kept in the outbox" in res.output, res.output
    st = dm(t.bob, "status")
    assert "not sent yet: r" in st and "Connection refused" in st, st
    (entry,) = re.findall(r"not sent yet: (r\d{4}-s1\.toml)", st)
    dm(t.bob, "mail", "setup", "--smtp-port", str(mail_servers.smtp_port))
    out = t.watch()
    rnd = int(entry[1:5])
    assert f"mailed round {rnd} of" in out, out
    assert "not sent" not in dm(t.bob, "status")
    got = t.fetch(t.alice)
    assert f"round {rnd} seat 1 verified and applied" in got, got


def _raw(frm: str, to: str, subject: str, n: int) -> bytes:
    return (f"From: {frm}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <flood{n}@evil.example>\r\n"
            "Date: Fri, 27 Nov 2026 10:00:00 +0000\r\n\r\n1\r\n").encode()


def test_a_flood_from_strangers_is_told_once_and_the_players_own_reply_still_plays(mail_servers, tmp_path):
    """Issue 40 item 6: a dozen mails from other addresses posing as replies (subjects luring to a link, one From:
    malformed, ``bob <bob@``) and, in the same fetch, the player's own reply that lost the subject's tag and both
    headers, keeping only the quote of its list. The player's reply plays; the others are refused in one mail to
    the player's own address that quotes none of their words; a second flood within the day is not mailed."""
    t = ReplyMailTable(tmp_path, mail_servers)
    orig = t.first_list()
    token = re.search(r"dm-[0-9a-f]{12}-\d+-\d+-[0-9a-f]{24}", str(orig["Subject"])).group(0)
    lure = "Re: [duelmail] your move: click http://evil.example/{n} to keep your account [" + token + "]"
    flood = [_raw(f"Support <support{n}@evil.example>", t.address, lure.format(n=n), n) for n in range(11)]
    flood.append(_raw("bob <bob@", t.address, lure.format(n=11), 11))
    with smtplib.SMTP("127.0.0.1", t.servers.smtp_port) as s:
        for raw in flood:
            s.sendmail("support@evil.example", [t.address], raw)
    t.self_mail += len(flood)
    own = mutt(orig, Player(t.bob, t.address).answer_text(), t.address, subject="hello")
    del own["In-Reply-To"], own["References"]
    assert token not in str(own["Subject"]) and "[duelmail]" not in str(own["Subject"])
    t.send(own)
    out = t.watch()
    assert ": by reply: " in out and out.count("REFUSED") == 12 and "Traceback" not in out, out
    assert "mailed 2 answers" in out, out  # the player's answer, and one refusal for the twelve
    refusals = [m for m in t.inbox() if "reply refused" in str(m["Subject"])]
    assert len(refusals) == 1, refusals
    (told,) = refusals
    assert str(told["To"]).endswith(f"<{t.address}>") and "," not in str(told["To"])
    assert "12 replies that reached your duelmail were refused" in plain_of(told)
    assert "evil.example" not in told.as_string() and "click" not in told.as_string() and "bob@" not in plain_of(told)
    for raw in flood[:3]:  # again, the same day: said by watch, not mailed
        with smtplib.SMTP("127.0.0.1", t.servers.smtp_port) as s:
            s.sendmail("support@evil.example", [t.address], raw.replace(b"<flood", b"<again"))
        t.self_mail += 1
    out = t.watch()
    assert out.count("REFUSED") == 3 and "told already within the day" in out and "\nmailed" not in out, out
    assert len([m for m in t.inbox() if "reply refused" in str(m["Subject"])]) == 1
