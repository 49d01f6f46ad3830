"""Regenerate the example archives from fixed seeds: python examples/make_examples.py

- warlords-game/: a whole two-player game of Warlords between heuristic bots, audited.
- warlords-cheat/: a game in which bob plays a card that is no Warlord face down as a Warlord; the
  reveal or the audit catches it and `duelmail verify` names him.
- summoner-game/: a whole game of Summoner (the playing card duel) between heuristic bots.
- grid-game/: a whole game of Grid Duel, the vanguard deck against the bastion deck.
- skirmish-game/: three characters fight on the ruined keep (DUEL skirmish), heuristic bots.
- wizard-game/: four wizards (Wizard Duel), heuristic bots, one shared stock locked by all four.

Every registered game has a ``<game>-game`` folder here (a test checks it).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from duelmail.errors import FileRefused
from duelmail.testing.selfplay import SelfPlay
from duelmail.transport.folder import GameFolder

HERE = Path(__file__).parent


def save(sp: SelfPlay, name: str) -> Path:
    target = HERE / name
    if target.exists():
        shutil.rmtree(target)
    folder = GameFolder(target)
    match = sp.fresh()
    for f in sp.files:
        folder.store(f, match if f.kind == "turn" else None)
    return target


def honest() -> Path:
    return save(SelfPlay("warlords", n=2, seed=7).run(), "warlords-game")


def cheat() -> Path:
    for seed in range(50):
        sp = SelfPlay("warlords", n=2, seed=seed, honest=False)  # bob plays on with a modified client
        sp.run(until=lambda m: 1 in m.duties and m.duties[1].decide and m.state.phase == 0)
        known = sp.matches[1].draft(1, sp.ids[1]).known(1)
        fakes = [r for r in sp.matches[1].state.hands[1] if known.get(r) and known[r].rank < 11]
        if fakes and not sp.matches[1].state.warlords[1] and sp.matches[1].state.warlords[0]:
            lord = sp.matches[1].state.warlords[0][0]
            sp.deliver(sp.compose(1, [f"warlord {fakes[0]}", "end"], honest=False))  # a modified client
            try:
                sp.run()
            except FileRefused:  # bob's own client cannot go on honestly after his lie: try another seed
                continue
            st = sp.match.state
            if lord in st.warlords[0] and lord in st.face_up and lord not in st.faces:  # turned up, never opened
                return save(sp, "warlords-cheat")
    raise RuntimeError("no seed gave bob a chance to cheat while alice has a Warlord that a battle turns up")


GAMES = {  # game -> (players, options, seed)
    "summoner": (2, {}, 7),
    "grid": (2, {"deck0": "vanguard", "deck1": "bastion"}, 7),
    "skirmish": (3, {"battlefield": "ruined-keep"}, 7),
    "wizard": (4, {}, 7),
}


def game(kind: str) -> Path:
    n, options, seed = GAMES[kind]
    return save(SelfPlay(kind, n=n, options=options, seed=seed).run(), f"{kind}-game")


if __name__ == "__main__":
    for path in (honest(), cheat(), *(game(kind) for kind in GAMES)):
        print(f"wrote {path}")
