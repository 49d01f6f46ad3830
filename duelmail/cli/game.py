"""The game commands: ``new``, ``join``, ``status``, ``claim``, ``show``, ``history``, ``moves``, ``undo``,
``play``, ``archive``, ``receive``, ``verify``, ``demo``.

Registered in ``duelmail.cli``; what they share is in ``duelmail.cli.common``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from duelmail.cli.cached import (
    _cached_show,
    _cached_status,
    _show_key,
    all_games_lines,
    by_reply,
    kept_here,
    settle_rows,
    status_lines,
)
from duelmail.cli.common import (
    GAME_HELP,
    Ctx,
    _app,
    _check_game,
    _copy_out,
    _needs_passphrase,
    _open,
    _parse_options,
    _passphrase,
    _pending,
    _pending_data,
    _refresh_status,
    _say_awaited,
    _send_note,
    _set_pending,
    _show_lines,
    _status_data,
    _store_show,
    _store_status,
    _store_views,
    game_option,
    handled,
    mail_played,
    new_in_repo,
    now,
    pass_ctx,
    push_played,
    queued,
    receive_files,
    retry_outbox,
)
from duelmail.errors import DuelmailError, IdentityError
from duelmail.util.fs import read_text
from duelmail.util.lock import release_all


def _load_card(ctx: Ctx, text: str):
    from duelmail.protocol.identity import PlayerCard

    if text in ctx.home.identity_names():
        return ctx.home.load_identity(text, _passphrase).card
    path = Path(text)
    if path.is_file():
        return PlayerCard.from_toml(read_text(path, "player card"), str(path))
    raise IdentityError(f"--seat {text!r} is neither an identity of this home nor a player card file")


class _ListsGames(click.Command):
    """A command whose help ends with every game, its players and its options (read when the help is shown)."""

    def format_epilog(self, ctx, formatter) -> None:
        from duelmail.games.base import game_names, get_game

        with formatter.section("Games (any case) and their options (--option NAME=VALUE; a bare NAME sets a flag)"):
            for name in game_names():
                spec = get_game(name).spec
                formatter.write_text(f"{name}: {spec.title}, {spec.min_players}-{spec.max_players} players")
                with formatter.indentation():
                    for o in spec.options:
                        formatter.write_text(f"{o.name} (default {str(o.default).lower()}): {o.help}")


@click.command("new", cls=_ListsGames)
@click.argument("game", callback=_check_game)
@click.option("--seat", "seats", multiple=True, required=True,
              help="A seat, in order: an identity of this home or a player card file. Repeat per player.")
@click.option("--option", "options", multiple=True, help="Game option, K=V (K=@FILE: the file's text), or a bare flag.")
@click.option("--out", type=click.Path(file_okay=False), help="Also copy the genesis file into this folder.")
@click.option("--git", "git_dir", type=click.Path(file_okay=False),
              help="Keep the game in this git repository (created if needed) and push it.")
@click.option("--time", "times", multiple=True, metavar="KEY=N",
              help="A time control, e.g. days_per_move=5 or last_call_hours=12 (docs/protocol.md, section 6b).")
@click.option("--no-escrow", is_flag=True,
              help="Three or more players: escrow no deck keys, so a player who falls silent or resigns ends the "
                   "game for everyone instead of leaving it; in exchange fewer waits for cards (docs/protocol.md, "
                   "section 6, 'Shares ahead of a draw').")
@pass_ctx
@handled
def new(ctx, game, seats, options, out, git_dir, times, no_escrow):
    """Open a new GAME and write its genesis file for the other seats.

    \b
    Example:
      duelmail new warlords --seat alice --seat bob-card.toml --option reinforcements
      duelmail new summoner --seat alice --seat bob-card.toml --time days_per_move=1
    """
    ident = ctx.identity()
    cards = [_load_card(ctx, s) for s in seats]
    played = _app().create_game(ctx.home, ident, game, cards, _parse_options(options), now(), os.urandom(16),
                                _app().time_control(times), escrow={"off": True} if no_escrow else None)
    path = _copy_out(played.path, out)
    if git_dir:  # said once it is pushed, or what is left when it cannot be
        new_in_repo(ctx, ident, played, git_dir)
        return
    click.echo(f"new game {played.match.gid[:12]} of {played.match.game.spec.title}")
    click.echo(f"seats: {', '.join(played.match.names())}")
    click.echo(f"send {path} to the other players")


@click.command("join")
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
    from duelmail.protocol.turnfile import parse_any

    ident = ctx.identity()
    files = parse_any(read_text(file, "genesis file", 4 << 20), file)
    genesis = next((f for f in files if f.kind == "genesis"), None)
    if genesis is None:
        raise click.ClickException(f"{file}: not a genesis file")
    played = _app().join_game(ctx.home, ident, genesis, now(), file, send=send)
    click.echo(f"joined game {played.match.gid[:12]} as seat {played.file.seat} ({ident.name})")
    path = _copy_out(played.path, out)
    release_all()
    if send:
        mail_played(ctx, ident, played)
    else:
        retry_outbox(ctx, ident)
    if push:
        push_played(ctx, ident, played)
    if not (send or push or queued(played)):
        click.echo(f"send {path} to the other players")


@click.command("status")
@click.argument("game", required=False)
@game_option
@click.option("--all", "all_games", is_flag=True,
              help="Every game in play in this home, soonest deadline first, and how many are finished.")
@click.option("--finished", is_flag=True, help="With --all: list the finished games too.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_ctx
@handled
def status(ctx, game, all_games, finished, as_json):
    """Who is awaited in GAME, for what, and by when.

    \b
    Example:
      duelmail status
      duelmail status --all
      duelmail status --all --finished
      duelmail status 3f2a --json
    """
    if finished and not all_games:
        raise click.ClickException("--finished lists finished games with --all: 'duelmail status --all --finished'")
    index = ctx.home.index() if all_games else None
    folders = ctx.home.live_folders(index) if all_games else [ctx.home.find(game)]
    if all_games and not folders and not index.finished:
        raise click.ClickException(f"no games in {ctx.home.root}")
    broken: list[tuple[str, str]] = []
    rows = []
    for folder in folders:
        try:
            rows.append(_status_of(ctx, folder, alone=not all_games))
        except (DuelmailError, OSError, ValueError, ArithmeticError) as e:
            if not all_games:
                raise
            broken.append((folder.path.name, str(e)))  # one bad game never hides the others
    t = now()
    if all_games:
        done, settled = (list(index.rows().values()) if finished else None), index.finished
        named = {r["game"][:12]: r for r in rows}
        settle_rows(index, [(f, named[f.path.name[-12:]]) for f in folders if f.path.name[-12:] in named])
        for line in all_games_lines(rows, broken, t, ctx.home, as_json, done, settled):
            click.echo(line)
        return
    data = rows[0]
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    for line in status_lines(data, t):
        click.echo(line)


def _awaiting_me(ctx, game: str | None) -> str | None:
    """With no GAME named and several games in play: the one that awaits this home's player, said on stderr
    ("game warlords-3f2a9c1b7d4e (Warlords, against bob): the one awaiting you"), so that play, moves and show need
    no id. ``game`` itself otherwise (None where the home's one game is meant, or none awaits, or several do: the
    usual error names them)."""
    from duelmail.errors import GameNotFound

    if game is not None:
        return game
    try:
        ctx.home.find(None)
        return None
    except GameNotFound:
        pass
    mine = []
    for folder in ctx.home.live_folders():
        try:
            data = _status_of(ctx, folder)
        except (DuelmailError, OSError, ValueError):
            continue  # a game that cannot be read is named by the usual error, never picked
        if data["your_turn"] and not data["over"]:
            mine.append((folder, data))
    if len(mine) != 1:
        return None
    folder, data = mine[0]
    others = [n for s, n in enumerate(data["seats"]) if s != data["you"]]
    click.echo(f"game {folder.path.name} ({data['title']}, against {' and '.join(others)}): the one game awaiting "
               "you", err=True)
    return folder.path.name


def _status_of(ctx, folder, alone: bool = True) -> dict:
    seat = ctx.home.me(folder).get("seat")
    data = _cached_status(folder, seat) if ctx.as_name is None else None
    if data is None:
        ident, folder, match, seat = _open(ctx, folder.path.name)
        data = _status_data(match, seat)
        _store_status(folder, seat, data)
    return {**data, "cheats": folder.cheats(), "late": folder.unclaimed_late(), **by_reply(folder),
            **kept_here(folder, alone)}


@click.command("claim")
@click.argument("game", required=False)
@game_option
@click.option("--out", type=click.Path(file_okay=False), help="Also copy the claim into this folder.")
@click.option("--send", is_flag=True, help="Mail the claim to the other seats ('duelmail mail setup').")
@click.option("--push", is_flag=True, help="Commit, pull and push it in the game's repository ('duelmail git').")
@pass_ctx
@handled
def claim(ctx, game, out, send, push):
    """Claim the timeout of a seat whose deadline has passed (signed; the time control settles it).

    Also claims against a file that reached you later than the time it carries allows (it then does not count).

    \b
    Example:
      duelmail claim 3f2a
      duelmail claim --push
    """
    ident, folder, match, seat = _open(ctx, game)
    played = _app().write_claim(folder, match, seat, ident, now(), send=send)
    click.echo(f"round {played.file.round}: {played.match.told_to(played.events[-1:])[0].text}")
    click.echo(f"wrote {_copy_out(played.path, out)}" + ("" if send or push or queued(played)
                                                          else ": send it to the other players"))
    release_all()  # written: sending only reads, and a sync locks what it changes one folder at a time
    if send:
        mail_played(ctx, ident, played)
    else:
        retry_outbox(ctx, ident)
    if push:
        push_played(ctx, ident, played)


@click.command("show")
@click.argument("game", required=False)
@game_option
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
    key = None
    game = _awaiting_me(ctx, game)
    if not (svg_out or html_out) and ctx.as_name is None:  # the text alone: from its cache if nothing changed
        try:
            folder = ctx.home.find(game)
            key = _show_key(ctx.home, folder)
        except DuelmailError:  # said below, in the order the fold says it (a missing identity first)
            key = None
        text = _cached_show(folder, key) if key is not None else None
        if text is not None:
            click.echo(text, nl=False)
            return
    ident, folder, match, seat = _open(ctx, game)
    _refresh_status(folder, match, seat)
    lines, view = _show_lines(folder, match, seat, ident)
    for line in lines:
        click.echo(line, nl=False)
    if key is not None and seat == ctx.home.me(folder).get("seat") and not _needs_passphrase(ctx):
        _store_show(folder, key, "".join(lines))
    written = []
    if svg_out or html_out:  # the pictures' code is imported only when a picture is asked for
        from duelmail.pictures import table_page, table_svg
        from duelmail.util.fs import atomic_write
    if svg_out:
        picture = table_svg(view, seat)
        if picture is None:
            raise DuelmailError(f"{match.game.spec.title} draws no picture of its table")
        written.append(atomic_write(svg_out, picture))
    if html_out:
        from duelmail.cli.plain import _recent

        lately = _recent(match, seat, match.seen(seat) if seat in match.own else None)
        written.append(atomic_write(html_out, table_page(view, seat, lately)))
    for path in written:
        click.echo(f"wrote {path}")
    if written and (sys.stdout.isatty() if open_it is None else open_it):
        click.launch(Path(written[-1]).resolve().as_uri())


@click.command("history")
@click.argument("game", required=False)
@game_option
@click.option("--protocol", is_flag=True, help="Also list deck passes, key shares and seeds.")
@pass_ctx
@handled
def history(ctx, game, protocol):
    """The game so far in words, one line an event, each card named by its face once you have seen it.

    \b
    Example:
      duelmail history
      duelmail history 3f2a --protocol
    """
    ident, folder, match, seat = _open(ctx, game)
    _refresh_status(folder, match, seat)
    events = [e for e in match.events if protocol or not e.technical]
    for e in match.told_to(events, match.seen(seat) if seat is not None else None, plain=not protocol):
        click.echo(f"round {e.round:>3}  {e.text}")
    if match.over():
        click.echo("game over: " + match.describe_outcome())


@click.command("moves")
@click.argument("game", required=False)
@game_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--all", "every", is_flag=True, help="One line per move even when there are many (else grouped).")
@pass_ctx
@handled
def moves(ctx, game, as_json, every):
    """Your legal moves now, numbered and in words (many moves are grouped; --all lists each; --json adds notation).

    'duelmail play N' makes move N (several numbers: one after the other); so do its words.

    \b
    Example:
      duelmail moves
      duelmail moves --all
    """
    from duelmail.choosing import choices_in, numbered, shown_move
    from duelmail.games.base import for_player

    ident, folder, match, seat = _open(ctx, _awaiting_me(ctx, game))
    _refresh_status(folder, match, seat)
    pending = _pending(folder)
    listed = []
    if seat in match.duties and seat not in match.current:
        view = match.draft(seat, ident, pending)
        listed = choices_in(view, seat)
        known = view.known(seat) if listed else {}
    names = match.names()
    if as_json:
        click.echo(json.dumps([{"number": c.number, "move": c.move, "means": c.words,
                                "typed": shown_move(c.move, names), "careful": c.warning} for c in listed], indent=2))
        return
    if not listed and match.over():
        click.echo(f"game {match.gid[:12]} is over: {match.describe_outcome()}")
        return
    if not listed:
        from duelmail.transport.archive import waiting_words

        click.echo(("no decision of yours is awaited" if seat not in match.duties or seat in match.current else
                    "nothing to decide: 'duelmail play' sends your decision-free answer")
                   + f" (now: {waiting_words(match, seat)})")
        return
    if len(listed) <= MANY_MOVES or every:  # in words alone: the notation is in 'moves --json' ("typed")
        for line in numbered(listed):
            click.echo(line)
        click.echo("'duelmail play N' makes move N; 'duelmail play' in a terminal asks")
        return
    legal = [(c.move, c.words) for c in listed]
    groups: dict[tuple[str, ...], list[list[str]]] = {}
    for m, _ in legal:
        words = m.split()
        groups.setdefault(tuple(words[:2]), []).append(words[2:])
    for head, rests in groups.items():  # said with the card's name, never its position (issue 39)
        named = for_player(_faces(" ".join(head), known, view.state.card_name))
        where = list(dict.fromkeys(for_player(_faces(r[0], known, view.state.card_name)) for r in rests if r))
        tails = list(dict.fromkeys(for_player(_faces(" ".join(r[1:]), known, view.state.card_name))
                                   for r in rests if r))
        line = f"{named} to {' '.join(where)}" if where else named
        if tails != [""]:
            line += f", each {' or '.join(t or 'as it is' for t in tails)}"
        click.echo(f"{line}  ({len(rests)} move{'s' if len(rests) != 1 else ''})")
    click.echo(f"{len(legal)} moves in {len(groups)} groups: a move is a group's words, one place and one of "
               "its endings ('duelmail moves --all' numbers each)")


MANY_MOVES = 40  # more legal moves than this are grouped by their first two words


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


def _faces(text: str, known, name=lambda r, c: str(c)) -> str:
    """``text`` with each card the seat knows as its name: ``play b#7`` -> ``play the Recruit``."""
    from duelmail.games.cards import CardRef

    def named(m: re.Match) -> str:
        ref = CardRef.parse(m.group(0))
        face = known.get(ref)
        return f"the {name(ref, face)}" if face else m.group(0)

    return re.sub(r"[a-z]+[0-9]*(?:\.[0-9]+)?#[0-9]+(?![0-9=])", named, text)


