"""Fetching turns from a Maildir, an mbox, a single .eml file and standard input: applied once,
idempotent, out-of-order mail held until the files between arrive, damaged mail reported."""

from __future__ import annotations

import mailbox
import shutil
from pathlib import Path

import pytest
from clitable import Table, assert_views_fresh, dm, runner, snapshot

from duelmail.cli import main
from duelmail.engine.log import parse_time
from duelmail.protocol.turnfile import parse_any
from duelmail.transport import mail as mailt


def signed_at(f):
    """A mail's Date: the time its file was signed (no fixed date beside files signed on the clock)."""
    return parse_time(f.content["time"], "time")


def letter(*paths: Path) -> bytes:
    """A message as duelmail sends it, carrying the files at ``paths`` (one armour and attachment each)."""
    files = [parse_any(p.read_text(), str(p))[0] for p in paths]
    msg = mailt.compose(None, files[0], "bob@example.org", ["alice@example.org"], signed_at(files[0]))
    for f in files[1:]:
        msg.add_attachment(f.to_toml().encode(), maintype="application", subtype="toml",
                           filename=f"r{f.round:04d}-s{f.seat}.toml")
    return msg.as_bytes()


@pytest.fixture
def table(tmp_path):
    return Table(tmp_path)


def test_maildir_fetch_applies_once_and_files_the_message(table, tmp_path):
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    key = box.add(letter(table.out / "r0001-s1.toml"))
    out = dm(table.alice, "mail", "fetch", str(tmp_path / "Maildir"), "--no-auto")
    assert "round 1 seat 1 verified and applied" in out and "1 messages read, 1 turns applied" in out
    assert "processed mail moved to cur/ and marked seen" in out
    msg = box.get_message(key)
    assert msg.get_subdir() == "cur" and "S" in msg.get_flags()
    assert_views_fresh(table.alice, "alice")  # the next status and show fold nothing
    before = snapshot(table.alice)
    assert "0 messages read" in dm(table.alice, "mail", "fetch", str(tmp_path / "Maildir"), "--no-auto")
    assert snapshot(table.alice) == before


def test_watch_leaves_the_status_and_show_caches_fresh(table, tmp_path):
    """A poll that applied a file and answered what needed no decision: the next status and show fold nothing."""
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    box.add(letter(table.out / "r0001-s1.toml"))
    out = dm(table.alice, "watch", "--once", "--no-git", "--source", str(tmp_path / "Maildir"))
    assert "round 1 seat 1 verified and applied" in out and "auto: alice" in out
    assert_views_fresh(table.alice, "alice")


def test_mbox_eml_and_stdin_are_idempotent(table, tmp_path):
    raw = letter(table.out / "r0001-s1.toml")
    box = mailbox.mbox(str(tmp_path / "inbox.mbox"))
    box.add(raw)
    box.add(raw)  # the same turn sent twice
    box.close()
    out = dm(table.alice, "mail", "fetch", str(tmp_path / "inbox.mbox"), "--no-auto")
    assert out.count("verified and applied") == 1 and "2 messages read, 1 turns applied" in out
    before = snapshot(table.alice)
    (tmp_path / "turn.eml").write_bytes(raw)
    assert "already applied" in dm(table.alice, "mail", "fetch", str(tmp_path / "turn.eml"), "--no-auto")
    res = runner.invoke(main, ["--home", str(table.alice), "mail", "fetch", "-", "--no-auto"], input=raw)
    assert res.exit_code == 0 and "standard input" in res.output and "already applied" in res.output
    assert snapshot(table.alice) == before


def test_decision_free_answer_is_written_when_no_smtp_is_set_up(table, tmp_path):
    (tmp_path / "turn.eml").write_bytes(letter(table.out / "r0001-s1.toml"))
    out = dm(table.alice, "mail", "fetch", str(tmp_path / "turn.eml"))
    assert "auto:" in out and "no SMTP host set up" in out
    assert list((next((table.alice / "games").iterdir())).glob("r0002-s0.toml"))


def test_mail_ahead_of_the_game_is_held_until_the_files_between_arrive(table, tmp_path):
    """[P-round] the early file is taken out of the mail into the home once; its message is done."""
    fresh = tmp_path / "alice-restored"
    shutil.copytree(table.alice, fresh)  # alice's home before any answer
    table.play_turns(1)
    assert (table.out / "r0003-s1.toml").exists()
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    ahead = box.add(letter(table.out / "r0003-s1.toml"))
    out = dm(fresh, "mail", "fetch", str(tmp_path / "Maildir"), "--no-auto")
    assert "round 3 seat 1 is waiting for round 1" in out and "[P-round]" not in out, out
    assert box.get_message(ahead).get_subdir() == "cur"  # kept in the home: never read again
    again = dm(fresh, "mail", "fetch", str(tmp_path / "Maildir"), "--no-auto")
    assert "0 messages read" in again and "waiting" not in again, again
    box.add(letter(table.out / "r0001-s1.toml", table.out / "r0002-s0.toml"))
    out = dm(fresh, "mail", "fetch", str(tmp_path / "Maildir"), "--no-auto")
    assert out.count("verified and applied") == 3 and "(it had waited for round 1)" in out, out


def test_damaged_or_unknown_mail_is_reported_and_changes_nothing(table, tmp_path):
    raw = letter(table.out / "r0001-s1.toml").decode()
    lines = raw.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("-----BEGIN")) + 4
    lines[k] = lines[k][:10] + ("A" if lines[k][10] != "A" else "B") + lines[k][11:]
    cut = "\n".join(lines)
    cut = cut[:cut.index("Content-Disposition: attachment")]  # and the attachment lost
    (tmp_path / "bad.eml").write_text(cut)
    before = snapshot(table.alice)
    out = dm(table.alice, "mail", "fetch", str(tmp_path / "bad.eml"), code=1)
    assert "REFUSED" in out and "damaged" in out and "bad.eml" in out
    assert snapshot(table.alice) == before
    assert "no such Maildir, mbox or message file" in dm(table.alice, "mail", "fetch", str(tmp_path / "nope"),
                                                          code=1)


def test_fetch_folds_each_game_once_and_leaves_its_caches_fresh(table, tmp_path, monkeypatch):
    """The match ``mail fetch`` applied the file to is the one it reports on and keeps the caches from."""
    from duelmail.transport.folder import GameFolder

    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    box.add(letter(table.out / "r0001-s1.toml"))
    calls = []
    real = GameFolder.fold
    monkeypatch.setattr(GameFolder, "fold", lambda self, *a, **k: calls.append(self.path) or real(self, *a, **k))
    out = dm(table.alice, "mail", "fetch", str(tmp_path / "Maildir"), "--no-auto")
    assert "now awaiting" in out and len(calls) == 1
    monkeypatch.setattr(GameFolder, "fold", real)
    assert_views_fresh(table.alice, "alice")
