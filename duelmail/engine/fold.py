"""Checking one file and applying it: the fold of a log, round by round (protocol section 7)."""

from __future__ import annotations

import bisect
import re
from datetime import datetime, timedelta

from duelmail.crypto import deck as sra
from duelmail.crypto.commit import check_opening
from duelmail.crypto.derive import FRESH_BYTES, entropy_key, game_seed, hkdf
from duelmail.crypto.encoding import b64d, b64e, lp
from duelmail.crypto.seal import box_size, open_sealed, seal
from duelmail.engine import toss
from duelmail.engine.clock import FUTURE_TOLERANCE, check_vacation, time_used
from duelmail.engine.duties import Duty
from duelmail.engine.log import JOIN, SEALED, Duplicate, Event, answer_hash, date_free, parse_time, round_hash
from duelmail.engine.memo import memo_sizes
from duelmail.engine.talk import DRAW, DRAW_ANSWERS, Talk, check_say
from duelmail.engine.views import with_faces
from duelmail.errors import (
    OWN_FILES,
    CheatDetected,
    CryptoError,
    DuelmailError,
    FileRefused,
    IllegalMove,
    NotationError,
)
from duelmail.games.base import PUBLIC, Committed, GameEvent, Known, Outcome, Sealed, Violation
from duelmail.games.cards import CardRef
from duelmail.protocol.turnfile import FormatError, SignedFile, check_fields


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


def _shown_to_other(who: int | None, seat: int) -> bool:
    return who is not None and (who == PUBLIC or who != seat)


