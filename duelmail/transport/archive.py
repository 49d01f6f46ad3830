"""A game on disk: a folder holding ``genesis.toml`` and one file per (round, seat).

File names are ``r0007-s1.toml``: two seats answering the same round write different names,
so concurrent git pushes never conflict. Folding the folder rebuilds the whole game; nothing
else is needed (any cache is only a cache).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from duelmail.errors import DuelmailError, FileRefused, GameNotFound

if TYPE_CHECKING:
    from duelmail.engine.match import Match
    from duelmail.protocol.turnfile import SignedFile

TURN_NAME = re.compile(r"r(\d{4,})-s(\d+)(-claim|-n\d+|-x[0-9a-f]{12})?\.toml")
_KIND_ORDER = {"turn": 2, "claim": 3}


def file_name(f: SignedFile) -> str:
    if f.kind == "genesis":
        return "genesis.toml"
    tail = {"claim": "-claim", "note": f"-n{f.content.get('n')}"}.get(f.kind, "")
    return f"r{f.round:04d}-s{f.seat}{tail}.toml"


def proof_name(f: SignedFile) -> str:
    """The name of a second file a seat signed for a round a log already holds one for: ``rNNNN-sS-xHASH12.toml``."""
    return f"r{f.round:04d}-s{f.seat}-x{f.file_hash[:12]}.toml"


def ordered(files: list[tuple[str, SignedFile]]) -> list[tuple[str, SignedFile]]:
    """The fold's order, which depends on the set of files only: by round; in a round notes that cannot end
    the game (talk, draw offers, declines), then turns (by seat), then timeout claims, then the turns of the
    seats claimed against, then resignations and draw acceptances. So talk folds before the turn that closed
    the round it was said in, a claim after the files the other awaited seats sent in its round (every home
    weighs the same round, whatever came first), the claimed seat's move after the claim that it voids or that
    voids it, and a resignation after the moves of its round (a crossing move counts). A note never goes before
    the same seat's earlier notes nor before the draw offer it answers, even one that names a later round or
    group (a seat's notes are a chain, protocol §5a); notes of one group go by signed time within that (a clock
    running late cannot reorder what caused what). ``fold_into`` holds the game-ending notes back further."""
    claimed = {(f.round, f.content.get("against")) for _, f in files if f.kind == "claim"}
    out = [(order_key(f, claimed), w, f) for w, f in files if f.kind != "note"]
    notes = [(w, f) for w, f in files if f.kind == "note"]
    place = _note_places(notes)
    groups: dict[tuple[int, int], list[tuple[str, SignedFile]]] = {}
    for w, f in notes:
        groups.setdefault(place[id(f)], []).append((w, f))
    for (rnd, group), members in groups.items():
        todo = sorted(members, key=lambda wf: (_when(wf[1]), wf[1].seat, _n(wf[1])))
        placed: set[tuple[int, int]] = set()
        here = {(f.seat, _n(f)) for _, f in todo}
        pos = 0
        while todo:
            pick = next((wf for wf in todo if _ready(wf[1], placed, here)), todo[0])  # a cycle is no honest log
            todo.remove(pick)
            placed.add((pick[1].seat, _n(pick[1])))
            out.append(((rnd, group, pos), *pick))
            pos += 1
    return [(w, f) for _, w, f in sorted(out, key=lambda x: x[0])]


def _note_places(notes: list[tuple[str, SignedFile]]) -> dict[int, tuple[int, int]]:
    """Each note's (round, group) in the fold: its own, or the latest of its seat's earlier notes' and its offer's
    (so it never folds before them). Keyed by ``id`` of the file."""
    by_key = {(f.seat, _n(f)): f for _, f in notes}
    place = {id(f): order_key(f)[:2] for _, f in notes}
    for _ in range(len(notes) + 1):  # a fixed point; a cycle (no honest log has one) stops after len(notes) passes
        moved = False
        for _, f in notes:
            before = [by_key.get((f.seat, _n(f) - 1))]
            offer = f.content.get("offer")
            if isinstance(offer, dict):
                before.append(by_key.get((offer.get("seat"), offer.get("n"))))
            best = max([place[id(f)], *(place[id(g)] for g in before if g is not None)])
            if best != place[id(f)]:
                place[id(f)], moved = best, True
        if not moved:
            break
    return place


def _when(f: SignedFile) -> float:
    try:
        t = datetime.fromisoformat(str(f.content.get("time")).replace("Z", "+00:00"))
        return t.timestamp() if t.tzinfo else float("inf")
    except ValueError:
        return float("inf")  # refused when applied


def _n(f: SignedFile) -> int:
    n = f.content.get("n")
    return n if isinstance(n, int) else 0


def _ready(f: SignedFile, placed: set, here: set) -> bool:
    earlier = {(s, n) for s, n in here if s == f.seat and n < _n(f)}
    offer = f.content.get("offer")
    if isinstance(offer, dict) and (offer.get("seat"), offer.get("n")) in here:
        earlier.add((offer.get("seat"), offer.get("n")))
    return earlier <= placed


def order_key(f: SignedFile, claimed: set[tuple[int, int]] | frozenset = frozenset()) -> tuple:
    """Round, then quiet notes, turns, claims, the turns of seats claimed against in the round (``claimed``:
    (round, seat)), notes that may end the game (``ordered`` orders notes among themselves)."""
    if f.kind == "note":
        if f.content.get("resign") or f.content.get("draw") == "accept":
            return (f.round, 5, f.seat)
        return (f.round, 3.5 if f.content.get("here") is True else 1, f.seat)  # "here" answers the round's claims
    if f.kind == "turn" and (f.round, f.seat) in claimed:
        return (f.round, 4, f.seat)
    if f.kind == "turn":  # in a round several seats answer, a file that opens sealed choices folds after those that
        # do not: the last of two sealed commitments may carry its opening, which is asked for only once both are in
        return (f.round, 2, 1 if f.content.get("opens") else 0, f.seat)
    return (f.round, _KIND_ORDER.get(f.kind, 2), f.seat)


def header_for(match: Match | None, f: SignedFile, events=(), plain: bool = False) -> list[str]:
    """The comment lines a person reads at the top of a file (not signed; for humans only). A file that lacks a
    field of its kind raises ``FormatError``, as the parser would. ``plain``: as a player reads them (the mail):
    the play alone, no card's position (the file's own header keeps the protocol's words)."""
    from duelmail.protocol.turnfile import check_fields

    check_fields(f.content, f"this {f.content.get('kind')} file")
    if f.kind == "note":
        who = f" ({match.cards[f.seat].name})" if match else ""
        return [f"duelmail: note {f.content.get('n')} in game {f.game[:12]}, round {f.round}, from seat {f.seat}{who}",
                *(f"  {e.text}" for e in events),
                *([("game over: " + match.describe_outcome())] if match is not None and match.over() else [])]
    if f.kind == "claim":
        return [f"duelmail: timeout claim in game {f.game[:12]}, round {f.round}, by seat {f.seat} against seat "
                f"{f.content['against']}"]
    if f.kind == "genesis":
        c = f.content
        seats = ", ".join(f"{i}: {s['name']} <{s['email']}>" for i, s in enumerate(c["seats"]))
        return [f"duelmail: new game of {c['game_kind']} ({f.game_id[:12]})", f"seats: {seats}",
                f"options: {c['options'] or 'none'}",
                "to accept: duelmail join THIS-FILE"]
    lines = [f"duelmail: game {f.game[:12]}, round {f.round}, seat {f.seat}"
             + (f" ({match.cards[f.seat].name})" if match else "")]
    if plain:
        events = [e for e in events if not e.technical]
    for e in match.told_to(events, plain=plain) if match is not None else events:  # faces everyone can see
        lines.append(f"  {e.text}")
    if match is not None:
        if match.finished:
            lines.append("the game is over and audited")
        elif match.over():
            lines.append("game over: " + match.describe_outcome())
        else:
            lines.append("now awaited: " + awaited_text(match))
    return lines


