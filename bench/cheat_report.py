"""Run every cheat of the harness against every game and write docs/adversaries.md:
python bench/cheat_report.py [GAME ...]"""

from __future__ import annotations

import sys
from pathlib import Path

import common  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]

HEAD = """# Adversaries: every cheat, and when it is caught

Written by `python bench/cheat_report.py`. Each row plays a real game through the crypto engine
(`duelmail.engine.selfplay`), lets one seat cheat at the first chance, and records how the honest
seats catch it. `tests/adversary/test_cheats.py` asserts the same table. "On arrival" means the
cheating file is refused by `duelmail receive` with the rule, round and seat; nothing is applied.

| game | cheat | caught | rule | round | seat |
|---|---|---|---|---|---|
"""

TAIL = """
Notes

- **Forged passes** (a card dropped, duplicated or substituted, an off-subgroup point, a proof copied
  from another game): every shuffle, lock and unify pass carries a zero-knowledge proof
  (docs/proofs.md) bound to the game, round, seat, deck and pass, so a forged pass is refused on
  arrival, naming the seat. The end-of-game audit still recomputes every pass from the published
  seeds, as a second line (tests/engine/test_match.py checks it on files whose proofs were skipped).
- **Withheld audit seed**: a seat that will not publish its per-game seed at the end lets its
  forced-answer deadline pass. The other seat's signed timeout claim then makes it forfeit,
  whatever the board said.
- **Sealed choices** (a commitment opened to another value, an illegal committed choice, a
  withheld opening) are tested on the engine's test game (`tests/engine/test_sealed.py`), and on
  DUEL skirmish in the table above (a plan opened as another plan, a stat revealed beyond its total).
- **Retired lockers** (Wizard Duel): a seed published by a seat the rules have not put out is refused
  as a cheat (`P-seed`), a false seed by its key commitments (`P-keys`) (`tests/engine/test_retire.py`).
- **Notes** (talk, resignation, draws; `tests/engine/test_talk.py`): a note is signed like a turn, so a
  forged or altered one is refused (`P-signature`); two different notes with one number are
  equivocation (`P-equivocation`); talk that is too long or holds control characters (a terminal escape,
  a bidirectional override) is refused (`P-say`); a draw answer naming no offer is refused (`P-draw`).
  A resignation or draw answer after the end changes nothing. Words a person types above the armour
  of a mail are nobody's signed words: `mail fetch` shows them marked UNSIGNED, with control characters
  removed, and never as talk (`tests/transport/test_mail_talk.py`).

Fuzzing (hypothesis, run by `make test`):
the turn-file parser on 300 random texts, the armour decoder on 200 random payloads, and every
game's notation parser on 400 inputs per game (random text and notation-shaped strings). Every
input either parses or gets a clean `DuelmailError`; no crash.

Crash safety (`tests/adversary/test_crash.py`): a real `duelmail play` and `duelmail receive`
process is SIGKILLed half-way through writing a temporary file, just before it replaces the real
file, and just after, three times at each point. After each kill the archive verifies, the move can
be made (or re-sent) and the game goes on. An identity killed while being created is absent, never
half-written.
"""


def main(games: list[str]) -> None:
    from duelmail.adversary import cheat_table

    rows = cheat_table(games, seed=3)
    lines = []
    for r in rows:
        seat = "" if r.seat is None else ("unknown" if r.seat < 0 else str(r.seat))
        lines.append(f"| {r.game} | {r.cheat} | {r.when} | {r.rule} | {r.round or ''} | {seat} |")
        print(f"{r.game:<9} {r.cheat:<40} {r.when:<20} {r.rule:<14} round {r.round} seat {r.seat}")
    (ROOT / "docs" / "adversaries.md").write_text(HEAD + "\n".join(lines) + "\n" + TAIL)
    print("wrote docs/adversaries.md")


if __name__ == "__main__":
    main(sys.argv[1:] or ["warlords", "summoner", "grid", "skirmish", "wizard"])
