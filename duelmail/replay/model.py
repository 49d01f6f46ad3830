"""A replay: the archive folded once, with a snapshot after every closed round.

``build_replay(files)`` folds an archive with ``transport.archive.fold`` itself and, each time a
round closes (its ``on_round`` hook), records a ``Step``: a snapshot of the
rules' state (``GameState.snapshot``), the faces public by then, the events of the round in words, and for every seat
the refs that seat could open by then (the rules showed the ref to it and every other locker of its deck
had published a key for it). That costs one state snapshot and one pass over the visibility per
round (none when the rules give the last step's visibility again): linear in the archive. A step is never
changed, so it shares with the step before whatever did not change.

Faces come from two places only. Public faces are public. Private faces are known to nobody but
their holder until the game is over and every seat has published its per-game seed; then the
audit recomputes every card (``AuditReport.faces``) and the replay may show each seat's cards as
that seat saw them, and everything (all hands, every deck's order). Before the audit a replay shows
public information only, whatever view is asked for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from itertools import islice
from pathlib import Path

from duelmail.engine.log import TECHNICAL, Event  # noqa: F401  (TECHNICAL: bookkeeping events)
from duelmail.engine.match import Match
from duelmail.games.base import PUBLIC, GameState, in_words
from duelmail.games.cards import Card, CardRef
from duelmail.protocol.turnfile import SignedFile
from duelmail.util.classes import dataclass

TALK = re.compile(r'^[^"]* says: "')
"""Table talk (``alice says: "..."``): words players signed, shown in order among the moves."""

REF = re.compile(r"(?<![\w#.])([a-z]+[0-9]*(?:\.[0-9]+)?#[0-9]+)(?![\w#])")
"""A card reference in rendered text (``a#3``, ``a.2#17``)."""

SEAT = re.compile(r"\b(seat|Seat) (\d+)\b")


@dataclass(frozen=True)
class Step:
    """The game as it stood when round ``round`` closed (``round`` 0: just after the genesis).

    ``seen[s]``: every ref seat ``s`` could open by then; ``holding[s]``: the refs the rules show to
    ``s`` alone right then (its hand, its face-down cards).

    ``partial`` marks a last step for a round still open (some of its files have arrived)."""

    index: int
    round: int
    state: GameState
    public: Mapping[CardRef, Card]
    seen: tuple[frozenset[CardRef], ...]
    holding: tuple[tuple[CardRef, ...], ...]
    events: tuple[Event, ...]
    awaited: tuple[int, ...]
    over: bool
    files: tuple[str, ...] = ()
    time: str = ""
    partial: bool = False

    def play_events(self) -> list[Event]:
        return [e for e in self.events if not e.technical]


@dataclass
class Replay:
    """Every step of one archived game, and what may be shown of it."""

    match: Match
    steps: list[Step]
    all_faces: dict[CardRef, Card] = field(default_factory=dict)
    files: list[SignedFile] = field(default_factory=list)  # the archive it was built from, genesis first
    _named: dict[str, str] = field(default_factory=dict, repr=False)
    _private: dict[int, tuple] = field(default_factory=dict, repr=False)
    _public: dict[int, Mapping[CardRef, Card]] = field(default_factory=dict, repr=False)
    _spaced: dict[CardRef, str] = field(default_factory=dict, repr=False)  # a ref between spaces: " a#3 "

    # -- what the archive says --------------------------------------------------------------
    @property
    def audited(self) -> bool:
        """The game is over and every seed is published: every card is known to everyone."""
        return self.match.audit is not None

    @property
    def names(self) -> list[str]:
        return self.match.names()

    @property
    def n(self) -> int:
        return self.match.n

    @property
    def title(self) -> str:
        return self.match.game.spec.title

    def verdict(self) -> tuple[str, list[str]]:
        """A one-word verdict (PASSED, CHEATING FOUND, IN PROGRESS, AWAITING SEEDS) and the audit's lines."""
        m = self.match
        lines = []
        if m.audit is not None:
            lines = list(m.audit.lines)
            word = "PASSED" if m.audit.ok and not m.violations else "CHEATING FOUND"
        elif m.over():
            word = "AWAITING SEEDS"
            lines = ["the audit waits for the per-game seeds of "
                     + ", ".join(self.names[s] for s in range(m.n) if s not in m.seeds)]
        else:
            word = "IN PROGRESS"
        for v in m.violations:
            line = f"CHEAT by seat {v.seat} [{v.rule}]: {v.message}"
            if line not in lines:
                lines.append(line)
        lines.append(m.proofs)
        return word, [m.named(line) for line in lines]

    def set_aside(self) -> list[str]:
        """Files the fold set aside (a late move after a timeout claim, a claim a timely move voided), in words."""
        void = getattr(self.match, "void", {})
        return [f"{Path(where).name}: {self.match.named(why)}" for where, why in void.values()]

    def outcome(self) -> str:
        m = self.match
        return m.describe_outcome() if m.over() else "in progress"

    # -- navigation -----------------------------------------------------------------------------
    def step_for_round(self, rnd: int) -> int:
        """Index of the step showing round ``rnd`` closed (the nearest one when rounds are missing)."""
        for s in self.steps:
            if s.round >= rnd:
                return s.index
        return self.steps[-1].index

    # -- knowledge and rendering ----------------------------------------------------------------
    def known(self, step: Step, seat: int | None, everything: bool = False) -> Mapping[CardRef, Card]:
        """Faces shown for ``seat`` at ``step``: public ones, plus (once audited) those that seat could see,
        or every face with ``everything``. Before the audit: public faces only. Do not change the result."""
        if not self.audited:
            return step.public
        if everything:
            return self.all_faces
        public = self._face_up(step)
        if seat is None:
            return public
        seen = step.seen[seat]
        private = self._private.get(id(seen))
        if private is None or private[0] is not seen:
            faces = self.all_faces
            private = (seen, {r: faces[r] for r in seen if r in faces})
            self._private[id(seen)] = private
        return {**public, **private[1]}

    def _face_up(self, step: Step) -> Mapping[CardRef, Card]:
        """Once audited: the step's public faces plus every card face up on its table, even one whose keys the
        game ended before publishing (a Warlord turned up in the battle that caught a cheat)."""
        done = self._public.get(step.index)
        if done is None:
            faces = self.all_faces
            up = {r: faces[r] for r, who in step.state.visibility().items()
                  if who == PUBLIC and r not in step.public and r in faces}
            done = self._public[step.index] = {**step.public, **up} if up else step.public
        return done

    def told_to(self, step: Step, seat: int | None, everything: bool = False) -> list[Event]:
        """The step's events as ``seat``'s view reads them: every card that view shows named by its face (a seat's
        own draws by what it drew, once audited), as its table names them; the others as recorded."""
        known = self.known(step, seat, everything)
        if known is step.public:
            return list(step.events)
        namer = step.state.card_words
        return [Event(e.round, e.seat, in_words(e.text, known, namer=namer), e.said) for e in step.events]

    def render(self, step: Step, seat: int | None, everything: bool = False) -> str:
        """The game's own text table for ``seat`` (None: a spectator), with names for seats."""
        return self.named(self.table(step, seat, everything))

    def table(self, step: Step, seat: int | None, everything: bool = False) -> str:
        """``render`` before ``named``: seats by number, as the rules write them."""
        return step.state.render(seat, self.known(step, seat, everything))

    def render_all(self, step: Step, seat: int) -> str:
        """Once audited: ``seat``'s own table with every face, and any card it holds that the table does not
        mention (``holds``), so a game whose tables never list a hand still shows it."""
        text = self.render(step, seat, everything=True)
        rest = self.holds(step, seat, text)
        return text + (f"\n{rest}" if rest else "")

    def holds(self, step: Step, seat: int, text: str) -> str:
        """The line ``render_all`` adds to ``text`` (``seat``'s table with every face): the cards ``seat`` holds
        that ``text`` does not mention ("" if none)."""
        faces, spaced = self.all_faces, self._spaced
        rest = []
        for r in step.holding[seat]:
            words = spaced.get(r)
            if words is None:
                words = spaced[r] = f" {r} "
            if words not in text and not _mentions(text, words[1:-1]):  # between spaces: mentioned, found in C
                rest.append(f"{faces.get(r, '[??]')} {r}")
        return f"{self.names[seat]} holds: {'  '.join(rest)}" if rest else ""

    def named(self, text: str) -> str:
        """Seat numbers in a rules' text become names: ``seat 1`` -> ``bob``, ``Seat 1`` -> ``Seat 1 (bob)``."""
        cache = self._named
        out = []
        for line in text.split("\n"):
            done = cache.get(line)
            if done is None:
                done = cache[line] = SEAT.sub(self._seat_name, line)
            out.append(done)
        return "\n".join(out)

    def _seat_name(self, m: re.Match) -> str:
        names = self.names
        s = int(m.group(2))
        if not 0 <= s < len(names):
            return m.group(0)
        return f"{m.group(1)} {s} ({names[s]})" if m.group(1) == "Seat" else names[s]

    def deck_orders(self) -> dict[str, list[Card | None]]:
        """Every deck's cards in position order, as the audit recomputed them (empty before the audit)."""
        if not self.audited:
            return {}
        out: dict[str, list[Card | None]] = {}
        for deck_id, deck in self.match.book.decks.items():
            out[deck_id] = [self.all_faces.get(CardRef(deck_id, i)) for i in range(deck.n)]
        return out


def build_replay(files: list[tuple[str, SignedFile]], strict: bool = True, now=None,
                 proven: frozenset[str] = frozenset()) -> Replay:
    """Fold ``files`` with ``transport.archive.fold``, recording a ``Step`` whenever a round closes.

    Proofs are deferred (see ``fold``): an audited game's passes are recomputed by the audit, so
    its replay skips the proof checks, which are most of a plain fold's time. ``proven``: files whose proofs
    this home checked as they arrived (a game folder of the home's own, ``.proven``); never an archive's own
    claim, which anyone could write."""
    from duelmail.transport.archive import fold

    recorder: _Recorder | None = None

    def on_round(match: Match, rnd: int, names: list[str], partial: bool) -> None:
        nonlocal recorder
        if recorder is None:
            recorder = _Recorder(match)
        recorder.snap(rnd, names, partial=partial)

    match = fold(files, strict, now, on_round=on_round, defer_proofs=True, proven=proven)
    replay = Replay(match, recorder.steps, files=sorted((f for _, f in files),
                                                          key=lambda f: (f.kind != "genesis", f.round, f.seat)))
    if match.audit is not None:
        replay.all_faces = {ref: match.card_of(ref, face) for ref, face in match.audit.faces.items()
                            if face is not None}
    return replay


def load_replay(path: str | Path, proven: frozenset[str] = frozenset()) -> Replay:
    """The replay of the archive in a folder (or a single file holding a whole game); ``proven`` as for
    ``build_replay``."""
    from duelmail.transport.archive import read_files

    return build_replay(read_files(Path(path)), proven=proven)


def _mentions(text: str, ref: str) -> bool:
    """``ref`` (``a#1``) appears in ``text`` as a whole reference (not as the start of ``a#12``)."""
    at = text.find(ref)
    while at >= 0:
        end = at + len(ref)
        if (end == len(text) or not text[end].isdigit()) and (at == 0 or not (text[at - 1].isalnum()
                                                                              or text[at - 1] == ".")):
            return True
        at = text.find(ref, end)
    return False


class _Recorder:
    """Takes the snapshots: incremental public faces, cumulative per-seat sight, events since the last one."""

    def __init__(self, match: Match):
        self.match = match
        self.steps: list[Step] = []
        self.public: dict[CardRef, Card] = {}
        self.seen: list[set[CardRef]] = [set() for _ in range(match.n)]
        self.frozen: list[frozenset[CardRef]] = [frozenset() for _ in range(match.n)]
        self.nevents = 0
        self.faces: dict[CardRef, int] | None = None  # the match's faces as the last step read them, and how many
        self.nfaces = 0
        self.revealed: Mapping[CardRef, Card] | None = None  # the state's public faces as the last step read them, and
        self.nrevealed = 0  # how many
        self.vis: object = None  # the visibility the last step's holding rows were read from

    def snap(self, rnd: int, files: list[str], partial: bool) -> None:
        m = self.match
        state = m.state
        public = self.public
        revealed = state.public_faces()
        if revealed is not self.revealed or len(revealed) != self.nrevealed:
            # a state's public faces only grow, in the order revealed: from the same mapping, the new ones are those
            # after the last step's
            public.update(revealed if revealed is not self.revealed else islice(revealed.items(), self.nrevealed, None))
            self.revealed, self.nrevealed = revealed, len(revealed)
        faces = m.faces
        if len(faces) != self.nfaces:
            # the match's faces only grow, in the order opened: the new ones are those after the last step's
            items = faces.items() if faces is not self.faces else islice(faces.items(), self.nfaces, None)
            for ref, face in items:
                if ref not in public:
                    public[ref] = m.card_of(ref, face)
            self.faces, self.nfaces = faces, len(faces)
        # each seat's holding row: the refs the visibility shows it alone, in its order; a step shares the last one's
        # rows while they are equal, and takes them as they are from the same visibility (a mapping given is never
        # changed: Warlords gives the same one again while no card moved)
        last = self.steps[-1] if self.steps else None
        vis = state.visibility()
        if vis is self.vis and last is not None:
            holding = last.holding
        else:
            rows: list[list[CardRef]] = [[] for _ in range(m.n)]
            adds = [row.append for row in rows]
            for ref, who in vis.items():
                if who >= 0:
                    adds[who](ref)
            kept = last.holding if last is not None else ((),) * m.n
            holding = tuple(old if old == row else row for row, old in zip(map(tuple, rows), kept, strict=True))
            self.vis = vis
        # what each seat could open by then: a ref of its row once every other locker of its deck published its key
        decks = m.book.decks
        seen = self.seen
        for who, row in enumerate(holding):
            mine = seen[who]
            if mine.issuperset(row):
                continue
            grown = False
            for ref in row:
                if ref in mine:
                    continue
                deck = decks.get(ref.deck)
                if deck is None or not deck.locked:
                    continue
                i = ref.index
                if all(i in deck.keys.get(s, ()) for s in deck.lockers if s != who):
                    mine.add(ref)
                    grown = True
            if grown:
                self.frozen[who] = frozenset(mine)
        # the round's events with the faces public by then (a battle's cards are named by their faces); an event
        # whose words that changes nothing is kept as it is (events are never changed)
        events = []
        namer = state.card_words
        for e in m.events[self.nevents:]:
            text = in_words(m.named(e.text), public, namer=namer)
            events.append(e if text == e.text else Event(e.round, e.seat, text, e.said))
        self.nevents = len(m.events)
        time = ""
        if rnd and rnd < len(m.rounds) and not partial:
            times = [f.content.get("time", "") for f in m.rounds[rnd].values()]
            time = max(times) if times else ""
        # what did not change since the last step is shared with it (a step is never changed)
        self.steps.append(Step(
            index=len(self.steps), round=rnd, state=state.snapshot(last.state if last is not None else None),
            public=last.public if last is not None and last.public == public else dict(public),
            seen=tuple(self.frozen),
            holding=holding,
            events=tuple(events), awaited=tuple(sorted(m.duties)), over=m.over(),
            files=tuple(w.rstrip("/").rsplit("/", 1)[-1] for w in files), time=time, partial=partial))