def duty_text(match: Match, seat: int, reader: int | None = None) -> str:
    """What ``seat`` owes in the open round, in words (never "nothing": a seat is awaited for something), each card
    as ``reader`` (default: anyone at the table) may name it, never by its position."""
    from duelmail.games.base import for_player, in_words

    d = match.duties[seat]
    prompt = match.named(match.state.prompt(seat)) if d.decide else ""
    if prompt in ("nothing", "wait"):
        prompt = ""  # the rules await no decision of it yet (its keys or openings come first)
    elif "#" in prompt:
        prompt = for_player(in_words(prompt, match.known(reader), namer=match.state.card_words))
    return d.describe(prompt) or "its file for the round"


def awaited_text(match: Match, reader: int | None = None) -> str:
    """Who the open round still awaits, and for what (a seat whose file of the round is in is no longer), as
    ``reader`` reads it: what another seat is asked is said of that seat ("alice attacks bob"), not to it."""
    from duelmail.util.lines import third_person

    waiting = [s for s in sorted(match.duties) if s not in match.current]
    if not waiting:
        return "nobody"
    out = []
    for s in waiting:
        name, what = match.cards[s].name, duty_text(match, s, reader)
        out.append(f"{name} ({what if s == reader else third_person(what, name)})")
    return "; ".join(out)


