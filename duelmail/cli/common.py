"""What the command modules of ``duelmail.cli`` share: the context and clock, ``handled``, ``_open``, the
status cache, the noted moves (``.pending.toml``), notes, output helpers, shared options, and sending what
was just written by mail or git (``play --send``/``--push``).

Every command module imports this one and never another command module or ``duelmail.cli`` itself.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from duelmail.cli.cached import SHOW_CACHE, _cached_status, _show_key, _status_key
from duelmail.errors import DuelmailError, IdentityError
from duelmail.home import Home
from duelmail.util.fs import read_text


def _app():
    from duelmail import app

    return app


def _check_game(ctx, param, value):
    from duelmail.games.base import game_names

    if value is not None and value not in game_names():
        raise click.BadParameter(f"{value!r} is not a game (games: {', '.join(game_names())})")
    return value


def now() -> datetime:
    return datetime.now(UTC)


class Ctx:
    def __init__(self, home: str | None, as_name: str | None):
        self.home = Home(home)
        self.as_name = as_name

    def identity(self):
        return self.home.load_identity(self.as_name, _passphrase)


def _passphrase() -> str | None:
    if os.environ.get("DUELMAIL_PASSPHRASE") is not None:
        return os.environ["DUELMAIL_PASSPHRASE"]
    if not sys.stdin.isatty():
        raise IdentityError("this identity needs a passphrase: set DUELMAIL_PASSPHRASE (no terminal to ask)")
    return click.prompt("Passphrase", hide_input=True)


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
            raise click.ClickException(f"{e.filename or ''}: {e.strerror or e}") from None

    return wrapper


pass_ctx = click.make_pass_decorator(Ctx)


def _parse_options(pairs) -> dict:
    """K=V pairs; V=@FILE puts the file's text in the genesis (a custom skirmish battlefield)."""
    out = {}
    for p in pairs:
        k, _, v = p.partition("=")
        v = v.strip()
        if v.startswith("@"):
            v = read_text(v[1:], f"--option {k.strip()} file").replace("\r\n", "\n").strip()
        out[k.strip()] = v if "=" in p else True
    return out


def _copy_out(path: Path, out: str | None) -> Path:
    if not out:
        return path
    from duelmail.util.fs import atomic_write

    return atomic_write(Path(out) / path.name, path.read_text())


def _open(ctx: Ctx, game: str | None):
    ident = ctx.identity()
    folder, match, seat = _app().open_game(ctx.home, game, ident)
    return ident, folder, match, seat


def _recent(match, seat, known=None, most: int = 8) -> list[str]:
    """What happened since ``seat``'s last move (at most ``most`` events), in its words."""
    news: list = []  # backwards from the last event, only as far as needed: a long game costs no more
    mine_last = False  # the seat's own move is the last event: the last ``most`` events, its own among them
    for e in reversed(match.events):
        if e.technical:
            continue
        if seat is not None and e.seat == seat and e.said is None:
            if news and not mine_last:
                break
            mine_last = mine_last or not news
        news.append(e)
        if len(news) >= most:
            break
    return [f"round {e.round}: {e.text}" for e in match.told_to(news[::-1], known)]


def _status_data(match, seat) -> dict:
    from duelmail.transport.archive import duty_text

    over = match.over()
    deadlines = match.deadlines()
    return {
        "game": match.gid, "kind": match.game.spec.id, "title": match.game.spec.title, "round": match.round,
        "you": seat, "seats": match.names(),
        "awaited": {str(s): {"what": duty_text(match, s),
                             "deadline": deadlines[s].isoformat() if s in deadlines else None}
                    for s in sorted(match.duties)},
        "your_turn": seat in match.duties, "reminder_hours": match.tc.reminder_hours,
        "over": over, "audited": match.audit is not None,
        "audit_ok": bool(match.audit and match.audit.ok),
        "result": match.describe_outcome() if over else None,
        "last": _recent(match, seat, match.seen(seat) if seat in match.own else None),
        "draw_offer": ({"by": match.draw_offer[0], "accepted": sorted(match.draw_accepts)}
                       if match.draw_offer and not over else None),
    }


def _store_status(folder, seat, data, key: str | None = None) -> None:
    from duelmail.util.fs import atomic_write

    try:
        atomic_write(folder.path / ".status.json",
                     json.dumps({"key": key or _status_key(folder, seat), "data": data}), durable=False)
    except OSError:
        pass  # a read-only archive still answers, just without the cache


