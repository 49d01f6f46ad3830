"""The end-of-game audit: with every seat's per-game seed published, recompute every deck pass,
every key and layer commitment and every card, then let the rules check every claim ever made.

A pass the audit recomputes exactly makes its proof's statement true, so a replay of an audited
game may leave the proofs unchecked (``transport.archive.fold(defer_proofs=True)``).

Everything is recomputed from the published seeds alone: the fresh randomness each seed mixes in
(sealed to its seat in the seat's first file) stays sealed, and the memos of sealed choices are
opened with the seeds' memo keys and unpadded block by block (protocol §3, §6a)."""

from __future__ import annotations

from collections import Counter
from dataclasses import field

from duelmail.crypto import group, proofs
from duelmail.engine.decks import ONE, Layer, next_layer, run_step
from duelmail.engine.memo import open_memo
from duelmail.games.cards import CardRef
from duelmail.util.classes import dataclass


@dataclass
class AuditReport:
    ok: bool = True
    lines: list[str] = field(default_factory=list)
    cheats: list[tuple[int, str, str]] = field(default_factory=list)  # (seat, rule, message)
    faces: dict[CardRef, int] = field(default_factory=dict)

    def cheat(self, seat: int, rule: str, message: str) -> None:
        self.ok = False
        self.cheats.append((seat, rule, message))
        self.lines.append(f"CHEAT by seat {seat} [{rule}]: {message}")


def audit_match(match) -> AuditReport:
    """Recompute the game of ``match`` (a ``Match`` that is over, every seed published; ``match.py`` calls this
    when the last seed arrives, so this module never imports it) and check every claim."""
    report = AuditReport()
    book = match.book
    secrets = {s: match._secrets_of(seed) for s, seed in match.seeds.items()}
    passes = 0
    removed = getattr(match, "removed", set())
    taken = 0  # passes of removed seats: taken as their proofs showed them on arrival (protocol section 6c)
    for deck in book.decks.values():
        layers: dict[int, Layer] = {}
        for s in deck.lockers:
            if s in removed:
                continue
            if any(o is not None for o in deck.origin):
                layers[s] = Layer(uniform=None, keys=[
                    ONE if o is None else secrets[s](o[0], book.decks[o[0]].n).keys[o[1]] for o in deck.origin])
            else:
                layers[s] = Layer()
        bad_seat = None
        layer_commits = {s: proofs.G for s in deck.lockers}
        for k, step in enumerate(deck.steps[:deck.done]):
            before = deck.history[k]
            after = deck.history[k + 1] if k + 1 < len(deck.history) else deck.points
            if step.seat in removed:
                taken += 1
                continue
            mine = secrets[step.seat](deck.id, deck.n)
            out, _ = run_step(step.op, before, layers[step.seat], mine, commit=False)
            passes += 1
            if out != after:
                report.cheat(step.seat, "P-audit-pass", f"deck {deck.id}: the {step.op} pass does not follow "
                             "from the published seed (forged pass, or a false seed)")
                bad_seat = step.seat
                break
            if step.op in ("lock", "shuffle_lock") and not _commitments_follow(
                    mine.keys, deck.keys.get(step.seat, {}), deck.commits.get(step.seat)):
                report.cheat(step.seat, "P-audit-pass", f"deck {deck.id}: key commitments do not follow from "
                             "the published seed")
                bad_seat = step.seat
                break
            if step.op in ("shuffle", "unify"):
                scalar = mine.shuffle_scalar if step.op == "shuffle" else mine.unify_scalar
                want = group.point_mul(scalar, layer_commits[step.seat]) if step.op == "shuffle" \
                    else group.base_mul(scalar)
                if k < len(deck.published_layers) and deck.published_layers[k] != want:
                    report.cheat(step.seat, "P-audit-pass", f"deck {deck.id}: the layer commitment of the "
                                 f"{step.op} pass does not follow from the published seed")
                    bad_seat = step.seat
                    break
                layer_commits[step.seat] = want
            layers[step.seat] = next_layer(step.op, layers[step.seat], mine)
        if bad_seat is not None or not deck.locked:
            continue
        table = book.table(deck.base)
        faces = []
        for j in range(deck.n):
            keys = [deck.keys[s][j] if s in removed else secrets[s](deck.id, deck.n).keys[j] for s in deck.lockers]
            face = table.get(book.unlocked(deck.points[j], keys))  # (a card the game opened: remembered)
            if face is None:
                report.cheat(-1, "P-audit-card", f"{deck.id}#{j} is no card")
            faces.append(face)
            report.faces[CardRef(deck.id, j)] = face
        if deck.id not in book.nfaces:
            want = Counter(_input_face(match, report, deck, j) for j in range(deck.n))
        else:
            want = Counter(range(deck.n))
        if Counter(faces) != want:
            dup = [f for f, c in Counter(faces).items() if c > 1]
            report.cheat(-1, "P-audit-deck", f"deck {deck.id} is not a permutation of its cards "
                         f"(duplicated faces {dup}); see the pass that failed above")
    report.lines.insert(0, f"recomputed {passes} deck passes from {len(match.seeds)} published seeds" + (
        f"; {taken} passes of removed seats {sorted(removed)} taken as proved on arrival, their cards opened with "
        "their reconstructed keys" if removed else ""))
    if getattr(match, "dealings", None):
        _audit_dealings(match, report)
    choices = _open_every_sealed_choice(match, report)
    if report.ok:
        cards = {ref: match.card_of(ref, f) for ref, f in report.faces.items()}
        for v in match.state.audit(cards):
            report.cheat(v.seat, v.rule, v.message)
        report.lines.append(f"checked every claim on {len(cards)} cards against the rules")
        for v in match.state.audit_sealed(choices):
            report.cheat(v.seat, v.rule, v.message)
        if match.commitments:
            report.lines.append(f"opened and checked {len(choices)} sealed choices against their commitments")
    for v in match.violations:
        if (v.seat, v.rule, v.message) not in report.cheats:
            report.cheat(v.seat, v.rule, v.message)
    return report


