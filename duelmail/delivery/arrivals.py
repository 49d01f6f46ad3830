"""What arrives in a home and what it answers by itself, whatever carried it.

Everything that arrives is verified by ``app.receive_files`` one file at a time: a bad or forged file is
reported (file, round, rule) and never applied, and the rest still goes on. A file from a round the game has
not reached yet is *held* until the files between arrive. Decision-free duties (acceptances aside: key shares,
deck passes, forced reveals) are answered here; a decision is left to the human, or to a bot when one plays
the seat. Mail, git and the watch loop (the other modules of ``duelmail.delivery``) all go through here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import field
from datetime import datetime
from pathlib import Path

from duelmail import app
from duelmail.engine.log import Event
from duelmail.engine.match import Match
from duelmail.errors import DuelmailError, HeldFull, unexpected
from duelmail.home import Home
from duelmail.protocol.identity import Identity
from duelmail.protocol.turnfile import SignedFile
from duelmail.transport.archive import ordered
from duelmail.transport.folder import GameFolder
from duelmail.transport.held import HeldFiles
from duelmail.transport.settled import GameIndex
from duelmail.transport.strangers import Strangers
from duelmail.util.classes import dataclass
from duelmail.util.lock import hold

APPLIED = ("applied", "new game")


"""The statuses of an ``Arrival`` that changed a game folder."""


@dataclass
class Arrival:
    """One incoming file and what became of it: applied, duplicate, held, later (not kept now: it comes again),
    refused, or a new game."""

    where: str
    game: str
    round: int
    seat: int
    status: str
    events: list[Event] = field(default_factory=list)
    reason: str = ""
    unsigned: str = ""  # words a person wrote above the armour of the mail that carried the file
    file_hash: str = ""  # a held file applied or refused now: its hash (the copy that came again is the same)

    def unsigned_lines(self) -> str:
        if not self.unsigned:
            return ""
        return ("\n  text above the armour (UNSIGNED: anyone could have written or changed it):"
                + "".join(f"\n  | {line}" for line in self.unsigned.splitlines()))

    def line(self) -> str:
        head = f"{self.where}: game {self.game[:12]} round {self.round} seat {self.seat}"
        if self.status == "refused":  # the reason names the file, round, seat and rule
            return "REFUSED " + self.reason.removeprefix("refused ")
        if self.status == "dropped":  # what strangers sent, over the home's bounds (``transport/strangers.py``)
            return (f"dropped {self.reason}, the oldest of what nobody you play with sent, to keep this home within "
                    "its bounds")
        if self.status == "later":  # its seat's share of the held store is full: it comes again
            return f"{head}: {self.reason.split(': ', 1)[-1]}"
        if self.status == "held":
            return f"{head} is waiting for {self.reason}: kept, and applied as soon as {self.reason} arrives"
        if self.status == "duplicate":
            return self.reason or f"{head} already applied (nothing changed)"
        if self.status == "new game":
            return f"{head}: a new game {self.reason}"
        return f"{head} verified and applied" + (f" (it had waited for {self.reason})" if self.reason else "") + \
            "".join(f"\n  {e.text}" for e in self.events) + self.unsigned_lines()


def apply_files(home: Home, identity: Identity | None, files: Sequence[tuple[str, SignedFile]],
                now: datetime | None = None, strangers: bool = False) -> list[Arrival]:
    """Verify and apply each file on its own (in round order); refusals are reported, not raised. ``strangers``: a
    file of a game this home does not hold is kept until its genesis comes (``transport/strangers.py``: mail, which
    may overtake mail), not refused."""
    out: list[Arrival] = []
    seen: set[str] = set()
    order = sorted(ordered(list(files)), key=lambda wf: wf[1].game[:16])  # the fold's order, game by game
    for where, f in order:
        try:
            h = f.file_hash
        except Exception as e:  # noqa: BLE001 - the last line of defence: one hostile file never stops the rest
            out.append(Arrival(where, f.game, f.round, f.seat, "refused", reason=str(unexpected(where, e))))
            continue
        if h in seen:
            continue
        seen.add(h)
        known = home.folder_of(f.game) is not None
        if strangers and not known and f.kind != "genesis":  # its genesis has not come (or never will): kept
            store = Strangers(home)
            path = store.keep(f)
            gone = store.make_room(keep=path)
            out.append(Arrival(where, f.game, f.round, f.seat, "held", reason=f"the genesis of game {f.game[:12]}"))
            out += [Arrival(where, f.game, f.round, f.seat, "dropped", reason=g) for g in gone]
            continue
        if known and f.kind != "genesis" and HeldFiles(app.game_folder_for(home, identity, f, where)).holds(f):
            out.append(Arrival(where, f.game, f.round, f.seat, "duplicate"))  # kept aside already: said once
            continue
        try:
            got = app.receive_files(home, identity, [(where, f)], now, batch=order)
        except HeldFull as e:  # not kept now, not refused: its carrier brings it again (``transport/held.py``)
            out.append(Arrival(where, f.game, f.round, f.seat, "later", reason=str(e)))
            continue
        except Exception as e:  # noqa: BLE001 - a check's own error, or the last line of defence
            if not isinstance(e, DuelmailError):
                e = unexpected(where, e, f.round, f.seat)
            out.append(Arrival(where, f.game, f.round, f.seat, "refused", reason=str(e)))
            continue
        if f.kind == "genesis" and not known:
            m = Match(f, where)
            out.append(Arrival(where, f.game, 0, f.seat, "new game",
                               reason=f"of {m.game.spec.title} for {', '.join(m.names()[:-1])} and {m.names()[-1]}"))
            out += [Arrival(where, f.game, 0, f.seat, "dropped", reason=g) for g in (got[0].dropped if got else [])]
        for r in got[1 if f.kind == "genesis" and not known else 0:]:  # then the held files it let in
            out.append(_arrival(r, f.game, identity))
            seen.add(r.file_hash)  # a held file that came again in this batch is said once
        last = next((r.match for r in reversed(got) if r.match is not None), None)
        if last is not None:  # what comes next (answering, READMEs) starts from this state, unfolded again
            remember(app.game_folder_for(home, identity, f, where), last)
    return out


def _arrival(r: app.Received, game: str, identity: Identity | None) -> Arrival:
    if r.refused:
        return Arrival(r.path, game, r.round, r.seat, "refused", reason=r.refused, file_hash=r.file_hash)
    if r.waiting:
        return Arrival(r.path, game, r.round, r.seat, "held", reason=r.waiting)
    if r.answered:  # a timeout claim its seat had answered already (the last call): said, not applied
        return Arrival(r.path, game, r.round, r.seat, "duplicate", reason=r.line())
    events = r.match.told_to(r.events, r.match.reader_faces(identity)) if r.match is not None else r.events
    return Arrival(r.path, game, r.round, r.seat, "duplicate" if r.duplicate else "applied", events,
                   reason=r.copy if r.duplicate else r.waited)


@dataclass
class Answer:
    folder: GameFolder
    played: app.Played
    how: str  # "auto" or "bot NAME"

    def line(self) -> str:
        m = self.played.match
        seat = self.played.file.seat
        told = m.told_to([e for e in self.played.events if e.seat == seat or e.said is not None],
                         m.seen(seat) if seat in m.own else None)
        what = "; ".join(e.text for e in told) or "answered"
        return f"game {m.gid[:12]} round {self.played.file.round}: {self.how}: {what}"


@dataclass
class Decision:
    folder: GameFolder
    match: Match
    seat: int
    what: str

    def line(self) -> str:
        return f"duelmail: your move in {self.match.game.spec.title} {self.match.gid[:12]} " \
               f"(round {self.match.round}): {self.what}"


_folds: dict[tuple[str, str], Match] = {}


def fold(folder: GameFolder) -> Match:
    """``folder.fold()``, remembered in this process while the game's files stay the same (a sync reads
    each game several times: to answer, to write its README)."""
    key = (str(folder.path), folder.listing_key())
    match = _folds.get(key)
    if match is None:
        match = folder.fold()
        remember(folder, match, key)
    return match


def remember(folder: GameFolder, match: Match, key: tuple[str, str] | None = None) -> None:
    _folds.clear()  # one game state at a time is plenty
    _folds[key or (str(folder.path), folder.listing_key())] = match


def settled_row(match: Match) -> dict:
    """A finished game's line in the home's index of settled games (``transport/settled.py``)."""
    return {"game": match.gid, "kind": match.game.spec.id, "result": match.describe_outcome()}


def settle_finished(home: Home, folders: Sequence[tuple[GameFolder, Match]], index: GameIndex | None = None) -> None:
    """File the finished games among ``folders`` (each with its state) as settled: no command reads them again
    until a file arrives in one."""
    done = [(folder.path, settled_row(match)) for folder, match in folders if match.finished]
    if done:
        (index or home.index()).settle(done)


def my_games(home: Home, identity: Identity) -> list[tuple[GameFolder, Match, int]]:
    """This identity's games in play (settled games are passed by unread), each folded and attached to its seat."""
    out = []
    index = home.index()
    folded = []
    for folder in home.live_folders(index):
        try:
            me = home.me(folder)
        except DuelmailError:
            continue  # not a game folder any more (its index line is stale): the next listing drops it
        if me.get("identity") not in (None, identity.name) or not folder.genesis_path.exists():
            continue
        hold(folder.path)  # until the poll ends (folders in name order: two processes never deadlock)
        match = fold(folder)
        folded.append((folder, match))
        seat = match.seat_of(identity)
        if seat is None:
            continue
        match.attach(seat, identity)
        out.append((folder, match, seat))
    settle_finished(home, folded, index)
    return out


