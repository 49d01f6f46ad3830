"""Summoner as a pure state machine (digest: ``seeds/summoner.md``; rule ids S-n refer to it).

One shared deck ``s`` of 110 cards: ``s#0..s#4`` is seat 0's hand, ``s#5..s#9`` seat 1's, the
draw pile starts at ``s#10``. A field is a list of *units*: a summoned card, or a double card
(two refs). Every card played from a hand is played face up and names its face: the rules work
with the claimed face at once and check it when the card is revealed (``claims``), which in an
honest file happens before the next action is applied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from itertools import combinations

from duelmail.errors import DuelmailError, IllegalMove
from duelmail.games.base import PUBLIC, FaceClaims, GameState, NotHeld, Outcome, Violation, Window, plural
from duelmail.games.cards import JOKER, Card, CardRef, standard_deck
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
    played,
)
from duelmail.games.summoner.render import render as render_text
from duelmail.games.summoner.terms import (
    ANSWER,
    BATTLE,
    CHAIN,
    CLAIM,
    OVER,
    PHASE_NAMES,
    POST,
    PRE,
    SUMMON_BUDGET,
    WINDOW,
    Unit,
)
from duelmail.util.classes import dataclass

DECK = "s"
BLACK, RED = "B", "R"  # black-star and red-star jokers (XB, XR)
FACES: tuple[Card, ...] = standard_deck() + standard_deck() + (Card(JOKER, BLACK),) * 4 + (Card(JOKER, RED),) * 2
HAND_SIZE = 5
MAX_UNITS = 5
DEFAULT_LIFE = 80
STALEMATE_TURNS = 6
JOKER_WORTH = {BLACK: 1, RED: 2}
WIN_WORTH = 4
JOKERS = {BLACK: 4, RED: 2}

RANK_COPIES = 8  # every rank exists eight times: two packs of four suits


COMBINED_TIE = 4  # the rules version from which a combined attack wins a tie (S-16)


def combined_value(unit_value: int, count: int) -> int:
    """S-16: k equal cards attacking together are worth v * 2^(k-1) (three 7s: 28)."""
    return unit_value << (count - 1)


def worth(faces) -> int:
    """S-22: a black-star joker is worth 1, a red-star joker 2; other cards nothing."""
    return sum(JOKER_WORTH[f.suit] for f in faces if f.is_joker)


def is_win_set(faces) -> bool:
    """S-22: jokers only, worth exactly 4 (2 red, 4 black, or 2 black and 1 red)."""
    faces = list(faces)
    return len(faces) >= 2 and all(f.is_joker for f in faces) and worth(faces) == WIN_WORTH


@dataclass(slots=True)
class Won:
    """A battle that had a winner, for the replacement rule (S-17, S-18)."""

    side: int  # the seat whose field holds the winner
    winner: tuple[tuple[CardRef, ...], ...]  # the winning units' refs (several: a combined attack)
    diff: int
    replaced: bool = False


@dataclass(slots=True)
class Chain:
    """Jokers thrown one after another (S-19..S-21): the first one's effect holds if their number is odd."""

    kind: str  # "destroy" or "stop"
    starter: int
    target: tuple[CardRef, ...] | None
    jokers: list[CardRef] = field(default_factory=list)
    answerer: int = 0
    resume: int = PRE

    def copy(self) -> Chain:
        return Chain(self.kind, self.starter, self.target, list(self.jokers), self.answerer, self.resume)


