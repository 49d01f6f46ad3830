"""The ``duelmail`` command: a thin click layer over ``duelmail.app``.

Every library error (``DuelmailError``) becomes a one-line message and exit status 1.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import click

from duelmail.errors import DuelmailError, IdentityError
from duelmail.home import Home
from duelmail.protocol.identity import Identity, PlayerCard
from duelmail.protocol.turnfile import parse_any
from duelmail.util.lock import hold, release_all


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
        except OSError as e:
            raise click.ClickException(f"{e.filename or ''}: {e.strerror or e}") from None

    return wrapper


pass_ctx = click.make_pass_decorator(Ctx)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--home", envvar="DUELMAIL_HOME", type=click.Path(file_okay=False),
              help="Home folder for identities and games (default: $DUELMAIL_HOME or ~/.local/share/duelmail).")
@click.option("--as", "as_name", envvar="DUELMAIL_AS", help="Which identity of this home to act as.")
@click.version_option(package_name="duelmail")
@click.pass_context
def main(ctx, home, as_name):
    """Play hidden-information card duels by email or git: signed turn files, no server, no dealer.

    \b
    Example:
      duelmail id new alice --email alice@example.org
      duelmail new warlords --seat alice --seat bob-card.toml
    """
    ctx.obj = Ctx(home, as_name)
    ctx.call_on_close(release_all)  # the game folders this command locked (util/lock.py)


# -- identities -------------------------------------------------------------------------------------
@main.group("id")
def id_group():
    """Create, show, share and back up your identity.

    \b
    Example:
      duelmail id new alice --email alice@example.org
      duelmail id card > alice-card.toml
    """


@id_group.command("new")
@click.argument("name")
@click.option("--email", required=True, help="Address other players send your turns to.")
@click.option("--passphrase/--no-passphrase", default=False,
              help="Protect the identity file with a passphrase (prompt, or $DUELMAIL_PASSPHRASE).")
@pass_ctx
@handled
def id_new(ctx, name, email, passphrase):
    """Create a new identity NAME in this home.

    \b
    Example:
      duelmail id new alice --email alice@example.org
    """
    identity = Identity.generate(name, email)
    secret = _passphrase() if passphrase else None
    path = ctx.home.add_identity(identity, secret)
    click.echo(f"created identity {name} <{email}>")
    click.echo(f"fingerprint {identity.card.fingerprint}")
    click.echo(f"secret file {path} (back it up: 'duelmail id export FILE')")


@id_group.command("show")
@pass_ctx
@handled
def id_show(ctx):
    """Show the identity you act as.

    \b
    Example:
      duelmail --as alice id show
    """
    ident = ctx.identity()
    click.echo(f"{ident.name} <{ident.email}>")
    click.echo(f"fingerprint {ident.card.fingerprint}")
    others = [n for n in ctx.home.identity_names() if n != ident.name]
    if others:
        click.echo(f"other identities here: {', '.join(others)}")


@id_group.command("card")
@pass_ctx
@handled
def id_card(ctx):
    """Print your public player card, to send to the people you play.

    \b
    Example:
      duelmail id card > alice-card.toml
    """
    click.echo(ctx.identity().card.to_toml(), nl=False)


@id_group.command("export")
@click.argument("file", type=click.Path(dir_okay=False))
@pass_ctx
@handled
def id_export(ctx, file):
    """Write your identity (the one file to back up) to FILE.

    \b
    Example:
      duelmail id export /media/usb/alice-identity.toml
    """
    from duelmail.util.fs import atomic_write

    src = ctx.home.identity_path(ctx.as_name)
    atomic_write(file, src.read_text(), mode=0o600)
    click.echo(f"exported {src.stem} to {file} (keep it secret: it is your key and every game secret)")


@id_group.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--replace", is_flag=True, help="Overwrite an identity of the same name.")
@pass_ctx
@handled
def id_import(ctx, file, replace):
    """Restore an identity from a backup FILE.

    \b
    Example:
      duelmail id import /media/usb/alice-identity.toml
    """
    text = Path(file).read_text()
    secret = _passphrase() if Identity.is_encrypted(text) else None
    ident = Identity.from_toml(text, file, secret)
    ctx.home.add_identity(ident, secret, replace=replace)
    click.echo(f"imported identity {ident.name} <{ident.email}>, fingerprint {ident.card.fingerprint}")


# -- games ----------------------------------------------------------------------------------------
def _parse_options(pairs) -> dict:
    """K=V pairs; V=@FILE puts the file's text in the genesis (a custom skirmish battlefield)."""
    out = {}
    for p in pairs:
        k, _, v = p.partition("=")
        v = v.strip()
        if v.startswith("@"):
            v = Path(v[1:]).read_text(encoding="utf-8").replace("\r\n", "\n").strip()
        out[k.strip()] = v if "=" in p else True
    return out


