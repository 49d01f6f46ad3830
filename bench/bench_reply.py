"""Play by reply: what one poll of the reply seat's 'watch' costs when it reads a reply and plays it (check the
sender and code, read the words, compose, sign, apply, store, mail the answer), and when it mails a list (the
numbered moves, the table, the picture), beside a poll with nothing to do. Whole Summoner games (life 3) where
one seat plays only by replies through a Maildir and the game's files travel through folders (the harness of
tests/transport/test_reply_play.py). CPU time beside wall time. Usage: python bench/bench_reply.py [GAMES]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import common  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "transport"), str(ROOT / "tests" / "cli")]

from replyplay import Player  # noqa: E402
from test_reply_play import ReplyTable  # noqa: E402


def one_game(tmp: Path, n: int) -> dict[str, list[tuple[float, float]]]:
    t = ReplyTable(tmp / f"g{n}", "summoner", "life=3")
    player = Player(t.reply_home, t.address, seed=n)
    out: dict[str, list[tuple[float, float]]] = {"reply played": [], "list mailed": [], "idle": []}
    for i in range(400):
        t.others_move(i)
        c, w = time.process_time(), time.perf_counter()
        lines = t.poll()
        cost = (time.process_time() - c, time.perf_counter() - w)
        kind = ("reply played" if any(": by reply: " in x for x in lines) else
                "list mailed" if any(x.startswith("mailed your moves") for x in lines) else
                "idle" if not lines else None)
        if kind is not None:
            out[kind].append(cost)
        for orig in t.new_lists()[-1:]:
            t.box.add(player.reply(orig).as_bytes())
        if all(t.status(h)["audited"] for h in t.homes):
            return out
    raise SystemExit("the game did not end")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rows: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(games):
            for k, v in one_game(Path(tmp), n).items():
                rows.setdefault(k, []).extend(v)
    med = statistics.median
    print(f"play by reply, one poll of the reply seat's watch, {games} Summoner games (life 3), medians:")
    for kind, costs in rows.items():
        if costs:
            print(f"  {kind:<13} {len(costs):>3} polls: CPU {med(c for c, _ in costs) * 1000:.0f} ms, "
                  f"wall {med(w for _, w in costs) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
