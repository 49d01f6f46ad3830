"""What arrives and what goes out: fetch mail, sync git repositories, answer duties, watch.

Everything that arrives is verified by ``app.receive_files`` one file at a time: a bad or forged
file is reported (file, round, rule) and never applied, and the rest still goes on. A file from a
round the game has not reached yet is *held*: kept in the game's folder (``transport/held.py``), its mail
marked processed, and applied once the files between arrive, by whichever transport brings them.
Decision-free duties (acceptances aside: key shares, deck passes, forced reveals) are answered here;
a decision is left to the human, or to a bot when one plays the seat.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import field
from datetime import datetime, timedelta
from pathlib import Path

import tomlkit

from duelmail import app
from duelmail.engine.log import TECHNICAL, Event
from duelmail.engine.match import Match
from duelmail.errors import DuelmailError, FileRefused, unexpected
from duelmail.home import Home
from duelmail.protocol.identity import Identity
from duelmail.protocol.turnfile import SignedFile, parse_any
from duelmail.transport import mail as mailt
from duelmail.transport.archive import TURN_NAME, awaited_text, file_name, ordered
from duelmail.transport.folder import GameFolder
from duelmail.transport.git import GAME_DIR, GitError, GitRepo
from duelmail.transport.held import HeldFiles
from duelmail.util.classes import dataclass
from duelmail.util.fs import atomic_write
from duelmail.util.lock import hold, release_all

NOTHING, DECISION = 0, 10  # 'watch --once' exit statuses (1 is an error, as for every command)


APPLIED = ("applied", "new game")
"""The statuses of an ``Arrival`` that changed a game folder."""


@dataclass
class Arrival:
    """One incoming file and what became of it: applied, duplicate, held, refused, or a new game."""

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
        if self.status == "held":
            return f"{head} is waiting for {self.reason}: kept, and applied as soon as {self.reason} arrives"
        if self.status == "duplicate":
            return f"{head} already applied (nothing changed)"
        if self.status == "new game":
            return f"{head}: a new game ({self.reason})"
        return f"{head} verified and applied" + (f" (it had waited for {self.reason})" if self.reason else "") + \
            "".join(f"\n  {e.text}" for e in self.events) + self.unsigned_lines()


def apply_files(home: Home, identity: Identity | None, files: Sequence[tuple[str, SignedFile]],
                now: datetime | None = None) -> list[Arrival]:
    """Verify and apply each file on its own (in round order); refusals are reported, not raised."""
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
        known = any(p.path.name.endswith("-" + f.game[:12]) for p in home.game_folders())
        if known and f.kind != "genesis" and HeldFiles(app.game_folder_for(home, identity, f, where)).holds(f):
            out.append(Arrival(where, f.game, f.round, f.seat, "duplicate"))  # kept aside already: said once
            continue
        try:
            got = app.receive_files(home, identity, [(where, f)], now, batch=order)
        except Exception as e:  # noqa: BLE001 - a check's own error, or the last line of defence
            if not isinstance(e, DuelmailError):
                e = unexpected(where, e, f.round, f.seat)
            out.append(Arrival(where, f.game, f.round, f.seat, "refused", reason=str(e)))
            continue
        if f.kind == "genesis" and not known:
            m = Match(f, where)
            out.append(Arrival(where, f.game, 0, f.seat, "new game",
                               reason=f"{m.game.spec.title}, seats {', '.join(m.names())}"))
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
    events = r.match.told_to(r.events, r.match.reader_faces(identity)) if r.match is not None else r.events
    return Arrival(r.path, game, r.round, r.seat, "duplicate" if r.duplicate else "applied", events,
                   reason=r.waited)


# -- duties ------------------------------------------------------------------------------------
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


def my_games(home: Home, identity: Identity) -> list[tuple[GameFolder, Match, int]]:
    out = []
    for folder in home.game_folders():
        me = home.me(folder)
        if me.get("identity") not in (None, identity.name):
            continue
        hold(folder.path)  # until the poll ends (folders in name order: two processes never deadlock)
        match = fold(folder)
        seat = match.seat_of(identity)
        if seat is None:
            continue
        match.attach(seat, identity)
        out.append((folder, match, seat))
    return out


def answer_duties(home: Home, identity: Identity, now: Callable[[], datetime], bot: str | None = None,
                  rng: random.Random | None = None) -> tuple[list[Answer], list[Decision]]:
    """Answer what needs no decision in every game of this identity; with ``bot``, decisions too
    (and acceptances of new games). What is left for the human comes back as ``Decision``s."""
    rng = rng or random.Random()
    answers, decisions = [], []
    for folder, match, seat in my_games(home, identity):
        if seat not in match.duties or seat in match.current:  # current: its file of the open round is in already
            continue
        duty = match.duties[seat]
        if not duty.needs_human and bot is None:
            answers.append(Answer(folder, app.write_turn(folder, match, seat, identity, [], now()), "auto"))
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
        answers.append(Answer(folder, app.write_turn(folder, match, seat, identity, actions, now()),
                              f"bot {bot}" if actions or duty.needs_human else "auto"))
    return answers, decisions


# -- mail --------------------------------------------------------------------------------------
@dataclass
class MailReport:
    letters: int = 0
    arrivals: list[Arrival] = field(default_factory=list)
    ignored: int = 0  # messages with no duelmail turn in them
    processed: str = ""  # what was done with the processed messages
    aside: int = 0  # messages holding a refused file, set aside
    aside_how: str = ""


def fetch_mail(home: Home, identity: Identity | None, source: mailt.Source, now: datetime | None = None
               ) -> MailReport:
    """Read every new message of a source, verify and apply the turns in them, mark the messages done.

    A message whose files were all applied, duplicates or held (kept in the home until the files between
    arrive) is marked processed; one holding a file
    that cannot be read or is refused is set aside (``Letter.set_aside``), so it is reported once and
    never stops the messages behind it."""
    report = MailReport(processed=source.processed, aside_how=source.aside)
    letters = []
    files: list[tuple[str, SignedFile]] = []
    try:
        for letter in source.letters():
            report.letters += 1
            found = mailt.find_turns(letter.msg, letter.where)  # never raises for a part it cannot read
            for problem in found.problems:
                report.arrivals.append(Arrival(letter.where, "?", 0, -1, "refused", reason=problem))
            if not found.files and not found.problems:
                report.ignored += 1
                letter.skip()
                continue
            letters.append((letter, found))
            files += [(f"{letter.where} ({file_name(f)})", f) for f in found.files]
        arrivals = apply_files(home, identity, files, now)
        for letter, found in letters:  # a person's words go with the first file of their message
            first = next((a for a in arrivals if found.files and a.where == f"{letter.where} "
                          f"({file_name(found.files[0])})"), None)
            if first is not None:
                first.unsigned = found.unsigned
        report.arrivals += arrivals
        refused = {a.where for a in arrivals if a.status == "refused"}
        for letter, found in letters:  # a file held for later is in the home now: its message is done too
            names = {f"{letter.where} ({file_name(f)})" for f in found.files}
            if found.problems or names & refused:
                letter.set_aside()  # reported now, never read again: it cannot stall the next fetch
                report.aside += 1
            else:
                letter.done()
        source.commit()  # every letter dealt with: the next fetch looks only at newer mail
    finally:
        source.close()
    return report


def mail_answers(identity: Identity, answers: Sequence[app.Played], now: datetime,
                 settings: mailt.MailSettings, password: Callable[[], str]) -> list[str]:
    """Mail each new file to every other seat of its game; one line per message sent."""
    messages, lines = [], []
    for p in answers:
        seat = p.file.seat
        sender = settings.address or identity.email
        to = mailt.recipients_for(p.match, seat)
        messages.append(mailt.compose(p.match, p.file, sender, to, now, p.events))
        lines.append(f"mailed round {p.file.round} of {p.match.gid[:12]} to {', '.join(to)}")
    mailt.send(settings, messages, password)
    return lines


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


# -- git ---------------------------------------------------------------------------------------
@dataclass
class SyncReport:
    repo: Path
    committed: list[str] = field(default_factory=list)
    arrivals: list[Arrival] = field(default_factory=list)
    pushed: bool = False
    recovered: list[str] = field(default_factory=list)  # what a sync stopped half-way had left, put in order


def repos(home: Home) -> list[Path]:
    p = mailt.config_path(home)
    cfg = tomllib.loads(p.read_text()) if p.exists() else {}
    return [Path(r) for r in cfg.get("git", {}).get("repos", [])]


def add_repo(home: Home, path: Path) -> None:
    p = mailt.config_path(home)
    doc = tomlkit.parse(p.read_text()) if p.exists() else tomlkit.document()
    table = doc.get("git") or tomlkit.table()
    known = [str(r) for r in table.get("repos", [])]
    if str(path) not in known:
        known.append(str(path))
    table["repos"] = known
    doc["git"] = table
    atomic_write(p, tomlkit.dumps(doc), mode=0o600)


def _commit_message(folder_name: str, f: SignedFile, text: str) -> str:
    """A commit message saying what happened: the events as its title, the file's human header as its body."""
    head = [line[2:] for line in text.splitlines() if line.startswith("# ")]
    events = [h.strip() for h in head[1:] if h.startswith("  ")]
    if f.kind == "genesis":
        what = "new game" + (f" ({head[1]})" if len(head) > 1 else "")
    else:
        who = re.search(r"\(([^()]*)\)$", head[0]) if head else None
        play = [e for e in events if not TECHNICAL.search(e)]  # the play first: a title has room for 100 characters
        what = "; ".join(play or events) or f"{who.group(1) if who else f'seat {f.seat}'} sent a file with nothing " \
                                            "to tell"
    head = [_CONTROL.sub("", h) for h in head]  # a header is the sender's, unsigned: no terminal controls in git log
    what = _CONTROL.sub("", what)
    title = f"{folder_name} round {f.round}: {what}"
    title = title if len(title) <= 100 else title[:97] + "..."
    return "\n".join([title, "", *head]) if head else title


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
_MARKDOWN = re.compile(r"([\\`*_\[\]!|~])")