def _load_card(ctx: Ctx, text: str) -> PlayerCard:
    if text in ctx.home.identity_names():
        return ctx.home.load_identity(text, _passphrase).card
    path = Path(text)
    if path.is_file():
        return PlayerCard.from_toml(path.read_text(), str(path))
    raise IdentityError(f"--seat {text!r} is neither an identity of this home nor a player card file")


@main.command("new")
@click.argument("game", callback=_check_game)
@click.option("--seat", "seats", multiple=True, required=True,
              help="A seat, in order: an identity of this home or a player card file. Repeat per player.")
@click.option("--option", "options", multiple=True, help="Game option, K=V (K=@FILE: the file's text), or a bare flag.")
@click.option("--out", type=click.Path(file_okay=False), help="Also copy the genesis file into this folder.")
@click.option("--git", "git_dir", type=click.Path(file_okay=False),
              help="Keep the game in this git repository (created if needed) and push it.")
@pass_ctx
@handled
def new(ctx, game, seats, options, out, git_dir):
    """Open a new GAME and write its genesis file for the other seats.

    \b
    Example:
      duelmail new warlords --seat alice --seat bob-card.toml --option reinforcements
    """
    ident = ctx.identity()
    cards = [_load_card(ctx, s) for s in seats]
    played = _app().create_game(ctx.home, ident, game, cards, _parse_options(options), now(), os.urandom(16))
    path = _copy_out(played.path, out)
    click.echo(f"new game {played.match.gid[:12]} of {played.match.game.spec.title}")
    click.echo(f"seats: {', '.join(played.match.names())}")
    if git_dir:
        from duelmail.cli_git import new_in_repo

        new_in_repo(ctx, ident, played, git_dir)
        return
    click.echo(f"send {path} to the other players")


def _copy_out(path: Path, out: str | None) -> Path:
    if not out:
        return path
    from duelmail.util.fs import atomic_write

    return atomic_write(Path(out) / path.name, path.read_text())


@main.command("join")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", type=click.Path(file_okay=False), help="Also copy your answer into this folder.")
@click.option("--send", is_flag=True, help="Mail your acceptance to the other seats ('duelmail mail setup').")
@click.option("--push", is_flag=True, help="Commit, pull and push it in the game's repository ('duelmail git').")
@pass_ctx
@handled
def join(ctx, file, out, send, push):
    """Accept the game whose genesis FILE you were sent.

    \b
    Example:
      duelmail join genesis.toml
    """
    ident = ctx.identity()
    files = parse_any(Path(file).read_text(), file)
    genesis = next((f for f in files if f.kind == "genesis"), None)
    if genesis is None:
        raise click.ClickException(f"{file}: not a genesis file")
    played = _app().join_game(ctx.home, ident, genesis, now(), file)
    click.echo(f"joined game {played.match.gid[:12]} as seat {played.file.seat} ({ident.name})")
    path = _copy_out(played.path, out)
    release_all()
    if send:
        from duelmail.cli_mail import mail_played

        mail_played(ctx, ident, played)
    if push:
        from duelmail.cli_git import push_played

        push_played(ctx, ident, played)
    if not (send or push):
        click.echo(f"send {path} to the other players")


def _open(ctx: Ctx, game: str | None):
    ident = ctx.identity()
    folder, match, seat = _app().open_game(ctx.home, game, ident)
    return ident, folder, match, seat


def _left(due: datetime, at: datetime) -> str:
    secs = int((due - at).total_seconds())
    sign, secs = ("", secs) if secs >= 0 else ("overdue by ", -secs)
    d, rem = divmod(secs, 86400)
    h, rem = divmod(rem, 3600)
    m = rem // 60
    text = f"{d}d {h}h" if d else f"{h}h {m}m" if h else f"{m}m {rem % 60}s" if m else f"{rem % 60}s"
    return f"{sign}{text}" + ("" if sign else " left")


