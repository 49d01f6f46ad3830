"""The engine's book of mental-poker decks: which pass comes next, from whom, and every key.

Each locked deck goes through a list of steps. At set-up, for lockers in shuffle order
``o0 .. ok``: ``shuffle`` by o0 .. o(k-1), ``shuffle_lock`` by ok, then ``lock`` by o(k-1) .. o0.
A reshuffle adds ``unify`` steps first: every locker, in order, swaps its per-position keys on the
input cards for one uniform scalar. Cards whose face is public enter as fresh card points, with
key 1 (commitment G) for every locker.

Every step carries a zero-knowledge proof (``crypto/proofs.py``) checked on arrival against this
book's own record of each locker's layer commitment, bound to the game, round, seat, deck and
step index: a forged pass is refused before anything is applied.

Each locker's layer on the deck is tracked as either one uniform scalar or a list of
per-position keys, so every step is one point multiplication per card with a combined scalar.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field

from duelmail.crypto import deck as sra
from duelmail.crypto import group
from duelmail.crypto.encoding import lp
from duelmail.errors import CheatDetected, CryptoError
from duelmail.util.classes import dataclass


def _proofs():
    """The proofs module, imported when a pass is first proved or checked (not by a command that only reads)."""
    from duelmail.crypto import proofs

    return proofs


ONE = group.scalar_from_int(1)
RESTART = 1000  # a generation set up again after a removal takes this much more as its generation number


def base_of(deck_id: str) -> str:
    return deck_id.split(".", 1)[0]


@dataclass
class Layer:
    """One locker's current layer on every position: uniform scalar or per-position keys."""

    uniform: bytes | None = ONE
    keys: list[bytes] | None = None
    _inverse: tuple[bytes, bytes] | None = field(default=None, repr=False, compare=False)

    def inverse_at(self, j: int) -> bytes:
        """The inverse of the layer's scalar at position ``j`` (libsodium's constant-time inversion: the layer
        may be a locker's secret). A uniform layer's inverse is computed once, not once per card."""
        if self.uniform is None:
            return group.sinv(self.keys[j])
        done = self._inverse
        if done is None or done[0] is not self.uniform:
            done = self._inverse = (self.uniform, group.sinv(self.uniform))
        return done[1]


@dataclass
class Step:
    op: str  # shuffle | shuffle_lock | lock | unify
    seat: int


@dataclass
class LockedDeck:
    id: str
    n: int
    lockers: tuple[int, ...]
    steps: list[Step]
    points: list[bytes]
    origin: list[tuple[str, int] | None]  # for a reshuffle: the source (deck, index) of each input
    input_faces: list[int | None] = field(default_factory=list)  # known faces of a reshuffle's inputs
    history: list[list[bytes]] = field(default_factory=list)  # points before each step, for the audit
    done: int = 0
    commits: dict[int, list[bytes]] = field(default_factory=dict)
    keys: dict[int, dict[int, bytes]] = field(default_factory=dict)
    layer_commits: dict[int, bytes] = field(default_factory=dict)  # C_s = c_s·G for a uniform layer
    published_layers: list[bytes | None] = field(default_factory=list)  # the layer commitment of each step
    generation: int = 0  # how many decks of the same base the game made before this one

    @property
    def base(self) -> str:
        return base_of(self.id)

    @property
    def locked(self) -> bool:
        return self.done == len(self.steps)

    def next_step(self) -> Step | None:
        return None if self.locked else self.steps[self.done]

    def keyed_by(self, index: int) -> set[int]:
        return {s for s, ks in self.keys.items() if index in ks}


def setup_steps(order: Sequence[int], reshuffle: bool = False) -> list[Step]:
    """The steps for lockers in shuffle ``order`` (last one shuffles and locks at once)."""
    steps = [Step("unify", s) for s in order] if reshuffle else []
    steps += [Step("shuffle", s) for s in order[:-1]]
    steps.append(Step("shuffle_lock", order[-1]))
    steps += [Step("lock", s) for s in reversed(order[:-1])]
    return steps


def shuffle_order(lockers: Sequence[int], creator: int, nseats: int) -> list[int]:
    """Lockers starting with the seat after the creator; the creator (who cannot act in the
    genesis, since the card points depend on the game id) shuffles last."""
    return sorted(lockers, key=lambda s: (s - creator - 1) % nseats)


SecretsOf = Callable[[str, int], sra.LockerSecrets]
"""(deck id, deck size) -> one locker's derived secrets for that deck."""


