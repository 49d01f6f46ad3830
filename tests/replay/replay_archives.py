"""Archives for the replay tests: the shipped examples, prefixes of them (games in progress), and where in
the cheat example the false Warlord is (read from the archive, so a regenerated example still works)."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from duelmail.games.cards import Card, CardRef
from duelmail.replay import Replay, Step, load_replay

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "warlords-game"
CHEAT = ROOT / "examples" / "warlords-cheat"


def prefix(src: Path, dst: Path, last_round: int) -> Path:
    """A copy of an archive holding only its genesis and rounds 1..last_round: a game in progress."""
    dst.mkdir(parents=True, exist_ok=True)
    for p in src.iterdir():
        if p.name == "genesis.toml" or (p.name.startswith("r") and int(p.name[1:5]) <= last_round):
            shutil.copy(p, dst / p.name)
    return dst


@dataclass
class Cheat:
    """The cheat example: bob plays ``fake`` (really ``face``) face down as a Warlord at step ``played``."""

    replay: Replay
    fake: CardRef
    face: Card
    played: Step  # the step of the round in which bob played it
    caught: Step  # the step of the round in which the reveal caught it
    alice_warlord: CardRef  # alice's face-down Warlord at that point

    def hand(self, seat: int, step: Step | None = None) -> list[CardRef]:
        return list((step or self.played).state.hands[seat])

    def line(self, refs, faces=None) -> str:
        """How Warlords' render lists refs the viewer can see: ``7D b#1  9S b#2``."""
        faces = faces if faces is not None else self.replay.all_faces
        return "  ".join(f"{faces[r]} {r}" for r in refs)


@cache
def cheat() -> Cheat:
    replay = load_replay(CHEAT)
    m = re.search(r"played (\S+#\d+) face down as a Warlord, but it is (\S+)", replay.match.audit.cheats[0][2])
    fake, face = CardRef.parse(m.group(1)), Card.parse(m.group(2))
    played = next(s for s in replay.steps if any(e.text == f"bob plays {fake} face down as a Warlord"
                                                  for e in s.events))
    caught = next(s for s in replay.steps if any(e.text.startswith("CHEAT") for e in s.events))
    return Cheat(replay, fake, face, played, caught, played.state.warlords[0][0])
