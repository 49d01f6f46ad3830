"""A game folded from its log: ``state = fold(rules, genesis, turns)``.

``Match`` checks and applies one signed file at a time (signature, game, chain, round, seat,
deck steps, key shares, actions, timing of reveals) and knows, for the open round, which seats
are awaited and for what (``Duty``). It composes a seat's next file with every decision-free
part filled in (deck steps, every key share that seat owes, reveals), and, once every seat has
published its per-game seed, audits the whole game.

Its rooms, one module each: ``fold`` (checking and applying a file, closing rounds), ``duties`` (who the open
round awaits, deadlines, answer windows), ``compose`` (a seat's next file), ``views`` (what a seat or a reader
sees), ``escrowing`` (escrow dealings, complaints and removals, protocol section 6c); ``log`` holds the
vocabulary they share (``Event``, ``Duplicate``, round hashes, times). This module holds what a match is made
of: the genesis's checks, the seats' secrets, and ``clone``.

A ``Match`` that raised from ``apply`` is spent: fold again from the archive. Callers never
write anything before ``apply`` has returned.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable
from datetime import datetime, timedelta

from duelmail.crypto import deck as sra
from duelmail.crypto.derive import FRESH_BYTES, game_seed
from duelmail.crypto.encoding import b64d, b64e
from duelmail.engine.clock import FUTURE_TOLERANCE, TimeControl, join_window
from duelmail.engine.compose import Composing
from duelmail.engine.decks import DeckBook
from duelmail.engine.duties import Duties, Duty
from duelmail.engine.escrowing import Escrowing
from duelmail.engine.fold import Folding, open_entropy
from duelmail.engine.log import Event, EventLog, parse_time
from duelmail.engine.talk import Talk
from duelmail.engine.views import Views
from duelmail.errors import CryptoError, DuelmailError, FileRefused, NotationError
from duelmail.games.base import Game, GameState, Outcome, Violation, for_player, get_game
from duelmail.games.cards import Card, CardRef
from duelmail.protocol.identity import Identity, PlayerCard
from duelmail.protocol.turnfile import SignedFile

_SECRETS: dict[tuple[bytes, str, int, int], sra.LockerSecrets] = {}  # a pure function of its key: safe to share


class Match(Folding, Duties, Composing, Views, Escrowing):
    """One game, folded from its genesis and turns."""

    def __init__(self, genesis: SignedFile, where: str = "genesis"):
        c = genesis.content
        if genesis.kind != "genesis":
            raise FileRefused(where, "the first file of a game must be its genesis", rule="P-genesis")
        try:
            self.game: Game = get_game(c["game_kind"])
        except NotationError as e:
            raise FileRefused(where, str(e), rule="P-genesis") from None
        if not self.game.spec.plays_version(c["rules_version"]):
            spec = self.game.spec
            have = (f"versions {spec.oldest_rules_version} to {spec.rules_version}"
                    if spec.oldest_rules_version not in (None, spec.rules_version) else f"version {spec.rules_version}")
            raise FileRefused(where, f"rules version {c['rules_version']} of {c['game_kind']}; this duelmail "
                              f"plays {have}", rule="P-genesis")
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
        try:
            self.nonce = b64d(c["nonce"], "nonce")
        except CryptoError as e:
            raise FileRefused(where, str(e), round=0, seat=self.creator, rule="P-genesis") from None
        self.toss_commit: str | None = c.get("toss")  # the creator's commitment, in games that draw lots
        if spec.draws_lots != ("toss" in c) or "toss" in c and not re.fullmatch(r"[0-9a-f]{64}", str(c["toss"])):
            raise FileRefused(where, f"{spec.id} draws lots for who starts: the genesis needs 'toss', a SHA-256 "
                              "in hex" if spec.draws_lots else f"{spec.id} draws no lots: the genesis has 'toss'",
                              round=0, seat=self.creator, rule="P-genesis")
        self.toss_values: dict[int, bytes] = {}  # every seat's toss value, as the log shows it
        self.starter: int | None = None  # who the toss chose, once the creator opened it
        self.state: GameState = self.game.new_state_under(self.n, self.options, c["rules_version"])
        self.specs = {d.id: d for d in self.game.decks(self.n, self.options)}
        self.book = DeckBook(self.gid, self.creator, self.n)
        for d in self.specs.values():
            self.book.add_fresh(d.id, len(d.faces), d.lockers or tuple(range(self.n)))
        refusal = self._init_escrow(c)
        if refusal:
            raise FileRefused(where, refusal, round=0, seat=self.creator, rule="P-genesis")
        ahead = c.get("ahead", False)
        if ahead is not True and ahead is not False or ahead and (self.escrow_on or not spec.draws_ahead):
            raise FileRefused(where, f"'ahead' (key shares ahead of a draw, protocol section 6) is true or false, "
                              f"and true only in a game whose rules name such draws and that escrows no keys; got "
                              f"{ahead!r:.40} in {spec.id}" + (" with escrow" if self.escrow_on else ""),
                              round=0, seat=self.creator, rule="P-genesis")
        self.ahead_on: bool = ahead  # shares may ride ahead of a draw the rules make certain (Duties.ahead_owed)
        self.ahead_pending: dict[CardRef, int] = {}  # ref -> its drawer: shares published ahead, the draw to come
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
        self.events = EventLog([Event(0, self.creator, f"{self.cards[self.creator].name} opened a game "
                                              f"of {spec.title}")])
        self.violations: list[Violation] = []
        self.told_over = False  # the game's end is in the log
        self.pending_shuffle = None
        self._unrevealed: tuple | None = None  # (visibility, faces public, refs not open yet, faces)
        self.audit = None
        self.auditing = True  # False in a sender's trial of its own file: the audit would be thrown away
        self.proven: frozenset[str] = frozenset()  # files whose pass proofs this home checked before
        self.proofs = "every pass proof checked as its file was applied"
        self.last_time: datetime | None = parse_time(c["created"], where)
        self.opened_at: datetime = self.last_time  # when the open round opened: the latest time of the last round
        self.floor_at: datetime = self.last_time  # (delivery allowance) the latest time but decision-free answers'
        self.last_floor: datetime = self.last_time  # ... and that floor when the last closed round opened
        self.clock_starts: dict[int, datetime] = {}  # seat -> its clock's start in the open round, if after opened_at
        self.bank = {s: timedelta(days=self.tc.bank_days) for s in range(self.n)}
        self.vacations: dict[int, list[tuple[datetime, datetime]]] = {s: [] for s in range(self.n)}
        self.current_claims: dict[int, SignedFile] = {}
        self.timed_out: dict[int, tuple[int, int, datetime, datetime]] = {}  # round -> against, by, deadline, time
        self.forced_outcome: Outcome | None = None
        self.claims_by_round: dict[int, dict[int, SignedFile]] = {}
        self.final_claims: dict[int, str] = {}  # round -> a file of the next round that builds on its claim
        self.displaced: list[str] = []  # hashes of moves signed by their deadline that a final claim made void
        # the last call (protocol section 6b): the open round's timeout claims that no answer has met yet (hash ->
        # (where, claim)); the claims this home's last call closed with no answer (``stood``; None: an archive read
        # without its home, where a claim stands once a file of the next round builds on it); (round, seat) -> the
        # time of the note by which the seat answered a claim and started its clock again
        self.calls: dict[str, tuple[str, SignedFile]] = {}
        self.stood: set[str] | None = None
        self.here: dict[tuple[int, int], datetime] = {}
        self.built_on: set[str] = set()  # (stood None) claims a file of the next round builds on: they stood
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
        # rounds a note closed: "ended" (a resignation or an agreed draw ended the game), "removal" (a resignation
        # opened the seat's removal, protocol section 6c)
        self.closed_by_note: dict[int, str] = {}
        # (round, seat) -> the two different files a seat signed for one round, both in the log (protocol §5)
        self.equivocations: dict[tuple[int, int], tuple[SignedFile, SignedFile]] = {}
        self.own: dict[int, bytes] = {}  # per-game seeds of the seats this process plays
        self.masters: dict[int, bytes] = {}  # their identities' master secrets
        self.entropy: dict[int, str] = {}  # every seat's sealed fresh randomness, from its first file
        self.fresh: dict[int, bytes] = {}  # the fresh randomness of the seats this process plays
        self.plain: dict[str, str] = {}  # the sender's draft only: the real text of the file's sealed choices
        self.honest: int | None = None  # the sender's draft only: the seat whose claims its own view must bear out
        self.events += self._drain(0, self.creator)  # what the starting position tells (a first draw)
        self._snapshot_escrow()
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

    def over(self) -> bool:
        """The game has ended: by its rules, or by a timeout the time control settles."""
        return self.forced_outcome is not None or self.state.is_terminal()

    def outcome(self) -> Outcome | None:
        return self.forced_outcome or self.state.outcome()

    def describe_outcome(self, plain: bool = True) -> str:
        """How the game ended, in words (``plain``: as a player reads it, no rule id alone; else as the rules said
        it, for ``verify``)."""
        said = self.named(self.outcome().describe(self.names()))
        return for_player(said) if plain else said

    @property
    def finished(self) -> bool:
        return self.over() and len(set(self.seeds) | self.removed) == self.n and not self.current

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
        twin.clock_starts = dict(self.clock_starts)
        twin.displaced = list(self.displaced)
        twin.calls = dict(self.calls)
        twin.stood = None if self.stood is None else set(self.stood)
        twin.here = dict(self.here)
        twin.built_on = set(self.built_on)
        twin.prevs = dict(self.prevs)
        twin.talk = list(self.talk)
        twin.notes = dict(self.notes)
        twin.current_notes = dict(self.current_notes)
        twin.notes_by_round = dict(self.notes_by_round)
        twin.closed_by_note = dict(self.closed_by_note)
        twin.equivocations = dict(self.equivocations)
        twin.draw_accepts = set(self.draw_accepts)
        twin.opened = dict(self.opened)
        twin.memos = {k: list(v) for k, v in self.memos.items()}
        twin.entropy = dict(self.entropy)
        twin.toss_values = dict(self.toss_values)
        twin.events = self.events.copy()
        twin.violations = list(self.violations)
        twin.rounds = list(self.rounds)
        twin.duties = {s: copy.deepcopy(d) for s, d in self.duties.items()}
        twin.escrow_keys = dict(self.escrow_keys)
        twin.escrow_key_round = dict(self.escrow_key_round)
        twin.dealings = {k: dict(v) for k, v in self.dealings.items()}
        twin.dealing_history = {k: list(v) for k, v in self.dealing_history.items()}
        twin.published = {k: dict(v) for k, v in self.published.items()}
        twin.escrow_accepted = {k: set(v) for k, v in self.escrow_accepted.items()}
        twin.accepted_all = dict(self.accepted_all)
        twin.escrow_accomplices = {k: set(v) for k, v in self.escrow_accomplices.items()}
        twin.complaints_due = {k: list(v) for k, v in self.complaints_due.items()}
        twin.escrow_broken = set(self.escrow_broken)
        twin.proved_wrong = set(self.proved_wrong)
        twin.removed = set(self.removed)
        twin.ahead_pending = dict(self.ahead_pending)
        return twin


def _span(d: timedelta) -> str:
    hours = int(d.total_seconds() // 3600)
    return f"{hours // 24} day{'s' if hours // 24 != 1 else ''}" if hours % 24 == 0 else f"{hours} hours"


