"""Issue 15, every event in words: what `receive`, `history`, `status`, `show` and `moves` say, with each card named
by its face once the reader has seen it (seeds/warlords.md rule ids)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from clitable import dm, runner

from duelmail.cli import main
from duelmail.transport.archive import fold, read_files

FACE = r"the (?:\d+|Jack|Queen|King|Ace) of (?:spades|hearts|diamonds|clubs)"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    """A whole Warlords game between two bots (the demo: same seed, same game), its files in a mailbox."""
    out = tmp_path_factory.mktemp("demo") / "d"
    result = runner.invoke(main, ["demo", "warlords", "--seed", "2", "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def first_round(demo: Path, kind: str, seats: tuple[int, ...] | None = None) -> int:
    """The first round telling an event of ``kind`` (between ``seats``, in order, if given)."""
    match = fold(read_files(next((demo / "homes" / "alice" / "games").iterdir())))
    return next(e.round for e in match.events if e.said is not None and e.said.kind == kind
                and (seats is None or e.said.seats[:len(seats)] == seats))


BOB_ATTACKS = (1, 0)  # the first battle in which bob attacks alice: told to her by bob's file


def alice_at(demo: Path, tmp_path: Path, upto: int) -> Path:
    """A fresh home with alice's identity that has received every file before round ``upto`` (answering nothing)."""
    home = tmp_path / "alice"
    dm(home, "id", "import", str(demo / "homes" / "alice" / "identities" / "alice.toml"))
    files = [p for p in sorted((demo / "mailbox").iterdir()) if p.name.startswith("000-")
             or int(p.name.split("-")[0]) < upto]
    dm(home, "receive", "--no-auto", *map(str, files))
    return home


def test_w14_w16_a_failed_attack_is_told_to_the_defender_in_faces(demo, tmp_path):
    """The case of issue 15: the failed attack was never reported, only a new discard top. Now `receive` says both
    totals, who held, where the cards went and what the attacker paid, each card by its face."""
    r = first_round(demo, "battle", BOB_ATTACKS)
    home = alice_at(demo, tmp_path, r)
    (bobs,) = [p for p in (demo / "mailbox").iterdir() if p.name.startswith(f"{r:04d}-1-")]
    out = dm(home, "receive", "--no-auto", str(bobs))
    battle = re.search(rf"battle: bob ({FACE} \((?:Warlord|Army|Support) \d+\)(?: \+ )?)+ = (\d+) against alice "
                       rf"({FACE} \((?:Warlord|Army|Support) \d+\)(?: \+ )?)+ = (\d+)", out)
    assert battle, out
    attack, defence = int(battle.group(2)), int(battle.group(4))
    if attack <= defence:
        assert f"bob's attack fails, {attack} to {defence}: alice holds" in out
        assert re.search(rf"the battle cards go to the discard piles: {FACE}.* to bob's", out)
        assert re.search(rf"bob (loses {FACE} \(the Warlord\)|mills {FACE}) for the failed attack", out)
    else:
        assert f"bob wins the battle, {attack} to {defence}: {(attack - defence + 1) // 2} damage to alice" in out
    assert "published keys for 1 cards" not in out


def test_history_names_own_cards_by_face_and_hidden_ones_in_words(demo, tmp_path):
    r = first_round(demo, "battle", BOB_ATTACKS)
    home = alice_at(demo, tmp_path, r)
    out = dm(home, "history")
    assert re.search(rf"round +\d+  alice plays {FACE} face down as a Warlord", out)  # her own card: its face
    assert re.search(r"round +\d+  bob (?:plays|adds) a card face down as (?:a|the) ", out)  # bob's: in words
    assert re.search(rf"round +\d+  alice draws {FACE}", out)
    assert "#" not in out and "pass on deck" not in out  # never a card's position (issue 39)
    protocol = dm(home, "history", "--protocol")  # the protocol's view keeps the positions and the deck passes
    assert "pass on deck" in protocol and re.search(r"round +\d+  bob (?:plays|adds) b#\d+ face down", protocol)
    # after the battle the table has seen bob's Warlord: the same line now names its face
    (bobs,) = [p for p in (demo / "mailbox").iterdir() if p.name.startswith(f"{r:04d}-1-")]
    dm(home, "receive", "--no-auto", str(bobs))
    assert re.search(rf"round +\d+  bob plays {FACE} face down as a Warlord", dm(home, "history"))


def test_status_and_show_say_what_happened_since_your_move(demo, tmp_path):
    r = first_round(demo, "battle", BOB_ATTACKS)
    home = alice_at(demo, tmp_path, r + 1)
    for out in (dm(home, "status"), dm(home, "show")):
        assert "lately:" in out and re.search(r"(bob's attack fails|bob wins the battle), \d+ to \d+", out)


def test_a_finished_game_names_every_card(demo):
    """After the game (audited), `show` never draws alice's own cards as unknown, nor any other."""
    home = demo / "homes" / "alice"
    out = dm(home, "show")
    assert "[??]" not in out
    assert "game over: alice won" in dm(home, "history") or "game over: bob won" in dm(home, "history")


def test_output_piped_into_a_closed_reader_exits_quietly(demo, tmp_path):
    """`duelmail moves | head` once said "Error: : Broken pipe" (every command's error handler did); a reader that
    went away now ends a command quietly."""
    home = alice_at(demo, tmp_path, 3)
    exe = Path(sys.executable).parent / "duelmail"
    proc = subprocess.Popen([str(exe), "--home", str(home), "history", "--protocol"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ})
    proc.stdout.close()  # the reader is gone before anything is written
    err = proc.stderr.read().decode()
    proc.wait()
    assert "Broken pipe" not in err and "Traceback" not in err and err == ""


def test_a_refused_move_names_your_turn_and_the_rule(demo, tmp_path):
    """Issue 15 glitch: an illegal move of your own was 'refused (your new file)'; issue 29: it is said as a person
    would ('your move was not sent'), without seat numbers."""
    home = alice_at(demo, tmp_path, 4)  # round 4: alice prepares her first turn
    out = dm(home, "play", "warlord b#0", code=1)
    assert "your move was not sent (round 4): " in out and "seat 0" not in out
    assert "(see rule W-7 in 'duelmail rules warlords')" in out  # the rule's id after words (issue 39)
    assert out.count("W-7") == 1  # the rule once, not "(rule W-7) [W-7]"
    assert "(your new file)" not in out and "Traceback" not in out
    status = dm(home, "status")
    assert "(nothing)" not in status and "(wait)" not in status and "awaiting you: prepare" in status
