"""What a player does, as library calls: create, join, play, receive, verify, demo.

The CLI is a thin layer over these functions. Time and randomness are parameters.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from duelmail.crypto.deck import encode_points
from duelmail.crypto.encoding import b64e
from duelmail.crypto.group import base_mul
from duelmail.engine import toss
from duelmail.engine.escrowing import creator_escrow_key
from duelmail.engine.log import Duplicate, Event, parse_time
from duelmail.engine.match import Match
from duelmail.engine.talk import check_say
from duelmail.engine.views import with_faces
from duelmail.errors import DuelmailError, FileRefused, IllegalMove, NotationError, unexpected
from duelmail.games.base import get_game
from duelmail.games.cards import Card, CardRef
from duelmail.home import Home
from duelmail.protocol.identity import Identity, PlayerCard
from duelmail.protocol.turnfile import MAX_TEXT, SignedFile, parse_any
from duelmail.transport.archive import file_name, fold, machine_words, ordered, read_files
from duelmail.transport.folder import GameFolder
from duelmail.transport.kept import by_name
from duelmail.transport.strangers import MARK as STRANGER
from duelmail.transport.strangers import Strangers
from duelmail.util.classes import dataclass
from duelmail.util.fs import ReadError, commit, decode_text, forget, read_bytes
from duelmail.util.lock import hold, locked

if TYPE_CHECKING:
    from random import Random

DEFAULT_TIME_CONTROL = {"days_per_move": 3, "forced_answer_hours": 24, "last_call_hours": 24}
# the clock 'duelmail new' wrote before the last call (protocol section 6b): games begun under it keep it
DELIVERY_TIME_CONTROL = {"days_per_move": 3, "forced_answer_hours": 24, "delivery_hours": 12}
# The default before the delivery allowance (protocol section 6b): games begun under it keep its clock
BEFORE_DELIVERY_TIME_CONTROL = {"days_per_move": 3, "forced_answer_hours": 24}


def time_control(pairs: Sequence[str]) -> dict:
    """The genesis's ``time_control`` from ``KEY=N`` pairs over the defaults (``duelmail new --time``); a game given
    ``delivery_hours`` keeps the delivery rule instead of the last call (protocol section 6b). Refused in one line
    naming the pair; the limits are checked as any genesis's."""
    from duelmail.engine.clock import TimeControl

    out = dict(DEFAULT_TIME_CONTROL)
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or not value.strip().isdigit():
            raise DuelmailError(f"--time {pair!r}: write KEY=N with a whole number (e.g. days_per_move=5)")
        if key not in TimeControl.FIELDS:
            raise DuelmailError(f"--time {pair!r}: no time control {key!r} (known: {', '.join(TimeControl.FIELDS)})")
        out[key] = int(value)
        if key == "delivery_hours":
            out.pop("last_call_hours", None)
        if key == "last_call_hours":
            out.pop("delivery_hours", None)
    TimeControl.from_dict(out, "--time")
    return out


@dataclass
class Played:
    folder: GameFolder
    match: Match
    file: SignedFile | None
    path: Path | None
    events: list[Event] = field(default_factory=list)
    owed: str = ""  # a file that needed no decision: what it did, in words (``transport.archive.machine_words``)


def genesis_content(kind: str, cards: Sequence[PlayerCard], creator: int, options: dict, now: datetime,
                    nonce: bytes, time_control: dict | None = None, master: bytes | None = None,
                    escrow: dict | None = None, reshare: bool = False, ahead: bool = False) -> dict:
    """A genesis; ``master``, the creator's master secret, commits to its part of the coin toss in games that
    draw lots for who starts (protocol section 10) and gives the creator's escrow key in games of three or more
    seats that escrow deck keys (section 6c; ``escrow``: the genesis's ``escrow`` table, ``{off = true}`` or
    ``{threshold = N}``; ``reshare``: write ``reshare = true`` in it, as new games do, so that after a departure every
    seat deals its escrowed keys again among the seats in play); ``ahead``: write ``ahead = true``, as new games do,
    where it can serve (rules that name draws no choice changes, and no escrow): key shares then ride ahead of such
    a draw in a file their seat sends anyway (protocol section 6, "Shares ahead of a draw")."""
    game = get_game(kind)
    opts = game.spec.resolve_options(options)
    if not game.spec.min_players <= len(cards) <= game.spec.max_players:
        raise DuelmailError(f"{kind} takes {game.spec.min_players}-{game.spec.max_players} players, "
                            f"not {len(cards)}")
    content = {
        "duelmail": 1, "kind": "genesis", "game_kind": kind, "rules_version": game.spec.rules_version,
        "options": opts, "seats": [c.to_dict() for c in cards], "creator": creator,
        "created": now.isoformat(timespec="seconds"), "nonce": b64e(nonce),
        "time_control": dict(time_control or DEFAULT_TIME_CONTROL),
    }
    if game.spec.draws_lots:
        if master is None:
            raise DuelmailError(f"{kind} draws lots for who starts: the genesis needs the creator's secret")
        content["toss"] = toss.commit_field(master, nonce)
    if escrow is not None:
        content["escrow"] = dict(escrow)
    if game.spec.removes_seats and len(cards) >= 3 and not (escrow or {}).get("off") \
            and game.decks(len(cards), opts):
        if master is None:
            raise DuelmailError(f"{kind} with {len(cards)} seats escrows deck keys: the genesis needs the creator's "
                                "secret")
        content["escrow_key"] = encode_points([base_mul(creator_escrow_key(master, nonce))])
        if reshare:
            content["escrow"] = {**content.get("escrow", {}), "reshare": True}
    if ahead and game.spec.draws_ahead and "escrow_key" not in content:
        content["ahead"] = True
    return content


def create_game(home: Home, identity: Identity, kind: str, cards: Sequence[PlayerCard], options: dict,
                now: datetime, nonce: bytes, time_control: dict | None = None, escrow: dict | None = None) -> Played:
    """``escrow``: the genesis's ``escrow`` table (``{off = true}``: ``new --no-escrow``), only in a game of three or
    more players whose rules remove a seat."""
    game = get_game(kind)
    if escrow is not None and (len(cards) < 3 or not game.spec.removes_seats):
        raise DuelmailError(f"{game.spec.title} with {len(cards)} players escrows no deck keys: there is no escrow "
                            "to turn off")
    keys = [c.key for c in cards]
    if identity.public_key not in keys:
        raise DuelmailError(f"you ({identity.name}) must hold one of the seats")
    creator = keys.index(identity.public_key)
    genesis = SignedFile.sign(genesis_content(kind, cards, creator, options, now, nonce, time_control,
                                              identity.master, escrow=escrow, reshare=True,
                                              ahead=True), identity)
    match = Match(genesis)
    folder = home.folder_for(kind, match.gid)
    path = folder.store(genesis, match)
    home.set_me(folder, identity.name, creator)
    Strangers(home).play_with(genesis)
    return Played(folder, match, genesis, path)


