"""Escrow: playing on without a seat that stopped answering (protocol section 6c).

In a game of three or more seats whose rules can remove a seat (``GameSpec.removes_seats``), every seat
escrows what the others need to open its lock layers without it: with each ``shuffle_lock`` or ``lock`` pass,
a Feldman dealing of every per-position key among the other seats in play (``crypto/escrow.py``), each holder's
shares sent hashed-ElGamal to its escrow key; with its first dealing, one of its escrow key. Each home checks
the shares dealt to its own seat on arrival and complains (a DLEQ-proved decryption) when one fails.

After a timeout claim against a seat ``S`` that would forfeit the game, if ``S`` is removable, the next round
(the *removal round*) awaits every other seat in play that holds shares of ``S`` for those shares, decrypted;
when it closes every home checks them, reconstructs ``S``'s keys, records them as ``S``'s key shares, and the rules
remove ``S`` (``GameState.remove``). In a game whose genesis says ``escrow = {reshare = true}``, after any departure
every seat in play deals its escrowed keys again among the seats now in play, in its next file (``escrow_reshare``),
and a later removal uses the newest dealing. Games without decks (DUEL skirmish) escrow nothing: a removal needs no
keys and happens at the claim.
"""

from __future__ import annotations

from duelmail.crypto import deck as sra
from duelmail.crypto.derive import escrow_seed, hkdf
from duelmail.crypto.encoding import b64d, b64e, lp
from duelmail.crypto.group import POINT_BYTES, SCALAR_BYTES, base_mul
from duelmail.engine.log import Event
from duelmail.errors import CheatDetected, CryptoError, DuelmailError, IllegalMove, SeatNotRemovable
from duelmail.games.base import Outcome, Violation
from duelmail.util.classes import dataclass

KEY = "escrow-key"


class _Lazy:
    """``crypto.escrow`` (and through it the proofs), imported when first used: a command that only reads a game
    (``status``, ``show``) never loads them."""

    def __getattr__(self, name: str):
        from duelmail.crypto import escrow

        return getattr(escrow, name)


esc = _Lazy()
CREATOR_TAG = "duelmail/escrow-creator/v1"


def creator_escrow_key(master: bytes, nonce: bytes) -> bytes:
    """The creator's escrow key: derived from its master secret and the genesis nonce (its public key is in the
    genesis, which cannot depend on the game seed, itself bound to the game id). Never published."""
    return esc.escrow_key(hkdf(master, lp(CREATOR_TAG, nonce)))


@dataclass
class Dealt:
    """One seat's dealing of one secret list (a deck generation's keys, or its escrow key) as its file carried it."""

    round: int
    holders: tuple[int, ...]
    threshold: int
    count: int
    commits: list[list[bytes]]  # per position: C_1..C_{t-1} (C_0 is the dealer's recorded commitment)
    ciphertexts: dict[int, str]  # holder seat -> b64e(R ‖ c_1..c_n)
    label: str = ""  # a re-dealing's name in its contexts ("a.1@1"); empty for the first dealing (its ``what``)
    generation: int = 0  # the deck generation whose keys it deals (a set-up abandoned at a removal is not re-dealt)

    def tag(self, what: str) -> str:
        """The name this dealing's contexts bind: ``what`` for the first dealing, ``what@g`` for re-dealing ``g``."""
        return self.label or what


def _points(text: object, count: int, what: str, validate: bool = True) -> list[bytes]:
    if not isinstance(text, str):
        raise CryptoError(f"{what}: expected base64 text of {count} points, got {text!r:.60}")
    return sra.decode_points(text, count, what, validate=validate) if count else []