def _commitments_follow(keys: list[bytes], recorded: dict[int, bytes], published: list[bytes] | None) -> bool:
    """``key_commitments(keys) == published``: the key commitments a lock published are those of the keys its
    seed gives. A key equal to the key share the fold recorded for its position needs no multiplication: the fold
    checked that share against that very commitment as it arrived (``DeckBook.record_key``)."""
    if published is None or len(published) != len(keys):
        return False
    return all(recorded.get(j) == k or group.base_mul(k) == published[j] for j, k in enumerate(keys))


def _input_face(match, report: AuditReport, deck, j: int) -> int | None:
    origin = deck.origin[j]
    if origin is None:
        return deck.input_faces[j]
    return report.faces.get(CardRef(*origin))


def _open_every_sealed_choice(match, report: AuditReport) -> dict:
    """Open every seat's memos with its published seed; each must match its commitment and opening."""
    from duelmail.crypto.commit import commit, commit_salt
    from duelmail.errors import DuelmailError

    found: dict[tuple[int, str], str] = {}
    removed = getattr(match, "removed", set())
    for seat, memos in match.memos.items():
        if seat in removed:
            continue  # a removed seat's sealed choices are void: no seed opens them (protocol section 6c)
        seed = match.seeds[seat]
        for rnd, box, labels in memos:
            try:
                found.update({(seat, lb): t for lb, t in
                              open_memo(match.game, seed, match.gid, rnd, seat, box, labels).items()})
            except DuelmailError:
                report.cheat(seat, "P-audit-memo", f"the memo of round {rnd} does not open with the published seed")
    choices = {}
    for (seat, label), (made, h) in match.commitments.items():
        if seat in removed:
            continue
        text = found.get((seat, label))
        if text is None or commit(label, match.gid, made, seat, commit_salt(match.seeds[seat], label, made),
                                  text.encode()) != h:
            report.cheat(seat, "P-audit-memo", f"sealed choice {label!r} (round {made}) has no memo that matches "
                         "its commitment")
            continue
        if (seat, label) in match.opened and match.opened[(seat, label)] != text:
            report.cheat(seat, "P-audit-memo", f"sealed choice {label!r} was opened as "
                         f"{match.opened[(seat, label)]!r} but committed as {text!r}")
        choices[(seat, label)] = match.game.parse_action(text)
    return choices


def _audit_dealings(match, report: AuditReport) -> None:
    """Recompute every escrow dealing from its dealer's published seed (coefficients and nonces follow from it)
    and compare it with the log: a dealing that does not is ``P-audit-pass`` against its dealer (protocol §6c)."""
    from duelmail.crypto.deck import LockerSecrets
    from duelmail.engine.escrowing import KEY, deal_parts

    count = 0
    for (dealer, what), history in sorted(match.dealing_history.items()):
        seed = match.seeds.get(dealer)
        if seed is None:
            continue  # a removed seat: its dealings were checked by their holders and at its removal
        if what == KEY:
            continue  # an older client's dealing of its escrow key: never opened, and its key is never published
        deck = match.book.decks[what]
        for d in history:  # the first dealing and every re-dealing (protocol section 6c, "Threshold")
            secrets = list((match._secrets_of(seed)(what, deck.n) if d.generation == deck.generation else
                            LockerSecrets(seed, what, deck.n, d.generation)).keys)  # a set-up abandoned at a removal
            commits, shares = deal_parts(match.gid, d.round, dealer, d.tag(what), secrets, d.holders, d.threshold,
                                         match.escrow_keys, seed)
            got = [c for cs in d.commits for c in cs]
            if commits != got or shares != d.ciphertexts:
                report.cheat(dealer, "P-audit-pass", f"the escrow dealing of {d.tag(what)} (round {d.round}) does "
                             "not follow from the published seed")
            count += 1
    report.lines.append(f"recomputed {count} escrow dealings from the published seeds")
