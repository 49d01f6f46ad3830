"""Composing a seat's next file, its actions and every decision-free part (protocol section 8)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Self

from duelmail.crypto import deck as sra
from duelmail.crypto.commit import commit, commit_salt
from duelmail.crypto.encoding import b64e
from duelmail.engine import toss
from duelmail.engine.fold import seal_entropy
from duelmail.engine.log import JOIN, SEALED
from duelmail.engine.memo import make_memo
from duelmail.engine.talk import DRAW, check_say
from duelmail.errors import DuelmailError, FileRefused, IllegalMove
from duelmail.games.cards import CardRef
from duelmail.protocol.identity import Identity
from duelmail.protocol.turnfile import SignedFile


class Composing:
    """``Match``'s room: composing a seat's next file, its actions and every decision-free part (protocol section 8)."""

    def compose(self, seat: int, identity: Identity, actions: Iterable[str], now: datetime,
                extra: dict | None = None, honest: bool = True) -> SignedFile:
        """This seat's file for the open round: its actions plus every decision-free part.

        ``extra`` adds fields of the sender's own (a ``vacation`` announcement). An action whose claim about the
        seat's own cards its view already proves false is refused (``IllegalMove`` in a ``FileRefused``);
        ``honest=False`` is for the cheat harness alone (``duelmail/testing/adversary.py``)."""
        return self._compose(seat, identity, actions, now, extra, honest=honest)[0]

    def _compose(self, seat: int, identity: Identity, actions: Iterable[str], now: datetime,
                 extra: dict | None = None, prove: bool = True, honest: bool = True) -> tuple[SignedFile, Self]:
        """The file, and a twin of this match with it applied (leniently: the file may be partial).

        ``prove=False``: deck passes carry no proof (a draft, never sent)."""
        if seat not in self.duties:
            raise DuelmailError(f"seat {seat} ({self.cards[seat].name}) is not awaited in round {self.round}")
        if seat not in self.own:
            self.attach(seat, identity)
        duty = self.duties[seat]
        actions = list(actions)
        if not duty.needs_human and not actions and not extra and self.tc.delivery is None:
            # a decision-free answer is dated by what it answers, the opening of its round, so it is the same file
            # wherever and whenever it is composed: a restored home, or a second machine, sends it again unchanged
            # (a duplicate, never an equivocation: protocol section 5). Not in a game with a delivery allowance
            # (section 6b), where a file must reach the others within it of the time it carries
            now = self.opened_at
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
        if duty.needs_human and self.banked() and (dates := self.claim_dates()):
            content["dates"] = dates  # the copies its bank counts from (protocol section 6b)
        if seat not in self.entropy:
            content["entropy"] = seal_entropy(self.masters[seat], self.gid, seat, self.fresh[seat])
        if self.toss_commit is not None and duty.join:
            content["toss"] = b64e(toss.call(self.own[seat]))
        if duty.toss:
            content["toss_open"] = toss.opening(self.masters[seat], self.nonce)
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
        self._escrow_fields(seat, content, duty)
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
                    and seat not in self.seeds and duty.escrow is None:  # (a removal that fails as its round closes
                # ends the game then: the seeds are owed in the next round, section 6c)
                # the game is over (open everything for the audit), or the rules retired this seat: from now on
                # every receiver derives its shares and passes from the seed
                content["seed"] = b64e(self.own[seat])
                continue
            to_open = [lb for lb in trial.state.openings().get(seat, ()) if (seat, lb) not in trial.opened]
            if to_open:
                add_opens(to_open)
                continue
            owed = trial.owed(seat) | {r for r in trial.unchecked if str(r) not in keys}
            if duty.escrow is not None:  # a removal round's last file removes the seat as the round closes: what
                owed = set()  # that shows (its hand) is owed in the next round, not before the rules show it
            if not owed:  # then the shares it may send ahead of a draw the rules make certain (section 6)
                owed = {r for r in trial.ahead_owed(seat) if str(r) not in keys}
            if not owed:
                return f, trial
            for ref in owed:
                keys[str(ref)] = sra.encode_scalars([trial.own_key(seat, ref)])
        raise DuelmailError("key shares never settle (a bug)")

    def compose_claim(self, seat: int, identity: Identity, against: int, now: datetime,
                      rnd: int | None = None, copy: dict[str, str] | None = None) -> SignedFile:
        """This seat's timeout claim against ``against`` for round ``rnd`` (default: the open one). With a delivery
        allowance it names the copies its clock counts from (protocol section 6b): ``dates``, of each decision-free
        answer of the round before, and ``answer``, of the claimed seat's own file for the round if this home holds
        one (a file that came later than the allowance after its time), or ``copy`` (``{time, signature}``): another
        copy of it that came late, named by a claim against this seat."""
        rnd = self.round if rnd is None else rnd
        content: dict = {"duelmail": 1, "kind": "claim", "game": self.game_ref, "round": rnd, "prev": self.prevs[rnd],
                         "seat": seat, "time": now.isoformat(timespec="seconds"), "against": against}
        dates = self.claim_dates(rnd)
        if dates:
            content["dates"] = dates
        held = (self.rounds[rnd] if rnd < self.round else self.current).get(against)
        if self.tc.delivery is not None and held is not None:
            content["answer"] = dict(copy) if copy else {"time": held.content["time"],
                                                          "signature": b64e(held.signature)}
        return SignedFile.sign(content, identity)

    def compose_note(self, seat: int, identity: Identity, now: datetime, say: str | None = None,
                     resign: bool = False, draw: str | None = None, here: bool = False) -> SignedFile:
        """This seat's next note (protocol §5a), refused before signing if it would change nothing. ``here``: the
        seat's answer to a timeout claim's last call (section 6b), its clock started again."""
        content: dict = {"duelmail": 1, "kind": "note", "game": self.game_ref, "round": self.round,
                         "prev": self.prev, "seat": seat, "time": now.isoformat(timespec="seconds"),
                         "n": 1 + max((n for s, n in self.notes if s == seat), default=0)}
        if say is not None:
            content["say"] = check_say(say)
        what = "resign" if resign else f"{draw} a draw" if draw else ""
        if what and self.over():
            raise IllegalMove("P-over", f"cannot {what} in game {self.gid[:12]}: it is over "
                              f"({self.describe_outcome()})")
        if what and (seat not in self.in_play() or seat == self.removing):
            raise IllegalMove("P-over", f"cannot {what} in game {self.gid[:12]}: {self.cards[seat].name} has left it")
        if here:
            if not self.owes_here(seat):
                raise IllegalMove("P-note", f"no timeout claim against {self.cards[seat].name} waits for an answer "
                                  "in this round (or it was answered already)")
            content["here"] = True
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
              now: datetime | None = None, honest: bool = True) -> Self:
        """The match as it will stand once this seat's decision-free parts (and ``actions``) are applied."""
        return self._compose(seat, identity, actions, now or max(self.opened_at, self.last_time), prove=False,
                             honest=honest)[1]