def join_game(home: Home, identity: Identity, genesis: SignedFile, now: datetime, where: str,
              fresh: bytes | None = None, send: bool = False) -> Played:
    """Accept a game: store its genesis and write this seat's first file (a refused invitation, or any failure
    on the way, leaves no game folder behind); joined already, that file as it was stored (a second ``join`` after
    a first one stopped before its file went out). ``fresh``: the seat's randomness for this game (default: the
    operating system's CSPRNG), sealed to itself in that file."""
    match = Match(genesis, where)
    seat = match.seat_of(identity)
    if seat is None:
        names = ", ".join(match.names())
        raise DuelmailError(f"{where}: your key ({identity.name}) holds no seat in this game (seats: {names})")
    folder = home.folder_for(match.game.spec.id, match.gid)
    new = not folder.path.exists()
    if new:
        match.check_invitation(now, where)
    hold(folder.path)
    if not new:  # joined already (a first run stopped before its file went out): the same file, written again
        for name, f in folder.files():
            if f.seat == seat and f.round == 1 and f.kind != "genesis":
                return Played(folder, folder.fold(), f, folder.path / name)
    try:
        folder.store(genesis, match)
        home.set_me(folder, identity.name, seat)
        match = folder.fold()
        match.attach(seat, identity, fresh)
        played = write_turn(folder, match, seat, identity, [], now, send=send)
        strangers = Strangers(home)
        strangers.play_with(genesis)
        strangers.unmark(folder)  # joined: no longer a stranger's
        return played
    except BaseException:
        if new:
            import shutil

            shutil.rmtree(folder.path, ignore_errors=True)
            forget(folder.path)
        raise


def open_game(home: Home, query: str | None, identity: Identity | None = None, now: datetime | None = None
              ) -> tuple[GameFolder, Match, int | None]:
    """The game ``query`` names, folded, with the last calls that ran out by ``now`` closed (protocol §6b)."""
    folder = home.find(query)
    hold(folder.path)  # until the command ends: nothing else changes the game between this fold and the store
    match, _ = settle_calls(folder, folder.fold(), now)
    seat = home.me(folder).get("seat")
    if identity is not None:
        seat = match.seat_of(identity)
        if seat is not None:
            match.attach(seat, identity)
    return folder, match, seat


def write_turn(folder: GameFolder, match: Match, seat: int, identity: Identity, actions: Sequence[str],
               now: datetime, vacation: dict | None = None, say: str | None = None, keep: bool = True,
               send: bool = False) -> Played:
    """Compose, check (by applying it), and store this seat's file. Nothing is written on error.

    ``say``: table talk carried in the turn file itself (checked before signing). The caller should hold the
    folder's lock since it folded ``match`` (``util.lock.hold``); ``store`` refuses to put a second, different
    file of this seat for the round beside one written meanwhile. ``keep=False``: the folder's kept state is not
    brought up to date (a caller that goes on with ``match`` and keeps it later). ``send``: the home sends the file
    itself (``--send``, an automatic answer, a reply): in a home that mails its games it goes into the game's outbox
    before it is stored (``transport/outbox.py``)."""
    check_not_behind(folder, match)
    extra = {"vacation": vacation} if vacation else {}
    if say is not None:
        extra["say"] = check_say(say)
    f = match.compose(seat, identity, actions, now, extra=extra or None)
    events = match.apply(f, "your new turn", now=now)
    with locked(folder.path):
        _to_outbox(folder, f, send)
        path = folder.store(f, match, events, own=True)
    if (folder.path / STRANGER).exists():  # this seat's first file (a bot accepting for it): a game it plays
        Strangers.unmark(folder)
    if hasattr(match, "applied"):  # folded from the folder: every file in it is checked, and now this one
        match.applied.add(f.file_hash)
        folder.remember_proven(match.applied)
        if keep:
            folder.keep(match, {path.name: [f]})
    if match.finished:  # this home's last file finished the game: nothing held for it can count any more
        from duelmail.transport.held import HeldFiles

        HeldFiles(folder).clear()
    return Played(folder, match, f, path, events)


def owed(folder: GameFolder, match: Match, seat: int | None, identity: Identity, now: datetime,
         most: int = 8, send: bool = False) -> list[Played]:
    """Every file ``seat`` owes now that needs no decision (key shares, deck passes, reveals, the seed at the end),
    written one after the other while its own last one leaves it awaited again without a decision (its deck pass
    that opens its own hand, then its shares for it): what ``watch``, ``receive`` and ``play`` all send at once, so
    that a seat's home never waits on itself. Not while a file came late (claim first). ``most`` bounds the run;
    ``send``: this home sends them itself (its outbox, ``write_turn``)."""
    out: list[Played] = []
    for _ in range(most):
        if seat is None or seat not in match.duties or seat in match.current or match.duties[seat].needs_human:
            break
        if late_files(folder, match, seat):
            break
        what = machine_words(match, seat, seat) or "its file for the round"
        played = write_turn(folder, match, seat, identity, [], now, send=send)
        played.owed = what
        out.append(played)
        match = played.match
    return out


def write_claim(folder: GameFolder, match: Match, seat: int | None, identity: Identity, now: datetime,
                send: bool = False) -> Played:
    """Sign a timeout claim against the first seat whose deadline has passed; refuse if none has."""
    if seat is None:
        raise DuelmailError("only a seat of the game can claim a timeout")
    overdue = [s for s in match.overdue(now) if s != seat]
    late = late_files(folder, match, seat)
    if not overdue and late:
        return _claim_late(folder, match, seat, identity, now, *late[0], send=send)
    waiting = [c for _, c in match.last_calls()]
    if not overdue and waiting:
        c = waiting[0]
        reached = folder.note_call(c.file_hash, now)
        them = match.cards[c.content["against"]].name
        raise DuelmailError(f"{match.cards[c.seat].name}'s timeout claim against {them} for round {c.round} waits "
                            f"for its last call: it stands here at "
                            f"{(reached + match.tc.last_call).isoformat()} unless an answer comes first; nothing "
                            "more to claim now")
    if not overdue:
        dues = ", ".join(f"{match.cards[s].name} {d.isoformat()}" for s, d in match.deadlines().items() if s != seat)
        raise DuelmailError(f"too early: nobody else is past a deadline (deadlines: {dues or 'none'})")
    # A claim closes the round: the files every other awaited seat owes in it come first, so that no file of the
    # round can cross the claim (protocol section 6b).
    waiting = [s for s, d in match.deadlines().items() if s not in overdue and s != seat]
    if seat in match.duties and seat not in match.current:
        waiting.insert(0, seat)
    if waiting:
        names = ", ".join(("yourself" if s == seat else match.cards[s].name) for s in waiting)
        raise DuelmailError(f"not yet: round {match.round} also awaits {names}; a timeout claim closes the round, "
                            "so claim once every other file of the round is in")
    f = match.compose_claim(seat, identity, overdue[0], now)
    events = match.apply(f, "your timeout claim", now=now)
    _to_outbox(folder, f, send)
    path = folder.store(f, match, events)
    if f.file_hash in match.calls:  # the last call (protocol section 6b) runs from now in this home too
        folder.note_call(f.file_hash, now)
    _keep(folder, match, f, path)
    return Played(folder, match, f, path, events)


def late_files(folder: GameFolder, match: Match, seat: int | None) -> list[tuple[int, int]]:
    """(round, seat) of the files another seat sent that reached this home later than their delivery allowance
    after the time they carry (protocol section 6b) and still count: a timeout claim against each stands."""
    return [(r, s) for r, s, h, _ in folder.late() if s != seat and h in getattr(match, "applied", ())
            and r < match.round and r not in match.timed_out]