@dataclass(frozen=True)
class DeferredProof:
    """One pass's proof with everything its check needs, as it stood when the pass was applied."""

    deck_id: str
    seat: int
    op: str
    rnd: int
    context: bytes
    before: list[bytes]
    after: list[bytes]
    commits: list[bytes] | None
    layer: bytes | None
    base: bytes  # the locker's layer commitment before this pass
    old_key_commits: list[bytes] | None
    proof: str

    def item(self) -> tuple[str, tuple]:
        """``(kind, args)`` for ``proofs.verify_batch``: the arguments of ``verify_<kind>``."""
        x, y, c = self.before, self.after, self.base
        if self.op == "shuffle":
            return "shuffle", (x, y, self.layer, self.proof, self.context, c)
        if self.op in ("shuffle_lock", "lock"):
            return self.op, (x, y, self.commits, c, self.proof, self.context)
        return "unify", (x, y, self.old_key_commits, self.layer, self.proof, self.context)

    def check(self) -> None:
        """Raise ``CheatDetected`` (``P-proof``) unless the proof holds."""
        kind, args = self.item()
        ok = getattr(_proofs(), f"verify_{kind}")(*args)
        if not ok:
            raise CheatDetected(self.seat, "P-proof", f"deck {self.deck_id}: the proof of the {self.op} pass does "
                                "not hold (a forged pass: a card swapped, dropped, duplicated or keyed off its "
                                "commitment)")


def all_valid(lists: Sequence[Sequence[bytes]]) -> bool:
    """Every point of every list is a point of the prime-order group (what ``decode_points`` checks on arrival)."""
    valid = group.valid_point
    return all(valid(p) for points in lists for p in points)


def check_deferred(pending: Sequence[DeferredProof]) -> None:
    """Check queued proofs (a replay's) as one batch (``proofs.verify_batch``: the points that passes share,
    such as one pass's output deck that is the next one's input, are multiplied once). If the batch fails,
    every proof is checked alone, in order, so the first failing pass is named as on arrival."""
    if not pending:
        return
    try:
        if _proofs().verify_batch([p.item() for p in pending]):
            return
    except CryptoError:
        pass  # a malformed proof or point: the check of its own pass below names it
    for p in pending:
        p.check()