@click.command("undo")
@click.argument("game", required=False)
@game_option
@click.option("--all", "everything", is_flag=True, help="Drop every noted move of this turn.")
@pass_ctx
@handled
def undo(ctx, game, everything):
    """Drop the last move noted for your unfinished turn, or all (and their words) with --all.

    Noted moves were never sent: they stay on this machine until the turn is finished.

    \b
    Example:
      duelmail undo
      duelmail undo --all
    """
    ident, folder, match, seat = _open(ctx, game)
    data = _pending_data(folder)
    pending = list(data.get("actions", []))
    if not pending and everything and data.get("say"):
        _set_pending(folder, [])
        click.echo(f'dropped your noted words: "{data["say"]}"')
        return
    if not pending:
        raise click.ClickException(f"game {match.gid[:12]}: no moves are noted, nothing to undo (a file already "
                                   "sent cannot be taken back)")
    dropped, kept = (pending, []) if everything else (pending[-1:], pending[:-1])
    _set_pending(folder, kept, None if everything else data.get("say"))
    from duelmail.choosing import said_moves

    click.echo(f"dropped: {'; '.join(said_moves(match, seat, ident, pending)[len(kept):])}")
    if kept:
        click.echo(f"still noted: {'; '.join(said_moves(match, seat, ident, kept))}")
    if seat in match.duties and seat not in match.current:
        view = match.draft(seat, ident, kept)
        click.echo(f"your move: {view.named(view.state.prompt(seat))}")


