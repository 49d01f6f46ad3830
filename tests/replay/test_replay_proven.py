"""A replay of a game in progress checks every deck proof (no audit vouches for them yet), except, in a game
folder of the player's own home, those the home checked as the files arrived (``.proven``, protocol section 7);
a folder from anywhere else is checked in full whatever ``.proven`` it carries."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

from clitable import Table, dm  # noqa: E402

from duelmail.replay import load_replay  # noqa: E402
from duelmail.transport.folder import GameFolder  # noqa: E402


def test_a_home_replays_its_own_game_without_checking_again_what_it_checked_on_arrival(tmp_path):
    t = Table(tmp_path)
    t.play_turns(4)
    (folder,) = (t.alice / "games").iterdir()
    proven = GameFolder(folder).proven()
    assert proven  # the passes' proofs alice's home checked as they arrived
    page = tmp_path / "mine.html"
    out = dm(t.alice, "replay", str(folder), "--html", str(page))
    assert out.startswith(f"wrote {page}")
    text = page.read_text()
    assert "checked before, as they arrived in this home" in text
    elsewhere = tmp_path / "copy" / folder.name
    shutil.copytree(folder, elsewhere)  # its .proven too: not this home's word
    dm(t.alice, "replay", str(elsewhere), "--html", str(tmp_path / "copy.html"))
    assert "as they arrived in this home" not in (tmp_path / "copy.html").read_text()
    mine, anywhere = load_replay(folder, proven), load_replay(elsewhere)
    assert mine.match.prev == anywhere.match.prev  # the same game either way
    assert mine.match.proofs != anywhere.match.proofs