def md_text(text: str) -> str:
    """Text a player wrote (a name, talk, an event naming them), escaped for a README that hosting sites render as
    markdown with HTML: ``<``, ``>`` and ``&`` as entities (no tag, no ``<meta>``, no autolink), the markdown marks
    (``[``, ``]``, ``!``, ``*``, ``_``, ``|``...) behind a backslash (no link, no image, no emphasis, no table),
    and a line break as a space."""
    import html

    return _MARKDOWN.sub(r"\\\1", html.escape(" ".join(text.splitlines()), quote=False))


def readme_text(match: Match) -> str:
    """A game's README in the repository: the picture of the table (``table.svg`` beside it), whose move, the
    last events in words, a link to the replay page (``replay.html``) and the table as text."""
    table = match.named(match.state.render(None, match.known(None)))
    lines = [f"# {match.game.spec.title} {match.gid[:12]}", "",
             f"Players: {', '.join(md_text(c.name) for c in match.cards)}", "",
             f"Round {match.round}. " + md_text(f"Game over: {match.describe_outcome()}." if match.over()
                                                else f"Awaiting {awaited_text(match)}."), ""]
    if match.state.picture(None, {}) is not None:
        lines += ["![The table, as everyone can see it](table.svg)", ""]
    lines += ["Last events:", ""]
    lines += [f"- round {e.round}: {md_text(e.text)}"
              for e in match.told_to([e for e in match.events if not e.technical][-8:])]
    lines += ["", "[Step through the game (replay page)](replay.html): download it, or publish the repository's "
              "replays with `duelmail git site`.", "",
              "The table in text:", "",
              *("    " + line for line in table.rstrip().splitlines()),
              "", "Kept by duelmail (`duelmail git sync`); the turn files beside it are the game, this is only a view."]
    return "\n".join(lines) + "\n"


