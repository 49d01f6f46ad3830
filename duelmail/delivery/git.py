"""How turns travel through a shared git repository: ``sync_git`` commits this home's new files, fetches,
verifies what others pushed, rebases, rewrites each game's README (with its picture and replay page) and pushes.
The mechanics of the ``git`` binary are in ``duelmail.transport.git``."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from collections.abc import Sequence
from dataclasses import field
from datetime import datetime
from pathlib import Path

import tomlkit

from duelmail.delivery.arrivals import Arrival, apply_files, fold, settle_finished
from duelmail.engine.log import TECHNICAL
from duelmail.engine.match import Match
from duelmail.errors import DuelmailError, FileRefused, unexpected
from duelmail.home import Home
from duelmail.protocol.identity import Identity
from duelmail.protocol.turnfile import SignedFile, parse_any
from duelmail.transport import mail as mailt
from duelmail.transport.archive import TURN_NAME, awaited_text, file_name, genesis_prefix, proof_name
from duelmail.transport.folder import GameFolder
from duelmail.transport.git import GAME_DIR, LISTING, SHELF, SHELVE_AT, GitError, GitRepo, blob_id
from duelmail.transport.settled import MARK, GameIndex
from duelmail.util.classes import dataclass
from duelmail.util.fs import atomic_write


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
    from duelmail.games.base import for_player

    table = for_player(match.named(match.state.render(None, match.known(None))))
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
    rebase, rewrite the README files, push; when the remote moved meanwhile, go round again.

    What it looked at is remembered (``_recall``): the next sync reads only the commits pushed since, and looks
    only at the games in play, those settled since and those the new commits touch; without that memory (a
    fresh clone, a new index, history it no longer holds) it reads the whole history and every game."""
    repo = GitRepo(path, (identity.name, identity.email))
    if not repo.is_repo():
        raise GitError(f"{path}: not a git repository: run 'duelmail git init {path}' or clone one there")
    report = SyncReport(Path(path))
    report.recovered = repo.recover()  # a sync killed half-way: finished or undone before this one starts
    index = home.index()
    repo.sparse(lambda: _cone(home, repo, index.live, games))  # a large clone: its games in play in the working tree
    repo.split_index()  # else git's index written in proportion to what changed (a clone made before: once, here)
    memory = _recall(home, repo, index)
    look: set[str] | None = None
    if memory is not None:
        look = set(index.live) | set(index.rows(since=memory["rows"])) | {g.path.name for g in games}
    seen = dict(memory or {}, rows=index.rows_size, generation=index.generation)
    for _ in range(attempts):
        report.committed += _export(home, repo, games, look)
        took = len(report.arrivals)
        ref = repo.fetch()
        tree = ref or ("HEAD" if repo.has_commits() else None)
        if tree is not None:
            head = repo.out("rev-parse", "--verify", f"{tree}^{{commit}}")
            report.arrivals += _take_in(home, identity, repo, head, now, seen)
            if look is not None and seen.get("touched") is None:
                look = None  # what was remembered is no commit here: every game is looked at
            elif look is not None:
                look |= seen["touched"]
        if ref is not None and not repo.holds(ref):  # held already: no rebase (git would stat the whole tree)
            if not repo.fast_forward(ref):  # only the files the new commits changed are written
                report.recovered += repo.commit_leftovers()  # (the clean mark spared recover this look)
                repo.integrate(ref)
            back = _taken_out(home, repo, seen.get("folders") or ())
            report.committed += _export(home, repo, games, look, back)  # put back what the remote's commits
            # overwrote, and the folders they took out of games not finished
        elif (back := _taken_out(home, repo, seen.get("folders") or ())) \
                or any(a.status != "duplicate" for a in report.arrivals[took:]):  # (a proof to send on goes out)
            report.committed += _export(home, repo, games, look, back)
        _write_readmes(home, repo, look=look)
        report.committed += _shelve(home, repo)
        if (ref is not None and repo.out("rev-parse", "HEAD") == head) or repo.push():  # nothing new to push
            report.pushed = repo.remote() is not None
            report.recovered += repo.aside
            if seen.get("commit"):
                _remember(home, repo, seen)
            repo.flush()  # git's index of what the sync wrote and did not commit itself (a fast-forward's files)
            repo.narrow([n for n in repo.cone or () if (home.games_dir / n / MARK).exists()])  # finished: leave
            repo.mark_clean()
            return report
    raise GitError(f"{path}: the remote kept moving; {attempts} pushes were rejected (try again)")


