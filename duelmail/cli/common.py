"""What the command modules of ``duelmail.cli`` share: ``handled``, the shared options and their checks, notes,
output helpers, and sending what was just written by mail or git (``play --send``/``--push``); and, from ``plain``,
what needs no click (the context and clock, the caches, the noted moves).

Every command module imports this one and never another command module or ``duelmail.cli`` itself.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from duelmail.cli.plain import (  # noqa: F401 - given to the command modules
    Ctx,
    _app,
    _copy_out,
    _echo_talk,
    _needs_passphrase,
    _open,
    _parse_options,
    _passphrase,
    _pending,
    _pending_data,
    _recent,
    _refresh_status,
    _retry_outbox,
    _set_pending,
    _show_lines,
    _status_data,
    _store_show,
    _store_status,
    _store_views,
    awaited_lines,
    now,
    os_error_line,
    receive_files,
    refresh_views,
)
from duelmail.errors import DuelmailError


def _check_game(ctx, param, value):
    from duelmail.games.base import game_names

    if value is None or value in game_names():
        return value
    if value.lower() in game_names():  # game names are case-insensitive
        return value.lower()
    import difflib

    near = difflib.get_close_matches(value.lower(), game_names(), n=1)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise click.BadParameter(f"{value!r} is not a game (games: {', '.join(game_names())}){hint}")


def handled(fn):
    """Turn library errors into click errors (message + exit 1)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except DuelmailError as e:
            raise click.ClickException(str(e)) from None
        except BrokenPipeError:
            raise  # the reader went away ('duelmail moves | head'): click leaves quietly
        except OSError as e:
            raise click.ClickException(os_error_line(e)) from None

    return wrapper


pass_ctx = click.make_pass_decorator(Ctx)

GAME_HELP = "Which game: its id (its first letters will do) or folder name, as GAME (default: the only one)."


def game_option(fn):
    """``-g/--game GAME`` beside a command's positional ``GAME``: either names the game, the same way everywhere."""

    @functools.wraps(fn)
    def wrapper(*args, game_opt=None, **kwargs):
        game = kwargs.get("game")
        if game is not None and game_opt is not None and game != game_opt:
            raise click.UsageError(f"two games named: {game!r} and --game {game_opt!r}; name one")
        kwargs["game"] = game if game is not None else game_opt
        return fn(*args, **kwargs)

    return click.option("--game", "-g", "game_opt", metavar="GAME", help=GAME_HELP)(wrapper)


def _say_awaited(match, seat) -> None:
    for line in awaited_lines(match, seat):
        click.echo(line)


def _send_note(ctx, ident, folder, match, seat, out, send, push, **fields) -> None:
    """Write a note (talk, resignation, draw), then any decision-free answer it makes due (the seed at the end)."""
    from duelmail.errors import IllegalMove

    try:
        played = _app().write_note(folder, match, seat, ident, now(), send=send, **fields)
    except IllegalMove as e:  # refused before signing: nothing written
        raise click.ClickException(f"game {match.gid[:12]}, round {match.round}: {e}") from None
    for e in played.events:
        click.echo(f"round {e.round}: {e.text}")
    click.echo(f"wrote {_copy_out(played.path, out)}" + ("" if send or push else ": send it to the other players"))
    sent = [played]
    m = played.match
    if seat in m.duties and seat not in m.current and not m.duties[seat].needs_human and m.over():
        answer = _app().write_turn(folder, m, seat, ident, [], now(), send=send)
        click.echo(f"answered automatically (the game seed, for the audit): {_copy_out(answer.path, out)}")
        sent.append(answer)
        m = answer.match
    _store_views(ctx, folder, m, seat, ident)
    _say_awaited(m, seat)
    for p in sent:
        if send:
            mail_played(ctx, ident, p)
        if push:
            push_played(ctx, ident, p)
    if not send:
        retry_outbox(ctx, ident)


def password_for(settings, user: str, host: str) -> str:
    """Keyring, environment, config (if the user insisted), else a prompt on a terminal."""
    from duelmail.transport import mail as mailt

    ask = (lambda text: click.prompt(text, hide_input=True)) if sys.stdin.isatty() else None
    return mailt.get_password(settings, user, host, prompt=ask)


def send_played(ctx, ident, played_list) -> list:
    """Mail files just written (``play --send``, ``mail send``, answers of ``mail fetch``) through the outbox, with
    what it still held; print a line for each. Returns what is still unsent."""
    from duelmail.delivery import mail as mailing
    from duelmail.transport import mail as mailt

    settings = mailt.load_settings(ctx.home)
    lines, left = mailing.mail_answers(ctx.home, ident, played_list, now(), settings,
                                       lambda: password_for(settings, settings.smtp_user, settings.smtp_host))
    for line in lines:
        click.echo(line)
    return left


