"""DUEL skirmish rules (digest ``seeds/skirmish.md``, rules K-1..K-36).

There is no deck: every secret is a sealed choice (protocol §6a). A character is four sealed
``build`` choices, one per stat (labels ``str``, ``spd``, ``end``, ``dex``), so one stat's total can
be opened alone when it is exhausted, plus its sealed start reveal ``d0``. Revealed cards are public
``reveal`` actions, checked against the totals when a stat is shown exhausted and, for every stat, at
the audit. Dual reveals (``dN``) and fight plans (``pN``) are sealed choices several seats commit in
one round and open in the next.

The state is a little interpreter: ``queue`` holds what the rules still have to do this turn
(tasks as tuples), ``wait`` the one input they await now; ``_run`` works through the queue until an
input is needed.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from fractions import Fraction

from duelmail.errors import IllegalMove
from duelmail.games.base import Action, GameState, Outcome, Sealed, Violation, plural
from duelmail.games.skirmish.battlefield import Battlefield, Piece
from duelmail.games.skirmish.geometry import Point, dist2, pfmt, step_away, toward, within
from duelmail.games.skirmish.notation import (
    ACTIONS,
    STAT_NAMES,
    STATS,
    TARGETED,
    Build,
    Cancel,
    Dual,
    Item,
    Move,
    Plan,
    Reveal,
    Smash,
    Throw,
    Word,
)
from duelmail.games.skirmish.render import render_text
from duelmail.games.skirmish.terms import BASE_RADIUS, piece_words

MAX_STAT, MAX_CARDS = 10, 13  # K-2
ENGAGED_MOVE = 2  # the rules version from which an engaged character may move within its melee (K-14)
WHOLE_FIGHT = 3  # the rules version from which the melee it may not leave is its whole fight, not each foe (K-14)
MELEE = Fraction(2)  # K-15: engaged within 2 inches, base edge to base edge
RETREAT = Fraction(5, 2)  # K-25
START = "d0"  # the start reveal, a sealed choice committed with the character (K-3)



class SkirmishState(GameState):
    def __init__(self, nseats: int, field: Battlefield, max_turns: int):
        if len(field.starts) < nseats:
            raise IllegalMove("K-33", f"battlefield {field.name!r} has {len(field.starts)} start points, "
                              f"not enough for {nseats} players")
        self.n = nseats
        self.field = field
        self.max_turns = max_turns
        self.pos: list[Point] = list(field.starts[:nseats])
        self.alive = [True] * nseats
        self.rev = [dict.fromkeys(STATS, 0) for _ in range(nseats)]
        self.flagged: list[set[str]] = [set() for _ in range(nseats)]  # stats claimed exhausted (K-6)
        self.totals: list[dict[str, int]] = [{} for _ in range(nseats)]  # stat commitments opened
        self.built: list[set[str]] = [set() for _ in range(nseats)]
        self.turn = 0
        self.seq = 0  # numbers the sealed labels d1, p2, ...
        self.mark = 0  # numbers the speed reveals, for the tie rule (K-20)
        self.spd_mark = [0] * nseats
        self.gone: set[str] = set()  # terrain pieces removed
        self.placed: dict[str, Point] = {}  # projectiles that landed somewhere else (K-28)
        self.moves: dict[int, tuple[Point, Point, str]] = {}  # this turn's moves, for the pictures
        self.last_move: dict[int, tuple[Point, Point]] = {}  # each seat's last move (from, to): told after it
        self.moved_order: list[int] = []
        self.fighters: set[int] = set()
        self.fight: dict | None = None
        self.queue: list[tuple] = [("build",), ("turn",)]
        self.wait: tuple | None = None
        self.committed: set[int] = set()
        self.opened: set[int] = set()
        self.lines: list[str] = []  # what happened, in words (the last few are rendered)
        self.result: Outcome | None = None
        self._run()

    def clone(self) -> SkirmishState:
        return copy.deepcopy(self, {id(self.field): self.field})

    # -- the interpreter ---------------------------------------------------------------------
    def _say(self, text: str, kind: str = "", seats=(), numbers=(), rule: str = "") -> None:
        """A line of the table's log; with ``kind``, also an outcome told as an event."""
        self.lines.append(text)
        if kind:
            self.tell(kind, text, seats, numbers=numbers, rule=rule)

    def _living(self, seats) -> list[int]:
        return [s for s in seats if self.alive[s]]

    def _groups(self, seats, stat: str) -> list[tuple[int, ...]]:
        """Seats in order of the lowest current ``stat`` first; equal values share a dual reveal (K-9)."""
        out: dict[int, list[int]] = {}
        for s in self._living(seats):
            out.setdefault(self.rev[s][stat], []).append(s)
        return [tuple(out[k]) for k in sorted(out)]

    def _run(self) -> None:
        while self.wait is None and self.result is None and self.queue:
            task = self.queue.pop(0)
            getattr(self, "_t_" + task[0])(*task[1:])
        if self.result is not None:  # the end comes at once; a thrown piece still lands (K-28)
            for task in self.queue:
                if task[0] == "landed":
                    self._t_landed(*task[1:])
            self.wait = None
            self.queue = []

    def _push(self, *tasks: tuple) -> None:
        self.queue[:0] = list(tasks)

    def _t_build(self) -> None:
        self.wait = ("build",)

    def _t_turn(self) -> None:
        if self.turn >= self.max_turns:
            alive = self._living(range(self.n))
            self.result = Outcome((), f"turn limit {self.max_turns} reached with {len(alive)} characters standing "
                                  "(K-34)")
            return
        self.turn += 1
        self.moves, self.moved_order, self.fighters, self.fight = {}, [], set(), None
        self._say(f"turn {self.turn}")
        self._push(*[("reveal", g, STATS, "reveal phase") for g in self._groups(range(self.n), "spd")],
                   ("motion",), ("melee",), ("turn",))

    def _t_reveal(self, seats: tuple[int, ...], stats: tuple[str, ...], why: str) -> None:
        seats = tuple(s for s in self._living(seats) if any(st not in self.flagged[s] for st in stats))
        if not seats:
            return
        if "spd" in stats:
            self.mark += 1
        if len(seats) == 1:
            self.wait = ("reveal", seats[0], stats, why)
        else:
            self.seq += 1
            self.committed, self.opened = set(), set()
            self.wait = ("dual", seats, stats, f"d{self.seq}", why)

    def _t_motion(self) -> None:
        order = sorted(self._living(range(self.n)), key=lambda s: (-self.rev[s]["spd"], (s - self.turn) % self.n))
        self._push(*[("move", s) for s in order])

    def engaged(self, seat: int) -> bool:
        """Within 2 inches (base edge to edge) of another standing character (K-15)."""
        reach = (MELEE + 2 * BASE_RADIUS) ** 2
        return any(dist2(self.pos[seat], self.pos[o]) <= reach for o in self._living(range(self.n)) if o != seat)

    def _t_move(self, seat: int) -> None:
        # K-14: an engaged character moves too, within its melee (rules version 1: it holds its ground)
        if self.alive[seat] and not (self.engaged(seat) and self.plays_before(ENGAGED_MOVE)):
            self.wait = ("move", seat)

    def fights(self) -> list[tuple[int, ...]]:
        """Groups of standing characters linked by 'within 2 inches' (K-15), lowest seat first."""
        reach = (MELEE + 2 * BASE_RADIUS) ** 2
        left = self._living(range(self.n))
        out = []
        while left:
            group, todo = {left[0]}, [left[0]]
            while todo:
                s = todo.pop()
                for o in left:
                    if o not in group and dist2(self.pos[s], self.pos[o]) <= reach:
                        group.add(o)
                        todo.append(o)
            left = [s for s in left if s not in group]
            if len(group) > 1:
                out.append(tuple(sorted(group)))
        return out

    def _t_melee(self) -> None:
        fights = self.fights()
        self.fighters = {s for f in fights for s in f}
        order = sorted(self._living(range(self.n)), key=lambda s: (-self.rev[s]["spd"], s))
        self._push(*[("fight", f) for f in fights], *[("interact", s) for s in order])

    def _t_fight(self, members: tuple[int, ...]) -> None:
        movers = [s for s in self.moved_order if s in members]
        acting = movers[-1] if movers else min(members, key=lambda s: (-self.rev[s]["spd"], s))
        self.fight = {"members": members, "acting": acting, "plans": {}, "len": {},
                      "last": {}, "out": set()}
        self._say(f"fight: {', '.join(f'seat {s}' for s in members)}; seat {acting} acts", "fight",
                  (acting, *(s for s in members if s != acting)), rule="K-15")
        others = tuple(s for s in members if s != acting)
        self._push(("reveal", (acting,), ("spd",), "fight step 1"),
                   ("freveal", "spd", others, "fight step 2"),
                   ("plans",),
                   ("freveal", "spd", members, "fight step 5"),
                   ("freveal", "dex", members, "fight step 6"),
                   ("cancelling",), ("resolve",))

    def _t_freveal(self, stat: str, seats: tuple[int, ...], why: str) -> None:
        self._push(*[("reveal", g, (stat,), why) for g in self._groups(seats, stat)])

    def _in_fight(self) -> list[int]:
        f = self.fight
        return [s for s in f["members"] if self.alive[s] and s not in f["out"]]

    def _t_plans(self) -> None:
        seats = tuple(self._in_fight())
        if len(seats) < 2:
            return
        self.seq += 1
        self.committed, self.opened = set(), set()
        for s in seats:
            self.fight["len"][s] = self.rev[s]["spd"]
        self.wait = ("plan", seats, f"p{self.seq}")

    def _t_cancelling(self) -> None:
        seats = self._in_fight()
        if len(seats) < 2:
            return
        top = max(self.rev[s]["dex"] for s in seats)
        best = [s for s in seats if self.rev[s]["dex"] == top]
        if len(best) == 1 and any(self.fight["plans"].get(s) for s in seats if s != best[0]):
            self.wait = ("cancel", best[0])

    def _t_resolve(self) -> None:
        f = self.fight
        seats = self._in_fight()
        order = sorted(seats, key=lambda s: (-self.rev[s]["spd"], -self.spd_mark[s], s))  # K-20
        longest = max((len(f["plans"].get(s, ())) for s in seats), default=0)
        self._push(*[("act", s, i) for i in range(longest) for s in order if i < len(f["plans"].get(s, ()))])

    def _target(self, seat: int, target: int | None) -> int | None:
        f = self.fight
        if target is None:
            others = [s for s in f["members"] if s != seat]
            target = others[0] if len(f["members"]) == 2 else None
        if target is None or not self.alive[target] or target in f["out"]:
            return None
        return target

    def _t_act(self, seat: int, i: int) -> None:
        f = self.fight
        if not self.alive[seat] or seat in f["out"]:
            return
        code, target = f["plans"][seat][i]
        if code in TARGETED:
            t = self._target(seat, target)
            if t is None:
                self._say(f"seat {seat}'s {ACTIONS[code]} has no target: wasted (K-26)", "wasted", (seat,), rule="K-26")
                return
            f["last"][seat] = code
            self._say(f"seat {seat}: {ACTIONS[code]} at seat {t}")
            if code == 4:
                self._push(("reveal", (seat,), ("str",), "grapple (K-24)"),
                           ("reveal", (t,), ("str",), "grappled (K-24)"), ("hit", seat, t, code))
            else:
                self._push(("reveal", (seat,), ("str",), f"{ACTIONS[code]} (K-21, K-22)"), ("guard", seat, t, code),
                           ("hit", seat, t, code))
            return
        f["last"][seat] = code
        if code == 6:
            self._retreat(seat)
        else:
            self._say(f"seat {seat}: {ACTIONS[code]}")

    def _t_guard(self, seat: int, t: int, code: int) -> None:
        last = self.fight["last"].get(t)
        if code == 1 and last == 3:
            self._push(("reveal", (t,), ("str",), "block (K-23)"))
        elif code == 2 and last == 5:
            self._push(("reveal", (t,), ("dex",), "evade (K-23)"))

    def _t_hit(self, seat: int, t: int, code: int) -> None:
        if not self.alive[t] or not self.alive[seat]:
            return
        dmg = self.rev[seat]["str"]
        last = self.fight["last"].get(t)
        against = ""
        if code == 4:
            dmg -= self.rev[t]["str"]
            against = f" - Strength {self.rev[t]['str']}"
        elif code == 1 and last == 3:
            dmg -= self.rev[t]["str"]
            against = f" - Strength {self.rev[t]['str']} (block)"
        elif code == 2 and last == 5:
            dmg -= self.rev[t]["dex"]
            against = f" - Dexterity {self.rev[t]['dex']} (evade)"
        rule = {1: "K-21", 2: "K-22", 4: "K-24"}[code]
        self._say(f"seat {seat}'s {ACTIONS[code]} hits seat {t}: Strength {self.rev[seat]['str']}{against} = "
                  + (f"{dmg} Endurance to lose" if dmg > 0 else "no damage"), "hit", (seat, t),
                  (self.rev[seat]["str"], max(dmg, 0)), rule)
        self._push(("endure", t, dmg, f"{ACTIONS[code]} by seat {seat}"))

    def _t_endure(self, seat: int, n: int, why: str) -> None:
        if n > 0 and self.alive[seat]:
            self.wait = ("endure", seat, n, why)

    def _retreat(self, seat: int) -> None:
        """K-25: 2.5 inches directly away from the nearest opponent still in the fight."""
        f = self.fight
        opp = [s for s in self._in_fight() if s != seat]
        f["out"].add(seat)
        if not opp:
            return
        near = min(opp, key=lambda s: (dist2(self.pos[seat], self.pos[s]), s))
        to = step_away(self.pos[seat], self.pos[near], RETREAT)
        if not self.field.on_table(to) or any(p.kind == "blocking" and self.shape(p).where(to) == 1
                                              for p in self.pieces()):
            self._say(f"seat {seat} retreats but has nowhere to go: it stays, out of the fight (K-25)", "retreat",
                      (seat,), rule="K-25")
            return
        self.moves[seat] = (self.pos[seat], to, "retreat")
        self.pos[seat] = to
        self._say(f"seat {seat} retreats to {pfmt(to)}", "retreat", (seat,), rule="K-25")

    def _t_interact(self, seat: int) -> None:
        if self.alive[seat] and seat not in self.fighters and self.interactions(seat):
            self.wait = ("interact", seat)

    def _t_landed(self, pid: str, target: int, where: Point) -> None:
        if self.alive[target]:
            self.gone.add(pid)
            self._say(f"the {piece_words(pid)} shatters (K-28)", "thrown", rule="K-28")
        else:
            self.placed[pid] = where
            self._say(f"the {piece_words(pid)} lands {self._near(where, skip=pid)} (K-28)", "thrown", rule="K-28")

    # -- terrain -------------------------------------------------------------------------------
    def pieces(self) -> list[Piece]:
        return [p for p in self.field.pieces if p.id not in self.gone]

    def shape(self, p: Piece):
        return p.shape.moved(self.placed[p.id]) if p.id in self.placed else p.shape

    def touching(self, seat: int, p: Piece) -> bool:
        return within(self.shape(p), self.pos[seat], BASE_RADIUS)  # K-32: base contact

    def interactions(self, seat: int) -> list[Action]:
        out: list[Action] = []
        st = self.rev[seat]["str"]
        for p in self.pieces():
            if not self.touching(seat, p):
                continue
            if p.destructible and st >= p.destructible:
                out.append(Smash(p.id))
            if p.projectile and st > p.projectile:
                for t in self._living(range(self.n)):
                    if t != seat and self.in_range(seat, t, st - p.projectile):
                        out.append(Throw(p.id, t))
        return out

    def in_range(self, seat: int, t: int, inches: int) -> bool:
        """K-29: measured in a straight line, base edge to base edge, over any terrain."""
        return dist2(self.pos[seat], self.pos[t]) <= (inches + 2 * BASE_RADIUS) ** 2

    def check_move(self, seat: int, move: Move) -> None:
        """Raise ``IllegalMove`` unless ``move`` is a legal run or climb for ``seat`` (K-11..K-13, K-30, K-31)."""
        p, to = self.pos[seat], move.to
        stat = "spd" if move.mode == "run" else "dex"
        rule = "K-11" if move.mode == "run" else "K-12"
        if not self.field.on_table(to):
            raise IllegalMove("K-30", f"{move}: {pfmt(to)} is off the {self.field.width}x{self.field.height} table")
        limit = self.rev[seat][stat]
        if dist2(p, to) > limit * limit:
            raise IllegalMove(rule, f"{move}: from {pfmt(p)} that is farther than the {STAT_NAMES[stat]} "
                              f"{limit} inches seat {seat} has revealed")
        for piece in self.pieces():
            sh = self.shape(piece)
            if piece.kind == "blocking" and sh.enters(p, to):
                raise IllegalMove("K-31", f"{move}: crosses blocking terrain {piece.id!r}")
            if move.mode == "run" and piece.kind == "uneven" and sh.enters(p, to):
                raise IllegalMove("K-11", f"{move}: crosses uneven ground {piece.id!r}, which must be climbed")
        if move.mode == "climb" and not any(
                piece.kind == "uneven" and within(self.shape(piece), p, BASE_RADIUS)
                and within(self.shape(piece), to, BASE_RADIUS) for piece in self.pieces()):
            raise IllegalMove("K-12", f"{move}: a climb starts and ends with the base on one piece of uneven "
                              "ground (at the latest touching its far edge)")
        reach = (MELEE + 2 * BASE_RADIUS) ** 2
        if self.plays_before(WHOLE_FIGHT):  # rules version 2: the melee read pairwise, each foe kept
            left = [o for o in self._living(range(self.n))
                    if o != seat and dist2(p, self.pos[o]) <= reach < dist2(to, self.pos[o])]
            if left:  # K-14: once engaged, only a Retreat (6) leaves the melee
                raise IllegalMove("K-14", f"{move}: seat {seat} is engaged with seat {left[0]} and may not leave "
                                  "the melee (only a Retreat does)")
            return
        fight = next((f for f in self.fights() if seat in f), ())
        if fight and not any(o != seat and dist2(to, self.pos[o]) <= reach for o in fight):
            # K-14: once engaged, only a Retreat (6) leaves the melee, the whole fight it is in
            foes = " and ".join(f"seat {o}" for o in fight if o != seat)
            raise IllegalMove("K-14", f"{move}: seat {seat} may not leave the melee with {foes} (only a Retreat "
                              "does); it may move while it stays engaged with one of them")

    def reach(self, seat: int, q: Point, mode: str) -> Move | None:
        """The farthest legal move toward ``q`` (trying the full distance, then 3/4, 1/2, 1/4 of it)."""
        p = self.pos[seat]
        limit = Fraction(self.rev[seat]["spd" if mode == "run" else "dex"])
        for k in range(4, 0, -1):
            to = toward(p, q, limit * k / 4)
            if to == p:
                return None
            m = Move(mode, to)
            try:
                self.check_move(seat, m)
            except IllegalMove:
                continue
            return m
        return None

    def can_climb(self, seat: int) -> bool:
        return any(p.kind == "uneven" and within(self.shape(p), self.pos[seat], BASE_RADIUS) for p in self.pieces())

    COMPASS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))

    def move_options(self, seat: int) -> list[Action]:
        """A sample of legal moves (the plane has too many to list): toward each opponent, the eight compass
        directions and onto or across uneven ground, each as far as the rules allow."""
        p = self.pos[seat]
        targets = [self.pos[o] for o in self._living(range(self.n)) if o != seat]
        targets += [(p[0] + 20 * dx, p[1] + 20 * dy) for dx, dy in self.COMPASS]
        targets += [self.shape(piece).centre() for piece in self.pieces() if piece.kind == "uneven"]
        out: list[Action] = [Word("stay")]
        for mode in ("run", "climb") if self.can_climb(seat) else ("run",):
            for q in targets:
                m = self.reach(seat, q, mode)
                if m is not None and m not in out:
                    out.append(m)
        return out

    # -- the contract ----------------------------------------------------------------------------
    def deciders(self) -> tuple[int, ...]:
        w = self.wait
        if w is None or self.result is not None:
            return ()
        if w[0] == "build":
            return tuple(s for s in range(self.n) if len(self.built[s]) < 5 and s not in self.removed)
        if w[0] in ("dual", "plan"):
            return tuple(s for s in w[1] if s not in self.committed)
        return (w[1],)

    def openings(self) -> Mapping[int, tuple[str, ...]]:
        out: dict[int, list[str]] = {}
        for s in range(self.n):
            if s in self.removed:  # K-37: its totals are opened by the audit (K-35), never awaited
                continue
            for st in sorted(self.flagged[s] - set(self.totals[s])):
                out.setdefault(s, []).append(st)
        w = self.wait
        if w and w[0] in ("dual", "plan") and len(self.committed) == len(w[1]):
            label = w[3] if w[0] == "dual" else w[2]
            for s in w[1]:
                if s not in self.opened:
                    out.setdefault(s, []).append(label)
        return {s: tuple(v) for s, v in out.items()}

    def apply(self, seat: int, action: Action) -> None:
        if self.result is not None:
            raise IllegalMove("K-34", f"{action}: the game is over")
        if seat not in self.deciders():
            raise IllegalMove("K-8", f"{action}: the rules do not wait for seat {seat} ({self.prompt(seat)})")
        w = self.wait
        kind = w[0]
        said = len(self.lines)
        if kind == "build":
            todo = [lb for lb in (*STATS, START) if lb not in self.built[seat]]
            if not isinstance(action, Sealed) or action.label != todo[0]:
                raise IllegalMove("K-2", f"{action}: a character is four sealed choices 'build STAT N' (str, spd, "
                                  f"end, dex in that order), then the sealed start reveal '{START}' (K-3); next: "
                                  f"{todo[0]}")
            self.built[seat].add(action.label)
            self._maybe_built()
        elif kind in ("dual", "plan"):
            label = w[3] if kind == "dual" else w[2]
            if not isinstance(action, Sealed) or action.label != label:
                raise IllegalMove("K-9" if kind == "dual" else "K-17",
                                  f"{action}: the rules wait for a sealed choice labelled {label!r}", seat=seat,
                                  move=str(action), now=self.prompt(seat))
            self.committed.add(seat)
        elif kind == "reveal":
            if not isinstance(action, Reveal):
                raise IllegalMove("K-9", f"{action}: the rules wait for a reveal ({w[3]})", seat=seat, move=str(action),
                                  now=self.prompt(seat))
            self._reveal(seat, action.items, w[2], "K-9")
            self.wait = None
        elif kind == "endure":
            n = w[2]
            if not isinstance(action, Reveal) or [s for s, _, _ in action.items] != ["end"] or not (
                    action.count("end") == n or (action.items[0][2] and action.count("end") < n)):
                raise IllegalMove("K-21", f"{action}: seat {seat} must reveal {n} Endurance (fewer only with '!', "
                                  f"when that exhausts it) after {w[3]}", seat=seat, move=str(action),
                                  must=self.prompt(seat))
            self._reveal(seat, action.items, ("end",), "K-21")
            self.wait = None
        elif kind == "move":
            if isinstance(action, Word) and action.word == "stay":
                pass
            elif isinstance(action, Move):
                self.check_move(seat, action)
                self.moves[seat] = (self.pos[seat], action.to, action.mode)  # told once: by describe()
                self.last_move[seat] = (self.pos[seat], action.to)
                self.pos[seat] = action.to
                self.moved_order.append(seat)
            else:
                raise IllegalMove("K-11", f"{action}: the rules wait for 'run X,Y', 'climb X,Y' or 'stay'", seat=seat,
                                  move=str(action), now=self.prompt(seat))
            self.wait = None
        elif kind == "cancel":
            self._cancel(seat, action)
            self.wait = None
        elif kind == "interact":
            self._interact(seat, action)
            self.wait = None
        self.lines.insert(said, self.describe(seat, action))
        self._run()

    def _maybe_built(self) -> None:
        """K-3: once every character still in the game is built, all open their start reveals together."""
        seats = tuple(s for s in range(self.n) if s not in self.removed)
        if all(len(self.built[s]) == 5 for s in seats):
            self._say("every character is built")
            self.committed, self.opened = set(seats), set()
            self.wait = ("dual", seats, STATS, START, "start")

    # -- a seat removed by escrow (K-37) -----------------------------------------------------------------
    def retired(self) -> frozenset[int]:
        """K-37: a removed seat is out for good; its sealed choices are opened by the audit, never awaited."""
        return frozenset(self.removed)

    def remove(self, seat: int) -> None:
        """K-37: ``seat`` stopped answering and was removed: its character leaves the fight at once, as one whose
        Endurance is exhausted (K-7) but hit by nobody. Whatever the rules awaited from it is dropped (a sealed
        choice it had committed is never opened, and a round of others' sealed choices goes on without it); a
        plan it made does nothing more; one character left wins (K-34)."""
        self._check_removable(seat, self.n, "K-37")
        self.removed = self.removed | {seat}
        self._say(f"seat {seat} stopped answering and is removed: its character leaves the fight (K-37)",
                  "removed", (seat,), rule="K-37")
        if self.alive[seat]:
            self.alive[seat] = False
            alive = self._living(range(self.n))
            if len(alive) <= 1:
                self.result = Outcome(tuple(alive), "last character standing (K-34, K-37)")
        w = self.wait
        if self.result is None and w is not None:
            if w[0] == "build":
                if len(self.built[seat]) < 5:
                    self._maybe_built()
            elif w[0] in ("dual", "plan"):
                if seat in w[1]:
                    seats = tuple(s for s in w[1] if s != seat)
                    self.committed.discard(seat)
                    self.opened.discard(seat)
                    # a plan for a fight with nobody left to fight is never opened (K-17 needs two)
                    done = len(self.opened) == len(seats) or len(seats) < (2 if w[0] == "plan" else 1)
                    self.wait = None if done else (w[0], seats, *w[2:])
            elif w[1] == seat:
                self.wait = None
        self._run()

    def _reveal(self, seat: int, items: tuple[Item, ...], allowed, rule: str) -> None:
        for st, n, _ in items:
            if st not in allowed:
                raise IllegalMove(rule, f"seat {seat} may reveal only {', '.join(STAT_NAMES[a] for a in allowed)} "
                                  f"now, not {STAT_NAMES[st]}")
            if st in self.flagged[seat]:
                raise IllegalMove("K-6", f"seat {seat}'s {STAT_NAMES[st]} is exhausted: nothing is left to reveal")
            if self.rev[seat][st] + n > MAX_STAT:
                raise IllegalMove("K-5", f"seat {seat} would have revealed {self.rev[seat][st] + n} "
                                  f"{STAT_NAMES[st]} cards; nobody has more than {MAX_STAT}")
        if sum(self.rev[seat].values()) + sum(n for _, n, _ in items) > MAX_CARDS:
            raise IllegalMove("K-5", f"seat {seat} would have revealed more than the {MAX_CARDS} cards a character has")
        for st, n, last in items:
            self.rev[seat][st] += n
            if st == "spd":
                self.spd_mark[seat] = self.mark
            if last:
                self.flagged[seat].add(st)
                if st == "end":  # K-7
                    self._remove(seat, "Endurance exhausted")

    def _remove(self, seat: int, why: str) -> None:
        self.alive[seat] = False
        self._say(f"seat {seat} is removed from the game: {why} (K-7)", "out", (seat,), rule="K-7")
        alive = self._living(range(self.n))
        if len(alive) <= 1:
            self.result = Outcome(tuple(alive), "last character standing (K-34)" if alive else "nobody is left "
                                  "standing (K-34)")

    def _cancel(self, seat: int, action: Action) -> None:
        if not isinstance(action, Cancel):
            raise IllegalMove("K-19", f"{action}: the rules wait for 'cancel SEAT:N' or 'cancel none'", seat=seat,
                              move=str(action), now=self.prompt(seat))
        if action.seat is None:
            return
        plans = self.fight["plans"]
        if action.seat == seat or action.seat not in plans or not 1 <= action.index <= len(plans[action.seat]):
            raise IllegalMove("K-19", f"{action}: no such enemy action in this fight")
        steps = plans[action.seat]
        plans[action.seat] = steps[:action.index - 1] + steps[action.index:]  # the later actions move up

    def _interact(self, seat: int, action: Action) -> None:
        if isinstance(action, Word) and action.word == "pass":
            return
        if action not in self.interactions(seat):
            raise IllegalMove("K-27" if isinstance(action, Smash) else "K-28",
                              f"{action}: not possible for seat {seat} (base contact, Strength against weight, "
                              "range)")
        piece = self.field.piece(action.piece)
        if isinstance(action, Smash):
            self.gone.add(piece.id)
            self._say(f"the {piece_words(piece.id)} is smashed: it is gone from the battlefield (K-27)", "smash",
                      (seat,), rule="K-27")
            return
        t = action.target
        dmg = self.rev[seat]["str"] + piece.projectile - self.rev[t]["dex"]
        self._say(f"seat {seat} throws the {piece_words(piece.id)} at seat {t}: Strength {self.rev[seat]['str']} + "
                  f"{piece.projectile} - Dexterity {self.rev[t]['dex']} = "
                  + (f"{dmg} Endurance to lose" if dmg > 0 else "no damage"),
                  "hit", (seat, t), (self.rev[seat]["str"], max(dmg, 0)), "K-28")
        self._push(("endure", t, dmg, f"{piece.id} thrown by seat {seat} (K-28)"), ("landed", piece.id, t, self.pos[t]))

    def apply_open(self, seat: int, label: str, action: Action) -> None:
        if label in STATS:
            if not isinstance(action, Build) or not 1 <= action.cards <= MAX_STAT:
                raise IllegalMove("K-2", f"{action}: a stat has 1 to {MAX_STAT} cards")
            if label not in self.flagged[seat] or action.cards != self.rev[seat][label]:
                raise IllegalMove("K-6", f"seat {seat} showed {STAT_NAMES[label]} exhausted after revealing "
                                  f"{self.rev[seat][label]} cards, but committed to {action.cards}")
            self.totals[seat][label] = action.cards
            self._say(f"seat {seat} shows {STAT_NAMES[label]} exhausted: {plural(action.cards, 'card')}", "stats",
                      (seat,), (action.cards,), "K-6")
            return
        w = self.wait
        if w is None or w[0] not in ("dual", "plan") or (w[3] if w[0] == "dual" else w[2]) != label \
                or seat not in w[1] or seat in self.opened:
            raise IllegalMove("K-9", f"sealed choice {label!r} of seat {seat} is not awaited")
        if w[0] == "dual":
            if label == START:
                self._check_start(action)
            self._reveal(seat, action.items, w[2], "K-9")
            self._say(self.describe(seat, Reveal(action.items)) + f" ({w[4]})", "stats", (seat,), rule="K-9")
        else:
            self._check_plan(seat, action)
            self.fight["plans"][seat] = action.steps
            self._say(f"seat {seat} planned: {str(action).partition(': ')[2]}")
        self.opened.add(seat)
        if len(self.opened) == len(w[1]):
            self.wait = None
            self._run()

    def _check_start(self, action: Dual) -> None:
        if [(st, n) for st, n, _ in action.items] != [(st, 1) for st in STATS]:
            raise IllegalMove("K-3", f"{action}: the start reveals exactly one card of each stat "
                              f"('dual {START}: str1 spd1 end1 dex1', with '!' on a stat of one card)")

    def check_sealed(self, seat: int, action: Action, own: Mapping[str, Action]) -> None:
        """The author's own checks before sealing: legal totals (K-2), the start's shape (K-3), no reveal beyond a
        total and every exhaustion marked (K-5, K-6), a plan's length and targets (K-17)."""
        builds = {a.stat: a.cards for a in own.values() if isinstance(a, Build)}
        if isinstance(action, Build):
            builds[action.stat] = action.cards
            if not 1 <= action.cards <= MAX_STAT:
                raise IllegalMove("K-2", f"{action}: a stat has 1 to {MAX_STAT} cards")
            todo = len(STATS) - len(builds)  # stats still to build, at least one card each
            if sum(builds.values()) + todo > MAX_CARDS:
                rest = f" and at least {todo} for the {plural(todo, 'stat')} still to build" if todo else ""
                built = ", ".join(f"build {st} {builds[st]}" for st in STATS if st in builds)
                raise IllegalMove("K-2", f"{built}: the character would have {sum(builds.values())} "
                                  f"cards{rest}, more than {MAX_CARDS}")
        elif isinstance(action, Dual):
            if action.label == START:
                self._check_start(action)
            for st, n, last in action.items:
                if st not in builds:
                    continue
                now = self.rev[seat][st] + n
                if now > builds[st]:
                    raise IllegalMove("K-5", f"{action}: seat {seat} has only {builds[st]} {STAT_NAMES[st]} cards")
                if last != (now == builds[st]):
                    raise IllegalMove("K-6", f"{action}: {STAT_NAMES[st]} is exhausted exactly when all "
                                      f"{builds[st]} cards are revealed ('!' then, and only then)")
        elif isinstance(action, Plan) and self.fight and seat in self.fight["len"]:
            self._check_plan(seat, action)

    def _check_plan(self, seat: int, plan: Plan) -> None:
        """K-17: one action per point of speed; a target seat per attack when more than two fight."""
        want = self.fight["len"][seat]
        if len(plan.steps) != want:
            raise IllegalMove("K-17", f"{plan}: seat {seat} has speed {want}, so its plan has {want} actions, "
                              f"not {len(plan.steps)}")
        members = self.fight["members"]
        for code, t in plan.steps:
            if len(members) == 2 or code not in TARGETED:
                if t is not None:
                    raise IllegalMove("K-17", f"{plan}: only attacks in a fight of three or more name a target")
            elif t is None or t == seat or t not in members:
                raise IllegalMove("K-17", f"{plan}: each attack names an opponent in this fight "
                                  f"({', '.join(str(m) for m in members if m != seat)})")

    # -- hidden information: none in decks ---------------------------------------------------------
    def visibility(self):
        return {}

    def reveal(self, ref, face):
        return []

    def public_faces(self):
        return {}

    def audit_sealed(self, choices: Mapping[tuple[int, str], Action]) -> list[Violation]:
        """K-35: every character was legal, no seat revealed more of a stat than it had, every exhaustion shown."""
        out = []
        for s in range(self.n):
            built = {lb: a.cards for (seat, lb), a in choices.items() if seat == s and lb in STATS
                     and isinstance(a, Build)}
            if len(built) == 4 and (sum(built.values()) > MAX_CARDS or not all(1 <= v <= MAX_STAT
                                                                                 for v in built.values())):
                out.append(Violation(s, "K-2", f"seat {s} built a character of {sum(built.values())} cards "
                                     f"({', '.join(f'{k} {v}' for k, v in built.items())}): 1 to {MAX_STAT} a stat, "
                                     f"at most {MAX_CARDS} in all"))
            for st, total in built.items():
                r = self.rev[s][st]
                if r > total:
                    out.append(Violation(s, "K-5", f"seat {s} revealed {r} {STAT_NAMES[st]} cards but committed to "
                                         f"{total}"))
                elif r == total and st not in self.flagged[s]:
                    out.append(Violation(s, "K-6", f"seat {s} revealed all {total} {STAT_NAMES[st]} cards without "
                                         "showing the stat exhausted"))
                elif st in self.flagged[s] and r != total:
                    out.append(Violation(s, "K-6", f"seat {s} claimed {STAT_NAMES[st]} exhausted at {r} cards but "
                                         f"committed to {total}"))
        return out

    # -- the end -------------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def default_action(self, seat: int) -> Action | None:
        """What a timeout plays: nothing revealed, no move, no cancel, no interaction (K-36)."""
        w = self.wait
        if w is None or seat not in self.deciders():
            return None
        return {"reveal": Reveal(()), "move": Word("stay"), "cancel": Cancel(None),
                "interact": Word("pass")}.get(w[0])

    # -- choices -------------------------------------------------------------------------------------------
    def own_totals(self, known) -> dict[str, int]:
        """The seat's own committed totals, from its sealed choices (``Known.sealed``), if it can see them."""
        return {a.stat: a.cards for a in getattr(known, "sealed", {}).values() if isinstance(a, Build)}

    def _items(self, seat: int, stat: str, n: int, totals: Mapping[str, int]) -> Item:
        return (stat, n, stat in totals and self.rev[seat][stat] + n == totals[stat])

    def reveal_options(self, seat: int, allowed, totals: Mapping[str, int]) -> list[tuple[Item, ...]]:
        out: list[tuple[Item, ...]] = [()]
        for st in allowed:
            if st in self.flagged[seat]:
                continue
            left = totals[st] - self.rev[seat][st] if st in totals else MAX_STAT - self.rev[seat][st]
            for n in range(1, left + 1):
                out.append((self._items(seat, st, n, totals),))
        return out

    def legal_actions(self, seat: int, known) -> list[Action]:
        w = self.wait
        if w is None or seat not in self.deciders():
            return []
        totals = self.own_totals(known)
        kind = w[0]
        if kind == "build":
            todo = [st for st in STATS if st not in self.built[seat]]
            if not todo:
                return [Dual(START, tuple(self._items(seat, st, 1, totals) for st in STATS))]
            used = sum(totals.get(st, 0) for st in self.built[seat])
            top = min(MAX_STAT, MAX_CARDS - used - (len(todo) - 1))
            return [Build(todo[0], k) for k in range(1, top + 1)]
        if kind == "reveal":
            return [Reveal(i) for i in self.reveal_options(seat, w[2], totals)]
        if kind == "dual":
            return [Dual(w[3], i) for i in self.reveal_options(seat, w[2], totals)]
        if kind == "endure":
            n, left = w[2], totals.get("end", MAX_STAT) - self.rev[seat]["end"]
            return [Reveal((("end", n, n == left),))] if left >= n else [Reveal((("end", left, True),))]
        if kind == "move":
            return self.move_options(seat)
        if kind == "plan":
            return self.plan_options(seat, w[2])
        if kind == "cancel":
            return [Cancel(None)] + [Cancel(s, i + 1) for s, plan in sorted(self.fight["plans"].items()) if s != seat
                                     for i in range(len(plan))]
        if kind == "interact":
            return [Word("pass"), *self.interactions(seat)]
        return []

    def plan_options(self, seat: int, label: str) -> list[Action]:
        """A sample of plans (6**speed is too many to list): one action repeated, and a few alternations."""
        n = self.fight["len"][seat]
        members = self.fight["members"]
        foes: list[int | None] = [None] if len(members) == 2 else [s for s in self._in_fight() if s != seat]
        out: list[Action] = []
        for t in foes:
            for pattern in ((1,), (2,), (3,), (4,), (5,), (6,), (1, 3), (2, 5), (3, 1), (4, 5), (1, 2)):
                steps = tuple((pattern[i % len(pattern)], t if pattern[i % len(pattern)] in TARGETED else None)
                              for i in range(n))
                out.append(Plan(label, steps))
        return list(dict.fromkeys(out))

    def warning(self, seat: int, action: Action, known) -> str | None:
        """Beyond a move that ends the game against its player: a reveal that exhausts its own Endurance removes its
        character (K-7), and a build of 1 Endurance card does so at the start, where one card of each stat is shown
        (K-3)."""
        items = action.items if isinstance(action, Reveal | Dual) else ()
        if any(st == "end" and last for st, _, last in items):
            said = super().warning(seat, action, known)
            return said or "removes your character from the game: its Endurance is exhausted (K-7)"
        if isinstance(action, Build) and action.stat == "end" and action.cards == 1:
            return ("removes your character at the start: its one Endurance card is shown then, and is exhausted at "
                    "once (K-3, K-7)")
        return super().warning(seat, action, known)

    # -- words ------------------------------------------------------------------------------------------------
    def prompt(self, seat: int) -> str:
        w = self.wait
        if self.result is not None:
            return "the game is over"
        if w is None or seat not in self.deciders():
            opens = self.openings().get(seat)
            return ("show your sealed choice" if len(opens) == 1 else "show your sealed choices") if opens else \
                "nothing"
        kind = w[0]
        if kind == "build":
            todo = [STAT_NAMES[st] for st in STATS if st not in self.built[seat]]
            start = ("then choose the cards shown at the start, one of each stat, sealed until both have chosen "
                     "(a stat of one card is exhausted at once)")
            return (f"build your character in secret: 1 to 10 cards each for {', '.join(todo)}, 13 in all, "
                    if todo else "") + start
        if kind == "reveal":
            return f"{w[3]}: reveal any {'/'.join(STAT_NAMES.get(s, s) for s in w[2])} cards, or none"
        if kind == "dual":
            return f"{w[4]}: choose which cards to show, sealed until every choice is in, or none"
        if kind == "endure":
            return f"reveal {w[2]} Endurance after {w[3]} (fewer if that exhausts it)"
        if kind == "move":
            return f"move: run up to {plural(self.rev[seat]['spd'], 'inch', 'inches')}, climb up to " \
                   f"{plural(self.rev[seat]['dex'], 'inch', 'inches')}, or stay"
        if kind == "plan":
            return f"plan {self.fight['len'][seat]} fight actions (swing high, swing low, block, grapple, evade, " \
                   "retreat), sealed until every plan is in"
        if kind == "cancel":
            return "you have the highest Dexterity: cancel one action of another fighter's plan, or none"
        if kind == "interact":
            return "interact with the terrain, or pass"
        return "nothing"

    def whereabouts(self, seat: int) -> str:
        """Where a character stands, in words: how far from the terrain piece or fighter nearest to it (``3 in from
        the well``, ``by the gate`` within an inch), never a coordinate."""
        return self._near(self.pos[seat], seat)

    def _near(self, at: Point, seat: int | None = None, skip: str = "") -> str:
        marks = [(f"seat {t}", self.pos[t]) for t in self._living(range(self.n)) if t != seat]
        marks += [(f"the {piece_words(p.id)}", self.shape(p).centre()) for p in self.pieces() if p.id != skip]
        if not marks:
            return "alone on the field"
        d2, what = min((dist2(at, where), what) for what, where in marks)
        return f"by {what}" if d2 <= 1 else f"{_inches(d2)} from {what}"

    def whither(self, seat: int, to: Point) -> str:
        """Where a move goes, in words: how far, and toward (or away from) the fighter or terrain piece it nears
        most, with how far from it that ends: ``4 in toward seat 1 (then 3 in away)``, never a coordinate."""
        start = self.pos[seat]
        if start == to and self.last_move.get(seat, (None, None))[1] == to:
            start = self.last_move[seat][0]  # told after the move: from where it started
        marks = [(f"seat {t}", self.pos[t]) for t in self._living(range(self.n)) if t != seat]
        marks += [(f"the {piece_words(p.id)}", self.shape(p).centre()) for p in self.pieces()]
        if not marks:
            return f"{_inches(dist2(start, to))}"
        nearer = [(round(float(dist2(to, at)) ** 0.5 - float(dist2(start, at)) ** 0.5, 2), dist2(to, at), what)
                  for what, at in marks]  # in inches, not squared: the mark it comes nearest to, the closest on a tie
        gain, left, what = min(nearer)
        if gain < 0:
            return f"{_inches(dist2(start, to))} toward {what} (then {_inches(left)} away)"
        what, at = marks[0]
        return f"{_inches(dist2(start, to))} away from {what} (then {_inches(dist2(to, at))} away)"

    def describe(self, seat: int, action: Action) -> str:
        if isinstance(action, Sealed):
            what = "sets a stat total" if action.label in STATS else "plans the fight" if action.label[0] == "p" \
                else "chooses the cards shown at the start" if action.label == START else "chooses which cards to show"
            return f"seat {seat} {what}, sealed until every choice is in"
        if isinstance(action, Build):  # a secret choice: said so only to its author (the list of legal moves)
            return f"seat {seat} gives {STAT_NAMES[action.stat]} {plural(action.cards, 'card')} (secret until shown)"
        if isinstance(action, Dual):
            shown = ", ".join(f"{n} {STAT_NAMES[s]}{' (exhausted)' if last else ''}" for s, n, last in action.items)
            what = "the start" if action.label == START else "this dual reveal"
            return f"seat {seat} chooses to show {shown or 'nothing'} at {what} (sealed until both have chosen)"
        if isinstance(action, Plan):
            steps = ", ".join(ACTIONS[a] + (f" at seat {t}" if t is not None else "") for a, t in action.steps)
            return f"seat {seat} plans {steps} (sealed until every plan is in)"
        if isinstance(action, Reveal):
            return f"seat {seat} reveals " + (", ".join(f"{n} {STAT_NAMES[s]}{' (exhausted)' if last else ''}"
                                                        for s, n, last in action.items) or "nothing")
        if isinstance(action, Move):
            return f"seat {seat} {'runs' if action.mode == 'run' else 'climbs'} {self.whither(seat, action.to)}"
        if isinstance(action, Word):
            return f"seat {seat} {'stays put' if action.word == 'stay' else 'passes'}"
        if isinstance(action, Cancel):
            return f"seat {seat} cancels " + ("nothing" if action.seat is None else
                                              f"seat {action.seat}'s action {action.index}")
        if isinstance(action, Smash):
            return f"seat {seat} smashes the {piece_words(action.piece)}"
        if isinstance(action, Throw):
            return f"seat {seat} throws the {piece_words(action.piece)} at seat {action.target}"
        return f"seat {seat}: {action}"

    def render(self, seat: int | None, known) -> str:
        return render_text(self, seat, known)

    def picture(self, seat: int | None, known, names: Sequence[str] | None = None) -> str:
        from duelmail.games.skirmish.picture import picture as draw_picture  # the SVG code, only when drawn

        return draw_picture(self, seat, known, names)


def _inches(d2: Fraction) -> str:
    """A distance given squared, in inches to the half inch: ``4 in``, ``2.5 in``."""
    halves = round(2 * float(d2) ** 0.5)
    return f"{halves // 2}{'.5' if halves % 2 else ''} in"