def machine_words(match: Match, s: int, seat: int | None) -> str:
    """What seat ``s``'s machine owes the open round with no decision, in the words of the player at ``seat``
    ("shuffle the cards and let you see your new card"); empty when it owes nothing of the kind."""
    from duelmail.games.base import PUBLIC

    d = match.duties[s]
    vis = match.state.visibility() if not match.over() else {}
    machine = []
    if d.steps:
        machine.append("shuffle the cards")
    if d.toss:
        machine.append("open the coin toss")
    if d.shares:
        shown = {vis.get(r) for r in d.shares}
        if seat is not None and seat in shown:
            machine.append("let you see your new card" + ("s" if len(d.shares) > 1 else ""))
        if PUBLIC in shown:
            machine.append("turn up a card for everyone")
        others = sorted(match.cards[v].name for v in shown if v not in (None, PUBLIC, seat)
                        and 0 <= v < len(match.cards))
        if others or not machine:
            machine.append(f"let {' and '.join(others) or 'a player'} see a card")
    if d.opens:
        machine.append("open a choice made in secret")
    if d.escrow is not None:
        machine.append(f"hand over the keys {match.cards[d.escrow].name} left in trust")
    if d.seed:
        machine.append("publish its keys for the final check" if match.over() else
                       "publish its keys now that it is out of the game")
    return " and ".join(machine)


def waiting_words(match: Match, seat: int | None) -> str:
    """What the game awaits now, from whom and why, in the words of the player at ``seat`` (None: a spectator), the
    one sentence every view says: "your move: prepare, then attack or end", "waiting for bob's machine to let you
    see your new card", "waiting for bob to decide". No protocol word, no card position."""
    if match.over() and not match.duties:
        return f"the game is over: {match.describe_outcome()}"
    waiting = [s for s in sorted(match.duties) if s not in match.current]
    if not waiting:
        return "nobody is awaited"
    parts = []
    for s in sorted(waiting, key=lambda s: s != seat):  # the reader's own part first
        d = match.duties[s]
        name = match.cards[s].name
        does = machine_words(match, s, seat)
        if s == seat:
            prompt = match.named(match.state.prompt(s)) if d.decide else ""
            if d.join:
                parts.append("you are to accept the game ('duelmail join')")
            elif d.decide:
                parts.append(f"your move: {prompt}" if prompt not in ("", "nothing", "wait") else "your move")
            else:
                parts.append(f"your machine is to {does or 'send its file'}: 'duelmail play' sends it")
        elif d.join:
            parts.append(f"waiting for {name} to accept the game")
        elif d.decide:
            parts.append(f"waiting for {name} to decide" + (f" (and for {name}'s machine to {does})" if does else ""))
        else:
            parts.append(f"waiting for {name}'s machine to {does or 'send its file'}")
    return "; ".join(parts)


def genesis_prefix(text: str, where: str) -> str | None:
    """The first 12 hex digits of the id of the game whose genesis ``text`` is (read at ``where``); None when it is
    none (whatever else sits there)."""
    from duelmail.protocol.turnfile import parse_any

    try:
        (f,) = parse_any(text, where)
        return f.game_id[:12] if f.kind == "genesis" else None
    except Exception:  # noqa: BLE001 - whatever sits there is no genesis
        return None


def read_files(path: Path, archive_only: bool = False) -> list[tuple[str, SignedFile]]:
    """Every duelmail file in a folder (or one file), parsed but not yet checked."""
    from duelmail.protocol.turnfile import parse_any  # (not imported before a file is read: 'status' from its cache)

    if path.is_dir():
        paths = sorted(p for p in path.iterdir() if not p.name.startswith(".") and (
            p.name == "genesis.toml" or TURN_NAME.fullmatch(p.name)
            or (not archive_only and p.suffix in (".toml", ".txt", ".asc"))))
    else:
        paths = [path]
    out = []
    for p in paths:
        try:
            text = p.read_text(encoding="utf-8", errors="strict")
        except (OSError, UnicodeDecodeError) as e:
            raise FileRefused(str(p), f"cannot read it ({e})", rule="P-format") from None
        for f in parse_any(text, str(p)):
            out.append((str(p), f))
    return out