def late_copies(match: Match, claim: SignedFile, now: datetime, me: int | None) -> list[tuple[SignedFile, dict]]:
    """The copies of other seats' decision-free answers that a timeout claim names (``dates``, protocol section 6b)
    and that reach this home only inside it, later than the delivery allowance after their time: the file this home
    holds of each, with the copy. Each is a late file: a claim of this seat's own against it stands."""
    named = claim.content.get("dates")
    if match.tc.delivery is None or not isinstance(named, dict) or not 1 <= claim.round - 1 < len(match.rounds):
        return []
    out = []
    for s, copy in sorted(named.items()):
        held = match.rounds[claim.round - 1].get(int(s)) if s.isdigit() else None
        if held is None or int(s) == me or getattr(held, "content", None) is None:
            continue
        if copy["time"] != held.content["time"] and parse_time(copy["time"], "claim") + match.tc.delivery < now:
            out.append((held, dict(copy)))
    return out


def _claim_late(folder: GameFolder, match: Match, seat: int, identity: Identity, now: datetime, rnd: int,
                against: int, send: bool = False) -> Played:
    """A timeout claim against ``against`` for round ``rnd``, whose file reached this home late: the archive is
    folded again with it (it folds before that file, which it sets aside with every file built on it)."""
    with locked(folder.path):
        full = fold(folder.files(), now=now, proven=folder.proven())  # every file whole (a kept state keeps hashes)
        # it names the late file's copy it counts from (one that came inside another seat's claim, if so)
        f = full.compose_claim(seat, identity, against, now, rnd, copy=folder.late_copy(rnd, against))
        after = fold([*folder.files(), (file_name(f), f)], now=now, proven=folder.proven())
        if f.file_hash not in after.applied:
            raise DuelmailError(f"the claim against {match.cards[against].name} for round {rnd} does not stand: "
                                f"{after.void.get(f.file_hash, ('', 'set aside'))[1]}")
        told = [e for e in after.events if e.round >= rnd]
        _to_outbox(folder, f, send)
        path = folder.store(f, after, told, own=True)
    return Played(folder, after, f, path, told)


def _to_outbox(folder: GameFolder, f: SignedFile, send: bool) -> None:
    """Put this home's new file ``f``, which it sends itself (``send``), in its game's outbox before it is stored,
    in a home that mails its games (``transport/outbox.py``): no failure or kill after this loses it."""
    if not send:
        return  # the player carries it
    from duelmail.transport import outbox

    if outbox.mails(folder):
        outbox.Outbox(folder).add(f)


def _keep(folder: GameFolder, match: Match, f: SignedFile, path: Path) -> None:
    """After storing this home's own file ``f`` applied to ``match`` (a fold of the folder): keep the state."""
    if hasattr(match, "applied"):
        match.applied.add(f.file_hash)
        folder.keep(match, {path.name: [f]})


def write_note(folder: GameFolder, match: Match, seat: int | None, identity: Identity, now: datetime,
               say: str | None = None, resign: bool = False, draw: str | None = None, send: bool = False,
               here: bool = False) -> Played:
    """Sign, check and store a note (protocol §5a): talk, a resignation, or a draw offer or answer; ``here``: the
    answer to a timeout claim's last call (section 6b), which the home signs unasked.

    It may go out at any time, in turn or not. ``draw`` is ``offer``, ``accept`` or ``decline``; an answer
    names the open offer. Refused before signing: a resignation or draw once the game is over, an answer
    with no offer open, answering one's own offer, a second offer while one is open."""
    if seat is None:
        raise DuelmailError("only a seat of the game can send a note")
    check_not_behind(folder, match)
    f = match.compose_note(seat, identity, now, say=say, resign=resign, draw=draw, here=here)
    events = match.apply(f, "your note", now=now)
    with locked(folder.path):
        _to_outbox(folder, f, send)
        path = folder.store(f, match, events, own=True)
    _keep(folder, match, f, path)
    return Played(folder, match, f, path, events)


def bot_actions(match: Match, seat: int, identity: Identity, bot, rng: Random,
                start: Sequence[str] = (), honest: bool = True) -> list[str]:
    """The actions a bot takes for ``seat`` in the open round (none if no decision is awaited).

    ``start``: moves already noted for this turn; the bot finishes the turn from there. ``honest=False`` lets a
    cheating bot's false claims through (tests and the cheat harness)."""
    actions: list[str] = list(start)
    duty = match.duties.get(seat)
    if duty is not None and not duty.decide and len(match.duties) > 1:
        return actions  # a round several seats answer: its files may not depend on one another (protocol §6a)
    for _ in range(500):
        trial = match.draft(seat, identity, actions, honest=honest)
        st = trial.state
        if trial.over() or seat not in st.deciders() or not trial.ready(seat):
            return actions
        if not (match.duties[seat].decide or actions or seat in st.deciders()):
            return actions
        actions.append(str(bot.choose(st, seat, trial.known(seat), rng)))
    raise DuelmailError("the bot never finished its turn")


_WORD = re.compile(r"(?<![#\w=.+])([0-9A-Za-z][\w-]*)(?![\w#=])")


def _is_face(word: str) -> bool:
    try:
        Card.parse(word)
        return True
    except NotationError:
        return False


def read_moves(match: Match, seat: int, identity: Identity, words: Sequence[str]) -> list[str]:
    """Moves as a player types them on a command line: each quoted argument is one move (``"warlord JS" end``);
    bare words are split into moves, the longest reading first (``warlord JS end`` is ``warlord JS`` then
    ``end``). Each move is resolved (``resolve_move``). A move that no reading parses is refused naming the game,
    the round and what the notation expects; nothing is written."""
    out: list[str] = []
    i = 0
    while i < len(words):
        last = i + 1
        while last < len(words) and " " not in words[i].strip() and " " not in words[last].strip():
            last += 1
        error: NotationError | None = None
        for j in range(last, i, -1):
            try:
                move = resolve_move(match, seat, identity, " ".join(words[i:j]))
                match.game.parse_action(move)
            except NotationError as e:
                error = error or e  # the longest reading's complaint: most likely the one move meant
                continue
            out.append(move)
            i = j
            break
        else:
            raise NotationError(f"game {match.gid[:12]}, round {match.round}: {error} [notation]") from None
    return out