@main.command("status")
@click.argument("game", required=False)
@click.option("--all", "all_games", is_flag=True, help="Every game in this home, soonest deadline first.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_ctx
@handled
def status(ctx, game, all_games, as_json):
    """Who is awaited in GAME, for what, and by when.

    \b
    Example:
      duelmail status
      duelmail status --all
      duelmail status 3f2a --json
    """
    folders = ctx.home.game_folders() if all_games else [ctx.home.find(game)]
    if all_games and not folders:
        raise click.ClickException(f"no games in {ctx.home.root}")
    rows = [_status_of(ctx, folder) for folder in folders]
    t = now()
    if all_games:
        rows.sort(key=lambda d: min((a["deadline"] for a in d["awaited"].values() if a["deadline"]),
                                    default="9999"))
        if as_json:
            click.echo(json.dumps(rows, indent=2))
            return
        for d in rows:
            if d["over"]:
                click.echo(f"{d['game'][:12]} {d['kind']:<9} over: {d['result']}")
                continue
            soon = min(((a["deadline"], n) for n, a in d["awaited"].items() if a["deadline"]), default=None)
            who = ", ".join("you" if int(s) == d["you"] else d["seats"][int(s)] for s in d["awaited"])
            when = f", due {soon[0]} ({_left(datetime.fromisoformat(soon[0]), t)})" if soon else ""
            click.echo(f"{d['game'][:12]} {d['kind']:<9} round {d['round']}: awaiting {who}{when}")
        return
    data = rows[0]
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    seat = data["you"]
    you = data["seats"][seat] if seat is not None else "a spectator"
    click.echo(f"game {data['game'][:12]} ({data['title']}), round {data['round']}, you are {you}")
    if data["result"]:
        click.echo(f"game over: {data['result']}")
    for s, a in data["awaited"].items():
        who = "you" if int(s) == seat else data["seats"][int(s)]
        due = ""
        if a["deadline"]:
            left = datetime.fromisoformat(a["deadline"]) - t
            remind = " (reminder: due soon)" if timedelta(0) <= left <= timedelta(hours=data["reminder_hours"]) else ""
            late = " - a timeout can be claimed ('duelmail claim')" if left < timedelta(0) and int(s) != seat else ""
            due = f"; due {a['deadline']}, {_left(datetime.fromisoformat(a['deadline']), t)}{remind}{late}"
        click.echo(f"awaiting {who}: {a['what']}{due}")
    if data["audited"]:
        click.echo("audit: " + ("passed" if data["audit_ok"] else "CHEATING FOUND"))
    for line in data["cheats"]:
        click.echo(f"CHEAT: {line}")
    if data["cheats"]:
        click.echo("this game cannot go on as it is: the seats hold different histories (docs/protocol.md, section 5)")


def _status_of(ctx, folder) -> dict:
    seat = ctx.home.me(folder).get("seat")
    data = _cached_status(folder, seat) if ctx.as_name is None else None
    if data is None:
        ident, folder, match, seat = _open(ctx, folder.path.name)
        data = _status_data(match, seat)
        _store_status(folder, seat, data)
    return {**data, "cheats": folder.cheats()}


def _status_data(match, seat) -> dict:
    over = match.over()
    deadlines = match.deadlines()
    return {
        "game": match.gid, "kind": match.game.spec.id, "title": match.game.spec.title, "round": match.round,
        "you": seat, "seats": match.names(),
        "awaited": {str(s): {"what": d.describe(match.named(match.state.prompt(s)) if d.decide else ""),
                             "deadline": deadlines[s].isoformat() if s in deadlines else None}
                    for s, d in sorted(match.duties.items())},
        "your_turn": seat in match.duties, "reminder_hours": match.tc.reminder_hours,
        "over": over, "audited": match.audit is not None,
        "audit_ok": bool(match.audit and match.audit.ok),
        "result": match.describe_outcome() if over else None,
    }


def _cached_status(folder, seat) -> dict | None:
    """The status cache: only a cache, keyed by the game's file listing; deleting it loses nothing."""
    p = folder.path / ".status.json"
    try:
        cached = json.loads(p.read_text())
    except (OSError, ValueError):
        return None
    return cached.get("data") if cached.get("key") == f"{folder.listing_key()}|{seat}|2" else None


def _store_status(folder, seat, data) -> None:
    from duelmail.util.fs import atomic_write

    try:
        atomic_write(folder.path / ".status.json",
                     json.dumps({"key": f"{folder.listing_key()}|{seat}|2", "data": data}))
    except OSError:
        pass  # a read-only archive still answers, just without the cache


@main.command("claim")
@click.argument("game", required=False)
@click.option("--out", type=click.Path(file_okay=False), help="Also copy the claim into this folder.")
@pass_ctx
@handled
def claim(ctx, game, out):
    """Claim the timeout of a seat whose deadline has passed (signed; the time control settles it).

    \b
    Example:
      duelmail claim 3f2a
    """
    ident, folder, match, seat = _open(ctx, game)
    played = _app().write_claim(folder, match, seat, ident, now())
    click.echo(f"round {match.round - 1}: {played.events[-1].text}")
    click.echo(f"wrote {_copy_out(played.path, out)}: send it to the other players")


@main.command("show")
@click.argument("game", required=False)
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False),
              help="Also write the picture of the table (SVG) to this file.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False),
              help="Also write a web page with the picture and the text table to this file.")