class Folding:
    """``Match``'s room: checking one file and applying it: the fold of a log, round by round (protocol section 7)."""

    def _record_toss(self, c: dict, seat: int, duty: Duty, strict: bool) -> None:
        """The coin toss (protocol section 10): each accepting seat's value, then the creator's opening."""
        if self.toss_commit is None:
            if "toss" in c or "toss_open" in c:
                raise IllegalMove("P-toss", f"{self.game.spec.id} draws no lots: the file has a toss field")
            return
        if ("toss" in c) != duty.join:
            raise IllegalMove("P-toss", f"seat {seat}'s acceptance carries its toss value ('toss'), and only that "
                              "file")
        if duty.join:
            self.toss_values[seat] = toss.read_value(c["toss"], "toss")
        if "toss_open" in c and not duty.toss:
            raise IllegalMove("P-toss", f"seat {seat} opens the coin toss, which "
                              + ("is open already" if self.starter is not None else
                                 "only the creator opens, in its first file after the acceptances"))
        if not duty.toss:
            return
        if "toss_open" not in c:
            if strict:
                raise IllegalMove("P-toss", "the creator's first file after the acceptances opens the coin toss "
                                  "('toss_open')")
            return
        value, matches = toss.read_opening(c["toss_open"], self.nonce, self.toss_commit)
        if not matches:
            raise CheatDetected(seat, "P-toss", "the coin toss opened does not match the genesis commitment "
                                f"{self.toss_commit[:16]}...")
        self.starter = toss.starter({**self.toss_values, seat: value}, self.n)
        self.toss_values[seat] = value
        self.state.apply_toss(self.starter)

    # -- settling: chance and reveals -------------------------------------------------------
    def _settle(self) -> None:
        for _ in range(100_000):
            self._retired_work()
            shuffle = self.state.chance()
            if shuffle is not None:
                if self.pending_shuffle is None:
                    sources = [(r.deck, r.index) for r in shuffle.refs]
                    public = {(r.deck, r.index): self.faces[r] for r in shuffle.refs if r in self.faces}
                    self.book.add_reshuffle(shuffle.new_deck, sources, public, self.round, self.removed)
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
            vis = self.state.visibility()
            kept = self._unrevealed
            if kept is not None and kept[0] is vis and kept[1] == len(public):  # the state did not change since
                candidates = kept[2]
            elif kept is not None and kept[0] is vis and kept[3] is public and len(public) > kept[1]:
                # only faces turned up since (the state keeps its visibility while nothing else changes, and its
                # public faces only grow): the same refs, less those now public, in the same order
                candidates = [r for r in kept[2] if r not in public]
                self._unrevealed = (vis, len(public), candidates, public)
            else:  # a fixed order, so every fold reveals alike
                candidates = [r for r in set(vis).difference(public) if vis[r] == PUBLIC]  # (the set's work in C)
                candidates.sort()
                self._unrevealed = (vis, len(public), candidates, public)
            for ref in candidates:
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

    def _drawn_ahead(self) -> None:
        """Forget the shares sent ahead whose draw has come (the rules now show the card to its drawer)."""
        if self.ahead_pending:
            vis = self.state.visibility()
            self.ahead_pending = {r: d for r, d in self.ahead_pending.items() if vis.get(r) != d}

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
    def apply(self, f: SignedFile, where: str, strict: bool = True, now: datetime | None = None,
              answered_at: datetime | None = None, answer: SignedFile | None = None) -> list[Event]:
        """Check ``f`` completely and apply it. Raises ``FileRefused``/``Duplicate``; see the class note.

        ``now`` is the receiver's clock: a file signed further in the future than clocks drift is refused.
        ``answer``, for a timeout claim: the claimed seat's move for the round, when the fold holds a copy of it (it
        folds after the claim): with a delivery allowance, a claim that names a copy of it stands once that copy is
        older than the allowance (protocol section 6b). ``answered_at`` is not read any more (kept for callers).
        ``strict=False`` is for a sender's trial of its own file, which may be partial: what this process
        computed itself (signature, points, proofs) is not checked again, nor are missing duties."""
        c = f.content
        try:
            if not f.__dict__.get("_fields"):  # (a parsed file's were checked by the parser, on this very content)
                check_fields(c, where)
        except FormatError as e:  # a file built by a caller, not parsed: what the parser refuses, refused here too
            raise FileRefused(where, str(e).removeprefix(f"{where}: "), rule="P-format") from None
        seat = c["seat"] if f.kind != "genesis" else c["creator"]
        rnd = f.round

        def refuse(msg: str, rule: str, illegal: IllegalMove | None = None) -> FileRefused:
            return FileRefused(where, msg, round=rnd, seat=seat, rule=rule, illegal=illegal)

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
            return self._apply_claim(f, where, seat, refuse, now, answer)
        if f.kind == "note":
            return self._apply_note(f, where, seat, refuse, now)
        if rnd < self.round and rnd in self.timed_out and self.timed_out[rnd][0] == seat:
            against, by, due, when = self.timed_out[rnd]
            t = parse_time(c["time"], where)
            if self.tc.last_call is not None:
                raise refuse(f"{self.cards[by].name} claimed {self.cards[seat].name}'s timeout for round {rnd}, and "
                             f"this home's last call for it ({self.tc.last_call_hours} hours from the claim's coming) "
                             f"closed before this file came: the claim stands here", "P-final")
            if rnd in self.final_claims and t <= due and self.tc.delivery is not None:  # the claim found it late
                raise refuse(f"signed at {t.isoformat()}, by {self.cards[seat].name}'s deadline {due.isoformat()}, "
                             f"but {self.cards[by].name} claimed the timeout at {when.isoformat()}, more than "
                             f"{self.tc.delivery_hours} hours after the time the file carries: a file must reach the "
                             "others within that of its signed time, and this one had not", "P-final")
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
            if old is not None and self.same_answer(old, f):
                raise Duplicate(self._second_copy(old, f, where))
            if old is not None:
                raise refuse(f"EQUIVOCATION: seat {seat} ({self.cards[seat].name}) signed two different files "
                             f"for round {rnd}; both signatures verify, which proves it", "P-equivocation")
            raise refuse(f"round {rnd} is closed and seat {seat} had no part in it (an old or replayed "
                         "file)", "P-round")
        if seat in self.removed or seat == self.removing:
            raise refuse(f"seat {seat} ({self.cards[seat].name}) ran out of time and "
                         + ("left the game" if seat in self.removed else "is being removed") + ": its escrowed "
                         "keys stand in for it, and no file of it counts any more", "P-escrow")
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
            if self.same_answer(self.current[seat], f):
                raise Duplicate(self._second_copy(self.current[seat], f, where))
            raise refuse(f"EQUIVOCATION: seat {seat} ({self.cards[seat].name}) signed two different files "
                         f"for round {rnd}; both signatures verify, which proves it", "P-equivocation")
        duty = self.duties.get(seat)
        if duty is None:
            waiting = ", ".join(f"seat {s}" for s in sorted(self.duties)) or "nobody"
            raise refuse(f"seat {seat} is not awaited in round {rnd} (awaited: {waiting})", "P-turn")
        t = self._check_time(c["time"], where, refuse, now)
        opening = None
        if duty.needs_human and self.banked() and any(date_free(g) for g in self.rounds[-1].values()):
            # a decision's time comes out of its bank counted from the copies it names (protocol section 6b)
            dates = self._named_dates(c, refuse, "a decision")
            opening = self._opening(self.rounds[-1], self.claims_by_round.get(self.round - 1, {}),
                                    self.notes_by_round.get(self.round - 1, {}), dates)
        due = self.deadline(seat, opening)
        try:
            events = self._apply_body(f, seat, duty, strict)
        except (CryptoError, IllegalMove, NotationError) as e:
            rule = getattr(e, "rule", None) or ("P-crypto" if isinstance(e, CryptoError) else "notation")
            raise refuse(self.named(str(e)) if where in OWN_FILES else str(e), rule,  # players by name
                         e if isinstance(e, IllegalMove) else None) from None
        except CheatDetected as e:
            raise refuse(f"CHEAT: {e}", e.rule) from None
        self.last_time = max(self.last_time, t) if self.last_time else t
        if duty.needs_human:  # the move's clock: time past days_per_move comes out of the bank
            used = time_used(self.clock_start(seat, opening), t, self.vacations[seat])
            self.bank[seat] += timedelta(hours=self.tc.extra_hours_per_move) - max(used - self.tc.per_move,
                                                                                    timedelta(0))
        if due is not None and t > due:
            events.append(Event(rnd, seat, f"{self.cards[seat].name} moved after the deadline ({due.isoformat()}); "
                                "no timeout had been claimed"))
            self.events.append(events[-1])
        self.current[seat] = f
        if self.calls:
            events += self._answer_calls(seat, f"{self.cards[seat].name}'s file for round {rnd} came")
        if set(self.current) >= set(self.duties):
            events += self._close_round()
        return events

    def _clock_starts(self) -> dict[int, datetime]:
        """Each seat's clock start in the round that opens (protocol section 6b): the delivery allowance after the
        latest signed time among the other seats' files that closed the round (turns, claims, closing notes). Its
        own files do not count: a seat has its own file at once."""
        return self._opening(self.current, self.current_claims, self.current_notes)[1]

    def _opening(self, files: dict, claims: dict, notes: dict, dates: dict[int, datetime] | None = None
                 ) -> tuple[datetime, dict[int, datetime]]:
        """The opening of the round that the files, claims and notes of a round close, and each seat's clock start
        in it if later (protocol section 6b). With a delivery allowance the opening is the latest time among those
        turns and claims and the floor (``floor_at``: every earlier time but those of decision-free answers), and a
        decision-free answer counts by the time ``dates`` gives its seat, if any, else by the copy held."""
        def when(f: SignedFile) -> datetime:
            if dates and f.kind == "turn" and f.seat in dates:
                return dates[f.seat]
            return parse_time(f.content["time"], "log")

        times = [when(f) for f in [*files.values(), *claims.values()]]
        if self.tc.delivery is None:
            return max([self.opened_at, *times]), {}
        opened = max([self.floor_at, *times])
        later = [(f.seat, when(f) + self.tc.delivery) for f in [*files.values(), *claims.values(), *notes.values()]]
        return opened, {s: start for s in range(self.n)
                        if (start := max((t for by, t in later if by != s), default=opened)) > opened}

    def same_answer(self, held: SignedFile, f: SignedFile) -> bool:
        """Whether ``f`` is another copy of ``held``, a decision-free answer: the same answer hash, another date (in a
        game with a delivery allowance; protocol section 5). ``f``'s signature is checked by the caller."""
        return self.tc.delivery is not None and held.file_hash != f.file_hash and date_free(held) \
            and answer_hash(held) == answer_hash(f)

    def second_copy(self, f: SignedFile, where: str) -> str | None:
        """If ``f`` is another copy, signed by its seat, of a decision-free answer this match holds: what a player
        reads of it (nothing changes); else None (protocol section 5)."""
        if f.kind != "turn" or self.tc.delivery is None or not isinstance(f.content.get("round"), int) \
                or not isinstance(f.content.get("seat"), int) or not 0 <= f.seat < self.n:
            return None
        held = self.rounds[f.round].get(f.seat) if 0 < f.round < self.round else \
            self.current.get(f.seat) if f.round == self.round else None
        if held is None or not self.same_answer(held, f) or not f.verify(self.cards[f.seat]):
            return None
        return self._second_copy(held, f, where)

    def _second_copy(self, held: SignedFile, f: SignedFile, where: str) -> str:
        theirs = parse_time(f.content["time"], where)
        head = f"{where}: a second copy of {self.cards[f.seat].name}'s answer for round {f.round}, dated"
        if getattr(held, "content", None) is None:  # a round a kept state remembers by its hashes (``KeptFile``)
            return f"{head} otherwise ({theirs.isoformat()}) than the one this home holds: the same answer, nothing " \
                "changes"
        ours = parse_time(held.content["time"], where)
        dated = "later" if theirs > ours else "earlier" if theirs < ours else "alike"
        return (f"{head} {dated} ({theirs.isoformat()}; this home holds the one of {ours.isoformat()}): the same "
                "answer, nothing changes")

    def claim_dates(self, rnd: int | None = None) -> dict[str, dict[str, str]]:
        """A timeout claim's ``dates`` for round ``rnd`` (default: the open one): the time and signature of the copy
        this home holds of each decision-free answer of the round before, whose times its clock counts from
        (protocol section 6b). Empty without a delivery allowance."""
        rnd = self.round if rnd is None else rnd
        if self.tc.delivery is None or rnd < 2:
            return {}
        return {str(s): {"time": g.content["time"], "signature": b64e(g.signature)}
                for s, g in sorted(self.rounds[rnd - 1].items()) if date_free(g)}

    def banked(self) -> bool:
        """Whether a seat's bank can ever count (a reserve or an increment): then a decision names the copies of the
        last round's decision-free answers its clock counts from, as a claim does (protocol section 6b)."""
        return self.tc.delivery is not None and bool(self.tc.bank_days or self.tc.extra_hours_per_move)

    def _named_dates(self, c: dict, refuse, who: str = "the claim") -> dict[int, datetime]:
        """The times a claim (or, with a bank, a decision) counts the last closed round's decision-free answers from:
        one copy of each, named by time and signature (``dates``), each verifying under its seat's key (protocol
        section 6b)."""
        named = c.get("dates", {})
        want = {s: g for s, g in self.rounds[-1].items() if date_free(g)}
        if not isinstance(named, dict) or set(named) != {str(s) for s in want}:
            raise refuse(f"'dates' must name the copy {who} counts from of each decision-free answer of round "
                         f"{self.round - 1} (seats {', '.join(map(str, sorted(want))) or 'none'}), and only those",
                         "P-dates")
        out = {}
        own = parse_time(c["time"], "file")
        for s, g in sorted(want.items()):
            out[s] = self._named_copy(g, named[str(s)], f"its copy of {self.cards[s].name}'s answer", refuse,
                                      self.last_floor)
            if out[s] > own + FUTURE_TOLERANCE:  # a copy the file could not have seen (issue 37 item 5: the bank)
                raise refuse(f"{who} names a copy of {self.cards[s].name}'s answer dated {out[s].isoformat()}, after "
                             f"its own time {own.isoformat()}: no file counts from a copy signed after it",
                             "P-dates")
        return out

    def _named_copy(self, g: SignedFile, named, what: str, refuse, floor: datetime) -> datetime:
        """The time of the copy of ``g`` that a claim names (``{time, signature}``), checked: ``g``'s content with
        that time, signed by ``g``'s seat, and dated no earlier than any file of its round may be (``floor``)."""
        if not isinstance(named, dict) or not isinstance(named.get("time"), str) \
                or not isinstance(named.get("signature"), str):
            raise refuse(f"{what} must be a table {{time, signature}}", "P-dates")
        t = parse_time(named["time"], "claim")
        if t < floor - FUTURE_TOLERANCE:
            raise refuse(f"{what} is dated {t.isoformat()}, before its round opened ({floor.isoformat()})", "P-time")
        try:
            copy = SignedFile({**g.content, "time": named["time"]}, b64d(named["signature"], "signature"))
        except CryptoError:
            copy = None
        if copy is None or not copy.verify(self.cards[g.seat]):
            raise refuse(f"{what} dated {named['time']} does not verify with {self.cards[g.seat].name}'s key",
                         "P-signature")
        return t

    def _seen(self) -> dict[str, str] | None:
        """What a file of the open round says it saw: the hashes of the last closed round's files (with a delivery
        allowance, their answer hashes), so that a seat that sent different files for one round to different seats
        is found (protocol §5)."""
        if self.round < 2 or self.n < 3 or self.claims_by_round.get(self.round - 1) \
                or self.notes_by_round.get(self.round - 1):
            return None
        key = answer_hash if self.tc.delivery is not None else (lambda g: g.file_hash)
        return {str(s): key(g) for s, g in sorted(self.rounds[-1].items())}

    def _diverged(self, f: SignedFile, seat: int, where: str) -> None:
        """A file whose 'prev' differs from ours, whose 'seen' table names another file than ours for a seat X of the
        last closed round: either X signed two files for the round and sent them to different seats, or the file's
        signer lied in its 'seen'. One file signed by X proves neither (protocol §5: an accusation needs two files
        signed by the accused), so the file is refused naming its signer (``P-chain``), nothing is recorded against
        X, and this home's copy of X's file is sent on (``forward``): a seat that holds another file of X then has
        both, the proof; a liar gets back a file it had."""
        seen, ours, last = f.content.get("seen"), self._seen(), self.round - 1
        if not isinstance(seen, dict) or ours is None or set(seen) != set(ours):
            return
        disputed = [int(s) for s in sorted(ours, key=int) if seen[s] != ours[s]]
        if not disputed:
            return
        x = disputed[0]
        mine = self.rounds[-1][x]
        name, other = self.cards[seat].name, self.cards[x].name
        e = FileRefused(where, f"{name} (seat {seat}) signed in its 'seen' that {other}'s file for round {last} was "
                          f"{str(seen[str(x)])[:16]}..., and this home holds {other}'s file {mine.file_hash[:16]}...: "
                          f"either {other} signed two files for round {last} or {name}'s 'seen' is false, and one "
                          f"file signed by {other} proves neither; this home's copy of {other}'s file is sent on "
                          f"(if {other} signed another, the two prove it)", round=f.round, seat=seat, rule="P-chain")
        e.forward = mine  # this home's file of X, sent on as a copy, not as a proof (protocol §5)
        raise e

    def _check_time(self, text: str, where: str, refuse, now: datetime | None) -> datetime:
        t = parse_time(text, where)
        # with a delivery allowance, the times of decision-free answers do not count here: homes may hold copies of
        # one answer with different dates (protocol section 5), and dating a file early gains nothing (section 6b)
        floor = self.opened_at if self.tc.delivery is None else self.floor_at
        if t < floor - FUTURE_TOLERANCE:
            raise refuse(f"signed at {t.isoformat()}, before round {self.round} opened ({floor.isoformat()})",
                         "P-time")
        if now is not None and t > now + FUTURE_TOLERANCE:
            raise refuse(f"signed at {t.isoformat()}, in the future (it is {now.isoformat()} here)", "P-time")
        return t

    def _apply_claim(self, f: SignedFile, where: str, seat: int, refuse, now: datetime | None,
                     answer: SignedFile | None = None) -> list[Event]:
        """A timeout claim: ``seat`` says seat ``against`` let its deadline pass in the open round. With a delivery
        allowance it is judged by the copies it names (``dates``, ``answer``), never by those this home holds, so
        every home that holds it judges it alike (protocol section 6b)."""
        c = f.content
        if c["game"] != self.game_ref:
            raise refuse(f"a claim in game {c['game'][:12]}, not in this game {self.gid[:12]}", "P-game")
        if not 0 <= seat < self.n or not f.verify(self.cards[seat]):
            raise refuse("claim signature does not verify with the claimant's key", "P-signature")
        if f.round != self.round or c["prev"] != self.prev:
            raise refuse(f"a claim must name the open round ({self.round}) and its 'prev'", "P-round")
        if f.file_hash in self.calls:
            raise Duplicate(f"{where}: this claim is already in the log (its last call is open)")
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
        if self.tc.last_call is not None:  # a last call: the claim ends nothing by itself (protocol section 6b)
            if t <= due:
                raise refuse(f"too early: {self.cards[against].name}'s deadline is {due.isoformat()}, the claim was "
                             f"signed at {t.isoformat()}", "P-timeout")
            return self._call(f, where, seat, against, due, t)
        if self.tc.delivery is not None:  # a file signed by the deadline may be in the mail for the delivery allowance
            dates = self._named_dates(c, refuse)
            opening = self._opening(self.rounds[-1], self.claims_by_round.get(self.round - 1, {}),
                                    self.notes_by_round.get(self.round - 1, {}), dates) if dates else None
            answered_at = None
            if "answer" in c and answer is not None:  # (a home that holds no copy judges it from the deadline)
                answered_at = self._named_copy(answer, c["answer"], f"its copy of {self.cards[against].name}'s file "
                                               f"for round {self.round}", refuse, self.floor_at)
            due = self.deadline(against, opening)
            stands = self.claim_from(against, answered_at, opening)
            if t <= stands:
                raise refuse(f"too early: {self.cards[against].name}'s deadline is {due.isoformat()} and a file may "
                             f"take {self.tc.delivery_hours} hours to arrive: a claim stands from "
                             f"{stands.isoformat()}, this one was signed at {t.isoformat()}", "P-timeout")
            if answer is not None:  # the claimed seat's move had not reached the claimant: it is set aside
                self.final_claims[self.round] = where
        elif t <= due:
            raise refuse(f"too early: {self.cards[against].name}'s deadline is {due.isoformat()}, the claim was "
                         f"signed at {t.isoformat()}", "P-timeout")
        return self._settle_claim(f, where, seat, against, due, t)

    def _call(self, f: SignedFile, where: str, seat: int, against: int, due: datetime, t: datetime) -> list[Event]:
        """A valid timeout claim under the last call (protocol section 6b): it settles the timeout at once only if
        this home's last call for it closed with no answer (``stood``); otherwise it waits, and the claimed seat's
        file for the round, or its first note that it is here, meets it."""
        if f.file_hash in (self.built_on if self.stood is None else self.stood):
            return self._settle_claim(f, where, seat, against, due, t)
        self.calls[f.file_hash] = (where, f)
        name, them = self.cards[seat].name, self.cards[against].name
        event = Event(self.round, seat, f"{name} claims {them}'s timeout (the deadline was {due.isoformat()}): a "
                      f"last call. {them} keeps the seat if {them}'s move for this round, or a word that {them} is "
                      f"here, comes within {self.tc.last_call_hours} hours")
        self.events.append(event)
        return [event]

    def stand(self, claim_hash: str) -> list[Event]:
        """This home's last call for a pending claim closed with no answer: the claim stands (protocol section 6b).
        The home remembers it (``stood``), so every fold of its files settles the claim the same way."""
        where, f = self.calls.pop(claim_hash)
        (self.built_on if self.stood is None else self.stood).add(claim_hash)
        against = f.content["against"]
        return self._settle_claim(f, where, f.seat, against, self.deadline(against),
                                  parse_time(f.content["time"], where))

    def _answer_calls(self, seat: int, why: str) -> list[Event]:
        """``seat`` answered the timeout claims pending against it (its file for the round came, or its note that it
        is here): none of them stands. They are set aside with the reason (``void``)."""
        out = []
        for h, (w, c) in list(self.calls.items()):
            if c.content["against"] != seat:
                continue
            del self.calls[h]
            them = self.cards[seat].name
            if getattr(self, "void", None) is not None:
                self.void[h] = (w, f"{self.cards[c.seat].name} claimed {them}'s timeout for round {c.round}, and "
                                   f"{why}: the claim does not stand")
            out.append(Event(self.round, seat, f"{them} answered {self.cards[c.seat].name}'s timeout claim ({why}): "
                             "it does not stand"))
        self.events += out
        return out

    def _settle_claim(self, f: SignedFile, where: str, seat: int, against: int, due: datetime, t: datetime
                      ) -> list[Event]:
        """A timeout claim that stands: the default answer, the seat's removal, or a forfeit; it closes the round."""
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
        elif self.removable(against):  # escrow: the seat leaves and the others play on (protocol section 6c)
            text = self._start_removal(against, f"{self.cards[seat].name} claimed {self.cards[against].name}'s "
                                                "timeout")
        else:
            self.forced_outcome = Outcome(self._end_without(against), f"{self.cards[against].name} ran out of time "
                                          f"(deadline {due.isoformat()}, claimed by {self.cards[seat].name})"
                                          + self.blocked_removal(against))
            text = f"{self.cards[seat].name} claimed {self.cards[against].name}'s timeout: the game is forfeit"
        self.timed_out[self.round] = (against, seat, due, t)
        if self.tc.last_call is not None:  # a move of the claimed seat now comes after the last call: set aside
            self.final_claims[self.round] = where
            for h, (w, _c) in list(self.calls.items()):  # other claims of the round: this one settled it
                del self.calls[h]
                if getattr(self, "void", None) is not None:
                    self.void[h] = (w, "another claim settled this round first")
        self.current_claims[seat] = f
        self.last_time = max(self.last_time, t) if self.last_time else t
        event = Event(self.round, seat, text)
        self.events += [event, *told]
        return [event, *told, *self._close_round()]

    def end_by_equivocation(self, a: SignedFile, b: SignedFile) -> list[Event]:
        """Two different files that seat ``a.seat`` signed for the open round, both verifying (protocol §5): neither
        counts, the round closes without the seat's file and the game ends against it (the others still in play
        win). Every home that holds both folds the same end, whichever of the two it had applied first."""
        seat, name = a.seat, self.cards[a.seat].name
        for f in (a, b):
            if not f.verify(self.cards[seat]) or f.round != self.round or f.seat != seat or f.kind != "turn":
                raise FileRefused(f"r{f.round:04d}-s{f.seat}.toml", "not a signed file of this seat for the open "
                                  "round", round=f.round, seat=f.seat, rule="P-equivocation")
        self.equivocations[(self.round, seat)] = (a, b)
        self.forced_outcome = Outcome(self._end_without(seat), f"{name} signed two different files for round "
                                      f"{self.round} (an equivocation, proven by both signatures)")
        self.closed_by_note[self.round] = "ended"
        event = Event(self.round, seat, f"CHEAT: {name} signed two different files for round {self.round}, both "
                      "verifying: neither counts and the game ends against them (rule P-equivocation)")
        self.events.append(event)
        return [event, *self._close_round()]

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
        if n > 1 and (seat, n - 1) not in self.notes:  # a seat's notes are a chain: none can be slipped in later
            raise refuse(f"note {n} of seat {seat} ({self.cards[seat].name}) cannot be checked before its note "
                         f"{n - 1} arrives (a seat numbers its notes 1, 2, 3... without gaps)", "P-wait")
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
        here = c.get("here", False)
        if here is not False and here is not True:
            raise refuse(f"'here' must be true, not {here!r}", "P-note")
        if say is None and not resign and draw is None and not here:
            raise refuse("a note must say something, resign, offer or answer a draw, or say it is here", "P-note")
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
        ended = closes = False

        def note(text: str) -> None:
            events.append(Event(self.round, seat, text))

        answered: list[Event] = []
        if here:  # the last call (protocol section 6b): once a round, the claimed seat's word that it is here
            if self.tc.last_call is not None and rnd == self.round and (rnd, seat) not in self.here \
                    and any(g.content["against"] == seat for _, g in self.calls.values()):
                self.here[(rnd, seat)] = t
                answered = self._answer_calls(seat, f"{name}'s word that {name} is here came")
                note(f"{name} is here: {name}'s clock for round {rnd} starts again, due "
                     f"{self.deadline(seat).isoformat()}")
            else:
                note(f"{name} says {name} is here (no timeout claim waits on it: nothing changes)")
        if not resign and draw is None:
            pass  # talk only
        elif self.over():
            note(f"{name} {'resigns' if resign else 'answers a draw offer'}, but the game is already over: "
                 "nothing changes")
        elif seat not in self.in_play() or seat == self.removing:
            note(f"{name} {'resigns' if resign else 'offers or answers a draw'}, but has left the game already: "
                 "nothing changes")
        elif resign and self.removable(seat):  # escrow: it leaves, the others play on (protocol sections 5a, 6c)
            note(self._start_removal(seat, f"{name} resigns"))
            closes = True
        elif resign:
            self.forced_outcome = Outcome(self._end_without(seat), f"{name} resigned" + self.blocked_removal(seat))
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
            if self.draw_accepts >= self.in_play() - {target[0]}:  # every other seat still in the game
                self.forced_outcome = Outcome((), "agreed by every player")
                self.draw_offer = None
                ended = True
        self.notes[(seat, n)] = f
        self.events += events
        events = answered + events
        if ended or closes:
            self.closed_by_note[self.round] = "ended" if ended else "removal"
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
        first = seat not in self.entropy
        self._record_entropy(c, seat)
        self._record_escrow_key(c, seat, first)
        self._record_toss(c, seat, duty, strict)
        # deck passes
        given = c.get("deck", {})
        if not isinstance(given, dict) or set(given) != set(duty.steps):
            raise CryptoError(f"expected deck passes for {sorted(duty.steps) or 'no deck'}, "
                              f"got {sorted(given) if isinstance(given, dict) else given!r}")
        locks = [d for d in sorted(given) if isinstance(given[d], dict) and given[d].get("op") in ("shuffle_lock",
                                                                                                     "lock")]
        for deck_id in sorted(given):
            p = given[deck_id]
            deck = self.book.decks[deck_id]
            if not isinstance(p, dict) or not isinstance(p.get("points"), str):
                raise CryptoError(f"deck {deck_id}: a pass needs 'op' and 'points'")
            proven = f.file_hash in self.proven  # its points and proofs checked by this home as it arrived
            later = getattr(self.book, "unvalidated", None) if strict and not proven else None  # a replay: after
            validate = strict and later is None and not proven
            pts = sra.decode_points(p["points"], deck.n, f"deck {deck_id} points", validate=validate)
            commits = sra.decode_points(p["commits"], deck.n, f"deck {deck_id} commits",
                                        validate=validate) if "commits" in p else None
            if later is not None:
                later.append(pts)
                if commits is not None:
                    later.append(commits)
            layer = sra.decode_points(p["layer"], 1, f"deck {deck_id} layer",
                                      validate=not proven)[0] if "layer" in p else None
            self.book.apply_step(deck_id, seat, str(p.get("op")), pts, commits, layer, p.get("proof"), rnd,
                                 check=strict and not proven)
            events.append(Event(rnd, seat, f"{self.cards[seat].name}: {p.get('op')} pass on deck {deck_id}"))
        events += self._record_redealings(c, seat, rnd)  # before this file's own lock dealings, as it was composed
        events += self._record_dealings(c, seat, rnd, locks)
        events += self._record_complaint(c, seat, rnd)
        events += self._record_published(c, seat, duty)
        # key shares
        keys = c.get("keys", {})
        pre = self.state.visibility() if keys and isinstance(keys, dict) else {}  # whom each card showed to
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
            self._record_escrow_secret(c, seat, strict, True)
            if retired:  # every receiver now derives its shares and passes (checked against its commitments)
                self.retired_seeds.add(seat)
                self._settle()
                events += self._drain(rnd, seat)
                events.append(Event(rnd, seat, f"{self.cards[seat].name} is out of play and published the "
                                    "per-game seed: the others no longer wait for it to shuffle or unlock cards"))
            else:
                events.append(Event(rnd, seat, f"{self.cards[seat].name} published the per-game seed for the audit"))
        elif duty.seed and strict:
            raise IllegalMove("P-seed", "the seat is out of play: the file must publish the per-game seed"
                              if duty.retired else "the game is over: the file must publish the per-game seed")
        else:
            self._record_escrow_secret(c, seat, strict, False)
        if strict and duty.decide and not c["actions"]:
            raise IllegalMove("P-turn", f"seat {seat} is awaited for a decision and the file has no action")
        if strict and not self.over() and seat in self.state.deciders() and self.ready(seat) \
                and (duty.decide or actions):
            raise IllegalMove("P-turn", f"the file stops in the middle of seat {seat}'s turn: the rules still "
                              f"wait for: {self.state.prompt(seat)}")
        post = self.state.visibility() if refs and not self.over() else {}
        early = {r: d for r, d in self.state.draws_ahead().items() if d != seat} \
            if refs and self.ahead_on and not self.over() else {}
        for ref in refs if not self.over() else ():  # at the end every card opens anyway
            if not (_shown_to_other(pre.get(ref), seat) or _shown_to_other(post.get(ref), seat)):
                if ref in early:  # ahead of a draw the rules make certain, once this file's actions are applied
                    self.ahead_pending[ref] = early[ref]
                    continue
                raise CheatDetected(seat, "P-peek", f"published its key for {ref}, which the rules show to "
                                    "nobody else (an early peek at a locked card)" + (
                                        f"; {self.cards[seat].name}'s share may go ahead of a draw only once the "
                                        "rules make that draw certain, with no decision of its drawer before it"
                                        if self.ahead_on else ""))
        if strict:
            unopened = sorted(lb for lb in duty.opens if (seat, lb) not in self.opened)
            if unopened:
                raise IllegalMove("P-withheld", "the file does not open the sealed choices the game is waiting "
                                  "for: " + ", ".join(unopened))
            withheld = sorted(r for r in duty.shares if r.index not in self.book.decks[r.deck].keys.get(seat, {}))
            if withheld:
                raise IllegalMove("P-withheld", "the file withholds key shares the game is waiting for: "
                                  + ", ".join(map(str, withheld)))
        self._drawn_ahead()
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
                                  f"({self.named(new[0].message)}), so it would be a proven cheat: nothing was signed",
                                  seat=seat, move=text, case=new[0].claim or new[0])
        except IllegalMove as e:
            legal = [str(a) for a in pre.legal_actions(seat, known)]
            verb = text.split()[0].lower() if text.split() else ""
            alike = [a for a in legal if a.split()[0].lower() == verb] or legal
            shown = ", ".join(with_faces(a, known, pre.card_name) for a in alike[:8]) + (
                f" and {len(alike) - 8} more" if len(alike) > 8 else "")
            said = str(e).removesuffix(f" (rule {e.rule})")
            raise e.reworded(f"{said}. Legal now: {shown or 'nothing'} ('duelmail moves' lists them all)") from None

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
                                  f"{self.commitments[(seat, label)][0]}", seat=seat,
                                  case=Committed(label, self.commitments[(seat, label)][0]))
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

    def _drain(self, rnd: int, seat: int) -> list[Event]:
        """The outcomes the rules told since the last drain, as log events (seat: the event's first seat, else the
        file's author)."""
        told = self.state.take_told()
        out = [Event(rnd, g.seats[0] if g.seats else seat if seat >= 0 else self.creator, self.named(g.text), g)
               for g in told] if told else []  # (most drains: nothing told)
        if not self.told_over and self.over():  # who won, once, as the game ends (by its rules or a timeout)
            self.told_over = True
            o = self.outcome()
            g = GameEvent("over", f"game over: {o.describe()}", o.winners)
            out.append(Event(rnd, o.winners[0] if o.winners else seat if seat >= 0 else self.creator,
                             self.named(g.text), g))
        return out

    def _close_round(self) -> list[Event]:
        """Close the open round; return what the rules settled as it closed (also in ``events``)."""
        closed = self.round
        self.last_prev = self.prev
        self.prev = round_hash(self.round, self.prev, self.current, self.current_claims, self.current_notes,
                               dated=self.tc.delivery is None)
        if self.tc.delivery is not None:  # every time but a decision-free answer's: the same in every home
            self.last_floor = self.floor_at
            self.floor_at = max([self.floor_at, *(parse_time(f.content["time"], "log") for f in
                                                  [*self.current.values(), *self.current_claims.values()]
                                                  if not date_free(f))])
        self.opened_at, self.clock_starts = self._opening(self.current, self.current_claims, self.current_notes)
        self.rounds.append(self.current)
        self.claims_by_round[self.round] = self.current_claims
        self.notes_by_round[self.round] = self.current_notes
        for h, (w, _c) in self.calls.items():  # (none is left once every awaited seat answered, but a note may end it)
            if getattr(self, "void", None) is not None:
                self.void[h] = (w, f"round {closed} closed before the last call of this claim did: it does not stand")
        self.calls = {}
        self.current = {}
        self.current_claims = {}
        self.current_notes = {}
        self.round += 1
        self.prevs[self.round] = self.prev
        if self.removing is not None and closed == self.removal_round:
            self._finish_removal()
        self._snapshot_escrow()
        self._settle()
        told = self._drain(closed, -1)
        self.events += told
        self._drawn_ahead()
        if self.over() and len(set(self.seeds) | self.removed) == self.n:
            if self.auditing:
                from duelmail.engine.audit import audit_match  # here: a game in progress never loads the audit

                self.audit = audit_match(self)
            self.duties = {}
            return told
        self.duties = self._compute_duties()
        return told
