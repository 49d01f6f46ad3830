"""What a person sees in a turn mail, on real messages delivered by OpenSMTPD into Dovecot and read back by IMAP:
the parts and headers (a plain text in words and an HTML part with the picture, the armour and the attachment
for the machine, the player's name in From:), the invitation in words, and the HTML part rendered by headless
Chromium (a mail client's engine) at desktop and phone widths.
"""

from __future__ import annotations

import email
import email.policy
import os
import re
import shutil
from email.utils import parseaddr
from pathlib import Path

import pytest
from clitable import dm
from mailtable import MailTable
from servers import PASSWORD

from duelmail.games.svg import MAX_PX
from duelmail.protocol.turnfile import BEGIN
from duelmail.transport import mail as mailt

WIDTHS = {"desktop": 1400, "phone": 400}


@pytest.fixture(scope="module")
def delivered(mail_servers, tmp_path_factory):
    """Alice invites bob to Summoner by mail, bob joins, and both play a few turns: every message bob received."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(mailt.PASSWORD_ENV, PASSWORD)
        t = MailTable(tmp_path_factory.mktemp("mail-pictures"), mail_servers)
        t.start("summoner", "life=30")
        for _ in range(3):
            for home in t.homes:
                if t.read[t.user(home)] < t.sent[t.user(home)]:
                    t.fetch(home)
                if t.status(home)["your_turn"]:
                    t.note_sent(home, dm(home, "play", "--bot", "heuristic", "--seed", "1", "--send"))
    c = mail_servers.imap(t.users[1])
    try:
        c.select("INBOX")
        typ, data = c.fetch("1:*", "(BODY.PEEK[])")
        raw = [d[1] for d in data if isinstance(d, tuple)]
    finally:
        c.logout()
    return t, [email.message_from_bytes(r, policy=email.policy.default) for r in raw]


def parts(msg) -> list[str]:
    return [p.get_content_type() for p in msg.walk()]


def test_every_turn_mail_has_words_a_picture_the_armour_and_the_attachment(delivered):
    t, msgs = delivered
    assert len(msgs) >= 3
    for msg in msgs:
        assert parts(msg) == ["multipart/mixed", "multipart/alternative", "text/plain", "text/html",
                              "application/toml"], parts(msg)
        name, addr = parseaddr(msg["From"])
        assert name == "alice" and addr == f"{t.users[0]}@example.org"
        plain = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
        html = msg.get_body(("html",)).get_content()
        assert BEGIN in plain and "The table, as everyone sees it:" in plain
        assert "<svg" in html and "<script" not in html and not re.search(r"(src|href)=", html)
        assert "Summoner" in html and "alice" in html and "life points" in html  # the picture's own words
        found = mailt.find_turns(msg, "mail")
        assert len(found.files) == 1 and not found.problems  # armour and attachment: one file
    turns = [m for m in msgs if "new game" not in m["Subject"]]
    assert turns
    for msg in turns:
        plain = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
        head = plain.split("\n\n", 1)[0]
        assert head.startswith("alice played round ") and "Summoner" in head
        assert re.search(r"^Now (it is bob's move|alice's duelmail answers|.*), by \w{3} \d\d \w{3} 20\d\d, "
                         r"\d\d:\d\d UTC[.:]", plain, re.M) or "The game is over" in plain


def test_the_invitation_says_in_words_what_duelmail_is_and_how_to_join(delivered):
    t, msgs = delivered
    invite = next(m for m in msgs if "new game" in m["Subject"])
    plain = invite.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert plain.startswith("alice invites bob to a game of Summoner (playing card duel), played by email with "
                            "duelmail.")
    assert "no server and no dealer" in plain
    assert "Game: Summoner (playing card duel), 2 players: alice, bob." in plain
    assert re.search(r"^  life: 30 \(.+\)$", plain, re.M)  # the option in words, with its meaning
    assert "{'" not in plain and "False" not in plain  # never a Python dict
    assert re.search(r"^Join by \w{3} \d\d \w{3} 20\d\d, \d\d:\d\d UTC\.$", plain, re.M)
    assert "pip install duelmail" in plain and "duelmail join genesis.toml" in plain
    assert invite.get_body(("html",)).get_content().count("<svg") == 1


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_the_html_part_in_chromium_reads_at_desktop_and_phone_width(browser, delivered, width, tmp_path):
    """The HTML part as a mail client's engine shows it: the picture fits the screen, text at least 9 px."""
    t, msgs = delivered
    html = msgs[-1].get_body(("html",)).get_content()
    page = browser.new_page(viewport={"width": WIDTHS[width], "height": 900})
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.set_content(html)
    m = page.evaluate("""() => {
      const svg = document.querySelector('.picture svg'), box = svg.getBoundingClientRect();
      const px = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize)
        * t.getScreenCTM().a);
      return {scroll: document.documentElement.scrollWidth, inner: innerWidth, width: box.width,
              least: Math.min(...px)};
    }""")
    assert m["scroll"] <= m["inner"] and m["width"] >= min(WIDTHS[width], MAX_PX) - 20 and m["least"] >= 9, m
    assert not [u for u in requests if not u.startswith(("about:", "data:"))]  # nothing fetched
    shot = tmp_path / f"mail-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if os.environ.get("DUELMAIL_PICTURES_OUT"):
        shutil.copy(shot, Path(os.environ["DUELMAIL_PICTURES_OUT"]) / shot.name)
    page.close()