RoundHook = Callable[["Match", int, list[str], bool], None]


def fold(files: list[tuple[str, SignedFile]], strict: bool = True, now=None, on_round: RoundHook | None = None,
         defer_proofs: bool = False, proven: frozenset[str] = frozenset(), stood: frozenset[str] | None = None
         ) -> Match:
    """Fold files (in any order) into a match: genesis first, then round by round.

    The result depends on the set of files, not on the order they arrived in. Within a round, a
    timeout claim is weighed before the claimed seat's move: a move signed by its deadline voids
    the claim; otherwise the claim stands and a late move is void. ``match.void`` lists the files
    set aside, with the reason; ``match.applied`` holds the hashes of the files that count.

    ``on_round(match, round, names, partial)`` is called for round 0 (the genesis), each time a
    round closes, and for the open round if it has files (``partial``), with the round's file names.

    ``defer_proofs``: the deck passes' proofs are checked after the fold, and not at all when the
    game is over and its audit passed: the audit recomputes every pass, key and layer commitment
    from the published seeds, which makes every proof's statement true (``match.proofs`` says which).
    A proof that fails falls back to a plain fold, which refuses the file as on arrival. The passes' points and
    key commitments, and the commitments of every escrow dealing but a key's, are likewise validated after the fold
    (``book.unvalidated``), and not at all when the audit passed (each equals the audit's recomputation, a valid
    point); a bad one, or any refusal while one is
    pending, falls back to the plain fold too, so the same file is refused with the same rule.

    ``proven``: hashes of files whose pass proofs this home has already checked (``GameFolder``
    remembers them); their proofs are not checked again. Everything else about them is.

    ``stood``: under the last call (protocol section 6b), the timeout claims whose last call closed in this home with
    no answer (``GameFolder.stood``); None for an archive read without its home, where a claim stands once a file
    of the next round builds on it."""
    from duelmail.engine.decks import all_valid, check_deferred
    from duelmail.engine.match import Match
    from duelmail.errors import CheatDetected, CryptoError

    geneses = [(w, f) for w, f in files if f.kind == "genesis"]
    if not geneses:
        raise GameNotFound("no genesis file among " + (", ".join(sorted({w for w, _ in files})) or "no files"))
    ids = {f.game_id for _, f in geneses}
    if len(ids) > 1:
        raise DuelmailError(f"files of {len(ids)} different games mixed together: {sorted(i[:12] for i in ids)}")
    where, genesis = geneses[0]
    match = Match(genesis, where)
    match.proven = proven
    if defer_proofs:
        match.book.deferred = []
        if strict:
            match.book.unvalidated = []
    match.applied = {genesis.file_hash}
    match.void = {}
    match.stood = None if stood is None else set(stood)
    match.pairs = _pairs(match, files)
    try:
        if on_round:
            on_round(match, 0, [where], False)
        names: dict[int, list[str]] = {}
        fold_into(match, ordered([(w, f) for w, f in files if f.kind != "genesis"]), strict, now, on_round, names)
        if on_round and (match.current or match.current_claims or names.get(match.round)):
            on_round(match, match.round, names.pop(match.round, []), True)  # (notes after the last round: talk)
    except Exception:  # (libsodium's own errors too: an unchecked point may reach it before its file is refused)
        if defer_proofs and not all_valid(match.book.unvalidated or []):
            fold(files, strict, now, stood=stood)  # a point taken unchecked was bad: refuse its file, as on arrival
        raise
    if defer_proofs:
        pending, match.book.deferred = match.book.deferred, None
        unvalidated, match.book.unvalidated = match.book.unvalidated or [], None
        if match.audit is not None and match.audit.ok and not match.removed:
            # every pass's points and key commitments equal the audit's recomputation from the seeds: valid points
            # (not a removed seat's: no seed recomputes its passes, so their proofs are checked below, protocol §6c)
            match.proofs = f"{len(pending)} pass proofs not re-checked: the audit recomputed every pass"
        else:
            try:
                if not all_valid(unvalidated):
                    raise CryptoError("a pass holds a point outside the prime-order group")
                check_deferred(pending)
            except (CheatDetected, CryptoError):
                fold(files, strict, now, stood=stood)  # refuses the file whose point or proof fails, naming it
                raise
            skipped = len(proven & match.applied)
            match.proofs = f"{len(pending)} pass proofs checked" + (
                f" (those of {skipped} files checked before, as they arrived in this home)" if skipped else "")
    return match


