"""One bad message must never stall anyone (issue 14, part 5): whatever a hostile mail or pushed file makes
a parser or a check raise, it is set aside, reported once with its source, and the honest turn behind it
is applied. Real Maildirs, a real Dovecot (IMAP) and real git repositories."""

from __future__ import annotations

import copy
import mailbox
import shutil
import smtplib
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest
from clitable import Table, dm, runner, snapshot
from mailtable import MailTable
from servers import PASSWORD
from test_git import clone, git
from test_mail_local import letter

from duelmail.cli import main
from duelmail.delivery import git as gitsync
from duelmail.home import Home
from duelmail.protocol.turnfile import SignedFile, parse_any
from duelmail.transport import mail as mailt

DEEP = "[" * 1500 + "]" * 1500  # nested arrays: tomllib recurses once per level


def nbsp_armour(path: Path) -> str:
    """The file at ``path`` armoured, with a non-breaking space inside the base64 (as mail clients do)."""
    lines = parse_any(path.read_text(), str(path))[0].armour().splitlines()
    lines[4] = lines[4][:10] + "\u00a0" + lines[4][10:]
    return "\n".join(lines) + "\n"


def nested_toml() -> str:
    return f"duelmail = 1\nkind = \"turn\"\nx = {DEEP}\n"


def huge_ref(path: Path, home: Path) -> str:
    """The Warlords turn at ``path`` with its moves replaced by one naming a 5000-digit card, signed by its
    seat's owner (a cheater lifts Python's digit limit to sign it)."""
    f = parse_any(path.read_text(), str(path))[0]
    content = copy.deepcopy(f.content)
    content["actions"] = [f"warlord a#{'9' * 5000}"]
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return SignedFile.sign(content, Home(home).load_identity(None)).to_toml()
    finally:
        sys.set_int_max_str_digits(limit)


def raw_letter(body: str, subject: str = "[duelmail] your move") -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "mallory@example.org", "alice@example.org", subject
    m.set_content(body)
    return m.as_bytes()


@pytest.fixture
def played(tmp_path):
    """Two homes four rounds in (Warlords: round 5 is Bob's first decision), and Alice's home as it was
    before she received anything, to feed by mail."""
    t = Table(tmp_path)
    fresh = tmp_path / "alice-fresh"
    shutil.copytree(t.alice, fresh)
    t.play_turns(2)
    bob5 = t.out / "r0005-s1.toml"
    assert parse_any(bob5.read_text(), "x")[0].content["actions"]  # a decision, with a card ref in it
    return t, fresh


def test_maildir_bad_messages_are_moved_aside_and_the_honest_turns_behind_them_applied(played, tmp_path):
    t, fresh = played
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    honest = [t.out / f"r000{r}-s{r % 2}.toml" for r in (1, 2, 3, 4)]
    bad = [box.add(raw_letter(nbsp_armour(honest[0]))), box.add(raw_letter(nested_toml())),
           box.add(raw_letter(huge_ref(t.out / "r0005-s1.toml", t.bob)))]
    good = [box.add(letter(p)) for p in honest]
    out = dm(fresh, "mail", "fetch", str(tmp_path / "Maildir"), "--no-auto", code=1)
    assert out.count("verified and applied") == 4, out  # rounds 1-4, though bad mail came first
    assert "Traceback" not in out  # whatever a parser raises (its own error or not), one line each
    assert out.count("REFUSED") == 3 and "refused files were not applied" in out
    assert f"3 with a refused file moved to the folder {mailt.REFUSED_FOLDER}" in out
    assert all(f"{tmp_path / 'Maildir'}/{k}" in out for k in bad)  # each names its message
    assert set(box.keys()) == set(good)  # the bad ones were moved aside, the good ones filed
    aside = box.get_folder(mailt.REFUSED_FOLDER)
    assert len(aside.keys()) == 3
    box.add(letter(t.out / "r0005-s1.toml"))  # the honest round 5 behind the forged one
    out = dm(fresh, "mail", "fetch", str(tmp_path / "Maildir"), "--no-auto")
    assert "round 5 seat 1 verified and applied" in out and "REFUSED" not in out  # reported once
    assert snapshot(fresh)[next(p for p in snapshot(fresh) if p.endswith("r0005-s1.toml"))]


