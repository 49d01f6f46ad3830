"""Grid Duel bots. ``HeuristicBot`` scores every legal action from what its seat can see, in one pass:
take spaces it can hold, capture what it surely beats, finish battles, aim Strikes at battles and
Boosts at its own spaces, bluff with face-down cards, and end the game as soon as it is ahead.

Enemy cards it cannot see are judged by the enemy deck's remaining cards (deck lists are public).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from math import comb

from duelmail.games.base import Bot, RandomBot
from duelmail.games.cards import Card, CardRef
from duelmail.games.grid.library import CardDef
from duelmail.games.grid.notation import FREE, Concede, End, GridAction, Move, Orient, Pass, Place, Reveal
from duelmail.games.grid.rules import ORTH, GridState, aim, pos_index, seat_of

__all__ = ["HeuristicBot", "RandomBot"]


class HeuristicBot(Bot):
    name = "heuristic"

    def choose(self, state: GridState, seat: int, known: Mapping[CardRef, Card],
               rng: random.Random) -> GridAction:
        legal = state.legal_actions(seat, known)
        if len(legal) == 1:
            return legal[0]
        view = _View(state, seat, known)
        free = [a for a in legal if isinstance(a, FREE)]
        if free and isinstance(free[0], Orient):
            return _best(free, view, rng)
        if free:
            a = _best(free, view, rng)
            if view.value(a) > 0.4:
                return a
        return _best([a for a in legal if not isinstance(a, FREE)] or legal, view, rng)


def _best(actions: list[GridAction], view: _View, rng: random.Random) -> GridAction:
    scored = [(view.value(a), i) for i, a in enumerate(actions)]
    top = max(v for v, _ in scored)
    return actions[rng.choice([i for v, i in scored if v >= top - 1e-9])]


class _View:
    """One seat's picture of the table, with the estimates the heuristic needs."""

    def __init__(self, st: GridState, seat: int, known: Mapping[CardRef, Card]):
        self.st, self.me, self.opp, self.known = st, seat, 1 - seat, known
        deck = st.defs[self.opp]
        seen = {known[r] for r in known if seat_of(r) == self.opp}
        pool = [d for f, d in deck.items() if f not in seen]
        self.pool = sorted(d.strength for d in pool) or [0]
        self.mean = sum(self.pool) / len(self.pool)
        self.snare = sum(d.rare == "snare" for d in pool) / max(1, len(pool))
        h = len(st.hands[self.opp])
        self.threat = _expected_max(self.pool, h) if h else 0.0
        # Strike and Boost totals at every position, from face-up oriented cards
        self.strike = [[0] * 25, [0] * 25]
        self.boost = [[0] * 25, [0] * 25]
        for r in st.where:
            d = st.card(r)
            if d is not None and d.has_arrows:
                for q in st.targets(r):
                    self.strike[seat_of(r)][q] += d.strike
                    self.boost[seat_of(r)][q] += d.boost
        self.end_now = st.end_allowed()

    def card(self, r: CardRef) -> CardDef | None:
        return self.st.card(r, self.known)

    # -- strengths --------------------------------------------------------------------------
    def defence(self, p: int, extra: int = 0) -> tuple[int, int]:
        """(known defence, number of unseen defenders) of the space at ``p``."""
        sp = self.st.spaces[p]
        total, unseen = self.boost[sp.owner][p] + extra, 0
        for r in sp.defending():
            d = self.card(r)
            if d is None:
                unseen += 1
            else:
                total += d.strength + (2 if d.rare == "rooted" else 0)
        return total, unseen

    def attack(self, p: int) -> int:
        sp = self.st.spaces[p]
        total = self.strike[1 - sp.owner][p]
        for u in sp.attack:
            for r in u:
                d = self.card(r)
                total += 0 if d is None else d.strength + (2 if d.rare == "siege" else 0)
        return total

    def p_win(self, atk: int, p: int) -> float:
        base, unseen = self.defence(p)
        if not unseen:
            return 1.0 if atk >= base else 0.0
        need = atk - base - (unseen - 1) * self.mean
        ok = sum(1 for s in self.pool if s <= need) / len(self.pool)
        return ok * (1 - self.snare) ** unseen

    def risk(self, strength: int) -> float:
        """How likely the enemy's best hand card takes a space defended with ``strength``."""
        if self.threat <= 0:
            return 0.0
        return max(0.0, min(1.0, (self.threat - strength + 1.5) / 4))

    # -- arrows -----------------------------------------------------------------------------
    def arrow_value(self, d: CardDef, p: int, o: int, moving_from: int | None = None) -> float:
        st, me = self.st, self.me
        v = 0.0
        for q in aim(p, d.arrows, o, me):
            sp = st.spaces.get(q)
            if sp is None:
                v += 0.05 * (d.strike + d.boost)
                continue
            if d.strike:
                if sp.owner != me and sp.attack:
                    base, _ = self.defence(q)
                    v += 2.5 if self.attack(q) < base <= self.attack(q) + d.strike else 0.3 * d.strike
                elif sp.owner != me:
                    v += 0.2 * d.strike
            if d.boost and sp.owner == me:
                v += (0.5 if sp.attack else 0.15) * d.boost
        return v

    # -- actions ------------------------------------------------------------------------------
    def value(self, a: GridAction) -> float:
        t = type(a)
        if t is Place:
            return self.place(a)
        if t is Move:
            return self.move(a)
        if t is End:
            return self.ending()
        if t is Reveal:
            d = self.card(a.card)
            if d is None or d.rare == "snare":
                return -1.0
            if not d.has_arrows:
                return -0.3 + (0.8 if d.rare == "scout" else 0.0)
            return self.arrow_value(d, self.st.where[a.card], a.orient) - 0.2
        if t is Orient:
            d = self.card(a.card)
            return self.arrow_value(d, self.st.where[a.card], a.orient) if d is not None else 0.0
        if t is Concede:
            return -5.0
        if t is Pass:
            return -50.0
        return 0.0

    def place(self, a: Place) -> float:
        st, me = self.st, self.me
        d = self.card(a.card)
        if d is None:
            return -10.0
        p = pos_index(a.to)
        sp = st.spaces.get(p)
        arrows = 0.0 if a.hidden or not d.has_arrows else self.arrow_value(d, p, a.orient)
        if a.how == "play" and sp is None:
            strength = d.strength + (2 if d.rare == "rooted" else 0) + self.boost[me][p]
            v = 1.0 - 1.1 * self.risk(strength + (1 if a.hidden else 0)) + 0.04 * d.strength
            if d.rare == "snare":
                v += 0.6 if a.hidden else -0.5
            elif d.has_arrows:
                v += arrows if not a.hidden else 0.1
            elif a.hidden:
                v += 0.15
            return v - 0.05 * len(d.abilities())
        if a.how == "play":
            atk = d.strength + (2 if d.rare == "siege" else 0) + self.attack(p) + arrows
            if sp.attack:
                base, _ = self.defence(p)
                if atk >= base:
                    return 2.2 - 0.04 * (atk - base)
                return -0.4 + 0.3 * atk / max(1, base)
            pw = self.p_win(atk, p)
            return pw * (2.2 - 0.03 * max(0, atk - self.mean)) - (1 - pw) * 0.6
        # ally or merge onto a space of ours
        base, _ = self.defence(p)
        gain = d.strength + (self.boost[me][p] if a.how == "merge" else 0)
        if sp.attack:
            a_now = self.attack(p)
            return 0.5 + (0.8 if a_now + self.threat >= base and a_now + self.threat < base + gain else 0.0)
        v = 0.1 + 1.1 * (self.risk(base) - self.risk(base + gain)) + arrows * 0.5
        if a.how == "merge" and not sp.allies:
            unit = sum(x.strength + (2 if x.rare == "siege" else 0) for r in sp.holder if (x := self.card(r)))
            before = max((self.p_win(unit + self.attack(q), q) for q in self.targets_near(p)), default=0.0)
            after = max((self.p_win(unit + gain + self.attack(q), q) for q in self.targets_near(p)), default=0.0)
            v += 0.9 * (after - before)
        return v

    def targets_near(self, p: int) -> list[int]:
        """Enemy spaces next to ``p`` (where a unit at ``p`` could attack by moving)."""
        return [q for q in ORTH[p] if (t := self.st.spaces.get(q)) is not None and t.owner != self.me]

    def move(self, a: Move) -> float:
        st, me = self.st, self.me
        q = pos_index(a.to)
        unit = st.spaces[pos_index(a.frm)].holder if a.card is None else [a.card]  # an Ally stepping off (G-23)
        defs = [self.card(r) for r in unit]
        tgt = st.spaces.get(q)
        if tgt is None:
            return -0.2
        atk = sum(d.strength + (2 if d.rare == "siege" else 0) for d in defs if d is not None) + self.attack(q)
        if tgt.attack:
            base, _ = self.defence(q)
            return 1.0 if atk >= base else -1.0
        pw = self.p_win(atk, q)
        return pw * 1.1 - (1 - pw) * 1.3 + (0.3 if not st.hands[me] else 0.0)

    def ending(self) -> float:
        st = self.st
        count, total = [0, 0], [0.0, 0.0]
        for sp in st.spaces.values():
            count[sp.owner] += 1
            for r in sp.defending():
                d = self.card(r)
                total[sp.owner] += d.strength if d is not None else self.mean
        me, opp = self.me, self.opp
        if count[me] != count[opp]:
            return 100.0 if count[me] > count[opp] else -100.0
        return 50.0 if total[me] > total[opp] + 0.5 else -50.0


def _expected_max(pool: list[int], h: int) -> float:
    """Expected best of ``h`` cards drawn from ``pool`` (sorted ascending) without replacement."""
    n = len(pool)
    h = min(h, n)
    total = comb(n, h)
    return sum(s * comb(i, h - 1) for i, s in enumerate(pool)) / total if total else 0.0
