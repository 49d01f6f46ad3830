"""The ``duelmail`` click group (``duelmail.cli.main``): each command group lives in its own module
(``identities``, ``game``, ``talk``, ``mail``, ``git``, ``watch``, ``replay``), registered here by name and
imported only when its command runs (``LazyGroup``): ``duelmail status`` never loads the mail, git or replay code.
What they share is in ``common``; the command modules import it and never each other, nor this module.
"""

from __future__ import annotations

import importlib

import click

from duelmail.cli.common import Ctx
from duelmail.util.fs import commit
from duelmail.util.lock import release_all

COMMANDS: dict[str, str] = {
    "id": "identities:id_group",
    **{name: f"game:{attr}" for name, attr in (
        ("new", "new"), ("join", "join"), ("status", "status"), ("claim", "claim"), ("show", "show"),
        ("history", "history"), ("moves", "moves"), ("undo", "undo"), ("play", "play"), ("archive", "archive"),
        ("receive", "receive"), ("verify", "verify"), ("demo", "demo"), ("rules", "rules"))},
    "say": "talk:say_cmd", "resign": "talk:resign_cmd", "draw": "talk:draw_cmd",
    "mail": "mail:mail", "git": "git:git", "watch": "watch:watch", "replay": "replay:replay",
}
"""Each command's name, and where it lives: ``module:attribute`` under ``duelmail.cli``."""


class LazyGroup(click.Group):
    """A group whose commands are imported when asked for by name (``--help`` lists, so imports, them all)."""

    def __init__(self, *args, lazy: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx) -> list[str]:
        return sorted({*self.lazy, *self.commands})

    def get_command(self, ctx, name: str):
        if name in self.lazy and name not in self.commands:
            module, _, attr = self.lazy[name].partition(":")
            command = getattr(importlib.import_module(f"duelmail.cli.{module}"), attr)
            if command.name != name:
                raise RuntimeError(f"duelmail.cli.{self.lazy[name]} is the command {command.name!r}, not {name!r}")
            self.add_command(command)
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
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