def test_a_message_with_a_bad_part_still_gives_its_good_part(played, tmp_path):
    t, fresh = played
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "bob@example.org", "alice@example.org", "[duelmail] round 1"
    msg.set_content(nbsp_armour(t.out / "r0001-s1.toml"))  # the body damaged on the way
    msg.add_attachment((t.out / "r0001-s1.toml").read_bytes(), maintype="application", subtype="toml",
                       filename="r0001-s1.toml")
    (tmp_path / "turn.eml").write_bytes(msg.as_bytes())
    out = dm(fresh, "mail", "fetch", str(tmp_path / "turn.eml"), "--no-auto", code=1)
    assert "round 1 seat 1 verified and applied" in out and "REFUSED" in out and "part 1" in out


def test_by_hand_a_hostile_file_is_one_line_and_changes_nothing(played, tmp_path):
    t, fresh = played
    dm(fresh, "receive", *(str(t.out / f"r000{r}-s{r % 2}.toml") for r in (1, 2, 3, 4)), "--no-auto")
    bad = {"nbsp.txt": nbsp_armour(t.out / "r0005-s1.toml"), "nested.toml": nested_toml(),
           "huge.toml": huge_ref(t.out / "r0005-s1.toml", t.bob)}
    before = snapshot(fresh)
    for name, text in bad.items():
        (tmp_path / name).write_text(text)
        out = dm(fresh, "receive", str(tmp_path / name), code=1)
        assert out.startswith("Error: ") and name in out and out.count("\n") == 1 and "Traceback" not in out, out
        assert "FAILED" in dm(fresh, "verify", str(tmp_path / name), code=1)
    assert snapshot(fresh) == before
    assert "round 5 seat 1 verified and applied" in dm(fresh, "receive", str(t.out / "r0005-s1.toml"))


@pytest.fixture
def imap_password(monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)


