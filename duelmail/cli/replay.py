"""``duelmail replay``: step through an archived game in the terminal, or write it as one web page.

Registered in ``duelmail.cli`` with ``main.add_command(replay)``; kept apart so the replay can
grow without touching the rest of the command line.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from duelmail.cli.common import Ctx, os_error_line
from duelmail.errors import DuelmailError, NotationError


@click.command("replay")
@click.argument("path", type=click.Path(exists=True))
@click.option("--html", "html_file", type=click.Path(dir_okay=False),
              help="Write the whole replay as one self-contained web page to this file, then stop.")
@click.option("--round", "start_round", type=int, help="Start at this round (default: the start of the game).")
@click.option("--seat", help="Start in this seat's view: a seat number or a player's name (default: the table).")
@click.option("--all", "everything", is_flag=True,
              help="Start showing every card (only for a game that is over and audited).")
def replay(path, html_file, start_round, seat, everything):
    """Step through the archived game in PATH (a game folder), or write it as a web page.

    In the terminal, one command a line: Enter or n (next), b (back), g N (jump to round N),
    e (end), s SEAT (that seat's view), t (the table), a (every card, once the game is over and
    audited), d (deck orders), l (log), v (audit verdict), h (help), q (quit). Before the audit only
    public information is shown, whatever the view. A game folder of this home's own is replayed without
    checking again the deck proofs this home checked as its files arrived (its .proven file).

    \b
    Example:
      duelmail replay examples/warlords-game
      duelmail replay examples/warlords-cheat --round 9 --seat bob --all
      duelmail replay examples/warlords-game --html warlords.html
    """
    from duelmail.replay import load_replay, write_html
    from duelmail.replay.terminal import TerminalReplay

    try:
        game = load_replay(Path(path), _proven_here(Path(path)))
        if html_file:
            out = write_html(game, html_file)
            word, _ = game.verdict()
            click.echo(f"wrote {out} ({out.stat().st_size // 1024 + 1} KB): {len(game.steps)} steps of "
                       f"{game.title}, audit {word.lower()}; open it in any browser, no network needed")
            return
        term = TerminalReplay(game, write=click.echo, colour=True)
        if seat is not None:
            try:
                term.set_seat(seat)
            except NotationError as e:
                raise click.BadParameter(str(e), param_hint="--seat") from None
        if everything:
            message = term.set_everything(True)
            if message:
                raise click.UsageError(message)
        if start_round is not None:
            term.go(game.step_for_round(start_round))
        interactive = sys.stdin.isatty()

        def read() -> str | None:
            line = sys.stdin.readline()
            return line if line else None

        term.run(read, prompt=(lambda: click.echo("replay> ", nl=False)) if interactive else lambda: None)
    except DuelmailError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(os_error_line(e)) from None


def _proven_here(path: Path) -> frozenset[str]:
    """The files whose proofs this home checked as they arrived, if ``path`` is one of its own game folders (a
    folder from anywhere else is checked in full, whatever ``.proven`` it carries)."""
    from duelmail.home import Home
    from duelmail.transport.folder import GameFolder

    ctx = click.get_current_context().find_object(Ctx)
    home = ctx.home if ctx is not None else Home()
    games = home.games_dir.resolve()
    target = path.resolve()
    if not target.is_dir() or target.parent != games:
        return frozenset()
    return GameFolder(target, home.root).proven()