@click.option("--open/--no-open", "open_it", default=None,
              help="Open the page or picture in the browser (default: when run in a terminal).")
@pass_ctx
@handled
def show(ctx, game, svg_out, html_out, open_it):
    """The table from your seat: your hand, face-down cards, discard tops; as a picture with --svg or --html.

    \b
    Example:
      duelmail show
      duelmail show --html table.html
      duelmail show --svg table.svg
    """
    from duelmail.pictures import table_page, table_svg
    from duelmail.util.fs import atomic_write

    ident, folder, match, seat = _open(ctx, game)
    awaited = seat in match.duties and seat not in match.current and not match.over()  # not sent yet this round
    view = match.draft(seat, ident) if awaited else match
    click.echo(view.state.render(seat, view.known(seat)))
    written = []
    if svg_out:
        picture = table_svg(view, seat)
        if picture is None:
            raise DuelmailError(f"{match.game.spec.title} draws no picture of its table")
        written.append(atomic_write(svg_out, picture))
    if html_out:
        written.append(atomic_write(html_out, table_page(view, seat)))
    for path in written:
        click.echo(f"wrote {path}")
    if written and (sys.stdout.isatty() if open_it is None else open_it):
        click.launch(Path(written[-1]).resolve().as_uri())


@main.command("moves")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_ctx
@handled
def moves(ctx, game, as_json):
    """Your legal moves now, in the game's notation.

    \b
    Example:
      duelmail moves
    """
    ident, folder, match, seat = _open(ctx, game)
    pending = _pending(folder)
    legal = []
    if seat in match.duties and seat not in match.current:
        view = match.draft(seat, ident, pending)
        if seat in view.state.deciders() and view.ready(seat):
            known = view.known(seat)
            legal = [(str(a), _faces(view.named(view.state.describe(seat, a)), known))
                     for a in view.state.legal_actions(seat, known)]
    if as_json:
        click.echo(json.dumps([{"move": m, "means": d} for m, d in legal], indent=2))
        return
    if not legal:
        click.echo("no decision of yours is awaited" if seat not in match.duties else
                   "nothing to decide: 'duelmail play' sends your decision-free answer")
        return
    for m, d in legal:
        click.echo(f"{m:<28} {d}")


def _vacation(text: str | None) -> dict | None:
    if not text:
        return None
    start, _, days = text.rpartition(":")
    try:
        when = datetime.fromisoformat(start)
        when = when if when.tzinfo else when.replace(tzinfo=UTC)
        return {"start": when.isoformat(), "days": int(days)}
    except ValueError:
        raise click.BadParameter(f"{text!r}: expected START:DAYS, e.g. 2026-12-20:7", param_hint="--vacation") from None


def _faces(text: str, known) -> str:
    """Write the face you can see after each ref: ``a#17`` becomes ``a#17 (9S)``."""
    import re

    from duelmail.games.cards import CardRef

    def add(m: re.Match) -> str:
        face = known.get(CardRef.parse(m.group(0)))
        return f"{m.group(0)} ({face})" if face else m.group(0)

    return re.sub(r"[a-z]+[0-9]*(?:\.[0-9]+)?#[0-9]+", add, text)


def _pending(folder) -> list[str]:
    import tomllib

    p = folder.path / ".pending.toml"
    return list(tomllib.loads(p.read_text()).get("actions", [])) if p.exists() else []


def _set_pending(folder, actions: list[str]) -> None:
    import tomlkit

    from duelmail.util.fs import atomic_write

    p = folder.path / ".pending.toml"
    if actions:
        atomic_write(p, tomlkit.dumps({"actions": actions}))
    elif p.exists():
        p.unlink()


