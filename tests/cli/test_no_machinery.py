"""Issue 39 item 2: no notation or protocol word where a player reads. Whole bot games of each of the five games
(``duelmail demo``), then a fresh home of each seat takes the files in a few batches and, after each, everything a
player reads is searched: what `receive` says, `show`, `moves`, `status`, `history`, `play` (once a seat, on a
copy of its home), the turn mail's text and HTML
and the git repository's README. None names a card by its position (``b#22``), writes notation placeholders
(``REF``, ``SEAT``, ``|-``), a rule id alone (``(S-18)``, ``(rule P-turn)``) or a step of the protocol (a deck
pass, key shares, a sealed label). The protocol's words stay in ``history --protocol`` and ``verify``."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import clitable
import pytest
from clitable import dm, runner, snapshot

from duelmail.app import open_game
from duelmail.cli import main
from duelmail.delivery.git import readme_text
from duelmail.engine.log import parse_time
from duelmail.home import Home
from duelmail.transport.mail import compose

MACHINERY = {
    "a card's position": re.compile(r"(?<![\w#.])[a-z]+[0-9]*(?:\.[0-9]+)?#[0-9]+"),
    "a notation placeholder": re.compile(r"\b(?:REF|SEAT|FACE|WARLORD|ARMY|TARGET)\b|\|-|"
                                         r"\([a-z]+ [A-Z]{2,}(?: [A-Z]+)*\)"),
    "a rule id alone": re.compile(r"[(\[](?:rule )?[A-Z]{1,2}-[A-Za-z0-9-]+(?:, [A-Z]{1,2}-[A-Za-z0-9-]+)*[)\]]"),
    "a step of the protocol": re.compile(r"shuffle_lock|shuffle/lock|pass on deck|key shares?\b|published keys|"
                                         r"open sealed|\(d\d+\)|sealed [a-z]+\d+\b|start reveal|escrow"),
}

AWKWARD = {  # what bench/sweep_words.py found in refusals and prompts (issue 39): each reads badly to a card player
    "a card's role in brackets before 'not in your hand'": re.compile(r"\(the \w+\) is not in your hand"),
    "a protocol label": re.compile(r"\bdual d\d+\b"),  # ("d2: bob attacks" is Grid's square d2)
    "a claimed face in notation": re.compile(r"\(played as [0-9JQKAX]"),
    "doubled punctuation": re.compile(r"(?<![.])[.;:,][.;:,](?![.])"),
    "a count of one in the plural": re.compile(r"\b1 (?:\w+ )?(?:moves|cards|Lives|lives|jokers|inches|spaces|"
                                               r"points)\b"),
    "a prompt after 'you must'": re.compile(r"\byou must (?:the|an?|[a-z]+ (?:attacks|is|has))\b"),
    "the reader in the third person": re.compile(r"\b(?!you\b)[a-z]+ must [^.;]*\byour (?:attack|defence)\b"),
    "a coordinate": re.compile(r"\b(?:at|from|to) -?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?\b|\b\d+x\d+ table\b"),
    "the typed notation heading a refusal": re.compile(r"not sent \(round \d+\): (?:action |move )?'?[a-z]+ "
                                                       r"(?:- |a face-down card)"),
    "a doubled word": re.compile(r"\b([A-Za-z]{3,}) \1\b|\bthe joker the\b"),
}
MACHINERY |= AWKWARD

GAMES = [("warlords", 2), ("summoner", 2), ("grid", 2), ("wizard", 3), ("skirmish", 2)]
BATCHES = 4


def machinery(text: str) -> list[str]:
    text = html.unescape(text)  # a mail's HTML part as its reader sees it ("&#x27;," is "',")
    return [f"{what}: {m.group(0)!r} in {line.strip()!r}" for line in text.splitlines()
            for what, pattern in MACHINERY.items() for m in pattern.finditer(line)]


def refusals(home: Path, where: str, seen: dict[str, str]) -> dict[str, str]:
    """Wrong moves typed in ``home`` as they come (a number out of range, words that fit nothing, two moves too many,
    and a move of each kind met before that is not legal now): each refused in one line, exit code 1, nothing
    written. Their lines, by what was typed."""
    legal = json.loads(dm(home, "moves", "--json")) if "no decision" not in dm(home, "moves") else []
    verbs = {m["move"].split()[0] for m in legal}
    for m in legal:
        seen.setdefault(m["move"].split()[0], m["move"])
    typed = [["999"], ["hello there"], ["1", "999"]]
    typed += [[move] for verb, move in seen.items() if verb not in verbs]
    before = snapshot(home)
    out = {}
    for t in typed:
        result = runner.invoke(main, ["--home", str(home), "play", *t], catch_exceptions=False)
        said = result.output.strip()
        assert result.exit_code == 1 and "Traceback" not in said and len(said.splitlines()) == 1, (t, said)
        out[f"{where} {' '.join(t)!r}"] = said
    assert snapshot(home) == before
    return out


def read_everything(game: str, players: int, tmp: Path) -> dict[str, str]:
    """Every text a player of a whole bot game of ``game`` reads, by where it was read."""
    out = tmp / "demo"
    result = runner.invoke(main, ["demo", game, "--seed", "1", "--players", str(players), "--quiet", "--out",
                                  str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    files = sorted((out / "mailbox").iterdir())
    genesis, rest = files[0], files[1:]
    names = sorted(p.name for p in (out / "homes").iterdir())
    said: dict[str, str] = {}
    seen: dict[str, str] = {}  # a legal move of each kind met so far, in notation (typed again when not legal)
    for name in names:
        home = tmp / name
        dm(home, "id", "import", str(out / "homes" / name / "identities" / f"{name}.toml"))
        dm(home, "receive", "--no-auto", str(genesis))
        cut = [len(rest) * (i + 1) // BATCHES for i in range(BATCHES)]
        start = 0
        for b, end in enumerate(cut):
            said[f"{name} receive {b}"] = dm(home, "receive", "--no-auto", *map(str, rest[start:end]))
            start = end
            for view in ("show", "moves", "status", "history"):
                said[f"{name} {view} {b}"] = dm(home, view)
            said |= refusals(home, f"{name} refused {b}", seen)
            if re.match(r" *1\. ", said[f"{name} moves {b}"]) and f"{name} play" not in said:  # once a seat
                trial = tmp / f"{name}-trial"  # on a copy: the seat's own file of the round is in the mailbox
                shutil.copytree(home, trial)
                said[f"{name} play"] = dm(trial, "play", "1", "--out", str(tmp / "trial-out"))
            folder, match, seat = open_game(Home(home), None)
            last = match.rounds[match.round - 1] if match.round - 1 < len(match.rounds) else {}
            for f in list(last.values())[:1]:
                mail = compose(match, f, "x@example.org", ["y@example.org"], parse_time(f.content["time"], "f"),
                               match.events[-6:])
                for part in mail.walk():
                    if part.get_content_type() in ("text/plain", "text/html") and not part.get_filename():
                        text = part.get_content()
                        text = text.split("-----BEGIN", 1)[0]  # the armoured file itself is for the machine
                        said[f"{name} mail {part.get_content_type()} {b}"] = text
            said[f"{name} README {b}"] = readme_text(match)
    return said


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_player_never_reads_the_machinery(game, players, tmp_path):
    said = read_everything(game, players, tmp_path)
    found = [f"{where}: {hit}" for where, text in said.items() for hit in machinery(text)]
    assert not found, "\n".join(found[:40])


def _hand(home: Path) -> dict[str, str]:
    """Alice's cards as she sees them, position to face (what the test types; never what she reads)."""
    h = Home(home)
    folder, match, seat = open_game(h, None)
    known = match.draft(seat, h.load_identity(None, lambda: None), []).known(seat)
    return {str(r): str(c) for r, c in known.items()}


