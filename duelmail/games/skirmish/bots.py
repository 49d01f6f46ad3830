"""Skirmish bots. The random bot picks among the listed legal actions (a sample of moves and plans);
the heuristic one builds a sturdy character, closes in, and plans around what its opponent has
revealed. Both read their own totals from ``Known.sealed`` (the engine opens the seat's memos)."""

from __future__ import annotations

from duelmail.games.base import Bot
from duelmail.games.skirmish.geometry import dist2
from duelmail.games.skirmish.notation import Cancel, Dual, Plan, Throw, Word

BUILDS = ((3, 3, 5, 2), (4, 2, 5, 2), (3, 2, 6, 2), (2, 3, 5, 3), (3, 3, 4, 3))


class HeuristicBot(Bot):
    name = "heuristic"

    def choose(self, state, seat, known, rng):
        kind = state.wait[0]
        if kind == "move":
            return self._move(state, seat)
        legal = state.legal_actions(seat, known)
        totals = state.own_totals(known)
        left = {st: totals[st] - state.rev[seat][st] for st in totals}
        if kind == "build" and isinstance(legal[0], Dual):
            return legal[0]  # the start reveal: one of each
        if kind == "build":
            if not totals:
                self.template = rng.choice(BUILDS)
            template = getattr(self, "template", None) or BUILDS[len(known.sealed) % len(BUILDS)]
            want = dict(zip(("str", "spd", "end", "dex"), template, strict=True))
            st = legal[0].stat
            return next((a for a in legal if a.cards == want[st]), legal[-1])
        if kind in ("reveal", "dual"):
            return self._reveal(state, seat, legal, left, kind)
        if kind == "plan":
            return self._plan(state, seat, legal, rng)
        if kind == "cancel":
            foes = [a for a in legal if isinstance(a, Cancel) and a.seat is not None
                    and state.fight["plans"][a.seat][a.index - 1][0] in (1, 2, 4)]
            return foes[0] if foes else legal[0]
        if kind == "interact":
            throws = [a for a in legal if isinstance(a, Throw)]
            return throws[0] if throws else legal[0]
        return legal[0]

    def _reveal(self, state, seat, legal, left, kind):
        """Strength all at once (every swing hits harder), one more Speed or Dexterity when it helps."""
        allowed = state.wait[2]
        why = state.wait[4] if kind == "dual" else state.wait[3]

        def pick(stat, n):
            for a in legal:
                items = a.items
                if len(items) == 1 and items[0][0] == stat and items[0][1] == n:
                    return a
            return None

        if "str" in allowed and left.get("str", 0) > 0 and ("reveal phase" in why or len(allowed) == 1):
            a = pick("str", left["str"])
            if a:
                return a
        if "spd" in allowed and left.get("spd", 0) > 0 and state.rev[seat]["spd"] < 3:
            a = pick("spd", 1)
            if a:
                return a
        if "dex" in allowed and left.get("dex", 0) > 0 and ("fight" in why or "evade" in why):
            a = pick("dex", left["dex"] if "evade" in why else 1)
            if a:
                return a
        return legal[0]  # nothing

    def _move(self, state, seat):
        """Run (or climb) straight at the nearest opponent; round an obstacle by the best compass step."""
        foes = [o for o in range(state.n) if o != seat and state.alive[o]]
        if not foes:
            return Word("stay")
        here = state.pos[seat]
        goal = state.pos[min(foes, key=lambda o: dist2(here, state.pos[o]))]
        tries = [state.reach(seat, goal, "run")]
        if state.can_climb(seat):
            tries.append(state.reach(seat, goal, "climb"))
        moves = [m for m in tries if m is not None]
        if not moves or min(dist2(m.to, goal) for m in moves) >= dist2(here, goal):
            moves += [m for dx, dy in state.COMPASS
                      if (m := state.reach(seat, (here[0] + 20 * dx, here[1] + 20 * dy), "run")) is not None]
        best = min(moves, key=lambda m: dist2(m.to, goal), default=None)
        if best is None or dist2(best.to, goal) >= dist2(here, goal):
            return Word("stay")
        return best

    def _plan(self, state, seat, legal, rng):
        """Swing where the opponent's guard is weakest; block or evade first against a strong hitter; retreat
        when one more blow would finish us."""
        fight = state.fight
        n = fight["len"][seat]
        foes = [s for s in fight["members"] if s != seat and state.alive[s] and s not in fight["out"]]
        foe = min(foes, key=lambda s: 10 - state.rev[s]["end"])
        target = None if len(fight["members"]) == 2 else foe
        rev = state.rev[foe]
        swing = 2 if rev["dex"] < rev["str"] else 1
        if rng.random() < 0.25:
            swing = 3 - swing
        guard = 3 if rev["str"] >= 3 else 5
        steps = []
        for i in range(n):
            code = swing
            if i == 0 and rev["str"] >= 3 and n > 1:
                code = guard
            steps.append((code, target if code in (1, 2, 4) else None))
        label = state.wait[2]
        return Plan(label, tuple(steps))


class RandomSkirmishBot(Bot):
    """Uniform among the listed legal actions, except the two that only end its own game: a character of one
    Endurance card, and revealing Endurance when nothing asks for it."""

    name = "random"

    def choose(self, state, seat, known, rng):
        kind = state.wait[0]
        if kind == "move":  # a few candidates, not the whole list: far cheaper, and as random
            here = state.pos[seat]
            q = rng.choice([state.pos[o] for o in range(state.n) if o != seat and state.alive[o]]
                           + [(here[0] + 20 * dx, here[1] + 20 * dy) for dx, dy in state.COMPASS])
            m = state.reach(seat, q, rng.choice(("run", "climb")) if state.can_climb(seat) else "run")
            return m or Word("stay")
        legal = state.legal_actions(seat, known)
        if kind == "build" and not isinstance(legal[0], Dual):
            legal = [a for a in legal if (a.cards >= 2 if a.stat == "end" else a.cards <= 4)] or legal
        elif kind in ("reveal", "dual"):
            legal = [a for a in legal if not any(st == "end" for st, _, _ in a.items)]
        return rng.choice(legal)
