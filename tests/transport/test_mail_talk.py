"""Talk by mail: the summary above the armour shows a file's talk; words a person types above the armour
are shown as well, marked unsigned, and never mistaken for the signed talk."""

from __future__ import annotations

from email.message import EmailMessage

import pytest
from clitable import Table, dm

from duelmail.engine.log import parse_time
from duelmail.engine.match import Match
from duelmail.protocol.turnfile import BEGIN
from duelmail.testing.selfplay import SelfPlay
from duelmail.transport import mail as mailt


def signed_at(f):
    """A mail's Date: the time its file was signed (no fixed date beside files signed on the clock)."""
    return parse_time(f.content["time"], "time")


def _summary(msg) -> str:
    body = msg.get_body(("plain",)).get_content()
    return body[:body.index(BEGIN)]


def test_the_summary_shows_the_talk_of_a_turn_and_of_a_note():
    sp = SelfPlay("warlords", seed=4)
    sp.run(until=lambda m: any(d.decide for d in m.duties.values()))
    seat = next(s for s, d in sp.match.duties.items() if d.decide)
    m = Match(sp.genesis)
    for f in sp.files[1:]:
        m.apply(f, "log")
    turn = sp.matches[seat].compose(seat, sp.ids[seat], ["end"], sp.tick(), extra={"say": "your move, friend"})
    note = m.compose_note(1 - seat, sp.ids[1 - seat], sp.tick(), say="thinking...")
    for f, who, words in [(turn, seat, "your move, friend"), (note, 1 - seat, "thinking...")]:
        events = m.apply(f, "new")
        msg = mailt.compose(m, f, "x@example.org", mailt.recipients_for(m, who), signed_at(f), events)
        assert f'{m.cards[who].name} says: "{words}"' in _summary(msg)
        found = mailt.find_turns(mailt.parse_message(msg.as_bytes()), "mail")
        assert [g.file_hash for g in found.files] == [f.file_hash]
        assert found.unsigned == ""  # duelmail's own summary is not a person's words


@pytest.mark.parametrize("above, shown", [
    ("Sorry for the delay, here it is.\n\n", "Sorry for the delay, here it is."),
    ("gg\x1b[2J\n", "gg[2J"),  # a terminal escape is removed
    ("", ""),
])
def test_words_above_the_armour_are_found_apart_from_the_file(tmp_path, above, shown):
    sp = SelfPlay("warlords", seed=4)
    sp.step()
    f = sp.files[-1]
    quoted = "\n".join("> " + line for line in ["duelmail: game ...", "  bob ends the turn"])
    body = f"{above}On Sat, Bob <bob@example.org> wrote:\n{quoted}\n\n{f.armour()}"
    found = mailt.find_turns(mailt.parse_message(body.encode()), "reply")
    assert [g.file_hash for g in found.files] == [f.file_hash]
    assert found.unsigned == shown


def test_mail_fetch_shows_unsigned_words_marked_as_such(tmp_path):
    t = Table(tmp_path)
    f = (t.out / "r0001-s1.toml").read_text()
    from duelmail.protocol.turnfile import parse_any

    (turn,) = parse_any(f, "r0001-s1.toml")
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "bob@example.org", "alice@example.org", "my answer"
    msg.set_content("Looking forward to it. I take the black jokers.\n\n" + turn.armour())
    eml = tmp_path / "answer.eml"
    eml.write_bytes(msg.as_bytes())
    out = dm(t.alice, "mail", "fetch", str(eml), "--no-auto")
    assert "round 1 seat 1 verified and applied" in out
    assert "text above the armour (UNSIGNED: anyone could have written or changed it):" in out
    assert "  | Looking forward to it. I take the black jokers." in out