def fold_into(match: Match, rest: list[tuple[str, SignedFile]], strict: bool = True, now=None,
              on_round: RoundHook | None = None, names: dict[int, list[str]] | None = None) -> Match:
    """Apply ``rest`` (files in the fold's order, ``ordered``) to ``match``, a fold of the files before them:
    the loop of ``fold``, which the kept state (``transport/kept.py``) also runs on new files alone.

    A note that may end the game (a resignation, a draw acceptance), and any note that waits on it, is held back
    (protocol §5a): a turn or claim that builds on the history without it comes first, so no note can undo a move
    that was made, nor a result. It is applied when a file of a later round needs the open round closed (the held
    note whose closing that file names as its 'prev', else every held note in order), or after every file."""
    from duelmail.engine.log import Duplicate
    from duelmail.engine.log import parse_time as _time
    from duelmail.protocol.turnfile import check_fields

    names = {} if names is None else names
    held: list[tuple[str, SignedFile]] = []

    def take(w: str, f: SignedFile) -> None:
        pair = getattr(match, "pairs", {}).get((f.round, f.seat)) if f.kind == "turn" else None
        if pair is not None:  # the seat signed two files for this round, both here: neither counts (protocol §5)
            if (f.round, f.seat) not in match.equivocations and f.round == match.round and not match.over() \
                    and f.seat in match.duties and f.seat not in match.current:
                match.end_by_equivocation(*pair)
            if (f.round, f.seat) in match.equivocations:
                match.void[f.file_hash] = (w, f"EQUIVOCATION: seat {f.seat} ({match.cards[f.seat].name}) signed two "
                                              f"different files for round {f.round}; neither counts and the game "
                                              "ended against it")
                return
        answer = None
        if f.kind == "claim" and f.round == match.round:
            check_fields(f.content, w)  # a claim built by a caller, not parsed: refused as the parser refuses it
            against = f.content["against"]
            answer = next((g for _, g in rest if g.kind == "turn" and g.round == f.round and g.seat == against),
                          None)
            due = match.deadline(against)
            # (with a delivery allowance the claim stands if the copy of the move it names is older than that)
            if match.tc.last_call is not None and match.stood is None and f.file_hash not in match.built_on:
                # an archive read without its home: the claim stood where a file of the next round builds on it
                if _builds_on_claim(match, w, f, rest) is not None:
                    match.built_on.add(f.file_hash)
            if answer is not None and match.tc.delivery is None and match.tc.last_call is None and due is not None \
                    and _time(answer.content["time"], w) <= due:
                builder = _builds_on_claim(match, w, f, rest)
                if builder is None:
                    match.void[f.file_hash] = (w, f"{match.cards[against].name}'s move was signed by the deadline "
                                                  f"({due.isoformat()}): the timeout claim does not stand")
                    return
                match.final_claims[f.round] = builder
        before = match.round
        try:
            match.apply(f, w, strict=strict, now=now, answer=answer if match.tc.delivery is not None else None)
        except Duplicate:
            return
        except FileRefused as e:
            if f.kind == "turn" and (e.rule in ("P-timeout", "P-final") or e.rule == "P-escrow" and (
                    f.seat in match.removed or f.seat == match.removing)):  # a removed seat's file (protocol §6c)
                match.void[f.file_hash] = (w, str(e))
                if e.rule == "P-final" or e.rule == "P-timeout" and match.tc.delivery is not None \
                        and f.round in match.final_claims:  # a claim stood against it: what built on it is void too
                    match.displaced.append(f.file_hash)
                return
            if e.rule in ("P-chain", "P-round") and match.displaced and f.round > min(match.final_claims):
                # a file that built on a move a final claim displaced: a branch that lost (protocol §6b)
                match.void[f.file_hash] = (w, f"{e}; it builds on a move the final timeout claim of round "
                                              f"{min(match.final_claims)} displaced")
                return
            closed = max((r for r in match.closed_by_note if r <= f.round), default=None)
            if f.kind == "turn" and closed is not None and e.rule in ("P-round", "P-chain", "P-turn"):
                match.void[f.file_hash] = (w, f"{e} (the game ended in round {closed} by a resignation, an agreed "
                                              "draw or an equivocation; a move after it does not count)"
                                           if match.closed_by_note[closed] == "ended" else
                                           f"{e} (a resignation closed round {closed} and opened the removal of its "
                                           "seat; a move built on the round before it does not count: its seat "
                                           "answers again)")
                return
            if f.kind == "turn" and held and e.rule in ("P-round", "P-chain"):
                match.void[f.file_hash] = (w, f"{e} (it builds on a round closed by a resignation or an agreed "
                                              "draw before a move that crossed it in the mail, which counts first; "
                                              "its seat answers again)")
                return
            if f.kind == "claim" and f.round < match.round and match.round - 1 in match.timed_out:
                match.void[f.file_hash] = (w, "another claim settled this round first")
                return
            raise
        match.applied.add(f.file_hash)
        names.setdefault(f.round if f.kind != "note" else before, []).append(w)  # a note: where the fold took it
        if on_round:
            for rnd in range(before, match.round):  # a file closes at most its own round
                on_round(match, rnd, names.pop(rnd, []), False)

    for w, f in rest:
        if f.kind == "note" and (_may_end(f) or _waits_on(f, held)):
            held.append((w, f))
            continue
        if held and f.kind != "note" and f.round > match.round:
            _release(match, held, f, take, strict, now)
        take(w, f)
    if held:
        _release(match, held, None, take, strict, now)
    return match


