"""Play the README's walkthrough for real and write what every command printed into README.md.

    .venv/bin/python scripts/walkthrough.py            # print the walkthrough (markdown)
    .venv/bin/python scripts/walkthrough.py --write    # replace it in README.md, between its markers

Alice and Bob each get a home in a scratch folder; an ``outbox`` folder stands in for the mail. The moves
are chosen from what ``duelmail moves`` offers on the deal each run gets, so every output is real.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- walkthrough: scripts/walkthrough.py --write -->", "<!-- end of walkthrough -->"


class Walk:
    def __init__(self, where: Path):
        self.where = where
        self.out: list[str] = []
        self.block: list[str] | None = None
        self.who: str | None = None

    def run(self, who: str, command: str, ok: bool = True, show: bool = True, keep: int | None = None) -> str:
        """Run ``duelmail ...`` (or a shell line) as ``who``; record the command and what it printed."""
        env = {**os.environ, "DUELMAIL_HOME": f"{who.lower()}-home", "COLUMNS": "200",
               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        env.pop("DUELMAIL_AS", None)
        done = subprocess.run(command, shell=True, cwd=self.where, env=env, capture_output=True, text=True)
        text = done.stdout + done.stderr
        if (done.returncode == 0) != ok:
            raise SystemExit(f"walkthrough: {command!r} as {who} exited {done.returncode}:\n{text}")
        if show:
            self.say_as(who)
            lines = text.rstrip("\n").splitlines()
            if keep is not None and len(lines) > keep:
                lines = lines[:keep] + ["..."]
            self.block += [f"$ {command}", *lines, ""]
        return text

    def say_as(self, who: str) -> None:
        if self.who != who or self.block is None:
            self.close()
            self.out += [f"**{who.capitalize()}:**" if who in ("alice", "bob") else f"**{who}:**", "", "```console"]
            self.block, self.who = [], who

    def close(self) -> None:
        if self.block is not None:
            while self.block and not self.block[-1]:
                self.block.pop()
            self.out += [*self.block, "```", ""]
        self.block, self.who = None, None

    def text(self, paragraph: str) -> None:
        self.close()
        self.out += [paragraph.strip(), ""]

    def moves(self, who: str) -> list[dict]:
        return json.loads(self.run(who, "duelmail moves --json", show=False))


def face_of(move: dict) -> str | None:
    """The face a move's words give to its first card (``the Jack of spades`` -> ``JS``)."""
    ranks = {"Ace": "A", "King": "K", "Queen": "Q", "Jack": "J"}
    m = re.search(r"the (Ace|King|Queen|Jack|\d+) of (spades|hearts|diamonds|clubs)", move["means"])
    return f"{ranks.get(m.group(1), m.group(1))}{m.group(2)[0].upper()}" if m else None


def walkthrough(where: Path) -> str:
    w = Walk(where)
    (where / "outbox").mkdir()
    w.run("alice", "duelmail id new alice --email alice@example.org")
    w.run("bob", "duelmail id new bob --email bob@example.org")
    w.run("bob", "duelmail id card > bob-card.toml")
    w.run("alice", "duelmail new warlords --seat alice --seat bob-card.toml --out outbox")
    w.run("bob", "duelmail join outbox/genesis.toml --out outbox")
    w.run("alice", "duelmail receive outbox/r0001-s1.toml --out outbox")
    w.run("bob", "duelmail receive outbox/r0002-s0.toml --out outbox")
    w.run("alice", "duelmail receive outbox/r0003-s1.toml")
    w.run("alice", "duelmail show")
    w.run("alice", "duelmail moves")
    legal = w.moves("alice")
    warlords = [m for m in legal if m["move"].startswith("warlord ")]
    hand = re.search(r"Hand: (.*)", w.run("alice", "duelmail show", show=False)).group(1).split()
    low = next(f for f in hand[::2] if f[:-1] not in ("J", "Q", "K", "A"))
    w.text("""
In every game a player gives their own cards by face (`KD`; in Grid Duel by the card's name, `Spitter`) or
by position (`a#1`), and other players by name (`at bob`) or seat number. Where two of her cards share a
face, the legal one is taken. A move whose claim about her own cards is false is refused before anything
is signed, since sent it would be a proven cheat (Warlords are Kings, Queens and Jacks, W-7):
""")
    w.run("alice", f"duelmail play warlord {low}", ok=False)
    w.text("""
Moves that do not finish her turn are kept until she adds the rest (`duelmail undo` drops them). Every
event is said in words, each card by its face once the reader has seen it: Alice reads her own Warlord
by its face, Bob reads its position until it turns up; `duelmail history` tells the whole game that way.
""")
    if warlords:
        w.run("alice", f"duelmail play warlord {face_of(warlords[0]) or warlords[0]['move'].split()[1]}")
    w.run("alice", "duelmail play end --out outbox")
    w.run("bob", "duelmail receive outbox/r0004-s0.toml")
    w.run("bob", "duelmail status")
    w.run("bob", "duelmail play --bot heuristic --say \"good luck\" --out outbox")
    w.run("bob", "head -14 outbox/r0005-s1.toml")
    w.run("alice", "duelmail receive outbox/r0005-s1.toml")
    w.run("alice", "duelmail history")
    folder = next((where / "alice-home" / "games").iterdir()).name
    w.run("Anyone", f"duelmail verify alice-home/games/{folder}")
    w.close()
    return "\n".join(w.out).rstrip() + "\n"


def main(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        text = walkthrough(Path(tmp))
    if "--write" not in argv:
        sys.stdout.write(text)
        return
    readme = ROOT / "README.md"
    old = readme.read_text(encoding="utf-8")
    start, end = old.index(BEGIN) + len(BEGIN), old.index(END)
    readme.write_text(old[:start] + "\n\n" + text + "\n" + old[end:], encoding="utf-8")
    print(f"wrote the walkthrough into {readme}")


if __name__ == "__main__":
    main(sys.argv[1:])