def _cone(home: Home, repo: GitRepo, live: Sequence[str], games: Sequence[GameFolder]) -> set[str]:
    """The folders a large clone keeps in its working tree (``GitRepo.sparse``): the finished games' listings, this
    home's games in play (and those being created or joined), and the others' games the index lists in play."""
    root = repo.path / "README.md"
    text = root.read_text(errors="replace") if root.is_file() and not root.is_symlink() else ""
    others = {m.group(1) for line in text.splitlines() if (m := _INDEX_LINE.fullmatch(line))}
    return {"finished", *live, *(g.path.name for g in games), *others}


def _memory_path(home: Home, repo: GitRepo) -> Path:
    where = str(repo.path.resolve())
    return home.root / "index" / f"git-{hashlib.sha256(where.encode()).hexdigest()[:16]}.json"


def _recall(home: Home, repo: GitRepo, index: GameIndex) -> dict | None:
    """What the last sync of this home with ``repo`` took in: the commit it read up to, files it held back (ahead
    of their game), and the index it looked at (its ``generation`` and how many games were settled then). None
    when there is no such memory, or it belongs to another index or repository."""
    try:
        memo = json.loads(_memory_path(home, repo).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (isinstance(memo, dict) and memo.get("repo") == str(repo.path.resolve())
            and memo.get("generation") == index.generation
            and isinstance(memo.get("commit"), str) and re.fullmatch(r"[0-9a-f]{40}", memo["commit"])
            and isinstance(memo.get("rows"), int) and 0 <= memo["rows"] <= index.rows_size
            and isinstance(memo.get("held"), list)
            and all(isinstance(h, list) and len(h) == 3 and all(isinstance(x, str) for x in h) for h in memo["held"])):
        return None
    return memo


def _remember(home: Home, repo: GitRepo, seen: dict) -> None:
    memo = {k: seen[k] for k in ("commit", "generation", "rows", "held")}
    try:
        atomic_write(_memory_path(home, repo), json.dumps({"repo": str(repo.path.resolve()), **memo}), durable=False)
    except OSError:
        pass  # a memory only saves time: the next sync reads everything


def _take_in(home: Home, identity: Identity, repo: GitRepo, tree: str, now: datetime | None,
             seen: dict | None = None) -> list[Arrival]:
    """Verify and apply the files of ``tree``'s history this home lacks (every version ever committed, so
    an overwritten or deleted turn still arrives); refused ones are reported once. ``seen``: what an earlier
    sync took in (``commit``, files ``held`` back): only the commits since are read, and the held files again;
    updated to what this one took in, with the game folders the new commits ``touched`` (None: all were read)."""
    seen = seen if seen is not None else {}
    since = seen.get("commit")
    found = repo.history_since(since, tree) if since else None
    if found is None:
        files, seen["touched"] = repo.history_files(tree), None
    else:
        files, seen["touched"] = found
        files += [tuple(h) for h in seen.get("held", []) if tuple(h) not in set(files)]
    refused = repo.refused() if files else set()  # read only when there is something new to look at
    parsed: list[tuple[str, SignedFile]] = []
    blobs: dict[str, tuple[str, str, str]] = {}
    out: list[Arrival] = []
    wanted = [(path, blob, commit) for path, blob, commit in files
              if blob not in refused and not (home.games_dir / path).exists()]
    for (path, blob, commit), got in zip(wanted, repo.read_many(wanted), strict=True):  # (two git processes)
        where = f"{path} (commit {commit})"
        blobs[where] = (path, blob, commit)
        try:
            if isinstance(got, Exception):
                raise got
            parts = parse_any(got.text, where)
            for f in parts:
                _check_name(path, f, len(parts), where)
            parsed += [(where, f) for f in parts]
        except Exception as e:  # noqa: BLE001 - a parser's own error, or the last line of defence
            out.append(Arrival(where, "?", 0, -1, "refused",
                               reason=str(e if isinstance(e, DuelmailError) else unexpected(where, e))))
    out += apply_files(home, identity, parsed, now)
    by_hash = {f.file_hash: blobs[w] for w, f in parsed if w in blobs}  # a held file refused now: its blob here
    repo.remember_refused([(blobs.get(a.where) or by_hash[a.file_hash])[1] for a in out
                           if a.status == "refused" and (a.where in blobs or a.file_hash in by_hash)])
    seen.update(commit=tree, held=[list(blobs[a.where]) for a in out if a.status in ("held", "later")
                                   and a.where in blobs])  # (later: no room in the held store yet, read again)
    seen["folders"] = seen["touched"] if seen["touched"] is not None else {p.split("/", 1)[0] for p, _, _ in files}
    return out


def _taken_out(home: Home, repo: GitRepo, names) -> list[GameFolder]:
    """Of the game folders the commits just read touched (``names``: every folder of the history when it was read
    whole), this home's games not settled whose folder the branch in play no longer holds. A finished one was moved
    to the finished games' branch: it is settled here too. One not finished was taken out by someone (deleted, or
    moved while in play): ``_export`` writes it again, so nothing pushed can stop a game."""
    head = repo.folders() if repo.cone is not None and names else None
    out, done = [], []
    for n in sorted(names):
        here = home.games_dir / n
        if (here / MARK).exists() or not (here / "genesis.toml").is_file() \
                or (n in head if head is not None else (repo.path / n).is_dir()):
            continue
        folder = GameFolder(here, home.root)
        match = fold(folder)
        (done if match.finished else out).append((folder, match))
    settle_finished(home, done)  # (finished, moved to the finished games' branch: folded once, here)
    return [folder for folder, _ in out]


def _check_name(path: str, f: SignedFile, count: int, where: str) -> None:
    """A file in a repository sits only under its own name (game folder, round, seat, kind): anything else
    at a turn's path (a copy of another file, a forgery) is a squatter, refused and reported."""
    folder, name = path.split("/")
    own = name == file_name(f) or (f.kind == "turn" and name == proof_name(f))  # (a second file: the proof, §5)
    if count != 1 or not own or not folder.endswith("-" + f.game[:12]):
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


def _looked_at(home: Home, look: set[str] | None) -> list[GameFolder]:
    """The home's games a sync looks at: all of them, or those named in ``look`` that are game folders."""
    if look is None:
        return home.game_folders()
    return [GameFolder(home.games_dir / n, home.root) for n in sorted(look)
            if (home.games_dir / n / "genesis.toml").exists()]


def _export(home: Home, repo: GitRepo, games: Sequence[GameFolder], look: set[str] | None = None,
            back: Sequence[GameFolder] = ()) -> list[str]:
    """Copy this home's files of the games kept in the repository (and of ``games``) into it: one commit
    per game, its README rewritten in the same commit. A file missing from the repository, or another file
    sitting under its name (a squatter's, or an overwrite), is written (again): nothing pushed under an
    honest file's name can keep it out. ``look``: only these games (see ``sync_git``); ``back``: games whose folder
    someone took out of the repository, written again whole (``_taken_out``)."""
    messages = []
    wanted = {g.path.name for g in [*games, *back]}
    gone = {g.path.name for g in back}
    look = None if look is None else look | gone
    folders = _looked_at(home, look)
    committed = repo.committed([f.path.name for f in folders if repo.outside(f.path.name) or (
        (repo.path / f.path.name).is_dir() and not (repo.path / f.path.name).is_symlink())])  # one read of HEAD's trees
    held = {k.split("/", 1)[0] for k in committed}
    differ = _left_out_differing(repo, [f for f in folders if repo.outside(f.path.name)], wanted, held, committed)
    for folder in folders:
        if repo.outside(folder.path.name):  # left out of a sparse clone's working tree: put back if a file differs
            if folder.path.name not in differ:
                continue  # not in the repository, or HEAD holds every file as this home does
            repo.widen([folder.path.name])
        was = len(repo.aside)
        target = repo.plain(folder.path.name, folder=True)
        if len(repo.aside) > was:  # the game's folder was a link someone pushed: written again in its place
            target.mkdir()
        if folder.path.name not in wanted and not target.is_dir():
            continue
        newest, proof, replaced, added, copy_only = None, None, [], [], True
        log = sorted(folder.path.iterdir(), key=lambda p: (p.name != "genesis.toml", p.name))
        for p in [*log, *folder.kept_forwards()]:  # and the equivocator's file kept to send on: the others' proof
            if not (p.name == "genesis.toml" or TURN_NAME.fullmatch(p.name)):
                continue
            data = p.read_bytes()
            key = f"{folder.path.name}/{p.name}"
            if committed.get(key) == blob_id(data):  # HEAD holds this very file: nothing to read or write
                continue
            text = p.read_text()
            there = repo.plain(key)
            if there.exists() and key in committed:  # (written, not committed: a kill, put in order by recover)
                theirs = there.read_text(errors="replace")
                if same_file(text, theirs, str(there)) or _other_half(folder, theirs, str(there)):
                    continue
                replaced.append(p.name)
            (f,) = parse_any(text, str(p))
            atomic_write(there, text)
            added.append(key)
            if "-x" in p.name:  # a second file of a seat: the proof of its equivocation (or, kept to send on
                proof = proof or f  # only, a copy another seat's 'seen' disputed: no proof yet, protocol §5)
                copy_only = copy_only and p.parent != folder.path
            else:
                newest = (f, text)
        repo.add(*added)  # one update of git's index for the game
        if newest is not None or proof is not None:
            _write_readmes(home, repo, commit=False, look=None if look is None else look | {folder.path.name})
            seats = parse_any((folder.path / "genesis.toml").read_text(), "genesis.toml")[0].content["seats"]
            if newest is None:
                name = _CONTROL.sub("", str(seats[proof.seat]["name"]))
                msg = (f"{folder.path.name} round {proof.round}: the proof that {name} signed two different files "
                       f"for round {proof.round}, sent on") if not copy_only else (
                    f"{folder.path.name} round {proof.round}: {name}'s file for round {proof.round} as this home "
                    "holds it, sent on (another seat's file disputes it)")
                newest = (proof, "")
            else:
                msg = _commit_message(folder.path.name, *newest)
            if replaced:
                msg = msg.replace("\n", f" (replacing a foreign {', '.join(replaced)})\n", 1) if "\n" in msg \
                    else f"{msg} (replacing a foreign {', '.join(replaced)})"
            if folder.path.name in gone:
                msg = f"{folder.path.name}: its files put back (its folder was taken out of {repo.branch()})"
            who = seats[newest[0].seat]
            if repo.commit(msg, author=(who["name"], who["email"])):
                messages.append(msg.splitlines()[0])
    return messages


def _left_out_differing(repo: GitRepo, folders: Sequence[GameFolder], wanted: set[str], held: set[str],
                        committed: dict[str, str]) -> set[str]:
    """Of these games left out of a sparse clone's working tree, those to put back in it: a game ``wanted``, and one
    in the repository of which HEAD lacks a file this home holds or holds another file under its name. A file whose
    blob is not this home's copy's may still be the same file (its comment lines written by another home) or the
    other half of an equivocation this home holds the proof of: those are read from git's objects, all in one
    ``cat-file`` (``read_many``), so a sync that looks at 10,000 finished games widens none of them for that."""
    differ, compare = set(), []
    for folder in folders:
        name = folder.path.name
        if name in wanted:
            differ.add(name)
            continue
        if name not in held:
            continue
        for p in [*folder.path.iterdir(), *folder.kept_forwards()]:
            if not (p.name == "genesis.toml" or TURN_NAME.fullmatch(p.name)):
                continue
            key = f"{name}/{p.name}"
            blob = committed.get(key)
            if blob is None:
                differ.add(name)
                break
            if blob != blob_id(p.read_bytes()):
                compare.append((folder, p, key, blob))
    compare = [c for c in compare if c[0].path.name not in differ]
    read = repo.read_many([(key, blob, "HEAD") for _, _, key, blob in compare])
    for (folder, p, key, _), got in zip(compare, read, strict=True):
        theirs = getattr(got, "text", None)
        if theirs is None or not (same_file(p.read_text(), theirs, key) or _other_half(folder, theirs, key)):
            differ.add(folder.path.name)
    return differ


def _other_half(folder: GameFolder, text: str, where: str) -> bool:
    """Whether ``text`` is the other file of an equivocation this home holds the proof of (kept in its log beside
    its own, or to send on): not a foreign file to write over, or two homes would take turns replacing it."""
    try:
        (f,) = parse_any(text, where)
    except Exception:  # noqa: BLE001 - whatever sits there is no such file
        return False
    name = proof_name(f)
    return f.kind == "turn" and ((folder.path / name).exists() or (folder.forward_path / name).exists())


_INDEX_LINE = re.compile(r"- \[([^\]]+)\]\(\1/README\.md\)(: .*)?")


_ESCAPED = re.compile(r"\\[\\`*_\[\]!|~]|&(?:lt|gt|amp);")


def _index_line(line: str, is_game=GAME_DIR.fullmatch) -> str:
    """A line of the repository's README kept from before (a game this sync did not look at), as it may stand
    there: its game's link, and its words only if they are as ``md_text`` escapes them (the README is pushed by
    anyone: a line someone else wrote is cut back to its link); "" for a line that is no game's."""
    m = _INDEX_LINE.fullmatch(line)
    if m is None or not is_game(m.group(1)):
        return ""
    words = _ESCAPED.sub("", m.group(2) or "")
    if any(c in words for c in "<>&\\`*_[]!|~") or _CONTROL.search(words):
        return f"- [{m.group(1)}]({m.group(1)}/README.md)"
    return line


_FINISHED = re.compile(r"Finished: .*")
_MONTH_COUNT = re.compile(r"\[([0-9]{4}-[0-9]{2})\]\(finished/\1\.md\) \(([0-9][0-9,]*)\)")
_LISTED = re.compile(rf"- \[([^\]\n/\\]+)\]\((?:\.\./\.\./{SHELF}|\.\.)/\1/README\.md\)")  # (moved: its branch)


def _is_game(repo: GitRepo, name: str) -> bool:
    """Whether ``name`` is a game's folder in the repository: by its name (``kind-12hex``), or else by the genesis it
    holds (a folder renamed by its club)."""
    if GAME_DIR.fullmatch(name):
        return True
    if "/" in name or name in (".", "..", ".git") or name.startswith("-"):
        return False
    if repo.outside(name):  # left out of a sparse clone's working tree: its genesis in HEAD's tree
        return _head_genesis(repo, name) is not None
    where = repo.path / name
    return not where.is_symlink() and where.is_dir() \
        and (where / "genesis.toml").is_file() and not (where / "genesis.toml").is_symlink()


def _game_of(repo: GitRepo, name: str) -> str:
    """The game a listing's line names, known by its genesis (the first 12 hex digits of its id): a folder named
    ``kind-12hex`` by its name, any other by the genesis it holds in the repository (a folder renamed by its club);
    the name itself when it holds none."""
    if GAME_DIR.fullmatch(name):
        return name[-12:]
    if repo.outside(name) and "/" not in name and not name.startswith("-"):
        return _head_genesis(repo, name) or name
    if _is_game(repo, name):
        return _genesis_id(repo.path / name / "genesis.toml") or name
    return name


def _head_genesis(repo: GitRepo, name: str) -> str | None:
    """``_genesis_id`` of the genesis a folder left out of a sparse clone's working tree holds in HEAD's tree."""
    res = repo.git("cat-file", "blob", f"HEAD:{name}/genesis.toml", check=False)
    return genesis_prefix(res.stdout, f"{name}/genesis.toml") if res.returncode == 0 else None


def _genesis_id(path: Path) -> str | None:
    """The first 12 hex digits of the id of the game whose genesis is at ``path``; None if it holds none."""
    try:
        return genesis_prefix(path.read_text(errors="replace"), str(path))
    except OSError:
        return None


def top_readme(lines: Sequence[str], months: dict[str, int]) -> str:
    """The repository's README: a line per game in play (``lines``), and how many are finished, with a link to each
    month's listing (``finished/YYYY-MM.md``: the games whose last move was in that month) and its count."""
    total = sum(months.values())
    finished = "Finished: none yet." if not total else (
        f"Finished: {total:,} game{'s' if total != 1 else ''}, listed by the month of their last move: "
        + ", ".join(f"[{m}](finished/{m}.md) ({n:,})" for m, n in sorted(months.items(), reverse=True)) + ". "
        f"Their folders move to the branch `{SHELF}`, {SHELVE_AT} at a time.")
    return "\n".join(["# duelmail games", "", "One folder per game; each holds its signed turn files.", "",
                      *(["In play:", "", *sorted(lines)] if lines else ["In play: none."]), "", finished, "",
                      "Play with `duelmail play ... --push` or `duelmail git sync`.", ""])


def _listing_names(repo: GitRepo, month: str | None = None) -> dict[str, set[str]]:
    """The games each month's listing names (one month's, or all of them), by their genesis (``_game_of``): a game
    listed under two names (a folder renamed by its club) counts once."""
    where = repo.path / "finished"
    if where.is_symlink() or not where.is_dir():
        return {}
    out = {}
    for p in ([where / f"{month}.md"] if month else sorted(where.iterdir())):
        if LISTING.fullmatch(f"finished/{p.name}") and p.is_file() and not p.is_symlink():
            out[p.stem] = {_game_of(repo, m.group(1)) for line in p.read_text(errors="replace").splitlines()
                           if (m := _LISTED.match(line))}
    return out


_TIME = re.compile(r'^(?:time|created) = "([0-9]{4}-[0-9]{2})-', re.MULTILINE)


def _home_game(folder: GameFolder) -> str:
    """The first 12 hex digits of a home's game's id: by its folder's name (``kind-12hex``), else its genesis."""
    name = folder.path.name
    return name[-12:] if GAME_DIR.fullmatch(name) else (_genesis_id(folder.path / "genesis.toml") or name)


def _last_month(folder: Path) -> str:
    """The month of a game's last move (``YYYY-MM``: the latest time its last round's files carry; its genesis's
    when it has no turn), read from those files alone, so that every home lists a game in the same month."""
    rounds = {n: int(m.group(1)) for n in os.listdir(folder) if (m := TURN_NAME.fullmatch(n))}
    top = max(rounds.values(), default=None)
    last = [n for n, r in rounds.items() if r == top] if rounds else ["genesis.toml"]
    months = [m.group(1) for n in last for m in _TIME.finditer((folder / n).read_text(errors="replace"))]
    return max(months, default="0000-00")


def _write_readmes(home: Home, repo: GitRepo, commit: bool = True, look: set[str] | None = None) -> None:
    """Rewrite each game's README (and the index) from this home's state; a game whose files did not
    change since the last rewrite is not folded again (``.readme.toml`` in the home's game folder). ``look``:
    only these games' READMEs, and their lines of the index (see ``sync_git``).

    The index (the top ``README.md``) lists the games in play and counts the finished ones; a game's line moves,
    once it is finished, to the listing of the month of its last move (``finished/YYYY-MM.md``), appended there
    once and never rewritten. So a turn rewrites a README of a line per game in play, whatever the number of
    finished games. An index of the older kind (a line per game, no ``Finished:`` line) is rewritten in full once."""
    root = repo.plain("README.md")
    kept_text = root.read_text(errors="replace") if root.exists() else ""
    kept = kept_text.splitlines()
    counts_line = [line for line in kept if _FINISHED.fullmatch(line)]
    if look is not None and len(counts_line) != 1:
        look = None  # no index of this kind yet: every game is looked at once
    changed = []
    ours: dict[str, str] = {}  # the lines of the games in play looked at
    done: list[tuple[str, str, str, str]] = []  # (month, folder, its listing's line, game) of the finished ones
    folded = []
    for folder in _looked_at(home, look):
        if repo.outside(folder.path.name):
            if (folder.path / MARK).exists():
                continue  # a finished game left out of a sparse clone's working tree: listed already, kept as is
            repo.widen([folder.path.name])
        target = repo.plain(folder.path.name, folder=True)
        if not target.is_dir():
            continue
        for name in ("README.md", "table.svg", "replay.html"):
            repo.plain(f"{folder.path.name}/{name}")
        memo = folder.path / ".readme.toml"
        old = tomllib.loads(memo.read_text()) if memo.exists() else {}
        key = folder.listing_key()
        n = folder.path.name
        if old.get("key") == key and (target / "README.md").exists() \
                and (target / "README.md").read_text() == old.get("text") \
                and old.get("line", "").startswith(f"- [{n}]({n}/README.md)"):  # (written under this folder's name)
            line = old.get("line", "")
            listed = old.get("listed", "")
            if "listed" not in old and (folder.path / MARK).exists():  # a memo from before the listings: settled
                listed = line.replace(f"]({n}/README.md)", f"](../{n}/README.md)", 1)
            if listed:
                done.append((_last_month(folder.path), n, listed, old.get("game") or _home_game(folder)))
            else:
                ours[n] = line
            continue
        match = fold(folder)
        folded.append((folder, match))
        text = readme_text(match)
        changed += _game_views(folder, match, target)
        line = (f"- [{n}]({n}/README.md): {match.game.spec.title}, "
                + md_text(f"over: {match.describe_outcome()}" if match.over() else
                          f"round {match.round}, awaiting {awaited_text(match)}"))
        listed = f"- [{n}](../{n}/README.md): {match.game.spec.title}, " + md_text(
            f"over: {match.describe_outcome()}") if match.finished else ""
        if listed:
            done.append((_last_month(folder.path), n, listed, match.gid[:12]))
        else:
            ours[n] = line
        atomic_write(memo, tomlkit.dumps({"key": key, "line": line, "text": text, "listed": listed,
                                          "game": match.gid[:12]}))
        p = target / "README.md"
        if not p.exists() or p.read_text() != text:
            atomic_write(p, text)
            changed.append(f"{n}/README.md")
    settle_finished(home, folded)
    months: dict[str, int] = {}
    if len(counts_line) == 1:
        months = {m.group(1): int(m.group(2).replace(",", "")) for m in _MONTH_COUNT.finditer(counts_line[0])}
    appended = set()
    for month in sorted({m for m, _, _, _ in done}):  # each finished game's line, appended once to its month's listing
        rel = f"finished/{month}.md"
        was = len(repo.aside)
        repo.plain("finished", folder=True).mkdir(exist_ok=True)
        p = repo.plain(rel)
        if len(repo.aside) > was:
            months.clear()  # something not ours was set aside: every listing is counted again
        have = p.read_text(errors="replace") if p.exists() else f"# duelmail games finished in {month}\n\n"
        listed = {_game_of(repo, m.group(1)) for line in have.splitlines() if (m := _LISTED.match(line))}
        new = [line for m, _, line, game in done if m == month and game not in listed]  # by genesis, not name
        if new or not p.exists():
            atomic_write(p, have + ("" if have.endswith("\n") else "\n") + "".join(f"{line}\n" for line in new))
            changed.append(rel)
            appended.add(month)
    finished = {n for _, n, _, _ in done}
    listings: dict[str, set[str]] | None = None
    if look is None or not months:  # counted from every listing
        listings = _listing_names(repo)
        months = {m: len(names) for m, names in listings.items() if names}
    else:
        for month in appended:
            months[month] = len(_listing_names(repo, month).get(month, ()))
    # the index's lines: those of the games in play looked at, and the others as they stand (a foreign game, one
    # not held here: as its holder wrote it, or its bare link)
    mine = {folder.path.name for folder in home.game_folders()} if look is None else set()
    lines = dict(ours)
    for line in kept:
        if line.startswith("- [") and (checked := _index_line(line, lambda n: _is_game(repo, n))):
            n = checked[3:].split("]", 1)[0]
            if n in finished or n in lines or (look is None and (n in mine or not ((repo.path / n).is_dir()
                                                                                    or repo.outside(n)))):
                continue
            lines[n] = checked
    here = [p.name for p in repo.path.iterdir()] if look is None else sorted(look)
    foreign = [n for n in here if n not in lines and n not in finished and _is_game(repo, n)
               and (repo.path / n).is_dir() and not (repo.path / n).is_symlink()
               and not (home.games_dir / n).is_dir()]
    if foreign:  # a foreign game already in a listing is finished: not in play
        listings = listings if listings is not None else _listing_names(repo)
        over = set().union(*listings.values()) if listings else set()
        lines.update({n: f"- [{n}]({n}/README.md)" for n in foreign if _game_of(repo, n) not in over})
    text = top_readme(list(lines.values()), months)
    if text != kept_text:
        atomic_write(root, text)
        changed.append("README.md")
    if changed:
        if appended and repo.attributes():  # the listings merge by union too (a repository made before them)
            changed.append(".gitattributes")
        repo.add(*changed)
        if commit:
            repo.commit("duelmail: README files show the current position")


def _shelve(home: Home, repo: GitRepo, most: int | None = None) -> list[str]:
    """Once the branch in play holds ``SHELVE_AT`` games this home has settled (``most``), move them all to the
    finished games' branch (``GitRepo.shelve``, pushed first) and take them out of the branch in play, their
    listings' lines linked to their new place: so the tree every turn commits to holds the games in play and a few
    finished ones, and what git reads of it at each fetch and push does not grow with the club. What it committed."""
    most = SHELVE_AT if most is None else most
    if repo.cone is None:  # (the working tree holds HEAD's folders: no git process to list them)
        names = [e.name for e in os.scandir(repo.path) if e.is_dir(follow_symlinks=False) and e.name != ".git"]
    else:
        names = list(repo.folders())
        if len(names) < FEW_FOLDERS and repo.shelf():  # another home moved the finished games to their branch: an
            repo.unsparse()  # ordinary clone again, if HEAD holds few files
    done = [n for n in names if (home.games_dir / n / MARK).exists()]
    if len(done) < most or not repo.has_commits():
        return []
    moved = repo.shelve(sorted(done))
    if not moved:
        return []
    listings = repo.path / "finished"
    relinked, gone = [], set(moved)
    for p in sorted(listings.iterdir()) if listings.is_dir() and not listings.is_symlink() else []:
        if not (LISTING.fullmatch(f"finished/{p.name}") and p.is_file() and not p.is_symlink()):
            continue
        text = p.read_text(errors="replace")
        new = _LISTED_HERE.sub(lambda m: m.group(0).replace("](../", f"](../../{SHELF}/", 1)
                               if m.group(1) in gone else m.group(0), text)
        if new != text:
            atomic_write(p, new)
            relinked.append(f"finished/{p.name}")
    repo.drop_folders(moved)
    repo.add(*relinked)
    msg = f"duelmail: {len(moved)} finished game{'s' if len(moved) != 1 else ''} moved to the branch {SHELF}"
    done = [msg] if repo.commit(msg) else []
    repo.unsparse()  # a clone made sparse for its finished games holds few files now: an ordinary one again
    return done


FEW_FOLDERS = 200  # a sparse clone whose HEAD holds fewer top folders is counted for ``GitRepo.unsparse``
_LISTED_HERE = re.compile(r"^- \[([^\]\n/\\]+)\]\(\.\./\1/README\.md\)", re.MULTILINE)  # (in the branch in play)


def unpushed(home: Home, folder: GameFolder) -> list[dict]:
    """The files of this home's own seat that its game's folder holds and the remote of the game's repository does
    not (as the clone last saw it: its remote-tracking branch, no network), e.g. after a failed push: ``status``'s
    "not pushed yet". Each ``{file, error, by}``; empty for a game not kept in git, or with no remote."""
    seat = home.me(folder).get("seat")
    repo = next((r for r in repos(home) if holds_game(r, folder.path.name)), None)
    if repo is None or not isinstance(seat, int):
        return []
    mine = sorted(p.name for p in folder.path.glob(f"r[0-9][0-9][0-9][0-9]-s{seat}.toml"))
    if not mine:
        return []
    g = GitRepo(repo)
    try:
        remote = g.remote()
        if remote is None:
            return []
        ref = f"refs/remotes/{remote}/{g.branch()}"
        known = g.git("rev-parse", "-q", "--verify", ref, check=False).returncode == 0
        there = set(g.out("ls-tree", "--name-only", ref, "--", f"{folder.path.name}/").split()) if known else set()
        shelf = f"refs/remotes/{remote}/{SHELF}"
        if not there and g.git("rev-parse", "-q", "--verify", shelf, check=False).returncode == 0:
            there = set(g.out("ls-tree", "--name-only", shelf, "--", f"{folder.path.name}/").split())  # moved there
    except GitError:
        return []
    why = f"{remote} of {repo} does not have it"
    return [{"file": n, "error": why, "by": "git"} for n in mine if f"{folder.path.name}/{n}" not in there]


def by_git(home: Home, folder: GameFolder) -> bool:
    """Whether a game is kept in one of this home's git repositories (then it travels by git, never by mail)."""
    return any(holds_game(repo, folder.path.name) for repo in repos(home))


def holds_game(repo: Path, name: str) -> bool:
    """Whether the clone at ``repo`` holds a game's folder: in its working tree, on the finished games' branch
    (``SHELF``, as the clone last saw it), or (a sparse clone, whose finished games are left out of it) in its HEAD's
    tree."""
    if (repo / name).is_dir():
        return True
    dot_git = repo / ".git"
    if "/" in name or name.startswith(".") or not dot_git.is_dir():
        return False
    sparse = (dot_git / "info" / "sparse-checkout").is_file()
    packed = dot_git / "packed-refs"
    if not sparse and not (dot_git / "refs" / "heads" / SHELF).exists() \
            and not any((dot_git / "refs" / "remotes").glob(f"*/{SHELF}")) \
            and not (packed.is_file() and f"/{SHELF}\n".encode() in packed.read_bytes()):
        return False  # (no finished games' branch here: no git process, for a home's games by mail too)
    g = GitRepo(repo)
    refs = (["HEAD"] if sparse else []) + [shelf for shelf in [g.shelf()] if shelf]
    res = g.git("cat-file", "--batch-check", input="".join(f"{ref}:{name}\n" for ref in refs), check=False)
    return any(line.split()[1:2] == ["tree"] for line in res.stdout.splitlines())