def _refresh_status(folder, match, seat) -> None:
    """A command that opened the game (``show``, ``history``, ``moves``) brings the status cache up to date if it
    is not, so the next ``status`` answers from it without loading the engine."""
    key = _status_key(folder, seat)
    if _cached_status(folder, seat, key) is None:
        _store_status(folder, seat, _status_data(match, seat), key)


def _needs_passphrase(ctx: Ctx) -> bool:
    """Whether the identity ``ctx`` acts as is sealed by a passphrase (its ``show`` is then never cached: the
    cache would show its hand without asking)."""
    from duelmail.protocol.identity import Identity

    path = ctx.home.identity_path(ctx.as_name)
    return Identity.is_encrypted(read_text(path, "identity file"))


def _store_show(folder, key: str, text: str) -> None:
    """Keep the text of a plain ``show`` (mode 0600: it names the cards in the seat's hand)."""
    from duelmail.util.fs import atomic_write

    try:
        atomic_write(folder.path / SHOW_CACHE, json.dumps({"key": key, "text": text}), mode=0o600, durable=False)
    except OSError:
        pass  # a read-only archive still answers, just without the cache


def _echo_talk(match, say=click.echo, last: int = 10) -> None:
    """The last lines of table talk, oldest first."""
    if match.talk:
        say("Talk:")
    for t in match.talk[-last:]:
        say(f'  round {t.round}, {match.cards[t.seat].name}: "{t.text}"')


def _show_lines(folder, match, seat, ident) -> tuple[list[str], object]:
    """What a plain ``show`` prints, a line each: the table from ``seat``, after its noted moves, what happened
    lately, and the talk; and the match the table is drawn from (after the noted moves)."""
    lines: list[str] = []

    def say(line: str) -> None:
        lines.append(f"{line}\n")

    awaited = seat in match.duties and seat not in match.current and not match.over()  # not sent yet this round
    pending = _pending(folder) if awaited else []
    view = match.draft(seat, ident, pending) if awaited else match
    say(view.named(view.state.render(seat, view.seen(seat))))
    if pending:
        say(f"noted, not sent (the table above is after them): {', '.join(pending)}")
        say("'duelmail undo' drops the last, 'duelmail undo --all' all of them")
    recent = _recent(match, seat, match.seen(seat) if seat in match.own else None)
    if recent:
        say("lately:" + "".join(f"\n  {line}" for line in recent))
    _echo_talk(match, say)
    return lines, view


def _store_views(ctx: Ctx, folder, match, seat, ident) -> None:
    """After a command changed the game: the status cache, and the show cache when a plain ``show`` would keep it
    (this home's own seat, an identity without a passphrase), so the next ``status`` and ``show`` fold nothing."""
    _store_status(folder, seat, _status_data(match, seat))
    if ctx.as_name is None and seat is not None and seat == ctx.home.me(folder).get("seat") \
            and not _needs_passphrase(ctx):
        _store_show(folder, _show_key(ctx.home, folder), "".join(_show_lines(folder, match, seat, ident)[0]))


def _pending_data(folder) -> dict:
    """``.pending.toml``: the moves noted for this turn (``actions``) and their words (``say``)."""
    from duelmail.errors import LocalFileError
    from duelmail.util import toml

    p = folder.path / ".pending.toml"
    if not p.exists():
        return {}
    data = toml.read(p, LocalFileError, "TOML memo")
    actions, say = data.get("actions", []), data.get("say")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions) \
            or not isinstance(say, str | None):
        raise LocalFileError(f"{p}: 'actions' must be a list of moves as text and 'say' a text (delete the file "
                             "to start the turn again)")
    return data


def _pending(folder) -> list[str]:
    return list(_pending_data(folder).get("actions", []))


def _set_pending(folder, actions: list[str], say: str | None = None) -> None:
    p = folder.path / ".pending.toml"
    if actions or say:
        from duelmail.util import toml
        from duelmail.util.fs import atomic_write

        data = {"actions": actions, **({"say": say} if say else {})}
        text = toml.plain_dumps(list(data.items()))
        if text is None:  # talk in another script than ASCII
            import tomlkit

            text = tomlkit.dumps(data)
        atomic_write(p, text)
    elif p.exists():
        from duelmail.util.fs import forget

        p.unlink()
        forget(folder.path)


def _say_awaited(match, seat) -> None:
    from duelmail.transport.archive import awaited_text

    if match.over():
        click.echo("game over: " + match.describe_outcome())
    click.echo("now awaiting: " + awaited_text(match))