def resolve_move(match: Match, seat: int, identity: Identity, text: str, noted: Sequence[str] = ()) -> str:
    """A move as a player types it, in the game's notation: the faces of the seat's own cards (``9H``, ``XR``) and,
    in a game of designed cards, their names (``Spitter``) become refs (``REF=face`` where the notation claims a
    face), and players' names become seat numbers. Where one face names several cards, the legal reading wins
    (two twins are interchangeable); with no legal reading, the seat's own unplayed cards; else the choices are
    listed. With no legal reading the move goes on to the rules (and the honest-slip check) to say why. ``noted``:
    moves of the turn before this one (the cards and legal moves are those after them)."""
    view = match.draft(seat, identity, list(noted)) if seat in match.duties else match
    state, known = view.state, view.known(seat)
    mine = {r for r, who in state.visibility().items() if who == seat}
    by_word: dict[str, list[CardRef]] = {}
    for ref, card in sorted(known.items()):
        for word in {str(card).lower(), state.card_name(ref, card).lower()}:
            by_word.setdefault(word, []).append(ref)
    names = {n.lower(): str(i) for i, n in enumerate(match.names())}

    def key(word: str) -> str:
        try:
            return str(Card.parse(word)).lower()  # TH and 10h are 10H
        except NotationError:
            return word.lower()

    def word(m: re.Match) -> str:
        w = m.group(1)
        if key(w) in by_word:
            return w
        if w.lower() in names:
            return names[w.lower()]
        if _is_face(w):  # a face that is none of the cards you see
            raise NotationError(f"move {text!r}: you see no {key(w).upper()} among your cards ('duelmail show' "
                                "lists them)")
        return w

    text = _WORD.sub(word, text)
    spots = [m for m in _WORD.finditer(text) if key(m.group(1)) in by_word]
    if not spots:
        return text
    options = []
    for m in spots:
        refs = by_word[key(m.group(1))]
        options.append([(r, form) for r in refs for form in (str(r), f"{r}={str(known[r]).lower()}")])
    readings: dict[str, tuple[CardRef, ...]] = {}
    for combo in itertools.islice(itertools.product(*options), 4096):
        out, last = [], 0
        for m, (_, form) in zip(spots, combo, strict=True):
            out += [text[last:m.start(1)], form]
            last = m.end(1)
        candidate = "".join(out) + text[last:]
        try:
            readings.setdefault(str(match.game.parse_action(candidate)), tuple(r for r, _ in combo))
        except DuelmailError:
            continue
    if not readings:  # no reading parses: the simplest one, for the notation to say what is wrong
        return text[:spots[0].start(1)] + str(options[0][0][0]) + text[spots[0].end(1):] if len(spots) == 1 \
            else text
    legal = set()
    if seat in state.deciders() and view.ready(seat):
        legal = {str(a) for a in state.legal_actions(seat, known)}
    good = [r for r in readings if r in legal]
    if good:
        return good[0]
    own = [r for r, refs in readings.items() if all(ref in mine for ref in refs)]  # cards still in the seat's hand
    if len(readings) == 1 or len(set(own)) == 1 or len(spots) == 1:
        # one card named: its twins are interchangeable, so what makes the move illegal is not which of them (a
        # square, a target): the rules say what
        return (own or list(readings))[0]
    shown = "; ".join(with_faces(r, known, state.card_name) for r in readings)
    raise NotationError(f"move {text!r}: the faces name several of your cards and none of the readings is legal "
                        f"now ({shown}); name the cards by their refs ('duelmail show' lists them)")


def rules_text(kind: str) -> str:
    """Our rules digest of game ``kind`` for a terminal (``seeds/KIND.md``, shipped in the game's folder as
    ``digest.md``), its markup taken out, and the notation of its moves at the end (for scripts: a player chooses
    from 'duelmail play''s list)."""
    import importlib
    from importlib import resources

    game = get_game(kind)
    folder = f"duelmail.games.{game.spec.id}"
    digest = (resources.files(folder) / "digest.md").read_text(encoding="utf-8")
    notation = importlib.import_module(f"{folder}.notation").__doc__ or ""
    notation = "\n".join(line for line in notation.split("\n>>>")[0].splitlines())
    text = (digest.rstrip() + "\n\n## The moves' notation\n\nYou never need it: 'duelmail play' lists the legal "
            "moves in words and takes a number. Scripts, and 'duelmail play MOVE', may write a move in it.\n\n"
            + notation.replace("::\n", ":\n").strip() + "\n")
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text, flags=re.S)
    return re.sub(r"``?([^`]+?)``?", r"\1", text)


@dataclass
class Received:
    path: str
    round: int
    seat: int
    events: list[Event]
    duplicate: bool = False
    match: Match | None = None  # the game after this file (for callers that go on with it)
    late: bool = False  # it came later than its delivery allowance after its time: a timeout claim against it stands
    waiting: str = ""  # kept aside (``transport/held.py``) until this arrives, in a player's words: "round 2"
    waited: str = ""  # a held file applied now: what it had waited for
    refused: str = ""  # a held file that proved bad once it could be checked: why (it was dropped)
    file_hash: str = ""  # a held file's (what arrived with it by the same way is then the same file)
    copy: str = ""  # another copy of a decision-free answer already applied, dated otherwise: what it is (§5)
    late_copies: list[tuple[int, int]] = field(default_factory=list)  # (round, seat): copies a claim brought late
    answered: str = ""  # a timeout claim its seat had already answered (the last call): why it does not stand
    dropped: list[str] = field(default_factory=list)  # stranger-sent things dropped to make room for this one

    def line(self) -> str:
        """What a player reads of this file: applied, already applied, waiting, or refused."""
        if self.refused:
            return self.refused
        if self.answered:
            return f"{self.path}: {self.answered}"
        head = f"{self.path}: round {self.round} seat {self.seat}"
        if self.waiting:
            return f"{head} is waiting for {self.waiting}: kept, and applied as soon as {self.waiting} arrives"
        if self.copy:
            return self.copy
        if self.dropped:  # a new genesis from a stranger, and the oldest of what strangers sent made room for it
            return "\n".join([f"{head}: a new game", *(f"dropped {g}, the oldest of what nobody you play with sent, "
                                                      "to keep this home within its bounds" for g in self.dropped)])
        if self.duplicate:
            return f"{head} already applied (nothing changed)"
        return f"{head} verified and applied" + (f" (it had waited for {self.waited})" if self.waited else "")


def game_folder_for(home: Home, identity: Identity | None, f: SignedFile, where: str = "file",
                    now: datetime | None = None, dropped: list[str] | None = None) -> GameFolder:
    """The home folder of the game a file belongs to; a genesis of a new game starts one (not one created in
    the future of ``now``). A genesis from nobody this home plays with counts in the home's bounds for strangers
    (``transport/strangers.py``): the oldest such things are dropped to make room, and said in ``dropped``."""
    folder = home.folder_of(f.game)
    if folder is not None:
        return folder
    if f.kind != "genesis":
        raise FileRefused(where, f"no game {f.game[:12]} in {home.root}: join it (or receive its genesis) first",
                          round=f.round, seat=f.seat, rule="P-game")
    match = Match(f, where)
    if now is not None:  # an old genesis is fine here (a restored home reads its log again); joining checks age
        match.check_invitation(now, where, joining=False)
    seat = match.seat_of(identity) if identity else None
    strangers = Strangers(home)
    stranger = seat != match.creator and not strangers.from_partner(f)  # (its own: a restored home reads its log)
    folder = home.folder_for(match.game.spec.id, match.gid)
    folder.store(f, match)
    if seat is not None:
        home.set_me(folder, identity.name, seat)
    if stranger:
        strangers.mark(folder)
        gone = strangers.make_room(keep=folder.path)
        if dropped is not None:
            dropped += gone
    return folder


