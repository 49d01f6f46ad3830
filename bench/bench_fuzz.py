"""A mutation fuzzer over every door a stranger's text reaches: python bench/bench_fuzz.py [TOTAL] [--seed N]

The doors, their real corpus (files and legal actions of games played by the engine) and the inputs that
once crashed duelmail come from ``duelmail.testing.fuzz``. TOTAL inputs (default 1,000,000) are shared among the
doors by weight; every input that raises anything but ``DuelmailError`` is written to
bench/.cache/fuzz-crashes/. Reports, per door: inputs, refused, accepted, other exceptions by type, the
slowest input; and CPU (``time.process_time``) beside wall time.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from common import CACHE

# shares of the inputs; the five games' notations share the rest
WEIGHTS = {"turnfile": 0.2, "armour": 0.1, "mail": 0.05, "genesis": 0.05, "card": 0.02, "identity": 0.03,
           "battlefield": 0.05, "reply": 0.03}


def main() -> None:
    from duelmail.errors import DuelmailError
    from duelmail.testing.fuzz import Mutator, targets

    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    total = int(args[0]) if args else 1_000_000
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    doors = targets()
    games = [d for d in doors if d.startswith("notation:")]
    share = {**WEIGHTS, **{g: (1 - sum(WEIGHTS.values())) / len(games) for g in games}}
    counts = {d: int(total * share[d]) for d in doors}
    counts[games[0]] += total - sum(counts.values())
    crashes = CACHE / "fuzz-crashes"
    print(f"{total} inputs, seed {seed}; corpus built in {time.perf_counter() - wall0:.1f} s")
    grand: Counter[str] = Counter()
    slowest = (0.0, "", 0)
    for name, door in doors.items():
        mutate = Mutator(door.corpus, seed)
        seen: Counter[str] = Counter()
        worst = (0.0, 0)
        w, c = time.perf_counter(), time.process_time()
        for i in range(counts[name]):
            text = door.corpus[i] if i < len(door.corpus) else mutate()
            t = time.perf_counter()
            try:
                door.feed(text)
                seen["accepted"] += 1
            except DuelmailError:
                seen["refused"] += 1
            except Exception as e:  # noqa: BLE001 - the point: count what escapes
                kind = type(e).__name__
                seen[kind] += 1
                crashes.mkdir(parents=True, exist_ok=True)
                (crashes / f"{name.replace(':', '-')}-{kind}-{seen[kind]}.txt").write_text(text)
            took = time.perf_counter() - t
            if took > worst[0]:
                worst = (took, len(text))
        escaped = {k: v for k, v in seen.items() if k not in ("accepted", "refused")}
        print(f"{name:19} {counts[name]:>7} inputs: {seen['refused']:>7} refused, {seen['accepted']:>6} accepted, "
              f"other exceptions {escaped or 0}; slowest {worst[0] * 1000:.0f} ms ({worst[1]} chars); "
              f"CPU {time.process_time() - c:.0f} s, wall {time.perf_counter() - w:.0f} s")
        grand.update(seen)
        if worst[0] > slowest[0]:
            slowest = (worst[0], name, worst[1])
    escaped = sum(v for k, v in grand.items() if k not in ("accepted", "refused"))
    print(f"total {sum(grand.values())} inputs: {grand['refused']} refused, {grand['accepted']} accepted, "
          f"{escaped} other exceptions; slowest input {slowest[0] * 1000:.0f} ms ({slowest[1]}, {slowest[2]} chars)")
    print(f"CPU {time.process_time() - cpu0:.0f} s, wall {time.perf_counter() - wall0:.0f} s")


if __name__ == "__main__":
    main()
