"""Wizard Duel bots. ``HeuristicBot`` strikes with two face cards whenever it can, otherwise attacks with a
strong pair (or any pair once its hand is large) at the player closest to elimination, defends with as
few cards as it can, preferring a backfire, then a deflection at the weakest other player, a
counterspell and last a protection, and takes the blow only when it has no defence. In games of five or
more players it spends every pair once the stock runs low, since such games otherwise mostly end drawn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from duelmail.games.base import Bot, RandomBot
from duelmail.games.cards import Card, CardRef
from duelmail.games.wizard.notation import Attack, Defend, Pass, Take, WizardAction
from duelmail.games.wizard.rules import DEFEND, RETARGET, WINDOW, WizardState, attack_value, is_face

__all__ = ["HeuristicBot", "RandomBot"]

EFFECT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}
STRONG = 8  # an attack worth making at once
WINDOW_STRONG = 9  # an out-of-turn attack worth making
CROWD = 5  # in a game of this many players the stock tends to run out twice (a draw) unless pairs are spent


class HeuristicBot(Bot):
    name = "heuristic"

    def choose(self, state: WizardState, seat: int, known: Mapping[CardRef, Card],
               rng: random.Random) -> WizardAction:
        legal = state.legal_actions(seat, known)
        if len(legal) == 1:
            return legal[0]
        st = state

        def weakness(s: int) -> tuple[int, int]:
            return (len(st.lives[s]), len(st.hands[s]))

        if st.phase == RETARGET:
            return min(legal, key=lambda a: (weakness(a.seat), a.seat))
        if st.phase == DEFEND:
            defences = [a for a in legal if isinstance(a, Defend)]
            if not defences:
                return Take()

            def cost(a: Defend):
                lead = a.cards[0][1]
                aim = weakness(a.target) if a.target is not None else (9, 9)
                return (len(a.cards), EFFECT_ORDER[lead.suit], sum(attack_value(f) for _, f in a.cards), aim,
                        str(a))

            return min(defences, key=cost)
        attacks = [a for a in legal if isinstance(a, Attack)]
        if not attacks:
            return Pass()
        hand = len(st.hands[seat])

        def score(a: Attack):
            strike = all(is_face(f) for _, f in a.cards)
            strength = max(attack_value(f) for _, f in a.cards)
            return (strike, strength, [-x for x in weakness(a.target)], str(a))

        best = max(attacks, key=score)
        strike = all(is_face(f) for _, f in best.cards)
        strength = max(attack_value(f) for _, f in best.cards)
        bar = WINDOW_STRONG if st.phase == WINDOW else STRONG
        if st.n >= CROWD and (st.generation or len(st.stock) <= 2 * len(st.alive)):
            bar = 0  # many players and the stock runs low: a draw is near (Z-21), so spend every pair
        if strike or strength >= bar or (st.phase != WINDOW and hand >= 6):
            return best
        return Pass()