def receive(home: Home, identity: Identity | None, paths: Sequence[Path], now: datetime | None = None
            ) -> list[Received]:
    """Verify and apply incoming files; stop at the first refusal, having written nothing for it.

    Each file is checked by folding the game's archive with the file added: the result depends only
    on the set of files, so a timeout claim and a late move settle the same way in every home.
    A genesis adds its game (re-reading a log after restoring an identity starts here)."""
    incoming: list[tuple[str, SignedFile]] = []
    for p in paths:
        incoming += read_incoming(p)
    return receive_files(home, identity, incoming, now)


MAX_MAIL = 64 << 20  # a saved mail with its attachments (a 25 MB attachment grows by a third in base64)
_MAIL_HEADERS = (b"from:", b"to:", b"subject:", b"date:", b"message-id:", b"mime-version:", b"content-type:",
                 b"received:", b"return-path:", b"delivered-to:")


def looks_like_mail(head: bytes) -> bool:
    """Whether a file's first bytes are a saved mail: an mbox ("From " first), or a header block ("Name: value"
    lines, one of them a mail's own). A turn file (TOML) or a text of armours never starts so."""
    if head.startswith(b"From "):
        return True
    block = head.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0].lower()
    lines = block.splitlines()
    return bool(lines) and re.match(rb"[a-z0-9-]+:", lines[0]) is not None \
        and any(line.startswith(_MAIL_HEADERS) for line in lines)


def read_incoming(p: Path, problems: list[str] | None = None) -> list[tuple[str, SignedFile]]:
    """The files in one incoming file (a turn file, a text holding armoured ones, or a saved mail: an .eml, an
    mbox, a forwarded message, read as ``mail fetch FILE`` reads it), each with where it came from. A file that
    cannot be read refuses itself in one line naming it; so does a saved mail that holds no turn. A saved mail's
    other problems (a damaged armour beside good ones) go to ``problems`` when given (else the first is raised)."""
    try:
        raw = read_bytes(p, "file of turns", MAX_MAIL)
        if looks_like_mail(raw[:1 << 16]):
            from duelmail.transport.mail import saved_turns

            files, trouble = saved_turns(p)
            if trouble and (problems is None or not files):
                if problems is not None:
                    problems += trouble[1:]
                raise FileRefused(str(p), trouble[0].removeprefix(f"{p}: "), rule="P-format")
            if problems is not None:
                problems += trouble
            return files
        if len(raw) > MAX_TEXT:
            raise ReadError(f"{p}: larger than any file of turns ({MAX_TEXT} bytes at most)")
        text = decode_text(raw, p, "file of turns")
    except ReadError as e:
        raise FileRefused(str(p), str(e).removeprefix(f"{p}: "), rule="P-format") from None
    except OSError as e:
        raise FileRefused(str(p), f"cannot read this file of turns ({e.strerror or e})", rule="P-format") from None
    try:
        files = parse_any(text, str(p))
        if not files and re.search(r"<(?:html|body|div|br|p)\b", text, re.I):  # a page a client saved: its text
            from duelmail.transport.mail import html_text

            files = parse_any(html_text(text), str(p))
    except DuelmailError:
        raise
    except Exception as e:  # noqa: BLE001 - whatever a hostile file makes a parser raise: one line
        raise unexpected(str(p), e) from None
    if not files:  # the armour's first line inside other text, and no whole armour: never a silent nothing
        raise FileRefused(str(p), "no whole armour in it (its BEGIN line is not on a line of its own): nothing to "
                          "apply; save the whole mail (.eml) or its attachment instead", rule="P-format")
    return [(str(p), f) for f in files]