def _send_note(ctx, ident, folder, match, seat, out, send, push, **fields) -> None:
    """Write a note (talk, resignation, draw), then any decision-free answer it makes due (the seed at the end)."""
    from duelmail.errors import IllegalMove

    try:
        played = _app().write_note(folder, match, seat, ident, now(), **fields)
    except IllegalMove as e:  # refused before signing: nothing written
        raise click.ClickException(f"game {match.gid[:12]}, round {match.round}: {e}") from None
    for e in played.events:
        click.echo(f"round {e.round}: {e.text}")
    click.echo(f"wrote {_copy_out(played.path, out)}" + ("" if send or push else ": send it to the other players"))
    sent = [played]
    m = played.match
    if seat in m.duties and seat not in m.current and not m.duties[seat].needs_human and m.over():
        answer = _app().write_turn(folder, m, seat, ident, [], now())
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


def password_for(settings, user: str, host: str) -> str:
    """Keyring, environment, config (if the user insisted), else a prompt on a terminal."""
    from duelmail.transport import mail as mailt

    ask = (lambda text: click.prompt(text, hide_input=True)) if sys.stdin.isatty() else None
    return mailt.get_password(settings, user, host, prompt=ask)


def send_played(ctx, ident, played_list) -> None:
    """Mail files just written (``play --send``, ``mail send``, answers of ``mail fetch``)."""
    from duelmail import watch
    from duelmail.transport import mail as mailt

    settings = mailt.load_settings(ctx.home)
    lines = watch.mail_answers(ident, played_list, now(), settings,
                               lambda: password_for(settings, settings.smtp_user, settings.smtp_host))
    for line in lines:
        click.echo(line)


def mail_played(ctx, ident, played) -> None:
    """``play --send``: mail the file just written."""
    try:
        send_played(ctx, ident, [played])
    except DuelmailError as e:
        raise click.ClickException(f"{e}\nyour turn is written ({played.path}); send it later with "
                                   "'duelmail mail send'") from None


def sync_repos(ctx, ident, paths, games=(), auto: bool = True) -> list:
    """Sync each repository, answer decision-free duties, sync again; print what happened."""
    from duelmail import watch

    arrivals = []
    for path in paths:
        rep = watch.sync_git(ctx.home, ident, path, now(), games)
        for c in rep.committed:
            click.echo(f"{path}: committed {c}")
        for a in rep.arrivals:
            if a.status != "duplicate":
                click.echo(a.line())
        arrivals += rep.arrivals
    if auto:
        answers, decisions = watch.answer_duties(ctx.home, ident, now)
        for a in answers:
            click.echo(a.line())
            _store_views(ctx, a.folder, a.played.match, a.played.file.seat, ident)
        if answers:
            for path in paths:
                rep = watch.sync_git(ctx.home, ident, path, now())
                for c in rep.committed:
                    click.echo(f"{path}: committed {c}")
        for d in decisions:
            click.echo(d.line())
    return arrivals


def push_played(ctx, ident, played) -> None:
    """``play --push``: sync the repositories that hold this game."""
    from duelmail import watch

    paths = [p for p in watch.repos(ctx.home) if (p / played.folder.path.name).is_dir()]
    if not paths:
        raise click.ClickException(f"{played.path} is written, but no repository of this home holds game "
                                   f"{played.folder.path.name} ('duelmail git init DIR', then 'duelmail git sync')")
    sync_repos(ctx, ident, paths, auto=False)
    from duelmail.transport.git import GitRepo

    name = f"{played.folder.path.name}/{played.path.name}"
    for path in paths:  # never say it went out when it did not (a file squatting its name, a failed push)
        there = GitRepo(path).blob_at("HEAD", name)
        if there is None or not watch.same_file(played.path.read_text(), there, f"{path}/{name}"):
            raise click.ClickException(f"{played.path} is written, but {path} does not hold it after the sync: "
                                       "it was not pushed (try 'duelmail git sync' again)")


def new_in_repo(ctx, ident, played, directory) -> None:
    """``new --git DIR``: the game's folder goes into the repository (made one if needed), then a sync."""
    from duelmail import watch
    from duelmail.transport.git import GitRepo

    path = Path(directory).resolve()
    GitRepo(path, (ident.name, ident.email)).init()
    watch.add_repo(ctx.home, path)
    rep = watch.sync_git(ctx.home, ident, path, now(), games=[played.folder])
    for c in rep.committed:
        click.echo(f"{path}: committed {c}")
    click.echo(f"the game is in {path / played.folder.path.name}" + (", pushed" if rep.pushed else ""))
