"""What a seat, or a reader, sees of the game: faces, events in words (``Event``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from duelmail.engine.log import Event
from duelmail.engine.memo import open_memo
from duelmail.games.base import Known, for_player, in_words
from duelmail.games.cards import Card, CardRef
from duelmail.protocol.identity import Identity

_SEAT = re.compile(r"\b[Ss]eat (\d+)\b")


def with_faces(text: str, known: Mapping[CardRef, Card], name: Callable[[CardRef, Card], str] = lambda r, c: str(c)
               ) -> str:
    """Write the face a seat can see after each ref: ``a#17`` becomes ``a#17 (9S)`` (``name``: the game's word for a
    card, ``GameState.card_name``)."""

    def add(m: re.Match) -> str:
        ref = CardRef.parse(m.group(0))
        face = known.get(ref)
        return f"{m.group(0)} ({name(ref, face)})" if face else m.group(0)

    return re.sub(r"[a-z]+[0-9]*(?:\.[0-9]+)?#[0-9]+(?![0-9=])", add, text)  # REF=face says its face already


def _in_order(told: list[Event]) -> list[Event]:
    """Events as a player reads them: "game over" last (what the rules told as the game ended, a card shown, comes
    before it), and a line said again at once (an action and the outcome that says the same) once."""
    over = [e for e in told if e.said is not None and e.said.kind == "over"]
    if over and told[-1] is not over[-1]:
        told = [e for e in told if e not in over] + over
    return [e for i, e in enumerate(told) if i == 0 or (e.text, e.round) != (told[i - 1].text, told[i - 1].round)]


class Views:
    """``Match``'s room: what a seat, or a reader, sees of the game: faces, events in words (``Event``)."""

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
                if ref not in out and ref not in self.ahead_pending \
                        and all(j in deck.keys.get(s, {}) for s in others):
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

    def sealed_choices(self, seat: int) -> dict[str, str]:
        """This seat's own sealed choices (label -> action text), recovered from its memos in the log."""
        opened = self.__dict__.get("_opened_memos")
        if opened is None:  # shared by clones: a memo opens alike in every one of them
            opened = self._opened_memos = {}
        out: dict[str, str] = {}
        for rnd, box, labels in self.memos.get(seat, []):
            key = (seat, rnd, box, self.own[seat])
            if key not in opened:
                opened[key] = open_memo(self.game, self.own[seat], self.gid, rnd, seat, box, labels)
            out.update(opened[key])
        return out

    def words(self, event: Event, known: Mapping[CardRef, Card] | None = None, plain: bool = True) -> str:
        """``event`` for a reader who knows the faces ``known`` (default: the public's, now; a seat's are
        ``seen(seat)``): every card whose face the reader knows is said by its face, any other in words ("a
        face-down card", ``for_player``), never by its position; ``plain=False`` keeps positions and rule ids (the
        protocol's view: ``history --protocol``)."""
        text = in_words(event.text, self.known(None) if known is None else known, namer=self.state.card_words)
        return for_player(text) if plain else text

    def told_to(self, events: Iterable[Event], known: Mapping[CardRef, Card] | None = None,
                plain: bool = True) -> list[Event]:
        """``events`` as a reader who knows ``known`` (default: the public) reads them (see ``words``)."""
        known = self.known(None) if known is None else known
        told = [Event(e.round, e.seat, self.words(e, known, plain), e.said) for e in events]
        if not plain:
            return told
        return _in_order(told)

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
        if "eat " not in text:  # no "seat N" nor "Seat N": nothing to name (most events)
            return text
        return _SEAT.sub(self._seat_name, text)

    def _seat_name(self, m: re.Match) -> str:
        """``_SEAT``'s match as the seat's name (one call a match, no function made for each text)."""
        seat = int(m[1])
        return self.cards[seat].name if 0 <= seat < self.n else f"seat {seat}"
