"""Warlords as a pure state machine (digest: ``seeds/warlords.md``; rule ids W-n refer to it).

Every seat owns a deck (``a`` for seat 0, ``b`` for seat 1, ...). A draw pile is a list with its
top at the end; hands, Warlords on the table and discard piles are lists of refs. Face-down
plays are claims (``claims``: ref -> who claimed it and in what role), checked when the card is
revealed and again by ``audit``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from itertools import filterfalse
from operator import is_not

from duelmail.errors import DuelmailError, IllegalMove
from duelmail.games.base import (
    PUBLIC,
    FaceClaims,
    FalseClaim,
    GameState,
    NotHeld,
    Outcome,
    Shuffle,
    Violation,
    Window,
    plural,
)
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
from duelmail.games.warlords.render import render as render_text
from duelmail.games.warlords.render import render_views as render_text_views
from duelmail.games.warlords.terms import (
    A_SUPPORT,
    ACE,
    ARMY,
    D_SUPPORT,
    DEFEND,
    EMERGENCY,
    JOKER,
    LAST_CHANCE,
    OUTSIDE,
    OVER,
    PHASE_NAMES,
    PREP,
    RENEWAL,
    REVEAL,
    SHUFFLE,
    SUPPORT,
    WARLORD,
)
from duelmail.util.classes import dataclass

HAND_SIZE = 5
MAX_WARLORDS = 2
REINFORCE_CAP = 10
RESCUE_CAP = 8
ACE_PRICE = 4  # the rules version from which an Ace instead of defending costs a Warlordless attacker a card (W-19)
DECK_IDS = "abcdefghijkl"  # one deck a seat: up to twelve seats (W-1)

REINFORCE_COLOUR, ALLY_COLOUR = "R", "B"  # XR is the Reinforcements joker, XB the Hidden Ally
WARLORD_BONUS = {11: 1, 12: 2, 13: 3}
BEST = {WARLORD: 3, ARMY: 10, SUPPORT: 3, ACE: 0, JOKER: 0}  # what a Hidden Ally counts as (W-27)


def deck_id(seat: int) -> str:
    return DECK_IDS[seat]


def fits(face: Card, role: str, hidden_ally: bool = True) -> bool:
    """May ``face`` honestly be played in ``role``? (W-6, W-27)"""
    if face.is_joker:
        if face.suit == ALLY_COLOUR:
            return hidden_ally and role != JOKER
        return role == JOKER
    r = face.rank
    if role == WARLORD:
        return 11 <= r <= 13
    if role == ARMY:
        return 4 <= r <= 10
    if role == SUPPORT:
        return r in (2, 3)
    if role == ACE:
        return r == 14
    return False


def value(face: Card, role: str) -> int:
    """Combat value of a card in its role: Warlord bonus, Army rank, Support bonus (W-6, W-27)."""
    if face.is_joker:
        return BEST[role]
    if role == WARLORD:
        return WARLORD_BONUS.get(face.rank, 0)  # a lie (a 7 as a Warlord) counts nothing; W-30 catches it
    return face.rank


@dataclass(slots=True)
class Battle:
    """The battle in progress (W-10..W-20). Refs are face down until the reveal."""

    attacker: int
    defender: int
    a_warlord: CardRef | None
    a_army: CardRef
    a_support: CardRef | None = None
    d_warlord: CardRef | None = None
    d_army: CardRef | None = None
    d_support: CardRef | None = None
    attack: int = 0
    defence: int = 0
    damage: int = 0
    waived: bool = False  # the defender accepted any damage with its Support (W-20)

    def copy(self) -> Battle:
        return Battle(self.attacker, self.defender, self.a_warlord, self.a_army, self.a_support,
                      self.d_warlord, self.d_army, self.d_support, self.attack, self.defence, self.damage,
                      self.waived)

    def refs(self) -> list[CardRef]:
        return [r for r in (self.a_warlord, self.a_army, self.a_support, self.d_warlord, self.d_army,
                            self.d_support) if r is not None]


def _changes(method):
    """A method that may change who sees what: the visibility kept by ``WarlordsState.visibility`` is dropped
    before and after it (after: in case it asked for the visibility midway), unless the way it took moved no card
    and changed nothing else the visibility reads (it set ``_still``): then the one kept before stays."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        kept, self._vis = self._vis, None
        try:
            return method(self, *args, **kwargs)
        finally:
            self._vis = kept if self.__dict__.pop("_still", False) else None
    return run


def _same(mine, kept, copy):
    """``kept`` (a snapshot's, never changed) when it equals ``mine``, else a copy of ``mine``."""
    return kept if kept == mine else copy(mine)  # (a list, set or dict compares its sizes first)


def _rows(mine: list[list[CardRef]], kept: list[list[CardRef]]) -> list[list[CardRef]]:
    """Per seat, ``kept``'s row when it equals ``mine``'s, else a copy; ``kept`` itself when every row is kept."""
    if kept == mine:  # every row as it was: one comparison in C, row by row (some 12,500 rows a replay)
        return kept
    if len(kept) != len(mine):
        return [list(row) for row in mine]
    return [old if old == row else list(row) for row, old in zip(mine, kept, strict=True)]  # (a row differs)