class _TakesMoves(click.Command):
    """A command whose arguments are moves: a number typed with a minus sign is said to be no move, not an option."""

    def parse_args(self, ctx, args):
        for arg in args:
            if arg == "--":
                break
            if re.fullmatch(r"-\d+", arg):
                raise click.UsageError(f"there is no move {arg}: the moves are numbered from 1 "
                                       "('duelmail moves' lists them)", ctx)
        return super().parse_args(ctx, args)


@click.command("play", cls=_TakesMoves)
@click.argument("moves", nargs=-1)
@click.option("--game", "-g", metavar="GAME", help=GAME_HELP)
@click.option("--bot", help="Let a bot decide (random, heuristic).")
@click.option("--seed", type=int, default=None, help="Seed for the bot's choices.")
@click.option("--out", type=click.Path(file_okay=False), help="Also copy the new file into this folder.")
@click.option("--vacation", metavar="START:DAYS",
              help="Announce a vacation in this file (e.g. 2026-12-20:7): your clock stops for those days.")
@click.option("--send", is_flag=True, help="Mail the new file to the other seats ('duelmail mail setup').")
@click.option("--push", is_flag=True, help="Commit, pull and push it in the game's repository ('duelmail git').")
@click.option("--say", "say", metavar="TEXT",
              help="Table talk, signed, carried in the turn file (when it is not your turn: sent as a note).")
