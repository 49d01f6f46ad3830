"""Warlords bots. ``HeuristicBot`` attacks when its strength beats what the defender can likely show,
keeps its Aces for defence (played as a last chance against real damage), and plays a
Reinforcements joker when its draw pile runs low.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from duelmail.games.base import Bot, RandomBot
from duelmail.games.cards import Card, CardRef
from duelmail.games.warlords.notation import (
    Accept,
    Attack,
    Defend,
    EndTurn,
    Exchange,
    Pass,
    PlayAce,
    PlayWarlord,
    Reinforce,
    Support,
    WarlordsAction,
)
from duelmail.games.warlords.rules import (
    A_SUPPORT,
    ACE,
    ARMY,
    D_SUPPORT,
    DEFEND,
    EMERGENCY,
    LAST_CHANCE,
    OUTSIDE,
    PREP,
    RENEWAL,
    SUPPORT,
    WARLORD,
    WarlordsState,
    fits,
    value,
)

__all__ = ["HeuristicBot", "RandomBot"]

UNKNOWN_WARLORD = 2  # a face-down Warlord is worth a Queen on average


class HeuristicBot(Bot):
    name = "heuristic"

    def choose(self, state: WarlordsState, seat: int, known: Mapping[CardRef, Card],
               rng: random.Random) -> WarlordsAction:
        legal = state.legal_actions(seat, known)
        if len(legal) == 1:
            return legal[0]
        view = _View(state, seat, known)
        choice = view.choose()
        return choice if choice in legal else rng.choice(legal)


class _View:
    """What one seat sees, with the few estimates the heuristic needs."""

    def __init__(self, st: WarlordsState, seat: int, known: Mapping[CardRef, Card]):
        self.st, self.seat, self.known = st, seat, known
        self.hand = [(r, known[r]) for r in st.hands[seat] if r in known]

    def cards(self, role: str, real_only: bool = True) -> list[tuple[int, CardRef]]:
        """(value, ref) of hand cards for ``role``, best first; the Hidden Ally only if not ``real_only``."""
        out = [(value(f, role) if role != ACE else 0, r) for r, f in self.hand
               if fits(f, role, self.st.hidden_ally) and not (real_only and f.is_joker)]
        return sorted(out, key=lambda x: (-x[0], x[1]))

    def warlord_value(self, ref: CardRef | None, guess: int = UNKNOWN_WARLORD) -> int:
        if ref is None:
            return 0
        f = self.known.get(ref)
        return value(f, WARLORD) if f is not None else guess

    def best_ready(self, seat: int) -> tuple[int, CardRef | None]:
        ws = [(self.warlord_value(w), w) for w in self.st.ready(seat)]
        return max(ws, key=lambda x: (x[0], x[1])) if ws else (0, None)

    def choose(self) -> WarlordsAction | None:
        p = self.st.phase
        if p == PREP:
            return self.prepare()
        if p == DEFEND:
            return self.defend()
        if p == EMERGENCY:  # W-26: the joker at once, while it can still rescue
            jokers = self.jokers()
            return Reinforce(jokers[0]) if jokers else Pass()
        if p == OUTSIDE:  # W-18: with an Ace to spare, the best Warlord of the seat that attacks us
            return self.outside()
        if p == RENEWAL:  # W-25: the joker at the end of our turn, when the pile runs low
            return Reinforce(self.jokers()[0]) if self.low() and self.jokers() else Pass()
        if p == A_SUPPORT and self.low() and self.jokers() and not self.st.shortcuts:
            return Reinforce(self.jokers()[0])  # W-25: any time during our turn
        if p in (A_SUPPORT, D_SUPPORT):
            sup = self.cards(SUPPORT)
            waive = p == D_SUPPORT and not self.st.shortcuts and not self.cards(ACE, real_only=False)
            if p == D_SUPPORT and self.st.battle.d_army is None:
                return Support(None, waive)
            return Support(sup[0][1] if sup else None, waive)  # no Ace: nothing to wait for (W-20)
        if p == LAST_CHANCE:
            return self.last_chance()
        return None

    def jokers(self) -> list[CardRef]:
        if not self.st.reinforcements:
            return []
        return [r for r, f in self.hand if f.is_joker and fits(f, "Reinforcements joker", self.st.hidden_ally)]

    def low(self) -> bool:
        """Our draw pile runs low and the discards are worth a reinforcement (W-25)."""
        st, seat = self.st, self.seat
        return not st.revenge and len(st.piles[seat]) <= 6 and len(st.discards[seat]) >= 4

    def prepare(self) -> WarlordsAction:
        st, seat = self.st, self.seat
        jokers = self.jokers()
        if jokers and (st.rescue or self.low()):
            return Reinforce(jokers[0])
        lords = self.cards(WARLORD)
        mine = [(self.warlord_value(w, 3), w) for w in st.warlords[seat]]
        if lords and len(mine) < 2:
            return PlayWarlord(lords[0][1])
        if lords and mine:
            worst = min(mine, key=lambda x: (x[0], x[1]))
            if lords[0][0] > worst[0] or (worst[1] in st.used and lords[0][0] >= worst[0]):
                return Exchange(worst[1], lords[0][1])
        if not st.may_attack():
            return EndTurn()
        target = st.target(seat)
        aces = self.cards(ACE)
        theirs = [(self.warlord_value(w, 3), w) for w in st.warlords[target]]
        if len(aces) >= 2 and theirs:
            return PlayAce(aces[0][1], max(theirs, key=lambda x: (x[0], x[1]))[1])
        armies = self.cards(ARMY, real_only=False)
        if not armies:
            return EndTurn()
        bonus, lord = self.best_ready(seat)
        sup = self.cards(SUPPORT)
        mine_strength = armies[0][0] + bonus + (sup[0][0] if sup else 0)
        if mine_strength > self.expected_defence(target):
            return Attack(lord, armies[0][1])
        return EndTurn()

    def expected_defence(self, seat: int) -> float:
        """A rough guess at the defence ``seat`` will show: best Warlord, a typical Army and Support."""
        bonus, _ = self.best_ready(seat)
        h = len(self.st.hands[seat])
        if h == 0:
            return bonus
        return bonus + 6 + min(h, 6) * 0.5 + (1.5 if h >= 3 else 0)

    def defend(self) -> WarlordsAction:
        b = self.st.battle
        bonus, lord = self.best_ready(self.seat)
        armies = self.cards(ARMY)
        aces = self.cards(ACE)
        threat = self.warlord_value(b.a_warlord) + 9
        mine = bonus + (armies[0][0] if armies else 0)
        if aces and b.a_warlord is not None and mine + 3 < threat:
            return PlayAce(aces[0][1])
        others = [w for w in self.st.warlords[b.attacker] if w != b.a_warlord]
        if len(aces) >= 2 and others and not self.st.shortcuts:  # W-18: the other Warlord, before the battle
            return PlayAce(aces[-1][1], max(others, key=lambda w: (self.warlord_value(w, 3), w)))
        return Defend(lord, armies[0][1] if armies else None)

    def outside(self) -> WarlordsAction:
        st = self.st
        aces = self.cards(ACE)
        foe = next((s for s in range(st.n) if s != self.seat and st.active[s] and st.target(s) == self.seat), None)
        theirs = st.warlords[foe] if foe is not None else []
        if len(aces) >= 2 and theirs:
            return PlayAce(aces[-1][1], max(theirs, key=lambda w: (self.warlord_value(w, 3), w)))
        return Pass()

    def last_chance(self) -> WarlordsAction:
        b = self.st.battle
        aces = self.cards(ACE)
        if aces and (b.damage >= 2 or len(self.st.piles[self.seat]) <= b.damage + 1):
            return PlayAce(aces[0][1])
        ally = self.cards(ACE, real_only=False)
        if ally and b.damage >= 3:
            return PlayAce(ally[0][1])
        return Accept()