def test_imap_bad_messages_are_flagged_once_and_the_honest_turn_applied(mail_servers, imap_password, tmp_path):
    t = MailTable(tmp_path, mail_servers)
    alice, bob = t.homes
    dm(alice, "new", "summoner", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"))
    t.note_sent(alice, dm(alice, "mail", "send"))
    t.fetch(bob)
    genesis = next((bob / "games").iterdir()) / "genesis.toml"
    dm(bob, "join", str(genesis))
    accept = next((bob / "games").iterdir()) / "r0001-s1.toml"
    with smtplib.SMTP("127.0.0.1", mail_servers.smtp_port) as s:  # mallory's mail goes first
        for body in (nbsp_armour(accept), nested_toml()):
            m = EmailMessage()
            m["From"], m["To"], m["Subject"] = "mallory@example.org", f"{t.users[0]}@example.org", "[duelmail] hi"
            m.set_content(body)
            s.send_message(m)
    t.sent[t.users[0]] += 2
    t.note_sent(bob, dm(bob, "mail", "send"))
    out = t.fetch(alice, code=1)
    assert "round 1 seat 1 verified and applied" in out, out
    assert out.count("REFUSED") == 2 and "imap:INBOX/" in out and "Traceback" not in out
    assert f"2 with a refused file flagged {mailt.REFUSED_KEYWORD}, left unread" in out
    c = mail_servers.imap(t.users[0])
    try:
        c.select("INBOX")
        flags = [d.decode() for d in c.fetch("1:*", "(FLAGS)")[1] if d]
    finally:
        c.logout()
    aside = [f for f in flags if mailt.REFUSED_KEYWORD in f]
    assert len(aside) == 2 and all("\\Flagged" in f and "\\Seen" not in f for f in aside)
    out = dm(alice, "mail", "fetch")
    assert "0 messages read" in out and "REFUSED" not in out  # set aside: reported once


# -- git -----------------------------------------------------------------------------------------
@pytest.fixture
def midgame(tmp_path):
    from test_git import GitTable

    t = GitTable(tmp_path)
    repos = t.start("warlords")
    t.join(1)
    for _ in range(3):
        for home in t.homes:
            dm(home, "git", "sync")
    return t, repos


def push_as(tmp_path: Path, remote: Path, name: str, files: dict[str, str | bytes], who: str = "mallory") -> None:
    """Someone with write access to the shared repository commits ``files`` (path -> text) and pushes."""
    path = tmp_path / f"{who}-clone"
    if not path.exists():
        clone(tmp_path, remote, who)
    git(path, "pull", "-q", "--rebase", "origin", "main")
    for rel, text in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            (path / rel).write_bytes(text)
        else:
            (path / rel).write_text(text)
    git(path, "add", "-A")
    git(path, "commit", "-qm", name)
    git(path, "push", "-q", "origin", "main")


def test_git_unsigned_nested_file_is_refused_once_and_play_goes_on(midgame, tmp_path):
    t, repos = midgame
    game = next((t.homes[0] / "games").iterdir()).name
    push_as(tmp_path, t.remote, "a normal move", {f"{game}/r0999-s0.toml": nested_toml(),
                                                   f"{game}/r0998-s0.toml": b"\xff\xfe not text \x80"})
    for home in t.homes:  # both players: refused, named by file and commit, no traceback
        out = dm(home, "git", "sync", code=1)
        assert out.count("REFUSED") == 2 and f"{game}/r0999-s0.toml (commit " in out, out
        assert f"{game}/r0998-s0.toml (commit " in out and "Traceback" not in out, out
        res = runner.invoke(main, ["--home", str(home), "watch", "--once", "--no-mail"])
        assert res.exit_code in (0, 10) and "REFUSED" not in res.output, res.output  # reported once
    mover = next(h for h in t.homes if t.status(h)["your_turn"])
    assert "committed" in dm(mover, "play", "--bot", "heuristic", "--seed", "1", "--push")
    other = t.homes[1 - t.homes.index(mover)]
    out = dm(other, "git", "sync")
    assert "verified and applied" in out and "REFUSED" not in out, out

def test_git_signed_huge_ref_is_refused_and_the_real_move_lands(midgame, tmp_path):
    t, repos = midgame
    mover = next(h for h in t.homes if t.status(h)["your_turn"])
    other = t.homes[1 - t.homes.index(mover)]
    game = next((mover / "games").iterdir()).name
    st = t.status(mover)
    dm(mover, "play", "--bot", "heuristic", "--seed", "1")  # written in the home, not pushed
    real = mover / "games" / game / f"r{st['round']:04d}-s{st['you']}.toml"
    bad = huge_ref(real, mover)  # the mover itself pushes a signed file no parser can read
    push_as(tmp_path, t.remote, "my move", {f"{game}/{real.name}": bad}, who="cheat")
    before = snapshot(other)
    out = dm(other, "git", "sync", code=1)
    assert "REFUSED" in out and real.name in out and "Traceback" not in out, out
    assert snapshot(other) == before
    out = dm(mover, "git", "sync")  # its own home holds the real file: pushed over the bad one
    assert f"round {st['round']}" in out
    out = dm(other, "git", "sync")
    assert f"round {st['round']} seat {st['you']} verified and applied" in out, out


@pytest.mark.parametrize("squat", ["copy", "forgery"])
def test_git_a_file_squatting_the_honest_name_never_stops_the_honest_push(midgame, tmp_path, squat):
    t, repos = midgame
    mover = next(h for h in t.homes if t.status(h)["your_turn"])
    cheat = t.homes[1 - t.homes.index(mover)]
    game = next((mover / "games").iterdir()).name
    st = t.status(mover)
    name = f"r{st['round']:04d}-s{st['you']}.toml"
    own = sorted((cheat / "games" / game).glob("r*.toml"))[-1].read_text()  # the cheater's own valid file
    text = own if squat == "copy" else nested_toml()
    push_as(tmp_path, t.remote, "nothing to see", {f"{game}/{name}": text}, who="cheat")
    out = dm(mover, "git", "sync", code=1)
    assert "REFUSED" in out and f"{game}/{name}" in out and ("own name" in out or squat == "forgery"), out
    out = dm(mover, "play", "--bot", "heuristic", "--seed", "2", "--push")
    assert f"replacing a foreign {name}" in out, out
    mine = (mover / "games" / game / name).read_text()
    assert gitsync.same_file(mine, git(t.remote, "show", f"main:{game}/{name}"), name)  # really pushed
    out = dm(cheat, "git", "sync", code=1)  # the squatter is reported to every home, once
    assert f"round {st['round']} seat {st['you']} verified and applied" in out and "REFUSED" in out, out
    assert "REFUSED" not in dm(cheat, "git", "sync")


def test_git_an_overwritten_or_deleted_turn_still_arrives_from_the_history(midgame, tmp_path):
    t, repos = midgame
    mover = next(h for h in t.homes if t.status(h)["your_turn"])
    other = t.homes[1 - t.homes.index(mover)]
    game = next((mover / "games").iterdir()).name
    st = t.status(mover)
    name = f"r{st['round']:04d}-s{st['you']}.toml"
    dm(mover, "play", "--bot", "heuristic", "--seed", "3", "--push")
    push_as(tmp_path, t.remote, "tidy up", {f"{game}/{name}": "x = 1\n"})  # overwritten...
    path = tmp_path / "mallory-clone"
    git(path, "rm", "-q", f"{game}/{name}")
    git(path, "commit", "-qm", "...and deleted")
    git(path, "push", "-q", "origin", "main")
    out = dm(other, "git", "sync", code=1)
    assert f"round {st['round']} seat {st['you']} verified and applied" in out, out
    assert "REFUSED" in out and "not a duelmail file" in out  # the overwrite, reported once
    assert "REFUSED" not in dm(other, "git", "sync")
    assert gitsync.same_file((mover / "games" / game / name).read_text(),
                           git(t.remote, "show", f"main:{game}/{name}"), name)  # and put back


@pytest.mark.parametrize("what", ["folder", "file", "readme"])
def test_git_a_pushed_symlink_is_set_aside_and_nothing_is_written_outside(midgame, tmp_path, what):
    """A peer replaces the game's folder (or a turn file, or the README) by a symbolic link to an absolute path
    and pushes: the other player's sync writes nothing there, says so, puts the game's own folder back, and
    the game goes on."""
    import os

    t, repos = midgame
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("keep out\n")
    mover = next(h for h in t.homes if t.status(h)["your_turn"])
    cheat = t.homes[1 - t.homes.index(mover)]
    game = next((mover / "games").iterdir()).name
    path = clone(tmp_path, t.remote, "linker")
    link = {"folder": path / game, "file": path / game / "genesis.toml", "readme": path / game / "README.md"}[what]
    git(path, "rm", "-rq", str(link.relative_to(path)))
    os.symlink(outside if what == "folder" else outside / "secret.txt", link)
    git(path, "add", "-A")
    git(path, "commit", "-qm", "tidy up")
    git(path, "push", "-q", "origin", "main")
    st = t.status(mover)
    out = runner.invoke(main, ["--home", str(mover), "play", "--bot", "heuristic", "--seed", "4", "--push"]).output
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"], out
    assert (outside / "secret.txt").read_text() == "keep out\n"
    assert "symbolic link" in out and "Traceback" not in out, out
    repo = repos[t.homes.index(mover)]
    assert not (repo / game).is_symlink() and not any(p.is_symlink() for p in (repo / game).iterdir())
    out = runner.invoke(main, ["--home", str(cheat), "git", "sync"]).output
    assert f"round {st['round']} seat {st['you']} verified and applied" in out, out
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    dm(mover, "git", "sync")  # and every later sync goes on


@pytest.mark.parametrize("words", ["<iframe src=//evil.example></iframe>", "![spy](http://evil.example/p.png)",
                                   '<meta http-equiv="refresh" content="0;url=http://evil.example">',
                                   "[click me](javascript:alert(1)) **loud** | a | table |"])
def test_git_player_talk_is_escaped_in_the_readme(midgame, words):
    """Whatever a player says lands in the game's README (rendered by hosting sites for spectators) as text:
    no tag, no link, no image, no markdown."""
    t, repos = midgame
    dm(t.homes[0], "say", words, "--push")
    readme = (repos[0] / next(p.name for p in repos[0].iterdir() if p.name.startswith("warlords-")) / "README.md")
    text = readme.read_text()
    said = next(line for line in text.splitlines() if "evil" in line or "click" in line)
    assert "<" not in said and "](" not in said.replace("\\](", "") and "**" not in said, said
    assert "&lt;" in said or "\\[" in said or "\\!" in said, said
