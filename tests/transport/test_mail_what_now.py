"""What a person reads in a turn mail's plain text, after what happened (issue 28, item 4): what they may do next
and the one command that does it, in words; no notation a player was never taught (card refs like ``s#0``, bare
numbers in brackets, phase names). Checked over the mails of each game, from the first round to the end."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from helpers import Players  # noqa: E402

from duelmail.transport import mail as mailt  # noqa: E402

GAMES = {"warlords": 2, "summoner": 2, "grid": 2, "skirmish": 2, "wizard": 3}


def what_now(match, f) -> str:
    """The "what now" paragraph of the mail of ``f``: between what happened and the table."""
    msg = mailt.compose(match, f, "alice@example.org", ["bob@example.org"], match.last_time)
    plain = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
    return plain.split("\n\n", 2)[1]


def check(text: str) -> None:
    assert "#" not in text and not re.search(r"\(\d+\)", text), text
    assert "pre-summoning" not in text and "seat " not in text and "deck " not in text, text
    commands = re.findall(r"^  duelmail .+$", text, re.M)
    assert commands or text.startswith("Nobody"), text  # the one command that does it, on a line of its own


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_mail_of_a_game_says_what_now_and_the_command_in_words(game):
    p = Players(game, n=GAMES[game], seed=2, shared=True)
    seen = {"move": 0, "answers": 0}
    for _ in range(16):
        if p.match.over():
            break
        for f in p.step():
            text = what_now(p.match, f)
            check(text)
            seen["move"] += "duelmail play " in text and " MOVE --send" in text
            seen["answers"] += "answers on its own" in text and "duelmail mail fetch" in text
    assert seen["move"] and seen["answers"], seen


def test_the_last_mails_of_a_game_say_it_is_over():
    p = Players("summoner", seed=2, shared=True, options={"life": 3})
    texts = []
    for _ in range(5000):
        if p.match.finished:
            break
        texts += [what_now(p.match, f) for f in p.step()]
    assert p.match.finished
    for text in texts[-3:]:
        check(text)
    assert texts[-1].startswith("The game is over: ") and f"duelmail status {p.match.gid[:12]}" in texts[-1]