@click.option("--ask/--no-ask", "ask", default=None,
              help="With no MOVES: show the table and the numbered list of your legal moves and ask which "
                   "(default: when run in a terminal).")
@click.option("--yes", "-y", "sure", is_flag=True,
              help="Play a move the list marks 'careful' (it loses at once) without asking; so does 'yes' after it.")
@click.option("--verbose", "-v", is_flag=True,
              help="A refused move: the rules' own words too (the cards' positions, the rule's id, the notation).")
@pass_ctx
@handled
def play(ctx, moves, game, bot, seed, out, vacation, send, push, say, ask, sure, verbose):
    """Make your MOVES and write your next turn file (in GAME: --game, or a game id after the moves).

    In a terminal, with no MOVES, shows the table and a numbered list of every move legal now,
    and asks: answer with a number ("2"), several ("1 then 4"), or words ("attack bob with the king");
    'undo' takes the last choice back. MOVES are the list's numbers or words too, or the game's
    notation ('duelmail rules GAME' ends with it). Moves that do not finish your turn are kept until
    you add the rest. A move the list marks 'careful' (it ends the game against you, or puts out
    your own character) is played only once you confirm it: asked in a terminal, else --yes,
    'yes' after the move, or its number given twice ('play 4 4'). With no moves and no decision
    awaited, sends whatever needs none (key shares, deck passes, reveals).

    \b
    Example:
      duelmail play
      duelmail play 2
      duelmail play 4 yes
      duelmail play 4 4
      duelmail play "warlord KC" end
      duelmail play --bot heuristic
      duelmail play end --say "well played"
    """
    moves = list(moves)
    asked_help = [m.lower() for m in moves] in (["help"], ["?"], ["list"])
    if asked_help:
        moves, ask = [], False  # 'play help': the numbered list, and how to choose from it
    if moves and game is None and re.fullmatch(r"(?:[a-z]+-)?[0-9a-f]{3,64}", moves[-1]) \
            and len(ctx.home.matching(moves[-1])) == 1:
        game = moves.pop()  # 'duelmail play MOVE... GAME': a game's short id (or folder name) last
    game = _awaiting_me(ctx, game)
    if len(moves) > 1 and moves[-1].lower() in ("yes", "confirm", "sure"):
        moves, sure = moves[:-1], True  # 'duelmail play 4 yes': a move marked 'careful', meant
    ident, folder, match, seat = _open(ctx, game)
    if match.over() and (moves or bot or seat not in match.duties):
        left = "; 'duelmail play' sends what the audit still needs" if seat in match.duties else ""
        raise click.ClickException(f"game {match.gid[:12]} is over: {match.describe_outcome()}{left}")
    if say is not None:
        from duelmail.engine.talk import check_say
        from duelmail.errors import IllegalMove

        try:
            check_say(say)
        except IllegalMove as e:
            raise click.ClickException(f"game {match.gid[:12]}, round {match.round}: {e}") from None
    if say is not None and not moves and not bot and seat is not None and (
            seat not in match.duties or seat in match.current):
        _send_note(ctx, ident, folder, match, seat, out, send, push, say=say)  # talk never waits for a turn
        return
    if seat is None or seat not in match.duties or seat in match.current:  # current: already answered
        mine = sorted(p for p in folder.path.glob(f"r*-s{seat}.toml")) if seat is not None else []
        last = f"; your last file is {mine[-1]} (send it again if it did not go out)" if mine else ""
        from duelmail.transport.archive import waiting_words

        raise click.ClickException(f"game {match.gid[:12]}: nothing is awaited from you in round {match.round} (now: "
                                   f"{waiting_words(match, seat)}){last}")
    noted = _pending_data(folder)
    say = say if say is not None else noted.get("say")
    if not sure and len(moves) == 2:
        from duelmail.choosing import choices, twice

        if twice(moves, choices(match, seat, ident, list(noted.get("actions", [])))):
            moves, sure = moves[:1], True  # 'duelmail play 2 2': "yes, move 2", of a move marked 'careful' only
    try:
        actions = list(noted.get("actions", [])) + _read_moves(match, seat, ident, moves,
                                                               list(noted.get("actions", [])), verbose)
    except DuelmailError as e:  # a typed move refused: in words, the rules' own text under --verbose
        raise click.ClickException(_refused(match, seat, ident, e, noted.get("actions", []), moves, verbose)) \
            from None
    if moves and not sure:
        _check_careful(match, seat, ident, moves, list(noted.get("actions", [])), actions)
    if not moves and not bot and (sys.stdin.isatty() and sys.stdout.isatty() if ask is None else ask):
        actions, say = _ask(folder, match, seat, ident, actions, say)
    if bot:
        b = match.game.bots.get(bot)
        if b is None:
            raise click.ClickException(f"no bot {bot!r} for {match.game.spec.id} "
                                       f"(bots: {', '.join(match.game.bots)})")
        import random


        rng = random.Random(seed)
        actions = _app().bot_actions(match, seat, ident, b(), rng, start=actions)  # finishes from the noted moves
    noted_before = list(noted.get("actions", []))
    try:
        draft = match.draft(seat, ident, actions)
    except DuelmailError as e:
        said = _refused(match, seat, ident, e, noted_before, moves, verbose)
        if not noted_before:
            raise click.ClickException(said) from None
        from duelmail.choosing import said_moves

        before = "; ".join(said_moves(match, seat, ident, noted_before)) if not verbose else ", ".join(noted_before)
        raise click.ClickException(f"{said}; noted before: {before} ('duelmail undo' drops the last, "
                                   "'duelmail moves' lists what you may play)") from None
    if not draft.over() and seat in draft.state.deciders() and draft.ready(seat) \
            and (match.duties[seat].decide or actions):
        _set_pending(folder, actions, say)
        if len(actions) > len(noted_before):
            from duelmail.choosing import said_moves

            click.echo(f"noted: {'; '.join(said_moves(match, seat, ident, actions))}"
                       + (f' (and your words: "{say}")' if say else ""))
            click.echo(f"your turn goes on: {draft.named(draft.state.prompt(seat))} ('duelmail moves' lists them, "
                       "'duelmail undo' drops the last)")
            return
        from duelmail.choosing import choices_in, compact

        click.echo(f"your move: {draft.named(draft.state.prompt(seat))}")  # nothing chosen: what may be
        for line in compact(choices_in(draft, seat)):  # many moves: grouped, each keeping its number
            click.echo(line)
        click.echo("'duelmail play N' makes move N (several: 'duelmail play 1 4'); in a terminal 'duelmail play' "
                   "asks")
        return
    played = _app().write_turn(folder, match, seat, ident, actions, now(), vacation=_vacation(vacation), say=say,
                               send=send)
    _set_pending(folder, [])
    more = _app().owed(folder, played.match, seat, ident, now(), send=send)  # what it then owes with no decision
    last = more[-1] if more else played
    _store_views(ctx, folder, last.match, seat, ident)
    for p in (played, *more):
        for e in p.match.told_to([e for e in p.events if not e.technical], p.match.seen(seat)):
            click.echo(f"round {e.round}: {e.text}")  # play, not the key shares and deck passes it carries
    click.echo(f"wrote {_copy_out(played.path, out)}" + ("" if send or push or more or queued(played) else
                                                          ": send it to the other players"))
    for p in more:
        click.echo(f"answered automatically ({p.owed}): {_copy_out(p.path, out)}"
                   + ("" if send or push or queued(p) or p is not last else ": send these to the other players"))
    for line in folder.not_cached:  # a full disk after the move was written: the move stands
        click.echo(f"your move is made and written; could not keep the cache {line}")
    _say_awaited(last.match, seat)
    release_all()  # written: sending only reads, and a sync locks what it changes one folder at a time
    if send:
        mail_played(ctx, ident, played, *more)
    else:
        retry_outbox(ctx, ident)  # this file, in a home that mails its games, and what earlier ones left unsent
    if push:
        push_played(ctx, ident, last)