def _game_views(folder: GameFolder, match: Match, target: Path) -> list[str]:
    """The picture (``table.svg``) and replay page (``replay.html``) kept beside a game's README; the names
    of those that changed."""
    from duelmail.replay import build_replay, render_html

    changed = []
    svg = match.state.picture(None, match.known(None), match.names())
    pages = {"table.svg": svg, "replay.html": render_html(build_replay(folder.files()))}
    for name, text in pages.items():
        p = target / name
        if text is not None and (not p.exists() or p.read_text() != text):
            atomic_write(p, text)
            changed.append(f"{target.name}/{name}")
    return changed


def sync_git(home: Home, identity: Identity, path: Path, now: datetime | None = None,
             games: Sequence[GameFolder] = (), attempts: int = 5) -> SyncReport:
    """Commit this home's new files, fetch, verify what others pushed (apply the good, report the bad),
    rebase, rewrite the README files, push; when the remote moved meanwhile, go round again."""
    repo = GitRepo(path, (identity.name, identity.email))
    if not repo.is_repo():
        raise GitError(f"{path}: not a git repository: run 'duelmail git init {path}' or clone one there")
    report = SyncReport(Path(path))
    report.recovered = repo.recover()  # a sync killed half-way: finished or undone before this one starts
    for _ in range(attempts):
        report.committed += _export(home, repo, games)
        ref = repo.fetch()
        tree = ref or ("HEAD" if repo.has_commits() else None)
        if tree is not None:
            report.arrivals += _take_in(home, identity, repo, tree, now)
        if ref is not None:
            repo.integrate(ref)
            report.committed += _export(home, repo, games)  # put back what the remote's commits overwrote
        _write_readmes(home, repo)
        if repo.push():
            report.pushed = repo.remote() is not None
            report.recovered += repo.aside
            return report
    raise GitError(f"{path}: the remote kept moving; {attempts} pushes were rejected (try again)")