class DeckBook:
    """Every locked deck of one game: published points, commitments and key shares."""

    def __init__(self, game_id: str, creator: int, nseats: int):
        self.game_id = game_id
        self.creator = creator
        self.nseats = nseats
        self.decks: dict[str, LockedDeck] = {}
        self._tables: dict[str, dict[bytes, int]] = {}
        self.nfaces: dict[str, int] = {}
        self.deferred: list[DeferredProof] | None = None  # a list: proofs are queued, not checked (replay)
        self.unvalidated: list[list[bytes]] | None = None  # a list: passes' points are validated later (replay)

    # -- creation ---------------------------------------------------------------
    def table(self, base: str) -> dict[bytes, int]:
        if base not in self._tables:
            self._tables[base] = sra.card_table(self.game_id, base, self.nfaces[base])
        return self._tables[base]

    def unlocked(self, point: bytes, keys: list[bytes]) -> bytes:
        """``sra.unlock(point, keys)``, remembered: a pure function of its inputs, so the same card opened again with
        the same keys (every ``known`` and ``seen`` of a seat's hand) costs no point multiplication. The memo is
        shared by this book's clones (``Match.clone``: a shallow copy) and never kept on disk (``kept.stripped``)."""
        memo = self.__dict__.setdefault("_opened", {})
        key = (point, *keys)
        got = memo.get(key)
        if got is None:
            got = memo[key] = sra.unlock(point, keys)
        return got

    def add_fresh(self, deck_id: str, nfaces: int, lockers: Sequence[int]) -> LockedDeck:
        self.nfaces[deck_id] = nfaces
        points = [sra.card_point(self.game_id, deck_id, f) for f in range(nfaces)]
        order = shuffle_order(lockers, self.creator, self.nseats)
        deck = LockedDeck(deck_id, nfaces, tuple(order), setup_steps(order), points, [None] * nfaces)
        self.decks[deck_id] = deck
        return deck

    def add_reshuffle(self, deck_id: str, sources: Sequence[tuple[str, int]],
                      public: dict[tuple[str, int], int], rnd: int | None = None,
                      removed: set[int] | frozenset[int] = frozenset()) -> LockedDeck:
        """A new pile from existing cards; ``public`` maps sources whose face is known to it.

        A known card enters as its fresh card point; a locked one with its current point (and
        every locker's per-position key on it, which the unify steps remove). An id the game already
        used is refused: its secrets would be the old generation's. A ``removed`` seat (protocol section 6c) locks
        no new generation: its layer is stripped from each locked card with its key, reconstructed and recorded."""
        if deck_id in self.decks:
            raise CryptoError(f"reshuffle{f' in round {rnd}' if rnd is not None else ''}: deck id {deck_id!r} is "
                              "already in use; every generation needs a new id")
        src_decks = {d for d, _ in sources}
        lockers = {tuple(s for s in self.decks[d].lockers if s not in removed) for d in src_decks}
        bases = {self.decks[d].base for d in src_decks}
        if len(lockers) != 1 or bases != {base_of(deck_id)}:
            raise CryptoError(f"reshuffle {deck_id}: cards come from decks of another base or lockers")
        order = list(next(iter(lockers)))
        points, origin, known = [], [], []
        for src in sources:
            if src in public:
                points.append(sra.card_point(self.game_id, base_of(deck_id), public[src]))
                origin.append(None)
                known.append(public[src])
            else:
                point, deck = self.decks[src[0]].points[src[1]], self.decks[src[0]]
                for r in deck.lockers:
                    if r in removed:
                        point = group.point_mul(group.sinv(deck.keys[r][src[1]]), point)
                points.append(point)
                origin.append(src)
                known.append(None)
        deck = LockedDeck(deck_id, len(sources), tuple(order), setup_steps(order, reshuffle=True),
                          points, origin, known,
                          generation=sum(d.base == base_of(deck_id) for d in self.decks.values()))
        self.decks[deck_id] = deck
        return deck

    def recreate(self, deck_id: str, removed: set[int] | frozenset[int]) -> LockedDeck:
        """Abandon a generation still being set up, one of whose lockers was removed (protocol section 6c), and set
        it up again from the same inputs without the removed seats: a fresh deck from its card points, a reshuffle
        from its sources with each removed seat's layer stripped with its (reconstructed) key. The new set-up
        takes a new generation number, so no locker reuses a secret of the abandoned one on other inputs."""
        old = self.decks[deck_id]
        if old.locked:
            raise CryptoError(f"deck {deck_id} is locked already: nothing to set up again")
        lockers = tuple(s for s in old.lockers if s not in removed)
        points = []
        for j, src in enumerate(old.origin):
            if src is None:
                face = old.input_faces[j] if old.input_faces else j
                points.append(sra.card_point(self.game_id, old.base, face))
                continue
            point, deck = self.decks[src[0]].points[src[1]], self.decks[src[0]]
            for r in deck.lockers:
                if r in removed:
                    point = group.point_mul(group.sinv(deck.keys[r][src[1]]), point)
            points.append(point)
        again = LockedDeck(deck_id, old.n, lockers, setup_steps(lockers, reshuffle=any(o is not None for o in
                                                                                         old.origin)),
                           points, list(old.origin), list(old.input_faces), generation=old.generation + RESTART)
        self.decks[deck_id] = again
        return again

    def layer_for(self, deck_id: str, seat: int, secrets_of: SecretsOf) -> Layer:
        """The layer ``seat`` has on a deck now, rebuilt from its own secrets and steps."""
        deck = self.decks[deck_id]
        if any(o is not None for o in deck.origin):
            keys = [ONE if o is None else secrets_of(o[0], self.decks[o[0]].n).keys[o[1]] for o in deck.origin]
            layer = Layer(uniform=None, keys=keys)
        else:
            layer = Layer()
        mine = secrets_of(deck_id, deck.n)
        for step in deck.steps[:deck.done]:
            if step.seat == seat:
                layer = next_layer(step.op, layer, mine)
        return layer

    # -- applying published steps ---------------------------------------------------
    def step_context(self, deck_id: str, rnd: int, seat: int) -> bytes:
        """What every proof of the next step is bound to: game, round, seat, deck and step index."""
        return lp(b"duelmail/pass/v1", self.game_id, rnd, seat, deck_id, self.decks[deck_id].done)

    def layer_commit(self, deck_id: str, seat: int) -> bytes:
        return self.decks[deck_id].layer_commits.get(seat, _proofs().G)

    def old_key_commits(self, deck_id: str, seat: int) -> list[bytes]:
        """For a unify: this locker's commitment to its key on every input card (G for a face-up card)."""
        deck = self.decks[deck_id]
        return [_proofs().G if o is None else self.decks[o[0]].commits[seat][o[1]] for o in deck.origin]

    def apply_step(self, deck_id: str, seat: int, op: str, points: list[bytes], commits: list[bytes] | None,
                   layer: bytes | None = None, proof: str | None = None, rnd: int = 0, check: bool = True) -> None:
        """Apply a published step; with ``check``, its proof must hold (else a provable cheat)."""
        deck = self.decks[deck_id]
        step = deck.next_step()
        if step is None or step.seat != seat or step.op != op:
            want = f"{step.op} by seat {step.seat}" if step else "nothing (deck is locked)"
            raise CryptoError(f"deck {deck_id}: got {op} by seat {seat}, expected {want}")
        if len(points) != deck.n:
            raise CryptoError(f"deck {deck_id}: {op} has {len(points)} cards, expected {deck.n}")
        if op in ("shuffle_lock", "lock"):
            if commits is None or len(commits) != deck.n:
                raise CryptoError(f"deck {deck_id}: {op} must publish {deck.n} key commitments")
        elif commits is not None:
            raise CryptoError(f"deck {deck_id}: {op} publishes no key commitments")
        if (layer is None) != (op not in ("shuffle", "unify")):
            raise CryptoError(f"deck {deck_id}: {op} {'must' if op in ('shuffle', 'unify') else 'does not'} "
                              "publish a layer commitment")
        if check:
            if not isinstance(proof, str):
                raise CryptoError(f"deck {deck_id}: the {op} pass carries no proof")
            pending = DeferredProof(deck_id, seat, op, rnd, self.step_context(deck_id, rnd, seat), deck.points,
                                    points, commits, layer, self.layer_commit(deck_id, seat),
                                    self.old_key_commits(deck_id, seat) if op == "unify" else None, proof)
            if self.deferred is None:
                pending.check()
            else:
                self.deferred.append(pending)
        if commits is not None:
            deck.commits[seat] = commits
        if layer is not None:
            deck.layer_commits[seat] = layer
        deck.published_layers.append(layer)
        deck.history.append(deck.points)
        deck.points = points
        deck.done += 1

    def record_key(self, deck_id: str, seat: int, index: int, key: bytes, where: str) -> bool:
        """Check a key share against its commitment and keep it. False if it was already known."""
        deck = self.decks.get(deck_id)
        if deck is None:
            raise CryptoError(f"{where}: no deck {deck_id!r}")
        if seat not in deck.lockers:
            raise CryptoError(f"{where}: seat {seat} holds no lock on deck {deck_id}")
        if seat not in deck.commits:
            raise CryptoError(f"{where}: seat {seat} has not locked deck {deck_id} yet")
        if not 0 <= index < deck.n:
            raise CryptoError(f"{where}: deck {deck_id} has no position {index}")
        known = deck.keys.setdefault(seat, {})
        if index in known:
            if known[index] != key:
                raise CheatDetected(seat, "P-keys", f"{where}: a second, different key for {deck_id}#{index}")
            return False
        if not sra.check_share(key, deck.commits[seat][index]):
            raise CheatDetected(seat, "P-keys", f"{where}: key for {deck_id}#{index} does not match the "
                                "commitment its locker published with the lock")
        known[index] = key
        return True

    def open_face(self, deck_id: str, index: int, extra: dict[int, bytes] | None = None) -> int | None:
        """The face at a position if every locker's key is known (published or in ``extra``)."""
        deck = self.decks[deck_id]
        keys = []
        for s in deck.lockers:
            k = deck.keys.get(s, {}).get(index) or (extra or {}).get(s)
            if k is None:
                return None
            keys.append(k)
        face = self.table(deck.base).get(self.unlocked(deck.points[index], keys))
        if face is None:
            raise CheatDetected(-1, "P-card", f"{deck_id}#{index} decrypts to a point that is no card: "
                                "a shuffle or lock pass was forged (the audit names the seat)")
        return face

    # -- a locker's own work ----------------------------------------------------------
    def compose_step(self, deck_id: str, seat: int, secrets_of: SecretsOf, rnd: int,
                     prove: bool = True) -> dict[str, str]:
        """This seat's next step, computed from its derived secrets, with its proof: the file's table.

        ``prove=False`` leaves the proof out (a draft that is never sent: proving is most of a pass's cost)."""
        deck = self.decks[deck_id]
        step = deck.next_step()
        assert step is not None and step.seat == seat
        layer = self.layer_for(deck_id, seat, secrets_of)
        mine = secrets_of(deck_id, deck.n)
        x, c_pub, ctx = deck.points, self.layer_commit(deck_id, seat), self.step_context(deck_id, rnd, seat)
        out: dict[str, str] = {"op": step.op}
        c_log = layer.uniform  # log_G of c_pub for a uniform layer: lets the prover use base multiplications
        if step.op == "shuffle":
            y, _ = run_step("shuffle", x, layer, mine)
            big_s = group.point_mul(mine.shuffle_scalar, c_pub)
            out["layer"] = sra.encode_points([big_s])
            if prove:
                out["proof"] = _proofs().prove_shuffle(x, y, mine.perm, mine.shuffle_scalar, ctx, base=c_pub,
                                                       layer=c_log)
        elif step.op == "unify":
            y, _ = run_step("unify", x, layer, mine)
            u = mine.unify_scalar
            factors = [group.smul(u, layer.inverse_at(j)) for j in range(deck.n)]
            big_u = group.base_mul(u)
            out["layer"] = sra.encode_points([big_u])
            if prove:
                out["proof"] = _proofs().prove_unify(x, y, self.old_key_commits(deck_id, seat), big_u, factors, ctx,
                                                     layer=u)
        else:
            y, commits = run_step(step.op, x, layer, mine)
            if step.op == "shuffle_lock":
                factors = [group.smul(mine.keys[i], layer.inverse_at(mine.perm[i])) for i in range(deck.n)]
                if prove:
                    out["proof"] = _proofs().prove_shuffle_lock(x, y, commits, c_pub, mine.perm, factors, ctx,
                                                                layer=c_log)
            else:
                factors = [group.smul(mine.keys[j], layer.inverse_at(j)) for j in range(deck.n)]
                if prove:
                    out["proof"] = _proofs().prove_lock(x, y, commits, c_pub, factors, ctx, layer=c_log)
            out["commits"] = sra.encode_points(commits)
        out["points"] = sra.encode_points(y)
        return out

    def derive_step(self, deck_id: str, seat: int, secrets_of: SecretsOf, rnd: int) -> str:
        """Apply the next step of a locker whose secrets everyone knows (a retired seat's published seed): the
        derivation of ``compose_step``, recorded as if published, without a proof since every receiver
        recomputes it. Returns the step's op."""
        deck = self.decks[deck_id]
        step = deck.next_step()
        assert step is not None and step.seat == seat
        mine = secrets_of(deck_id, deck.n)
        points, commits = run_step(step.op, deck.points, self.layer_for(deck_id, seat, secrets_of), mine)
        layer = None
        if step.op == "shuffle":
            layer = group.point_mul(mine.shuffle_scalar, self.layer_commit(deck_id, seat))
        elif step.op == "unify":
            layer = group.base_mul(mine.unify_scalar)
        self.apply_step(deck_id, seat, step.op, points, commits, layer, rnd=rnd, check=False)
        return step.op