class WarlordsState(FaceClaims, GameState):
    """A Warlords position: the whole table as refs, the faces revealed so far and every claim.

    ``visibility()`` is kept until a method that changes the state runs (``apply``, ``apply_shuffle``, ``remove``,
    each marked ``_changes``, and ``reveal`` when the face breaks a claim or completes a battle's reveal), except an
    ``apply`` that moved no card (a pass outside battle, a battle's first answers without a card: ``_still``): code
    that changes the lists by hand must set ``_vis`` to None."""

    _vis: dict[CardRef, int] | None = None  # the last visibility() while nothing changed since
    # the locked leftovers and, per seat, its discard pile and that pile's entries in the visibility (public but for
    # the locked leftovers), as the last visibility computed them: reused while both are equal (never changed)
    _discarded: tuple[frozenset[CardRef], tuple[tuple[list[CardRef], dict[CardRef, int]], ...]] | None = None

    def __init__(self, nseats: int, reinforcements: bool = False, hidden_ally: bool = False, shortcuts: bool = False):
        if not 2 <= nseats <= len(DECK_IDS):
            raise DuelmailError(f"Warlords is for 2 to {len(DECK_IDS)} players, not {nseats}")
        self.n = nseats
        self.reinforcements = reinforcements
        self.hidden_ally = hidden_ally
        self.shortcuts = shortcuts  # option mail-shortcuts: W-18, W-19(a), W-25, W-26, W-29 as rulings that save files
        self.emergency: int | None = None  # the seat answering the emergency window (W-26)
        self.bystanders: list[int] = []  # seats not in the battle still to answer the W-18 window, in play order
        self.resume = PREP  # the phase a reinforcement shuffle returns to (W-25: also in the attacker's battle)
        size = 52 + reinforcements + hidden_ally
        self.hands: list[list[CardRef]] = []
        self.piles: list[list[CardRef]] = []
        for s in range(nseats):
            d = deck_id(s)
            self.hands.append([CardRef(d, i) for i in range(HAND_SIZE)])
            self.piles.append([CardRef(d, i) for i in range(size - 1, HAND_SIZE - 1, -1)])
        self.discards: list[list[CardRef]] = [[] for _ in range(nseats)]
        self.locked: set[CardRef] = set()  # reinforcement leftovers: face-down discards (W-25)
        self.warlords: list[list[CardRef]] = [[] for _ in range(nseats)]
        self.face_up: set[CardRef] = set()  # Warlords turned face up: public until discarded (W-9)
        self.used: set[CardRef] = set()  # Warlords that fought and are not renewed yet (W-9, W-21)
        self.faces: dict[CardRef, Card] = {}
        self.claims: dict[CardRef, tuple[int, str, str]] = {}  # ref -> (seat, role, rule)
        self.active = [True] * nseats
        self.generation = [0] * nseats
        self.current = 0
        self.turn = -1
        self.phase = PREP
        self.revenge = False  # this turn began with an empty draw pile (W-22, W-23)
        self.rescue = False  # ... and a joker may still rescue the seat (W-26)
        self.battle: Battle | None = None
        self.pending: list[Shuffle] = []
        self.plan: tuple | None = None  # how to lay out the reinforcement once shuffled
        self.result: Outcome | None = None
        self._start_turn(0)

    def clone(self) -> WarlordsState:
        c = object.__new__(WarlordsState)
        c.__dict__.update(self.__dict__)
        c.hands = [list(h) for h in self.hands]
        c.piles = [list(p) for p in self.piles]
        c.discards = [list(d) for d in self.discards]
        c.warlords = [list(w) for w in self.warlords]
        c.locked, c.face_up, c.used = set(self.locked), set(self.face_up), set(self.used)
        c.faces, c.claims = dict(self.faces), dict(self.claims)
        c.active, c.generation = list(self.active), list(self.generation)
        c.battle = self.battle.copy() if self.battle else None
        c.pending = list(self.pending)
        c.bystanders = list(self.bystanders)
        return c

    def snapshot(self, previous: GameState | None) -> WarlordsState:
        """A clone that shares with ``previous`` (a snapshot of this game) every list, set and table equal to its own:
        between two rounds most seats' hands and piles stay as they were, so a replay's 783 steps hold far fewer
        containers (less to copy and for the garbage collector to walk)."""
        if not isinstance(previous, WarlordsState) or previous.n != self.n:
            return self.clone()
        c = object.__new__(WarlordsState)
        c.__dict__.update(self.__dict__)
        c.hands, c.piles = _rows(self.hands, previous.hands), _rows(self.piles, previous.piles)
        c.discards, c.warlords = _rows(self.discards, previous.discards), _rows(self.warlords, previous.warlords)
        c.locked = _same(self.locked, previous.locked, set)
        c.face_up = _same(self.face_up, previous.face_up, set)
        c.used = _same(self.used, previous.used, set)
        c.faces = _same(self.faces, previous.faces, dict)
        c.claims = _same(self.claims, previous.claims, dict)
        c.active = _same(self.active, previous.active, list)
        c.generation = _same(self.generation, previous.generation, list)
        c.pending = _same(self.pending, previous.pending, list)
        c.bystanders = _same(self.bystanders, previous.bystanders, list)
        kept = previous.battle
        c.battle = kept if kept is not None and self.battle == kept else self.battle.copy() if self.battle else None
        return c

    def __getstate__(self) -> dict:
        """Pickled (a home's kept state) without the visibility kept: it is computed again when asked."""
        out = dict(self.__dict__)
        out.pop("_vis", None)
        out.pop("_discarded", None)
        return out

    # -- whose move ----------------------------------------------------------------------------
    def deciders(self) -> tuple[int, ...]:
        p = self.phase
        if p == PREP:
            return (self.current,)
        if p in (DEFEND, D_SUPPORT, LAST_CHANCE):
            return (self.battle.defender,)
        if p in (A_SUPPORT, RENEWAL):
            return (self.current,)
        if p == EMERGENCY:
            return (self.emergency,)
        if p == OUTSIDE:
            return (self.bystanders[0],)
        return ()

    def windows(self) -> tuple[Window, ...]:
        """W-26: the seat whose draw pile a battle just emptied may play its joker at once, even out of turn.
        W-18: when an attack is made, each seat not in the battle may play an Ace outside battle (three or more
        players). W-25: after its battle the attacker may still play its Reinforcements joker in its turn."""
        p = self.phase
        if p == EMERGENCY:
            return (Window(self.emergency, "W-26", "your draw pile is empty: play the Reinforcements joker now "
                           f"({RESCUE_CAP} cards back), or pass", ("pass", "joker")),)
        if p == OUTSIDE:
            b = self.battle
            return (Window(self.bystanders[0], "W-18", f"seat {b.attacker} attacks seat {b.defender}: play an Ace "
                           "outside battle against a Warlord now, or pass", ("pass", "ace")),)
        if p == RENEWAL:
            return (Window(self.current, "W-25", "your battle is over: play the Reinforcements joker before your "
                           "turn ends, or pass", ("pass", "joker"), in_turn=True),)
        return ()

    def may_rescue(self, seat: int) -> bool:
        """W-26 by the public record: the option is on, the seat's joker is not played yet (with an empty draw
        pile it is then in its hand) and its discard pile has cards to bring back."""
        if not self.reinforcements or not self.discards[seat]:
            return False
        return not any(s == seat and role == JOKER for s, role, _ in self.claims.values())

    def may_ace(self, seat: int) -> bool:
        """W-18 by the public record: ``seat`` holds cards, and not all its Aces (nor, with the option, its Hidden
        Ally) lie face up in its discard pile, the only place its played Aces go."""
        if not self.hands[seat]:
            return False
        gone = {f for r in self.discards[seat] if (f := self.faces.get(r)) is not None and r not in self.locked}
        aces = sum(1 for f in gone if not f.is_joker and f.rank == 14)
        ally = self.hidden_ally and not any(f.is_joker and f.suit == ALLY_COLOUR for f in gone)
        return aces < 4 or ally

    def _ace_targets(self, seat: int) -> list[CardRef]:
        """Warlords of ``seat``'s opponents still in the game: what an Ace outside battle may discard (W-18)."""
        return [w for o in range(self.n) if o != seat and self.active[o] for w in self.warlords[o]]

    def chance(self) -> Shuffle | None:
        return self.pending[0] if self.pending and self.phase == SHUFFLE else None

    def target(self, seat: int) -> int:
        """The seat ``seat`` attacks: the next seat still in the game (W-3, W-24)."""
        t = (seat + 1) % self.n
        while not self.active[t]:
            t = (t + 1) % self.n
        return t

    def may_attack(self) -> bool:
        """No attack in the first round except by the last seat (W-5)."""
        return self.turn >= self.n - 1

    def ready(self, seat: int) -> list[CardRef]:
        """``seat``'s Warlords that may fight now (not used since their owner's renewal, W-9)."""
        return [w for w in self.warlords[seat] if w not in self.used]

    # -- legal actions -----------------------------------------------------------------------
    def legal_actions(self, seat: int, known: Mapping[CardRef, Card]) -> list[WarlordsAction]:
        if seat not in self.deciders():
            return []
        ha = self.hidden_ally
        hand = self.hands[seat]
        by_role: dict[str, list[CardRef]] = {WARLORD: [], ARMY: [], SUPPORT: [], ACE: [], JOKER: []}
        for r in hand:
            f = known.get(r)
            if f is not None:
                for role, refs in by_role.items():
                    if fits(f, role, ha):
                        refs.append(r)
        aces = by_role[ACE]
        p = self.phase
        out: list[WarlordsAction] = []
        if p == PREP:
            mine = self.warlords[seat]
            if len(mine) < MAX_WARLORDS:
                out += [PlayWarlord(r) for r in by_role[WARLORD]]
            out += [Exchange(o, r) for o in mine for r in by_role[WARLORD]]
            for o in range(self.n):
                if o != seat and self.active[o]:
                    out += [PlayAce(a, t) for a in aces for t in self.warlords[o]]
            if self.reinforcements and (not self.revenge or (self.rescue and self.discards[seat])):
                out += [Reinforce(r) for r in by_role[JOKER]]  # W-25, W-26
            if self.may_attack():
                out += [Attack(w, a) for w in [None, *self.ready(seat)] for a in by_role[ARMY]]
            out.append(EndTurn())
        elif p == DEFEND:
            out += [Defend(w, a) for w in [None, *self.ready(seat)] for a in [None, *by_role[ARMY]]]
            out += [PlayAce(a) for a in aces]
            if not self.shortcuts:  # W-18: an Ace outside battle, against a Warlord that is not in this battle
                out += [PlayAce(a, t) for a in aces for t in self._outside_targets(seat)]
        elif p == A_SUPPORT:
            out += [Support(None)] + [Support(r) for r in by_role[SUPPORT]]
            if self.reinforcements and not self.shortcuts and not self.revenge:  # W-25: any time in your turn
                out += [Reinforce(r) for r in by_role[JOKER]]
        elif p in (EMERGENCY, RENEWAL):
            out += [Pass()] + [Reinforce(r) for r in by_role[JOKER]]
        elif p == OUTSIDE:  # W-18: a seat not in the battle, against any Warlord (the attacking one withdraws it)
            out += [Pass()] + [PlayAce(a, t) for a in aces for t in self._ace_targets(seat)]
        elif p == D_SUPPORT:
            sups = [None] + (by_role[SUPPORT] if self.battle.d_army is not None else [])
            out += [Support(r) for r in sups]
            if not self.shortcuts:
                out += [Support(r, True) for r in sups]
            out += [PlayAce(a) for a in aces]
        elif p == LAST_CHANCE:
            out.append(Accept())
            out += [PlayAce(a) for a in aces]
        return out

    def _outside_targets(self, seat: int) -> list[CardRef]:
        """W-18 in another seat's turn: Warlords of opponents still in the game, except the attacking one."""
        fighting = self.battle.a_warlord if self.battle else None
        return [w for o in range(self.n) if o != seat and self.active[o] for w in self.warlords[o] if w != fighting]

    # -- applying decisions ------------------------------------------------------------------
    @_changes
    def apply(self, seat: int, action: WarlordsAction) -> None:
        if self.phase == OVER:
            raise IllegalMove("W-31", f"{action}: the game is over ({self.result.describe()})")
        if seat not in self.deciders():
            raise IllegalMove("W-4", f"{action}: not seat {seat}'s decision; {self._waiting()}")
        p = self.phase
        t = type(action)
        if p == EMERGENCY:
            if t is Reinforce:
                self._reinforce(seat, action)
            elif t is Pass:
                self._after_emergency()
            else:
                raise IllegalMove("W-26", f"{action}: seat {seat}'s draw pile has just emptied: play the "
                                  "Reinforcements joker now, or pass", seat=seat, move=str(action),
                                  now=self.prompt(seat))
            return
        if p == RENEWAL:
            if t is Reinforce:
                self._reinforce(seat, action)
            elif t is Pass:
                self._end_turn()
            else:
                raise IllegalMove("W-25", f"{action}: seat {seat}'s battle is over and its turn ends: play the "
                                  "Reinforcements joker now, or pass", seat=seat, move=str(action),
                                  now=self.prompt(seat))
            return
        if p == OUTSIDE:
            if t is Pass:
                self.bystanders.pop(0)
                self._next_bystander()
                self._still = True  # only who answers next changed (OUTSIDE or DEFEND: the battle stays face down)
            elif t is PlayAce and action.target is not None:
                self._ace_outside(seat, action)
            else:
                raise IllegalMove("W-18", f"{action}: seat {seat} is not in this battle: it may play an Ace outside "
                                  "battle against a Warlord (ace ACE TARGET), or pass", seat=seat, move=str(action),
                                  now=self.prompt(seat))
            return
        if t is PlayAce:
            if p == PREP:
                self._ace_outside(seat, action)
            elif p == DEFEND and action.target is not None and not self.shortcuts:
                if action.target == self.battle.a_warlord:
                    raise IllegalMove("W-18", f"{action}: {action.target} leads the attack, so it is in battle: "
                                      f"an Ace against it is played in battle, with no target (ace {action.card})")
                self._ace_outside(seat, action)  # W-18: it plays no part in this battle, so it comes before it
            else:
                self._ace_in_battle(seat, action)
            return
        if p == A_SUPPORT and t is Reinforce and not self.shortcuts:
            self._reinforce(seat, action)  # W-25: any time during your turn
            return
        if p == PREP:
            if t is PlayWarlord:
                self._play_warlord(seat, action)
            elif t is Exchange:
                self._exchange(seat, action)
            elif t is Reinforce:
                self._reinforce(seat, action)
            elif t is Attack:
                self._attack(seat, action)
            elif t is EndTurn:
                self._end_turn()
            else:
                self._wrong_phase(seat, action)
        elif p == DEFEND and t is Defend:
            self._defend(seat, action)
        elif p in (A_SUPPORT, D_SUPPORT) and t is Support:
            self._support(seat, action)
        elif p == LAST_CHANCE and t is Accept:
            self._finish_battle(won=True)
        else:
            self._wrong_phase(seat, action)

    def _wrong_phase(self, seat: int, action: WarlordsAction) -> None:
        rule = RULE_OF.get(type(action), "W-4")
        prompt = self.prompt(seat)  # an order, but where it first says what happens (an attack's damage, ...)
        order = self.phase != LAST_CHANCE and not (self.phase == PREP and (self.rescue or self.revenge))
        raise IllegalMove(rule, f"{action}: not possible now, seat {seat} must {prompt}", seat=seat, move=str(action),
                          must=prompt if order else None, now=None if order else prompt)

    def _waiting(self) -> str:
        d = self.deciders()
        if not d:
            return f"waiting for the {PHASE_NAMES[self.phase]}"
        return f"waiting for seat {d[0]} to {self.prompt(d[0])}"

    def _take(self, seat: int, ref: CardRef, action: WarlordsAction, rule: str, what: str) -> None:
        """Remove ``ref`` from ``seat``'s hand, or refuse the action."""
        try:
            self.hands[seat].remove(ref)
        except ValueError:
            raise IllegalMove(rule, f"{action}: {ref} ({what}) is not in seat {seat}'s hand", seat=seat,
                              move=str(action), case=NotHeld(ref)) from None

    def _claim(self, seat: int, ref: CardRef, role: str, rule: str) -> None:
        self.claims[ref] = (seat, role, rule)

    def _play_warlord(self, seat: int, a: PlayWarlord) -> None:
        mine = self.warlords[seat]
        if len(mine) >= MAX_WARLORDS:
            raise IllegalMove("W-7", f"{a}: seat {seat} already has {MAX_WARLORDS} Warlords "
                              f"({', '.join(map(str, mine))}); exchange one instead")
        self._take(seat, a.card, a, "W-7", "the Warlord")
        self._claim(seat, a.card, WARLORD, "W-7")
        mine.append(a.card)
        self.rescue = False

    def _exchange(self, seat: int, a: Exchange) -> None:
        mine = self.warlords[seat]
        if a.old not in mine:
            raise IllegalMove("W-8", f"{a}: {a.old} is not one of seat {seat}'s Warlords "
                              f"({', '.join(map(str, mine)) or 'none'})", seat=seat, move=str(a),
                              case=NotHeld(a.old, "one of your Warlords", tuple(mine)))
        self._take(seat, a.new, a, "W-8", "the new Warlord")
        self._claim(seat, a.new, WARLORD, "W-8")
        mine[mine.index(a.old)] = a.new
        self._discard_warlord(seat, a.old)
        self.tell("discard", f"seat {seat}'s old Warlord {a.old} goes to the discard pile", (seat,), (a.old,),
                  rule="W-8")
        self.rescue = False

    def _discard_warlord(self, seat: int, ref: CardRef) -> None:
        self.used.discard(ref)
        self.face_up.discard(ref)
        self.discards[seat].append(ref)

    def _ace_outside(self, seat: int, a: PlayAce) -> None:
        if a.target is None:
            raise IllegalMove("W-18", f"{a}: outside battle an Ace must name the Warlord it discards "
                              f"(ace ACE TARGET)")
        owner = next((o for o in range(self.n) if a.target in self.warlords[o]), None)
        if owner is None or owner == seat or not self.active[owner]:
            raise IllegalMove("W-18", f"{a}: {a.target} is not a Warlord of an opponent still in the game")
        self._take(seat, a.card, a, "W-18", "the Ace")
        self._claim(seat, a.card, ACE, "W-18")
        self.discards[seat].append(a.card)
        self.warlords[owner].remove(a.target)
        self._discard_warlord(owner, a.target)
        self.tell("ace", f"{a.card} (an Ace) destroys seat {owner}'s Warlord {a.target}: both go to the discard "
                  "piles", (seat, owner), (a.card, a.target), rule="W-18")
        self.rescue = False
        if self.phase == OUTSIDE:
            b = self.battle
            if a.target == b.a_warlord:  # it fell before the battle: the attacker decides again (W-18)
                self.hands[b.attacker].append(b.a_army)
                self.battle = None
                self.bystanders = []
                self.phase = PREP
                self.tell("withdrawn", f"seat {b.attacker}'s attack is withdrawn: its Warlord fell before the battle, "
                          f"{b.a_army} goes back to its hand and it prepares on", (b.attacker,), (b.a_army,),
                          rule="W-18")
            elif not (self.may_ace(seat) and self._ace_targets(seat)):
                self.bystanders.pop(0)
                self._next_bystander()

    def _next_bystander(self) -> None:
        """W-18: the next seat not in the battle that could play an Ace outside battle, or the defence."""
        while self.bystanders and not (self.may_ace(self.bystanders[0]) and self._ace_targets(self.bystanders[0])):
            self.bystanders.pop(0)
        self.phase = OUTSIDE if self.bystanders else DEFEND

    def _reinforce(self, seat: int, a: Reinforce) -> None:
        if not self.reinforcements:
            raise IllegalMove("W-25", f"{a}: this game is played without the reinforcements option")
        if self.revenge and not self.rescue and self.phase != EMERGENCY:
            raise IllegalMove("W-26", f"{a}: in a turn that began with an empty draw pile a joker may only "
                              f"be played as the turn's first action")
        if (self.revenge or self.phase == EMERGENCY) and not self.discards[seat]:
            raise IllegalMove("W-26", f"{a}: seat {seat}'s discard pile is empty, nothing to reinforce with")
        self._take(seat, a.card, a, "W-25", "the joker")
        self._claim(seat, a.card, JOKER, "W-25")
        # W-26: with an empty draw pile only 8 come back (mail-shortcuts: only in a revenge turn's rescue)
        cap = RESCUE_CAP if (self.revenge if self.shortcuts else not self.piles[seat]) else REINFORCE_CAP
        self.resume = self.phase if self.phase in (PREP, A_SUPPORT, EMERGENCY, RENEWAL) else PREP
        drawn, taken = self.piles[seat], self.discards[seat]
        k = min(cap, len(taken))
        self.discards[seat] = [a.card]
        if not drawn and not taken:
            return
        self.piles[seat] = []
        if k == len(taken):  # everything comes back: one shuffle of draw pile and discards
            self.pending = [Shuffle(self._new_deck(seat), tuple(drawn) + tuple(taken))]
            self.plan = (seat, k, None)
        else:  # pick k discards at random (shuffle 1), then shuffle them into the draw pile (shuffle 2)
            pick = Shuffle(self._new_deck(seat), tuple(taken))
            self.pending = [pick]
            if drawn:
                self.pending.append(Shuffle(self._new_deck(seat), tuple(drawn) + pick.new_refs()[:k]))
            self.plan = (seat, k, pick)
        self.phase = SHUFFLE

    def _new_deck(self, seat: int) -> str:
        self.generation[seat] += 1
        return f"{deck_id(seat)}.{self.generation[seat]}"

    @_changes
    def apply_shuffle(self, shuffle: Shuffle) -> None:
        if self.phase != SHUFFLE or shuffle != self.pending[0]:
            raise DuelmailError(f"unexpected shuffle into {shuffle.new_deck}: Warlords awaits "
                                f"{self.pending[0].new_deck if self.pending else 'no shuffle'}")
        self.pending.pop(0)
        if self.pending:
            return
        seat, k, pick = self.plan
        last = shuffle.new_refs()
        if pick is not None:
            picked = pick.new_refs()
            left = picked[k:]
            self.locked.update(left)
            self.discards[seat][:0] = left
            if shuffle is pick:  # the draw pile was empty: the k picked cards are the draw pile
                last = picked[:k]
        self.piles[seat] = list(reversed(last))
        self.plan = None
        self.phase = self.resume
        self.resume = PREP
        self.tell("reinforce", f"seat {seat} shuffles {plural(k, 'discarded card')} back: the draw pile has "
                  f"{plural(len(self.piles[seat]), 'card')}", (seat,), numbers=(k, len(self.piles[seat])),
                  rule="W-25")
        if self.rescue and self.piles[seat]:  # W-26: rescued, the seat draws and plays on
            self.hands[seat].append(self.piles[seat].pop())
            self.tell("draw", f"seat {seat} is rescued and draws {self.hands[seat][-1]}", (seat,),
                      (self.hands[seat][-1],), rule="W-26")
            self.revenge = False
        self.rescue = False
        if self.phase == EMERGENCY:
            self._after_emergency()
        elif self.phase == RENEWAL:
            self._end_turn()

    def _after_emergency(self) -> None:
        """The emergency window is answered (W-26): the attacker's turn, which the battle ended, ends now (after
        its own renewal window, W-25, if the emptied pile was the defender's)."""
        rescued, self.emergency = self.emergency, None
        if rescued == self.current:
            self._end_turn()
        else:
            self._after_battle()

    def _after_battle(self) -> None:
        """W-25: "any time during your turn" includes the renewal after the battle: if the public record shows the
        attacker's joker unplayed, it may still play it (an answer window); otherwise its turn ends."""
        seat = self.current
        if not self.shortcuts and not self.revenge and self.may_rescue(seat):
            self.phase = RENEWAL
            return
        self._end_turn()

    def _emptied(self, seat: int, before: int) -> bool:
        """W-26: a battle just emptied ``seat``'s draw pile and a joker could rescue it: open the window."""
        if self.shortcuts or before == 0 or self.piles[seat] or not self.may_rescue(seat):
            return False
        self.emergency = seat
        self.phase = EMERGENCY
        self.tell("empty", f"seat {seat}'s draw pile is empty: it may play its Reinforcements joker at once",
                  (seat,), rule="W-26")
        return True

    def _attack(self, seat: int, a: Attack) -> None:
        if not self.may_attack():
            raise IllegalMove("W-5", f"{a}: no attacks in the first round except by the last seat "
                              f"(seat {self.n - 1})")
        if a.warlord is not None:
            if a.warlord not in self.warlords[seat]:
                raise IllegalMove("W-10", f"{a}: {a.warlord} is not one of seat {seat}'s Warlords", seat=seat,
                                  move=str(a), case=NotHeld(a.warlord, "one of your Warlords"))
            if a.warlord in self.used:
                raise IllegalMove("W-9", f"{a}: the Warlord {a.warlord} defended and may not attack "
                                  f"before seat {seat}'s renewal")
        self._take(seat, a.army, a, "W-10", "the Army")
        self._claim(seat, a.army, ARMY, "W-10")
        self.battle = Battle(seat, self.target(seat), a.warlord, a.army)
        self.rescue = False
        self.bystanders = []
        if not self.shortcuts:  # W-18: every other seat still in the game, in play order after the defender
            o = self.target(self.battle.defender)
            while o != seat:
                self.bystanders.append(o)
                o = self.target(o)
        self._next_bystander()

    def _defend(self, seat: int, a: Defend) -> None:
        if a.warlord is not None:
            if a.warlord not in self.warlords[seat]:
                raise IllegalMove("W-11", f"{a}: {a.warlord} is not one of seat {seat}'s Warlords", seat=seat,
                                  move=str(a), case=NotHeld(a.warlord, "one of your Warlords"))
            if a.warlord in self.used:
                raise IllegalMove("W-9", f"{a}: the Warlord {a.warlord} is used until seat {seat}'s renewal")
        if a.army is not None:
            self._take(seat, a.army, a, "W-11", "the Army")
            self._claim(seat, a.army, ARMY, "W-11")
        b = self.battle
        b.d_warlord, b.d_army = a.warlord, a.army
        self.phase = A_SUPPORT
        self._still = a.army is None  # no card left the hand (a Warlord defends from the table, face down till W-13)

    def _support(self, seat: int, a: Support) -> None:
        if a.accept and (self.phase != D_SUPPORT or self.shortcuts):
            raise IllegalMove("W-20", f"{a}: only the defender's Support may accept the damage in advance"
                              + (" (not with the option mail-shortcuts)" if self.shortcuts else ""))
        b = self.battle
        if a.card is not None:
            if self.phase == D_SUPPORT and b.d_army is None:
                raise IllegalMove("W-12", f"{a}: a Support works only with an Army, and seat {seat} "
                                  f"defends without one")
            self._take(seat, a.card, a, "W-12", "the Support")
            self._claim(seat, a.card, SUPPORT, "W-12")
        if self.phase == A_SUPPORT:
            b.a_support = a.card
            self.phase = D_SUPPORT
            self._still = a.card is None  # no Support: no card moved (the battle opens after the defender's)
        else:
            b.d_support = a.card
            b.waived = a.accept
            self._open_battle()

    def _open_battle(self) -> None:
        """W-13: every battle card turns face up (with mail-shortcuts the defender's next draw is reserved, W-29)."""
        b = self.battle
        for w in (b.a_warlord, b.d_warlord):
            if w is not None:
                self.face_up.add(w)
        self.phase = REVEAL
        self._maybe_resolve()

    def _maybe_resolve(self) -> None:
        b = self.battle
        faces = self.faces
        if any(r not in faces for r in b.refs()):
            return
        b.attack = value(faces[b.a_army], ARMY)
        if b.a_warlord is not None:
            b.attack += value(faces[b.a_warlord], WARLORD)
        if b.a_support is not None:
            b.attack += value(faces[b.a_support], SUPPORT)
        if b.d_army is not None:
            b.defence = value(faces[b.d_army], ARMY)
            if b.d_support is not None:
                b.defence += value(faces[b.d_support], SUPPORT)
        if b.d_warlord is not None:
            b.defence += value(faces[b.d_warlord], WARLORD)
        def side(roles) -> str:
            parts = [f"{r} ({role} {value(faces[r], role)})" for r, role in roles if r is not None]
            return " + ".join(parts) + " = " if parts else "nothing: "

        a_side = side([(b.a_warlord, WARLORD), (b.a_army, ARMY), (b.a_support, SUPPORT)])
        d_side = side([(b.d_warlord, WARLORD), (b.d_army, ARMY), (b.d_support, SUPPORT)])
        self.tell("battle", f"battle: seat {b.attacker} {a_side}{b.attack} against seat {b.defender} "
                  f"{d_side}{b.defence}", (b.attacker, b.defender), tuple(b.refs()), (b.attack, b.defence),
                  rule="W-14")
        if b.attack > b.defence:
            b.damage = (b.attack - b.defence + 1) // 2  # W-15
            self.tell("battle won", f"seat {b.attacker} wins the battle, {b.attack} to {b.defence}: "
                      f"{b.damage} damage to seat {b.defender} unless an Ace stops it", (b.attacker, b.defender),
                      numbers=(b.attack, b.defence, b.damage), rule="W-15")
            if b.waived:
                self._finish_battle(won=True)  # W-20: accepted in advance, no last chance to wait for
                return
            self.phase = LAST_CHANCE
        else:
            self.tell("battle lost", f"seat {b.attacker}'s attack fails, {b.attack} to {b.defence}: seat "
                      f"{b.defender} holds", (b.attacker, b.defender), numbers=(b.attack, b.defence), rule="W-16")
            self._finish_battle(won=False)

    def _finish_battle(self, won: bool) -> None:
        """W-15..W-17: damage or the price of failing, then the attacker's turn ends."""
        b = self.battle
        self._discard_battle_cards(b, defender_too=True)
        if b.d_warlord is not None:
            self.used.add(b.d_warlord)
        hit = b.defender if won else b.attacker
        before = len(self.piles[hit])
        if won:
            milled = self._mill(b.defender, b.damage, beneath_top=self.shortcuts)
            self.tell("damage", f"seat {b.defender} takes {b.damage} damage: "
                      + (f"{_refs(milled)} milled face up to the discard pile" if milled else "the draw pile is empty"),
                      (b.defender,), tuple(milled), (b.damage,), rule="W-15")
        else:
            self._pay_failure(b)
        self.battle = None
        if not self._emptied(hit, before):
            self._after_battle()

    def _discard_battle_cards(self, b: Battle, defender_too: bool) -> None:
        mine = [r for r in (b.a_army, b.a_support) if r is not None]
        self.discards[b.attacker] += mine
        theirs = [r for r in (b.d_army, b.d_support) if r is not None] if defender_too else []
        self.discards[b.defender] += theirs
        parts = [f"{_refs(refs)} to seat {s}'s" for s, refs in ((b.attacker, mine), (b.defender, theirs)) if refs]
        self.tell("discard", f"the battle cards go to the discard piles: {' and '.join(parts)}",
                  (b.attacker, b.defender), (*mine, *theirs), rule="W-17")

    def _pay_failure(self, b: Battle) -> None:
        """W-16: the attacker loses its Warlord, or without one mills a card."""
        if b.a_warlord is not None:
            self.warlords[b.attacker].remove(b.a_warlord)
            self._discard_warlord(b.attacker, b.a_warlord)
            self.tell("failure", f"seat {b.attacker} loses the Warlord {b.a_warlord} for the failed attack",
                      (b.attacker,), (b.a_warlord,), rule="W-16")
        else:
            milled = self._mill(b.attacker, 1, beneath_top=False)
            self.tell("failure", f"seat {b.attacker} mills {_refs(milled) or 'nothing (empty draw pile)'} for the "
                      "failed attack", (b.attacker,), tuple(milled), (len(milled),), rule="W-16")

    def _ace_in_battle(self, seat: int, a: PlayAce) -> None:
        b = self.battle
        if b is None:
            raise IllegalMove("W-19", f"{a}: no battle is being fought, so no Ace can stop one")
        if seat != b.defender:
            raise IllegalMove("W-19", f"{a}: an attacker may never play an Ace in battle")
        if a.target is not None:
            raise IllegalMove("W-19", f"{a}: in battle an Ace names no target (write: ace {a.card})")
        self._take(seat, a.card, a, "W-19", "the Ace")
        self._claim(seat, a.card, ACE, "W-19")
        self.discards[seat].append(a.card)
        self.tell("ace", f"{a.card} (an Ace) stops seat {b.attacker}'s attack: it fails", (seat, b.attacker),
                  (a.card,), rule="W-19")
        late = self.phase != DEFEND
        self._discard_battle_cards(b, defender_too=late)
        if late and b.d_warlord is not None:
            self.face_up.add(b.d_warlord)
            self.used.add(b.d_warlord)
        before = len(self.piles[b.attacker])
        if late or self.shortcuts or b.a_warlord is not None or not self.plays_before(ACE_PRICE):
            self._pay_failure(b)  # W-19 with W-16 at every point (rules version 3: at (a) no Warlord, no mill)
        self.battle = None
        if not self._emptied(b.attacker, before):
            self._after_battle()

    def _mill(self, seat: int, k: int, beneath_top: bool) -> list[CardRef]:
        """Move ``k`` cards from the draw pile to the discard pile face up (W-15, W-29); return them."""
        pile = self.piles[seat]
        k = min(k, len(pile))
        if k <= 0:
            return []
        if beneath_top and len(pile) > k:
            milled = pile[-1 - k:-1]
            del pile[-1 - k:-1]
        else:
            milled = pile[-k:]
            del pile[-k:]
        milled.reverse()
        self.discards[seat].extend(milled)
        return milled

    # -- turns -------------------------------------------------------------------------------
    def _end_turn(self) -> None:
        seat = self.current
        for w in self.warlords[seat]:
            self.used.discard(w)  # W-21 renewal
        if self.revenge:
            self.active[seat] = False  # W-23: out after the revenge turn
            self.tell("out", f"seat {seat} is out: the revenge turn is over", (seat,), rule="W-23")
        left = [s for s in range(self.n) if self.active[s]]
        if len(left) == 1:
            self.phase = OVER
            self.battle = None
            self.result = Outcome((left[0],), f"seat {left[0]} is the last player with a draw pile")
            return
        self._start_turn(self.target(seat))

    def _start_turn(self, seat: int) -> None:
        self.turn += 1
        self.current = seat
        self.phase = PREP
        pile = self.piles[seat]
        if pile:
            self.hands[seat].append(pile.pop())
            self.tell("draw", f"seat {seat} draws {self.hands[seat][-1]}", (seat,), (self.hands[seat][-1],),
                      (len(pile),), rule="W-4")
            self.revenge = self.rescue = False
        else:  # W-22: out; W-23 revenge turn, unless a joker rescues the seat first (W-26)
            self.revenge = True
            self.rescue = self.reinforcements and self.shortcuts  # by default the rescue came when it emptied
            self.tell("empty", f"seat {seat}'s draw pile is empty: a last (revenge) turn, then out", (seat,),
                      rule="W-22")

    # -- hidden information ------------------------------------------------------------------
    def reveal(self, ref: CardRef, face: Card) -> list[Violation]:
        """``FaceClaims.reveal``. A face turned up changes no hand, pile, phase or battle unless its claim breaks (the
        game ends) or it completes a battle's reveal (``_after_reveal``): otherwise the visibility kept stays (it
        never depends on the faces), so a round that turns up several cards computes it once, not once a card."""
        kept, self._vis = self._vis, None
        try:
            found = FaceClaims.reveal(self, ref, face)
        finally:
            moved = self.__dict__.pop("_moved", False)
            self._vis = None
        if kept is not None and not found and not moved:
            self._vis = kept
        return found

    def visibility(self) -> dict[CardRef, int]:
        """Kept until the state changes (see the class): the same dict, which callers must not change."""
        vis = self._vis
        if vis is None:
            vis = self._vis = self._visibility()
        return vis

    def _visibility(self) -> dict[CardRef, int]:
        vis: dict[CardRef, int] = {}
        face_up, locked = self.face_up, self.locked
        add = vis.update
        kept = self._discarded
        piles = kept[1] if kept is not None and kept[0] == locked else ()
        fresh = []
        for s in range(self.n):  # (whole lists at once where no card is told apart: called a few times a round)
            for r in self.hands[s]:
                vis[r] = s
            for r in self.warlords[s]:
                vis[r] = PUBLIC if r in face_up else s
            pile = self.discards[s]
            old = piles[s] if piles else None
            if old is None or old[0] != pile:  # (a discard pile changes a few times a round: most are as they were)
                old = (list(pile), dict.fromkeys(filterfalse(locked.__contains__, pile) if locked else pile, PUBLIC))
            fresh.append(old)
            add(old[1])
        if not piles or any(map(is_not, fresh, piles)):
            self._discarded = (frozenset(locked), tuple(fresh))
        b = self.battle
        if b is not None:
            if self.phase in (REVEAL, LAST_CHANCE):
                for r in b.refs():
                    vis[r] = PUBLIC
                pile = self.piles[b.defender]
                if pile and self.shortcuts:
                    vis[pile[-1]] = b.defender  # W-29 with mail-shortcuts: the reserved draw
            else:
                for r in (b.a_army, b.a_support):
                    if r is not None:
                        vis[r] = b.attacker
                for r in (b.d_army, b.d_support):
                    if r is not None:
                        vis[r] = b.defender
        return vis

    def _breaks(self, face: Card, claim: tuple[int, str, str]) -> bool:
        return not fits(face, claim[1], self.hidden_ally)

    def _after_reveal(self, ref: CardRef) -> None:
        if self.phase == REVEAL:
            if any(r not in self.faces for r in self.battle.refs()):
                return  # the battle waits for another face: nothing moves (``reveal`` keeps the visibility)
            self._moved = True
            self._maybe_resolve()

    def _violation(self, ref: CardRef, face: Card, claim: tuple[int, str, str]) -> Violation:
        seat, role, rule = claim
        how = "" if role in (ACE, JOKER) else " face down"
        return Violation(seat, rule, f"seat {seat} played {ref}{how} as {_article(role)} {role}, "
                                     f"but it is {face}", FalseClaim(ref, role, face))

    def _forfeit(self, v: Violation) -> None:
        """W-30: a proven false claim ends the game; the cheater loses, the others still in win."""
        prev = self.result
        cheaters = tuple(sorted({v.seat, *(prev.cheaters if prev else ())}))
        pool = [s for s in range(self.n) if self.active[s]] if prev is None else list(prev.winners)
        winners = tuple(s for s in pool if s not in cheaters)
        if not winners:  # found after the end, against the winner: every honest seat wins (none removed, W-32)
            winners = tuple(s for s in range(self.n) if s not in cheaters and s not in self.removed)
        self.result = Outcome(winners, f"seat {v.seat} cheated: {v.message} (rule {v.rule})", cheaters)
        self.phase = OVER
        self.battle = None
        self.pending = []

    # -- a seat removed by escrow (W-32) ---------------------------------------------------------
    def retired(self) -> frozenset[int]:
        """W-32: a removed seat is out for good (a seat out by W-22/W-23 still answers for its decks, W-24)."""
        return frozenset(self.removed)

    @_changes
    def remove(self, seat: int) -> None:
        """W-32: ``seat`` stopped answering and was removed: it leaves the circle at once. Its hand goes face up
        to its discard pile; its Warlords on the table leave it, face down unless already face up (their claims
        wait for the audit, W-30); a battle it fights is called off; its turn, its pending reinforcement and its
        emergency window end; one seat left wins (W-31)."""
        self._check_removable(seat, self.n, "W-32")
        self.removed = self.removed | {seat}
        self.active[seat] = False
        self.bystanders = [s for s in self.bystanders if s != seat]  # no more W-18 window for it
        self.tell("removed", f"seat {seat} stopped answering and is removed: it leaves the circle", (seat,),
                  rule="W-32")
        own_shuffle = self.phase == SHUFFLE and self.plan is not None and self.plan[0] == seat
        if own_shuffle:  # its reinforcement is dropped: the cards it was shuffling stay its draw pile, locked
            _, k, pick = self.plan
            refs = list(self.pending[0].refs)
            if pick is not None and self.pending[0] != pick:
                refs += list(pick.new_refs()[k:])
            self.piles[seat] = refs
            self.pending, self.plan, self.resume = [], None, PREP
            self.phase = EMERGENCY if self.emergency == seat else PREP
        b = self.battle
        called_off = b is not None and seat in (b.attacker, b.defender)
        if called_off:
            self._call_off(seat, b)
        lords = self.warlords[seat]
        self.warlords[seat] = []
        for w in lords:
            self.used.discard(w)
            if w not in self.face_up:
                self.locked.add(w)  # face down: nobody sees it; the audit checks its claim (W-30)
            self.face_up.discard(w)
        hand = self.hands[seat]
        self.hands[seat] = []
        self.discards[seat] += lords + hand
        if hand:
            self.tell("discard", f"seat {seat}'s hand goes face up to its discard pile: {_refs(hand)}", (seat,),
                      tuple(hand), (len(hand),), rule="W-32")
        left = [s for s in range(self.n) if self.active[s]]
        if len(left) == 1:
            self.phase = OVER
            self.battle, self.pending, self.plan, self.emergency = None, [], None, None
            self.result = Outcome((left[0],), f"seat {left[0]} is the last player in the circle (W-32)")
            return
        if self.emergency == seat:  # its window closes unanswered: the attacker's turn ends (W-26)
            if self.phase == EMERGENCY:
                self._after_emergency()
            return
        if seat == self.current:
            self.revenge = self.rescue = False
            if self.phase in (EMERGENCY, SHUFFLE):
                return  # another seat's window or reinforcement first; then the turn passes (W-26)
            self.phase = PREP
            self._end_turn()
        elif called_off:  # the attacker goes back to its preparation: it may attack the next seat in, or end
            if self.phase == SHUFFLE:
                self.resume = PREP
            else:
                self.phase = PREP
        elif self.phase == OUTSIDE:  # a seat asked about the attack left: the next one is asked, or the defence
            self._next_bystander()

    def _call_off(self, seat: int, b: Battle) -> None:
        """W-32: a battle with a removed seat is called off: no damage and no price. The removed seat's battle
        cards go to its discard pile (face down unless revealed, W-30); the other seat takes its Army and Support
        back into its hand and its Warlord stays ready."""
        self.battle = None
        self.bystanders = []  # nobody is asked about an attack that will not be fought (W-18)
        other = b.defender if seat == b.attacker else b.attacker
        if seat == b.attacker:
            gone, back = [b.a_army, b.a_support], [b.d_army, b.d_support]
        else:
            gone, back = [b.d_army, b.d_support], [b.a_army, b.a_support]
        gone = [r for r in gone if r is not None]
        back = [r for r in back if r is not None]
        for r in gone:
            if r not in self.faces:
                self.locked.add(r)
        self.discards[seat] += gone
        self.hands[other] += back
        self.tell("called off", f"the battle between seat {b.attacker} and seat {b.defender} is called off: "
                  f"seat {other} takes back " + (_refs(back) if back else "nothing"), (other, seat), tuple(back),
                  rule="W-32")

    # -- the end ------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        return self.result

    # -- words --------------------------------------------------------------------------------
    def prompt(self, seat: int) -> str:
        if seat not in self.deciders():
            return "wait"
        p, b = self.phase, self.battle
        if p == PREP:
            head = "revenge turn: prepare" if self.revenge else "prepare (a Warlord, an exchange, an Ace, a joker)"
            if self.rescue:
                head = "your draw pile is empty: play a joker first to stay in, or " + head
            if self.may_attack():
                return f"{head}, then attack seat {self.target(seat)} or end"
            return f"{head}, then end (no attack in the first round)"
        if p == DEFEND:
            lead = "a Warlord" if b.a_warlord else "no Warlord"
            return (f"defend against seat {b.attacker} ({lead}, an Army face down): defend with a Warlord and an "
                    "Army, either alone or neither, or play an Ace")
        if p == A_SUPPORT:
            if self.reinforcements and not self.shortcuts:
                return "add a Support to your attack, or none (or first play your joker)"
            return "add a Support to your attack, or none"
        if p == EMERGENCY:
            return f"your draw pile is empty: play your Reinforcements joker now ({RESCUE_CAP} cards back), or pass"
        if p == OUTSIDE:
            return (f"seat {b.attacker} attacks seat {b.defender}: an Ace outside battle against any Warlord "
                    "(against the attacking one it withdraws the attack), or pass")
        if p == RENEWAL:
            return "your battle is over: play your Reinforcements joker before your turn ends, or pass"
        if p == D_SUPPORT:
            return "add a Support to your defence (only with an Army), or none, or play an Ace"
        return f"the attack ({b.attack} against {b.defence}) deals {b.damage} damage: accept, or play an Ace"

    def describe(self, seat: int, action: WarlordsAction) -> str:
        """One line of prose; face-down cards are named by ref only."""
        t = type(action)
        if t is PlayWarlord:
            what = f"plays {action.card} face down as a Warlord"
        elif t is Exchange:
            what = f"exchanges the Warlord {action.old} for {action.new} (face down)"
        elif t is PlayAce:
            what = f"plays {action.card} as an Ace" + (f" against the Warlord {action.target}" if action.target
                                                       else " in battle")
        elif t is Reinforce:
            what = f"plays {action.card} as the Reinforcements joker"
        elif t is Attack:
            lead = f"the Warlord {action.warlord}" if action.warlord else "no Warlord"
            what = f"attacks seat {self.target(seat)} with {lead} and {action.army} " \
                   "face down as the Army"
        elif t is Defend:
            parts = [f"the Warlord {action.warlord}" if action.warlord else "",
                     f"{action.army} face down as the Army" if action.army else ""]
            what = "defends with " + " and ".join(p for p in parts if p) if any(parts) else "does not defend"
        elif t is Support:
            what = f"adds {action.card} face down as a Support" if action.card else "adds no Support"
            if action.accept:
                what += " and accepts any damage in advance"
        elif t is Accept:
            what = "accepts the damage"
        elif t is Pass:
            what = "passes"
        else:
            what = "ends the turn"
        return f"seat {seat} {what}"

    def render(self, seat: int | None, known: Mapping[CardRef, Card]) -> str:
        return render_text(self, seat, known)

    def render_views(self, views: Sequence[tuple[int | None, Mapping[CardRef, Card]]]) -> list[str]:
        return render_text_views(self, views)

    def picture(self, seat: int | None, known: Mapping[CardRef, Card], names: Sequence[str] | None = None) -> str:
        from duelmail.games.warlords.picture import picture as draw_picture  # the SVG code, only when drawn

        return draw_picture(self, seat, known, names)

    def picture_views(self, views: Sequence[tuple[int | None, Mapping[CardRef, Card]]],
                      names: Sequence[str] | None = None) -> list[str]:
        from duelmail.games.warlords.picture import picture_views

        return picture_views(self, views, names)


RULE_OF = {PlayWarlord: "W-7", Exchange: "W-8", Reinforce: "W-25", Attack: "W-10", EndTurn: "W-4",
           Defend: "W-11", Support: "W-12", Accept: "W-20", PlayAce: "W-19"}


def _refs(refs) -> str:
    return ", ".join(map(str, refs))


def _article(word: str) -> str:
    return "an" if word[0] in "AEIOU" else "a"