def _take_in(home: Home, identity: Identity, repo: GitRepo, tree: str, now: datetime | None) -> list[Arrival]:
    """Verify and apply the files of ``tree``'s history this home lacks (every version ever committed, so
    an overwritten or deleted turn still arrives); refused ones are reported once."""
    refused = repo.refused()
    parsed: list[tuple[str, SignedFile]] = []
    blobs: dict[str, str] = {}
    out: list[Arrival] = []
    for path, blob, commit in repo.history_files(tree):
        if blob in refused or (home.games_dir / path).exists():
            continue
        where = f"{path} (commit {commit})"
        blobs[where] = blob
        try:
            files = parse_any(repo.read(tree, path, blob, commit).text, where)
            for f in files:
                _check_name(path, f, len(files), where)
            parsed += [(where, f) for f in files]
        except Exception as e:  # noqa: BLE001 - a parser's own error, or the last line of defence
            out.append(Arrival(where, "?", 0, -1, "refused",
                               reason=str(e if isinstance(e, DuelmailError) else unexpected(where, e))))
    out += apply_files(home, identity, parsed, now)
    by_hash = {f.file_hash: blobs[w] for w, f in parsed if w in blobs}  # a held file refused now: its blob here
    repo.remember_refused(blobs.get(a.where) or by_hash[a.file_hash] for a in out
                          if a.status == "refused" and (a.where in blobs or a.file_hash in by_hash))
    return out


def _check_name(path: str, f: SignedFile, count: int, where: str) -> None:
    """A file in a repository sits only under its own name (game folder, round, seat, kind): anything else
    at a turn's path (a copy of another file, a forgery) is a squatter, refused and reported."""
    folder, name = path.split("/")
    if count != 1 or name != file_name(f) or not folder.endswith("-" + f.game[:12]):
        what = f"{count} files" if count != 1 else f"game {f.game[:12]}'s {file_name(f)}"
        raise FileRefused(where, f"{path} holds {what}: a file may only sit under its own name "
                                 "(a squatter on another file's name)", round=f.round, seat=f.seat, rule="P-format")


def _body(text: str) -> str:
    """A file's text without its human header (the comment lines each home writes its own way)."""
    lines = text.splitlines()
    while lines and (lines[0].startswith("#") or not lines[0].strip()):
        lines.pop(0)
    return "\n".join(lines)


def same_file(ours: str, theirs: str, where: str) -> bool:
    if _body(ours) == _body(theirs):
        return True
    try:
        (a,), (b,) = parse_any(ours, where), parse_any(theirs, where)
        return a.file_hash == b.file_hash
    except Exception:  # noqa: BLE001 - whatever sits there is not this file
        return False


