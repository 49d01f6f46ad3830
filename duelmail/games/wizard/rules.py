"""Wizard Duel as a pure state machine (digest: ``seeds/wizard.md``; rule ids Z-n refer to it).

One shared deck ``w`` of 52 cards, locked by every seat. Seat ``s``'s Lives are ``w#3s..w#3s+2``
(none with sudden death); they are in nobody's view until lost, then in their owner's. The stock is
the rest, drawn from the lowest ref up; the used pile is reshuffled once into ``w.1`` (Z-21).

A turn's card is drawn the moment the turn passes (Z-5), so the key shares that show it to the
drawer ride on the file that passed the turn and on the answers of the other seats in the next round.
Cards played name their face; the rules use the claimed face at once and check it at the reveal,
which in an honest file happens before the next action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from itertools import combinations

from duelmail.errors import DuelmailError, IllegalMove
from duelmail.games.base import PUBLIC, FaceClaims, FalseClaim, GameState, NotHeld, Outcome, Shuffle, Violation, plural
from duelmail.games.cards import Card, CardRef, standard_deck
from duelmail.games.wizard.notation import Attack, Defend, Pass, Played, Take, Target, WizardAction, played
from duelmail.games.wizard.render import render as render_text
from duelmail.games.wizard.terms import DEFEND, OVER, PHASE_NAMES, RETARGET, TURN, WINDOW
from duelmail.util.classes import dataclass

DECK = "w"
FACES: tuple[Card, ...] = standard_deck()
LIVES = 3
MAX_LISTED_DEFENCE = 3  # legal_actions lists defences of up to this many cards (larger ones are legal too)
SUITS = {"D": "protection", "H": "deflection", "S": "backfire", "C": "counterspell"}


def attack_value(face: Card) -> int:
    """Z-6: 2..10 count their rank, J, Q and K count 2, an ace 0."""
    if face.rank == 14:
        return 0
    return 2 if face.rank > 10 else face.rank


def is_face(face: Card) -> bool:
    return 11 <= face.rank <= 13


def defence_key(face: Card, shortcuts: bool = False) -> tuple[int, int]:
    """Z-10: how high a defending card stands: by the value it counts (faces 2, so they tie with 2s; an ace 0).
    With the option mail-shortcuts (the old ruling) an ace stands above everything."""
    return (1 if shortcuts and face.rank == 14 else 0, attack_value(face))


def beats(faces, strength: int) -> bool:
    """Z-9: the defending values total more than the attack's strength, or an ace is among them."""
    faces = list(faces)
    return any(f.rank == 14 for f in faces) or sum(attack_value(f) for f in faces) > strength


@dataclass(slots=True)
class Spell:
    """An attack being resolved: who casts it now, at whom, how strong, and who is protected (Z-17)."""

    owner: int  # who started it (the turn's player, or the out-of-turn attacker of a window)
    attacker: int  # who casts it now (a deflector after hearts)
    target: int
    strength: int
    strike: bool  # two face cards: no defence (Z-8)
    window: bool  # an out-of-turn attack (Z-22)
    protected: set[int] = field(default_factory=set)
    cards: list[CardRef] = field(default_factory=list)

    def copy(self) -> Spell:
        return Spell(self.owner, self.attacker, self.target, self.strength, self.strike, self.window,
                     set(self.protected), list(self.cards))


