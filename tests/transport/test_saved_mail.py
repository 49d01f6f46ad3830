"""``duelmail receive FILE`` on a mail a player saved whole (an .eml, an mbox, a forward, an Outlook reply) reads it
as ``mail fetch FILE`` does, through the same code (``transport.mail.saved_turns``); a turn a Windows editor saved
as UTF-16 or with a byte-order mark is read; what holds no turn is said, never a silent exit 0 (issue 40 items 1, 2
and 5)."""

from __future__ import annotations

import mailbox
import shutil
from email.message import EmailMessage
from pathlib import Path

import pytest
from clitable import Table, dm, snapshot
from test_mail_local import letter
from test_mail_shapes import _reply_with_trimmed_quote, attachment_only, forwarded, mutt_attachment, pasted_bare

from duelmail.protocol.turnfile import parse_any


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Alice's home before Bob's round 1 file, and that file: each test copies the home."""
    return Table(tmp_path_factory.mktemp("saved"))


def fresh(game, tmp_path: Path) -> Path:
    home = tmp_path / "alice"
    shutil.copytree(game.alice, home)
    return home


def _message(subject: str) -> EmailMessage:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "Bob <bob@example.org>", "alice@example.org", subject
    return m


def outlook_html_reply(turn: Path) -> EmailMessage:
    """An HTML-only reply as Outlook writes it: the player's words, then the mail answered under "From: ... Sent:",
    its armour only in the HTML, quoted-printable, no attachment and no ``>`` quoting."""
    (f,) = parse_any(turn.read_text(), "turn")
    quoted = "<br>\n".join(f.armour().splitlines())
    m = _message("RE: [duelmail] Warlords: round 1 (bob)")
    m.set_content(f"<html><body><p>Sounds good.</p><hr><p><b>From:</b> Bob &lt;bob@example.org&gt;<br>"
                  f"<b>Sent:</b> Monday, 23 November 2026 10:00<br><b>Subject:</b> round 1</p>"
                  f"<div>{quoted}</div></body></html>", subtype="html", cte="quoted-printable")
    return m


def trimmed_reply(game) -> EmailMessage:
    """A reply carrying the turn's armour, quoting an older one the player trimmed (damaged)."""
    m = _message("Re: [duelmail] round 1")
    m.set_content(_reply_with_trimmed_quote((game.out / "r0001-s1.toml").read_text(),
                                            (game.out / "genesis.toml").read_text(), "middle"))
    return m


def notepad_unicode(turn: Path) -> EmailMessage:
    """The turn opened in Notepad and saved as "Unicode" (UTF-16 with a byte-order mark), then attached."""
    m = _message("my move")
    m.set_content("here it is\n")
    m.add_attachment(turn.read_text().encode("utf-16"), maintype="application", subtype="octet-stream",
                     filename="move.txt")
    return m


def notepad_utf8_bom(turn: Path) -> EmailMessage:
    m = _message("my move")
    m.set_content("here it is\n")
    m.add_attachment(turn.read_text().replace("\n", "\r\n").encode("utf-8-sig"), maintype="text",
                     subtype="plain", filename="move.toml")
    return m


SHAPES = {
    "duelmail's own mail": lambda g: letter(g.out / "r0001-s1.toml"),
    "mutt attachment": lambda g: mutt_attachment(g.out / "r0001-s1.toml").as_bytes(),
    "pasted in the body": lambda g: pasted_bare(g.out / "r0001-s1.toml").as_bytes(),
    "octet-stream attachment": lambda g: attachment_only(g.out / "r0001-s1.toml").as_bytes(),
    "forwarded message/rfc822": lambda g: forwarded(g.out / "r0001-s1.toml").as_bytes(),
    "Outlook HTML-only reply": lambda g: outlook_html_reply(g.out / "r0001-s1.toml").as_bytes(),
    "reply quoting a trimmed armour": lambda g: trimmed_reply(g).as_bytes(),
    "Notepad UTF-16 attachment": lambda g: notepad_unicode(g.out / "r0001-s1.toml").as_bytes(),
    "UTF-8 BOM attachment, CRLF": lambda g: notepad_utf8_bom(g.out / "r0001-s1.toml").as_bytes(),
}