def _check_careful(match, seat, ident, typed, noted, actions) -> None:
    """Refuse, before anything is noted or signed, a move the list marks 'careful' that the player did not confirm:
    the move named again with its warning, and how to confirm it."""
    from duelmail.choosing import asked, chosen_as_listed, warned

    try:
        risky = warned(chosen_as_listed(match, seat, ident, actions[len(noted):], noted))
    except DuelmailError:  # not playable as typed: the draft below says why, in its own words
        return
    if risky:
        again = " ".join(f'"{m}"' if " " in m else m for m in typed)
        twice = f"; or the number twice: 'duelmail play {again} {again}'" if again.isdigit() else ""
        raise click.ClickException(f"not played: {asked(risky)}. If you mean it: 'duelmail play {again} yes' "
                                   f"(or --yes{twice})")


def _refused(match, seat, ident, error, noted, typed, verbose) -> str:
    """A refused move as the player reads it (``choosing.refusal``: in words, the moves legal now); ``--verbose``
    adds the rules' own text."""
    from duelmail.choosing import refusal

    said = refusal(match, seat, ident, error, list(noted), " ".join(typed))
    return f"{said}\n(as the rules say it: {error})" if verbose else said


def _read_moves(match, seat, ident, moves, noted, verbose=False) -> list[str]:
    """MOVES from the command line: the list's numbers (``2``, ``1 4``), then the notation, then words."""
    from duelmail.choosing import ChoiceError, read_step

    if moves and all(m.strip().isdigit() for m in moves):  # numbers of the list, each after the ones before
        out: list[str] = []
        for m in moves:
            out.append(read_step(match, seat, ident, m, [*noted, *out]).move)
        return out
    try:
        return _app().read_moves(match, seat, ident, moves)
    except DuelmailError as notation:
        try:
            return [read_step(match, seat, ident, " ".join(moves), noted).move]
        except ChoiceError as words:  # "did you mean" says it best; else what the notation expects, too (--verbose)
            if "did you mean" in str(words) or not verbose:
                raise
            raise click.ClickException(f"{notation}; {words}") from None


