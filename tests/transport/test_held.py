"""A file that arrives before the files it follows is kept aside and applied once the gap is filled (issue 28,
item 10; protocol rule P-round): by ``receive`` between separate homes, and in the store's own terms (a held file
that proves bad is refused then, the store is bounded, a finished game holds nothing)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

from clitable import Table, dm, runner  # noqa: E402
from helpers import Players  # noqa: E402
from mailtable import mail_setup  # noqa: E402
from servers import PASSWORD  # noqa: E402

from duelmail import app  # noqa: E402
from duelmail.cli import main  # noqa: E402
from duelmail.errors import FileRefused, HeldFull  # noqa: E402
from duelmail.home import Home  # noqa: E402
from duelmail.protocol.turnfile import SignedFile  # noqa: E402
from duelmail.transport import held  # noqa: E402
from duelmail.transport import mail as mailt  # noqa: E402
from duelmail.transport.held import HeldFiles  # noqa: E402

DUELMAIL = str(Path(sys.executable).parent / "duelmail")


def run(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([DUELMAIL, *args], capture_output=True, text=True,
                          env=dict(os.environ, DUELMAIL_HOME=str(home)))


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Table:
    t = Table(tmp_path_factory.mktemp("held"))
    t.settle()  # genesis, bob's acceptance, alice's and bob's deck passes: rounds 0 to 3 in the outbox
    return t


def game_folder(home: Path) -> Path:
    (folder,) = (home / "games").iterdir()
    return folder


def test_round_3_before_round_2_is_kept_then_applied_by_the_command_that_fills_the_gap(table, tmp_path):
    """[P-round] carol follows the game from her own home: bob's round 3 reaches her before alice's round 2."""
    carol = tmp_path / "carol"
    dm(carol, "id", "new", "carol", "--email", "carol@example.org")
    out = table.out
    assert run(carol, "receive", str(out / "genesis.toml"), str(out / "r0001-s1.toml")).returncode == 0
    early = run(carol, "receive", str(out / "r0003-s1.toml"))
    assert early.returncode == 0, early.stderr
    (line,) = [x for x in early.stdout.splitlines() if "r0003-s1.toml" in x]
    assert "waiting for round 2" in line and "P-round" not in line, early.stdout
    folder = game_folder(carol)
    assert not (folder / "r0003-s1.toml").exists(), "a held file is not among the game's files"
    assert [p.name.endswith("-r0003-s1.toml") for p in (folder / held.HELD_DIR).iterdir()] == [True]
    filled = run(carol, "receive", str(out / "r0002-s0.toml"))
    assert filled.returncode == 0, filled.stderr
    assert f"{out / 'r0002-s0.toml'}: round 2 seat 0 verified and applied" in filled.stdout, filled.stdout
    assert "r0003-s1.toml (held): round 3 seat 1 verified and applied (it had waited for round 2)" in filled.stdout
    assert (folder / "r0003-s1.toml").read_bytes() == (game_folder(table.alice) / "r0003-s1.toml").read_bytes()
    assert list((folder / held.HELD_DIR).iterdir()) == []
    assert table.status(carol)["round"] == table.status(table.alice)["round"]


def resigned(f: SignedFile, identity, **changes) -> SignedFile:
    """``f`` with ``changes``, signed again by its own seat: a real signed file, bad in content."""
    return SignedFile.sign({**f.content, **changes}, identity)


def started(tmp_path, upto: int) -> tuple[Players, Home]:
    p = Players("highcard", seed=3).run(limit=10_000)
    home = Home(tmp_path / "h")
    app.receive_files(home, None, [(f"f{i}", f) for i, f in enumerate(p.files) if f.round < upto])
    return p, home


def by_round(p: Players, rnd: int) -> list[SignedFile]:
    return [f for f in p.files if f.round == rnd and f.kind == "turn"]


def test_a_held_file_that_proves_bad_is_refused_then_by_name_and_dropped(tmp_path):
    """[P-chain] a seat's round-4 file signed on a history of its own waits for round 3, then is refused."""
    p, home = started(tmp_path, 3)
    (four,) = by_round(p, 4)[:1]
    bad = resigned(four, p.ids[four.seat], prev="A" * 43 + "=")
    (r,) = app.receive_files(home, None, [("bad-r0004.toml", bad)])
    assert r.waiting == "round 3"
    got = app.receive_files(home, None, [(f"r3-{i}", f) for i, f in enumerate(by_round(p, 3))])
    refused = [r for r in got if r.refused]
    assert len(refused) == 1 and "r0004" in refused[0].line() and "[P-chain]" in refused[0].line(), got
    (folder,) = home.game_folders()
    assert HeldFiles(folder).entries() == [] and not (folder.path / "r0004-s0.toml").exists()
    app.receive_files(home, None, [(f"r4-{i}", f) for i, f in enumerate(by_round(p, 4))])  # the true one: applied
    assert folder.fold().round >= 5