def receive_files(home: Home, identity: Identity | None, incoming: Sequence[tuple[str, SignedFile]],
                  now: datetime | None = None, batch: Sequence[tuple[str, SignedFile]] = (), release: bool = True
                  ) -> list[Received]:
    """``receive`` for files already parsed (``where`` names each one: a path, a mail, a commit).

    ``batch``: other files that arrived together, only consulted to see whether one makes a claim final. A file
    that comes before the files it follows is kept aside in the game's folder (``transport/held.py``) and comes
    back as waiting, not refused; once a file is applied, the held files it lets in are applied after it (each
    one more ``Received``; ``release=False``: not now)."""
    from duelmail.transport.held import HeldFiles, waiting_for

    incoming = sorted(ordered(list(incoming)), key=lambda wf: wf[1].game[:16])  # stable: the fold's order per game
    out: list[Received] = []
    held: dict[Path, Match] = {}  # the game after the last file this call applied to it
    for where, f in incoming:
        new = f.kind == "genesis" and not any(d.path.name.endswith("-" + f.game[:12]) for d in home.game_folders())
        dropped: list[str] = []
        folder = game_folder_for(home, identity, f, where, now, dropped)
        if f.kind == "genesis":  # a game this home did not hold is new: its opening is told
            match = folder.fold() if new else None
            out.append(Received(where, 0, f.seat, list(match.events) if new else [], duplicate=not new, match=match,
                                dropped=dropped))
            if new and release:  # what came of it before its genesis (``transport/strangers.py``)
                out += _release_strangers(home, identity, f.game, now)
            continue
        with locked(folder.path):  # another duelmail process on this home waits: no interleaved writes
            before = folder.fold(reuse=held.pop(folder.path, None))  # the kept state: no fold when it is current
            copy = before.second_copy(f, where)  # a decision-free answer again, dated otherwise: one answer (§5)
            if f.file_hash in before.applied or f.file_hash in before.void or copy is not None:
                out.append(Received(where, f.round, f.seat, [], duplicate=True, copy=copy or ""))
                held[folder.path] = before
                continue
            prior = before.events.copy()  # ``before`` itself may be extended in place
            recorded = before.outcome() if before.over() else None
            claims = {g.file_hash for cs in (before.current_claims, *before.claims_by_round.values())
                      for g in cs.values()} if recorded is not None else set()
            existing = None
            try:
                match = _extended(folder, before, where, f, now)
                if match is None:  # the file folds before some of the log (a late note): the whole log again
                    existing = folder.files()
                    match = fold([*existing, (where, f)], now=now, proven=folder.proven(), stood=folder.stood())
            except FileRefused as e:
                answered = _claim_answered(folder, before, identity, f, e)
                if answered:
                    out.append(Received(where, f.round, f.seat, [], answered=answered))
                    continue  # (``before`` may be half-changed by the trial: the next file folds again)
                if e.rule == "P-round" and f.round > before.round and f.kind != "note":
                    _note_behind(folder, before, identity, f, where)
                if e.rule == "P-equivocation":  # a cheat: remembered; the equivocator's file held here is sent on
                    other = e.round == f.round and e.seat == f.seat and f.kind == "turn"
                    folder.note_cheat(f"seat {e.seat} equivocated in round {e.round}: {e}", f if other else None)
                if getattr(e, "forward", None) is not None:  # (a 'seen' that disputes a file here: a copy, no cheat)
                    folder.forward(e.forward)
                waiting = waiting_for(e, f, before)
                if before.over() and f.kind == "note":
                    waiting = None  # a note after a recorded result waits for nothing: it is refused
                if waiting is None:
                    raise _built_on_answered(folder, before, f, e) from None
                HeldFiles(folder).keep(f, waiting, where)  # until the files before it arrive
                out.append(Received(where, f.round, f.seat, [], waiting=waiting))
                continue
            except DuelmailError:
                raise
            except Exception as e:  # noqa: BLE001 - what no check meant to raise is still this file's refusal
                raise unexpected(where, e, f.round, f.seat) from None
            if f.file_hash in match.void and f.kind == "claim" and match.tc.last_call is not None:
                answered = _claim_answered(folder, before, identity, f, None, match.void[f.file_hash][1])
                out.append(Received(where, f.round, f.seat, [], answered=answered or match.void[f.file_hash][1]))
                continue
            if f.file_hash in match.void and f.kind == "claim":
                existing = folder.files() if existing is None else existing
                match = _final_with(match, existing, (where, f), [*incoming, *batch], now, folder.proven())
            pair = match.equivocations.get((f.round, f.seat)) if f.kind == "turn" else None
            proof = pair is not None and f.file_hash in {g.file_hash for g in pair}
            if recorded is not None and match.outcome() != recorded and not proof \
                    and (f.kind == "claim" or not claims & set(match.void)):
                # (a claim is a file like any other; under the older clocks a move signed in time undoes a claim
                # not final: §6b)
                refusal = FileRefused(where, "the game is over here", round=f.round, seat=f.seat, rule="P-over")
                answered = _claim_answered(folder, before, identity, f, refusal)
                if answered:
                    out.append(Received(where, f.round, f.seat, [], answered=answered))
                    continue  # (``before`` may be half-changed by the trial: the next file folds again)
                raise FileRefused(where, f"the game is over here ({before.named(recorded.describe(before.names()))})"
                                  f" and this {'note' if f.kind == 'note' else 'file'} would change that result: "
                                  "once a home has recorded a result, no file changes it", round=f.round,
                                  seat=f.seat, rule="P-over")
            if f.file_hash in match.void and not proof:
                reason = match.void[f.file_hash][1]
                raise FileRefused(where, reason, round=f.round, seat=f.seat,
                                  rule="P-final" if reason.endswith("[P-final]") else
                                  "P-over" if "ended in round" in reason or "a resignation or an agreed draw" in reason
                                  else "P-timeout")
            if match is before:  # applied after every file of the log: its events are the tail
                events = match.events[len(prior):]
            else:  # a note already known may now fold after it, so not simply a tail
                known = Counter(prior)
                events = []
                for e in match.events:
                    if known[e] > 0:
                        known[e] -= 1
                    else:
                        events.append(e)
            if proof:  # kept in the log beside the other, and that other sent on: every seat gets both (§5)
                name = folder.note_cheat(f"seat {f.seat} equivocated in round {f.round}: "
                                         f"{match.void[f.file_hash][1]}", f).name
                folder.forward(next(g for g in pair if g.file_hash != f.file_hash))
            else:
                folder.store(f, match, events)
                name = file_name(f)
            copies: list[tuple[int, int]] = []
            late = f.kind == "turn" and now is not None and f.seat != home.me(folder).get("seat") \
                and f.file_hash in match.applied and match.arrived_late(f, now)
            if late:  # its sender's deadline for it had passed: a claim against it stands (protocol section 6b)
                folder.note_late(f, now)
            if f.kind == "claim" and now is not None and f.file_hash in match.applied:
                for answer, copy in late_copies(match, f, now, home.me(folder).get("seat")):
                    folder.note_late(answer, now, copy)
                    copies.append((answer.round, answer.seat))
            if f.kind == "claim" and f.file_hash in match.calls and now is not None:  # its last call runs from now
                folder.note_call(f.file_hash, now)
                _send_claim_on(folder, match, identity, f)
            folder.remember_proven(match.applied)
            folder.keep(match, {**(by_name(existing) if existing else {}), name: [f]}, in_order=True)
            held[folder.path] = match
            if (folder.path / STRANGER).exists() and f.seat == home.me(folder).get("seat"):
                Strangers.unmark(folder)  # a file of this home's own seat: its game, read again (a restored home)
        out.append(Received(where, f.round, f.seat, events, match=match, late=late, late_copies=copies))
        if release:
            out += _release_held(home, identity, folder, now)
    return out


def _release_strangers(home: Home, identity: Identity | None, game: str, now) -> list[Received]:
    """The files of game ``game`` that came before its genesis, applied (or held, or refused) now it has come."""
    store = Strangers(home)
    out: list[Received] = []
    for path, f in store.files_of(game):
        where = f"{file_name(f)} (kept until its genesis came)"
        path.unlink(missing_ok=True)
        try:
            out += receive_files(home, identity, [(where, f)], now)
        except DuelmailError as e:
            out.append(Received(where, f.round, f.seat, [], refused=str(e), file_hash=f.file_hash))
        except Exception as e:  # noqa: BLE001 - what no check meant to raise is still this file's refusal
            out.append(Received(where, f.round, f.seat, [], refused=str(unexpected(where, e, f.round, f.seat)),
                                file_hash=f.file_hash))
    return out


def _release_held(home: Home, identity: Identity | None, folder: GameFolder, now) -> list[Received]:
    """Apply the files ``folder`` holds aside that can be checked now (each one may let the next in); refuse and
    drop those that prove bad; drop them all once the game is finished."""
    from duelmail.transport.held import HeldFiles

    store = HeldFiles(folder)
    out: list[Received] = []
    match = None
    progress = True
    while progress:
        progress = False
        for path, f in store.entries():
            where = f"{file_name(f)} (held)"
            try:
                (got,) = receive_files(home, identity, [(where, f)], now, release=False)
            except DuelmailError as e:
                store.drop(path)
                out.append(Received(where, f.round, f.seat, [], refused=str(e), file_hash=f.file_hash))
                continue
            except Exception as e:  # noqa: BLE001 - what no check meant to raise is still this file's refusal
                store.drop(path)
                out.append(Received(where, f.round, f.seat, [], refused=str(unexpected(where, e, f.round, f.seat)),
                                    file_hash=f.file_hash))
                continue
            if got.waiting:
                continue
            waited = store.waiting(path)
            store.drop(path)
            if not got.duplicate:  # (one that arrived meanwhile by another way is simply let go)
                got.waited, got.file_hash = waited, f.file_hash
                out.append(got)
                match, progress = got.match, True
    if match is not None and match.finished:
        store.clear()
    return out


def _note_behind(folder: GameFolder, match: Match, identity: Identity | None, f: SignedFile, where: str) -> None:
    """A file of a later round than this home's open one came. If it is this home's seat's own, that seat signed
    files this home lacks (its copy on another machine, or the home before a backup was restored): remember it, so
    that nothing is signed for those rounds again (``check_not_behind``). Only the seat's own signed files tell it:
    another seat's file of a later round is held until the files between arrive, never trusted (protocol §5)."""
    seat = match.seat_of(identity) if identity is not None else None
    if seat is None:
        return
    if f.seat == seat:  # a file of this seat's own, of a round this home has not reached; another seat's file says
        # nothing of what this seat signed: it is held, never trusted (issue 37 item 4)
        folder.mark_behind(f.round, f"{where} is your own file for round {f.round}, which this home has not reached")