def _ask(folder, match, seat, ident, actions, say):
    """The table and the numbered list of legal moves, and the player's choices until the turn is made."""
    from duelmail.choosing import ChoiceError, choices, compact, read_answer

    if not choices(match, seat, ident, actions):
        return actions, say  # nothing to decide: what needs no decision is sent
    for line in _show_lines(folder, match, seat, ident)[0]:
        click.echo(line, nl=False)
    said: list[str] = []  # the words of the moves chosen here
    while True:
        listed = choices(match, seat, ident, actions)
        if not listed:
            return actions, say
        if said:
            view = match.draft(seat, ident, actions)
            click.echo(f"chosen so far: {'; '.join(said)}")
            click.echo(f"your move: {view.named(view.state.prompt(seat))}")
        for line in compact(listed):  # many moves (Grid's first): grouped, each keeping its number
            click.echo(line)
        try:
            text = click.prompt("your choice (a number, several, or words; 'undo' takes one back)",
                                default="", show_default=False)
        except click.Abort:
            if actions:
                _set_pending(folder, actions, say)
                from duelmail.choosing import said_moves

                click.echo(f"\nnoted: {'; '.join(said_moves(match, seat, ident, actions))} ('duelmail play' goes on)")
            raise click.ClickException("nothing sent") from None
        try:
            answer = read_answer(match, seat, ident, text, actions)
        except ChoiceError as e:
            click.echo(f"not understood: {e}")
            continue
        risky = [c for c in answer.chosen if c.warning]
        if risky and not click.confirm("careful: " + "; ".join(f"{c.words!r} {c.warning}" for c in risky)
                                       + ". Play it anyway?", default=False):
            click.echo("not chosen")
            continue
        if answer.undo:
            if actions:
                click.echo(f"took back: {said.pop() if len(said) == len(actions) else actions[-1]}")
                actions.pop()
            else:
                click.echo("nothing chosen yet to take back (a file already sent cannot be taken back)")
        elif answer.resign:
            click.echo("to resign, run 'duelmail resign' (it is signed and sent like a move)")
        elif answer.say is not None:
            say = answer.say
            click.echo(f'your words go with this turn: "{say}"')
        actions += answer.moves
        said += [c.words for c in answer.chosen]