def test_the_store_is_bounded_in_files(tmp_path):
    """Nobody fills a disk with files from the future: past ``MAX_FILES`` a held file is refused, nothing kept."""
    p, home = started(tmp_path, 2)
    (two,) = by_round(p, 2)[:1]
    early = [resigned(two, p.ids[two.seat], round=5 + i) for i in range(held.MAX_FILES + 1)]
    for i, f in enumerate(early[:-1]):
        (r,) = app.receive_files(home, None, [(f"e{i}", f)])
        assert r.waiting == "round 2"
    with pytest.raises(FileRefused, match="as many as a home keeps"):
        app.receive_files(home, None, [("one-too-many.toml", early[-1])])
    (folder,) = home.game_folders()
    assert len(HeldFiles(folder).entries()) == held.MAX_FILES


def test_a_finished_game_holds_nothing(tmp_path):
    """A file from after the end waits for nothing: once the game is finished, what was held is dropped."""
    p, home = started(tmp_path, 2)
    last = max(f.round for f in p.files)
    (two,) = by_round(p, 2)[:1]
    after = resigned(two, p.ids[two.seat], round=last + 5)
    (r,) = app.receive_files(home, None, [("after.toml", after)])
    assert r.waiting
    got = app.receive_files(home, None, [(f"f{i}", f) for i, f in enumerate(p.files) if f.round >= 2])
    (folder,) = home.game_folders()
    assert folder.fold().finished and HeldFiles(folder).entries() == []
    assert [r.path for r in got if r.refused] == [f"r{last + 5:04d}-s{two.seat}.toml (held)"]


def attached(path: Path) -> EmailMessage:
    """A turn file attached to a mail under the sender's own subject, as mutt sends it."""
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "bob@example.org", "carol@example.org", f"my move ({path.name})"
    m.set_content("here you go\n")
    m.add_attachment(path.read_text(), subtype="plain", filename=path.name)
    return m


def round_3_by_imap(table, tmp_path: Path, mail_servers, monkeypatch, name: str):
    """Carol's home reading mail from real Dovecot, holding the genesis and round 1, with round 3's mail in her
    inbox and round 2's not yet: the home and her IMAP connection."""
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)
    carol, user = tmp_path / "carol", f"{name}{os.getpid()}"
    dm(carol, "id", "new", "carol", "--email", mail_servers.account(user))
    mail_setup(carol, mail_servers, user)
    out = table.out
    dm(carol, "receive", str(out / "genesis.toml"), str(out / "r0001-s1.toml"))
    c = mail_servers.imap(user)
    assert c.append("INBOX", None, None, attached(out / "r0003-s1.toml").as_bytes())[0] == "OK"
    return carol, c


def test_by_imap_the_early_file_leaves_the_mail_once_and_watch_applies_it_when_the_gap_fills(table, tmp_path,
                                                                                             mail_servers,
                                                                                             monkeypatch):
    """[P-round] through real Dovecot: round 3's mail is read once (marked processed), kept in the home; the mail
    that fills the gap is read by ``watch --once`` and both files are applied."""
    carol, c = round_3_by_imap(table, tmp_path, mail_servers, monkeypatch, "held")
    out = table.out
    try:
        first = dm(carol, "mail", "fetch")
        assert "round 3 seat 1 is waiting for round 2" in first and "REFUSED" not in first, first
        c.select("INBOX")
        flags = c.fetch("1", "(FLAGS)")[1][0].decode()
        assert "$Duelmail" in flags, flags  # processed: the file lives in the home now
        again = dm(carol, "mail", "fetch")
        assert "0 messages read" in again and "waiting" not in again, again
        assert c.append("INBOX", None, None, attached(out / "r0002-s0.toml").as_bytes())[0] == "OK"
    finally:
        c.logout()
    res = runner.invoke(main, ["--home", str(carol), "watch", "--once"])
    assert res.exit_code == 0, res.output
    assert "round 2 seat 0 verified and applied" in res.output, res.output
    assert "round 3 seat 1 verified and applied (it had waited for round 2)" in res.output, res.output
    assert (game_folder(carol) / "r0003-s1.toml").exists() and not list((game_folder(carol) / held.HELD_DIR).iterdir())


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True).stdout