@main.command("play")
@click.argument("moves", nargs=-1)
@click.option("--game", "-g", help="Which game (default: the only one).")
@click.option("--bot", help="Let a bot decide (random, heuristic).")
@click.option("--seed", type=int, default=None, help="Seed for the bot's choices.")
@click.option("--out", type=click.Path(file_okay=False), help="Also copy the new file into this folder.")
@click.option("--vacation", metavar="START:DAYS",
              help="Announce a vacation in this file (e.g. 2026-12-20:7): your clock stops for those days.")
@click.option("--send", is_flag=True, help="Mail the new file to the other seats ('duelmail mail setup').")
@click.option("--push", is_flag=True, help="Commit, pull and push it in the game's repository ('duelmail git').")
@pass_ctx
@handled
def play(ctx, moves, game, bot, seed, out, vacation, send, push):
    """Make your MOVES and write your next turn file (in GAME: --game, or a game id after the moves).

    Moves that do not finish your turn are kept until you add the rest. With no moves, sends
    whatever needs no decision (key shares, deck passes, reveals).

    \b
    Example:
      duelmail play "warlord a#3" "attack a#3 a#17"
      duelmail play --bot heuristic
    """
    moves = list(moves)
    if moves and game is None and re.fullmatch(r"(?:[a-z]+-)?[0-9a-f]{6,64}", moves[-1]):
        game = moves.pop()  # 'duelmail play MOVE... GAME': a game id (or folder name) last
    ident, folder, match, seat = _open(ctx, game)
    if seat is None or seat not in match.duties or seat in match.current:  # current: already answered
        mine = sorted(p for p in folder.path.glob(f"r*-s{seat}.toml")) if seat is not None else []
        last = f"; your last file is {mine[-1]} (send it again if it did not go out)" if mine else ""
        raise click.ClickException(f"game {match.gid[:12]}: nothing is awaited from you in round {match.round}{last}")
    actions = _pending(folder) + [_resolve(match, seat, ident, m) for m in moves]
    if bot:
        b = match.game.bots.get(bot)
        if b is None:
            raise click.ClickException(f"no bot {bot!r} for {match.game.spec.id} "
                                       f"(bots: {', '.join(match.game.bots)})")
        rng = random.Random(seed)
        actions = _app().bot_actions(match, seat, ident, b(), rng) if not actions else actions
    draft = match.draft(seat, ident, actions)
    if not draft.over() and seat in draft.state.deciders() and draft.ready(seat) \
            and (match.duties[seat].decide or actions):
        _set_pending(folder, actions)
        click.echo(f"noted: {', '.join(actions)}")
        click.echo(f"your turn goes on: {draft.named(draft.state.prompt(seat))} ('duelmail moves' lists them)")
        return
    played = _app().write_turn(folder, match, seat, ident, actions, now(), vacation=_vacation(vacation))
    _set_pending(folder, [])
    _store_status(folder, seat, _status_data(played.match, seat))
    for e in played.events:
        click.echo(f"round {e.round}: {e.text}")
    click.echo(f"wrote {_copy_out(played.path, out)}" + ("" if send or push else ": send it to the other players"))
    _say_awaited(played.match, seat)
    release_all()  # written: sending only reads, and a sync locks what it changes one folder at a time
    if send:
        from duelmail.cli_mail import mail_played

        mail_played(ctx, ident, played)
    if push:
        from duelmail.cli_git import push_played

        push_played(ctx, ident, played)


def _resolve(match, seat, ident, text: str) -> str:
    """Accept a move written with faces of your own cards (``attack - 9S``): turn faces into refs."""
    import re

    from duelmail.games.cards import Card, CardRef

    view = match.draft(seat, ident) if seat in match.duties else match
    known = view.known(seat)
    by_face: dict[Card, list[CardRef]] = {}
    for ref, card in known.items():
        by_face.setdefault(card, []).append(ref)

    def swap(m: re.Match) -> str:
        token = m.group(0)
        try:
            card = Card.parse(token)
        except DuelmailError:
            return token
        refs = [r for r in by_face.get(card, []) if view.state.visibility().get(r) == seat] or \
            by_face.get(card, [])
        if len(refs) == 1:
            return str(refs[0])
        if not refs:
            raise DuelmailError(f"move {text!r}: you see no {card} on your side ('duelmail show' lists your cards)")
        raise DuelmailError(f"move {text!r}: {card} could be {', '.join(map(str, refs))}; name one of them")

    return re.sub(r"(?<![#\w=])(?:10|[2-9JQKAT])[SHDC](?![\w#])|(?<![#\w=])X[RB](?![\w#])", swap, text)