def _claim_answered(folder: GameFolder, match: Match, identity: Identity | None, f: SignedFile,
                    refusal: FileRefused | None, why: str = "") -> str:
    """Under the last call (protocol section 6b): what a player reads of a timeout claim that its seat had already
    answered, or "" if ``f`` is no such claim. A claim against this home's own seat, for a round this home holds its
    file of, sends that file again (the claimant's home may lack it): the answer to a last call."""
    if f.kind != "claim" or match.tc.last_call is None or not isinstance(f.content.get("against"), int):
        return ""
    against = f.content["against"]
    if not 0 <= against < match.n or not 0 <= f.seat < match.n:
        return ""
    rnd = f.round
    if not isinstance(rnd, int) or not 1 <= rnd <= match.round:
        return ""
    held = match.current.get(against) if rnd == match.round else match.rounds[rnd].get(against)
    claimant, them = match.cards[f.seat].name, match.cards[against].name
    me = match.seat_of(identity) if identity is not None else None
    if refusal is not None and refusal.rule not in ("P-timeout", "P-round", "P-over"):
        return ""
    folder.note_answered(f)
    if me == against and (refusal is None or refusal.rule != "P-timeout" or held is not None):
        # this seat's own answer: what it signed from that round on (its move, or the note that closed the round
        # and whatever followed it), sent again to the seats that may lack it
        mine = [g for _, g in folder.files() if g.kind in ("turn", "note") and g.seat == me and g.round >= rnd]
        for g in mine:
            folder.send_again(g, f"{'a note' if g.kind == 'note' else 'the file'} of yours for round {g.round}, "
                              f"sent again: it answers {claimant}'s timeout claim")
        if mine:
            over = f" (the game is over here: {match.describe_outcome()})" if match.over() else ""
            return (f"{claimant} claims your timeout for round {rnd}, but your file for that round is signed"
                    f"{over}: the claim does not stand here, and what you signed is sent again")
    if held is None and (refusal is None or refusal.rule != "P-timeout"):
        return ""
    return why or (f"{claimant} claims {them}'s timeout for round {rnd}, but {them}'s file for that round is here: "
                   "the claim does not stand (nothing changes)")


def _built_on_answered(folder: GameFolder, match: Match, f: SignedFile, e: FileRefused) -> FileRefused:
    """``e``, said in words when ``f`` may build on a timeout claim that stood where ``f`` was signed and not here
    (its seat's answer came in time here, not there: protocol section 6b, the last call)."""
    if e.rule not in ("P-chain", "P-round") or match.tc.last_call is None:
        return e
    for rnd, claimant, against in folder.answered_claims():
        if f.round == rnd + 1 and 0 <= claimant < match.n and 0 <= against < match.n:
            name, them = match.cards[claimant].name, match.cards[against].name
            said = str(e).split(": ", 1)[-1].removesuffix(f" [{e.rule}]")
            return FileRefused(e.path, f"{said}; it may build on {name}'s timeout claim against {them} for round "
                               f"{rnd}, which stood where it was signed (that home's last call closed before {them}'s "
                               "answer came there) and not here (the answer came in time): the homes now hold "
                               "different histories", round=e.round, seat=e.seat, rule=e.rule)
    return e


def _send_claim_on(folder: GameFolder, match: Match, identity: Identity | None, claim: SignedFile) -> None:
    """A timeout claim against another seat opens its last call here (protocol section 6b): it is sent on to the
    other seats, with the files of the round before (the claimed seat may lack the claimant's move), so that a
    claimant cannot keep the claim from the seat it names."""
    me = match.seat_of(identity) if identity is not None else None
    if me is None or claim.seat == me or claim.content["against"] == me:
        return
    against = claim.content["against"]
    them = match.cards[against].name
    folder.send_again(claim, f"{match.cards[claim.seat].name}'s timeout claim against {them}, sent on: {them} "
                      "answers it")
    # the claimed seat may lack the files since its own last one (a claimant may have kept its move from it)
    since = max((r for r in range(1, len(match.rounds)) if against in match.rounds[r]), default=1)
    for _, g in folder.files():
        if g.kind == "turn" and g.round >= since and g.seat not in (me, against):
            folder.send_again(g, f"{match.cards[g.seat].name}'s file for round {g.round}, sent on with a timeout "
                              f"claim against {them}")


def settle_calls(folder: GameFolder, match: Match, now: datetime | None) -> tuple[Match, list[Event]]:
    """Close the last calls that have run out in this home (protocol section 6b): a timeout claim that no answer
    met within ``last_call_hours`` of its reaching this home stands here, and the home remembers it (``.calls``).
    The game as it is then, and what that changed."""
    if now is None or match.tc.last_call is None or not match.calls:
        return match, []
    out = [h for h, _ in match.last_calls() if now >= folder.note_call(h, now) + match.tc.last_call]
    if not out:
        return match, []
    with locked(folder.path):
        for h in out:
            folder.stand_call(h, now)
        after = folder.fold()
    known = Counter(match.events)
    told = []
    for e in after.events:
        if known[e] > 0:
            known[e] -= 1
        else:
            told.append(e)
    return after, told


def check_not_behind(folder: GameFolder, match: Match) -> None:
    """Refuse to sign anything for a round this home's seat already answered elsewhere (protocol §5): a second,
    different file would be an equivocation. Says which file showed it and what to do."""
    why = folder.behind(match.round)
    if why is not None:
        raise DuelmailError(f"this home is behind what you already signed: {why}. Nothing was signed or sent; "
                            "receive the files between first (your own sent files, or the other seats')")


def _extended(folder: GameFolder, before: Match, where: str, f: SignedFile, now) -> Match | None:
    """``before`` with ``f`` applied (in place), if the fold takes ``f`` after every file of ``before``'s log."""
    if folder.kept_key() is None:
        return None
    from duelmail.transport.kept import extend

    return extend(before, [(where, f)], now)


def _final_with(match: Match, existing, claim: tuple[str, SignedFile], incoming, now, proven) -> Match:
    """A claim a move signed in time voids, unless a file of the next round, received with it, builds on it
    (then the claim is final: protocol §6b). The fold with those files if they make it final, else ``match``."""
    f = claim[1]
    builders = [(w, g) for w, g in incoming if g.game[:16] == f.game[:16] and g.round == f.round + 1]
    if not builders:
        return match
    try:
        trial = fold([*existing, claim, *builders], now=now, proven=proven)
    except DuelmailError:
        return match
    return trial if f.round in trial.final_claims else match


@dataclass
class Verdict:
    ok: bool
    match: Match | None
    lines: list[str]
    error: str | None = None


def verify_archive(path: Path) -> Verdict:
    """Fold an archive from scratch: signatures, chain, deck steps, key shares, rules, and (if over) the audit."""
    try:
        match = fold(read_files(Path(path)))
    except (DuelmailError, OSError) as e:
        return Verdict(False, None, [f"FAILED: {e}"], str(e))
    except Exception as e:  # noqa: BLE001 - a hostile archive fails verification, in one line
        e = unexpected(str(path), e)
        return Verdict(False, None, [f"FAILED: {e}"], str(e))
    lines = [f"game {match.gid[:12]} ({match.game.spec.title}), {match.n} seats: {', '.join(match.names())}",
             f"{sum(len(r) for r in match.rounds)} files in {len(match.rounds)} closed rounds: every signature, "
             "chain link, deck pass and its proof, key share and move checked"]
    if match.notes:
        lines.append(f"{len(match.notes)} notes (talk, resignations, draw offers and answers): every signature and "
                     "chain link checked")
    ok = True
    if match.over():
        lines.append("result: " + match.describe_outcome())
    else:
        lines.append("in progress: awaiting " + ", ".join(match.names()[s] for s in sorted(match.duties)))
    if match.audit is not None:
        lines += ["audit: " + match.named(line) for line in match.audit.lines]
        lines.append("audit: PASSED" if match.audit.ok else "audit: CHEATING FOUND")
        ok = match.audit.ok
    elif match.over():
        lines.append("audit: incomplete, waiting for seeds from "
                     + ", ".join(match.names()[s] for s in range(match.n) if s not in match.seeds))
        ok = False
    if match.violations:
        ok = False
        for v in match.violations:
            lines.append(f"CHEAT by {match.names()[v.seat]} (seat {v.seat}) [{v.rule}]: {match.named(v.message)}")
    return Verdict(ok, match, lines)


