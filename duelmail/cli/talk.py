"""``duelmail say``, ``resign`` and ``draw``: signed notes to the table (protocol section 5a).

Registered in ``duelmail.cli``; ``play --say`` writes its notes through ``duelmail.cli.common._send_note`` too.
"""

from __future__ import annotations

import click

from duelmail.cli.common import (
    GAME_HELP,
    _open,
    _send_note,
    _set_pending,
    handled,
    pass_ctx,
)


def _note_options(fn):
    for option in reversed([
            click.option("--game", "-g", "game_opt", metavar="GAME", help=GAME_HELP),
            click.option("--out", type=click.Path(file_okay=False), help="Also copy the new file into this folder."),
            click.option("--send", is_flag=True, help="Mail it to the other seats ('duelmail mail setup')."),
            click.option("--push", is_flag=True, help="Commit, pull and push it in the game's repository.")]):
        fn = option(fn)
    return fn


@click.command("say")
@click.argument("words", nargs=-1, required=True)
@_note_options
@pass_ctx
@handled
def say_cmd(ctx, words, game_opt, out, send, push):
    """Say TEXT to the table, in turn or not: a signed note that never delays the game ([GAME] TEXT).

    At most 500 characters on one line.

    \b
    Example:
      duelmail say "good game so far"
      duelmail say 3f2a "sorry, slow week"
    """
    words, game = list(words), game_opt
    if len(words) == 2 and game is None:
        game = words.pop(0)
    if len(words) != 1:
        raise click.UsageError("give the text as one quoted argument: duelmail say [GAME] \"TEXT\"")
    ident, folder, match, seat = _open(ctx, game)
    _send_note(ctx, ident, folder, match, seat, out, send, push, say=words[0])


@click.command("resign")
@click.argument("game", required=False)
@click.option("--say", metavar="TEXT", help="Words to go with it.")
@_note_options
@pass_ctx
@handled
def resign_cmd(ctx, game, say, game_opt, out, send, push):
    """Resign GAME, at any time: the other players win, and the audit follows as at any end.

    In a game of three or more players with escrow, you leave and the others play on without you.

    \b
    Example:
      duelmail resign --say "well played"
    """
    game = game or game_opt
    ident, folder, match, seat = _open(ctx, game)
    _send_note(ctx, ident, folder, match, seat, out, send, push, resign=True, say=say)
    _set_pending(folder, [])


@click.command("draw")
@click.argument("answer", type=click.Choice(["offer", "accept", "decline"]))
@click.argument("game", required=False)
@click.option("--say", metavar="TEXT", help="Words to go with it.")
@_note_options
@pass_ctx
@handled
def draw_cmd(ctx, answer, game, say, game_opt, out, send, push):
    """Offer a draw, or accept or decline the open offer; it is a draw once every other player accepts.

    \b
    Example:
      duelmail draw offer
      duelmail draw accept 3f2a
    """
    game = game or game_opt
    ident, folder, match, seat = _open(ctx, game)
    _send_note(ctx, ident, folder, match, seat, out, send, push, draw=answer, say=say)
