"""Grid Duel as a pure state machine (digest: ``seeds/grid.md``; rule ids G-n refer to it).

Seat 0 plays deck ``a``, seat 1 deck ``b``. The table is a 5x5 area (positions 0..24, ``c3`` = 12 in
the middle, G-5); a position holds at most one ``Space``: its owner's *holder* (a card, with any
cards merged into it: one unit, G-24), the owner's Allies (G-23) and, during a battle, the
attacker's units in the order they arrived (G-17). Faces reach the rules only through ``reveal``;
everything a face-down card is claimed to be is recorded as a ``Claim`` and checked there and in
``audit`` (G-28).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field

from duelmail.errors import IllegalMove
from duelmail.games.base import PUBLIC, Action, FalseClaim, GameState, NotHeld, Outcome, Violation, Window, plural
from duelmail.games.cards import Card, CardRef
from duelmail.games.grid.library import CardDef, deck
from duelmail.games.grid.notation import (
    Concede,
    End,
    GridAction,
    Move,
    Orient,
    Pass,
    Place,
    Reveal,
    orient_word,
)
from duelmail.games.grid.render import render as render_text
from duelmail.games.grid.terms import (
    CENTRE,
    DECK_IDS,
    LEAP,
    ORTH,
    OVER,
    PLAY,
    SCORE,
    SIDE,
    aim,
    frame_ok,
    pos_index,
    pos_name,
    seat_of,
)
from duelmail.util.classes import dataclass

HAND = 4
ALLIES_STAY = 5  # the rules version from which a card with Allies on it may move, leaving them to hold its space (G-23)
ALLY_STEPS = 6  # the rules version from which a move may name its card, so an Ally steps off the card under it (G-23)
STALL = 10  # with mail-shortcuts: turns in a row without a card played from a hand end the game (G-27)
REPEATS = 3  # by default: the third sighting of a position at the end of a turn without a hand card played (G-27)
@dataclass(slots=True)
class Space:
    owner: int
    holder: list[CardRef]
    allies: list[CardRef] = field(default_factory=list)
    attack: list[tuple[CardRef, ...]] = field(default_factory=list)

    def copy(self) -> Space:
        return Space(self.owner, list(self.holder), list(self.allies), list(self.attack))

    def defending(self) -> list[CardRef]:
        return self.holder + self.allies

    def refs(self) -> list[CardRef]:
        return self.holder + self.allies + [r for u in self.attack for r in u]


@dataclass(frozen=True)
class Claim:
    """What a seat said about cards whose faces nobody else could see (G-28)."""

    seat: int
    refs: tuple[CardRef, ...]
    kind: str  # ally | merge (a face-up play, G-23, G-24) | mobile (a face-down card moved, G-25)
    rule: str
    action: str

    def broken(self, defs: list[CardDef | None]) -> bool | None:
        """True if these faces break the claim, False if they keep it, None while it cannot tell."""
        if None in defs:
            return None
        if self.kind == "mobile":
            return defs[0].rare == "rooted"
        return not getattr(defs[0], self.kind)


WHAT = {"ally": "an Ally", "merge": "a Merge card", "mobile": "a card that may move (not Rooted)"}


class GridState(GameState):
    """A Grid Duel position: hands, piles, the table, the faces revealed so far and every claim."""

    def __init__(self, deck0: str = "vanguard", deck1: str = "vanguard", shortcuts: bool = False):
        self.deck_names = (deck0, deck1)
        self.defs = (deck(deck0).table(0), deck(deck1).table(1))
        self.hands: list[list[CardRef]] = []
        self.piles: list[list[CardRef]] = []
        for s, d in enumerate(DECK_IDS):
            size = len(self.defs[s])
            self.hands.append([CardRef(d, i) for i in range(HAND)])
            self.piles.append([CardRef(d, i) for i in range(size - 1, HAND - 1, -1)])
        self.discards: list[list[CardRef]] = [[], []]
        self.spaces: dict[int, Space] = {}
        self.where: dict[CardRef, int] = {}  # every card on the table -> its position
        self.faces: dict[CardRef, Card] = {}
        self.face_up: set[CardRef] = set()  # table cards turned face up (public until discarded)
        self.orient: dict[CardRef, int] = {}  # orientations chosen; a forced reveal has none yet (G-8)
        self.traps: dict[int, set[CardRef]] = {}  # battle position -> defenders its attack turned up (Snare)
        self.claims: list[Claim] = []
        self.open_claims: list[Claim] = []
        self.news: list[str] = []
        self.current = 0
        self.turn = 0
        self.idle = 0
        self.shortcuts = shortcuts  # option mail-shortcuts: G-27's ten idle turns, G-7's reveals only before the action
        # G-7: the turn's action is taken and the turn goes on (its outcome awaited the opponent's keys, or a face-down
        # card moved): the mover may still reveal or concede, then passes (None: no such window; else whether the
        # action played a card from the hand)
        self.acted: bool | None = None
        self.scouted: set[CardRef] = set()  # cards a Scout turned up: their owner's key and orientation come first
        self.positions: dict[tuple, int] = {}  # positions since the last card played from a hand (G-27)
        self.phase = PLAY
        self.ended_by = ""
        self.result: Outcome | None = None

    def clone(self) -> GridState:
        c = object.__new__(GridState)
        c.__dict__.update(self.__dict__)
        c.hands = [list(h) for h in self.hands]
        c.piles = [list(p) for p in self.piles]
        c.discards = [list(d) for d in self.discards]
        c.spaces = {p: sp.copy() for p, sp in self.spaces.items()}
        c.where, c.faces, c.orient = dict(self.where), dict(self.faces), dict(self.orient)
        c.face_up = set(self.face_up)
        c.traps = {p: set(t) for p, t in self.traps.items()}
        c.claims, c.open_claims, c.news = list(self.claims), list(self.open_claims), list(self.news)
        c.positions = dict(self.positions)
        c.scouted = set(self.scouted)
        return c

    # -- card knowledge ------------------------------------------------------------------------
    def card(self, ref: CardRef, known: Mapping[CardRef, Card] | None = None) -> CardDef | None:
        """What ``ref`` is, if its face is public (or in ``known``)."""
        face = self.faces.get(ref)
        if face is None and known is not None:
            face = known.get(ref)
        return None if face is None else self.defs[seat_of(ref)].get(face)

    def card_words(self, ref: CardRef, face: Card) -> str:
        """A Grid Duel card is named by its deck's card: ``the Knight``."""
        d = self.defs[seat_of(ref)].get(face)
        return f"the {d.name}" if d is not None else str(face)

    def strength(self, ref: CardRef, role: str = "") -> int:
        d = self.card(ref)
        if d is None:
            return 0
        bonus = 2 if (role == "defend" and d.rare == "rooted") or (role == "attack" and d.rare == "siege") else 0
        return d.strength + bonus

    def targets(self, ref: CardRef) -> list[int]:
        """Where a face-up, oriented Strike or Boost card points (G-20..G-22); nothing otherwise."""
        o = self.orient.get(ref)
        d = self.card(ref)
        if o is None or d is None or not d.has_arrows or ref not in self.face_up or ref not in self.where:
            return []
        return aim(self.where[ref], d.arrows, o, seat_of(ref))

    def support(self, pos: int, seat: int, kind: str) -> int:
        """The Strike (``kind='strike'``) or Boost total ``seat``'s cards add at ``pos``."""
        total = 0
        for ref in self.orient:
            if seat_of(ref) == seat and (d := self.card(ref)) is not None:
                v = d.strike if kind == "strike" else d.boost
                if v and pos in self.targets(ref):
                    total += v
        return total

    def defence(self, pos: int) -> int:
        sp = self.spaces[pos]
        return sum(self.strength(r, "defend") for r in sp.defending()) + self.support(pos, sp.owner, "boost")

    def attack(self, pos: int) -> int:
        sp = self.spaces[pos]
        return (sum(self.strength(r, "attack") for u in sp.attack for r in u)
                + self.support(pos, 1 - sp.owner, "strike"))

    def pending(self, seat: int) -> list[CardRef]:
        """``seat``'s cards a battle or a Scout turned face up, with arrows, not yet oriented (G-8)."""
        return sorted(r for r in self.where if seat_of(r) == seat and r in self.face_up and r not in self.orient
                      and (d := self.card(r)) is not None and d.has_arrows)

    def unknown(self) -> list[CardRef]:
        """Faces battles need and nobody knows yet: a battle's cards, cards turned up by choice, and (G-25) enemy
        cards a Scout turned up, while the seat to move waits for their owner's keys."""
        faces = self.faces
        out = [r for sp in self.spaces.values() if sp.attack for r in sp.refs() if r not in faces]
        out += [r for r in sorted(self.scouted) if r not in faces and r in self.where and seat_of(r) != self.current
                and r not in out]
        return out + [r for r in self.orient if r not in faces and r not in out]

    def waiting(self) -> bool:
        """Must the seat to move wait for reveals? (G-18) Not for cards it turned up itself this turn:
        their keys travel in its own file, after which the battles they touch are resolved."""
        return any(r not in self.orient or seat_of(r) != self.current for r in self.unknown())

    def end_allowed(self) -> bool:
        """G-13: a seat has an empty draw pile and three cards or fewer in hand."""
        return any(not self.piles[s] and len(self.hands[s]) <= 3 for s in (0, 1))

    # -- whose move ----------------------------------------------------------------------------
    def deciders(self) -> tuple[int, ...]:
        if self.phase != PLAY or self.waiting():
            return ()
        if not self.shortcuts and self.pending(1 - self.current):
            return (1 - self.current,)  # G-8: cards turned up in the opponent's turn are oriented at once
        return (self.current,)

    def default_action(self, seat: int) -> GridAction | None:
        """G-8: a card turned up by force in the opponent's turn and left unoriented past the deadline keeps its
        upright orientation (a timeout claim orients it, one card a claim), and the opponent's turn goes on."""
        if self.shortcuts or seat != 1 - self.current or self.deciders() != (seat,):
            return None
        pend = self.pending(seat)
        return Orient(pend[0], 0) if pend else None

    def windows(self) -> tuple[Window, ...]:
        """G-7: after an action whose outcome needed the opponent's keys, the mover may still reveal and concede
        (protocol section 5b); ``pass`` ends its turn."""
        if self.acted is None or self.deciders() != (self.current,):
            return ()
        answers = ("pass", "reveal", "concede") + (("orient",) if self.pending(self.current) else ())
        return (Window(self.current, "G-7", "the rest of your turn, after the outcome of its action", answers),)

    def after_action(self, seat: int) -> bool:
        """G-7: could ``seat`` still do something after its action: reveal a face-down card of its own on the
        table, or concede a battle it defends? Public: which table cards are face down is seen by both."""
        return any(sp.owner == seat and sp.attack for sp in self.spaces.values()) or any(
            seat_of(r) == seat and r not in self.face_up for r in self.where)

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self, seat: int, known: Mapping[CardRef, Card]) -> list[GridAction]:
        if seat not in self.deciders():
            return []
        pend = self.pending(seat)
        if pend:
            return [Orient(r, o) for r in pend for o in range(4)]
        out: list[GridAction] = []
        mine = [r for r in self.where if seat_of(r) == seat]
        for r in sorted(mine):
            if r not in self.face_up:
                d = self.card(r, known)
                out += [Reveal(r, o) for o in (range(4) if d is not None and d.has_arrows else (0,))]
        for p, sp in sorted(self.spaces.items()):
            if sp.owner == seat and sp.attack:
                out.append(Concede(pos_name(p)))
        if self.acted is not None:  # G-7: the action is taken; reveal, concede, or pass to end the turn
            return [*out, Pass()]
        empties = self.empty_spaces()
        for h in self.hands[seat]:
            d = self.card(h, known)
            if d is None:
                continue
            ups = range(4) if d.has_arrows else (0,)
            for p in empties:
                name = pos_name(p)
                out.append(Place("play", h, name, True))
                out += [Place("play", h, name, False, o) for o in ups]
            for p, sp in sorted(self.spaces.items()):
                name = pos_name(p)
                if sp.owner != seat:
                    out += [Place("play", h, name, False, o) for o in ups]
                else:
                    for how in ("ally", "merge"):
                        if getattr(d, how):
                            out += [Place(how, h, name, False, o) for o in ups]
        for p, q, _ in self.moves(seat, known):
            tgt = self.spaces.get(q)
            hidden_arrows = tgt is not None and any(
                r not in self.face_up and (d := self.card(r, known)) is not None and d.has_arrows
                for r in self.spaces[p].holder)
            out += [Move(pos_name(p), pos_name(q), o) for o in (range(4) if hidden_arrows else (0,))]
        out += [Move("", pos_name(q), 0, r) for r, _, q in self.ally_moves(seat)]  # G-23: an Ally steps off
        if self.end_allowed():
            out.append(End())
        if not self.can_act(seat):
            out.append(Pass())
        return out

    def warning(self, seat: int, action: Action, known: Mapping[CardRef, Card]) -> str | None:
        """Beyond what the copy of the state shows: ending the game (G-13) while fewer spaces are yours than your
        opponent's loses it, whatever the face-down cards are (G-26)."""
        said = super().warning(seat, action, known)
        if said or not isinstance(action, End):
            return said
        count, _ = self.score()
        other = 1 - seat
        if count[seat] < count[other]:
            return f"ends the game, seat {other} wins: {count[other]} spaces to {count[seat]} (G-26)"
        return None

    def empty_spaces(self) -> list[int]:
        """Empty positions a card may be played to (G-5): c3 first, then wherever the grid still fits."""
        if not self.spaces:
            return [CENTRE]
        c0 = c1 = r0 = r1 = 2
        for p in self.spaces:
            c, r = p % SIDE, p // SIDE
            c0, c1, r0, r1 = min(c0, c), max(c1, c), min(r0, r), max(r1, r)
        return [c + SIDE * r for r in range(max(0, r1 - 2), min(SIDE, r0 + 3))
                for c in range(max(0, c1 - 2), min(SIDE, c0 + 3)) if c + SIDE * r not in self.spaces]

    def moves(self, seat: int, known: Mapping[CardRef, Card] | None = None) -> list[tuple[int, int, bool]]:
        """(from, to, swift) for every move ``seat`` may make, with the faces it can see (G-12, G-25)."""
        out = []
        occ = set(self.spaces)
        for p, sp in sorted(self.spaces.items()):
            if sp.owner != seat or sp.attack or sp.allies and self.plays_before(ALLIES_STAY):
                continue
            defs = [self.card(r, known) for r in sp.holder]
            if any(d is not None and d.rare == "rooted" for d in defs):
                continue
            swift = any(r in self.face_up and (d := self.card(r)) is not None and d.rare == "swift"
                        for r in sp.holder)
            dests = [(q, False) for q in ORTH[p]]
            if swift:
                dests += [(q, True) for q, mid in LEAP[p].items() if mid not in occ]
            for q, leap in dests:
                t = self.spaces.get(q)
                if t is not None and t.owner == seat:
                    continue
                if frame_ok((occ - (set() if sp.allies else {p})) | {q}):  # G-23: Allies left behind hold p
                    out.append((p, q, leap))
        return out

    def ally_moves(self, seat: int) -> list[tuple[CardRef, int, int]]:
        """(ally, from, to) for every Ally of ``seat`` that may step off the card it lies on (G-23, G-12, G-25);
        Allies are face up, so everyone sees these."""
        if self.plays_before(ALLY_STEPS):
            return []
        out = []
        occ = set(self.spaces)
        for p, sp in sorted(self.spaces.items()):
            if sp.owner != seat or sp.attack:
                continue
            for r in sp.allies:
                d = self.card(r)
                if d is None or d.rare == "rooted":
                    continue
                dests = list(ORTH[p]) + ([q for q, mid in LEAP[p].items() if mid not in occ] if d.rare == "swift"
                                         else [])
                for q in dests:
                    t = self.spaces.get(q)
                    if (t is None or t.owner != seat) and frame_ok(occ | {q}):
                        out.append((r, p, q))
        return out

    def can_act(self, seat: int) -> bool:
        """Is any action other than ``pass`` possible, on what everyone can see? (G-14)"""
        if self.end_allowed():
            return True
        if self.hands[seat] and (self.empty_spaces() or any(sp.owner != seat for sp in self.spaces.values())):
            return True
        return bool(self.moves(seat) or self.ally_moves(seat))

    # -- applying decisions --------------------------------------------------------------------
    def apply(self, seat: int, action: GridAction) -> None:
        if self.phase == OVER:
            raise IllegalMove("G-30", f"{action}: the game is over ({self.result.describe()})")
        if seat not in self.deciders():
            raise IllegalMove("G-7", f"{action}: not seat {seat}'s decision; {self._waiting_for()}")
        t = type(action)
        pend = self.pending(seat)
        if pend and t is not Orient:
            raise IllegalMove("G-8", f"{action}: first orient {', '.join(map(str, pend))}, which a battle or a "
                              "Scout turned face up (orient REF ORIENTATION)")
        if self.acted is not None and t not in (Reveal, Concede, Orient, Pass):
            raise IllegalMove("G-7", f"{action}: seat {seat} has taken this turn's action; what is left of the turn "
                              "is reveal and concede, then pass to end it", seat=seat, move=str(action),
                              now=self.prompt(seat))
        if t is Place:
            self._place(seat, action)
            self._acted(seat, played=True)
        elif t is Move:
            sp = self.spaces.get(pos_index(action.frm) if action.card is None else self.where.get(action.card, -1))
            unit = sp.holder if sp is not None and (action.card is None or action.card in sp.holder) else ()
            hidden = bool(unit) and pos_index(action.to) not in self.spaces and not any(
                r in self.face_up for r in unit)  # an Ally that steps off is face up
            self._move(seat, action)
            self._acted(seat, played=False, hidden=hidden)
        elif t is End:
            if not self.end_allowed():
                raise IllegalMove("G-13", f"{action}: the game may end only when a seat has no draw pile left and "
                                  f"three cards or fewer in hand (draw piles {len(self.piles[0])} and "
                                  f"{len(self.piles[1])}, hands {len(self.hands[0])} and {len(self.hands[1])})")
            self.turn += 1
            self._start_scoring(f"seat {seat} ended the game")
        elif t is Pass and self.acted is not None:
            self._hand_over(self.acted)
        elif t is Pass:
            if self.can_act(seat):
                raise IllegalMove("G-14", f"{action}: seat {seat} can still play, move or end; pass only when "
                                  "nothing else is possible")
            self._refill(seat)
            self._hand_over(played=False)
        elif t is Reveal:
            self._reveal(seat, action)
        elif t is Orient:
            if action.card not in pend:
                raise IllegalMove("G-8", f"{action}: {action.card} is not a card of seat {seat} waiting for an "
                                  "orientation (only cards a battle or a Scout turned face up are)", seat=seat,
                                  move=str(action), case=NotHeld(action.card, "a card of yours waiting to be oriented"))
            self.orient[action.card] = action.orient
            self._settle()
        elif t is Concede:
            self._concede(seat, action)
        else:
            raise IllegalMove("G-7", f"{action}: not a Grid Duel action")

    def _waiting_for(self) -> str:
        if self.phase == SCORE:
            return "the game is being scored: waiting for the table's cards to be revealed"
        if self.waiting():
            return "waiting for cards to be revealed"
        seat = self.deciders()[0]
        return f"waiting for seat {seat} to {self.prompt(seat)}"

    def _take(self, seat: int, a: Place) -> None:
        try:
            self.hands[seat].remove(a.card)
        except ValueError:
            raise IllegalMove("G-9", f"{a}: {a.card} is not in seat {seat}'s hand", seat=seat, move=str(a),
                              case=NotHeld(a.card)) from None

    def _turn_up(self, ref: CardRef, orient: int | None) -> None:
        self.face_up.add(ref)
        if orient is not None and ref not in self.orient:
            self.orient[ref] = orient

    def _place(self, seat: int, a: Place) -> None:
        p = pos_index(a.to)
        sp = self.spaces.get(p)
        if a.how == "play":
            if sp is None:
                if not self.spaces and p != CENTRE:
                    raise IllegalMove("G-5", f"{a}: the first card goes to c3, the middle of the table")
                if not frame_ok([*self.spaces, p]):
                    raise IllegalMove("G-5", f"{a}: {a.to} is outside every 3x3 grid that holds the cards "
                                      "on the table")
                self._take(seat, a)
                self.spaces[p] = Space(seat, [a.card])
                self.where[a.card] = p
                if not a.hidden:
                    self._turn_up(a.card, a.orient)
                return
            if sp.owner == seat:
                if sp.attack:
                    raise IllegalMove("G-11", f"{a}: you defend the battle at {a.to} and may not add cards to it; "
                                      f"only an Ally or Merge card may join it (ally/merge)")
                raise IllegalMove("G-9", f"{a}: {a.to} holds your own card; play onto it with ally or merge")
            rule = "G-11" if sp.attack else "G-10"
            if a.hidden:
                raise IllegalMove(rule, f"{a}: a card played into an enemy space must be played face up")
            self._take(seat, a)
            self.where[a.card] = p
            self._turn_up(a.card, a.orient)
            self._attack_with(p, sp, (a.card,))
            return
        rule = "G-23" if a.how == "ally" else "G-24"
        what = "an Ally" if a.how == "ally" else "a Merge card"
        if sp is None or sp.owner != seat:
            raise IllegalMove(rule, f"{a}: {what} is played onto a card you control, and you control no card at "
                              f"{a.to}")
        if a.hidden:
            raise IllegalMove(rule, f"{a}: {what} is played face up (an ability works only face up, G-19)")
        self._take(seat, a)
        self._claim(seat, (a.card,), a.how, rule, a)
        (sp.allies if a.how == "ally" else sp.holder).append(a.card)
        self.where[a.card] = p
        self._turn_up(a.card, a.orient)

    def _attack_with(self, p: int, sp: Space, unit: tuple[CardRef, ...]) -> None:
        """A unit enters an enemy space: a new battle turns its defenders face up (G-17, G-18)."""
        if not sp.attack:
            down = {r for r in sp.defending() if r not in self.face_up}
            for r in down:
                self._turn_up(r, None)
            if down:
                self.traps[p] = down
            attacker = seat_of(unit[0])
            self.tell("battle starts", f"{pos_name(p)}: seat {attacker} attacks seat {sp.owner}'s space with "
                      f"{_refs(unit)}" + (f"; the defence {_refs(sorted(down))} turns face up" if down else ""),
                      (attacker, sp.owner), (*unit, *sorted(down)), rule="G-18")
        sp.attack.append(unit)

    def _move(self, seat: int, a: Move) -> None:
        if a.card is not None:
            self._move_card(seat, a)
            return
        p, q = pos_index(a.frm), pos_index(a.to)
        sp = self.spaces.get(p)
        if sp is None or sp.owner != seat:
            if sp is not None and any(seat_of(u[0]) == seat for u in sp.attack):
                raise IllegalMove("G-12", f"{a}: your card at {a.frm} is in a battle and may not move")
            raise IllegalMove("G-12", f"{a}: you control no card at {a.frm}")
        if sp.attack:
            raise IllegalMove("G-12", f"{a}: your card at {a.frm} is in a battle (you defend it) and may not move")
        if sp.allies and self.plays_before(ALLIES_STAY):
            raise IllegalMove("G-23", f"{a}: a card with Allies on it stays where it is")
        unit = sp.holder
        defs = [self.card(r) for r in unit]
        if any(d is not None and d.rare == "rooted" for d in defs):
            raise IllegalMove("G-25", f"{a}: a Rooted card never moves")
        self._check_step(a, p, q, lambda: any(d is not None and d.rare == "swift" and r in self.face_up
                                              for r, d in zip(unit, defs, strict=True)))
        tgt = self.spaces.get(q)
        if tgt is not None and tgt.owner == seat:
            raise IllegalMove("G-12", f"{a}: {a.to} is already yours")
        left = sp.allies  # G-23: the Allies stay in the space and hold it
        occ = set(self.spaces) - (set() if left else {p})
        if not frame_ok(occ | {q}):
            raise IllegalMove("G-5", f"{a}: {a.to} is outside every 3x3 grid that holds the cards on the table")
        for r in unit:
            if r not in self.faces:
                self._claim(seat, (r,), "mobile", "G-25", a)
        del self.spaces[p]
        if left:
            self.spaces[p] = Space(seat, left[:1], left[1:])
            self.tell("allies stay", f"{pos_name(p)}: the Allies {_refs(left)} stay and hold the space; "
                      f"{_refs(left[:1])} now holds it", (seat,), tuple(left), rule="G-23")
        for r in unit:
            self.where[r] = q
        if tgt is None:
            self.spaces[q] = Space(seat, list(unit))
            return
        for r in unit:
            if r not in self.face_up:
                self._turn_up(r, a.orient)
        self._attack_with(q, tgt, tuple(unit))

    def _check_step(self, a: Move, p: int, q: int, swift) -> None:
        """G-12, G-25: a card moves one space up, down, left or right, or two over an empty space if ``swift()``
        (a face-up Swift card moves)."""
        if q in ORTH[p]:
            return
        mid = LEAP[p].get(q)
        if mid is None:
            raise IllegalMove("G-12", f"{a}: a card moves one space up, down, left or right")
        if not swift():
            raise IllegalMove("G-25", f"{a}: only a face-up Swift card moves two spaces")
        if mid in self.spaces:
            raise IllegalMove("G-25", f"{a}: a Swift card moves two spaces only over an empty space")

    def _move_card(self, seat: int, a: Move) -> None:
        """``move REF TO`` (rules version 6): the card named moves. The card holding a space moves as with
        ``move SPACE TO``; an Ally steps off the card it lies on, which stays and keeps the space (G-23)."""
        r = a.card
        if self.plays_before(ALLY_STEPS):
            raise IllegalMove("G-23", f"{a}: in a game begun under rules version {self.rules_version} a move names "
                              "the space it leaves (move c3 c4), and an Ally on a card never moves by itself")
        p = self.where.get(r)
        if p is None or seat_of(r) != seat:
            raise IllegalMove("G-12", f"{a}: {r} is not a card of yours on the table")
        sp = self.spaces[p]
        if r in sp.holder:
            self._move(seat, Move(pos_name(p), a.to, a.orient))
            return
        if sp.owner != seat or sp.attack or r not in sp.allies:
            raise IllegalMove("G-12", f"{a}: {r} is in a battle and may not move")
        q = pos_index(a.to)
        d = self.card(r)
        if d.rare == "rooted":
            raise IllegalMove("G-25", f"{a}: a Rooted card never moves")
        self._check_step(a, p, q, lambda: d.rare == "swift")
        tgt = self.spaces.get(q)
        if tgt is not None and tgt.owner == seat:
            raise IllegalMove("G-12", f"{a}: {a.to} is already yours")
        if not frame_ok(set(self.spaces) | {q}):
            raise IllegalMove("G-5", f"{a}: {a.to} is outside every 3x3 grid that holds the cards on the table")
        sp.allies.remove(r)
        self.where[r] = q
        if tgt is None:
            self.spaces[q] = Space(seat, [r])
            return
        self._attack_with(q, tgt, (r,))

    def _reveal(self, seat: int, a: Reveal) -> None:
        r = a.card
        if r not in self.where or seat_of(r) != seat or r in self.face_up:
            raise IllegalMove("G-15", f"{a}: {r} is not a face-down card of seat {seat} on the table", seat=seat,
                              move=str(a), case=NotHeld(r, "a face-down card of yours on the table"))
        self._turn_up(r, a.orient)
        self._settle()

    def _concede(self, seat: int, a: Concede) -> None:
        p = pos_index(a.at)
        sp = self.spaces.get(p)
        if sp is None or sp.owner != seat or not sp.attack:
            raise IllegalMove("G-16", f"{a}: seat {seat} defends no battle at {a.at}")
        self._win(p, "conceded")
        self._settle()

    def _claim(self, seat: int, refs: tuple[CardRef, ...], kind: str, rule: str, action) -> None:
        if not refs:
            return
        c = Claim(seat, refs, kind, rule, str(action))
        self.claims.append(c)
        self.open_claims.append(c)

    def _acted(self, seat: int, played: bool, hidden: bool = False) -> None:
        """G-7: after the action the hand refills to four. The turn then ends, unless the mover could still
        reveal or concede with something to learn or gain from waiting: the action's outcome awaits the
        opponent's keys, or (``hidden``) a face-down card moved to an empty space, whose reveal there (a Scout's)
        differs from one before the move. The turn then goes on, as an answer window (protocol 5b), until the
        mover passes. With ``mail-shortcuts`` the action always ends the turn."""
        self._refill(seat)
        owed = any(seat_of(r) != seat for r in self.unknown())
        if not self.shortcuts and (hidden or owed and self.after_action(seat)):
            self.acted = played
            return
        self._hand_over(played)

    def _refill(self, seat: int) -> None:
        hand, pile = self.hands[seat], self.piles[seat]
        while len(hand) < HAND and pile:
            hand.append(pile.pop())

    def _hand_over(self, played: bool) -> None:
        """G-7: the turn ends; the other seat moves next."""
        mover = self.current
        self.acted = None
        self.idle = 0 if played else self.idle + 1
        self.turn += 1
        self.current = 1 - mover
        if self.shortcuts and self.idle >= STALL:
            self._start_scoring(f"{STALL} turns in a row without a card played")
            return
        if played:
            self.positions = {}  # a hand card played: no earlier position can come back
        elif not self.shortcuts:
            key = self.position()
            self.positions[key] = self.positions.get(key, 0) + 1
            if self.positions[key] >= REPEATS:
                self._start_scoring(f"the same position was reached a {REPEATS}rd time by turns with no card "
                                    "played (G-27)")
                return
        self._settle()

    def position(self) -> tuple:
        """G-27: everything that decides the rest of the game: whose turn, the table, hands and piles."""
        table = tuple(sorted((p, sp.owner, tuple(sp.holder), tuple(sp.allies), tuple(sp.attack))
                             for p, sp in self.spaces.items()))
        return (self.current, table, tuple(sorted(self.face_up, key=str)), tuple(sorted(self.orient.items(), key=str)),
                tuple(map(tuple, self.hands)), tuple(map(len, self.piles)), tuple(map(len, self.discards)))

    # -- battles -------------------------------------------------------------------------------
    def _settle(self) -> None:
        """Resolve every battle the faces now allow, until nothing changes (G-17, G-25 Snare)."""
        while self.phase == PLAY and not self.unknown() and (self.shortcuts or not self.pending(1 - self.current)):
            for p in sorted(self.spaces):
                sp = self.spaces[p]
                if not sp.attack:
                    continue
                trap = self.traps.pop(p, None)
                snares = [r for r in trap or () if self.card(r).rare == "snare"]
                if snares:
                    gone = [r for u in sp.attack for r in u]
                    for r in gone:
                        self._discard(r)
                    sp.attack = []
                    self._note(f"{pos_name(p)}: the Snare {snares[0]} discards seat {1 - sp.owner}'s attack")
                    self.tell("snare", f"{pos_name(p)}: the Snare {snares[0]} discards seat {1 - sp.owner}'s attack "
                              f"({_refs(gone)})", (sp.owner, 1 - sp.owner), (snares[0], *gone), rule="G-25")
                    break
                a, d = self.attack(p), self.defence(p)
                self.tell("battle", f"{pos_name(p)}: seat {1 - sp.owner} attacks with "
                          f"{_refs([r for u in sp.attack for r in u])} ({a}) against seat {sp.owner}'s "
                          f"{_refs(sp.defending())} ({d}): " + ("the attack takes the space" if a >= d else
                                                                "the defence holds, the battle goes on"),
                          (1 - sp.owner, sp.owner), tuple(sp.refs()), (a, d), rule="G-17")
                if a >= d:
                    self._win(p, f"{a} against {d}")
                    break
            else:
                return

    def _win(self, p: int, how: str) -> None:
        """The attack takes the space: all but its last unit are discarded (G-17, G-16)."""
        sp = self.spaces[p]
        last = sp.attack[-1]
        gone = [r for r in sp.refs() if r not in last]
        for r in gone:
            self._discard(r)
        winner = seat_of(last[0])
        self.spaces[p] = Space(winner, list(last))
        self.traps.pop(p, None)
        self._note(f"{pos_name(p)}: seat {winner} takes the space ({how})")
        self.tell("space taken", f"{pos_name(p)}: seat {winner} takes the space from seat {sp.owner} ({how}), held by "
                  f"{_refs(last)}" + (f"; {_refs(gone)} to the discard piles" if gone else ""),
                  (winner, sp.owner), (*last, *gone), rule="G-16" if how == "conceded" else "G-17")

    def _note(self, text: str) -> None:
        self.news.append(f"turn {self.turn + 1}, {text}")
        del self.news[:-6]

    def _discard(self, r: CardRef) -> None:
        self.where.pop(r, None)
        self.orient.pop(r, None)
        self.face_up.discard(r)
        self.discards[seat_of(r)].append(r)

    # -- the end -------------------------------------------------------------------------------
    def _start_scoring(self, why: str) -> None:
        """G-26: every card on the table turns face up, then spaces are counted."""
        self.phase = SCORE
        self.ended_by = why
        for r in self.where:
            self.face_up.add(r)
        self._maybe_score()

    def _maybe_score(self) -> None:
        if self.phase != SCORE or any(r not in self.faces for r in self.where):
            return
        count, total = self.score()
        self.tell("score", f"the count: seat 0 controls {plural(count[0], 'space')} (strength {total[0]}), seat 1 "
                  f"{plural(count[1], 'space')} (strength {total[1]})", (0, 1), numbers=(*count, *total), rule="G-26")
        self.phase = OVER
        lead = 0 if count[0] >= count[1] else 1
        tally = f"{count[lead]} spaces to {count[1 - lead]}"
        if count[0] != count[1]:
            w = 0 if count[0] > count[1] else 1
            self.result = Outcome((w,), f"{self.ended_by}; seat {w} controls more spaces ({tally})")
        elif total[0] != total[1]:
            w = 0 if total[0] > total[1] else 1
            self.result = Outcome((w,), f"{self.ended_by}; {tally}, seat {w}'s cards holding them are stronger "
                                  f"({total[w]} to {total[1 - w]})")
        else:
            self.result = Outcome((), f"{self.ended_by}; {tally} and equal strength ({total[0]})")

    def score(self) -> tuple[list[int], list[int]]:
        """Spaces controlled (a battle counts for its defender) and the strength holding them (G-26)."""
        count, total = [0, 0], [0, 0]
        for sp in self.spaces.values():
            count[sp.owner] += 1
            total[sp.owner] += sum(d.strength for r in sp.defending() if (d := self.card(r)) is not None)
        return count, total

    def card_name(self, ref: CardRef, face: Card) -> str:
        """A designed card is called by its name (``Spitter``), never by the French face behind it."""
        d = self.defs[seat_of(ref)].get(face)
        return d.name if d is not None else str(face)

    # -- hidden information --------------------------------------------------------------------
    def visibility(self) -> dict[CardRef, int]:
        vis: dict[CardRef, int] = {}
        for s in (0, 1):
            for r in self.hands[s]:
                vis[r] = s
            for r in self.discards[s]:
                vis[r] = PUBLIC
        up = self.face_up
        for r in self.where:
            vis[r] = PUBLIC if r in up else seat_of(r)
        return vis

    def public_faces(self) -> Mapping[CardRef, Card]:
        return self.faces

    def reveal(self, ref: CardRef, face: Card) -> list[Violation]:
        if ref in self.faces:
            return []
        self.faces[ref] = face
        found = []
        for c in [c for c in self.open_claims if ref in c.refs]:
            broken = c.broken([self.card(r) for r in c.refs])
            if broken is None:
                continue
            self.open_claims.remove(c)
            if broken:
                found.append(self._violation(c, {r: self.faces[r] for r in c.refs if r in self.faces}))
        if found:
            self._forfeit(found[0])
            return found
        if self.phase == OVER:
            return []
        d = self.card(ref)
        if d is not None and d.rare == "scout" and ref in self.where and self.phase == PLAY:
            seat = seat_of(ref)
            for q in ORTH[self.where[ref]]:
                sp = self.spaces.get(q)
                for r in sp.refs() if sp is not None else ():
                    if seat_of(r) != seat and r not in self.face_up:
                        self._turn_up(r, None)
                        if not self.shortcuts:  # G-25: the owner's key and orientation come before anything else
                            self.scouted.add(r)
        if self.phase == SCORE:
            self._maybe_score()
        else:
            self._settle()
        return []

    def _violation(self, c: Claim, faces: Mapping[CardRef, Card]) -> Violation:
        shown = ", ".join(f"{r} is {faces[r]} ({self.defs[c.seat][faces[r]].summary()})" for r in c.refs if r in faces)
        first = next((r for r in c.refs if r in faces), None)
        return Violation(c.seat, c.rule, f"seat {c.seat} played '{c.action}' as if with {WHAT[c.kind]}, but {shown}",
                         None if first is None else FalseClaim(first, WHAT[c.kind], faces[first], as_if=True,
                                                               what=self.defs[c.seat][faces[first]].summary()))

    def _forfeit(self, v: Violation) -> None:
        """G-28: a broken claim ends the game at once and the cheater loses; found after the end, it
        changes the result only if the cheater had won or drawn."""
        prev = self.result
        cheaters = tuple(sorted({v.seat, *(prev.cheaters if prev else ())}))
        if prev is not None and prev.winners and v.seat not in prev.winners:
            self.result = Outcome(prev.winners, prev.reason, cheaters)
        else:
            self.result = Outcome((1 - v.seat,), f"seat {v.seat} cheated: {v.message} (rule {v.rule})", cheaters)
        self.phase = OVER

    def audit(self, faces: Mapping[CardRef, Card]) -> list[Violation]:
        out = []
        for c in self.claims:
            defs = [self.defs[c.seat].get(faces[r]) if r in faces else None for r in c.refs]
            if c.broken(defs):
                out.append(self._violation(c, faces))
        return out

    # -- the end --------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        return self.result

    # -- words ------------------------------------------------------------------------------------
    def prompt(self, seat: int) -> str:
        if seat not in self.deciders():
            return "wait"
        pend = self.pending(seat)
        if pend:
            return f"orient {', '.join(map(str, pend))} (turned face up by the opponent): orient REF ORIENTATION"
        if self.acted is not None:
            return "your action is done: reveal or concede as often as you like, then pass to end your turn"
        tail = ", end" if self.end_allowed() else ""
        return (f"play, ally, merge or move (one action{tail}); before it reveal or concede as often as you like")

    def describe(self, seat: int, action: GridAction) -> str:
        t = type(action)
        if t is Place:
            side = "face down" if action.hidden else "face up" + (
                f", {orient_word(action.orient)}" if action.orient else "")
            verb = {"play": "plays", "ally": "plays the Ally", "merge": "merges"}[action.how]
            onto = {"play": "to", "ally": "onto", "merge": "into"}[action.how]
            what = f"{verb} {action.card} {side} {onto} {action.to}"
        elif t is Move:
            what = f"moves {action.card} to {action.to}" if action.card else \
                f"moves the card at {action.frm} to {action.to}"
            if action.orient:
                what += f" ({orient_word(action.orient)})"
        elif t is Reveal:
            what = f"reveals {action.card}" + (f", {orient_word(action.orient)}" if action.orient else "")
        elif t is Orient:
            what = f"orients {action.card} {orient_word(action.orient)}"
        elif t is Concede:
            what = f"concedes the battle at {action.at}"
        elif t is End:
            what = "ends the game"
        else:
            what = "passes"
        return f"seat {seat} {what}"

    def render(self, seat: int | None, known: Mapping[CardRef, Card]) -> str:
        return render_text(self, seat, known)

    def picture(self, seat: int | None, known: Mapping[CardRef, Card], names: Sequence[str] | None = None) -> str:
        from duelmail.games.grid.picture import picture as draw_picture  # the SVG code, only when drawn

        return draw_picture(self, seat, known, names)


def _refs(refs) -> str:
    return " + ".join(map(str, refs)) or "nothing"