class Escrowing:
    """``Match``'s room: escrow dealings, complaints and removals (protocol section 6c)."""

    # -- genesis ----------------------------------------------------------------------------------
    def _init_escrow(self, c: dict) -> str | None:
        """Read the genesis's escrow fields; return a refusal's message, or None."""
        self.escrow_on = False
        self.escrow_threshold: int | None = None
        self.escrow_keys: dict[int, bytes] = {}  # seat -> E_s
        self.escrow_key_round: dict[int, int] = {}  # seat -> the round whose file published E_s (creator: 0)
        self.escrow_open: frozenset[int] = frozenset()  # seats in play with a known key when the open round opened
        self.dealings: dict[int, dict[str, Dealt]] = {}  # dealer -> what -> its newest dealing
        self.dealing_history: dict[tuple[int, str], list[Dealt]] = {}  # (dealer, what) -> every dealing, oldest first
        self.escrow_reshare = False  # after a departure, every seat re-deals its keys among the seats in play
        self.published: dict[tuple[int, str], dict[int, list[bytes]]] = {}  # (dealer, what) -> holder -> shares
        self.escrow_accepted: dict[tuple[int, str], set[int]] = {}  # (dealer, what) -> holders that answered
        # after the dealing without a complaint (a later complaint of theirs is late: it names them too)
        self.dealings_made = 0  # every dealing recorded (``dealing_history``'s, counted)
        self.accepted_all: dict[int, int] = {}  # seat -> ``dealings_made`` when a file of it accepted every dealing
        # there was (each one of a round before: ``_note_acceptance`` has nothing to add while no dealing is made)
        self.escrow_accomplices: dict[int, set[int]] = {}  # dealer -> holders whose late complaint named them
        self.complaints_due: dict[int, list[tuple[int, str, int]]] = {}  # own seat -> [(dealer, what, dealing
        # index in the history)] its check failed
        self.escrow_broken: set[int] = set()  # dealers a complaint proved: their removal forfeits
        self.proved_wrong: set[tuple[int, str, int, int]] = set()  # (dealer, what, dealing index, holder): a dealing
        # a holder's complaint proved wrong to it (at a removal its shares of that dealing are not asked for)
        self.removing: int | None = None  # the seat the open removal round removes
        self.removal_round = 0
        self.removal_why = ""  # what opened the removal under way: a timeout claim, or a resignation ("... resigns")
        self.removed: set[int] = set()
        spec = self.game.spec
        given = c.get("escrow")
        if self.n < 3 or not spec.removes_seats:
            if given is not None or "escrow_key" in c:
                return (f"{spec.id} with {self.n} seats has no escrow (games of three or more seats whose rules "
                        "remove a seat); the genesis asks for it")
            return None
        given = {} if given is None else given
        if not isinstance(given, dict) or set(given) - {"off", "threshold", "reshare"}:
            return f"'escrow' must be a table of off, threshold and reshare, got {given!r:.80}"
        off = given.get("off", False)
        if off is not True and off is not False:
            return f"escrow.off must be true or false, got {off!r}"
        reshare = given.get("reshare", False)
        if (reshare is not True and reshare is not False) or (off and reshare):
            return f"escrow.reshare must be true or false (and only with escrow on), got {reshare!r}"
        self.escrow_reshare = reshare
        if "threshold" in given:
            t = given["threshold"]
            if off or not isinstance(t, int) or isinstance(t, bool) or not 2 <= t <= self.n - 1:
                return f"escrow.threshold must be 2..{self.n - 1} (the seats minus one), got {t!r}"
            self.escrow_threshold = t
        self.escrow_on = not off
        if self.escrow_material and "escrow" not in c and "escrow_key" not in c:
            self.escrow_on = False  # a genesis written before escrow: a silent seat forfeits the game, as it did then
            return None
        if self.escrow_material != ("escrow_key" in c):
            return ("the genesis carries the creator's escrow key ('escrow_key') exactly when the game escrows "
                    "deck keys")
        if "escrow_key" in c:
            try:
                self.escrow_keys[self.creator] = _points(c["escrow_key"], 1, "escrow_key")[0]
            except CryptoError as e:
                return str(e)
            self.escrow_key_round[self.creator] = 0
        return None

    @property
    def escrow_material(self) -> bool:
        """Escrow keys and dealings are sent: escrow is on and the game has decks to escrow keys of."""
        return self.escrow_on and bool(self.specs)

    def _snapshot_escrow(self) -> None:
        """As a round opens: the seats a dealing of this round is made to (in play, escrow key known)."""
        if self.escrow_material:
            out = set(range(self.n)) - self.state.retired() - self.removed
            self.escrow_open = frozenset(s for s in out if self.escrow_key_round.get(s, self.round) < self.round)

    def escrow_holders(self, dealer: int) -> tuple[tuple[int, ...], int]:
        """Who holds a dealing ``dealer`` makes in the open round, and its threshold (0: no dealing: fewer than
        two holders, who could not share a secret without one of them learning it)."""
        holders = tuple(sorted(self.escrow_open - {dealer}))
        if len(holders) < 2:
            return holders, 0
        return holders, min(self.escrow_threshold or len(holders), len(holders))

    def _base(self, dealer: int, what: str, j: int) -> bytes:
        """``C_0`` of position ``j``: the dealer's key commitment as recorded here (or its escrow key)."""
        if what == KEY:
            return self.escrow_keys[dealer]
        return self.book.decks[what].commits[dealer][j]

    def _own_escrow_secret(self, seat: int) -> bytes:
        """``e_s``: from the master secret and the game's fresh randomness, never from the game seed, which a
        retirement or the end publishes (protocol section 6c, "Who learns what")."""
        if seat == self.creator:
            return creator_escrow_key(self.masters[seat], self.nonce)
        e = esc.escrow_key(escrow_seed(self.masters[seat], self.gid, self.fresh[seat]))
        recorded = self.escrow_keys.get(seat)
        if recorded is not None and base_mul(e) != recorded and base_mul(esc.escrow_key(self.own[seat])) == recorded:
            return esc.escrow_key(self.own[seat])  # a game begun by an older client: its key follows the seed
        return e

    # -- checks on arrival --------------------------------------------------------------------------
    def _record_escrow_key(self, c: dict, seat: int, first: bool) -> None:
        if not self.escrow_material or seat == self.creator:
            if "escrow_key" in c:
                raise IllegalMove("P-escrow", "this file carries no escrow key" + (
                    "" if self.escrow_material else ": the game has no escrow" if not self.escrow_on
                    else ": the game escrows no deck key") + (" (the creator's is in the genesis)"
                                                              if seat == self.creator else ""))
            return
        if first != ("escrow_key" in c):
            raise IllegalMove("P-escrow", f"seat {seat}'s first file carries its escrow key ('escrow_key'), and "
                              "only that file")
        if first:
            self.escrow_keys[seat] = _points(c["escrow_key"], 1, "escrow_key")[0]
            self.escrow_key_round[seat] = self.round

    def _record_dealings(self, c: dict, seat: int, rnd: int, locks: list[str]) -> list[Event]:
        """The ``escrow`` table: one dealing per lock pass of the file, and the escrow key's with the first."""
        given = c.get("escrow", {})
        if not isinstance(given, dict):
            raise IllegalMove("P-escrow", "'escrow' must be a table of dealings")
        holders, t = self.escrow_holders(seat)
        want: list[str] = []
        if self.escrow_material and t and seat in self.escrow_open:
            want = list(locks)
            if locks and KEY in given and KEY not in self.dealings.get(seat, {}):
                want.append(KEY)  # an older client deals its escrow key with its first lock: kept, never opened
        if sorted(given) != sorted(want):
            raise IllegalMove("P-escrow", f"the file's escrow dealings are {sorted(given) or 'none'}; its lock "
                              f"passes need {sorted(want) or 'none'}")
        events = []
        for what in sorted(given):
            self._add_dealing(seat, what, self._parse_dealing("escrow", what, given[what], rnd, holders, t, ""))
        if given:
            events.append(Event(rnd, seat, f"{self.cards[seat].name} escrowed {', '.join(sorted(given))} "
                                f"among seats {', '.join(map(str, holders))} (threshold {t})"))
        return events

    def _parse_dealing(self, field: str, what: str, d: object, rnd: int, holders: tuple[int, ...], t: int,
                       label: str) -> Dealt:
        """One ``{commits, shares}`` table of a file's ``escrow`` (or ``escrow_reshare``), its shape checked."""
        count = 1 if what == KEY else self.book.decks[what].n
        if not isinstance(d, dict) or set(d) != {"commits", "shares"} or not isinstance(d["shares"], dict):
            raise IllegalMove("P-escrow", f"{field}.{what} must be a table of commits and shares")
        later = getattr(self.book, "unvalidated", None) if what != KEY else None  # a replay: validated after
        flat = _points(d["commits"], count * (t - 1), f"{field}.{what} commits", validate=later is None)
        if later is not None:  # (and not at all when the audit, which recomputes every dealing but a key's, passed)
            later.append(flat)
        commits = [flat[j * (t - 1):(j + 1) * (t - 1)] for j in range(count)]
        if set(d["shares"]) != {str(h) for h in holders}:  # seats as text: "10" sorts before "2"
            raise IllegalMove("P-escrow", f"{field}.{what}: ciphertexts for seats {sorted(d['shares'])}, the "
                              f"holders are {list(holders)}")
        cts = {}
        for h in holders:
            text = d["shares"][str(h)]
            if not isinstance(text, str) or len(b64d(text, f"{field}.{what} to {h}")) != esc.ciphertext_size(count):
                raise CryptoError(f"{field}.{what}: the ciphertext to seat {h} is not "
                                  f"{esc.ciphertext_size(count)} bytes of base64")
            cts[h] = text
        generation = 0 if what == KEY else self.book.decks[what].generation
        return Dealt(rnd, holders, t, count, commits, cts, label, generation)

    def _add_dealing(self, seat: int, what: str, dealt: Dealt) -> None:
        """Record a dealing as ``seat``'s newest of ``what`` (the one a removal uses) and check this home's shares."""
        self.dealings.setdefault(seat, {})[what] = dealt
        self.dealing_history.setdefault((seat, what), []).append(dealt)
        self.escrow_accepted[(seat, dealt.tag(what))] = set()
        self.dealings_made += 1
        for h in dealt.holders:
            if h in self.own and h != seat:
                self._check_own_shares(seat, what, dealt, h)

    # -- re-sharing after a departure (protocol section 6c, "Threshold") ------------------------------
    def redeal_due(self, seat: int) -> list[str]:
        """The dealings ``seat`` deals again in its file of the open round: in a game that re-shares, each of its
        dealings (its newest of each deck) of which a holder has left since, when the seats now in play give it
        at least two holders. Every home computes the same list from the round's opening."""
        if not (self.escrow_reshare and self.escrow_material) or seat not in self.escrow_open:
            return []
        holders, t = self.escrow_holders(seat)
        if not t:
            return []  # fewer than two holders: no removal is possible anyway
        return sorted(w for w, d in self.dealings.get(seat, {}).items() if w != KEY and not set(d.holders) <=
                      set(holders) and d.generation == self.book.decks[w].generation)

    def _redeal_label(self, seat: int, what: str) -> str:
        """``what@g``: the name the ``g``-th re-dealing of ``what`` binds in its contexts, so that shares of two
        dealings of one key never pass for one another."""
        return f"{what}@{len(self.dealing_history.get((seat, what), ()))}"

    def _record_redealings(self, c: dict, seat: int, rnd: int) -> list[Event]:
        """``escrow_reshare``: every dealing ``redeal_due`` names, dealt again among the holders now in play."""
        given = c.get("escrow_reshare", {})
        want = self.redeal_due(seat)
        if not isinstance(given, dict) or sorted(given) != want:
            got = sorted(given) if isinstance(given, dict) else given
            raise IllegalMove("P-escrow", f"the file re-deals the escrow of {got or 'nothing'!r:.60}; the departures "
                              f"since its dealings need {want or 'none'}")
        if not want:
            return []
        holders, t = self.escrow_holders(seat)
        for what in want:
            self._add_dealing(seat, what, self._parse_dealing("escrow_reshare", what, given[what], rnd, holders, t,
                                                              self._redeal_label(seat, what)))
        return [Event(rnd, seat, f"{self.cards[seat].name} re-dealt its escrow of {', '.join(want)} among seats "
                      f"{', '.join(map(str, holders))} (threshold {t})")]

    def _ctx(self, dealer: int, what: str, d: Dealt, holder: int) -> bytes:
        """The context of ``d``'s ciphertext to ``holder``."""
        return esc.escrow_context(self.gid, d.round, dealer, f"{d.tag(what)}/to-{holder}")

    def _commitments(self, dealer: int, what: str, d: Dealt) -> list[list[bytes]]:
        return [[self._base(dealer, what, j), *d.commits[j]] for j in range(d.count)]

    def _names(self, what: str, count: int) -> list[str]:
        return [KEY] if what == KEY else [f"{what}#{j}" for j in range(count)]

    def _check_own_shares(self, dealer: int, what: str, d: Dealt, h: int, index: int | None = None,
                          tell: bool = True) -> None:
        """A home checks the shares dealt to its own seat; a failure is owed as a complaint in its next file (said as
        an event when ``tell``: on arrival; before signing, the complaint's own event says it)."""
        index = len(self.dealing_history[(dealer, what)]) - 1 if index is None else index
        checked = self.__dict__.setdefault("_own_checked", set())
        if (dealer, what, index, h) in checked:
            return
        checked.add((dealer, what, index, h))
        try:
            esc.receive_shares(d.ciphertexts[h], self._own_escrow_secret(h), h + 1, self._commitments(dealer, what, d),
                               self._ctx(dealer, what, d, h), self._names(what, d.count),
                               f"seat {dealer}'s dealing of {d.tag(what)}", threshold=d.threshold)
        except CryptoError as e:
            if (dealer, what, index) in self.complaints_due.get(h, []) or (dealer, what, index, h) in self.proved_wrong:
                return
            self.complaints_due.setdefault(h, []).append((dealer, what, index))
            if tell:
                self.events.append(Event(self.round, h, f"{self.cards[h].name}'s escrow shares from seat {dealer} "
                                         f"fail: {e}; its next file complains"))

    def _check_unanswered(self, seat: int) -> None:
        """Before ``seat``'s home signs: check every dealing made to it that its files have not answered yet (a home
        folds its log before it knows its identity, so the check on arrival may not have run). A failure is owed as a
        complaint in this file, so an honest holder never accepts a wrong dealing, whenever its home finds it."""
        for (dealer, what), history in self.dealing_history.items():
            accepted = self.escrow_accepted
            if what != KEY and dealer not in self.book.decks[what].commits:
                continue  # its key commitments are not in yet: checked once they are (a later file of this seat)
            for index, d in enumerate(history):
                if seat in d.holders and dealer != seat and seat not in accepted.get((dealer, d.tag(what)), ()) \
                        and (dealer, what, index, seat) not in self.proved_wrong:
                    self._check_own_shares(dealer, what, d, seat, index, tell=False)

    def _record_complaint(self, c: dict, seat: int, rnd: int) -> list[Event]:
        """``escrow_complaint``: the holder's decryption, proved; whoever it shows cheating is named."""
        if "escrow_complaint" not in c:
            self._note_acceptance(seat, rnd, c.get("escrow_shares"))
            return []
        k = c["escrow_complaint"]
        if not isinstance(k, dict) or set(k) != {"dealer", "what", "dh", "proof"} or not isinstance(k["proof"], str):
            raise IllegalMove("P-escrow", "'escrow_complaint' must be a table of dealer, what, dh and proof")
        dealer, what = k["dealer"], k["what"]
        history = self.dealing_history.get((dealer, what), []) if isinstance(dealer, int) and \
            isinstance(what, str) else []
        made = [(i, d) for i, d in enumerate(history) if seat in d.holders]
        if not made:
            raise IllegalMove("P-escrow", f"the complaint names no dealing of seat {dealer!r} ({what!r}) to seat "
                              f"{seat}")
        dh = _points(k["dh"], 1, "escrow_complaint.dh")[0]
        error: CryptoError | None = None
        found = None
        for index, d in reversed(made):  # the dealing (first or re-dealt) its proof verifies against
            try:
                found = index, d, esc.open_with_proof(d.ciphertexts[seat], self.escrow_keys[seat], dh, k["proof"],
                                                      self._ctx(dealer, what, d, seat), d.count)
                break
            except CryptoError as e:
                error = error or e
        if found is None:
            raise CheatDetected(seat, "P-escrow", f"a false complaint about seat {dealer}'s dealing of {what}: "
                                f"{error}")
        index, d, shares = found
        return self._judge_complaint(seat, dealer, what, index, d, shares, rnd)

    def _judge_complaint(self, seat: int, dealer: int, what: str, index: int, d: Dealt, shares: list[bytes],
                         rnd: int) -> list[Event]:
        """The shares a holder's proved decryption opened of ``dealer``'s dealing ``index`` of ``what``: a share that
        fails its commitments names the dealer (a ``Violation``, its removal no longer possible); if every share
        opens, the complaint was false, a cheat by the holder (``CheatDetected``)."""
        if (dealer, what, index) in self.complaints_due.get(seat, []):  # this home's own complaint, now sent
            self.complaints_due[seat].remove((dealer, what, index))
        comms = self._commitments(dealer, what, d)
        for j, share in enumerate(shares):
            try:
                esc.verify_share(share, seat + 1, comms[j], self._names(what, d.count)[j], threshold=d.threshold)
            except CryptoError as e:
                v = Violation(dealer, "P-escrow", f"seat {dealer} dealt seat {seat} a wrong escrow share in round "
                              f"{d.round}{' (a re-dealing)' if d.label else ''}: {e} (proved by seat {seat}'s "
                              "complaint)")
                self.violations.append(v)
                self.escrow_broken.add(dealer)
                self.proved_wrong.add((dealer, what, index, seat))
                out = [Event(rnd, dealer, f"CHEAT: {v.message} (rule P-escrow)")]
                if seat in self.escrow_accepted.get((dealer, d.tag(what)), ()):
                    late = Violation(seat, "P-escrow", f"seat {seat} accepted seat {dealer}'s wrong escrow dealing "
                                     f"of {what} (round {d.round}): it answered afterwards without a complaint, and "
                                     f"complained only in round {rnd}")
                    self.violations.append(late)
                    self.escrow_accomplices.setdefault(dealer, set()).add(seat)
                    out.append(Event(rnd, seat, f"CHEAT: {late.message} (rule P-escrow)"))
                return out
        raise CheatDetected(seat, "P-escrow", f"a false complaint: every share seat {dealer} dealt it of {what} "
                            "opens its commitments")

    def _note_acceptance(self, seat: int, rnd: int, published: object = None) -> None:
        """A holder's file without a complaint, in a round after a dealing made to it, accepts that dealing: its
        home checked the shares as the dealing arrived, and owes a complaint in its next file if one failed. A
        complaint in place of the shares at a removal (``published``, the file's ``escrow_shares``) is one too."""
        published = published if isinstance(published, dict) else None
        if published is None and self.accepted_all.get(seat) == self.dealings_made:
            return  # a file of this seat accepted every dealing there is already
        accepted = self.escrow_accepted
        every = published is None
        for (dealer, what), history in self.dealing_history.items():
            if published is not None and isinstance(published.get(str(dealer)), dict) \
                    and isinstance(published[str(dealer)].get(what), dict):
                continue
            for d in history:
                if d.round >= rnd:
                    every = False  # accepted by a file of a later round
                elif seat in d.holders:
                    got = accepted.get(key := (dealer, d.label or what))  # (``d.tag(what)``)
                    if got is None:
                        accepted[key] = {seat}
                    else:  # (most files: a set made for nothing, each dealing each file)
                        got.add(seat)
        if every:
            self.accepted_all[seat] = self.dealings_made

    def _record_published(self, c: dict, seat: int, duty) -> list[Event]:
        """``escrow_shares`` in a removal round: every share the holder holds of the seat removed, decrypted."""
        given = c.get("escrow_shares")
        if duty.escrow is None:
            if given is not None:
                raise IllegalMove("P-escrow", "'escrow_shares' belongs in a removal round's files only")
            return []
        s = duty.escrow
        want = sorted(w for w, d in self.dealings.get(s, {}).items() if seat in d.holders and w != KEY)
        if not isinstance(given, dict) or set(given) != {str(s)} or not isinstance(given[str(s)], dict) \
                or sorted(given[str(s)]) != want:
            raise IllegalMove("P-escrow", f"the removal of seat {s} awaits seat {seat}'s shares of {want}")
        events = []
        for what in want:
            d = self.dealings[s][what]
            index = len(self.dealing_history[(s, what)]) - 1
            text = given[str(s)][what]
            if (s, what, index, seat) in self.proved_wrong:
                continue  # its complaint proved this dealing wrong to it already: nothing of it counts (section 6c)
            if isinstance(text, dict):  # a complaint in place of the shares: the dealing to it is wrong, proved
                events += self._complaint_at_removal(seat, s, what, index, d, text)
                continue
            raw = b64d(text, f"escrow_shares {what}") if isinstance(text, str) else b""
            if len(raw) != SCALAR_BYTES * d.count:
                raise IllegalMove("P-escrow", f"escrow_shares.{s}.{what}: expected {d.count} shares of "
                                  f"{SCALAR_BYTES} bytes")
            shares = [raw[SCALAR_BYTES * j:SCALAR_BYTES * (j + 1)] for j in range(d.count)]
            try:
                esc.verify_published({seat + 1: shares}, self._commitments(s, what, d), self._names(what, d.count),
                                     f"seat {seat}'s shares of seat {s}", d.threshold)
            except CryptoError as e:
                raise CheatDetected(seat, "P-escrow", f"published a wrong escrow share at seat {s}'s removal: {e}") \
                    from None
            self.published.setdefault((s, what), {})[seat] = shares
        return [Event(self.round, seat, f"{self.cards[seat].name} published its escrow shares of seat {s}"), *events]

    def _complaint_at_removal(self, seat: int, s: int, what: str, index: int, d: Dealt, k: object) -> list[Event]:
        """``escrow_shares.S.what = {dh, proof}``: at ``S``'s removal, a holder whose shares of ``S``'s newest dealing
        of ``what`` fail its own check publishes their proved decryption instead (protocol section 6c, "Removal"):
        every home opens them and sees the dealer's wrong share. That holder's shares of it are not counted; the
        removal goes on with the others' when the threshold allows, and otherwise ends the game against ``S``."""
        if not isinstance(k, dict) or set(k) != {"dh", "proof"} or not isinstance(k["proof"], str):
            raise IllegalMove("P-escrow", f"escrow_shares.{s}.{what} must be the shares (base64) or a complaint, a "
                              "table of dh and proof")
        dh = _points(k["dh"], 1, f"escrow_shares.{s}.{what}.dh")[0]
        try:
            shares = esc.open_with_proof(d.ciphertexts[seat], self.escrow_keys[seat], dh, k["proof"],
                                         self._ctx(s, what, d, seat), d.count)
        except CryptoError as e:
            raise CheatDetected(seat, "P-escrow", f"a false complaint about seat {s}'s dealing of {what} at its "
                                f"removal: {e}") from None
        return self._judge_complaint(seat, s, what, index, d, shares, self.round)

    def _record_escrow_secret(self, c: dict, seat: int, strict: bool, seed_now: bool) -> None:
        """``escrow_secret``: an older client's creator published its escrow key with its seed. It is checked and
        never used (a published escrow key would open every share its seat holds); no file needs it any more."""
        if "escrow_secret" not in c:
            return
        if not (self.escrow_material and seat == self.creator and seed_now):
            raise IllegalMove("P-escrow", "'escrow_secret' goes only with the creator's seed")
        e = b64d(c["escrow_secret"], "escrow_secret") if isinstance(c["escrow_secret"], str) else b""
        if len(e) != SCALAR_BYTES or base_mul(e) != self.escrow_keys[seat]:
            raise CheatDetected(seat, "P-escrow", "the escrow key published is not the one the genesis committed to")

    # -- composing -------------------------------------------------------------------------------
    def _escrow_fields(self, seat: int, content: dict, duty) -> None:
        """Add this seat's escrow fields to its next file: key, dealings, a complaint, shares at a removal."""
        if not self.escrow_material:
            return
        seed = self.own[seat]
        self._check_unanswered(seat)
        if seat not in self.entropy and seat != self.creator:
            content["escrow_key"] = sra.encode_points([base_mul(self._own_escrow_secret(seat))])
        holders, t = self.escrow_holders(seat)
        locks = [d for d in duty.steps if self.book.decks[d].next_step().op in ("shuffle_lock", "lock")]
        secrets = self._secrets_of(seed)
        if t and locks and seat in self.escrow_open:
            content["escrow"] = {what: deal_table(self.gid, self.round, seat, what,
                                                  list(secrets(what, self.book.decks[what].n).keys), holders, t,
                                                  self.escrow_keys, seed) for what in locks}
        redeal = self.redeal_due(seat)
        if redeal:  # the same keys, dealt again among the seats now in play (C_0 is still the recorded K_s[j])
            content["escrow_reshare"] = {what: deal_table(self.gid, self.round, seat, self._redeal_label(seat, what),
                                                          list(secrets(what, self.book.decks[what].n).keys), holders,
                                                          t, self.escrow_keys, seed) for what in redeal}
        newest = {(duty.escrow, what, len(self.dealing_history[(duty.escrow, what)]) - 1)
                  for what in self.dealings.get(duty.escrow, {})} if duty.escrow is not None else set()
        due = [x for x in self.complaints_due.get(seat, []) if x not in newest]  # those go with the shares, below
        if due:
            dealer, what, index = due[0]
            d = self.dealing_history[(dealer, what)][index]
            ctx = self._ctx(dealer, what, d, seat)
            dh, proof = esc.prove_decryption(d.ciphertexts[seat], self._own_escrow_secret(seat), ctx, d.count)
            content["escrow_complaint"] = {"dealer": dealer, "what": what, "dh": sra.encode_points([dh]),
                                           "proof": proof}
        if duty.escrow is not None:
            s, e = duty.escrow, self._own_escrow_secret(seat)
            out = {}
            for what, d in sorted(self.dealings.get(s, {}).items()):
                if seat in d.holders and what != KEY:
                    ctx = self._ctx(s, what, d, seat)
                    if (s, what, len(self.dealing_history[(s, what)]) - 1) in self.complaints_due.get(seat, []):
                        # its check failed on arrival: the proved decryption in place of the shares (section 6c)
                        dh, proof = esc.prove_decryption(d.ciphertexts[seat], e, ctx, d.count)
                        out[what] = {"dh": sra.encode_points([dh]), "proof": proof}
                        continue
                    out[what] = b64e(b"".join(esc.decrypt_shares(d.ciphertexts[seat], e, ctx, d.count)))
            content["escrow_shares"] = {str(s): out}

    # -- removal ---------------------------------------------------------------------------------
    def _in_play(self) -> set[int]:
        return set(range(self.n)) - self.state.retired() - self.removed

    def in_play(self) -> set[int]:
        """The seats still in the game: neither retired by the rules nor removed through escrow."""
        return self._in_play()

    def _end_without(self, seat: int) -> tuple[int, ...]:
        """The game ends as ``seat`` forfeits or resigns: a removal under way is dropped (its seat does not win
        either); the winners, the other seats still in play."""
        gone = {self.removing} if self.removing is not None else set()
        self.removing = None
        return tuple(sorted(self.in_play() - gone - {seat} - self.escrow_accomplices.get(seat, set())))

    def blocked_removal(self, seat: int) -> str:
        """Why a claim against ``seat`` forfeits instead of removing it, when a holder's late complaint proved its
        dealing wrong: both are named, and neither wins (protocol section 6c)."""
        late = sorted(self.escrow_accomplices.get(seat, ()))
        if not late:
            return ""
        return (f"; it could not be removed: it dealt a wrong escrow share, which "
                f"{', '.join(self.cards[h].name for h in late)} accepted and complained about only later (both "
                "cheated; neither wins)")

    def removable(self, seat: int) -> bool:
        """A final timeout claim against ``seat``, or its resignation, removes it instead of ending the game
        (protocol §6c)."""
        if not self.escrow_on or self.over() or self.removing is not None or seat in self.escrow_broken:
            return False
        in_play = self._in_play()
        if seat not in in_play or len(in_play) < 3:
            return False
        for deck in self.book.decks.values():
            if seat in deck.commits and len(deck.keys.get(seat, {})) < deck.n and deck.id not in \
                    self.dealings.get(seat, {}):
                return False  # keys never escrowed
        for what, d in self.dealings.get(seat, {}).items():
            if what != KEY and len(set(d.holders) & in_play) < d.threshold:
                return False  # the shares of seats that left are lost with them (section 6c, "Who learns what")
        return True

    def _publishers(self, seat: int) -> list[int]:
        """The seats a removal round awaits: every other seat in play holding shares of ``seat``."""
        in_play = self._in_play() - {seat}
        return sorted({h for w, d in self.dealings.get(seat, {}).items() for h in d.holders if h in in_play
                       and w != KEY})

    def _start_removal(self, seat: int, why: str) -> str:
        """Open the removal of ``seat`` (a final timeout claim against it, or its resignation, said by ``why``)
        in the round after the open one, which the caller closes."""
        self.removing = seat
        self.removal_round = self.round + 1
        self.removal_why = why
        if not self._publishers(seat):
            self._finish_removal()
            return f"{why}: {self.cards[seat].name} leaves the game and the others play on"
        return f"{why}: the others publish their escrow shares of {self.cards[seat].name}, who then leaves the game"

    def _finish_removal(self) -> None:
        """Reconstruct the removed seat's keys from the published (and otherwise known) shares, record them as its
        key shares, and let the rules remove it. A failure forfeits the game as a timeout does without escrow."""
        s = self.removing
        self.removing = None
        rnd = self.round
        try:
            for what, d in sorted(self.dealings.get(s, {}).items()):
                if what == KEY:
                    continue  # an older client's dealing of its escrow key: never opened
                comms = self._commitments(s, what, d)
                names = self._names(what, d.count)
                have: dict[int, list[bytes]] = {h + 1: sh for h, sh in self.published.get((s, what), {}).items()}
                keys = [esc.reconstruct({x: sh[j] for x, sh in have.items()}, d.threshold, comms[j][0], names[j])
                        for j in range(d.count)]
                for j, k in enumerate(keys):
                    self.book.record_key(what, s, j, k, f"{what}#{j} reconstructed from escrow shares")
        except (CryptoError, CheatDetected) as e:
            winners = tuple(sorted(self._in_play() - {s} - self.escrow_accomplices.get(s, set())))
            why = f"it dealt a wrong escrow share, proved by a complaint: {e}" if s in self.escrow_broken else str(e)
            left = "resigned" if getattr(self, "removal_why", "").endswith(" resigns") else "ran out of time"
            self.forced_outcome = Outcome(winners, f"{self.cards[s].name} {left} and could not be removed ({why})")
            self.events.append(Event(rnd, s, f"the removal of {self.cards[s].name} failed: {e}; the game is forfeit"))
            return
        for deck in list(self.book.decks.values()):
            if s in deck.lockers and not deck.locked:  # a generation in set-up: set up again without it
                self.book.recreate(deck.id, self.removed | {s})
                self.events.append(Event(rnd, s, f"deck {deck.id} was being shuffled and locked with "
                                         f"{self.cards[s].name}: it is set up again without it"))
        try:
            self.state.remove(s)
        except SeatNotRemovable as e:  # pragma: no cover - removable() asked the same rules
            raise DuelmailError(f"game {self.gid[:12]}: the rules refused to remove seat {s}: {e}") from None
        self.removed.add(s)
        self.events.append(Event(rnd, s, f"{self.cards[s].name} left the game: its keys were reconstructed from "
                                 "the escrow shares, and the others play on"))
        self.events += self._drain(rnd, s)