def test_receive_reads_every_saved_mail_as_mail_fetch_does(game, tmp_path):
    """Each shape, saved as an .eml (and all of them in one mbox): ``receive`` applies what ``mail fetch`` applies,
    exit 0 both, and the two homes end alike."""
    for n, (name, shape) in enumerate(SHAPES.items()):
        saved = tmp_path / f"saved-{n}.eml"
        saved.write_bytes(shape(game))
        by_fetch, by_receive = fresh(game, tmp_path / f"f{n}"), fresh(game, tmp_path / f"r{n}")
        fetched = dm(by_fetch, "mail", "fetch", str(saved), "--no-auto")
        assert "1 turns applied" in fetched and "REFUSED" not in fetched, (name, fetched)
        received = dm(by_receive, "receive", str(saved), "--no-auto")
        assert f"{saved} (r0001-s1.toml): round 1 seat 1 verified and applied" in received, (name, received)
        assert "bob accepted the game" in received and "your move" in received, (name, received)
        mine = {k: v for k, v in snapshot(by_receive).items() if not k.startswith("mail/")}
        assert mine == {k: v for k, v in snapshot(by_fetch).items() if not k.startswith("mail/")}, name
    box = mailbox.mbox(str(tmp_path / "saved.mbox"))
    for shape in SHAPES.values():
        box.add(shape(game))
    box.close()
    home = fresh(game, tmp_path / "mbox")
    out = dm(home, "receive", str(tmp_path / "saved.mbox"), "--no-auto")
    assert out.count("verified and applied") == 1 and out.count("already applied") == len(SHAPES) - 1, out
    assert f"{tmp_path / 'saved.mbox'} message 1 (r0001-s1.toml)" in out


def test_a_saved_mail_without_a_turn_is_said_and_exits_1(game, tmp_path):
    home = fresh(game, tmp_path)
    before = snapshot(home)
    m = _message("lunch?")
    m.set_content("no turn here\n")
    (tmp_path / "lunch.eml").write_bytes(m.as_bytes())
    out = dm(home, "receive", str(tmp_path / "lunch.eml"), code=1)
    assert "the mail 'lunch?' from Bob <bob@example.org> holds no duelmail turn" in out and "Traceback" not in out, out
    reply = _message("Re: round 1")  # only an older turn, quoted and trimmed: said as that
    body = _reply_with_trimmed_quote((game.out / "r0001-s1.toml").read_text(),
                                     (game.out / "genesis.toml").read_text(), "end")
    reply.set_content(body[body.index("On Monday"):])
    (tmp_path / "reply.eml").write_bytes(reply.as_bytes())
    out = dm(home, "receive", str(tmp_path / "reply.eml"), code=1)
    assert "holds only a damaged quote of an older turn" in out and "has no END line" in out, out
    box = mailbox.mbox(str(tmp_path / "junk.mbox"))  # an mbox of mail without a turn: one line for it all
    box.add(m.as_bytes())
    box.add(reply.as_bytes())
    box.close()
    out = dm(home, "receive", str(tmp_path / "junk.mbox"), code=1)
    assert "junk.mbox: none of its 2 messages holds a duelmail turn: nothing to apply" in out, out
    assert snapshot(home) == before


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-8-sig"])
def test_a_turn_saved_by_a_windows_editor_is_received(game, tmp_path, encoding):
    """Notepad's "Unicode" (UTF-16 with a byte-order mark; and without one), and UTF-8 with a byte-order mark."""
    home = fresh(game, tmp_path)
    saved = tmp_path / "r0001-s1.toml"
    saved.write_bytes((game.out / "r0001-s1.toml").read_text().replace("\n", "\r\n").encode(encoding))
    assert "round 1 seat 1 verified and applied" in dm(home, "receive", str(saved), "--no-auto")


def test_a_turn_in_another_encoding_is_refused_naming_it(game, tmp_path):
    home = fresh(game, tmp_path)
    before = snapshot(home)
    saved = tmp_path / "r0001-s1.toml"
    saved.write_bytes("# Bob's move, café\n".encode("latin-1") + (game.out / "r0001-s1.toml").read_bytes())
    out = dm(home, "receive", str(saved), code=1)
    assert "is not UTF-8 text" in out and "save it as UTF-8" in out and str(saved) in out, out
    assert snapshot(home) == before


def test_a_mail_saved_as_a_page_is_read_and_a_text_with_no_whole_armour_is_said(game, tmp_path):
    """A client's "Save as HTML" of the turn mail (the armour in <br>-separated lines) is read; a text naming the
    armour's first line inside other text, with no whole armour, is refused in words, not a silent exit 0."""
    home = fresh(game, tmp_path)
    (f,) = parse_any((game.out / "r0001-s1.toml").read_text(), "turn")
    page = tmp_path / "turn.html"
    page.write_text("<html><body><div>" + "<br>\n".join(f.armour().splitlines()) + "</div></body></html>")
    assert "round 1 seat 1 verified and applied" in dm(home, "receive", str(page), "--no-auto")
    note = tmp_path / "note.txt"
    note.write_text(f"see the turn below: {f.armour().splitlines()[0]} (cut)\n")
    out = dm(fresh(game, tmp_path / "again"), "receive", str(note), code=1)
    assert "no whole armour in it" in out and str(note) in out, out