def _say_awaited(match, seat) -> None:
    from duelmail.transport.archive import awaited_text

    if match.over():
        click.echo("game over: " + match.describe_outcome())
    click.echo("now awaiting: " + awaited_text(match))


@main.command("receive")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--auto/--no-auto", default=True, show_default=True,
              help="Write your decision-free answer (key shares, reveals) at once.")
@click.option("--out", type=click.Path(file_okay=False), help="Copy any answer written into this folder.")
@pass_ctx
@handled
def receive(ctx, files, auto, out):
    """Verify incoming turn FILES and apply them; refuse a bad file and change nothing.

    \b
    Example:
      duelmail receive ~/Downloads/r0007-s1.toml
    """
    ident = ctx.identity()
    results = _app().receive(ctx.home, ident, [Path(f) for f in files], now=now())
    for r in results:
        if r.duplicate:
            click.echo(f"{r.path}: round {r.round} seat {r.seat} already applied (nothing changed)")
            continue
        click.echo(f"{r.path}: round {r.round} seat {r.seat} verified and applied")
        for e in r.events:
            click.echo(f"  {e.text}")
    if not results:
        return
    folder = _app().game_folder_for(ctx.home, ident, parse_any(Path(files[-1]).read_text(), files[-1])[-1])
    hold(folder.path)
    match = folder.fold()
    seat = match.seat_of(ident)
    if seat is not None:
        match.attach(seat, ident)
    if seat in match.duties:
        duty = match.duties[seat]
        if auto and not duty.needs_human:
            played = _app().write_turn(folder, match, seat, ident, [], now())
            _store_status(folder, seat, _status_data(played.match, seat))
            click.echo(f"answered automatically ({duty.describe()}): {_copy_out(played.path, out)}")
            _say_awaited(played.match, seat)
            return
        click.echo(f"your move: {duty.describe(match.named(match.state.prompt(seat)) if duty.decide else '')}")
    else:
        _say_awaited(match, seat)
    _store_status(folder, seat, _status_data(match, seat))


@main.command("verify")
@click.argument("path", type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@handled
def verify(path, as_json):
    """Check a whole archive: signatures, chain, deck, rules, and the full audit once the game is over.

    Exit status 0 only when everything holds.

    \b
    Example:
      duelmail verify examples/warlords-demo
    """
    verdict = _app().verify_archive(Path(path))
    if as_json:
        m = verdict.match
        click.echo(json.dumps({
            "ok": verdict.ok, "lines": verdict.lines, "error": verdict.error,
            "game": m.gid if m else None,
            "cheats": [{"seat": s, "rule": r, "message": t} for s, r, t in (m.audit.cheats if m and m.audit else [])],
        }, indent=2))
    else:
        for line in verdict.lines:
            click.echo(line)
        click.echo("VERIFIED" if verdict.ok else "NOT VERIFIED")
    sys.exit(0 if verdict.ok else 1)


@main.command("demo")
@click.argument("game", default="warlords", callback=_check_game)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for the bots and identities.")
@click.option("--players", type=int, default=2, show_default=True)
@click.option("--option", "options", multiple=True, help="Game option, K=V (K=@FILE: the file's text), or a bare flag.")
@click.option("--out", type=click.Path(file_okay=False), help="Where to play (default: a temporary folder).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
@handled
def demo(game, seed, players, options, out, quiet):
    """Bots play a whole GAME through real turn files between separate homes, then verify it.

    \b
    Example:
      duelmail demo warlords --seed 7
    """
    target = Path(out) if out else Path(tempfile.mkdtemp(prefix="duelmail-demo-"))
    from duelmail.games.base import get_game

    spec = get_game(game).spec
    click.echo(f"demo: {players} bots play {spec.title} by files in {target}")
    res = _app().run_demo(game, target, seed=seed, players=players, options=_parse_options(options),
                       say=(lambda s: None) if quiet else click.echo)
    for line in res.verdict.lines:
        click.echo(line)
    click.echo(f"{res.files} turn files for {res.decisions} decisions")
    click.echo(f"archive: {res.archive}")
    click.echo("VERIFIED" if res.verdict.ok else "NOT VERIFIED")
    sys.exit(0 if res.verdict.ok else 1)


from duelmail.cli_replay import replay  # noqa: E402  (a command of its own module)

main.add_command(replay)

from duelmail.cli_git import git  # noqa: E402
from duelmail.cli_mail import mail  # noqa: E402
from duelmail.cli_watch import watch  # noqa: E402

main.add_command(mail)
main.add_command(git)
main.add_command(watch)
