"""``duelmail id``: create, show, share and back up identities.

Registered in ``duelmail.cli``; what it shares with the other commands is in ``duelmail.cli.common``.
"""

from __future__ import annotations

import click

from duelmail.cli.common import (
    _passphrase,
    handled,
    pass_ctx,
)
from duelmail.util.fs import read_text


@click.group("id")
def id_group():
    """Create, show, share and back up your identity.

    \b
    Example:
      duelmail id new alice --email alice@example.org
      duelmail id card > alice-card.toml
    """


@id_group.command("new")
@click.argument("name")
@click.option("--email", default="", help="Address other players send your turns to (needed to play by mail only).")
@click.option("--passphrase/--no-passphrase", default=False,
              help="Protect the identity file with a passphrase (prompt, or $DUELMAIL_PASSPHRASE).")
@pass_ctx
@handled
def id_new(ctx, name, email, passphrase):
    """Create a new identity NAME in this home (--email: to play by mail).

    \b
    Example:
      duelmail id new alice --email alice@example.org
      duelmail id new alice
    """
    from duelmail.protocol.identity import Identity

    identity = Identity.generate(name, email)
    secret = _passphrase() if passphrase else None
    path = ctx.home.add_identity(identity, secret)
    click.echo(f"created identity {name}" + (f" <{email}>" if email else
                                              " (no email: to play by mail, make one with --email)"))
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
    text = read_text(file, "identity file")
    from duelmail.protocol.identity import Identity

    secret = _passphrase() if Identity.is_encrypted(text) else None
    ident = Identity.from_toml(text, file, secret)
    ctx.home.add_identity(ident, secret, replace=replace)
    click.echo(f"imported identity {ident.name} <{ident.email}>, fingerprint {ident.card.fingerprint}")