class WizardState(FaceClaims, GameState):
    """A Wizard Duel position: Lives, hands, the stock, the used pile, the spell in flight and every claim."""

    def __init__(self, n: int, lives: int = LIVES, anytime: bool = False, answer_hours: int = 0,
                 shortcuts: bool = False):
        if not 3 <= n or n * lives >= len(FACES):
            raise DuelmailError(f"Wizard Duel needs 3 or more players and a stock left after the Lives, not {n}")
        self.n = n
        self.anytime = anytime
        self.shortcuts = shortcuts  # option mail-shortcuts: Z-10's ace-high reading
        self.answer_hours = answer_hours
        self.lives: list[list[CardRef]] = [[CardRef(DECK, s * lives + i) for i in range(lives)] for s in range(n)]
        self.hands: list[list[CardRef]] = [[] for _ in range(n)]
        self.stock: list[CardRef] = [CardRef(DECK, i) for i in range(n * lives, len(FACES))]
        self.used: list[CardRef] = []  # face up, waiting for the reshuffle (Z-18, Z-21)
        self.spent: list[CardRef] = []  # face up, reshuffled into the next stock (still public)
        self.alive: list[int] = list(range(n))
        self.current = 0
        self.turn = 0
        self.generation = 0
        self.phase = TURN
        self.spell: Spell | None = None
        self.window: list[int] = []  # seats asked in the open attack window, in resolution order (Z-22)
        self.declared: dict[int, WizardAction] = {}
        self.queue: list[tuple[int, Played, int]] = []  # declared out-of-turn attacks still to resolve
        self.claims: dict[CardRef, tuple[int, Card, str]] = {}
        self.unrevealed: set[CardRef] = set()
        self.faces: dict[CardRef, Card] = {}
        self.pending: Shuffle | None = None
        self.losses = 0  # Lives lost so far (for the log)
        self.last: str = ""
        self.result: Outcome | None = None
        self._start_turn(0)

    def clone(self) -> WizardState:
        c = object.__new__(WizardState)
        c.__dict__.update(self.__dict__)
        c.lives = [list(x) for x in self.lives]
        c.hands = [list(x) for x in self.hands]
        c.stock, c.used, c.spent, c.alive = list(self.stock), list(self.used), list(self.spent), list(self.alive)
        c.spell = self.spell.copy() if self.spell else None
        c.window, c.declared, c.queue = list(self.window), dict(self.declared), list(self.queue)
        c.claims, c.unrevealed, c.faces = dict(self.claims), set(self.unrevealed), dict(self.faces)
        return c

    # -- whose move ------------------------------------------------------------------------------------
    def waiting_for(self) -> tuple[int, ...]:
        """The seats the rules wait for, ignoring reveals still in flight."""
        p = self.phase
        if p == OVER or self.pending is not None:
            return ()
        if p == TURN:
            return (self.current,)
        if p == DEFEND:
            return (self.spell.target,)
        if p == RETARGET:
            return (self.spell.attacker,)
        return tuple(s for s in self.window if s not in self.declared)

    def deciders(self) -> tuple[int, ...]:
        """Z-25: the awaited seats, each once every card the others played is face up (its own cards are
        turned up by the file it is writing, which may go on with its next decision)."""
        waiting = self.waiting_for()
        if not self.unrevealed:
            return waiting
        owners = {self.claims[r][0] for r in self.unrevealed}
        return tuple(s for s in waiting if owners <= {s})

    def chance(self) -> Shuffle | None:
        return self.pending

    def apply_shuffle(self, shuffle: Shuffle) -> None:
        if shuffle != self.pending:
            raise DuelmailError(f"unexpected shuffle {shuffle.new_deck}")
        self.pending = None
        self.spent += self.used
        self.used = []
        self.stock = list(shuffle.new_refs())
        self.tell("reshuffle", f"the stock ran out: {plural(len(self.stock), 'used card')} shuffled into a new stock",
                  numbers=(len(self.stock),), rule="Z-21")
        self._draw()

    def default_action(self, seat: int) -> WizardAction | None:
        """Z-23, Z-27: a late turn passes, a late defender takes the blow, a late attacker aims to its left."""
        if seat not in self.waiting_for():
            return None
        if self.phase == TURN:
            return Pass()
        if self.phase == DEFEND:
            return Take()
        if self.phase == RETARGET:
            return Target(self.candidates(seat)[0])
        return None  # Z-27: a window is answered by several seats at once; a late one forfeits

    def answer_deadline_hours(self, seat: int) -> int | None:
        """Z-23: an attacked player answers within ``answer-hours`` (0: the ordinary time per move)."""
        if self.answer_hours and self.phase == DEFEND and seat == self.spell.target:
            return self.answer_hours
        return None

    # -- reading the table --------------------------------------------------------------------------------
    def next_alive(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if s in self.alive:
                return s
        raise DuelmailError("nobody is left in play")

    def draws_ahead(self) -> dict[CardRef, int]:
        """Z-21: while the used pile is shuffled into a new stock, the player who must draw takes its top card as
        soon as it is locked, with nothing decided before. Z-5, Z-7: a player on turn with fewer than two cards in
        hand can only pass (an attack takes two of a suit), so the next player in play draws the stock's top card
        with no decision before it and none that can change it; not with attack windows (Z-22: others decide after
        every draw), nor when the stock is empty (a reshuffle, whose cards are not known yet)."""
        if self.result is not None:
            return {}
        if self.pending is not None:
            return {self.pending.new_refs()[0]: self.current}
        if self.anytime or self.phase != TURN or not self.stock or self.current not in self.alive \
                or len(self.hands[self.current]) >= 2:
            return {}
        drawer = self.next_alive(self.current)
        return {} if drawer == self.current else {self.stock[0]: drawer}

    def candidates(self, caster: int) -> list[int]:
        """Z-11, Z-12, Z-16: the seats ``caster`` may aim the spell in flight at, from its left."""
        protected = self.spell.protected if self.spell else set()
        out = []
        for k in range(1, self.n):
            s = (caster + k) % self.n
            if s in self.alive and s not in protected:
                out.append(s)
        return out

    def face(self, ref: CardRef) -> Card:
        return self.claims[ref][1]

    # -- legal actions ------------------------------------------------------------------------------------
    def legal_actions(self, seat: int, known: Mapping[CardRef, Card]) -> list[WizardAction]:
        if seat not in self.deciders():
            return []
        hand = [(r, known[r]) for r in self.hands[seat] if r in known]
        p = self.phase
        if p == RETARGET:
            return [Target(s) for s in self.candidates(seat)]
        if p == DEFEND:
            return [Take(), *self._defences(seat, hand)]
        out: list[WizardAction] = [Pass()]
        for (r1, f1), (r2, f2) in combinations(hand, 2):
            if f1.suit == f2.suit:
                out += [Attack(((r1, f1), (r2, f2)), t) for t in self.alive if t != seat]
        return out

    def _defences(self, seat: int, hand: list[tuple[CardRef, Card]]) -> list[WizardAction]:
        sp = self.spell
        if sp.strike:
            return []
        out: list[WizardAction] = []
        for k in range(1, min(MAX_LISTED_DEFENCE, len(hand)) + 1):
            for combo in combinations(hand, k):
                faces = [f for _, f in combo]
                if not beats(faces, sp.strength):
                    continue
                top = max(defence_key(f, self.shortcuts) for f in faces)
                for lead in combo:
                    if defence_key(lead[1], self.shortcuts) != top:
                        continue
                    cards = (lead, *(c for c in combo if c != lead))
                    if lead[1].suit == "H":
                        aims = [t for t in self.candidates(seat) if t not in sp.protected | {seat}]
                        out += [Defend(cards, t) for t in aims] or [Defend(cards)]
                    else:
                        out.append(Defend(cards))
        return out

    # -- applying decisions ---------------------------------------------------------------------------------
    def apply(self, seat: int, action: WizardAction) -> None:
        if self.phase == OVER:
            raise IllegalMove("Z-26", f"{action}: the game is over ({self.result.describe()})")
        if seat not in self.deciders():
            raise IllegalMove("Z-25", f"{action}: not seat {seat}'s decision; {self._waiting()}")
        t, p = type(action), self.phase
        if p == TURN and t is Pass:
            self.last = f"seat {seat} passes"
            self._pass_turn()
        elif p == TURN and t is Attack:
            self._attack(seat, action, window=False)
        elif p == WINDOW and t in (Pass, Attack):
            self._declare(seat, action)
        elif p == DEFEND and t is Take:
            self.last = f"seat {seat} takes the blow"
            self._hit(seat, "Z-15")
            self._end_spell()
        elif p == DEFEND and t is Defend:
            self._defend(seat, action)
        elif p == RETARGET and t is Target:
            self._retarget(seat, action)
        else:
            rule = {DEFEND: "Z-9", RETARGET: "Z-11", WINDOW: "Z-22"}.get(p, "Z-5")
            raise IllegalMove(rule, f"{action}: not possible now ({PHASE_NAMES[p]}); for seat {seat} now: "
                              f"{self.prompt(seat)}", seat=seat, move=str(action), now=self.prompt(seat))

    def _waiting(self) -> str:
        seats = self.waiting_for()
        if not seats:
            return "the cards just played are being turned up"
        return f"the rules wait for seat {', '.join(map(str, seats))} ({PHASE_NAMES[self.phase]})"

    def _take_cards(self, seat: int, cards: Played, action: WizardAction, rule: str) -> None:
        """Check that every card is in ``seat``'s hand once, then move them to the spell, face up, as claimed."""
        refs = [r for r, _ in cards]
        if len(set(refs)) != len(refs):
            raise IllegalMove(rule, f"{action}: a card is named twice")
        for r in refs:
            if r not in self.hands[seat]:
                raise IllegalMove(rule, f"{action}: {r} is not in seat {seat}'s hand", seat=seat, move=str(action),
                                  case=NotHeld(r))

    def _play(self, seat: int, cards: Played, rule: str) -> list[CardRef]:
        for r, f in cards:
            self.hands[seat].remove(r)
            self.claims[r] = (seat, f, rule)
            if r not in self.faces:
                self.unrevealed.add(r)
        return [r for r, _ in cards]

    def _check_attack(self, seat: int, a: Attack) -> None:
        self._take_cards(seat, a.cards, a, "Z-7")
        (_, f1), (_, f2) = a.cards
        if f1.suit != f2.suit:
            raise IllegalMove("Z-7", f"{a}: an attack needs two cards of one suit, not {f1} and {f2}")
        if a.target == seat or a.target not in self.alive:
            raise IllegalMove("Z-7", f"{a}: the target must be another player still in play "
                              f"({', '.join(str(s) for s in self.alive if s != seat)})")

    def _attack(self, seat: int, a: Attack, window: bool) -> None:
        self._check_attack(seat, a)
        refs = self._play(seat, a.cards, "Z-7")
        self._launch(seat, refs, [f for _, f in a.cards], a.target, window)

    def _launch(self, seat: int, refs: list[CardRef], faces: list[Card], target: int, window: bool) -> None:
        strike = all(is_face(f) for f in faces)
        self.spell = Spell(seat, seat, target, max(attack_value(f) for f in faces), strike, window, set(), refs)
        self.last = f"seat {seat} attacks seat {target}" + (" with two face cards" if strike else "")
        if strike:
            self.tell("spell", f"seat {seat} strikes seat {target} with two face cards ({_refs(refs)}): no defence",
                      (seat, target), tuple(refs), rule="Z-8")
        else:
            self.tell("spell", f"seat {seat}'s spell of strength {self.spell.strength} ({_refs(refs)}) flies at "
                      f"seat {target}", (seat, target), tuple(refs), (self.spell.strength,), rule="Z-7")
        if strike and not window:
            self._hit(target, "Z-8")
            self._end_spell()
        else:
            self.phase = DEFEND  # Z-22: an out-of-turn strike is acknowledged with 'take' by its target

    def _declare(self, seat: int, a: WizardAction) -> None:
        """Z-22: a seat's answer to the attack window; the window resolves once every seat has answered."""
        if type(a) is Attack:
            self._check_attack(seat, a)
            self._play(seat, a.cards, "Z-7")
            self.queue.append((seat, a.cards, a.target))
        self.declared[seat] = a
        if len(self.declared) == len(self.window):
            order = {s: i for i, s in enumerate(self.window)}
            self.queue.sort(key=lambda q: order[q[0]])
            self.window, self.declared = [], {}
            self._next_queued()

    def _next_queued(self) -> None:
        """Z-22: resolve the window's attacks in order; one whose caster or target has left play fizzles."""
        while self.queue:
            seat, cards, target = self.queue.pop(0)
            refs = [r for r, _ in cards]
            if seat not in self.alive or target not in self.alive:
                self.used += refs
                self.tell("fizzle", f"seat {seat}'s queued attack on seat {target} fizzles: "
                          f"{'its caster' if seat not in self.alive else 'its target'} is out", (seat, target),
                          tuple(refs), rule="Z-22")
                continue
            self._launch(seat, refs, [f for _, f in cards], target, True)
            return
        if self.current in self.alive:
            self.phase = TURN
        else:
            self._pass_turn()

    def _defend(self, seat: int, d: Defend) -> None:
        sp = self.spell
        if sp.strike:
            raise IllegalMove("Z-8", f"{d}: two face cards strike at once; the only answer is 'take'")
        self._take_cards(seat, d.cards, d, "Z-9")
        faces = [f for _, f in d.cards]
        if not beats(faces, sp.strength):
            raise IllegalMove("Z-9", f"{d}: {' + '.join(str(attack_value(f)) for f in faces)} = "
                              f"{sum(attack_value(f) for f in faces)} does not beat the attack's {sp.strength} "
                              "and no ace is among the cards")
        lead = faces[0]
        if defence_key(lead, self.shortcuts) != max(defence_key(f, self.shortcuts) for f in faces):
            raise IllegalMove("Z-10", f"{d}: the first card names the effect and must be a highest card; "
                              f"{lead} is not")
        aims = [t for t in self.candidates(seat) if t not in sp.protected | {seat}]
        if lead.suit == "H":
            if d.target is None and aims:
                raise IllegalMove("Z-12", f"{d}: a hearts defence deflects: name the new target with 'at SEAT' "
                                  f"({', '.join(map(str, aims))})", seat=seat, move=str(d),
                                  now=f"a hearts defence deflects: name the new target: {_or(aims)}")
            if d.target is not None and d.target not in aims:
                raise IllegalMove("Z-12", f"{d}: seat {d.target} cannot be the new target; unprotected players "
                                  f"in play other than seat {seat}: {', '.join(map(str, aims)) or 'none'}", seat=seat,
                                  move=str(d), now=f"{'you' if d.target == seat else f'seat {d.target}'} cannot be "
                                  f"the new target; you may name {_or(aims) or 'nobody'}")
        elif d.target is not None:
            raise IllegalMove("Z-10", f"{d}: only a hearts defence names a new target ({lead} is "
                              f"{SUITS[lead.suit]})")
        mine = self._play(seat, d.cards, "Z-9")
        sp.cards += mine
        effect = lead.suit
        self.last = f"seat {seat} defends with {SUITS[effect]}"
        total = sum(attack_value(f) for f in faces)
        head = f"seat {seat} beats the spell's {sp.strength} with {_refs(mine)} ({total})"
        if effect == "D":
            self.tell("defence", f"{head}: diamonds protect seat {seat}; seat {sp.attacker} must aim elsewhere",
                      (seat, sp.attacker), tuple(mine), (sp.strength, total), rule="Z-11")
            sp.protected.add(seat)
            self._aim(sp.attacker)
        elif effect == "H":
            self.tell("defence", f"{head}: hearts deflect it" + (f" at seat {d.target}" if d.target is not None
                                                                 else "") + f" with strength {attack_value(lead)}",
                      (seat, sp.attacker) + ((d.target,) if d.target is not None else ()), tuple(mine),
                      (sp.strength, total, attack_value(lead)), rule="Z-12")
            sp.protected.add(seat)
            sp.attacker, sp.strength = seat, attack_value(lead)
            if d.target is None:
                self._fire_back()
            else:
                sp.target = d.target
                self.phase = DEFEND
        elif effect == "S":
            self.tell("defence", f"{head}: spades backfire on seat {sp.attacker}", (seat, sp.attacker), tuple(mine),
                      (sp.strength, total), rule="Z-13")
            self._hit(sp.attacker, "Z-13")
            self._end_spell()
        else:
            self.tell("defence", f"{head}: clubs cancel the spell", (seat, sp.attacker), tuple(mine),
                      (sp.strength, total), rule="Z-14")
            self._end_spell()

    def _aim(self, caster: int) -> None:
        """Z-11: after a protection the caster needs a new target: none fires back, one is taken at once."""
        aims = self.candidates(caster)
        if not aims:
            self._fire_back()
        elif len(aims) == 1:
            self.spell.target = aims[0]
            self.phase = DEFEND
        else:
            self.phase = RETARGET

    def _fire_back(self) -> None:
        """Z-16: everyone but the caster is protected: the spell hits its caster."""
        self.last += "; the spell fires back"
        self.tell("fire back", f"every other player is protected: the spell fires back at seat {self.spell.attacker}",
                  (self.spell.attacker,), rule="Z-16")
        self._hit(self.spell.attacker, "Z-16")
        self._end_spell()

    def _retarget(self, seat: int, a: Target) -> None:
        if a.seat not in self.candidates(seat):
            raise IllegalMove("Z-11", f"{a}: the new target must be an unprotected player in play other than "
                              f"seat {seat} ({', '.join(map(str, self.candidates(seat)))})")
        self.spell.target = a.seat
        self.phase = DEFEND
        self.last = f"seat {seat} aims at seat {a.seat}"

    def _hit(self, seat: int, rule: str) -> None:
        """Z-19: a lost Life goes to its owner's hand (the lowest one left); with none left the player is out."""
        self.losses += 1
        if self.lives[seat]:
            life = self.lives[seat].pop(0)
            self.hands[seat].append(life)
            self.last += f"; seat {seat} loses a Life ({rule})"
            self.tell("life lost", f"seat {seat} loses a Life ({life} goes to the hand): "
                      f"{plural(len(self.lives[seat]), 'Life', 'Lives')} left", (seat,), (life,),
                      (len(self.lives[seat]),), rule="Z-19")
            return
        self.alive.remove(seat)
        self.last += f"; seat {seat} is out ({rule})"
        self.tell("out", f"seat {seat} has no Life left and is out of play", (seat,), rule="Z-19")
        if len(self.alive) == 1:
            self._finish(Outcome((self.alive[0],), f"seat {self.alive[0]} is the last player in play (Z-20)"))

    def _end_spell(self) -> None:
        """Z-18: the spell's cards go to the used pile; then the window's next attack, or the turn goes on."""
        sp = self.spell
        self.spell = None
        if sp is not None:
            self.used += sp.cards
        if self.phase == OVER:
            return
        if sp is not None and sp.window:
            self._next_queued()
        else:
            self._pass_turn()

    def _pass_turn(self) -> None:
        self._start_turn(self.next_alive(self.current))

    def _start_turn(self, seat: int) -> None:
        """Z-5: the turn passes and its player draws at once (the card is theirs from now on)."""
        self.current = seat
        self.turn += 1
        self.phase = TURN
        self._draw()

    def _draw(self) -> None:
        if not self.stock:
            if self.generation >= 1 or not self.used:
                why = "a second time" if self.generation else "with no used cards to reshuffle"
                self._finish(Outcome((), f"the stock ran out {why} (Z-21)"))
                return
            self.generation += 1
            self.pending = Shuffle(f"{DECK}.{self.generation}", tuple(self.used))
            return
        self.hands[self.current].append(self.stock.pop(0))
        self.tell("draw", f"seat {self.current} draws {self.hands[self.current][-1]}", (self.current,),
                  (self.hands[self.current][-1],), rule="Z-5")
        if self.anytime:
            self.open_window()

    def open_window(self) -> None:
        """Z-22: after a draw, every other player in play holding two cards or more may attack out of turn."""
        self.window = []
        s = self.current
        for _ in range(self.n - 1):
            s = (s + 1) % self.n
            if s in self.alive and len(self.hands[s]) >= 2:
                self.window.append(s)
        if self.window:
            self.phase = WINDOW
            self.declared = {}

    # -- the end --------------------------------------------------------------------------------------------
    def _finish(self, outcome: Outcome) -> None:
        if self.result is None:
            self.result = outcome
        self._clear_table()

    def _clear_table(self) -> None:
        """The game is over: cards laid on the table go to the used pile (they stay face up)."""
        self.phase = OVER
        if self.spell is not None:
            self.used += self.spell.cards
        self.used += [r for _, cards, _ in self.queue for r, _ in cards]
        self.spell, self.queue, self.pending = None, [], None

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        return self.result

    # -- a seat removed by escrow (Z-29) -----------------------------------------------------------------------
    def remove(self, seat: int) -> None:
        """Z-29: ``seat`` stopped answering and was removed: it is out of play as a player who lost its last Life
        (Z-19). Its Lives join its hand, turned face up; a spell it casts or is aimed at fizzles (its cards to the
        used pile); its place in an attack window goes, its queued attacks fizzle (Z-22); its turn passes; one
        player left wins (Z-20)."""
        self._check_removable(seat, self.n, "Z-29")
        self.removed = self.removed | {seat}
        self.tell("removed", f"seat {seat} stopped answering and is removed from play", (seat,), rule="Z-29")
        if seat not in self.alive:  # out already (Z-19): nothing more changes
            return
        self.hands[seat] += self.lives[seat]
        self.lives[seat] = []
        self.alive.remove(seat)
        self.tell("out", f"seat {seat} is out of play: its hand is turned face up", (seat,),
                  tuple(self.hands[seat]), rule="Z-29")
        if len(self.alive) == 1:
            self._finish(Outcome((self.alive[0],), f"seat {self.alive[0]} is the last player in play (Z-29)"))
            return
        sp = self.spell
        if self.phase in (DEFEND, RETARGET) and sp is not None and seat in (sp.attacker, sp.target):
            self.tell("fizzle", f"the spell {'of' if seat == sp.attacker else 'at'} seat {seat} fizzles: "
                      f"{_refs(sp.cards)} go to the used pile", (seat,), tuple(sp.cards), rule="Z-29")
            self._end_spell()
            return
        if self.phase == WINDOW:
            if seat in self.window:
                self.window.remove(seat)
                self.declared.pop(seat, None)
            for q in [q for q in self.queue if q[0] == seat]:  # its declared attack fizzles now (Z-22)
                self.queue.remove(q)
                refs = [r for r, _ in q[1]]
                self.used += refs
                self.tell("fizzle", f"seat {seat}'s declared attack on seat {q[2]} fizzles: its caster is out",
                          (seat, q[2]), tuple(refs), rule="Z-29")
            if len(self.declared) == len(self.window):
                order = {s: i for i, s in enumerate(self.window)}
                self.queue.sort(key=lambda q: order[q[0]])
                self.window, self.declared = [], {}
                self._next_queued()
            return
        if seat == self.current and self.phase == TURN:
            if self.pending is not None:  # the reshuffle comes first; its first card is the next player's draw
                self.current = self.next_alive(seat)
                self.turn += 1
            else:
                self._pass_turn()

    # -- hidden information -----------------------------------------------------------------------------------
    def retired(self) -> frozenset[int]:
        """Z-19: a player who is out is out for good; their hand is turned up and their keys become public."""
        return frozenset(s for s in range(self.n) if s not in self.alive)

    def visibility(self) -> dict[CardRef, int]:
        vis: dict[CardRef, int] = {}
        for s in range(self.n):
            for r in self.hands[s]:
                vis[r] = s if s in self.alive else PUBLIC  # Z-19: an out player's hand is turned up
        for r in self.used:
            vis[r] = PUBLIC
        for r in self.spent:
            vis[r] = PUBLIC
        if self.spell:
            for r in self.spell.cards:
                vis[r] = PUBLIC
        for _, cards, _ in self.queue:
            for r, _ in cards:
                vis[r] = PUBLIC
        return vis

    def _revealed(self, ref: CardRef) -> None:
        self.unrevealed.discard(ref)

    def _violation(self, ref: CardRef, face: Card, claim: tuple[int, Card, str]) -> Violation:
        seat, said, rule = claim
        return Violation(seat, rule, f"seat {seat} played {ref} as {said}, but it is {face} (Z-24)",
                         FalseClaim(ref, said, face))

    def _forfeit(self, v: Violation) -> None:
        """Z-24: a false claim loses the game; the others still in play share the win."""
        prev = self.result
        cheaters = tuple(sorted({*(prev.cheaters if prev else ()), v.seat}))
        if prev is not None and v.seat not in prev.winners:
            self.result = Outcome(prev.winners, prev.reason, cheaters)
        else:
            winners = tuple(s for s in (self.alive if v.seat in self.alive else range(self.n))
                            if s != v.seat and s not in self.removed)  # a removed player never wins (Z-29)
            self.result = Outcome(winners, f"seat {v.seat} cheated: {v.message}", cheaters)
        self._clear_table()

    # -- words --------------------------------------------------------------------------------------------------
    def prompt(self, seat: int) -> str:
        if seat not in self.waiting_for():
            return "wait"
        p, sp = self.phase, self.spell
        if p == TURN:
            return "pass, or attack another player with two cards of one suit"
        if p == WINDOW:
            return (f"attack window before seat {self.current}'s turn: pass, or attack another player with two "
                    "cards of one suit")
        if p == RETARGET:
            others = ", ".join(f"seat {c}" for c in self.candidates(seat))
            return f"seat {sp.target} is protected: target another player ({others})"
        if sp.strike:
            return f"seat {sp.attacker} strikes with two face cards: take"
        return (f"seat {sp.attacker} attacks you with strength {sp.strength}: take, or defend with cards worth more "
                f"than {sp.strength}, or an ace (the first card names the effect; hearts: at a player)")

    def describe(self, seat: int, action: WizardAction) -> str:
        t = type(action)
        if t is Attack:
            what = f"attacks seat {action.target} with {_and(action.cards)}"
        elif t is Defend:
            lead = action.cards[0][1]
            what = f"defends with {_and(action.cards)} ({SUITS[lead.suit]}" + \
                (f" at seat {action.target})" if action.target is not None else ")")
        elif t is Take:
            what = "takes the blow"
        elif t is Target:
            what = f"aims the spell at seat {action.seat}"
        else:
            what = "passes"
        return f"seat {seat} {what}"

    def render(self, seat: int | None, known: Mapping[CardRef, Card]) -> str:
        return render_text(self, seat, known)

    def picture(self, seat: int | None, known: Mapping[CardRef, Card], names: Sequence[str] | None = None) -> str:
        from duelmail.games.wizard.picture import picture as draw_picture  # the SVG code, only when drawn

        return draw_picture(self, seat, known, names)


def _and(cards) -> str:
    """Cards played, for a sentence: ``w#3=7h and w#9=qh``, ``w#1=9s, w#3=7h and w#9=qh``."""
    said = played(cards).split()
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _or(seats) -> str:
    """Seats to choose from, for a sentence: ``seat 1 or seat 2``."""
    return " or ".join(f"seat {s}" for s in seats)


def _refs(refs) -> str:
    return " + ".join(map(str, refs))
