"""Issue 39 (2): every refusal and every line a player reads, collected over bot games of each game, for a person
to read. For each game (2 and 3 seats where the game allows), separate homes play a bot game through the real CLI;
at many states each awaited seat (and a seat not awaited) types wrong moves of every kind: numbers out of range,
malformed text, too many and too few words, cards it does not hold, wrong targets, moves of another phase or
another seat, a careful move unconfirmed, moves after the game ended. Each try runs on a copy of the home.

    PYTHONPATH=. python bench/sweep_words.py [GAME[:SEATS] ...] [--states N] [--out FILE]

Writes each distinct line once, with how often it came and one move that caused it, to FILE (default
bench/.cache/sweep-words.txt), marked by where it was read ([refused], [show], [status], ...; [ACCEPTED] for a
wrong guess that was a legal move after all, played on the copy only); prints, per game, how many wrong moves
were typed and how many distinct lines of each kind came back. tests/cli/test_no_machinery.py fails on the
awkward patterns found this way."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "cli"))

from homes import Homes, run  # noqa: E402

GAMES = ["warlords:2", "warlords:3", "summoner:2", "grid:2", "wizard:3", "wizard:4", "skirmish:2"]
REF = re.compile(r"\b([a-z]+[0-9]*(?:\.[0-9]+)?)#([0-9]+)")


def mutations(move: str, names: list[str], me: str) -> list[str]:
    """Wrong variants of a legal move in notation: too few words, too many, cards not held, wrong targets, numbers
    out of range, faces not held."""
    words = move.split()
    out = []
    if len(words) > 1:
        out.append(" ".join(words[:-1]))
    out.append(move + " extra")
    out.append(words[0])
    if REF.search(move):
        out.append(REF.sub(lambda m: f"{m.group(1)}#{int(m.group(2)) + 97}", move, count=1))
        out.append(REF.sub(lambda m: ("zz" if m.group(1) != "zz" else "a") + "#1", move, count=1))
        out.append(REF.sub(lambda m: f"{m.group(1)}#{max(1, int(m.group(2)) - 1)}", move, count=1))
    face = re.search(r"=((?:10|[2-9JQKA])[SHDC]|\w+)\b", move)
    if face:
        out.append(move.replace("=" + face.group(1), "=2H" if face.group(1) != "2H" else "=KS", 1))
    for n in names:
        if re.search(rf"\b{n}\b", move):
            out.append(re.sub(rf"\b{n}\b", me if n != me else "nobody", move, count=1))
    nums = re.findall(r"(?<![#\w.])-?\d+(?:\.\d+)?(?![#\w])", move)
    if nums:
        out.append(re.sub(r"(?<![#\w.])-?\d+(?:\.\d+)?(?![#\w])", "999", move, count=1))
        out.append(re.sub(r"(?<![#\w.])-?\d+(?:\.\d+)?(?![#\w])", "-5", move, count=1))
    return out


class Sweep:
    def __init__(self, game: str, seats: int, tmp: Path, states: int):
        self.game, self.seats, self.tmp, self.states = game, seats, tmp, states
        self.lines: dict[str, list] = {}  # line -> [count, example]
        self.examples: dict[str, str] = {}  # verb -> a legal move seen with it
        self.tries = 0

    def note(self, kind: str, what: str, out: str) -> None:
        for line in out.splitlines():
            line = line.rstrip()
            if not line.strip():
                continue
            key = f"[{kind}] {line}"
            if key not in self.lines:
                self.lines[key] = [0, what]
            self.lines[key][0] += 1

    def trial(self, t: Homes, name: str, *args: str) -> tuple[int, str]:
        """``play ARGS`` in a copy of ``name``'s home (a move that is accepted changes nothing that counts)."""
        copy = self.tmp / "trial"
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(t.home[name], copy, symlinks=True)
        self.tries += 1
        return run(copy, "play", *args, "--out", str(self.tmp / "trial-out"))

    def moves(self, t: Homes, name: str) -> list[dict]:
        code, out = run(t.home[name], "moves", "--json")
        return json.loads(out) if code == 0 and out.strip().startswith("[") else []

    def wrong_moves(self, t: Homes, name: str, legal: list[dict]) -> list[str]:
        names = list(t.names)
        notation = [m["move"] for m in legal]
        tries = ["99", "0", "-1", "hello there", "1 2 3 4 5 6 7 8 9 10 11 12", "1 99", "play the card",
                 "attack", "2 of spades", "1; 99", ";;", "3'.;"]
        verbs = {}
        for m in notation:
            verbs.setdefault(m.split()[0], m)
        for verb, m in verbs.items():
            self.examples.setdefault(verb, m)
            tries += mutations(m, names, name)
        tries += [m for v, m in self.examples.items() if v not in verbs]  # another phase's moves
        warned = [m for m in legal if m.get("warning")]
        for m in warned[:1]:
            tries.append(m["move"])
            tries.append(str(m["number"]))
        return list(dict.fromkeys(tries))

    def run(self) -> None:
        t = Homes(self.tmp / "t", self.game, self.seats)
        t.settle()
        sampled, every = 0, 3
        for step in range(600):
            t.settle()
            st = t.status(t.names[0])
            for name in t.names:
                code, out = run(t.home[name], "show")
                self.note("show", "show", out)
                if step % every == 0:
                    for view in ("status", "moves"):
                        code, out = run(t.home[name], view)
                        self.note(view, view, out)
            if st["over"]:
                break
            awaited = [t.names[int(s)] for s in st["awaited"]]
            todo = [n for n in awaited if self.moves(t, n)]
            if not todo:
                for n in awaited:  # decision-free files owed
                    code, out = t.play(n)
                    self.note("play", "play (owed)", out)
                continue
            if step % every == 0 and sampled < self.states:
                sampled += 1
                for name in todo[:1]:
                    legal = self.moves(t, name)
                    for wrong in self.wrong_moves(t, name, legal):
                        code, out = self.trial(t, name, *wrong.split(" ") if wrong[:1].isdigit() else [wrong])
                        self.note("refused" if code else "ACCEPTED", wrong, out)
                    others = [n for n in t.names if n not in awaited]
                    if others and legal:
                        other = others[0]
                        code, out = self.trial(t, other, legal[0]["move"])
                        self.note("other seat" if code else "ACCEPTED other", legal[0]["move"], out)
                        code, out = self.trial(t, other, "1")
                        self.note("other seat" if code else "ACCEPTED other", "1", out)
            for name in todo:
                code, out = t.play(name, "--bot", "heuristic", "--seed", str(step), "--yes")
                self.note("play", "bot move", out)
        for name in t.names:  # after the game ended
            for wrong in ["1", "end", "resign", *list(self.examples.values())[:3]]:
                code, out = self.trial(t, name, wrong)
                self.note("after end" if code else "ACCEPTED after end", wrong, out)
            code, out = run(t.home[name], "moves")
            self.note("moves", "moves", out)
            code, out = run(t.home[name], "history")
            self.note("history", "history", out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", default=GAMES)
    ap.add_argument("--states", type=int, default=12)
    ap.add_argument("--out", default=str(ROOT / "bench" / ".cache" / "sweep-words.txt"))
    args = ap.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    report = []
    for spec in args.games:
        game, _, seats = spec.partition(":")
        with tempfile.TemporaryDirectory(prefix="sweep-") as tmp:
            s = Sweep(game, int(seats or 2), Path(tmp), args.states)
            s.run()
        by_kind = defaultdict(int)
        for key in s.lines:
            by_kind[key.split("]")[0][1:]] += 1
        print(f"{spec}: {s.tries} tries; distinct lines " + ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())),
              flush=True)
        report.append(f"==== {spec}")
        for key, (count, example) in sorted(s.lines.items()):
            report.append(f"{count:5d}  {key}    <- {example!r}")
        out.write_text("\n".join(report) + "\n")
    print(out)


if __name__ == "__main__":
    main()