def run_step(op: str, points: list[bytes], layer: Layer, secrets: sra.LockerSecrets, commit: bool = True
             ) -> tuple[list[bytes], list[bytes] | None]:
    """One locker's step: (new points, key commitments or None; None too with ``commit=False``, for a caller that
    checks the commitments its own way: the audit)."""
    n = len(points)
    if op == "unify":
        u = secrets.unify_scalar
        return [group.point_mul(_over(u, layer.inverse_at(j)), points[j]) for j in range(n)], None
    if op == "shuffle":
        perm, v = secrets.perm, secrets.shuffle_scalar
        if layer.uniform is not None:
            return sra.shuffle_pass(points, perm, v), None
        return [group.point_mul(_over(v, layer.inverse_at(perm[i])), points[perm[i]])
                for i in range(n)], None
    if op == "shuffle_lock":
        perm, keys = secrets.perm, secrets.keys
        out = [group.point_mul(_over(keys[i], layer.inverse_at(perm[i])), points[perm[i]])
               for i in range(n)]
        return out, sra.key_commitments(keys) if commit else None
    if op == "lock":
        keys = secrets.keys
        out = [group.point_mul(_over(keys[j], layer.inverse_at(j)), points[j]) for j in range(n)]
        return out, sra.key_commitments(keys) if commit else None
    raise CryptoError(f"unknown deck step {op!r}")


def _over(k: bytes, inverse: bytes) -> bytes:
    """``k`` times a layer's inverse: ``k`` itself when the layer is one (a deck's first lock: no multiplication)."""
    return group.check_scalar(k, "scalar a") if inverse == ONE else group.smul(k, inverse)


def next_layer(op: str, layer: Layer, secrets: sra.LockerSecrets) -> Layer:
    if op == "unify":
        return Layer(uniform=secrets.unify_scalar)
    if op == "shuffle":
        if layer.uniform is None:
            return Layer(uniform=secrets.shuffle_scalar)
        return Layer(uniform=group.smul(layer.uniform, secrets.shuffle_scalar))
    return Layer(uniform=None, keys=list(secrets.keys))