def _export(home: Home, repo: GitRepo, games: Sequence[GameFolder]) -> list[str]:
    """Copy this home's files of the games kept in the repository (and of ``games``) into it: one commit
    per game, its README rewritten in the same commit. A file missing from the repository, or another file
    sitting under its name (a squatter's, or an overwrite), is written (again): nothing pushed under an
    honest file's name can keep it out."""
    messages = []
    wanted = {g.path.name for g in games}
    for folder in home.game_folders():
        was = len(repo.aside)
        target = repo.plain(folder.path.name, folder=True)
        if len(repo.aside) > was:  # the game's folder was a link someone pushed: written again in its place
            target.mkdir()
        if folder.path.name not in wanted and not target.is_dir():
            continue
        newest, replaced = None, []
        tracked = repo.tracked(folder.path.name) if target.is_dir() else set()
        for p in sorted(folder.path.iterdir(), key=lambda p: (p.name != "genesis.toml", p.name)):
            if not (p.name == "genesis.toml" or TURN_NAME.fullmatch(p.name)):
                continue
            text = p.read_text()
            there = repo.plain(f"{folder.path.name}/{p.name}")
            if there.exists() and f"{folder.path.name}/{p.name}" in tracked:  # (written, not added: a kill)
                if same_file(text, there.read_text(errors="replace"), str(there)):
                    continue
                replaced.append(p.name)
            (f,) = parse_any(text, str(p))
            atomic_write(there, text)
            repo.add(f"{folder.path.name}/{p.name}")
            newest = (f, text)
        if newest is not None:
            _write_readmes(home, repo, commit=False)
            msg = _commit_message(folder.path.name, *newest)
            if replaced:
                msg = msg.replace("\n", f" (replacing a foreign {', '.join(replaced)})\n", 1) if "\n" in msg \
                    else f"{msg} (replacing a foreign {', '.join(replaced)})"
            seats = parse_any((folder.path / "genesis.toml").read_text(), "genesis.toml")[0].content["seats"]
            who = seats[newest[0].seat]
            if repo.commit(msg, author=(who["name"], who["email"])):
                messages.append(msg.splitlines()[0])
    return messages


def _write_readmes(home: Home, repo: GitRepo, commit: bool = True) -> None:
    """Rewrite each game's README (and the index) from this home's state; a game whose files did not
    change since the last rewrite is not folded again (``.readme.toml`` in the home's game folder)."""
    changed = []
    names = []
    for folder in home.game_folders():
        target = repo.plain(folder.path.name, folder=True)
        if not target.is_dir():
            continue
        for name in ("README.md", "table.svg", "replay.html"):
            repo.plain(f"{folder.path.name}/{name}")
        memo = folder.path / ".readme.toml"
        old = tomllib.loads(memo.read_text()) if memo.exists() else {}
        key = folder.listing_key()
        if old.get("key") == key and (target / "README.md").exists():
            text, line = (target / "README.md").read_text(), old.get("line", "")
            if text == old.get("text"):
                names.append(line)
                continue
        match = fold(folder)
        text = readme_text(match)
        changed += _game_views(folder, match, target)
        line = (f"- [{folder.path.name}]({folder.path.name}/README.md): {match.game.spec.title}, "
                + md_text(f"over: {match.describe_outcome()}" if match.over() else
                          f"round {match.round}, awaiting {awaited_text(match)}"))
        names.append(line)
        atomic_write(memo, tomlkit.dumps({"key": key, "line": line, "text": text}))
        p = target / "README.md"
        if not p.exists() or p.read_text() != text:
            atomic_write(p, text)
            changed.append(f"{folder.path.name}/README.md")
    mine = {folder.path.name for folder in home.game_folders()}
    names += [f"- [{p.name}]({p.name}/README.md)" for p in sorted(repo.path.iterdir())
              if p.is_dir() and not p.is_symlink() and p.name not in mine and GAME_DIR.fullmatch(p.name)]
    root = repo.plain("README.md")
    text = "\n".join(["# duelmail games", "", "One folder per game; each holds its signed turn files.", "",
                      *sorted(names), "", "Play with `duelmail play ... --push` or `duelmail git sync`.", ""])
    if names and (not root.exists() or root.read_text() != text):
        atomic_write(root, text)
        changed.append("README.md")
    if changed:
        repo.add(*changed)
        if commit:
            repo.commit("duelmail: README files show the current position")


