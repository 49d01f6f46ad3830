"""Summoner bots. ``HeuristicBot`` claims the instant win whenever it can, doubles its cards, summons the
strongest cards the turn's 14 allow, attacks only where it wins (or trades against a strong card),
uses the replacement rule to weaken the opponent's winners or to attack again, keeps a card on its
field, spends a joker only on a strong card or a heavy blow, and never plays a card it would have to
replace from an empty draw pile.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from duelmail.games.base import Bot, RandomBot
from duelmail.games.cards import Card, CardRef
from duelmail.games.summoner.notation import (
    Attack,
    Counter,
    Double,
    End,
    Joker,
    Look,
    Pass,
    Replace,
    Stop,
    Summon,
    SummonerAction,
    Take,
    Win,
)
from duelmail.games.summoner.rules import (
    ANSWER,
    BATTLE,
    CHAIN,
    CLAIM,
    MAX_UNITS,
    PRE,
    SUMMON_BUDGET,
    WINDOW,
    SummonerState,
    combined_value,
)

__all__ = ["HeuristicBot", "RandomBot"]

STRONG = 12  # a card worth a joker
HEAVY_BLOW = 25  # direct damage worth a joker
LOOK_ROOM = 6  # look at this turn's draws (S-6) only with this much summoning budget left and room on the field


class HeuristicBot(Bot):
    name = "heuristic"

    def choose(self, state: SummonerState, seat: int, known: Mapping[CardRef, Card],
               rng: random.Random) -> SummonerAction:
        legal = state.legal_actions(seat, known)
        if len(legal) == 1:
            return legal[0]
        choice = _Plan(state, seat, legal).choose()
        return choice if choice in legal else rng.choice(legal)


class _Plan:
    def __init__(self, st: SummonerState, seat: int, legal: list[SummonerAction]):
        self.st, self.seat, self.legal = st, seat, legal
        self.other = 1 - seat
        self.by_type: dict[type, list] = {}
        for a in legal:
            self.by_type.setdefault(type(a), []).append(a)

    def of(self, kind: type) -> list:
        return self.by_type.get(kind, [])

    def choose(self) -> SummonerAction:
        st, p = self.st, self.st.phase
        dry = not st.pile  # any card played now would need a draw from an empty pile (S-7)
        if p == ANSWER:
            total = sum(v for _, v in st.pending)
            stops = self.of(Stop)
            if stops and not dry and (total >= st.life[self.seat] or total >= HEAVY_BLOW):
                return stops[0]
            return Take()
        if p == CLAIM:
            return (self.of(Counter) or [Pass()])[0]
        if self.of(Win) and not dry:  # S-22: in any answer too, unless the mail-shortcuts option forbids it
            return self.of(Win)[0]
        if p == WINDOW:
            return self.answer_window(dry)
        if p == CHAIN:
            return self.answer_chain(dry)
        return self.turn(dry)

    def answer_window(self, dry: bool) -> SummonerAction:
        """A direct attack: stop it with a joker if it is lethal or heavy (S-21). A battle won by the opponent:
        weaken its winner with a card from our hand, as in the source's first example (S-18)."""
        st = self.st
        if dry:
            return Pass()
        if st.window[0] == "direct":
            strength = st.window[2]
            stops = self.of(Stop)
            if stops and (strength >= st.life[self.seat] or strength >= HEAVY_BLOW // 2):
                return stops[0]
            return Pass()
        for r in self.of(Replace):
            side = st.unit_of(r.winner)
            if side and side[0] == self.other and st.value(side[1]) > r.face.rank:
                return r
        return Pass()

    def answer_chain(self, dry: bool) -> SummonerAction:
        st, ch = self.st, self.st.chain
        counters = self.of(Counter)
        if not counters or dry:
            return Pass()
        holds = len(ch.jokers) % 2 == 1
        if ch.kind == "destroy":
            hit = st.unit_of(ch.target[0])
            stake = st.value(hit[1]) if hit else 0
            mine = hit is not None and hit[0] == self.seat
            if (mine and holds) or (not mine and not holds):
                return counters[0] if stake >= STRONG - 1 else Pass()
            return Pass()
        total = sum(v for _, v in st.pending) if st.window is None else st.window[2]
        stopper = ch.starter
        if (stopper == self.seat and not holds) or (stopper != self.seat and holds):
            return counters[0] if total >= HEAVY_BLOW or total >= st.life[stopper] else Pass()
        return Pass()

    def turn(self, dry: bool) -> SummonerAction:
        st, seat, other = self.st, self.seat, self.other
        if self.of(Win) and not dry:
            return self.of(Win)[0]
        if dry:
            return self.attack() or End()
        # the defender's replacements of the opponent's winners (S-18), example 1 of the source
        for r in self.of(Replace):
            side = st.unit_of(r.winner)
            if side and side[0] == other:
                return r
        if self.of(Double):
            return max(self.of(Double), key=lambda a: a.face.rank)
        theirs = st.field[other]
        if st.phase in (PRE, BATTLE):
            if st.phase == PRE:
                joker = self.destroy()
                if joker is not None:
                    return joker
                s = self.summon(attacking=True)
                if s is not None:
                    return s
            again = self.replace_own_winner()
            if again is not None:
                return again
            hit = self.attack()
            if hit is not None:
                return hit
        # post-summoning: weaken what beat us, then keep a guard on the field
        for r in self.of(Replace):
            side = st.unit_of(r.winner)
            if side and side[0] == other:
                return r
        if len(st.field[seat]) < 2 or (theirs and max(st.value(u) for u in theirs) >= 10):
            s = self.summon(attacking=False)
            if s is not None:
                return s
        if self.of(Look) and SUMMON_BUDGET - st.budget >= LOOK_ROOM and len(st.field[seat]) < MAX_UNITS:
            return Look()  # S-6: the card just drawn might still be summoned this turn
        return End()

    def summon(self, attacking: bool) -> SummonerAction | None:
        """The strongest card the turn's budget allows, if it would be useful."""
        options = self.of(Summon)
        if not options:
            return None
        best = max(options, key=lambda a: (a.face.rank, str(a.card)))
        if attacking:
            theirs = [self.st.value(u) for u in self.st.field[self.other]]
            if theirs and best.face.rank <= min(theirs) and len(self.st.field[self.seat]) >= 2:
                return None
        return best

    def destroy(self) -> SummonerAction | None:
        """A joker for a strong card that none of ours can beat."""
        st = self.st
        jokers = self.of(Joker)
        if not jokers:
            return None
        mine = [st.value(u) for u in st.ready_units(self.seat)]
        best = max(mine, default=0)
        targets = []
        for a in jokers:
            hit = st.unit_of(a.target)
            v = st.value(hit[1])
            if v >= STRONG and v >= best:
                targets.append((v, a))
        if not targets:
            return None
        return max(targets, key=lambda x: (x[0], str(x[1])))[1]

    def replace_own_winner(self) -> SummonerAction | None:
        """Example 2 of the source: a fresh, weaker card in our winner's place may attack again."""
        st = self.st
        if st.phase != BATTLE:
            return None
        theirs = [st.value(u) for u in st.field[self.other]]
        for r in self.of(Replace):
            side = st.unit_of(r.winner)
            if side and side[0] == self.seat and (not theirs or any(r.face.rank > v for v in theirs)):
                return r
        return None

    def attack(self) -> SummonerAction | None:
        attacks = self.of(Attack)
        if not attacks:
            return None
        st = self.st
        best, score = None, 0.0
        for a in attacks:
            units = [st.unit_of(r)[1] for r in a.attackers]
            strength = combined_value(st.value(units[0]), len(units))
            if a.target is None:
                s = 100.0 + strength
            else:
                defence = st.value(st.unit_of(a.target)[1])
                if strength > defence:
                    s = 50.0 + defence - 0.5 * sum(st.value(u) for u in units) / len(units) - 3 * (len(units) - 1)
                elif strength == defence and defence >= 10 and len(units) == 1:
                    s = 5.0 + defence / 10
                else:
                    continue
            if s > score:
                best, score = a, s
        return best