def _pairs(match: Match, files: list[tuple[str, SignedFile]]) -> dict[tuple[int, int], tuple]:
    """(round, seat) -> two different turn files that seat signed for that round, both verifying with its key (with a
    delivery allowance, two different answers: copies of one decision-free answer are one)."""
    from duelmail.engine.log import answer_hash

    slots: dict[tuple[int, int], dict[str, SignedFile]] = {}
    for _, f in files:
        if f.kind == "turn" and isinstance(f.content.get("seat"), int) and isinstance(f.content.get("round"), int):
            slots.setdefault((f.round, f.seat), {})[f.file_hash] = f
    out = {}
    for slot, by_hash in slots.items():
        if len(by_hash) > 1 and 0 <= slot[1] < match.n:
            signed = [by_hash[h] for h in sorted(by_hash) if by_hash[h].verify(match.cards[slot[1]])]
            if match.tc.delivery is not None:  # copies of one decision-free answer are one answer (protocol §5)
                answers = {answer_hash(g): g for g in reversed(signed)}
                signed = [answers[a] for a in sorted(answers)]
            if len(signed) > 1:
                out[slot] = (signed[0], signed[1])
    return out


def _may_end(f: SignedFile) -> bool:
    """A resignation or a draw acceptance: a note that may end the game or close a round."""
    return f.kind == "note" and order_key(f)[1] == 5


def _waits_on(f: SignedFile, held: list[tuple[str, SignedFile]]) -> bool:
    """Whether note ``f`` follows a held note: its seat's earlier note, or the offer it answers."""
    offer = f.content.get("offer")
    target = (offer.get("seat"), offer.get("n")) if isinstance(offer, dict) else None
    return any(g.seat == f.seat or (g.seat, _n(g)) == target for _, g in held)


def _release(match: Match, held: list[tuple[str, SignedFile]], nxt: SignedFile | None, take, strict: bool,
             now) -> None:
    """Apply held notes before ``nxt``, a file of a later round than the open one (None: at the end of the fold):
    the one whose closing of the open round ``nxt`` names as its 'prev' (the note that closed it where ``nxt`` was
    written), else every held note in order."""
    if nxt is not None:
        for j, (w, f) in enumerate(held):
            if not _may_end(f):
                continue
            trial = match.clone()
            trial.auditing = False
            try:
                trial.apply(f, w, strict=strict, now=now)
            except DuelmailError:
                continue
            if trial.prev == nxt.content.get("prev") and trial.round == nxt.round:
                del held[j]
                take(w, f)
                return
    while held:
        take(*held.pop(0))


def _builds_on_claim(match: Match, where: str, claim: SignedFile, rest: list[tuple[str, SignedFile]]) -> str | None:
    """The name of a file of the next round that names, as its ``prev``, the round this claim closes: once one
    exists the claim is final (protocol §6b), and a move signed by the deadline no longer voids it."""
    trial = match.clone()
    trial.auditing = False
    trial.stood = {claim.file_hash}  # under the last call: as it stands where its last call closed
    try:
        trial.apply(claim, where)
    except DuelmailError:
        return None
    return next((w for w, g in rest if g.round == claim.round + 1 and g.content.get("prev") == trial.prev), None)