def peer_repository(table: Table, tmp_path: Path):
    """A bare repository, and a function that commits files of the table's game into it as a peer would (plain
    git, in any order) and pushes; carol's home, with her clone of it set up."""
    remote, peer = tmp_path / "remote.git", tmp_path / "peer"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    git(tmp_path, "clone", "-q", str(remote), str(peer))
    git(peer, "config", "user.name", "peer")
    git(peer, "config", "user.email", "peer@example.org")
    name = game_folder(table.alice).name
    (peer / name).mkdir()

    def push(*files: str, text: dict[str, str] | None = None) -> None:
        for f in files:
            if text and f in text:
                (peer / name / f).write_text(text[f])
            else:
                shutil.copy(table.out / f, peer / name / f)
        git(peer, "pull", "-q", "--rebase", "origin", "main") if git(peer, "ls-remote", "origin").strip() else None
        git(peer, "add", "-A")
        git(peer, "commit", "-q", "-m", f"{', '.join(files)}")
        git(peer, "push", "-q", "origin", "HEAD:main")

    carol = tmp_path / "carol"
    dm(carol, "id", "new", "carol", "--email", "carol@example.org")
    git(tmp_path, "clone", "-q", str(remote), str(tmp_path / "carol-clone"))
    dm(carol, "git", "init", str(tmp_path / "carol-clone"))
    return push, carol


def test_by_git_a_pushed_file_ahead_waits_once_and_is_applied_when_its_round_is_pushed(table, tmp_path):
    """[P-round] a real repository where round 3 was pushed before round 2 (a peer committing out of order)."""
    push, carol = peer_repository(table, tmp_path)
    push("genesis.toml", "r0001-s1.toml", "r0003-s1.toml")
    first = dm(carol, "git", "sync")
    assert "round 1 seat 1 verified and applied" in first and "round 3 seat 1 is waiting for round 2" in first, first
    assert "waiting" not in dm(carol, "git", "sync")  # kept in the home: said once
    push("r0002-s0.toml")
    last = dm(carol, "git", "sync")
    assert "round 2 seat 0 verified and applied" in last, last
    assert "round 3 seat 1 verified and applied (it had waited for round 2)" in last, last
    assert table.status(carol)["round"] == table.status(table.alice)["round"]


def test_a_game_this_home_finishes_with_its_own_file_holds_nothing(tmp_path):
    """The seat whose own last file (its seed, for the audit) finishes the game drops what was held for it."""
    p = Players("highcard", seed=3).run(limit=10_000)
    *before, last = p.files
    seat = last.seat
    home = Home(tmp_path / "h")
    home.add_identity(p.ids[seat])
    app.receive_files(home, p.ids[seat], [(f"f{i}", f) for i, f in enumerate(before)])
    other = next(f for f in before if f.kind == "turn" and f.seat != seat)
    later = resigned(other, p.ids[other.seat], round=last.round + 3)
    (r,) = app.receive_files(home, p.ids[seat], [("later.toml", later)])
    assert r.waiting
    folder, match, me = app.open_game(home, None, p.ids[seat])
    assert not (folder.path / ".behind").exists()  # another seat's file says nothing of what this seat signed (§5)
    played = app.write_turn(folder, match, me, p.ids[seat], [], p.tick())
    assert played.match.finished and HeldFiles(folder).entries() == []


def test_by_git_a_held_file_that_proves_bad_is_refused_once(table, tmp_path):
    """[P-chain] bob's round-3 file signed on a history of his own waits in carol's home; once round 2 is pushed it
    is refused, in one line naming it, and the next sync says nothing more of it."""
    from duelmail.protocol.turnfile import parse_any

    (good,) = parse_any((table.out / "r0003-s1.toml").read_text(), "r0003-s1.toml")
    bad = resigned(good, Home(table.bob).load_identity(None), prev="A" * 43 + "=")
    push, carol = peer_repository(table, tmp_path)
    push("genesis.toml", "r0001-s1.toml", "r0003-s1.toml", text={"r0003-s1.toml": bad.to_toml()})
    assert "round 3 seat 1 is waiting for round 2" in dm(carol, "git", "sync")
    push("r0002-s0.toml")
    res = runner.invoke(main, ["--home", str(carol), "git", "sync"])
    assert res.exit_code == 1 and "round 2 seat 0 verified and applied" in res.output, res.output
    refusals = [line for line in res.output.splitlines() if line.startswith("REFUSED")]
    assert len(refusals) == 1 and "r0003-s1.toml" in refusals[0] and "[P-chain]" in refusals[0], res.output
    again = dm(carol, "git", "sync")
    assert "REFUSED" not in again and "r0003" not in again, again
    assert not list((game_folder(carol) / held.HELD_DIR).iterdir())