@click.command("rules")
@click.argument("game", callback=_check_game)
@handled
def rules(game):
    """The rules of GAME in words (our digest, each rule numbered), with the moves' notation at the end.

    \b
    Example:
      duelmail rules warlords
      duelmail rules wizard | less
    """
    click.echo(_app().rules_text(game), nl=False)


@click.command("archive")
@click.argument("game", required=False)
@game_option
@pass_ctx
@handled
def archive(ctx, game):
    """File a finished GAME away (into HOME/archive/): commands no longer pick it, its files stay verifiable.

    \b
    Example:
      duelmail archive 3f2a
    """
    if game is None:
        raise click.UsageError("name the game to archive: duelmail archive GAME (or -g GAME)")
    folder = ctx.home.find(game)
    match = folder.fold()
    if not match.over():
        from duelmail.transport.archive import awaited_text

        raise click.ClickException(f"game {match.gid[:12]} is not over (awaiting {awaited_text(match)}): only a "
                                   "finished game is archived")
    if ctx.home.me(folder).get("seat") in match.duties:
        raise click.ClickException(f"game {match.gid[:12]} is over, but the audit still awaits your file: "
                                   f"'duelmail play {match.gid[:6]}' sends it; archive the game after")
    click.echo(f"archived game {match.gid[:12]} ({match.describe_outcome()}) to {ctx.home.archive(folder)}")