# -- the demo ---------------------------------------------------------------------------------
@dataclass
class DemoResult:
    archive: Path
    verdict: Verdict
    files: int
    decisions: int


def demo_identity(seed: int, name: str) -> Identity:
    return Identity.generate(name, f"{name}@example.org",
                             seed=hashlib.sha256(f"duelmail demo {seed} {name}".encode()).digest())


def demo_fresh(seed: int, name: str, kind: str = "") -> bytes:
    """A demo seat's per-game randomness, from the demo's seed (on purpose: the same seed plays the same game)."""
    return hashlib.sha256(f"duelmail demo fresh {kind} {seed} {name}".encode()).digest()


DEMO_MARK = ".duelmail-demo"


def demo_folder(out: Path, kind: str, seed: int = 0, players: int = 2) -> Path:
    """Where a demo plays when asked to play in ``out``: ``out`` itself when it is empty (or missing) or holds the
    same demo played before (played again in its place); else a folder inside it named after the demo
    (``warlords-seed0``, ``warlords-seed0-2``...): a demo never deletes or overwrites what another demo or anyone
    else left in a folder a person chose."""
    key = f"{kind} seed {seed} players {players}\n"

    def ours(p: Path) -> bool:
        if not p.exists() or (p.is_dir() and not any(p.iterdir())):
            return True
        try:
            return p.is_dir() and (p / DEMO_MARK).read_text(encoding="utf-8") == key
        except (OSError, UnicodeDecodeError):
            return False

    if ours(out):
        return out
    for n in itertools.count(1):
        sub = out / (f"{kind}-seed{seed}" + (f"-{n}" if n > 1 else "") + (f"-{players}p" if players != 2 else ""))
        if ours(sub):
            return sub
    raise AssertionError("unreachable")


def run_demo(kind: str, out: Path, seed: int = 0, players: int = 2, options: dict | None = None,
             bots: Sequence[str] | None = None, now: Callable[[], datetime] | None = None,
             say: Callable[[str], None] = lambda s: None) -> DemoResult:
    """Bots play a whole game between separate homes, passing real turn files through a mailbox folder.

    The homes are written in one go, at one commit point at the end (``util.fs.commit(scratch=True)``): after a
    crash the demo is simply played again from its seed."""
    with commit(scratch=True):
        return _run_demo(kind, out, seed, players, options, bots, now, say)


def _run_demo(kind: str, out: Path, seed: int, players: int, options: dict | None, bots: Sequence[str] | None,
              now: Callable[[], datetime] | None, say: Callable[[str], None]) -> DemoResult:
    import random
    import shutil
    from datetime import UTC, timedelta

    ticks = iter(range(1_000_000))
    start = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
    clock = now or (lambda: start + timedelta(minutes=7 * next(ticks)))  # the same seed plays the same game
    game = get_game(kind)
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "kim", "leo"][:players]
    bots = list(bots or ["heuristic"] * players)
    out = demo_folder(out, kind, seed, players)
    if out.exists():
        shutil.rmtree(out)  # empty, or this very demo played before
    mailbox = out / "mailbox"
    mailbox.mkdir(parents=True)
    (out / DEMO_MARK).write_text(f"{kind} seed {seed} players {players}\n", encoding="utf-8")
    homes = [Home(out / "homes" / n) for n in names]
    ids = [demo_identity(seed, n) for n in names]
    for h, i in zip(homes, ids, strict=True):
        h.add_identity(i)
    rng = random.Random(seed)
    played = create_game(homes[0], ids[0], kind, [i.card for i in ids], options or {}, clock(),
                         hashlib.sha256(f"nonce {seed}".encode()).digest()[:16])
    say(f"{names[0]} opened a game of {game.spec.title} ({played.match.gid[:12]})")
    shutil.copy(played.path, mailbox / f"000-{played.path.name}")
    matches: list[Match | None] = [played.folder.fold()] + [None] * (players - 1)  # a fold: it keeps .proven
    folders: list[GameFolder | None] = [played.folder] + [None] * (players - 1)
    matches[0].attach(0, ids[0], demo_fresh(seed, names[0]))
    joins = []
    for s in range(1, players):
        j = join_game(homes[s], ids[s], played.file, clock(), str(played.path), demo_fresh(seed, names[s]))
        matches[s], folders[s] = j.match, j.folder
        joins.append((s, j))
    for folder in folders:
        folder.defer_proven()  # one process plays every file: each home's .proven is written once, at the end
    for s, j in joins:  # every home reads every other acceptance (they were written concurrently)
        _deliver(j, s, matches, folders, mailbox)
    files = 1 + (players - 1)
    decisions = 1 + (players - 1)
    bot_objs = [game.bots[b]() for b in bots]
    for _ in range(20_000):
        m = matches[0]
        if m.finished:
            break
        for seat in sorted(m.duties):
            mine = matches[seat]
            actions = bot_actions(mine, seat, ids[seat], bot_objs[seat], rng)
            try:
                p = write_turn(folders[seat], mine, seat, ids[seat], actions, clock(), keep=False)
            except IllegalMove as e:
                raise DuelmailError(f"bot {bots[seat]} for seat {seat} made an illegal move: {e}") from None
            files += 1
            decisions += bool(actions)
            for e in p.match.told_to(p.events):  # the faces public by then
                if not e.technical:
                    say(f"round {e.round:>3}  {names[e.seat]:<6} {e.text}")
            _deliver(p, seat, matches, folders, mailbox)
    else:
        raise DuelmailError("the demo game did not end")
    for folder in folders:
        folder.flush_proven()
    verdict = verify_archive(folders[0].path)
    return DemoResult(folders[0].path, verdict, files, decisions)


def _deliver(p: Played, sender: int, matches, folders, mailbox: Path) -> None:
    """Post a file to the mailbox folder; every other home reads it from disk and applies it."""
    import shutil

    target = mailbox / f"{p.file.round:04d}-{sender}-{p.path.name}"
    shutil.copy(p.path, target)
    for s, m in enumerate(matches):
        if s == sender or m is None:
            continue
        (f,) = parse_any(target.read_text(), str(target))
        try:
            events = m.apply(f, str(target))
        except Duplicate:
            continue
        folders[s].store(f, m, events)
        m.applied.add(f.file_hash)  # as 'receive' does: the proofs checked are remembered
        folders[s].remember_proven(m.applied)
