"""High Card: the smallest game that uses every engine path, for engine tests.

A shared 13-card stock (spades) locked by every seat; each seat gets one card (private).
In seat order each seat says ``keep`` or ``swap`` (its card goes face up to the discard pile and
it takes the next stock card; with option ``reshuffle`` the discards and the rest of the stock
are first reshuffled into a new pile). Then every hand is turned face up at once (a round that
all seats answer concurrently); the highest card wins. ``claim-high`` is a claim checked at the
reveal (a lie is a Violation). With option ``retire`` a seat may ``fold`` instead: it is out for good
(``retired``), its card is turned face up at once and the highest card among the others wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from duelmail.errors import IllegalMove, NotationError
from duelmail.games.base import (
    PUBLIC,
    Action,
    DeckSpec,
    Game,
    GameSpec,
    GameState,
    Option,
    Outcome,
    RandomBot,
    Sealed,
    Shuffle,
    Violation,
    register,
)
from duelmail.games.cards import Card, CardRef


@dataclass(frozen=True)
class Say(Action):
    word: str

    def __str__(self):
        return self.word


@dataclass(frozen=True)
class Bid(Action):
    """A secret bid (1-3) that every seat commits at once, added to its card at the end."""

    amount: int

    def __str__(self):
        return f"bid {self.amount}"

    def sealed(self):
        return "bid"


class HighCardState(GameState):
    def __init__(self, n: int, reshuffle: bool, bidding: bool = False, retire: bool = False):
        self.n = n
        self.retire = retire
        self.folded: set[int] = set()
        self.bidding = bidding
        self.committed: set[int] = set()
        self.bids: dict[int, int] = {}
        self.reshuffle = reshuffle
        self.stock = [CardRef("s", i) for i in range(13)]
        self.hands = {s: self.stock.pop(0) for s in range(n)}
        self.discard: list[CardRef] = []
        self.turn = 0
        self.shown = False
        self.faces: dict[CardRef, Card] = {}
        self.claims: dict[CardRef, int] = {}
        self.pending: Shuffle | None = None
        self.generation = 0
        self.result: Outcome | None = None

    def clone(self):
        twin = HighCardState.__new__(HighCardState)
        twin.__dict__ = {k: (v.copy() if isinstance(v, (list, dict, set)) else v) for k, v in self.__dict__.items()}
        return twin

    def deciders(self):
        if self.result or self.pending or self.turn >= self.n:
            return ()
        if self.bidding and len(self.bids) < self.n:
            return tuple(s for s in range(self.n) if s not in self.committed)
        return (self.turn,)

    def openings(self):
        if self.bidding and len(self.committed) == self.n:
            return {s: ("bid",) for s in range(self.n) if s not in self.bids}
        return {}

    def apply_open(self, seat, label, action):
        if not 1 <= action.amount <= 3:
            raise IllegalMove("H-5", f"a bid is 1 to 3, not {action.amount}")
        self.bids[seat] = action.amount

    def chance(self):
        return self.pending

    def apply_shuffle(self, shuffle):
        self.stock = list(shuffle.new_refs())
        self.pending = None
        self._take(self.turn)

    def _take(self, seat):
        self.hands[seat] = self.stock.pop(0)
        self.turn += 1
        self._maybe_show()

    def legal_actions(self, seat, known):
        if self.bidding and len(self.bids) < self.n:
            return [Bid(a) for a in (1, 2, 3)]
        acts = [Say("keep"), Say("swap")]
        if known.get(self.hands[seat]) and known[self.hands[seat]].rank >= 10:
            acts.append(Say("claim-high"))
        if self.retire and len(self.folded) < self.n - 1:
            acts.append(Say("fold"))
        return acts

    def apply(self, seat, action):
        if seat not in self.deciders():
            raise IllegalMove("H-1", f"{action}: not seat {seat}'s turn")
        if isinstance(action, Sealed):
            self.committed.add(seat)
            return
        if isinstance(action, Bid):
            raise IllegalMove("H-5", "a bid must travel sealed")
        if action.word == "keep":
            self.turn += 1
            self._maybe_show()
        elif action.word == "claim-high":
            self.claims[self.hands[seat]] = seat
            self.turn += 1
            self._maybe_show()
        elif action.word == "fold":
            if not self.retire or len(self.folded) >= self.n - 1:
                raise IllegalMove("H-6", "fold: only with option retire, and never by the last seat in")
            self.folded.add(seat)
            self.turn += 1
            self._maybe_show()
        elif action.word == "swap":
            self.discard.append(self.hands[seat])
            if self.reshuffle:
                self.generation += 1
                self.pending = Shuffle(f"s.{self.generation}", tuple(self.discard + self.stock))
                self.discard = []
            else:
                self._take(seat)
        else:
            raise IllegalMove("H-2", f"unknown word {action.word!r}")

    def _maybe_show(self):
        if self.turn >= self.n:
            self.shown = True
            self._maybe_end()

    def _maybe_end(self):
        if self.shown and all(self.hands[s] in self.faces for s in range(self.n)) and not self.result:
            best = max((s for s in range(self.n) if s not in self.folded),
                       key=lambda s: self.faces[self.hands[s]].rank + self.bids.get(s, 0))
            self.result = Outcome((best,), f"highest card {self.faces[self.hands[best]]}")

    def visibility(self):
        out = {ref: PUBLIC for ref in self.discard}
        for s, ref in self.hands.items():
            out[ref] = PUBLIC if self.shown or s in self.folded else s
        return out

    def retired(self):
        return frozenset(self.folded)

    def reveal(self, ref, face):
        self.faces[ref] = face
        found = []
        if ref in self.claims and face.rank < 10:
            cheat = self.claims[ref]
            found.append(Violation(cheat, "H-9", f"claimed high but held {face}"))
            self.result = Outcome(tuple(s for s in range(self.n) if s != cheat), "cheat", (cheat,))
        self._maybe_end()
        return found

    def public_faces(self):
        return self.faces

    def audit(self, faces):
        return [Violation(s, "H-9", f"claimed high but held {faces[r]}") for r, s in self.claims.items()
                if r in faces and faces[r].rank < 10]

    def is_terminal(self):
        return self.result is not None

    def outcome(self):
        return self.result

    def render(self, seat, known):
        return " ".join(f"{s}:{known.get(r, '??')}" for s, r in self.hands.items())


class HighCard(Game):
    spec = GameSpec("highcard", "High Card (test game)", 1, 2, 6,
                    (Option("reshuffle", False, "reshuffle before a swap"),
                     Option("bid", False, "every seat commits a secret bid first"),
                     Option("retire", False, "a seat may fold: it retires from play")))
    bots = {"random": RandomBot}

    def decks(self, nseats, options):
        return (DeckSpec("s", tuple(Card(r, "S") for r in range(2, 15))),)

    def new_state(self, nseats, options):
        return HighCardState(nseats, bool(options["reshuffle"]), bool(options["bid"]), bool(options["retire"]))

    def parse_action(self, text):
        if text.startswith("bid "):
            try:
                return Bid(int(text[4:]))
            except ValueError:
                raise NotationError(f"not a bid: {text!r}") from None
        if text not in ("keep", "swap", "claim-high", "fold"):
            raise NotationError(f"not a High Card move: {text!r}")
        return Say(text)

    def sealed_size(self, label):
        return 8 if label == "bid" else super().sealed_size(label)  # 'bid N'


register(HighCard())