@click.command("receive")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--auto/--no-auto", default=True, show_default=True,
              help="Write your decision-free answer (key shares, reveals) at once.")
@click.option("--out", type=click.Path(file_okay=False), help="Copy any answer written into this folder.")
@pass_ctx
@handled
def receive(ctx, files, auto, out):
    """Verify incoming turn FILES and apply them; refuse a bad file and change nothing.

    A FILE is a turn file (UTF-8, or UTF-16 as Notepad saves it), a text holding armoured turns, or a whole mail
    you saved (.eml, an mbox, a forwarded message), read as 'duelmail mail fetch FILE' reads it.

    \b
    Example:
      duelmail receive ~/Downloads/r0007-s1.toml
      duelmail receive ~/Downloads/"round 7.eml"
    """
    receive_files(ctx, files, auto, out, click.echo)


@click.command("verify")
@click.argument("path", type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@handled
def verify(path, as_json):
    """Check a whole archive: signatures, chain, deck, rules, and the full audit once the game is over.

    Exit status 0 only when everything holds.

    \b
    Example:
      duelmail verify examples/grid-game
      duelmail verify ~/.local/share/duelmail/games/warlords-3f2a9c1b7d4e
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


@click.command("demo")
@click.argument("game", default="warlords", callback=_check_game)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for the bots and identities.")
@click.option("--players", type=int, default=2, show_default=True,
              help="How many bots play (Warlords takes 2 to 12, Wizard Duel 3 to 12).")
@click.option("--option", "options", multiple=True, help="Game option, K=V (K=@FILE: the file's text), or a bare flag.")
@click.option("--out", type=click.Path(file_okay=False), help="Where to play (default: a temporary folder).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
@handled
def demo(game, seed, players, options, out, quiet):
    """Bots play a whole GAME through real turn files between separate homes, then verify it.

    \b
    Example:
      duelmail demo warlords --seed 7
      duelmail demo wizard --players 4 --quiet
    """
    import tempfile


    target = _app().demo_folder(Path(out), game, seed, players) if out else \
        Path(tempfile.mkdtemp(prefix="duelmail-demo-"))
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