# -- reminders ---------------------------------------------------------------------------------
def by_git(home: Home, folder: GameFolder) -> bool:
    """Whether a game is kept in one of this home's git repositories (then it travels by git, never by mail)."""
    return any((repo / folder.path.name).is_dir() for repo in repos(home))


def due_notices(match: Match, mine: int, now: datetime) -> list[tuple[str, int, datetime]]:
    """What the time control calls for now: ``("reminder", seat, deadline)`` for another seat whose decision is
    due within ``reminder_hours``, ``("timeout", seat, deadline)`` for one whose deadline has passed."""
    out = []
    if match.over():
        return out
    for s, due in match.deadlines().items():
        if s == mine:
            continue
        if now > due:
            out.append(("timeout", s, due))
        elif match.duties[s].needs_human and due - now <= timedelta(hours=match.tc.reminder_hours):
            out.append(("reminder", s, due))  # a person's decision: a machine's answer needs no reminder
    return out


def send_reminders(home: Home, identity: Identity, now: datetime, settings: mailt.MailSettings,
                   password: Callable[[], str]) -> list[str]:
    """Mail every reminder and timeout note the time control calls for in this home's mail games, each once per
    deadline (``.notices.toml`` in the game folder remembers them); one line per message sent."""
    messages, lines, marks = [], [], []
    for folder in home.game_folders():
        if by_git(home, folder):
            continue
        me = home.me(folder)
        seat = me.get("seat")
        if seat is None or me.get("identity", identity.name) != identity.name:
            continue
        match = fold(folder)
        memo = folder.path / ".notices.toml"
        sent = set(tomllib.loads(memo.read_text()).get("sent", [])) if memo.exists() else set()
        new = []
        for kind, late, due in due_notices(match, seat, now):
            key = f"{kind} {late} {due.isoformat()}"
            if key in sent:
                continue
            if kind == "reminder":
                to = [match.cards[late].email]
            else:
                to = [c.email for s, c in enumerate(match.cards) if s != late]  # the watcher's player too
                lines.append(f"duelmail: {match.cards[late].name}'s time ran out in {match.game.spec.title} "
                             f"{match.gid[:12]}: 'duelmail claim {match.gid[:12]}' claims the game")
            if to:
                messages.append(mailt.compose_notice(match, kind, late, seat, settings.address or identity.email, to,
                                                     due, now))
                lines.append(f"mailed a {kind} about {match.cards[late].name} in {match.gid[:12]} to {', '.join(to)}")
            new.append(key)
        if new:
            marks.append((memo, sorted(sent | set(new))))
    mailt.send(settings, messages, password)
    for memo, keys in marks:  # remembered once sent: a server down means trying again at the next poll
        atomic_write(memo, tomlkit.dumps({"sent": keys}))
    return lines


# -- watching ----------------------------------------------------------------------------------
@dataclass
class Poll:
    arrivals: list[Arrival] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


class Carrier:
    """Something turns travel by: ``pull`` brings files in, ``push`` sends this home's new files out, ``remind``
    tells players whose deadline is near (or past)."""

    name = "carrier"

    def remind(self, home: Home, identity: Identity, now: datetime) -> list[str]:
        return []

    def pull(self, home: Home, identity: Identity, now: datetime) -> list[Arrival]:
        raise NotImplementedError

    def push(self, home: Home, identity: Identity, answers: Sequence[Answer], now: datetime) -> list[str]:
        raise NotImplementedError