class SummonerState(FaceClaims, GameState):
    """A Summoner position: refs in hands, on the fields and out of play, every claim and the turn's record."""

    checked_at_once = True  # S-26: every card played opens before the next action

    def __init__(self, life: int = DEFAULT_LIFE, shortcuts: bool = False):
        if life < 1:
            raise DuelmailError(f"life points must be at least 1, not {life}")
        self.window: tuple | None = None  # ("direct", attacker ref, strength) or ("replace", index in won)
        self.start_life = life
        self.shortcuts = shortcuts  # option mail-shortcuts: S-6, S-18, S-21 and S-22 as rulings that save files
        self.life = [life, life]
        self.hands: list[list[CardRef]] = [[CardRef(DECK, i) for i in range(s * HAND_SIZE, (s + 1) * HAND_SIZE)]
                                           for s in range(2)]
        self.pile: list[CardRef] = [CardRef(DECK, i) for i in range(len(FACES) - 1, 2 * HAND_SIZE - 1, -1)]
        self.unseen: list[set[CardRef]] = [set(), set()]  # drawn, not yet visible to the drawer (S-6)
        self.field: list[list[Unit]] = [[], []]
        self.gone: list[CardRef] = []  # out of play, face up
        self.claims: dict[CardRef, tuple[int, Card, str]] = {}  # ref -> (seat, claimed face, rule)
        self.unrevealed: dict[CardRef, int] = {}  # claims whose face the engine has not shown yet
        self.faces: dict[CardRef, Card] = {}
        self.current = 0
        self.turn = 1
        self.phase = PRE
        self.budget = 0  # value summoned this turn (S-9)
        self.won: list[Won] = []  # this turn's battles with a winner (S-17)
        self.answerable: list[Won] = []  # last turn's battles the seat to move may still answer (S-18)
        self.damage: list[tuple[CardRef, int]] = []  # this turn's direct attacks (S-15)
        self.pending: list[tuple[CardRef, int]] = []  # last turn's direct attacks, to take or stop (S-21)
        self.chain: Chain | None = None
        self.claimer: int | None = None  # who claimed the instant win (S-22)
        self.active = False  # anything but 'end' happened this turn (S-25)
        self.idle = 0  # consecutive turns with nothing done (S-25)
        self.taken = 0  # the last direct damage taken (for the log)
        self.result: Outcome | None = None
        self.grace: int | None = None  # a proven cheater finishing the file in progress (S-26)

    def clone(self) -> SummonerState:
        c = object.__new__(SummonerState)
        for k in _SLOTS:
            setattr(c, k, getattr(self, k))
        c.life = list(self.life)
        c.hands = [list(h) for h in self.hands]
        c.pile = list(self.pile)
        c.unseen = [set(u) for u in self.unseen]
        c.field = [[u.copy() for u in f] for f in self.field]
        c.gone = list(self.gone)
        c.claims, c.unrevealed, c.faces = dict(self.claims), dict(self.unrevealed), dict(self.faces)
        c.won = [Won(w.side, w.winner, w.diff, w.replaced) for w in self.won]
        c.answerable = [Won(w.side, w.winner, w.diff, w.replaced) for w in self.answerable]
        c.damage, c.pending = list(self.damage), list(self.pending)
        c.chain = self.chain.copy() if self.chain else None
        return c

    # -- whose move ------------------------------------------------------------------------------
    def to_move(self) -> int | None:
        """The seat the rules wait for, ignoring reveals still in flight."""
        p = self.phase
        if p == OVER:
            return None
        if p == CHAIN:
            return self.chain.answerer
        if p == CLAIM:
            return 1 - self.claimer
        if p == WINDOW:
            return 1 - self.current
        return self.current

    def deciders(self) -> tuple[int, ...]:
        """The seat to move, once every card the other seat played is revealed (S-26)."""
        if self.is_terminal():
            return ()
        seat = self.to_move()
        if any(s != seat for s in self.unrevealed.values()):
            return ()
        return (seat,)

    def windows(self) -> tuple[Window, ...]:
        """The answer windows open now (protocol 5b): a direct attack or a battle the opponent of the seat in turn
        may answer (S-21, S-18), a joker (S-20) or an instant win claim (S-22) the other seat may counter."""
        seat = self.to_move()
        if self.phase not in (WINDOW, CHAIN, CLAIM) or seat not in self.deciders():
            return ()
        win = () if self.shortcuts else ("win",)
        if self.phase == CLAIM:
            return (Window(seat, "S-22", "counter the instant win claim", ("pass", "counter")),)
        if self.phase == CHAIN:
            return (Window(seat, "S-20", "counter the joker just thrown", ("pass", "counter", *win)),)
        if self.window[0] == "direct":
            return (Window(seat, "S-21", f"a direct attack for {self.window[2]}: stop it with a joker",
                           ("pass", "stop", *win)),)
        w = self.won[self.window[1]]
        return (Window(seat, "S-18", f"replace {w.winner[0][0]} (the winner) with a card worth {w.diff}",
                       ("pass", "replace", *win)),)

    # -- reading the table -------------------------------------------------------------------------
    def face(self, ref: CardRef) -> Card:
        """The face claimed for a card in play (checked at its reveal)."""
        return self.claims[ref][1]

    def value(self, unit: Unit) -> int:
        """A summoned card's value is its rank; a double card's twice that (S-4, S-11)."""
        return self.face(unit.refs[0]).rank * len(unit.refs)

    def unit_of(self, ref: CardRef) -> tuple[int, Unit] | None:
        for s in range(2):
            for u in self.field[s]:
                if ref in u.refs:
                    return s, u
        return None

    def jokers_out(self) -> dict[str, int]:
        """Jokers already thrown, by colour (public)."""
        out = {BLACK: 0, RED: 0}
        for _, face, _ in self.claims.values():
            if face.is_joker:
                out[face.suit] += 1
        return out

    def may_hold_joker(self) -> bool:
        """S-23: as far as the public record shows, an unthrown joker exists."""
        out = self.jokers_out()
        return out[BLACK] + out[RED] < JOKERS[BLACK] + JOKERS[RED]

    def may_hold_rank(self, rank: int) -> bool:
        """S-23: as far as the public record shows, a card of this rank is still unplayed (a replacement, S-18)."""
        if not 2 <= rank <= 14:
            return False
        out = sum(1 for _, face, _ in self.claims.values() if not face.is_joker and face.rank == rank)
        return out < RANK_COPIES

    def may_hold_win_set(self) -> bool:
        """S-23: the unthrown jokers could still make a set worth 4."""
        out = self.jokers_out()
        b, r = JOKERS[BLACK] - out[BLACK], JOKERS[RED] - out[RED]
        return r >= 2 or b >= 4 or (b >= 2 and r >= 1)

    def ready_units(self, seat: int) -> list[Unit]:
        return [u for u in self.field[seat] if not u.attacked]

    def may_attack(self) -> bool:
        return self.turn > 1  # S-13

    def eligible(self, w: Won) -> bool:
        """A winner may be replaced while every one of its units is still in play unchanged (S-18)."""
        if w.replaced:
            return False
        units = {tuple(u.refs) for u in self.field[w.side]}
        return all(refs in units for refs in w.winner)

    def replaceable(self, seat: int) -> list[Won]:
        """The battles whose winner ``seat`` may replace now (S-17, S-18)."""
        if seat != self.current:
            return []
        if self.phase in (BATTLE, POST):
            return [w for w in self.won if self.eligible(w)]
        if self.phase == PRE:
            return [w for w in self.answerable if self.eligible(w)]
        return []

    # -- legal actions -----------------------------------------------------------------------------
    def legal_actions(self, seat: int, known: Mapping[CardRef, Card]) -> list[SummonerAction]:
        if seat not in self.deciders():
            return []
        hand = [(r, known[r]) for r in self.hands[seat] if r in known and r not in self.unseen[seat]]
        jokers = [(r, f) for r, f in hand if f.is_joker]
        p = self.phase
        out: list[SummonerAction] = []
        if p == ANSWER:
            return [Take()] + [Stop(r, f) for r, f in jokers]
        wins = [] if self.shortcuts else [Win(s) for s in _win_sets(jokers)]  # S-22: no timing limit
        if p == CHAIN:
            return [Pass()] + [Counter(((r, f),)) for r, f in jokers] + wins
        if p == WINDOW:
            if self.window[0] == "direct":
                return [Pass()] + [Stop(r, f) for r, f in jokers] + wins
            w = self.won[self.window[1]]
            return ([Pass()] + [Replace(w.winner[0][0], r, f) for r, f in hand if not f.is_joker and f.rank == w.diff]
                    + wins)
        if p == CLAIM:
            return [Pass()] + [Counter(s) for s in _win_sets(jokers)]
        other = 1 - seat
        mine, theirs = self.field[seat], self.field[other]
        room = SUMMON_BUDGET - self.budget
        if len(mine) < MAX_UNITS:
            out += [Summon(r, f) for r, f in hand if not f.is_joker and f.rank <= room]
        out += [Double(r, f, u.refs[0]) for r, f in hand for u in mine
                if len(u.refs) == 1 and self.face(u.refs[0]) == f]
        out += [Joker(r, f, u.refs[0]) for r, f in jokers for u in theirs]
        out += [Win(s) for s in _win_sets(jokers)]
        for w in self.replaceable(seat):
            out += [Replace(w.winner[0][0], r, f) for r, f in hand if not f.is_joker and f.rank == w.diff]
        if p in (PRE, BATTLE) and self.may_attack():
            ready = self.ready_units(seat)
            if not theirs:
                out += [Attack((u.refs[0],), None) for u in ready]
            else:
                groups: dict[int, list[Unit]] = {}
                for u in ready:
                    groups.setdefault(self.value(u), []).append(u)
                for units in groups.values():
                    for k in range(1, len(units) + 1):
                        for team in combinations(units, k):
                            out += [Attack(tuple(u.refs[0] for u in team), t.refs[0]) for t in theirs]
        if self.unseen[seat] and not self.shortcuts:
            out.append(Look())
        out.append(End())
        return out

    # -- applying decisions --------------------------------------------------------------------------
    def apply(self, seat: int, action: SummonerAction) -> None:
        if self.is_terminal():
            raise IllegalMove("S-28", f"{action}: the game is over ({self.result.describe()})")
        if seat not in self.deciders():
            raise IllegalMove("S-8", f"{action}: not seat {seat}'s decision; {self._waiting()}")
        t, p = type(action), self.phase
        if t is Counter:
            if p == CHAIN:
                self._counter_joker(seat, action)
            elif p == CLAIM:
                self._counter_win(seat, action)
            else:
                raise IllegalMove("S-20", f"{action}: a counter-joker only answers a joker just thrown by the "
                                  f"opponent, and none is waiting for an answer ({PHASE_NAMES[p]})")
        elif t is Win and p in (CHAIN, WINDOW) and not self.shortcuts:
            self._win(seat, action)  # S-22: the instant win has no timing limit
        elif p == WINDOW and t in (Pass, Stop, Replace):
            self._answer_window(seat, action)
        elif t is Pass and p in (CHAIN, CLAIM):
            if p == CHAIN:
                self._resolve_chain()
            else:
                self._finish(Outcome((self.claimer,), f"seat {self.claimer} won instantly with jokers (S-22)"))
        elif p == ANSWER and t in (Take, Stop):
            self._take() if t is Take else self._stop(seat, action)
        elif p in (PRE, BATTLE, POST) and t is Look:
            self._look(seat, action)
        elif p in (PRE, BATTLE, POST) and t in _TURN_ACTIONS:
            _TURN_ACTIONS[t](self, seat, action)
            if t is not Replace and t is not End:
                self.answerable = []  # S-18: the defender's replacements come before anything else
            self.active = self.active or t is not End
        else:
            self._wrong_phase(seat, action)
        self._settled()

    def _wrong_phase(self, seat: int, action: SummonerAction) -> None:
        rule = {ANSWER: "S-21", CHAIN: "S-20", CLAIM: "S-22"}.get(self.phase) or RULE_OF.get(type(action), "S-8")
        if self.phase == WINDOW:
            rule = "S-21" if self.window[0] == "direct" else "S-18"
        if type(action) is Win:
            rule = "S-22"
        prompt = self.prompt(seat)  # an order in the turn's phases; elsewhere it first says what happens
        order = self.phase in (PRE, BATTLE, POST)
        raise IllegalMove(rule, f"{action}: not possible now ({PHASE_NAMES[self.phase]}); seat {seat} must {prompt}",
                          seat=seat, move=str(action), must=prompt if order else None, now=None if order else prompt)

    def _waiting(self) -> str:
        seat = self.to_move()
        if seat is None:
            return "the game is over"
        if seat not in self.deciders():
            return f"waiting for the cards seat {1 - seat} played to be revealed"
        return f"waiting for seat {seat} to {self.prompt(seat)}"

    def _settled(self) -> None:
        """After every change: a seat that is not to move sees its draws (S-6); a cheater's file ends (S-26)."""
        seat = self.to_move()
        for s in range(2):
            if s != seat:
                self.unseen[s].clear()
        if self.grace is not None and seat != self.grace:
            self.grace = None
            self.phase = OVER

    def _take_card(self, seat: int, ref: CardRef, face: Card, action: SummonerAction, rule: str) -> bool:
        """Play ``ref`` from ``seat``'s hand face up as ``face``; draw (S-5). False if the draw lost the game."""
        hand = self.hands[seat]
        if ref not in hand:
            raise IllegalMove(rule, f"{action}: {ref} is not in seat {seat}'s hand", seat=seat, move=str(action),
                              case=NotHeld(ref))
        if ref in self.unseen[seat]:
            how = ("it becomes playable once the opponent has moved" if self.shortcuts else
                   "'look' first: the opponent's key share shows it, and then it may be played")
            raise IllegalMove("S-6", f"{action}: seat {seat} drew {ref} during this run of its own moves and "
                              f"cannot see it yet; {how}")
        hand.remove(ref)
        self.claims[ref] = (seat, face, rule)
        if ref not in self.faces:
            self.unrevealed[ref] = seat
        if self._draw(seat):
            return True
        self.gone.append(ref)  # the game is lost (S-7); the card played is out of play, face up
        return False

    def _draw(self, seat: int) -> bool:
        if not self.pile:
            self._finish(Outcome((1 - seat,), f"seat {seat} had to draw from an empty draw pile (S-7)"))
            return False
        ref = self.pile.pop()
        self.hands[seat].append(ref)
        self.unseen[seat].add(ref)
        return True

    def _check_hand_card(self, seat: int, ref: CardRef, action: SummonerAction, rule: str) -> None:
        """Refuse early what can be refused before anything changes (not in hand, not seen yet)."""
        if ref not in self.hands[seat]:
            raise IllegalMove(rule, f"{action}: {ref} is not in seat {seat}'s hand", seat=seat, move=str(action),
                              case=NotHeld(ref))
        if ref in self.unseen[seat]:
            how = ("it becomes playable once the opponent has moved" if self.shortcuts else
                   "'look' first: the opponent's key share shows it, and then it may be played")
            raise IllegalMove("S-6", f"{action}: seat {seat} drew {ref} during this run of its own moves and "
                              f"cannot see it yet; {how}")

    def _unit(self, seat: int, ref: CardRef, action: SummonerAction, rule: str, whose: str) -> Unit:
        for u in self.field[seat]:
            if ref in u.refs:
                return u
        raise IllegalMove(rule, f"{action}: {ref} is not a card on {whose} field")

    def _leave(self, seat: int, unit: Unit) -> None:
        """A unit leaves play: its cards go out of play, face up."""
        self.field[seat].remove(unit)
        self.gone.extend(unit.refs)

    # summoning phases
    def _summon(self, seat: int, a: Summon) -> None:
        self._check_hand_card(seat, a.card, a, "S-9")
        if a.face.is_joker:
            raise IllegalMove("S-4", f"{a}: a joker has no value and is never summoned")
        if len(self.field[seat]) >= MAX_UNITS:
            raise IllegalMove("S-10", f"{a}: seat {seat} already has {MAX_UNITS} cards on its field")
        if self.budget + a.face.rank > SUMMON_BUDGET:
            raise IllegalMove("S-9", f"{a}: this turn seat {seat} has summoned {self.budget} of "
                              f"{SUMMON_BUDGET}; {a.face} (value {a.face.rank}) does not fit")
        self._to_post()
        self.budget += a.face.rank
        if self._take_card(seat, a.card, a.face, a, "S-9"):
            self.field[seat].append(Unit([a.card]))

    def _double(self, seat: int, a: Double) -> None:
        self._check_hand_card(seat, a.card, a, "S-11")
        unit = self._unit(seat, a.target, a, "S-11", "your own")
        if len(unit.refs) != 1:
            raise IllegalMove("S-11", f"{a}: {a.target} is already a double card")
        twin = self.face(unit.refs[0])
        if a.face != twin:
            raise IllegalMove("S-11", f"{a}: a double card needs the same suit and rank; {a.target} is {twin}, "
                              f"not {a.face}")
        self._to_post()
        if self._take_card(seat, a.card, a.face, a, "S-11"):
            unit.refs.append(a.card)

    def _joker(self, seat: int, a: Joker) -> None:
        self._check_hand_card(seat, a.card, a, "S-19")
        if not a.face.is_joker:
            raise IllegalMove("S-19", f"{a}: only a joker destroys a card without battle")
        target = self._unit(1 - seat, a.target, a, "S-19", "the opponent's")
        resume = self._to_post()
        if not self._take_card(seat, a.card, a.face, a, "S-19"):
            return
        self.gone.append(a.card)
        self.chain = Chain("destroy", seat, tuple(target.refs), [a.card], 1 - seat, resume)
        self._next_answer()

    def _win(self, seat: int, a: Win) -> None:
        refs = [r for r, _ in a.cards]
        if len(set(refs)) != len(refs):
            raise IllegalMove("S-22", f"{a}: a card is named twice")
        if not is_win_set(f for _, f in a.cards):
            raise IllegalMove("S-22", f"{a}: the instant win needs jokers worth 4 (2 red, 4 black, or 2 black "
                              f"and 1 red), not {' '.join(str(f) for _, f in a.cards)}")
        for r in refs:
            self._check_hand_card(seat, r, a, "S-22")
        self._to_post()
        for r, f in a.cards:
            if not self._take_card(seat, r, f, a, "S-22"):
                return
            self.gone.append(r)
        self.claimer = seat
        if self.may_hold_win_set():
            self.phase = CLAIM
        else:
            self._finish(Outcome((seat,), f"seat {seat} won instantly with jokers; no counter was possible (S-22)"))

    def _to_post(self) -> int:
        """A summoning action after the first attack starts the post-summoning phase (S-12)."""
        if self.phase == BATTLE:
            self.phase = POST
        return self.phase

    # battle
    def _attack(self, seat: int, a: Attack) -> None:
        if self.phase == POST:
            raise IllegalMove("S-12", f"{a}: the post-summoning phase has begun; no more attacks this turn")
        if not self.may_attack():
            raise IllegalMove("S-13", f"{a}: nobody attacks in the game's first turn")
        if len(set(a.attackers)) != len(a.attackers):
            raise IllegalMove("S-16", f"{a}: a card is named twice")
        team = []
        for r in a.attackers:
            u = self._unit(seat, r, a, "S-14", "your own")
            if u in team:
                raise IllegalMove("S-16", f"{a}: {r} is part of a card already named")
            if u.attacked:
                raise IllegalMove("S-14", f"{a}: {u.refs[0]} has already attacked this turn")
            team.append(u)
        values = {self.value(u) for u in team}
        other = 1 - seat
        if len(values) > 1:
            raise IllegalMove("S-16", f"{a}: a combined attack needs cards of equal value, not "
                              f"{', '.join(str(self.value(u)) for u in team)}")
        if a.target is None:
            if self.field[other]:
                raise IllegalMove("S-15", f"{a}: seat {other} has summoned cards; attack one of them")
            if len(team) > 1:
                raise IllegalMove("S-16", f"{a}: a combined attack must target a card, never the life points")
        target = self._unit(other, a.target, a, "S-14", "the opponent's") if a.target is not None else None
        self.phase = BATTLE
        strength = combined_value(values.pop(), len(team))
        for u in team:
            u.attacked = True
        mine = [r for u in team for r in u.refs]
        if target is None:
            if self.shortcuts:
                self.damage.append((team[0].refs[0], strength))
                self.tell("direct attack", f"seat {seat} attacks seat {other}'s life points with {_refs(mine)} for "
                          f"{strength}, dealt when seat {seat} ends the turn", (seat, other), tuple(mine), (strength,),
                          rule="S-15")
                return
            self.window = ("direct", team[0].refs[0], strength)
            if self.may_hold_joker():  # S-23: a window only while a joker could be in seat other's hand
                self.phase = WINDOW
                self.tell("direct attack", f"seat {seat} attacks seat {other}'s life points with {_refs(mine)} for "
                          f"{strength}; seat {other} may stop it with a joker", (seat, other), tuple(mine),
                          (strength,), rule="S-15")
            else:
                self.tell("direct attack", f"seat {seat} attacks seat {other}'s life points with {_refs(mine)} for "
                          f"{strength}", (seat, other), tuple(mine), (strength,), rule="S-15")
                self._strike()
            return
        defence = self.value(target)
        theirs = list(target.refs)
        head = f"battle: seat {seat}'s {_refs(mine)} ({strength}) against seat {other}'s {_refs(theirs)} ({defence})"
        # S-16: a combined attack wins a tie (the source's three 7s, 28, "beat" the double ace, 28; rules version 4)
        tie_won = strength == defence and len(team) > 1 and not self.plays_before(COMBINED_TIE)
        if strength > defence:
            self._leave(other, target)
            self.won.append(Won(seat, tuple(tuple(u.refs) for u in team), strength - defence))
            what = f"seat {seat} wins by {strength - defence}; {_refs(theirs)} leaves play"
        elif tie_won:
            self._leave(other, target)
            what = f"a tie, which a combined attack wins: {_refs(theirs)} leaves play"
        elif strength < defence:
            for u in team:
                self._leave(seat, u)
            self.won.append(Won(other, (tuple(target.refs),), defence - strength))
            what = f"seat {other} wins by {defence - strength}; {_refs(mine)} leaves play"
        else:
            for u in team:
                self._leave(seat, u)
            self._leave(other, target)
            what = f"a tie: {_refs(mine + theirs)} leave play"
        self.tell("battle", f"{head}: {what}", (seat, other), (*mine, *theirs), (strength, defence), rule="S-14")
        if not self.shortcuts and strength != defence and self.may_hold_rank(abs(strength - defence)):
            self.window = ("replace", len(self.won) - 1)  # S-18: the opponent may replace the winner now
            self.phase = WINDOW

    def _replace(self, seat: int, a: Replace) -> None:
        self._check_hand_card(seat, a.card, a, "S-17")
        chances = [self.won[self.window[1]]] if self.phase == WINDOW else self.replaceable(seat)
        options = [w for w in chances if self.eligible(w) and any(a.winner in refs for refs in w.winner)]
        if not options:
            raise IllegalMove("S-18", f"{a}: {a.winner} is not the winner of a battle that seat {seat} may "
                              f"answer now")
        fits = [w for w in options if not a.face.is_joker and a.face.rank == w.diff]
        if not fits:
            diffs = " or ".join(str(w.diff) for w in options)
            raise IllegalMove("S-17", f"{a}: the replacement must be worth the difference, {diffs}; "
                              f"{a.face} is not")
        w = fits[-1]
        units = [u for u in self.field[w.side] if tuple(u.refs) in w.winner]
        at = self.field[w.side].index(units[0])
        for u in units:
            self._leave(w.side, u)
        w.replaced = True
        gone = [r for u in units for r in u.refs]
        self.tell("replace", f"{_refs(gone)}, the winner, leaves play; {a.face} ({a.card}) takes its place on seat "
                  f"{w.side}'s field", (seat, w.side), (*gone, a.card), (w.diff,), rule="S-17")
        if self._take_card(seat, a.card, a.face, a, "S-17"):
            self.field[w.side].insert(at, Unit([a.card]))

    def _look(self, seat: int, a: Look) -> None:
        """S-6: the seat sees its draws now; the engine awaits the opponent's key shares before it decides on."""
        if self.shortcuts:
            raise IllegalMove("S-6", f"{a}: with the option mail-shortcuts a card drawn this turn is seen once the "
                              "opponent has moved, and cannot be played in this turn")
        if not self.unseen[seat]:
            raise IllegalMove("S-6", f"{a}: seat {seat} has drawn nothing it cannot see yet")
        self.tell("look", f"seat {seat} asks to see {_refs(sorted(self.unseen[seat], key=lambda r: r.index))}",
                  (seat,), tuple(sorted(self.unseen[seat], key=lambda r: r.index)), rule="S-6")
        self.unseen[seat].clear()

    def apply_toss(self, starter: int) -> None:
        """S-3: the coin toss chose who plays the first turn."""
        if self.turn != 1 or self.phase != PRE or self.budget or self.active:
            raise DuelmailError(f"the coin toss comes before the first turn, not in turn {self.turn}")
        self.current = starter
        self.tell("toss", f"the coin toss: seat {starter} plays first", (starter,), rule="S-3")

    def _end(self, seat: int, a: End) -> None:
        self.idle = 0 if self.active else self.idle + 1
        self.active = False
        other = 1 - seat
        self.pending = list(self.damage)
        self.answerable = [w for w in self.won if self.eligible(w)] if self.shortcuts else []
        self.damage, self.won = [], []
        for f in self.field:
            for u in f:
                u.attacked = False
        self.current = other
        self.turn += 1
        self.budget = 0
        self.phase = ANSWER if self.pending else PRE
        if self.idle >= STALEMATE_TURNS:
            self._stalemate()

    def _stalemate(self) -> None:
        """S-25: the turns go by with nothing done: more life points win, equal ones draw."""
        a, b = self.life
        why = f"{STALEMATE_TURNS} turns in a row passed with nothing done (S-25); life points {a} to {b}"
        self._finish(Outcome(() if a == b else ((0,) if a > b else (1,)), why))

    # answers
    def _answer_window(self, seat: int, a: SummonerAction) -> None:
        """The opponent's answer to a direct attack (S-21) or to a battle with a winner (S-18), at once."""
        kind, t = self.window[0], type(a)
        if t is Pass:
            if kind == "direct":
                self._strike()
            else:
                self.window, self.phase = None, BATTLE
        elif kind != ("direct" if t is Stop else "replace"):
            raise IllegalMove("S-21" if t is Stop else "S-18",
                              f"{a}: this window answers {'a direct attack' if kind == 'direct' else 'a battle'}; "
                              f"seat {seat} must {self.prompt(seat)}")
        elif t is Stop:
            self._stop(seat, a)
        else:
            self._replace(seat, a)
            if self.phase == WINDOW:
                self.window, self.phase = None, BATTLE

    def _strike(self) -> None:
        """S-21, S-24: a direct attack's damage counts at once; life at zero ends the game."""
        _, _, strength = self.window
        self.window, self.phase = None, BATTLE
        self._hurt(1 - self.current, strength)

    def _take(self) -> None:
        seat = self.current
        self.active = True
        total = sum(v for _, v in self.pending)
        self.pending = []
        self.phase = PRE
        self.taken = total
        self._hurt(seat, total)

    def _hurt(self, seat: int, amount: int) -> None:
        left = self.life[seat] - amount
        said = f"{self.life[seat]} -> {left}" if left > 0 else f"{self.life[seat]} -> none left"  # never '-> -6'
        self.tell("damage", f"seat {seat} loses {amount} life points: {said}", (seat,),
                  numbers=(amount, left), rule="S-24")
        self.life[seat] -= amount
        if self.life[seat] <= 0:
            self._finish(Outcome((1 - seat,), f"seat {seat}'s life points fell to zero (S-24)"))

    def _stop(self, seat: int, a: Stop) -> None:
        self._check_hand_card(seat, a.card, a, "S-21")
        if not a.face.is_joker:
            raise IllegalMove("S-21", f"{a}: only a joker stops an attack on the life points")
        self.active = True
        if not self._take_card(seat, a.card, a.face, a, "S-21"):
            return
        self.gone.append(a.card)
        self.chain = Chain("stop", seat, None, [a.card], 1 - seat, PRE if self.shortcuts else POST)
        self._next_answer()

    def _counter_joker(self, seat: int, a: Counter) -> None:
        if len(a.cards) != 1:
            raise IllegalMove("S-20", f"{a}: one joker answers one joker")
        (ref, face), = a.cards
        self._check_hand_card(seat, ref, a, "S-20")
        if not face.is_joker:
            raise IllegalMove("S-20", f"{a}: only a joker counters a joker")
        if not self._take_card(seat, ref, face, a, "S-20"):
            return
        self.gone.append(ref)
        ch = self.chain
        ch.jokers.append(ref)
        ch.answerer = 1 - seat
        self._next_answer()

    def _next_answer(self) -> None:
        """Open the answer window if the answerer may hold a joker (S-23), else settle the chain."""
        if self.may_hold_joker():
            self.phase = CHAIN
        else:
            self._resolve_chain()

    def _resolve_chain(self) -> None:
        ch = self.chain
        holds = len(ch.jokers) % 2 == 1
        self.chain = None
        thrown = f"{plural(len(ch.jokers), 'joker')} thrown"
        if ch.kind == "destroy":
            self.phase = ch.resume
            if holds:
                hit = self.unit_of(ch.target[0])
                if hit is not None and tuple(hit[1].refs) == ch.target:
                    self._leave(*hit)
                self.tell("joker", f"{thrown}: seat {ch.starter}'s joker stands and {_refs(ch.target)} leaves play",
                          (ch.starter,), (*ch.jokers, *ch.target), (len(ch.jokers),), rule="S-19")
            else:
                self.tell("joker", f"{thrown}: seat {ch.starter}'s joker is countered and {_refs(ch.target)} stays",
                          (ch.starter,), (*ch.jokers, *ch.target), (len(ch.jokers),), rule="S-20")
        elif not self.shortcuts:
            if holds:  # S-21: the attack is cancelled and the attacker enters the post-summoning phase
                self.window, self.phase = None, POST
                self.tell("joker", f"{thrown}: seat {ch.starter} stops the direct attack; seat {1 - ch.starter} "
                          "enters the post-summoning phase", (ch.starter,), tuple(ch.jokers), (len(ch.jokers),),
                          rule="S-21")
            else:
                self.tell("joker", f"{thrown}: seat {ch.starter}'s stop is countered, the direct attack hits",
                          (ch.starter,), tuple(ch.jokers), (len(ch.jokers),), rule="S-20")
                self._strike()
        else:
            self.phase = PRE
            if holds:
                self.tell("joker", f"{thrown}: seat {ch.starter} stops the direct attacks", (ch.starter,),
                          tuple(ch.jokers), (len(ch.jokers),), rule="S-21")
                self.pending = []
            else:
                self.tell("joker", f"{thrown}: seat {ch.starter}'s stop is countered, the direct attacks hit",
                          (ch.starter,), tuple(ch.jokers), (len(ch.jokers),), rule="S-20")
                self._take()

    def _counter_win(self, seat: int, a: Counter) -> None:
        refs = [r for r, _ in a.cards]
        if len(set(refs)) != len(refs) or not is_win_set(f for _, f in a.cards):
            raise IllegalMove("S-22", f"{a}: only jokers worth 4 (2 red, 4 black, or 2 black and 1 red) answer "
                              "an instant win claim")
        for r in refs:
            self._check_hand_card(seat, r, a, "S-22")
        for r, f in a.cards:
            if not self._take_card(seat, r, f, a, "S-22"):
                return
            self.gone.append(r)
        self._finish(Outcome((seat,), f"seat {seat} countered the instant win claim with jokers and won (S-22)"))

    # -- the end ------------------------------------------------------------------------------------
    def _finish(self, outcome: Outcome) -> None:
        if self.result is None:
            self.result = outcome
        self.phase = OVER
        self.grace = None
        self.chain = None
        self.window = None

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        return self.result

    # -- hidden information ---------------------------------------------------------------------------
    def visibility(self) -> dict[CardRef, int]:
        vis: dict[CardRef, int] = {}
        seat = self.to_move()
        for s in range(2):
            hide = self.unseen[s] if s == seat else ()
            for r in self.hands[s]:
                if r not in hide:
                    vis[r] = s
            for u in self.field[s]:
                for r in u.refs:
                    vis[r] = PUBLIC
        for r in self.gone:
            vis[r] = PUBLIC
        return vis

    def _revealed(self, ref: CardRef) -> None:
        self.unrevealed.pop(ref, None)

    def _forfeit(self, v: Violation) -> None:
        """S-26: a false claim loses the game; found after the end, it takes the win from the cheater."""
        prev = self.result
        why = f"seat {v.seat} cheated: {v.message} (rule {v.rule})"
        if prev is not None and v.seat not in prev.winners:
            self.result = Outcome(prev.winners, prev.reason, tuple(sorted({*prev.cheaters, v.seat})))
        else:
            self.result = Outcome((1 - v.seat,), why, tuple(sorted({*(prev.cheaters if prev else ()), v.seat})))
        if self.phase != OVER and self.to_move() == v.seat:
            self.grace = v.seat  # the cheater's file is being applied: the game ends when it hands over
        else:
            self.phase = OVER
            self.chain = None
            self.window = None

    # -- words ------------------------------------------------------------------------------------------
    def prompt(self, seat: int) -> str:
        if seat not in self.deciders():
            return "wait"
        p = self.phase
        if p == ANSWER:
            total = sum(v for _, v in self.pending)
            return f"the opponent's direct attacks deal {total} damage: take, or stop them with a joker"
        if p == CHAIN:
            ch = self.chain
            what = f"destroys {ch.target[0]}" if ch.kind == "destroy" else "stops the direct attacks"
            return (f"a joker of seat {ch.starter} {what} ({plural(len(ch.jokers), 'joker')} thrown): "
                    "counter with a joker, or pass")
        if p == CLAIM:
            return f"seat {self.claimer} claims the instant win: counter with jokers worth 4, or pass (and lose)"
        if p == WINDOW:
            if self.window[0] == "direct":
                return (f"seat {self.current} attacks your life points for {self.window[2]}: stop it with a joker, "
                        "or pass (the damage counts now)")
            w = self.won[self.window[1]]
            return f"after the battle you may replace the winner with a card worth {w.diff}, or pass"
        head = {PRE: "summon, double, joker", BATTLE: "attack, replace, or summon (ends the battle)",
                POST: "summon, double, joker"}[p]
        if p == PRE and not self.may_attack():
            head += " (no attack in the game's first turn)"
        elif p == PRE:
            head += ", attack"
        if self.replaceable(seat):
            head += ", replace a battle winner"
        return f"{head}; then end (summoned {self.budget} of {SUMMON_BUDGET} this turn)"

    def describe(self, seat: int, action: SummonerAction) -> str:
        """One line of prose; cards on the table are named with their faces."""
        t, name = type(action), self._name
        if t is Summon:
            what = f"summons {action.face} ({action.card})"
        elif t is Double:
            what = f"lays {action.face} ({action.card}) on {name(action.target)}: a double card"
        elif t is Joker:
            what = f"throws {action.card} to destroy {name(action.target)}"
        elif t is Win:
            what = "claims the instant win with " + ", ".join(played(r, f) for r, f in action.cards)
        elif t is Attack:
            who = " and ".join(map(name, action.attackers))
            what = f"attacks {'the life points' if action.target is None else name(action.target)} with {who}"
        elif t is Replace:
            what = f"replaces {name(action.winner)} (the winner) with {action.face} ({action.card})"
        elif t is Take:
            total = sum(v for _, v in self.pending) if self.phase == ANSWER else self.taken
            what = f"takes {total} damage"
        elif t is Stop:
            what = f"stops the direct attacks with {action.card}"
        elif t is Counter:
            what = "counters with " + ", ".join(played(r, f) for r, f in action.cards)
        elif t is Pass:
            what = "passes"
        elif t is Look:
            what = "asks to see the cards drawn this turn"
        else:
            what = "ends the turn"
        return f"seat {seat} {what}"

    def _name(self, ref: CardRef) -> str:
        claim = self.claims.get(ref)
        return f"{claim[1]} ({ref})" if claim else str(ref)

    def render(self, seat: int | None, known: Mapping[CardRef, Card]) -> str:
        return render_text(self, seat, known)

    def picture(self, seat: int | None, known: Mapping[CardRef, Card], names: Sequence[str] | None = None) -> str:
        from duelmail.games.summoner.picture import picture as draw_picture  # the SVG code, only when drawn

        return draw_picture(self, seat, known, names)


def _refs(refs) -> str:
    return " + ".join(map(str, refs))


def _win_sets(jokers: list[tuple[CardRef, Card]]) -> list[tuple[tuple[CardRef, Card], ...]]:
    """Every set of these jokers worth exactly 4 (S-22)."""
    out = []
    for k in range(2, len(jokers) + 1):
        for combo in combinations(jokers, k):
            if is_win_set(f for _, f in combo):
                out.append(combo)
    return out


_TURN_ACTIONS = {
    Summon: SummonerState._summon, Double: SummonerState._double, Joker: SummonerState._joker,
    Win: SummonerState._win, Attack: SummonerState._attack, Replace: SummonerState._replace,
    End: SummonerState._end,
}
RULE_OF = {Look: "S-6", Summon: "S-9", Double: "S-11", Joker: "S-19", Win: "S-22", Attack: "S-14", Replace: "S-18",
           End: "S-8", Take: "S-21", Stop: "S-21", Counter: "S-20", Pass: "S-20"}
_SLOTS = ("start_life", "current", "turn", "phase", "budget", "claimer", "active", "idle", "taken", "result",
          "grace", "shortcuts", "window", "rules_version")