def deal_table(gid: str, rnd: int, dealer: int, what: str, secrets: list[bytes], holders: tuple[int, ...],
               t: int, keys: dict[int, bytes], seed: bytes) -> dict:
    """One dealing as a file carries it: ``{commits, shares}``; coefficients and nonces follow from the seed, so
    the audit recomputes it (``deal_parts``)."""
    commits, shares = deal_parts(gid, rnd, dealer, what, secrets, holders, t, keys, seed)
    return {"commits": sra.encode_points(commits), "shares": {str(h): text for h, text in shares.items()}}


def deal_parts(gid: str, rnd: int, dealer: int, what: str, secrets: list[bytes], holders: tuple[int, ...],
               t: int, keys: dict[int, bytes], seed: bytes) -> tuple[list[bytes], dict[int, str]]:
    """``deal_table`` before encoding: every position's commitments ``C_1..C_{t-1}`` in one list, and each holder's
    ciphertext (``esc.deal_sent_each``: ``C_0``, the dealer's key commitment, is not part of a dealing)."""
    from duelmail.crypto import escrow  # (``esc``'s, once rather than at each of some 2,000 calls an audit makes)

    commits: list[bytes] = []
    per_holder: dict[int, list[bytes]] = {h: [] for h in holders}
    names = [KEY] if what == KEY else [f"{what}#{j}" for j in range(len(secrets))]  # ``what``: a re-dealing's label
    xs = [h + 1 for h in holders]
    contexts = escrow.escrow_contexts
    for sent, dealt in escrow.deal_sent_each(secrets, t, xs, contexts(gid, rnd, dealer, names), seed):
        commits += sent
        for h in holders:
            per_holder[h].append(dealt[h + 1])
    shares = {h: escrow.encrypt_shares(per_holder[h], keys[h], context, seed)
              for h, context in zip(holders, contexts(gid, rnd, dealer, [f"{what}/to-{h}" for h in holders]),
                                     strict=True)}
    return commits, shares


assert POINT_BYTES == SCALAR_BYTES  # the encodings below rely on 32-byte points and scalars
