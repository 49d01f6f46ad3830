"""Play by reply, the mail side without servers: a reply's words read above the quote in each client's shape, the
reply code's binding, which messages are replies, and a plain 'mail fetch' leaving replies to 'watch'."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage

import pytest
from clitable import Table, dm
from replyplay import mutt, phone, webmail

from duelmail.transport import reply as rt
from duelmail.transport.mail import parse_message

TOKEN = "dm-0123456789ab-7-3-" + "ab" * 12
KEY = bytes(range(32))


def original() -> EmailMessage:
    m = EmailMessage()
    m["From"] = m["To"] = "bob@example.org"
    m["Subject"] = f"[duelmail] your move: Summoner 0123456789ab round 7 [{TOKEN}]"
    m["Message-ID"] = f"<{TOKEN}.1@duelmail.invalid>"
    m[rt.KIND_HEADER] = "list"
    m.set_content(f"Your moves:\n  1. Summon the King of clubs\n  2. End the turn\nreply code: {TOKEN}\n")
    m.add_alternative(f"<p>Your moves:</p><p>1. Summon the King of clubs</p><p>reply code: {TOKEN}</p>",
                      subtype="html")
    return m


@pytest.mark.parametrize("client", [mutt, webmail, phone])
def test_each_clients_reply_is_read_above_the_quote_and_carries_the_code(client):
    reply = parse_message(client(original(), "1 then 2", "bob@example.org").as_bytes())
    assert rt.reply_text(reply) == "1 then 2"
    assert rt.find_token(reply) == TOKEN and rt.looks_like_reply(reply) and rt.sender(reply) == "bob@example.org"


def test_outlook_top_post_signature_and_several_lines():
    m = EmailMessage()
    m["From"], m["Subject"] = "Bob <Bob@Example.org>", "RE: [duelmail] your move"
    m.set_content("2\nsay good game\n\n-- \nBob\n\n-----Original Message-----\nFrom: bob\n1. Summon\n")
    msg = parse_message(m.as_bytes())
    assert rt.reply_text(msg) == "2\nsay good game" and rt.sender(msg) == "bob@example.org"
    m2 = EmailMessage()
    m2.set_content("resign\n\n-----Original Message-----\n1. Summon the King\n")
    assert rt.reply_text(parse_message(m2.as_bytes())) == "resign"
    m3 = EmailMessage()
    m3.set_content("\x1b[31m3\u202e\n")  # control characters a terminal or a bidi reader would act on are removed
    assert rt.reply_text(parse_message(m3.as_bytes())) == "[31m3"


def test_the_code_binds_game_round_seat_serial_list_and_key():
    gid = "0123456789ab" + "0" * 52
    d = rt.list_digest([], ["summon KC", "end"])
    base = rt.make_token(KEY, gid, 7, 1, 3, d)
    assert rt.TOKEN.fullmatch(base) and base.startswith("dm-0123456789ab-7-3-")
    others = {rt.make_token(KEY, gid[:-1] + "1", 7, 1, 3, d), rt.make_token(KEY, gid, 8, 1, 3, d),
              rt.make_token(KEY, gid, 7, 0, 3, d), rt.make_token(KEY, gid, 7, 1, 4, d),
              rt.make_token(KEY, gid, 7, 1, 3, rt.list_digest([], ["end", "summon KC"])),
              rt.make_token(KEY, gid, 7, 1, 3, rt.list_digest(["summon KC"], ["end"])),
              rt.make_token(bytes(32), gid, 7, 1, 3, d)}
    assert base not in others and len({t[-24:] for t in others}) == len(others)


def test_which_messages_are_replies():
    assert not rt.looks_like_reply(original())  # our own list, back in the inbox
    plain = EmailMessage()
    plain["Subject"] = "lunch?"
    assert not rt.looks_like_reply(plain)
    bare = EmailMessage()
    bare["Subject"] = "Re: [duelmail] Your move"
    assert rt.looks_like_reply(bare) and rt.find_token(bare) is None
    ref = EmailMessage()
    ref["Subject"], ref["References"] = "Re: hm", f"<x@y> <{TOKEN}.1@duelmail.invalid>"
    assert rt.looks_like_reply(ref) and rt.find_token(ref) == TOKEN
    turn = EmailMessage()  # a turn (even a damaged one) under that subject is read for turns, never as a reply
    turn["Subject"] = "Re: [duelmail] your move"
    turn.set_content("-----BEGIN DUELMAIL TURN-----\nnot base64\n-----END DUELMAIL TURN-----\n")
    assert not rt.looks_like_reply(turn)


def test_mail_fetch_leaves_a_reply_unread_for_watch(tmp_path):
    t = Table(tmp_path)
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    key = box.add(mutt(original(), "1", "alice@example.org").as_bytes())
    out = dm(t.alice, "mail", "fetch", str(tmp_path / "Maildir"))
    assert "1 messages read, 0 turns applied, 1 reply to a 'your move' mail left for 'duelmail watch'" in out, out
    assert box.get_message(key).get_subdir() == "new"  # not marked: the reply play of 'watch' reads it


def test_reply_play_setting_marks_games_and_status_says_it(tmp_path):
    t = Table(tmp_path)
    assert "reply play mails you your moves" in dm(t.alice, "mail", "setup", "--reply-play", code=1)
    dm(t.alice, "mail", "setup", "--smtp-host", "127.0.0.1")
    assert "reply_play" not in (t.alice / "config.toml").read_text()  # off by default
    assert "reply play: on" in dm(t.alice, "mail", "setup", "--reply-play")
    assert "reply_play = true" in (t.alice / "config.toml").read_text()
    assert "played by reply" in dm(t.alice, "status") and "(by reply)" in dm(t.alice, "status", "--all")
    assert "played by reply" not in dm(t.bob, "status")
    assert "reply play: off" in dm(t.alice, "mail", "setup", "--no-reply-play")
    assert "played by reply" not in dm(t.alice, "status") and "(by reply)" not in dm(t.alice, "status", "--all")


@pytest.mark.parametrize("cte", ["base64", "quoted-printable"])
def test_a_reply_in_base64_or_quoted_printable_with_crlf_is_read(cte):
    m = EmailMessage()
    m["From"], m["Subject"] = "bob@example.org", f"Re: [duelmail] your move [{TOKEN}]"
    m.set_content("attack alice with the king \u2660\r\n\r\nOn Thu, Nov 26, 2026, bob wrote:\r\n> 1. Summon\r\n",
                  cte=cte)
    msg = parse_message(m.as_bytes().replace(b"\n", b"\r\n"))
    assert rt.reply_text(msg) == "attack alice with the king \u2660" and rt.find_token(msg) == TOKEN