def mail_played(ctx, ident, played, *more) -> None:
    """``play --send``: mail the file just written (and those written after it with no decision); exit 1 if it could
    not go (it stays in the outbox)."""
    try:
        left = send_played(ctx, ident, [played, *more])
    except DuelmailError as e:
        raise click.ClickException(f"{e}\nyour turn is written ({played.path}); send it later with "
                                   "'duelmail mail send'") from None
    if any(u.file == played.path.name and u.game[:12] == played.match.gid[:12] for u in left):
        raise click.ClickException(f"your turn is written ({played.path}) but not sent yet; it is kept in the "
                                   "outbox: 'duelmail mail send', or any of 'duelmail play', 'receive', "
                                   "'mail fetch', 'watch', 'git sync' tries again")


def queued(played) -> bool:
    """Whether a file just signed waits in its game's outbox (this home mails it) rather than for the player."""
    from duelmail.transport.outbox import Outbox

    return any(e["hash"] == played.file.file_hash for e in Outbox(played.folder).entries())


def retry_outbox(ctx, ident) -> list:
    """``plain._retry_outbox``, said with click (and a password asked on a terminal, as ``password_for`` does)."""
    ask = (lambda text: click.prompt(text, hide_input=True)) if sys.stdin.isatty() else None
    return _retry_outbox(ctx, ident, click.echo, ask)


def sync_repos(ctx, ident, paths, games=(), auto: bool = True) -> list:
    """Sync each repository, answer decision-free duties, sync again; print what happened."""
    from duelmail.delivery import arrivals as arriving
    from duelmail.delivery import git as gitsync

    arrivals = []
    for path in paths:
        rep = gitsync.sync_git(ctx.home, ident, path, now(), games)
        for line in rep.recovered:
            click.echo(f"{path}: {line}")
        for c in rep.committed:
            click.echo(f"{path}: committed {c}")
        for a in rep.arrivals:
            if a.status != "duplicate":
                click.echo(a.line())
        arrivals += rep.arrivals
    decisions = []
    if auto:
        answers, decisions = arriving.answer_duties(ctx.home, ident, now)
        for a in answers:
            click.echo(a.line())
            _store_views(ctx, a.folder, a.played.match, a.played.file.seat, ident)
        if answers:
            for path in paths:
                rep = gitsync.sync_git(ctx.home, ident, path, now())
                for c in rep.committed:
                    click.echo(f"{path}: committed {c}")
        for d in decisions:
            click.echo(d.line())
    refresh_views(ctx, ident, [a.game for a in arrivals if a.status in arriving.APPLIED],
                  folded=[d.match for d in decisions])
    return arrivals


def push_played(ctx, ident, played) -> None:
    """``play --push``: sync the repositories that hold this game."""
    from duelmail.delivery import git as gitsync

    paths = [p for p in gitsync.repos(ctx.home) if gitsync.holds_game(p, played.folder.path.name)
             or (p / played.folder.path.name).is_symlink()]  # a link someone pushed: the sync sets it aside
    if not paths:
        raise click.ClickException(f"{played.path} is written, but no repository of this home holds game "
                                   f"{played.folder.path.name} ('duelmail git init DIR', then 'duelmail git sync')")
    sync_repos(ctx, ident, paths, auto=False)
    from duelmail.transport.git import GitRepo

    name = f"{played.folder.path.name}/{played.path.name}"
    for path in paths:  # never say it went out when it did not (a file squatting its name, a failed push)
        there = GitRepo(path).blob_at("HEAD", name)
        if there is None or not gitsync.same_file(played.path.read_text(), there, f"{path}/{name}"):
            raise click.ClickException(f"{played.path} is written, but {path} does not hold it after the sync: "
                                       "it was not pushed (try 'duelmail git sync' again)")


def new_in_repo(ctx, ident, played, directory) -> None:
    """``new --git DIR``: the game's folder goes into the repository (made one if needed), then a sync."""
    from duelmail.delivery import git as gitsync
    from duelmail.transport.git import GitError, GitRepo

    path = Path(directory).resolve()
    repo = GitRepo(path, (ident.name, ident.email))
    repo.init()
    gitsync.add_repo(ctx.home, path)
    title = f"game {played.match.gid[:12]} of {played.match.game.spec.title}"
    try:
        rep = gitsync.sync_git(ctx.home, ident, path, now(), games=[played.folder])
    except GitError as e:  # the game is made in this home: say so, and exactly what is left to do
        name = f"{played.folder.path.name}/{played.path.name}"
        held = repo.is_repo() and repo.blob_at("HEAD", name) is not None
        raise click.ClickException(
            f"{e}\nthe new {title} is in this home ({played.folder.path})"
            + (f" and committed in {path}" if held else "") + ", but not pushed: nobody else can see it yet. "
            f"Once the repository takes your pushes, 'duelmail git sync {path}' pushes it") from None
    click.echo(f"new {title}")
    click.echo(f"seats: {', '.join(played.match.names())}")
    for line in rep.recovered:
        click.echo(f"{path}: {line}")
    for c in rep.committed:
        click.echo(f"{path}: committed {c}")
    click.echo(f"the game is in {path / played.folder.path.name}" + (", pushed" if rep.pushed else ""))