@pytest.mark.parametrize("game", ["warlords", "grid"])
def test_a_refused_typed_move_is_said_in_words(game, tmp_path):
    """Issue 39 (2): a move typed in notation that the rules refuse (W-5: no attack in the first round; W-7: a
    Warlord that is no face card, a proven cheat; G-5: the first card goes to c3) is refused in words: no card's
    position, no rule id alone (the rule's id after words, where to read it), the legal moves like it numbered;
    exit code 1 and nothing written. '--verbose' adds the rules' own text."""
    class T(clitable.Table):
        pass

    T.game = game
    t = T(tmp_path)
    t.settle()
    hand = _hand(t.alice)
    first = sorted(hand, key=lambda r: int(r.split("#")[1]))[0]
    typed = [["play", first, "a1"]]
    if game == "warlords":
        typed += [["attack", first, "b#3"]] + [["warlord", r] for r, c in hand.items() if c[0] not in "JQK"][:1]
    before = snapshot(t.alice)
    for move in typed:
        out = dm(t.alice, "play", *move, code=1)
        assert out.startswith("Error: ") and "Traceback" not in out
        assert not machinery(out), (move, machinery(out))
        assert "#" not in out, out
        assert snapshot(t.alice) == before
    out = dm(t.alice, "play", *typed[-1], code=1)
    rule = {"warlords": "W-7" if len(typed) == 3 else "W-5", "grid": "G-5"}[game]
    assert f"(see rule {rule} in 'duelmail rules {game}')" in out and "You may now: 1. " in out, out
    out = dm(t.alice, "play", "--verbose", *typed[-1], code=1)
    assert "(as the rules say it: " in out and f"(rule {rule})" in out and "#" in out
    assert snapshot(t.alice) == before
