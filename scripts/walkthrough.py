"""Play the README's walkthroughs for real and write what every command printed into README.md.

    .venv/bin/python scripts/walkthrough.py            # print them (markdown)
    .venv/bin/python scripts/walkthrough.py --write    # replace them in README.md, between their markers

Each player gets a home in a scratch folder; an ``outbox`` folder stands in for the mail. Moves are chosen
from what ``duelmail moves`` offers on the deal each run gets, so every output is real.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANKS = {"Ace": "A", "King": "K", "Queen": "Q", "Jack": "J"}
FACE_WORDS = re.compile(r"the (Ace|King|Queen|Jack|\d+) of (spades|hearts|diamonds|clubs)")
REF = re.compile(r"\b[a-z]+[0-9]*(?:\.[0-9]+)?#[0-9]+\b")


class Walk:
    """Commands run in one scratch folder, recorded as README console blocks."""

    def __init__(self, where: Path):
        self.where = where
        self.out: list[str] = []
        self.block: list[str] | None = None
        self.who: str | None = None
        self.read: dict[str, set[str]] = {}
        (where / "outbox").mkdir(exist_ok=True)

    def run(self, who: str, command: str, ok: bool = True, show: bool = True, keep: int | None = None) -> str:
        """Run a shell line as ``who`` (``DUELMAIL_HOME=who-home``); record it and what it printed."""
        env = {**os.environ, "DUELMAIL_HOME": f"{who.lower()}-home", "COLUMNS": "200",
               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        env.pop("DUELMAIL_AS", None)
        done = subprocess.run(command, shell=True, cwd=self.where, env=env, capture_output=True, text=True)
        text = done.stdout + done.stderr
        if (done.returncode == 0) != ok:
            raise SystemExit(f"walkthrough: {command!r} as {who} exited {done.returncode}:\n{text}")
        if show:
            self._as(who)
            lines = text.rstrip("\n").splitlines()
            if keep is not None and len(lines) > keep:
                lines = lines[:keep] + ["..."]
            self.block += [f"$ {command}", *lines, ""]
        return text

    def _as(self, who: str) -> None:
        if self.who != who or self.block is None:
            self._close()
            self.out += [f"**{who[0].upper()}{who[1:]}:**", "", "```console"]
            self.block, self.who = [], who

    def _close(self) -> None:
        if self.block is not None:
            while self.block and not self.block[-1]:
                self.block.pop()
            self.out += [*self.block, "```", ""]
        self.block, self.who = None, None

    def text(self, paragraph: str) -> None:
        self._close()
        self.out += [" ".join(paragraph.split()), ""]

    def moves(self, who: str) -> list[dict]:
        return json.loads(self.run(who, "duelmail moves --json", show=False))

    def markdown(self) -> str:
        self._close()
        return "\n".join(self.out).rstrip() + "\n"

    def deliver(self, players: list[str], show: bool = False) -> None:
        """Each player receives every file of the others in the outbox, until nothing new is written."""
        while True:
            fresh = False
            for who in players:
                seen = self.read.setdefault(who, set())
                for p in sorted((self.where / "outbox").iterdir()):
                    seat = re.search(r"-s(\d+)", p.name)
                    if p.name in seen or seat is None or players[int(seat.group(1))] == who:
                        continue
                    seen.add(p.name)
                    fresh = True
                    self.run(who, f"duelmail receive outbox/{p.name} --out outbox", show=show)
            if not fresh:
                return


def set_up(w: Walk, game: str, players: list[str], options: str = "", show_new: bool = False) -> None:
    """Identities, a game created by the first player, joined by the others, and its set-up answered."""
    for who in players:
        w.run(who, f"duelmail id new {who} --email {who}@example.org", show=False)
        w.run(who, f"duelmail id card > {who}-card.toml", show=show_new and who != players[0])
    seats = " ".join(f"--seat {who}-card.toml" for who in players[1:])
    w.run(players[0], f"duelmail new {game} {options}--seat {players[0]} {seats} --out outbox", show=show_new)
    for who in players[1:]:
        w.run(who, "duelmail join outbox/genesis.toml --out outbox", show=False)
    w.deliver(players)


def typed(move: dict, name_words: bool = False) -> str:
    """A move as a player would type it: its one card named by face (or designed name) as ``moves`` says it."""
    refs = REF.findall(move["move"])
    faces = FACE_WORDS.findall(move["means"])
    if len(refs) == 1 and len(faces) == 1:
        rank, suit = faces[0]
        return re.sub(rf"{re.escape(refs[0])}(=\w+)?", f"{RANKS.get(rank, rank)}{suit[0].upper()}", move["move"])
    named = re.search(r"the ([A-Z][A-Za-z-]+)", move["means"]) if name_words else None
    if len(refs) == 1 and named:
        return re.sub(rf"{re.escape(refs[0])}(=\w+)?", named.group(1), move["move"])
    return move["move"]


def warlords_walkthrough(w: Walk) -> None:
    w.run("alice", "duelmail id new alice --email alice@example.org")
    w.run("bob", "duelmail id new bob --email bob@example.org")
    w.run("bob", "duelmail id card > bob-card.toml")
    w.run("alice", "duelmail new warlords --seat alice --seat bob-card.toml --out outbox")
    w.run("bob", "duelmail join outbox/genesis.toml --out outbox")
    w.run("alice", "duelmail receive outbox/r0001-s1.toml --out outbox")
    w.run("bob", "duelmail receive outbox/r0002-s0.toml --out outbox")
    w.run("alice", "duelmail receive outbox/r0003-s1.toml")
    w.run("alice", "duelmail show")
    w.text("""`duelmail moves` numbers every move legal now, in words (`duelmail moves --json` gives each move's
        notation too, for scripts). In a
        terminal a plain `duelmail play` shows the table and the same list and asks; a number, several (`1 then 3`)
        or the move's words answer it, and `undo` takes a choice back. From a script, or to skip the question,
        the number goes on the command line:""")
    w.run("alice", "duelmail moves")
    warlords = [m for m in w.moves("alice") if m["move"].startswith("warlord ")]
    hand = re.search(r"Hand: (.*)", w.run("alice", "duelmail show", show=False)).group(1).split()
    low = next(f for f in hand if f[:-1] not in ("J", "Q", "K", "A"))
    w.text("""The notation (`duelmail rules warlords` ends with it) works too: a player gives their own cards by face
        (`KD`; in Grid Duel by the card's name, `Spitter`) or by position (`a#1`), and other players by name
        (`at bob`). Where two of her cards share a face, the legal one is taken. A move whose claim about her own
        cards is false is refused before anything is signed, since sent it would be a proven cheat (Warlords are
        Kings, Queens and Jacks, W-7):""")
    w.run("alice", f"duelmail play warlord {low}", ok=False)
    w.text("""Moves that do not finish her turn are kept until she adds the rest (`duelmail undo` drops them).
        Every event is said in words, each card by its face once the reader has seen it: Alice reads her own
        Warlord by its face, Bob reads "a card face down" until it turns up; `duelmail history` tells the whole game
        that way (`duelmail history --protocol` adds the protocol's steps and each card's position).""")
    if warlords:
        w.run("alice", f"duelmail play {warlords[0]['number']}")
    w.run("alice", "duelmail play end the turn --out outbox")
    w.run("bob", "duelmail receive outbox/r0004-s0.toml")
    w.run("bob", "duelmail status")
    w.run("bob", "duelmail play --bot heuristic --out outbox")
    w.run("bob", "head -13 outbox/r0005-s1.toml")
    w.run("alice", "duelmail receive outbox/r0005-s1.toml")
    w.run("alice", "duelmail history")
    folder = next((w.where / "alice-home" / "games").iterdir()).name
    w.run("anyone", f"duelmail verify alice-home/games/{folder}")


def talk_walkthrough(w: Walk) -> None:
    set_up(w, "warlords", ["alice", "bob"])
    w.text("In another game, Bob, while it is not his turn:")
    w.read["alice"] = {p.name for p in (w.where / "outbox").iterdir()}  # Bob's note reaches Alice at the end
    w.run("bob", 'duelmail say "take your time" --out outbox')
    mine = [m for m in w.moves("alice") if m["move"] != "end"]
    if mine:
        w.run("alice", f"duelmail play {typed(mine[0])}")
        w.run("alice", "duelmail undo")
    w.run("alice", 'duelmail play --bot heuristic --say "thanks!" --out outbox')
    w.run("alice", "duelmail draw offer --out outbox")
    for p in sorted((w.where / "outbox").iterdir()):
        if re.search(r"-s0", p.name) and p.name not in w.read.setdefault("bob", set()):
            w.read["bob"].add(p.name)
            w.run("bob", f"duelmail receive outbox/{p.name} --out outbox", show=False)
    w.text("Bob, after receiving both:")
    w.run("bob", "duelmail status")
    w.run("bob", "duelmail draw decline --out outbox")
    w.run("bob", 'duelmail resign --say "well played" --out outbox')
    w.text("Alice receives those files; her duelmail answers with her seed, and the game is audited:")
    new = sorted(p.name for p in (w.where / "outbox").iterdir() if "-s1" in p.name and p.name not in w.read["alice"])
    w.run("alice", "duelmail receive " + " ".join(f"outbox/{n}" for n in new) + " --out outbox", keep=12)


GAMES = [
    ("summoner", ["alice", "bob"], "", "Summoner: summon cards by face, attack, use jokers (seeds/summoner.md)"),
    ("grid", ["alice", "bob"], "--option deck1=hive ", "Grid Duel: cards are named by their design (seeds/grid.md)"),
    ("skirmish", ["alice", "bob"], "", "DUEL skirmish: secret characters and sealed fight plans (seeds/skirmish.md)"),
    ("wizard", ["alice", "bob", "carol"], "", "Wizard Duel, three players: attack a player by name (seeds/wizard.md)"),
]


def games_walkthrough(where: Path) -> str:
    parts = []
    for game, players, options, title in GAMES:
        (where / game).mkdir()
        w = Walk(where / game)
        w.text(f"**{title}.**")
        set_up(w, game, players, options, show_new=True)
        first = next(p for p in players if json.loads(w.run(p, "duelmail moves --json", show=False)))
        w.run(first, "duelmail show", keep=24)
        w.run(first, "duelmail moves | head -8")
        legal = json.loads(w.run(first, "duelmail moves --json", show=False))
        w.run(first, f"duelmail play {_quoted(typed(legal[0], name_words=True))} --out outbox")
        parts.append(w.markdown())
    return "\n".join(parts)


def _quoted(move: str) -> str:
    return f'"{move}"' if " " in move else move


def main(argv: list[str]) -> None:
    walks: dict[str, Callable[[Path], str]] = {
        "walkthrough": lambda p: _walk(p, warlords_walkthrough),
        "talk": lambda p: _walk(p, talk_walkthrough),
        "games": games_walkthrough,
    }
    texts = {}
    for name, walk in walks.items():
        with tempfile.TemporaryDirectory() as tmp:
            texts[name] = walk(Path(tmp))
    if "--write" not in argv:
        sys.stdout.write("\n".join(texts.values()))
        return
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    for name, body in texts.items():
        begin, end = f"<!-- {name}: scripts/walkthrough.py --write -->", f"<!-- end of {name} -->"
        start, stop = text.index(begin) + len(begin), text.index(end)
        text = text[:start] + "\n\n" + body + "\n" + text[stop:]
    readme.write_text(text, encoding="utf-8")
    print(f"wrote {', '.join(texts)} into {readme}")


def _walk(where: Path, play: Callable[[Walk], None]) -> str:
    w = Walk(where)
    play(w)
    return w.markdown()


if __name__ == "__main__":
    main(sys.argv[1:])
