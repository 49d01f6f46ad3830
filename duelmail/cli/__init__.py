"""The ``duelmail`` command: a thin click layer over ``duelmail.app``.

Every library error (``DuelmailError``) becomes a one-line message and exit status 1.

This package holds the ``main`` group; each command group lives in its own module (``identities``,
``game``, ``talk``, ``mail``, ``git``, ``watch``, ``replay``), registered here. What they share is in
``common``; the command modules import it and never each other, nor this module.
"""

from __future__ import annotations

import click

from duelmail.cli import game, git, identities, mail, replay, talk, watch
from duelmail.cli.common import Ctx
from duelmail.util.fs import commit
from duelmail.util.lock import release_all


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
    ctx.with_resource(commit())  # one durable commit point for the command's writes (util/fs.py)


for _command in (identities.id_group,
                 game.new, game.join, game.status, game.claim, game.show, game.history, game.moves, game.undo,
                 game.play, game.archive, game.receive, game.verify, game.demo,
                 talk.say_cmd, talk.resign_cmd, talk.draw_cmd,
                 mail.mail, git.git, watch.watch, replay.replay):
    main.add_command(_command)