class MailCarrier(Carrier):
    def __init__(self, settings: mailt.MailSettings, password: Callable[[mailt.MailSettings, str, str], str],
                 source: str | None = None):
        self.settings, self.password, self.source = settings, password, source
        self.name = f"mail {source or settings.imap_user + '@' + settings.imap_host}"

    def pull(self, home, identity, now):
        src = mailt.open_source(self.source, lambda: self.settings, self.password, home_root=home.root)
        return fetch_mail(home, identity, src, now).arrivals

    def push(self, home, identity, answers, now):
        s = self.settings
        answers = [a for a in answers if not by_git(home, a.folder)]  # a game played by git is never mailed
        if not answers:
            return []
        if not s.smtp_host:
            return ["answers written; no SMTP host set up, so send them with 'duelmail mail send'"]
        return mail_answers(identity, [a.played for a in answers], now, s,
                            lambda: self.password(s, s.smtp_user, s.smtp_host))

    def remind(self, home, identity, now):
        s = self.settings
        if not s.smtp_host:
            return []
        return send_reminders(home, identity, now, s, lambda: self.password(s, s.smtp_user, s.smtp_host))


class GitCarrier(Carrier):
    def __init__(self, path: Path):
        self.path = Path(path)
        self.name = f"git {path}"

    def pull(self, home, identity, now):
        rep = sync_git(home, identity, self.path, now)
        self.notes = [f"{self.path}: {line}" for line in rep.recovered]
        return rep.arrivals

    def push(self, home, identity, answers, now):
        rep = sync_git(home, identity, self.path, now)
        return [f"{self.path}: {line}" for line in rep.recovered] + [f"{self.path}: committed {c}"
                                                                      for c in rep.committed]

    def remind(self, home, identity, now):
        notes, self.notes = getattr(self, "notes", []), []  # what the pull set aside or put in order, said once
        return notes


def poll(home: Home, identity: Identity, carriers: Sequence[Carrier], clock: Callable[[], datetime],
         bot: str | None = None, rng: random.Random | None = None,
         after: Callable[[Poll], None] | None = None) -> Poll:
    """One round of watching: pull from every carrier, answer what can be answered, push the answers; then
    ``after(poll)``, while this process still holds the games it changed."""
    out = Poll()
    try:
        for c in carriers:
            out.arrivals += c.pull(home, identity, clock())
        out.lines += [a.line() for a in out.arrivals if a.status != "duplicate"]
        out.answers, out.decisions = answer_duties(home, identity, clock, bot, rng)
        out.lines += [a.line() for a in out.answers]
        if out.answers:
            for c in carriers:
                out.lines += c.push(home, identity, out.answers, clock())
        out.lines += [d.line() for d in out.decisions]
        for c in carriers:
            out.lines += c.remind(home, identity, clock())
        if after is not None:
            after(out)
    finally:
        release_all()  # the player's own commands may run between polls
    return out


def watch(home: Home, identity: Identity, carriers: Sequence[Carrier], *, clock: Callable[[], datetime],
          sleep: Callable[[float], None], say: Callable[[str], None], interval: float = 300, once: bool = False,
          bot: str | None = None, rng: random.Random | None = None, polls: int | None = None,
          after: Callable[[Poll], None] | None = None) -> int:
    """Poll every ``interval`` seconds (``polls`` times, or for ever), ``after`` each poll (see ``poll``); an error
    is said and the watch goes on. In ``once`` mode: one poll, errors raise, and the exit status says whether a
    decision of yours awaits (``DECISION``) or not (``NOTHING``)."""
    if not carriers:
        raise DuelmailError("nothing to watch: set up mail ('duelmail mail setup') or a repository "
                            "('duelmail git init DIR')")
    if interval <= 0:
        raise DuelmailError(f"--interval must be positive, not {interval}")
    n = 0
    told: set[tuple[str, int]] = set()
    while True:
        try:
            p = poll(home, identity, carriers, clock, bot, rng, after)
        except (DuelmailError, OSError) as e:
            if once:
                raise
            say(f"duelmail watch: {e} (trying again in {interval:g} s)")  # a server down must not end the watch
            p = Poll()
        for line in p.lines:
            if line.startswith("duelmail: your move"):
                continue
            say(line)
        for d in p.decisions:  # one line per decision, said once (not at every poll)
            key = (d.match.gid, d.match.round)
            if once or key not in told:
                say(d.line())
                told.add(key)
        n += 1
        if once:
            return DECISION if p.decisions else NOTHING
        if polls is not None and n >= polls:
            return DECISION if p.decisions else NOTHING
        sleep(interval)
