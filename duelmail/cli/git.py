"""``duelmail git``: keep games in git repositories (one folder per game) and sync them.

Registered in ``duelmail.cli``; the work is done by ``duelmail.transport.git`` and ``duelmail.delivery.git``.
"""

from __future__ import annotations

from pathlib import Path

import click

from duelmail.cli.common import handled, retry_outbox, sync_repos


@click.group("git")
def git():
    """Play by git: a repository holds a folder of turn files per game; sync commits, pulls and pushes.

    \b
    Example:
      duelmail git init ~/duels
      duelmail new warlords --seat alice --seat bob-card.toml --git ~/duels
      duelmail git sync
    """


@git.command("init")
@click.argument("directory", default=".", type=click.Path(file_okay=False))
@click.pass_obj
@handled
def init(ctx, directory):
    """Make DIRECTORY a game repository (git init if needed) and sync it from this home.

    DIRECTORY may be a fresh folder or a clone of a shared repository.

    \b
    Example:
      git clone git@example.org:duels.git ~/duels && duelmail git init ~/duels
    """
    from duelmail.delivery import git as gitsync
    from duelmail.transport.git import GitRepo

    ident = ctx.identity()
    path = Path(directory).resolve()
    created = GitRepo(path, (ident.name, ident.email)).init()
    gitsync.add_repo(ctx.home, path)
    click.echo(f"{'created' if created else 'using'} game repository {path}")
    click.echo("'duelmail git sync' (or 'play --push') commits, pulls and pushes your turns")


@git.command("sync")
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@click.option("--auto/--no-auto", default=True, show_default=True,
              help="Answer what needs no decision at once, and push the answers.")
@click.pass_obj
@handled
def sync(ctx, directory, auto):
    """Commit your new turns, pull (rebase) and verify what others pushed, push.

    A file that fails verification is reported (file, commit, round, rule) and not applied; the
    sync goes on. Every repository of this home, or only DIRECTORY. Exit status 1 when a file was refused.

    \b
    Example:
      duelmail git sync
      duelmail git sync ~/duels
    """
    from duelmail.delivery import git as gitsync

    ident = ctx.identity()
    paths = [Path(directory).resolve()] if directory else gitsync.repos(ctx.home)
    if not paths:
        raise click.ClickException(f"no game repository in {ctx.home.root}: 'duelmail git init DIR' first")
    arrivals = sync_repos(ctx, ident, paths, auto=auto)
    retry_outbox(ctx, ident)  # a game this home mails: what an earlier command could not send goes now
    if any(a.status == "refused" for a in arrivals):
        raise click.ClickException("refused files were not applied (see above)")


@git.command("site")
@click.argument("directory", required=False, type=click.Path(file_okay=False, exists=True))
@click.option("--out", type=click.Path(file_okay=False), help="Where to write the pages (default: DIRECTORY/site).")
@click.pass_obj
@handled
def site(ctx, directory, out):
    """Write every game of a repository as a static site for spectators: an index page and one replay page
    per game, built from the signed files alone (public cards only, every card once a game is audited).

    Any static pages host serves the folder as it is. DIRECTORY: a game repository (default: this home's
    only one).

    \b
    Example:
      duelmail git site ~/duels --out ~/duels/docs
    """
    from duelmail.delivery import git as gitsync
    from duelmail.replay.site import write_site

    if directory:
        repo = Path(directory).resolve()
    else:
        known = gitsync.repos(ctx.home)
        if len(known) != 1:
            raise click.ClickException("name the repository: 'duelmail git site DIRECTORY' "
                                       f"(this home has {len(known)})")
        repo = known[0]
    import tempfile

    from duelmail.transport.git import GitRepo

    with tempfile.TemporaryDirectory(prefix="duelmail-site-") as tmp:
        g = GitRepo(repo)
        source = repo
        if g.is_repo():
            g.load_cone()
            shelf = g.shelf() if g.has_commits() else None  # the finished games moved to their own branch
            if g.cone is not None or shelf:  # (a large clone keeps only its games in play in its working tree)
                source = g.export_head(Path(tmp))
                if shelf:
                    g.export_head(source, shelf)
        written = write_site(source, Path(out) if out else repo / "site")
    for p in written:
        click.echo(f"wrote {p}")
