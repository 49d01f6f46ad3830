"""Files a decision costs in play, per game, against the least the rules allow (issue 39, item 3).

Whole self-played games of each game through the full crypto engine, each seat sending every file it owes at once
(as ``watch``, ``receive`` and ``play`` do). Set-up passes, the genesis, acceptances and audit seeds are left out:
they are fixed per game. In play, a *decision file* carries a choice; an *answer* is a file that needs none (key
shares that let a player see a card drawn in another's file, a deck pass of a reshuffle, an opened sealed choice).
A share rides ahead of its draw, in a file its seat sends anyway, only where the fairness rule of protocol section 6
("Shares ahead of a draw") allows it; the answers left are the ones that rule keeps, so the figure with it is the
least the rules allow. Usage: ``python bench/bench_files_per_decision.py [--before] [--why] [GAMES] [GAME ...]``;
``--before``: the same games with every share sent once owed (the genesis's ``ahead`` ignored); ``--why``: why each
answer could not ride in an earlier file, per game (by its most binding share).
"""

from __future__ import annotations

import sys
import time
from collections import Counter

import common  # noqa: F401

# label -> (game, seats, genesis escrow table)
ROWS = {"warlords": ("warlords", 2, None), "summoner": ("summoner", 2, None), "grid": ("grid", 2, None),
        "skirmish": ("skirmish", 2, None), "wizard": ("wizard", 3, None),
        "wizard-no-escrow": ("wizard", 3, {"off": True})}
WHY = ("a card turned up after another's choice", "the drawer's own choice comes before the draw",
       "another seat's choice comes before the draw", "a sealed choice opened",
       "a deck pass (the deal after the acceptances, a reshuffle)", "no choice before the draw")


def one(label: str, seed: int, before: bool = False, why: Counter | None = None) -> Counter:
    from duelmail.testing.selfplay import SelfPlay

    game, n, escrow = ROWS[label]
    sp = SelfPlay(game, n=n, seed=seed, shared=True, escrow=escrow, ahead=True)  # ``ahead`` as ``duelmail new``
    if before:
        sp.match.ahead_on = False
    sp.run()
    assert sp.match.finished
    kinds = Counter()
    playing = False  # the set-up (acceptances, the first shuffle, the first cards dealt) ends at the first choice
    answers = []
    for i, f in enumerate(sp.files[1:]):
        c = f.content
        playing = playing or bool(c.get("actions"))
        if c.get("actions"):
            kinds["decision"] += 1
        elif not playing:
            kinds["set-up"] += 1
        elif "seed" in c and not c.get("keys"):
            kinds["audit seed"] += 1
        else:
            kinds["answer"] += 1
            answers.append(i)
    if why is not None:
        _why(sp, answers, why)
    return kinds


def _why(sp, answers: list[int], why: Counter) -> None:
    """Why each answer could not ride in its sender's file before it: fold the game again, keep what each file
    showed to whom, and look at its shares. A share for a card shown to everyone was turned up by another's choice
    (the sender could not open it before that choice); one for a private draw waits for the first choice that made
    the draw (the drawer's own, or another seat's, before which the rules did not make it certain)."""
    from duelmail.engine.match import Match
    from duelmail.games.base import PUBLIC
    from duelmail.games.cards import CardRef

    files = sp.files[1:]
    m = Match(sp.genesis)
    m.book.deferred = []
    shown = []
    for f in files:
        m.apply(f, f"r{f.round:04d}-s{f.seat}.toml")
        shown.append({} if m.over() else dict(m.state.visibility()))
    for i in answers:
        c = files[i].content
        if "deck" in c or not c.get("keys"):
            why[WHY[4] if "deck" in c else WHY[3]] += 1
            continue
        last = max((x for x in range(i) if files[x].seat == files[i].seat), default=-1)
        found = set()
        for text in c["keys"]:
            ref = CardRef.parse(text)
            who = shown[i - 1].get(ref)
            if who is None:  # a share ahead of a draw, riding in this answer
                continue
            if who == PUBLIC:
                found.add(0)
                continue
            drawn = next((x for x in range(last + 1, i) if shown[x].get(ref) == who), last + 1)
            deciders = {files[x].seat for x in range(last + 1, drawn + 1) if files[x].content.get("actions")}
            found.add(1 if who in deciders else 2 if deciders else 5)
        why[WHY[min(found, default=5)]] += 1


def main(argv: list[str]) -> None:
    before = "--before" in argv
    explain = "--why" in argv
    argv = [a for a in argv if a not in ("--before", "--why")]
    games = int(argv[0]) if argv else 10
    names = argv[1:] or list(ROWS)
    print("| game, players | decisions in play | answers needing no decision | files per decision in play |")
    print("|---|---|---|---|")
    reasons = {}
    for label in names:
        c0 = time.process_time()
        why = Counter() if explain else None
        total = sum((one(label, seed, before, why) for seed in range(games)), Counter())
        d, a = total["decision"], total["answer"]
        reasons[label] = why
        print(f"| {label}, {ROWS[label][1]} | {d / games:.1f} a game | {a / games:.1f} a game "
              f"({a / (a + d):.0%} of the files in play) | {(d + a) / d:.2f} |  "
              f"<!-- {games} games, {time.process_time() - c0:.0f} s CPU -->")
    if explain:
        print("\n| game | " + " | ".join(WHY) + " |")
        print("|---|" + "---|" * len(WHY))
        for label, why in reasons.items():
            print(f"| {label} | " + " | ".join(f"{why[w] / games:.1f}" for w in WHY) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
