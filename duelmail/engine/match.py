"""A game folded from its log: ``state = fold(rules, genesis, turns)``.

``Match`` checks and applies one signed file at a time (signature, game, chain, round, seat,
deck steps, key shares, actions, timing of reveals) and knows, for the open round, which seats
are awaited and for what (``Duty``). It composes a seat's next file with every decision-free
part filled in (deck steps, every key share that seat owes, reveals), and, once every seat has
published its per-game seed, audits the whole game.

A ``Match`` that raised from ``apply`` is spent: fold again from the archive. Callers never
write anything before ``apply`` has returned.
"""

from __future__ import annotations

import bisect
import copy
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from duelmail.crypto import deck as sra
from duelmail.crypto.commit import check_opening, commit, commit_salt
from duelmail.crypto.derive import FRESH_BYTES, entropy_key, game_seed, hkdf
from duelmail.crypto.encoding import b64d, b64e, lp
from duelmail.crypto.seal import box_size, open_sealed, seal
from duelmail.engine.audit import audit_match
from duelmail.engine.clock import (
    FUTURE_TOLERANCE,
    MAX_ALLOWANCE,
    TimeControl,
    TimeControlError,
    check_date,
    check_vacation,
    join_window,
    paused_deadline,
    time_used,
)
from duelmail.engine.decks import DeckBook
from duelmail.engine.memo import make_memo, memo_sizes, open_memo
from duelmail.engine.talk import DRAW, DRAW_ANSWERS, Talk, check_say
from duelmail.errors import CheatDetected, CryptoError, DuelmailError, FileRefused, IllegalMove, NotationError
from duelmail.games.base import (
    PUBLIC,
    Game,
    GameEvent,
    GameState,
    Known,
    Outcome,
    Sealed,
    Violation,
    Window,
    get_game,
    in_words,
)
from duelmail.games.cards import Card, CardRef
from duelmail.protocol.canonical import digest
from duelmail.protocol.identity import Identity, PlayerCard
from duelmail.protocol.turnfile import SignedFile

JOIN = "join"
_SECRETS: dict[tuple[bytes, str, int, int], sra.LockerSecrets] = {}  # a pure function of its key: safe to share
SEALED = "sealed "


def entropy_aad(game_id: str, seat: int) -> bytes:
    return lp(b"duelmail/entropy/v1", game_id, seat)


def seal_entropy(master: bytes, game_id: str, seat: int, fresh: bytes) -> str:
    """A seat's fresh randomness for one game, sealed to itself (the ``entropy`` field of its first file).

    The nonce is synthetic: a restored home that draws new randomness for the same game never reuses one."""
    key = entropy_key(master, game_id)
    return seal(key, fresh, entropy_aad(game_id, seat), hkdf(key, lp(b"duelmail/entropy-nonce/v1", fresh), 12))


def open_entropy(master: bytes, game_id: str, seat: int, box: str) -> bytes:
    fresh = open_sealed(entropy_key(master, game_id), box, entropy_aad(game_id, seat))
    if len(fresh) != FRESH_BYTES:
        raise CryptoError(f"seat {seat}'s entropy box holds {len(fresh)} bytes, not {FRESH_BYTES}")
    return fresh


@dataclass
class Duty:
    """What one seat must send in the open round."""

    join: bool = False
    steps: list[str] = field(default_factory=list)  # deck ids with a pass for this seat
    decide: bool = False
    shares: set[CardRef] = field(default_factory=set)  # key shares the game is blocked on
    opens: set[str] = field(default_factory=set)  # sealed choices the rules want opened
    seed: bool = False
    retired: bool = False  # the seed is owed because the rules retired the seat, not for the end-of-game audit
    windows: tuple[Window, ...] = ()  # answer windows the decision answers out of turn (protocol section 5b)

    @property
    def needs_human(self) -> bool:
        return self.decide or self.join

    def describe(self, prompt: str = "") -> str:
        parts = []
        if self.join:
            parts.append("accept the challenge")
        if self.steps:
            parts.append(f"shuffle/lock deck {', '.join(self.steps)}")
        if self.decide:
            if self.windows:
                parts.append("answer out of turn (" + ", ".join(w.rule for w in self.windows) + ")")
            parts.append(prompt or "decide")
        if self.shares:
            parts.append(f"key shares for {', '.join(str(r) for r in sorted(self.shares))}")
        if self.opens:
            parts.append(f"open sealed {', '.join(sorted(self.opens))}")
        if self.seed:
            parts.append("publish the game seed (retired from play)" if self.retired else
                         "publish the game seed for the audit")
        return "; ".join(parts)


@dataclass(frozen=True)
class Event:
    """One line of the game's log: ``text`` names seats by name and cards by ref; ``said`` is the rules'
    outcome behind it, if any. ``Match.words`` says it for a reader, with the faces that reader knows."""

    round: int
    seat: int
    text: str
    said: GameEvent | None = None

    @property
    def technical(self) -> bool:
        """Protocol bookkeeping (deck passes, key shares, seeds) rather than play."""
        return bool(TECHNICAL.search(self.text))


TECHNICAL = re.compile(r'^(?![^"]* says: ").*?(?:pass on deck|published keys for \d+ cards?\b|'
                       r"published the per-game seed for the audit)")
"""Events that are protocol bookkeeping (deck passes, key shares) rather than play (never talk, whatever it says)."""


class Duplicate(DuelmailError):
    """The very same file is already in the log (receiving it again changes nothing)."""


def round_hash(rnd: int, prev: str, files: dict[int, SignedFile], claims: dict[int, SignedFile] | None = None,
               notes: dict[int, SignedFile] | None = None) -> str:
    return hash_of_round(rnd, prev, {str(s): f.file_hash for s, f in sorted(files.items())},
                         {str(s): f.file_hash for s, f in sorted((claims or {}).items())},
                         {str(s): f.file_hash for s, f in sorted((notes or {}).items())})


def hash_of_round(rnd: int, prev: str, files: dict[str, str], claims: dict[str, str] | None = None,
                  notes: dict[str, str] | None = None) -> str:
    """``round_hash`` from the files' hashes (what a ``seen`` table carries)."""
    body = {"round": rnd, "prev": prev, "files": files}
    if claims:
        body["claims"] = claims
    if notes:
        body["notes"] = notes
    return b64e(bytes.fromhex(digest(body)))


def parse_time(text: str, where: str) -> datetime:
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise FileRefused(where, f"time {text!r} is not an ISO 8601 timestamp", rule="P-format") from None
    if t.tzinfo is None:
        raise FileRefused(where, f"time {text!r} has no time zone", rule="P-format")
    try:
        return check_date(t, "time")
    except TimeControlError as e:
        raise FileRefused(where, str(e), rule="P-time") from None