def test_what_a_file_waits_for_is_said_in_words():
    """A later round waits for the open one; a note after a gap (``P-wait``, raised by the notes' numbering)
    for the seat's previous note; ``NotYet`` says it itself; any other refusal is for good."""
    from duelmail.errors import NotYet

    p = Players("highcard", seed=3)
    p.step()
    m = p.match
    turn = resigned(p.files[1], p.ids[p.files[1].seat], round=m.round + 2)
    note = p.matches[0].compose_note(0, p.ids[0], p.tick(), say="hi")
    note = resigned(note, p.ids[0], n=3)
    assert held.waiting_for(FileRefused("x", "ahead", rule="P-round"), turn, m) == f"round {m.round}"
    assert held.waiting_for(FileRefused("x", "gap", rule="P-wait"), note, m) == f"{m.cards[0].name}'s note 2"
    assert held.waiting_for(NotYet("x", "gap", "bob's note 4"), note, m) == "bob's note 4"
    assert held.waiting_for(FileRefused("x", "forged", rule="P-signature"), turn, m) is None


def test_one_seats_junk_never_takes_the_room_of_another_seats_early_file(tmp_path, monkeypatch):
    """Issue 38, item 2: the store is bounded by seat. Seat 1 fills its own share with signed junk from the future;
    seat 2's honest early file is still kept, and applied when the gap fills; the junk only ever costs seat 1."""
    monkeypatch.setattr(held, "MAX_FILES", 4)
    p = Players("highcard", n=3, seed=3).run(limit=10_000)
    home = Home(tmp_path / "h")
    app.receive_files(home, None, [(f"f{i}", f) for i, f in enumerate(p.files) if f.round < 3])
    (five,) = [f for f in p.files if f.round == 5]
    assert five.seat == 1
    junk = [resigned(five, p.ids[1], round=20 + i) for i in range(held.MAX_FILES + 1)]
    for i, f in enumerate(junk[:-1]):
        (r,) = app.receive_files(home, None, [(f"junk{i}", f)])
        assert r.waiting == "round 3"
    with pytest.raises(HeldFull, match="of seat 1 waiting for earlier ones"):
        app.receive_files(home, None, [("junk-too-many", junk[-1])])
    (four,) = [f for f in p.files if f.round == 4]
    assert four.seat == 2
    (r,) = app.receive_files(home, None, [("carol-r0004.toml", four)])  # seat 2's room is its own
    assert r.waiting == "round 3", r
    (three,) = [f for f in p.files if f.round == 3]
    got = app.receive_files(home, None, [("r0003-s0.toml", three)])
    assert [x.line() for x in got][1] == "r0004-s2.toml (held): round 4 seat 2 verified and applied (it had " \
                                        "waited for round 3)", got
    (folder,) = home.game_folders()
    assert HeldFiles(folder).of_seat(1)[0] == held.MAX_FILES and HeldFiles(folder).of_seat(2) == (0, 0)


def test_by_imap_an_early_file_with_no_room_stays_unread_and_is_read_again_until_it_fits(table, tmp_path,
                                                                                       mail_servers, monkeypatch):
    """Issue 38, item 2: an early file its seat's share has no room for is not refused for good: its mail is left
    unread (not flagged), read again by every fetch, and applied once the files before it have come."""
    monkeypatch.setattr(held, "MAX_FILES", 0)  # no room at all for seat 1's early files
    carol, c = round_3_by_imap(table, tmp_path, mail_servers, monkeypatch, "later")
    out = table.out
    try:
        first = dm(carol, "mail", "fetch")
        assert "round 3 seat 1: it waits for round 2" in first and "not kept now" in first, first
        assert "REFUSED" not in first and "1 left unread" in first, first
        c.select("INBOX")
        flags = c.fetch("1", "(FLAGS)")[1][0].decode()
        assert "$Duelmail" not in flags and "Seen" not in flags, flags
        again = dm(carol, "mail", "fetch")  # read again: still no room
        assert "1 messages read" in again and "not kept now" in again, again
        monkeypatch.setattr(held, "MAX_FILES", 64)
        assert c.append("INBOX", None, None, attached(out / "r0002-s0.toml").as_bytes())[0] == "OK"
        filled = dm(carol, "mail", "fetch")
        assert "round 2 seat 0 verified and applied" in filled and "round 3 seat 1 verified and applied" in filled, \
            filled
        c.select("INBOX")
        flags = c.fetch("1", "(FLAGS)")[1][0].decode()
        assert "$Duelmail" in flags, flags  # done with now
    finally:
        c.logout()
    assert (game_folder(carol) / "r0003-s1.toml").exists()