def answer_duties(home: Home, identity: Identity, now: Callable[[], datetime], bot: str | None = None,
                  rng: random.Random | None = None) -> tuple[list[Answer], list[Decision]]:
    """Answer what needs no decision in every game of this identity; with ``bot``, decisions too
    (and acceptances of new games). What is left for the human comes back as ``Decision``s."""
    rng = rng or random.Random()
    answers, decisions = [], []
    for folder, match, seat in my_games(home, identity):
        settled, _ = app.settle_calls(folder, match, now())  # last calls that ran out here: their claims stand
        if settled is not match:
            match = settled
            match.attach(seat, identity)
        if seat not in match.duties or seat in match.current:  # current: its file of the open round is in already
            continue
        duty = match.duties[seat]
        if match.owes_here(seat) and folder.behind(match.round) is None:  # a last call: the answer is unasked
            played = app.write_note(folder, match, seat, identity, now(), here=True, send=True)
            answers.append(Answer(folder, played, "auto"))
            match = played.match
        behind = folder.behind(match.round)
        if behind is not None:  # nothing is signed: receive the files between first (protocol §5)
            decisions.append(Decision(folder, match, seat, f"this home is behind what you already signed: {behind}"))
            continue
        late = app.late_files(folder, match, seat)
        if late:  # a file came after its sender's time for it: the claim, not an answer built on it (section 6b)
            r, s = late[0]
            decisions.append(Decision(folder, match, seat, f"claim {match.cards[s].name}'s timeout: its file of "
                                      f"round {r} came late ('duelmail claim {match.gid[:12]}')"))
            continue
        if not duty.needs_human and bot is None:  # every such file it owes at once, and a decision it then owes
            written = app.owed(folder, match, seat, identity, now(), send=True)
            answers += [Answer(folder, p, "auto") for p in written]
            match = written[-1].match if written else match
            if seat in match.duties and seat not in match.current and match.duties[seat].needs_human \
                    and not match.duties[seat].join:
                decisions.append(Decision(folder, match, seat, match.duties[seat].describe(
                    match.named(match.state.prompt(seat)) if match.duties[seat].decide else "")))
            continue
        if bot is None:
            what = duty.describe(match.named(match.state.prompt(seat)) if duty.decide else "")
            if duty.join:
                what += f" (accept: duelmail join {folder.genesis_path})"
            decisions.append(Decision(folder, match, seat, what))
            continue
        factory = match.game.bots.get(bot)
        if factory is None:
            raise DuelmailError(f"no bot {bot!r} for {match.game.spec.id} (bots: {', '.join(match.game.bots)})")
        # a bot also decides in a file that needs no decision when the seat becomes a decider within it (its own
        # last deck pass opens its hand and the coin toss chose it): one file, and no wait for another poll
        actions = app.bot_actions(match, seat, identity, factory(), rng)
        answers.append(Answer(folder, app.write_turn(folder, match, seat, identity, actions, now(), send=True),
                              f"bot {bot}" if actions or duty.needs_human else "auto"))
    return answers, decisions


def last_played(folder: GameFolder, match: Match, seat: int) -> app.Played:
    """This seat's newest file of a game, for sending (again)."""
    mine = [(w, f) for w, f in folder.files() if f.seat == seat and f.kind != "genesis"]
    if not mine:
        where, f = next((w, f) for w, f in folder.files() if f.kind == "genesis")
        if f.seat != seat:
            raise DuelmailError(f"game {match.gid[:12]}: you have written no file yet")
        return app.Played(folder, match, f, Path(where))
    where, f = max(mine, key=lambda wf: (wf[1].round, wf[1].kind == "turn"))
    return app.Played(folder, match, f, Path(where), [e for e in match.events if e.round == f.round])