class Match:
    """One game, folded from its genesis and turns."""

    def __init__(self, genesis: SignedFile, where: str = "genesis"):
        c = genesis.content
        if genesis.kind != "genesis":
            raise FileRefused(where, "the first file of a game must be its genesis", rule="P-genesis")
        try:
            self.game: Game = get_game(c["game_kind"])
        except NotationError as e:
            raise FileRefused(where, str(e), rule="P-genesis") from None
        if c["rules_version"] != self.game.spec.rules_version:
            raise FileRefused(where, f"rules version {c['rules_version']} of {c['game_kind']}; this duelmail "
                              f"plays version {self.game.spec.rules_version}", rule="P-genesis")
        try:
            self.cards = [PlayerCard.from_dict(d, f"{where} seat {i}") for i, d in enumerate(c["seats"])]
            self.options = self.game.spec.resolve_options(c["options"])
        except DuelmailError as e:
            raise FileRefused(where, str(e), rule="P-genesis") from None
        self.n = len(self.cards)
        spec = self.game.spec
        if not spec.min_players <= self.n <= spec.max_players:
            raise FileRefused(where, f"{spec.id} takes {spec.min_players}-{spec.max_players} players, "
                              f"not {self.n}", rule="P-genesis")
        if len({card.key for card in self.cards}) != self.n:
            raise FileRefused(where, "two seats share one public key", rule="P-genesis")
        self.creator = c["creator"]
        if not 0 <= self.creator < self.n:
            raise FileRefused(where, f"creator seat {self.creator} does not exist", rule="P-genesis")
        if not genesis.verify(self.cards[self.creator]):
            raise FileRefused(where, f"genesis signature does not verify for seat {self.creator} "
                              f"({self.cards[self.creator].name})", round=0, seat=self.creator,
                              rule="P-signature")
        try:
            self.tc = TimeControl.from_dict(c.get("time_control"), f"{where} time_control")
        except DuelmailError as e:
            raise FileRefused(where, str(e), rule="P-genesis") from None
        self.genesis = genesis
        self.gid = genesis.game_id
        self.state: GameState = self.game.new_state(self.n, self.options)
        self.specs = {d.id: d for d in self.game.decks(self.n, self.options)}
        self.book = DeckBook(self.gid, self.creator, self.n)
        for d in self.specs.values():
            self.book.add_fresh(d.id, len(d.faces), d.lockers or tuple(range(self.n)))
        self.round = 1
        self.prev = b64e(bytes.fromhex(self.gid))  # round 0's hash is the game id
        self.last_prev = self.prev  # the 'prev' of the last closed round (to read a 'seen' table against)
        self.rounds: list[dict[int, SignedFile]] = [{self.creator: genesis}]
        self.current: dict[int, SignedFile] = {}
        self.faces: dict[CardRef, int] = {}  # face index of every ref opened publicly
        self.seeds: dict[int, bytes] = {}
        self.retired_seeds: set[int] = set()  # seats whose seed the rules' retirement opened before the end
        self.commitments: dict[tuple[int, str], tuple[int, str]] = {}  # (seat, label) -> (round, hash)
        self.opened: dict[tuple[int, str], str] = {}  # (seat, label) -> the real action's text
        self.memos: dict[int, list[tuple[int, str, tuple[str, ...]]]] = {}  # seat -> [(round, memo, labels)]
        self.events: list[Event] = [Event(0, self.creator, f"{self.cards[self.creator].name} opened a game "
                                          f"of {spec.title}")]
        self.violations: list[Violation] = []
        self.told_over = False  # the game's end is in the log
        self.pending_shuffle = None
        self.audit = None
        self.auditing = True  # False in a sender's trial of its own file: the audit would be thrown away
        self.proven: frozenset[str] = frozenset()  # files whose pass proofs this home checked before
        self.proofs = "every pass proof checked as its file was applied"
        self.last_time: datetime | None = parse_time(c["created"], where)
        self.opened_at: datetime = self.last_time  # when the open round opened: the latest time of the last round
        self.bank = {s: timedelta(days=self.tc.bank_days) for s in range(self.n)}
        self.vacations: dict[int, list[tuple[datetime, datetime]]] = {s: [] for s in range(self.n)}
        self.current_claims: dict[int, SignedFile] = {}
        self.timed_out: dict[int, tuple[int, int, datetime, datetime]] = {}  # round -> against, by, deadline, time
        self.forced_outcome: Outcome | None = None
        self.claims_by_round: dict[int, dict[int, SignedFile]] = {}
        self.final_claims: dict[int, str] = {}  # round -> a file of the next round that builds on its claim
        self.displaced: list[str] = []  # hashes of moves signed by their deadline that a final claim made void
        self.unchecked: set[CardRef] = set()  # a sender's trial: cards its actions left face up and closed
        self.lender: int | None = None  # a sender's retrial: the seat whose own shares are lent as soon as owed
        self.lent: set[CardRef] = set()  # ... and the refs lent (its composer adds them to the file)
        self.prevs: dict[int, str] = {1: self.prev}  # round -> the hash it opened with (notes name any round)
        self.talk: list[Talk] = []
        self.notes: dict[tuple[int, int], SignedFile] = {}  # (seat, n) -> note
        self.current_notes: dict[int, SignedFile] = {}  # the note that ended the game in the open round
        self.notes_by_round: dict[int, dict[int, SignedFile]] = {}
        self.draw_offer: tuple[int, int] | None = None  # (seat, n) of the open draw offer
        self.draw_accepts: set[int] = set()
        self.ended_by_note: int | None = None  # the round a resignation or an agreed draw closed
        self.own: dict[int, bytes] = {}  # per-game seeds of the seats this process plays
        self.masters: dict[int, bytes] = {}  # their identities' master secrets
        self.entropy: dict[int, str] = {}  # every seat's sealed fresh randomness, from its first file
        self.fresh: dict[int, bytes] = {}  # the fresh randomness of the seats this process plays
        self.plain: dict[str, str] = {}  # the sender's draft only: the real text of the file's sealed choices
        self.honest: int | None = None  # the sender's draft only: the seat whose claims its own view must bear out
        self.events += self._drain(0, self.creator)  # what the starting position tells (a first draw)
        self.duties: dict[int, Duty] = self._compute_duties()

    def check_invitation(self, now: datetime, where: str, joining: bool = True) -> None:
        """A home's own check of the genesis's ``created`` against its clock when the game first reaches it:
        never from the future, and, for a seat about to join, no older than the join window, so its join
        deadline starts no earlier than a time it has seen itself (protocol §6b)."""
        created = parse_time(self.genesis.content["created"], where)
        if created > now + FUTURE_TOLERANCE:
            raise FileRefused(where, f"created {created.isoformat()}, in the future (it is {now.isoformat()} "
                              "here)", round=0, seat=self.creator, rule="P-time")
        window = join_window(self.tc)
        if joining and created < now - window:
            raise FileRefused(where, f"created {created.isoformat()}, more than {_span(window)} before it reached "
                              f"you ({now.isoformat()}): the join deadline would have started before you could "
                              "see the invitation; ask for a fresh one", round=0, seat=self.creator, rule="P-time")

    @property
    def game_ref(self) -> str:
        """How turn files name their game: the id's first 16 hex digits. Enough to route a file;
        the binding is ``prev``, whose chain starts at the full id, and every proof's context."""
        return self.gid[:16]

    # -- knowledge ---------------------------------------------------------------
    def names(self) -> list[str]:
        return [c.name for c in self.cards]

    def card_of(self, ref: CardRef, face: int) -> Card:
        return self.specs[ref.deck.split(".")[0]].faces[face]

    def attach(self, seat: int, identity: Identity, fresh: bytes | None = None) -> None:
        """Let this match act for ``seat``: its per-game seed mixes the identity's master secret, the game id and
        the seat's fresh randomness, read back from its first file if the log has it, else ``fresh`` (default:
        drawn from the operating system's CSPRNG), which that first file will seal to the seat."""
        if identity.public_key != self.cards[seat].key:
            raise DuelmailError(f"identity {identity.name!r} does not hold seat {seat} "
                                f"({self.cards[seat].name}) in game {self.gid[:12]}")
        self.masters[seat] = identity.master
        if seat in self.entropy:
            fresh = open_entropy(identity.master, self.gid, seat, self.entropy[seat])
        elif fresh is None:
            fresh = os.urandom(FRESH_BYTES)
        self.own[seat] = game_seed(identity.master, self.gid, fresh)
        self.fresh[seat] = fresh

    def seat_of(self, identity: Identity) -> int | None:
        for i, c in enumerate(self.cards):
            if c.key == identity.public_key:
                return i
        return None

    def _secrets_of(self, seed: bytes) -> Callable[[str, int], sra.LockerSecrets]:
        """One locker's derived deck secrets, computed once per process (they only depend on the seed)."""

        def get(deck_id: str, n: int) -> sra.LockerSecrets:
            key = (seed, deck_id, n, self.book.decks[deck_id].generation)
            if key not in _SECRETS:
                _SECRETS[key] = sra.LockerSecrets(*key)
            return _SECRETS[key]

        return get

    def own_key(self, seat: int, ref: CardRef) -> bytes:
        deck = self.book.decks[ref.deck]
        return self._secrets_of(self.own[seat])(ref.deck, deck.n).keys[ref.index]

    def known(self, seat: int | None) -> dict[CardRef, Card]:
        """Public faces, plus every face ``seat`` can open with its own key, plus (``Known.sealed``) the
        seat's own sealed choices, opened from its memos."""
        out = Known({r: self.card_of(r, f) for r, f in self.faces.items()})
        if seat is None or seat not in self.own:
            return out
        if seat in self.memos:
            out.sealed = {lb: self.game.parse_action(text) for lb, text in self.sealed_choices(seat).items()}
        for ref, who in self.state.visibility().items():
            if who != seat or ref in out:
                continue
            face = self._private_face(seat, ref)
            if face is not None:
                out[ref] = self.card_of(ref, face)
        return out

    def seen(self, seat: int | None) -> dict[CardRef, Card]:
        """Every face ``seat`` has seen so far: ``known`` plus each card once shown to it alone (a card of its hand
        since played, discarded or shuffled away), i.e. every ref for which all the other lockers published keys;
        once the game is audited, every card."""
        out = self.known(seat)
        if self.audit is not None:  # over, every seed published: every card is known to everyone
            out.update({ref: self.card_of(ref, f) for ref, f in self.audit.faces.items()})
            return out
        if seat is None or seat not in self.own:
            return out
        for deck in self.book.decks.values():
            if not deck.locked:
                continue
            others = [s for s in deck.lockers if s != seat]
            for j in range(deck.n):
                ref = CardRef(deck.id, j)
                if ref not in out and all(j in deck.keys.get(s, {}) for s in others):
                    face = self._private_face(seat, ref)
                    if face is not None:
                        out[ref] = self.card_of(ref, face)
        return out

    def _private_face(self, seat: int, ref: CardRef) -> int | None:
        deck = self.book.decks.get(ref.deck)
        if deck is None or not deck.locked:
            return None
        extra = {seat: self.own_key(seat, ref)} if seat in deck.lockers else {}
        return self.book.open_face(ref.deck, ref.index, extra)

    # -- who is awaited ------------------------------------------------------------------
    def owed(self, seat: int, visibility=None) -> set[CardRef]:
        """Key shares ``seat`` owes now: for refs shown to another seat or to everyone.

        None once the game is over: the per-game seeds published for the audit open every card."""
        out: set[CardRef] = set()
        if self.over():
            return out
        for ref, who in (visibility if visibility is not None else self.state.visibility()).items():
            if who == seat:
                continue
            deck = self.book.decks.get(ref.deck)
            if deck is None or seat not in deck.lockers or seat not in deck.commits:
                continue
            if ref.index not in deck.keys.get(seat, {}):
                out.add(ref)
        return out

    def _missing_for(self, seat: int) -> dict[int, set[CardRef]]:
        """Shares other seats still owe before ``seat`` can see what the rules show it."""
        missing: dict[int, set[CardRef]] = {}
        for ref, who in self.state.visibility().items():
            if who != seat:
                continue
            deck = self.book.decks.get(ref.deck)
            if deck is None:
                continue
            for s in deck.lockers:
                if s != seat and ref.index not in deck.keys.get(s, {}):
                    missing.setdefault(s, set()).add(ref)
        return missing

    def _unchecked(self, seat: int) -> list[CardRef]:
        """Cards the rules turned face up that only ``seat``'s key share keeps closed. An honest file carries
        every share its own actions make owed, so after each of its actions none is left: a claim about a card
        played face up (``FaceClaims``) is checked at its reveal before anything else is applied."""
        public = self.state.public_faces()
        claims = getattr(self.state, "claims", {})  # FaceClaims: cards played *as* a face
        out = []
        if seat in self.state.retired() or not getattr(self.state, "checked_at_once", False):
            return out
        for ref, who in self.state.visibility().items():
            if who != PUBLIC or ref in public or ref not in claims:
                continue
            deck = self.book.decks.get(ref.deck)
            if deck is None or not deck.locked or seat not in deck.lockers or ref.index in deck.keys.get(seat, {}):
                continue
            if seat not in self.retired_seeds and all(ref.index in deck.keys.get(s, {}) for s in deck.lockers
                                                      if s != seat):
                out.append(ref)
        return sorted(out)

    def ready(self, seat: int) -> bool:
        return not self._missing_for(seat)

    def _compute_duties(self) -> dict[int, Duty]:
        duties: dict[int, Duty] = {}

        def duty(s: int) -> Duty:
            return duties.setdefault(s, Duty())

        if self.round == 1:
            for s in range(self.n):
                if s != self.creator:
                    duty(s).join = True
        stepping = False
        for deck in self.book.decks.values():
            step = deck.next_step()
            if step is not None:
                duty(step.seat).steps.append(deck.id)
                stepping = True
        if stepping or self.round == 1:
            self._retired_seed_duties(duties)
            return duties
        if self.state.is_terminal() and self.state.windows():
            raise DuelmailError(f"game {self.gid[:12]}, round {self.round}: the rules ended the game while an answer "
                                "window is open (a bug in the rules: no outcome is fixed while an answer is possible)")
        if self.over():
            for s in range(self.n):
                if s not in self.seeds:
                    duty(s).seed = True
            return duties
        for s, labels in self.state.openings().items():
            todo = {lb for lb in labels if (s, lb) not in self.opened}
            if todo:
                duty(s).opens |= todo
        deciders = self.state.deciders()
        windows = self._windows(deciders)
        for x in deciders:
            missing = self._missing_for(x)
            for s, refs in missing.items():
                duty(s).shares |= refs
            if not missing:
                duty(x).decide = True
                duty(x).windows = tuple(w for w in windows if w.seat == x)
        if not deciders:
            public = self.state.public_faces()
            for ref, who in self.state.visibility().items():
                if who == PUBLIC and ref not in public:
                    deck = self.book.decks[ref.deck]
                    for s in deck.lockers:
                        if ref.index not in deck.keys.get(s, {}):
                            duty(s).shares.add(ref)
        self._retired_seed_duties(duties)
        if not duties:
            raise DuelmailError(f"game {self.gid[:12]} is stuck in round {self.round}: nobody is awaited "
                                "(a bug in the rules or the engine)")
        return duties

    def _windows(self, deciders: tuple[int, ...]) -> tuple[Window, ...]:
        """The rules' open answer windows, checked against the contract (protocol section 5b): each window's seat
        is awaited, and no outcome is fixed while a window is open."""
        windows = tuple(self.state.windows())
        for w in windows:
            if w.seat not in deciders or "pass" not in w.answers:
                raise DuelmailError(f"game {self.gid[:12]}, round {self.round}: the window of {w.rule} for seat "
                                    f"{w.seat} is not awaited or cannot be passed (a bug in the rules)")
        return windows

    def _check_window_answer(self, seat: int, duty: Duty, text: str) -> None:
        """A seat awaited to answer a window answers it first: one of the window's verbs (``P-window``)."""
        verbs = sorted({v for w in duty.windows for v in w.answers})
        if text.split(" ", 1)[0].strip() not in verbs:
            rules = ", ".join(f"{w.rule} ({w.what})" for w in duty.windows)
            raise IllegalMove("P-window", f"action {text!r}: seat {seat} is awaited to answer out of turn, {rules}; "
                              f"the file must answer first: {' or '.join(verbs)}")

    def _retired_seed_duties(self, duties: dict[int, Duty]) -> None:
        """A retired seat awaited anyway (for shares or a pass) must publish its seed in that file."""
        for s in self.state.retired() - set(self.seeds):
            if s in duties:
                duties[s].seed = duties[s].retired = True

    def over(self) -> bool:
        """The game has ended: by its rules, or by a timeout the time control settles."""
        return self.forced_outcome is not None or self.state.is_terminal()

    def outcome(self) -> Outcome | None:
        return self.forced_outcome or self.state.outcome()

    def describe_outcome(self) -> str:
        return self.named(self.outcome().describe(self.names()))

    # -- the clock ----------------------------------------------------------------------------
    def deadline(self, seat: int) -> datetime | None:
        """When ``seat``'s part of the open round is due (None if it owes nothing)."""
        duty = self.duties.get(seat)
        if duty is None or seat in self.current:
            return None
        allowance = self.tc.per_move + max(self.bank[seat], timedelta(0)) if duty.needs_human else self.tc.forced
        hours = self.state.answer_deadline_hours(seat) if duty.decide and not duty.join else None
        if hours:
            allowance = timedelta(hours=min(hours, MAX_ALLOWANCE // timedelta(hours=1)))
        return paused_deadline(self.opened_at, min(allowance, MAX_ALLOWANCE), self.vacations[seat])

    def deadlines(self) -> dict[int, datetime]:
        return {s: d for s in sorted(self.duties) if (d := self.deadline(s)) is not None}

    def overdue(self, now: datetime) -> list[int]:
        return [s for s, d in self.deadlines().items() if now > d]

    @property
    def finished(self) -> bool:
        return self.over() and len(self.seeds) == self.n and not self.current

    # -- settling: chance and reveals -------------------------------------------------------
    def _settle(self) -> None:
        for _ in range(100_000):
            self._retired_work()
            shuffle = self.state.chance()
            if shuffle is not None:
                if self.pending_shuffle is None:
                    sources = [(r.deck, r.index) for r in shuffle.refs]
                    public = {(r.deck, r.index): self.faces[r] for r in shuffle.refs if r in self.faces}
                    self.book.add_reshuffle(shuffle.new_deck, sources, public, self.round)
                    self.pending_shuffle = shuffle
                    self._retired_work()
                if not self.book.decks[shuffle.new_deck].locked:
                    return
                self.pending_shuffle = None
                self.state.apply_shuffle(shuffle)
                continue
            progressed = False
            if self.lender is not None:
                self._lend(self.lender)
            public = self.state.public_faces()
            candidates = [r for r, who in self.state.visibility().items() if who == PUBLIC and r not in public]
            for ref in sorted(candidates):  # a fixed order, so every fold reveals alike
                deck = self.book.decks.get(ref.deck)
                if deck is None or not deck.locked:
                    continue
                face = self.book.open_face(ref.deck, ref.index)
                if face is None:
                    continue
                self.faces[ref] = face
                found = self.state.reveal(ref, self.card_of(ref, face))
                for v in found:
                    self.events.append(Event(self.round, v.seat, f"CHEAT: {v.message} (rule {v.rule})"))
                self.violations += found
                progressed = True
                break  # visibility may have changed
            if not progressed:
                return
        raise DuelmailError("reveals never settle (a bug in the rules)")

    def _lend(self, seat: int) -> None:
        """A sender's retrial: record the sender's own key share for every card it owes now, as if its file carried
        it from the start (its composer then adds it). A later action of the file may depend on such a card opening
        first (a reveal that settles a battle, then a move out of the space it won)."""
        for ref in sorted(self.owed(seat)):
            self.book.record_key(ref.deck, seat, ref.index, self.own_key(seat, ref), f"key for {ref}")
            self.lent.add(ref)

    def _retired_work(self) -> None:
        """Everything a retired seat with a published seed would send, derived from that seed by every receiver:
        its deck passes (the computation of its own ``compose``; no proof, everyone recomputes it) and its key
        share for every position of every deck it has locked (each checked against its commitment)."""
        if not self.retired_seeds:
            return
        moved = True
        while moved:
            moved = False
            for deck in self.book.decks.values():
                step = deck.next_step()
                if step is not None and step.seat in self.retired_seeds:
                    op = self.book.derive_step(deck.id, step.seat, self._secrets_of(self.seeds[step.seat]),
                                               self.round)
                    self.events.append(Event(self.round, step.seat, f"{self.cards[step.seat].name}: {op} pass on "
                                             f"deck {deck.id}, derived from the published seed"))
                    moved = True
        for s in sorted(self.retired_seeds):
            secrets = self._secrets_of(self.seeds[s])
            for deck in self.book.decks.values():
                if s in deck.commits and len(deck.keys.get(s, {})) < deck.n:
                    keys = secrets(deck.id, deck.n).keys
                    for j in range(deck.n):
                        self.book.record_key(deck.id, s, j, keys[j], f"key for {deck.id}#{j} derived from seat "
                                             f"{s}'s published seed")

    # -- applying a file --------------------------------------------------------------------
    def apply(self, f: SignedFile, where: str, strict: bool = True, now: datetime | None = None) -> list[Event]:
        """Check ``f`` completely and apply it. Raises ``FileRefused``/``Duplicate``; see the class note.

        ``now`` is the receiver's clock: a file signed further in the future than clocks drift is refused.
        ``strict=False`` is for a sender's trial of its own file, which may be partial: what this process
        computed itself (signature, points, proofs) is not checked again, nor are missing duties."""
        c = f.content
        seat = c.get("seat", -1) if f.kind != "genesis" else c.get("creator", -1)
        rnd = f.round

        def refuse(msg: str, rule: str) -> FileRefused:
            return FileRefused(where, msg, round=rnd, seat=seat, rule=rule)

        if f.kind == "genesis":
            if f.game_id == self.gid:
                raise Duplicate(f"{where}: this game's genesis is already known")
            raise refuse(f"a genesis of another game ({f.game_id[:12]}); this is {self.gid[:12]}", "P-game")
        if c["game"] != self.game_ref:
            raise refuse(f"a file of game {c['game'][:12]}, not of this game {self.gid[:12]}", "P-game")
        if not 0 <= seat < self.n:
            raise refuse(f"there is no seat {seat} in this {self.n}-seat game", "P-seat")
        if strict and not f.verify(self.cards[seat]):
            raise refuse(f"signature does not verify with {self.cards[seat].name}'s key "
                         f"({self.cards[seat].fingerprint})", "P-signature")
        if f.kind == "claim":
            return self._apply_claim(f, where, seat, refuse, now)
        if f.kind == "note":
            return self._apply_note(f, where, seat, refuse, now)
        if rnd < self.round and rnd in self.timed_out and self.timed_out[rnd][0] == seat:
            against, by, due, when = self.timed_out[rnd]
            t = parse_time(c["time"], where)
            if rnd in self.final_claims and t <= due:
                raise refuse(f"signed at {t.isoformat()}, by {self.cards[seat].name}'s deadline {due.isoformat()}, "
                             f"but {self.cards[by].name}'s timeout claim of round {rnd} is final: "
                             f"{self.final_claims[rnd]} builds on it, and a claim a later file builds on cannot "
                             "be undone", "P-final")
            raise refuse(f"seat {seat} ({self.cards[seat].name}) ran out of time in round {rnd}: the deadline was "
                         f"{due.isoformat()} and {self.cards[by].name} claimed the timeout at {when.isoformat()}; "
                         "a move after a valid claim does not count", "P-timeout")
        if rnd < self.round:
            old = self.rounds[rnd].get(seat)
            if old is not None and old.file_hash == f.file_hash:
                raise Duplicate(f"{where}: round {rnd} seat {seat} is already in the log")
            if old is not None:
                raise refuse(f"EQUIVOCATION: seat {seat} ({self.cards[seat].name}) signed two different files "
                             f"for round {rnd}; both signatures verify, which proves it", "P-equivocation")
            raise refuse(f"round {rnd} is closed and seat {seat} had no part in it (an old or replayed "
                         "file)", "P-round")
        if rnd > self.round:
            raise refuse(f"this game is at round {self.round}; round {rnd} cannot be checked before the "
                         "files between arrive", "P-round")
        if c["prev"] != self.prev:
            self._diverged(f, seat, where)
            raise refuse("'prev' does not name the last closed round of this game (a file from a "
                         "different history)", "P-chain")
        if "seen" in c and c["seen"] != self._seen():
            raise refuse("its 'seen' table does not list the last closed round's files, which its 'prev' "
                         "covers (a false statement)", "P-chain")
        if seat in self.current:
            if self.current[seat].file_hash == f.file_hash:
                raise Duplicate(f"{where}: round {rnd} seat {seat} is already in the log")
            raise refuse(f"EQUIVOCATION: seat {seat} ({self.cards[seat].name}) signed two different files "
                         f"for round {rnd}; both signatures verify, which proves it", "P-equivocation")
        duty = self.duties.get(seat)
        if duty is None:
            waiting = ", ".join(f"seat {s}" for s in sorted(self.duties)) or "nobody"
            raise refuse(f"seat {seat} is not awaited in round {rnd} (awaited: {waiting})", "P-turn")
        t = self._check_time(c["time"], where, refuse, now)
        due = self.deadline(seat)
        try:
            events = self._apply_body(f, seat, duty, strict)
        except (CryptoError, IllegalMove, NotationError) as e:
            rule = getattr(e, "rule", None) or ("P-crypto" if isinstance(e, CryptoError) else "notation")
            raise refuse(str(e), rule) from None
        except CheatDetected as e:
            raise refuse(f"CHEAT: {e}", e.rule) from None
        self.last_time = max(self.last_time, t) if self.last_time else t
        if duty.needs_human:  # the move's clock: time past days_per_move comes out of the bank
            used = time_used(self.opened_at, t, self.vacations[seat])
            self.bank[seat] += timedelta(hours=self.tc.extra_hours_per_move) - max(used - self.tc.per_move,
                                                                                    timedelta(0))
        if due is not None and t > due:
            events.append(Event(rnd, seat, f"{self.cards[seat].name} moved after the deadline ({due.isoformat()}); "
                                "no timeout had been claimed"))
            self.events.append(events[-1])
        self.current[seat] = f
        if set(self.current) >= set(self.duties):
            events += self._close_round()
        return events

    def _seen(self) -> dict[str, str] | None:
        """What a file of the open round says it saw: the hashes of the last closed round's files, so that
        a seat that sent different files for one round to different seats is found (protocol §5)."""
        if self.round < 2 or self.n < 3 or self.claims_by_round.get(self.round - 1) \
                or self.notes_by_round.get(self.round - 1):
            return None
        return {str(s): g.file_hash for s, g in sorted(self.rounds[-1].items())}

    def _diverged(self, f: SignedFile, seat: int, where: str) -> None:
        """A file whose 'prev' differs from ours: if its 'seen' table names another file than ours for a seat
        of the last closed round, that seat signed two files for the round and sent them to different seats.
        (When ``hash_of_round(last, last_prev, seen)`` is the file's 'prev', that file is the only difference;
        otherwise the histories parted earlier, as they do when the equivocator alone played since.)"""
        seen, ours, last = f.content.get("seen"), self._seen(), self.round - 1
        if not isinstance(seen, dict) or ours is None or set(seen) != set(ours):
            return
        liars = [int(s) for s in sorted(ours, key=int) if seen[s] != ours[s]]
        if not liars:
            return
        x = liars[0]
        mine = self.rounds[-1][x]
        raise FileRefused(where, f"EQUIVOCATION by seat {x} ({self.cards[x].name}) in round {last}: "
                          f"{self.cards[seat].name} (seat {seat}) signed that {self.cards[x].name}'s file for round "
                          f"{last} was {seen[str(x)][:16]}..., this home holds another, {mine.file_hash[:16]}..., "
                          f"signed by {self.cards[x].name}: the two signed files prove it ({self.cards[seat].name} "
                          f"holds the other as r{last:04d}-s{x}.toml)", round=last, seat=x, rule="P-equivocation")

    def _check_time(self, text: str, where: str, refuse, now: datetime | None) -> datetime:
        t = parse_time(text, where)
        if t < self.opened_at - FUTURE_TOLERANCE:
            raise refuse(f"signed at {t.isoformat()}, before round {self.round} opened ({self.opened_at.isoformat()})",
                         "P-time")
        if now is not None and t > now + FUTURE_TOLERANCE:
            raise refuse(f"signed at {t.isoformat()}, in the future (it is {now.isoformat()} here)", "P-time")
        return t

    def _apply_claim(self, f: SignedFile, where: str, seat: int, refuse, now: datetime | None) -> list[Event]:
        """A timeout claim: ``seat`` says seat ``against`` let its deadline pass in the open round."""
        c = f.content
        if c["game"] != self.game_ref:
            raise refuse(f"a claim in game {c['game'][:12]}, not in this game {self.gid[:12]}", "P-game")
        if not 0 <= seat < self.n or not f.verify(self.cards[seat]):
            raise refuse("claim signature does not verify with the claimant's key", "P-signature")
        if f.round != self.round or c["prev"] != self.prev:
            raise refuse(f"a claim must name the open round ({self.round}) and its 'prev'", "P-round")
        if seat in self.current_claims:
            if self.current_claims[seat].file_hash == f.file_hash:
                raise Duplicate(f"{where}: this claim is already in the log")
            raise refuse(f"EQUIVOCATION: seat {seat} signed two different claims in round {self.round}",
                         "P-equivocation")
        against = c["against"]
        due = self.deadline(against) if 0 <= against < self.n else None
        if due is None or against == seat:
            raise refuse(f"seat {against} owes nothing in round {self.round}: there is no deadline to claim",
                         "P-timeout")
        t = self._check_time(c["time"], where, refuse, now)
        if t <= due:
            raise refuse(f"too early: {self.cards[against].name}'s deadline is {due.isoformat()}, the claim was "
                         f"signed at {t.isoformat()}", "P-timeout")
        duty = self.duties[against]
        default = self.state.default_action(against) if duty.decide and not self.over() else None
        if default is None and duty.decide and duty.windows and not self.over():
            default = self.game.parse_action("pass")  # an answer window lets its deadline pass: it is passed
        told = []
        if default is not None:
            self.state.apply(against, default)
            told = self._drain(self.round, against)
            text = f"{self.cards[seat].name} claimed {self.cards[against].name}'s timeout: the default answer " \
                   f"'{default}' is played"
        elif duty.join:  # a seat that never accepted agreed to nothing: the challenge lapses, nobody wins
            self.forced_outcome = Outcome((), f"{self.cards[against].name} did not accept the challenge by "
                                          f"{due.isoformat()} (claimed by {self.cards[seat].name}); nobody wins")
            text = f"{self.cards[seat].name} claimed {self.cards[against].name}'s timeout: the challenge lapsed"
        else:
            winners = tuple(s for s in range(self.n) if s != against)
            self.forced_outcome = Outcome(winners, f"{self.cards[against].name} ran out of time (deadline "
                                          f"{due.isoformat()}, claimed by {self.cards[seat].name})")
            text = f"{self.cards[seat].name} claimed {self.cards[against].name}'s timeout: the game is forfeit"
        self.timed_out[self.round] = (against, seat, due, t)
        self.current_claims[seat] = f
        self.last_time = max(self.last_time, t) if self.last_time else t
        event = Event(self.round, seat, text)
        self.events += [event, *told]
        return [event, *told, *self._close_round()]

    def _say(self, seat: int, text: str, when: str, rnd: int | None = None) -> Event:
        """Record talk in order: by the round it was said in, then by its signed time (a note said while a round
        was open folds after that round's turns, yet was said before the turn that closed it)."""
        rnd = rnd or self.round
        talk = Talk(rnd, seat, text, parse_time(when, "time"))
        bisect.insort(self.talk, talk, key=lambda t: (t.round, t.time, t.seat))
        return Event(rnd, seat, f'{self.cards[seat].name} says: "{text}"')

    def _apply_note(self, f: SignedFile, where: str, seat: int, refuse, now: datetime | None) -> list[Event]:
        """A note: talk, a resignation or a draw offer or answer, sent in turn or not (protocol §5a).

        It takes no round slot. It names the round open when it was signed; the fold weighs it after that
        round's turns. A resignation, or the answer that completes a draw, ends the game and closes the open
        round (its hash then covers the note, as it covers claims). A resignation or answer that comes once
        the game is over, or an answer to an offer no longer open, changes nothing."""
        c = f.content
        rnd, n = f.round, c["n"]
        old = self.notes.get((seat, n))
        if old is not None:
            if old.file_hash == f.file_hash:
                raise Duplicate(f"{where}: note {n} of seat {seat} is already in the log")
            raise refuse(f"EQUIVOCATION: seat {seat} ({self.cards[seat].name}) signed two different notes numbered "
                         f"{n}; both signatures verify, which proves it", "P-equivocation")
        if rnd > self.round:
            raise refuse(f"this game is at round {self.round}; a note of round {rnd} cannot be checked before the "
                         "files between arrive", "P-round")
        if c["prev"] != self.prevs.get(rnd):
            raise refuse(f"'prev' does not name the hash round {rnd} opened with (a note from a different history)",
                         "P-chain")
        t = parse_time(c["time"], where)
        if now is not None and t > now + FUTURE_TOLERANCE:
            raise refuse(f"signed at {t.isoformat()}, in the future (it is {now.isoformat()} here)", "P-time")
        say, resign, draw = c.get("say"), c.get("resign", False), c.get("draw")
        try:
            if say is not None:
                check_say(say)
        except IllegalMove as e:
            raise refuse(str(e), e.rule) from None
        if resign is not False and resign is not True:
            raise refuse(f"'resign' must be true, not {resign!r}", "P-note")
        if draw is not None and draw not in DRAW:
            raise refuse(f"'draw' must be one of {', '.join(DRAW)}, not {draw!r}", "P-note")
        if resign and draw is not None:
            raise refuse("a note cannot both resign and answer a draw", "P-note")
        if say is None and not resign and draw is None:
            raise refuse("a note must say something, resign or offer or answer a draw", "P-note")
        target = None
        if draw in DRAW_ANSWERS:
            o = c.get("offer")
            if not isinstance(o, dict) or not isinstance(o.get("seat"), int) or not isinstance(o.get("n"), int):
                raise refuse(f"a draw {draw} needs 'offer = {{seat, n}}' naming the offer's note", "P-draw")
            target = (o["seat"], o["n"])
            offer = self.notes.get(target)
            if offer is None or offer.content.get("draw") != "offer":
                raise refuse(f"'offer' names note {target[1]} of seat {target[0]}, which is no draw offer in this "
                             "game", "P-draw")
            if target[0] == seat:
                raise refuse("a seat cannot answer its own draw offer", "P-draw")
        name = self.cards[seat].name
        events = [self._say(seat, say, c["time"], rnd)] if say is not None else []
        ended = False

        def note(text: str) -> None:
            events.append(Event(self.round, seat, text))

        if not resign and draw is None:
            pass  # talk only
        elif self.over():
            note(f"{name} {'resigns' if resign else 'answers a draw offer'}, but the game is already over: "
                 "nothing changes")
        elif resign:
            self.forced_outcome = Outcome(tuple(s for s in range(self.n) if s != seat), f"{name} resigned")
            note(f"{name} resigns")
            ended = True
        elif draw == "offer":
            if self.draw_offer is not None:
                note(f"{name} offers a draw, but {self.cards[self.draw_offer[0]].name}'s offer is still open: "
                     "nothing changes")
            else:
                self.draw_offer, self.draw_accepts = (seat, n), set()
                note(f"{name} offers a draw (every other player must accept it)")
        elif target != self.draw_offer:
            note(f"{name} answers a draw offer that is no longer open: nothing changes")
        elif draw == "decline":
            self.draw_offer = None
            note(f"{name} declines the draw")
        else:
            self.draw_accepts.add(seat)
            note(f"{name} accepts the draw")
            if self.draw_accepts >= set(range(self.n)) - {target[0]}:
                self.forced_outcome = Outcome((), "agreed by every player")
                self.draw_offer = None
                ended = True
        self.notes[(seat, n)] = f
        self.events += events
        if ended:
            self.ended_by_note = self.round
            self.current_notes[seat] = f
            self.last_time = max(self.last_time, t) if self.last_time else t
            self._close_round()
        return events

    def _apply_body(self, f: SignedFile, seat: int, duty: Duty, strict: bool) -> list[Event]:
        c = f.content
        rnd = self.round
        events: list[Event] = []
        actions = list(c["actions"])
        if not all(isinstance(a, str) for a in actions):
            raise NotationError("every action must be a string")
        if duty.join:
            if not actions or actions[0] != JOIN:
                raise IllegalMove("P-join", f"round 1 awaits seat {seat}'s acceptance ('{JOIN}')")
            actions.pop(0)
            events.append(Event(rnd, seat, f"{self.cards[seat].name} accepted the game"))
        self._record_entropy(c, seat)
        # deck passes
        given = c.get("deck", {})
        if not isinstance(given, dict) or set(given) != set(duty.steps):
            raise CryptoError(f"expected deck passes for {sorted(duty.steps) or 'no deck'}, "
                              f"got {sorted(given) if isinstance(given, dict) else given!r}")
        for deck_id in sorted(given):
            p = given[deck_id]
            deck = self.book.decks[deck_id]
            if not isinstance(p, dict) or not isinstance(p.get("points"), str):
                raise CryptoError(f"deck {deck_id}: a pass needs 'op' and 'points'")
            pts = sra.decode_points(p["points"], deck.n, f"deck {deck_id} points", validate=strict)
            commits = sra.decode_points(p["commits"], deck.n, f"deck {deck_id} commits", validate=strict) \
                if "commits" in p else None
            layer = sra.decode_points(p["layer"], 1, f"deck {deck_id} layer")[0] if "layer" in p else None
            self.book.apply_step(deck_id, seat, str(p.get("op")), pts, commits, layer, p.get("proof"), rnd,
                                 check=strict and f.file_hash not in self.proven)
            events.append(Event(rnd, seat, f"{self.cards[seat].name}: {p.get('op')} pass on deck {deck_id}"))
        # key shares
        pre = dict(self.state.visibility())
        keys = c.get("keys", {})
        if not isinstance(keys, dict):
            raise CryptoError("'keys' must be a table of ref = key")
        refs = []
        for text, value in keys.items():
            ref = CardRef.parse(text)
            if not isinstance(value, str):
                raise CryptoError(f"key for {ref} must be a string")
            key = sra.decode_scalars(value, 1, f"key for {ref}")[0]
            if ref.deck not in self.book.decks:
                raise CryptoError(f"key for {ref}: no such deck")
            if seat not in self.book.decks[ref.deck].commits:
                raise CryptoError(f"key for {ref}: seat {seat} has not locked deck {ref.deck} yet")
            self.book.record_key(ref.deck, seat, ref.index, key, f"key for {ref}")
            refs.append(ref)
        if "vacation" in c:
            v = c["vacation"]
            if not isinstance(v, dict) or not isinstance(v.get("start"), str):
                raise IllegalMove("P-vacation", "'vacation' needs 'start' (a time) and 'days'")
            try:
                self.vacations[seat].append(check_vacation(
                    self.vacations[seat], parse_time(v["start"], "vacation"), v.get("days"),
                    self.tc.vacation_days_per_year, parse_time(c["time"], "time")))
            except DuelmailError as e:
                raise IllegalMove("P-vacation", str(e)) from None
            events.append(Event(rnd, seat, f"{self.cards[seat].name} takes {v.get('days')} days of vacation from "
                                f"{v['start']}"))
        if "say" in c:
            events.append(self._say(seat, check_say(c["say"]), c["time"]))
        # sealed choices: commitments to new ones and a memo for their author; openings whenever wanted
        opens = self._record_sealed(c, seat, rnd, actions)
        # actions, with reveals settled (and openings applied) before each
        self._settle()
        events += self._drain(rnd, seat)
        events += self._open_wanted(opens, seat, rnd)
        if actions and not duty.decide and len(self.duties) > 1:
            # the round awaits several seats and this one not for a decision: a decision that only the other
            # files of the round make possible would depend on the order they are applied in
            raise IllegalMove("P-turn", f"action {actions[0]!r}: seat {seat} is not awaited for a decision in round "
                              f"{rnd}, which other seats answer too; decide in the next round")
        if actions and duty.decide and duty.windows:
            self._check_window_answer(seat, duty, actions[0])
        for text in actions:
            if seat not in self.state.deciders():
                raise IllegalMove("P-turn", f"action {text!r}: the rules do not await a decision from seat {seat}")
            if text.startswith(SEALED):
                action = Sealed(text[len(SEALED):])
            else:
                action = self.game.parse_action(text)
                if action.sealed():
                    raise IllegalMove("P-sealed", f"action {text!r} is a secret choice: it must travel sealed")
            if seat == self.honest:
                self._apply_honestly(seat, action, text)
            else:
                self.state.apply(seat, action)
                self._check_own_sealed(seat, action)
            told = self._drain(rnd, seat)
            events.append(Event(rnd, seat, self.state_describe(seat, action)))
            events += told
            self._settle()
            events += self._drain(rnd, seat)
            events += self._open_wanted(opens, seat, rnd)
            if not self.over() and "seed" not in c and (unchecked := self._unchecked(seat)):
                if not strict:  # the sender's trial: its composer adds these shares to the file
                    self.unchecked |= set(unchecked)
                    continue
                raise IllegalMove("P-unchecked", f"after {text!r}, {', '.join(map(str, unchecked))} lies face up "
                                  f"unopened: the file does not carry seat {seat}'s key share for it, so what it "
                                  "was played as cannot be checked before the file's next action or the next file")
        if opens:
            raise IllegalMove("P-open", f"opens {', '.join(sorted(opens))} before the rules ask for it")
        # the per-game seed: for the audit once the game is over, or from a seat the rules have retired
        if "seed" in c:
            retired = not self.over() and seat in self.state.retired()
            if not self.over() and not retired:
                raise CheatDetected(seat, "P-seed", f"published the per-game seed in round {rnd} while still in "
                                    "play: a seed comes only once the game is over or the rules retire the seat")
            seed = b64d(c["seed"], "seed")
            if len(seed) != 32:
                raise CryptoError("a per-game seed is 32 bytes")
            if seat in self.seeds:
                raise IllegalMove("P-seed", f"seat {seat} published its per-game seed already")
            self.seeds[seat] = seed
            if retired:  # every receiver now derives its shares and passes (checked against its commitments)
                self.retired_seeds.add(seat)
                self._settle()
                events += self._drain(rnd, seat)
                events.append(Event(rnd, seat, f"{self.cards[seat].name} is out of play and published the "
                                    "per-game seed: its key shares and deck passes now follow from it"))
            else:
                events.append(Event(rnd, seat, f"{self.cards[seat].name} published the per-game seed for the audit"))
        elif duty.seed and strict:
            raise IllegalMove("P-seed", "the seat is out of play: the file must publish the per-game seed"
                              if duty.retired else "the game is over: the file must publish the per-game seed")
        if strict and duty.decide and not c["actions"]:
            raise IllegalMove("P-turn", f"seat {seat} is awaited for a decision and the file has no action")
        if strict and not self.over() and seat in self.state.deciders() and self.ready(seat) \
                and (duty.decide or actions):
            raise IllegalMove("P-turn", f"the file stops in the middle of seat {seat}'s turn: the rules still "
                              f"wait for: {self.state.prompt(seat)}")
        post = self.state.visibility()
        for ref in refs if not self.over() else ():  # at the end every card opens anyway
            if not (_shown_to_other(pre.get(ref), seat) or _shown_to_other(post.get(ref), seat)):
                raise CheatDetected(seat, "P-peek", f"published its key for {ref}, which the rules show to "
                                    "nobody else (an early peek at a locked card)")
        if strict:
            unopened = sorted(lb for lb in duty.opens if (seat, lb) not in self.opened)
            if unopened:
                raise IllegalMove("P-withheld", "the file does not open the sealed choices the game is waiting "
                                  "for: " + ", ".join(unopened))
            withheld = sorted(r for r in duty.shares if r.index not in self.book.decks[r.deck].keys.get(seat, {}))
            if withheld:
                raise IllegalMove("P-withheld", "the file withholds key shares the game is waiting for: "
                                  + ", ".join(map(str, withheld)))
        if refs:
            events.append(Event(rnd, seat, f"{self.cards[seat].name} published keys for "
                                f"{len(refs)} card{'s' if len(refs) != 1 else ''}"))
        self.events += events
        return events

    def _record_entropy(self, c: dict, seat: int) -> None:
        """A seat's first file seals its fresh randomness for this game to itself; no later file does."""
        first = seat not in self.entropy
        if first != ("entropy" in c):
            raise IllegalMove("P-entropy", f"seat {seat}'s first file of the game seals its fresh randomness "
                              "('entropy'), and only its first file" + ("" if first else
                                                                        ": the log has it already"))
        if not first:
            return
        box = c["entropy"]
        if not isinstance(box, str) or len(b64d(box, "entropy")) != box_size(FRESH_BYTES):
            raise IllegalMove("P-entropy", f"'entropy' must be a sealed box of {FRESH_BYTES} bytes, got {box!r:.60}")
        self.entropy[seat] = box
        if seat in self.masters:  # a seat this process plays: its seed is the one the log fixes
            fresh = open_entropy(self.masters[seat], self.gid, seat, box)
            if fresh != self.fresh.get(seat):
                self.fresh[seat] = fresh
                self.own[seat] = game_seed(self.masters[seat], self.gid, fresh)
    def _check_own_sealed(self, seat: int, action) -> None:
        """The sender checks its own secret choice before sealing it (``GameState.check_sealed``)."""
        if isinstance(action, Sealed) and action.label in self.plain:
            own = {lb: self.game.parse_action(t) for lb, t in
                   {**(self.sealed_choices(seat) if seat in self.own else {}), **self.plain}.items()}
            self.state.check_sealed(seat, own[action.label], own)

    def _apply_honestly(self, seat: int, action, text: str) -> None:
        """Apply the sender's own action, refusing it if a face the seat sees already proves one of its claims false
        (DESIGN 8: an honest slip is never a cheat). The rules' own audit is the judge: the claims it would find
        broken with the seat's known faces and sealed choices, that it did not find before this action. A refusal
        (this one or the rules' check of a secret choice) names the rule and the legal moves."""
        if isinstance(action, Sealed):
            text = self.plain.get(action.label, text)
        known = self.known(seat)
        before = self._broken_claims(seat, known)
        pre = self.state.clone()
        self.state.apply(seat, action)
        try:
            self._check_own_sealed(seat, action)
            after = self.known(seat)  # a card just played face up leaves the seat's private view: keep its face
            after.update({r: c for r, c in known.items() if r not in after})
            new = [v for v in self._broken_claims(seat, after) if v not in before]
            if new:
                raise IllegalMove(new[0].rule, f"move {text!r} says something false about your own cards "
                                  f"({self.named(new[0].message)}), so it would be a proven cheat: nothing was signed")
        except IllegalMove as e:
            legal = [str(a) for a in pre.legal_actions(seat, known)]
            verb = text.split()[0].lower() if text.split() else ""
            alike = [a for a in legal if a.split()[0].lower() == verb] or legal
            shown = ", ".join(with_faces(a, known, pre.card_name) for a in alike[:8]) + (
                f" and {len(alike) - 8} more" if len(alike) > 8 else "")
            said = str(e).removesuffix(f" (rule {e.rule})")
            raise IllegalMove(e.rule, f"{said}. Legal now: {shown or 'nothing'} ('duelmail moves' lists them all)"
                              ) from None

    def _broken_claims(self, seat: int, known: Known) -> list[Violation]:
        """The seat's claims that the rules' audit finds broken by the faces and sealed choices it knows."""
        found = self.state.audit(known) + self.state.audit_sealed({(seat, lb): a for lb, a in known.sealed.items()})
        return [v for v in found if v.seat == seat]

    def _record_sealed(self, c: dict, seat: int, rnd: int, actions: list[str]) -> dict:
        """Record the file's commitments and memo; return its openings, checked for shape."""
        labels = [a[len(SEALED):] for a in actions if a.startswith(SEALED)]
        commits = c.get("commits", {})
        if not isinstance(commits, dict) or sorted(commits) != sorted(labels) or len(set(labels)) != len(labels):
            raise IllegalMove("P-commit", f"sealed choices {labels} need exactly one commitment each "
                              f"(the file has {sorted(commits) if isinstance(commits, dict) else commits!r})")
        for label, h in commits.items():
            if not isinstance(h, str) or not re.fullmatch(r"[0-9a-f]{64}", h):
                raise IllegalMove("P-commit", f"commitment for {label!r} is not 64 hex digits")
            if (seat, label) in self.commitments:
                raise IllegalMove("P-commit", f"seat {seat} already committed to {label!r} in round "
                                  f"{self.commitments[(seat, label)][0]}")
            self.commitments[(seat, label)] = (rnd, h)
        if labels or "memo" in c:
            # one memo for the file's sealed choices, of the size their kinds fix: any other size would tell the
            # choices' lengths to everyone (a seat's own leak, refused so that no log ever carries one)
            memo = c.get("memo")
            if not labels or not isinstance(memo, str):
                raise IllegalMove("P-commit", f"a memo goes with sealed choices and is a string (sealed choices "
                                  f"{labels}, memo {memo!r:.40})")
            want = box_size(sum(memo_sizes(self.game, labels).values()))
            got = len(b64d(memo, "memo"))
            if got != want:
                raise IllegalMove("P-commit", f"the memo is {got} bytes; sealed choices {sorted(labels)} make it "
                                  f"exactly {want} (each padded to its kind's fixed size)")
            self.memos.setdefault(seat, []).append((rnd, memo, tuple(sorted(labels))))
        opens = c.get("opens", {})
        if not isinstance(opens, dict):
            raise IllegalMove("P-open", "'opens' must be a table of label = {value, salt}")
        for label, o in opens.items():
            if (seat, label) not in self.commitments:
                raise IllegalMove("P-open", f"opens {label!r}, which seat {seat} never committed to")
            if (seat, label) in self.opened:
                raise IllegalMove("P-open", f"{label!r} is already open")
            if not isinstance(o, dict) or not isinstance(o.get("value"), str) or not isinstance(o.get("salt"), str):
                raise IllegalMove("P-open", f"opening of {label!r} needs 'value' and 'salt'")
        return dict(opens)

    def _open_wanted(self, opens: dict, seat: int, rnd: int) -> list[Event]:
        """Apply every opening in ``opens`` that the rules want now (and drop it from ``opens``)."""
        events = []
        # one at a time, asking again after each: an opening may make the rules want another (a stat
        # whose exhaustion a dual reveal claims must then be shown in the same file)
        while wanted := sorted(set(opens) & set(self.state.openings().get(seat, ()))):
            label = wanted[0]
            o = opens.pop(label)
            made, h = self.commitments[(seat, label)]
            if not check_opening(h, label, self.gid, made, seat, b64d(o["salt"], "salt"), o["value"].encode()):
                raise CheatDetected(seat, "P-open", f"the opening of {label!r} ({o['value']!r}) does not match the "
                                    f"commitment made in round {made}")
            action = self.game.parse_action(o["value"])
            if action.sealed() != label:
                raise CheatDetected(seat, "P-open", f"{o['value']!r} is not a secret choice labelled {label!r}")
            try:
                self.state.apply_open(seat, label, action)
            except IllegalMove as e:
                raise CheatDetected(seat, e.rule, f"committed to an illegal choice {o['value']!r}: {e}") from None
            self.opened[(seat, label)] = o["value"]
            events.append(Event(rnd, seat, self.named(f"seat {seat} opened {label}: {o['value']}")))
            events += self._drain(rnd, seat)
            self._settle()
            events += self._drain(rnd, seat)
        return events

    def sealed_choices(self, seat: int) -> dict[str, str]:
        """This seat's own sealed choices (label -> action text), recovered from its memos in the log."""
        out: dict[str, str] = {}
        for rnd, box, labels in self.memos.get(seat, []):
            out.update(open_memo(self.game, self.own[seat], self.gid, rnd, seat, box, labels))
        return out

    def _drain(self, rnd: int, seat: int) -> list[Event]:
        """The outcomes the rules told since the last drain, as log events (seat: the event's first seat, else the
        file's author)."""
        out = [Event(rnd, g.seats[0] if g.seats else seat if seat >= 0 else self.creator, self.named(g.text), g)
               for g in self.state.take_told()]
        if not self.told_over and self.over():  # who won, once, as the game ends (by its rules or a timeout)
            self.told_over = True
            o = self.outcome()
            g = GameEvent("over", f"game over: {o.describe()}", o.winners)
            out.append(Event(rnd, o.winners[0] if o.winners else seat if seat >= 0 else self.creator,
                             self.named(g.text), g))
        return out

    def words(self, event: Event, known: Mapping[CardRef, Card] | None = None) -> str:
        """``event`` for a reader who knows the faces ``known`` (default: the public's, now; a seat's are
        ``seen(seat)``): every card whose face the reader knows is said by its face."""
        return in_words(event.text, self.known(None) if known is None else known, namer=self.state.card_words)

    def told_to(self, events: Iterable[Event], known: Mapping[CardRef, Card] | None = None) -> list[Event]:
        """``events`` as a reader who knows ``known`` (default: the public) reads them (see ``words``)."""
        known = self.known(None) if known is None else known
        return [Event(e.round, e.seat, in_words(e.text, known, namer=self.state.card_words), e.said) for e in events]

    def reader_faces(self, identity: Identity | None) -> dict[CardRef, Card]:
        """The faces the holder of ``identity`` has seen (the public's if it holds no seat)."""
        seat = self.seat_of(identity) if identity is not None else None
        if seat is None:
            return self.known(None)
        if seat not in self.own:
            self.attach(seat, identity)
        return self.seen(seat)

    def state_describe(self, seat, action) -> str:
        return self.named(self.state.describe(seat, action))

    def named(self, text: str) -> str:
        """Rules speak of seats; people read names."""
        return re.sub(r"\b[Ss]eat (\d+)\b", lambda m: self._name(int(m.group(1))), text)

    def _name(self, seat: int) -> str:
        return self.cards[seat].name if 0 <= seat < self.n else f"seat {seat}"

    def _close_round(self) -> list[Event]:
        """Close the open round; return what the rules settled as it closed (also in ``events``)."""
        closed = self.round
        self.last_prev = self.prev
        self.prev = round_hash(self.round, self.prev, self.current, self.current_claims, self.current_notes)
        times = [parse_time(f.content["time"], "log") for f in [*self.current.values(), *self.current_claims.values()]]
        self.opened_at = max([self.opened_at, *times])
        self.rounds.append(self.current)
        self.claims_by_round[self.round] = self.current_claims
        self.notes_by_round[self.round] = self.current_notes
        self.current = {}
        self.current_claims = {}
        self.current_notes = {}
        self.round += 1
        self.prevs[self.round] = self.prev
        self._settle()
        told = self._drain(closed, -1)
        self.events += told
        if self.over() and len(self.seeds) == self.n:
            if self.auditing:
                self.audit = audit_match(self)
            self.duties = {}
            return told
        self.duties = self._compute_duties()
        return told

    # -- composing this seat's next file ------------------------------------------------------------
    def clone(self) -> Match:
        twin = copy.copy(self)
        twin.state = self.state.clone()
        twin.book = copy.copy(self.book)
        twin.book.decks = {k: copy.copy(d) for k, d in self.book.decks.items()}
        for d in twin.book.decks.values():
            d.keys = {s: dict(ks) for s, ks in d.keys.items()}
            d.commits = dict(d.commits)
            d.history = list(d.history)
            d.layer_commits = dict(d.layer_commits)
            d.published_layers = list(d.published_layers)
        twin.current = dict(self.current)
        twin.faces = dict(self.faces)
        twin.seeds = dict(self.seeds)
        twin.retired_seeds = set(self.retired_seeds)
        twin.commitments = dict(self.commitments)
        twin.bank = dict(self.bank)
        twin.vacations = {k: list(v) for k, v in self.vacations.items()}
        twin.current_claims = dict(self.current_claims)
        twin.timed_out = dict(self.timed_out)
        twin.claims_by_round = dict(self.claims_by_round)
        twin.final_claims = dict(self.final_claims)
        twin.displaced = list(self.displaced)
        twin.prevs = dict(self.prevs)
        twin.talk = list(self.talk)
        twin.notes = dict(self.notes)
        twin.current_notes = dict(self.current_notes)
        twin.notes_by_round = dict(self.notes_by_round)
        twin.draw_accepts = set(self.draw_accepts)
        twin.opened = dict(self.opened)
        twin.memos = {k: list(v) for k, v in self.memos.items()}
        twin.entropy = dict(self.entropy)
        twin.events = list(self.events)
        twin.violations = list(self.violations)
        twin.rounds = list(self.rounds)
        twin.duties = {s: copy.deepcopy(d) for s, d in self.duties.items()}
        return twin

    def compose(self, seat: int, identity: Identity, actions: Iterable[str], now: datetime,
                extra: dict | None = None, honest: bool = True) -> SignedFile:
        """This seat's file for the open round: its actions plus every decision-free part.

        ``extra`` adds fields of the sender's own (a ``vacation`` announcement). An action whose claim about the
        seat's own cards its view already proves false is refused (``IllegalMove`` in a ``FileRefused``);
        ``honest=False`` is for the cheat harness alone (``duelmail/adversary.py``)."""
        return self._compose(seat, identity, actions, now, extra, honest=honest)[0]

    def _compose(self, seat: int, identity: Identity, actions: Iterable[str], now: datetime,
                 extra: dict | None = None, prove: bool = True, honest: bool = True) -> tuple[SignedFile, Match]:
        """The file, and a twin of this match with it applied (leniently: the file may be partial).

        ``prove=False``: deck passes carry no proof (a draft, never sent)."""
        if seat not in self.duties:
            raise DuelmailError(f"seat {seat} ({self.cards[seat].name}) is not awaited in round {self.round}")
        if seat not in self.own:
            self.attach(seat, identity)
        duty = self.duties[seat]
        secrets = self._secrets_of(self.own[seat])
        public, secret = [], {}
        for text in actions:
            label = self.game.parse_action(text).sealed()
            if label:
                secret[label] = text
                public.append(SEALED + label)
            else:
                public.append(text)
        content: dict = {
            "duelmail": 1, "kind": "turn", "game": self.game_ref, "round": self.round, "prev": self.prev,
            "seat": seat, "time": now.isoformat(timespec="seconds"),
            "actions": ([JOIN] if duty.join else []) + public,
            **(extra or {}),
        }
        seen = self._seen()
        if seen is not None:
            content["seen"] = seen
        if seat not in self.entropy:
            content["entropy"] = seal_entropy(self.masters[seat], self.gid, seat, self.fresh[seat])
        seed = self.own[seat]
        if secret:
            content["commits"] = {
                label: commit(label, self.gid, self.round, seat, commit_salt(seed, label, self.round), text.encode())
                for label, text in secret.items()}
            content["memo"] = make_memo(self.game, seed, self.gid, self.round, seat, secret)
        mine = None

        def add_opens(labels: list[str]) -> None:
            nonlocal mine
            mine = mine if mine is not None else self.sealed_choices(seat)
            opens = content.setdefault("opens", {})
            for lb in labels:
                made = self.commitments.get((seat, lb), (self.round, ""))[0]
                opens[lb] = {"value": mine.get(lb, secret.get(lb, "")), "salt": b64e(commit_salt(seed, lb, made))}

        # openings wanted already go first: the seat's own decisions may only be awaited once they are applied
        wanted = [lb for lb in self.state.openings().get(seat, ()) if (seat, lb) not in self.opened]
        if wanted:
            add_opens(wanted)
        if duty.steps:
            content["deck"] = {deck_id: self.book.compose_step(deck_id, seat, secrets, self.round, prove)
                               for deck_id in duty.steps}
        # every share owed already; the trial below finds any the actions and reveals add
        keys = {str(ref): sra.encode_scalars([self.own_key(seat, ref)]) for ref in self.owed(seat)}
        first = True
        for _ in range(64):
            if keys:
                content["keys"] = dict(sorted(keys.items()))
            trial = self.clone()
            trial.own = self.own
            trial.auditing = False
            trial.plain = secret
            trial.unchecked = set()
            trial.honest = seat if honest and first else None  # the actions are the same in every trial: once
            first = False
            f = SignedFile.sign(content, identity)
            try:
                trial.apply(f, "your new turn", strict=False)
            except (FileRefused, IllegalMove) as refused:
                # a later action may need a card an earlier one turns up to be open already: try once more with the
                # seat's own shares lent as soon as owed; if that goes through, the file carries them
                retrial = self.clone()
                retrial.own, retrial.auditing, retrial.plain, retrial.unchecked = self.own, False, secret, set()
                retrial.honest, retrial.lender = trial.honest, seat
                try:
                    retrial.apply(f, "your new turn", strict=False)
                except (FileRefused, IllegalMove):
                    raise refused from None
                if not retrial.lent - {CardRef.parse(r) for r in keys}:
                    raise
                for ref in retrial.lent:
                    keys[str(ref)] = sra.encode_scalars([self.own_key(seat, ref)])
                continue
            if (trial.over() or seat in trial.state.retired()) and "seed" not in content \
                    and seat not in self.seeds:
                # the game is over (open everything for the audit), or the rules retired this seat: from now on
                # every receiver derives its shares and passes from the seed
                content["seed"] = b64e(self.own[seat])
                continue
            to_open = [lb for lb in trial.state.openings().get(seat, ()) if (seat, lb) not in trial.opened]
            if to_open:
                add_opens(to_open)
                continue
            owed = trial.owed(seat) | {r for r in trial.unchecked if str(r) not in keys}
            if not owed:
                return f, trial
            for ref in owed:
                keys[str(ref)] = sra.encode_scalars([trial.own_key(seat, ref)])
        raise DuelmailError("key shares never settle (a bug)")

    def compose_note(self, seat: int, identity: Identity, now: datetime, say: str | None = None,
                     resign: bool = False, draw: str | None = None) -> SignedFile:
        """This seat's next note (protocol §5a), refused before signing if it would change nothing."""
        content: dict = {"duelmail": 1, "kind": "note", "game": self.game_ref, "round": self.round,
                         "prev": self.prev, "seat": seat, "time": now.isoformat(timespec="seconds"),
                         "n": 1 + max((n for s, n in self.notes if s == seat), default=0)}
        if say is not None:
            content["say"] = check_say(say)
        what = "resign" if resign else f"{draw} a draw" if draw else ""
        if what and self.over():
            raise IllegalMove("P-over", f"cannot {what} in game {self.gid[:12]}: it is over "
                              f"({self.describe_outcome()})")
        if resign:
            content["resign"] = True
        if draw is not None:
            offer = self.draw_offer
            if draw not in DRAW:
                raise IllegalMove("P-draw", f"{draw!r} is not offer, accept or decline")
            if draw == "offer" and offer is not None:
                raise IllegalMove("P-draw", f"{self.cards[offer[0]].name}'s draw offer is still open: accept or "
                                  "decline it")
            if draw != "offer":
                if offer is None:
                    raise IllegalMove("P-draw", f"no draw offer is open in game {self.gid[:12]}")
                if offer[0] == seat:
                    raise IllegalMove("P-draw", "the open draw offer is your own: the others answer it")
                if seat in self.draw_accepts:
                    raise IllegalMove("P-draw", "you accepted this draw offer already")
                content["offer"] = {"seat": offer[0], "n": offer[1]}
            content["draw"] = draw
        if len(content) == 8:
            raise IllegalMove("P-note", "a note must say something, resign or offer or answer a draw")
        return SignedFile.sign(content, identity)

    def draft(self, seat: int, identity: Identity, actions: Iterable[str] = (),
              now: datetime | None = None, honest: bool = True) -> Match:
        """The match as it will stand once this seat's decision-free parts (and ``actions``) are applied."""
        return self._compose(seat, identity, actions, now or max(self.opened_at, self.last_time), prove=False,
                             honest=honest)[1]


def with_faces(text: str, known: Mapping[CardRef, Card], name: Callable[[CardRef, Card], str] = lambda r, c: str(c)
               ) -> str:
    """Write the face a seat can see after each ref: ``a#17`` becomes ``a#17 (9S)`` (``name``: the game's word for a
    card, ``GameState.card_name``)."""

    def add(m: re.Match) -> str:
        ref = CardRef.parse(m.group(0))
        face = known.get(ref)
        return f"{m.group(0)} ({name(ref, face)})" if face else m.group(0)

    return re.sub(r"[a-z]+[0-9]*(?:\.[0-9]+)?#[0-9]+(?![0-9=])", add, text)  # REF=face says its face already


def _span(d: timedelta) -> str:
    hours = int(d.total_seconds() // 3600)
    return f"{hours // 24} day{'s' if hours // 24 != 1 else ''}" if hours % 24 == 0 else f"{hours} hours"


def _shown_to_other(who: int | None, seat: int) -> bool:
    return who is not None and (who == PUBLIC or who != seat)
