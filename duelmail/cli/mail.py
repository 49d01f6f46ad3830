"""``duelmail mail``: set up a mail account, send your turn, fetch and apply what arrived.

Registered in ``duelmail.cli``; the work is done by ``duelmail.transport.mail`` and ``duelmail.delivery``
(``mail``, ``arrivals``).
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

import click

from duelmail.cli.common import (
    _app,
    _store_views,
    handled,
    now,
    password_for,
    refresh_views,
    retry_outbox,
    send_played,
)


@click.group("mail")
def mail():
    """Play by email: set up the account, send turns, fetch and apply what arrived.

    \b
    Example:
      duelmail mail setup --smtp-host smtp.example.org --user alice --imap-host imap.example.org
      duelmail play "attack a#3 a#17" --send
      duelmail mail fetch
    """


@mail.command("setup")
@click.option("--smtp-host", help="Outgoing server.")
@click.option("--smtp-port", type=int, help="Outgoing port (587 for STARTTLS, 465 for TLS).")
@click.option("--smtp-security", type=click.Choice(["tls", "starttls", "plain"]),
              help="How to protect SMTP (plain only for a server on this machine).")
@click.option("--smtp-user", help="SMTP login (default: --user; empty: no login).")
@click.option("--imap-host", help="Incoming server.")
@click.option("--imap-port", type=int, help="Incoming port (993 for TLS, 143 for STARTTLS or plain).")
@click.option("--imap-security", type=click.Choice(["tls", "starttls", "plain"]), help="How to protect IMAP.")
@click.option("--imap-user", help="IMAP login (default: --user).")
@click.option("--user", help="Login for both servers.")
@click.option("--folder", help="IMAP folder to read turns from (default INBOX).")
@click.option("--processed", type=click.Choice(["flag", "move"]),
              help="What to do with a processed message: flag it ($Duelmail and seen) or move it.")
@click.option("--processed-folder", help="Where 'move' puts processed messages (default 'duelmail').")
@click.option("--address", help="From: address (default: your identity's).")
@click.option("--ca-file", type=click.Path(dir_okay=False), help="Also trust this CA (a private server's own).")
@click.option("--keyring", "use_keyring", is_flag=True, help="Ask for the password and keep it in the OS keyring.")
@click.option("--password-in-config", is_flag=True,
              help="Ask for the password and keep it in config.toml in plain text (not recommended).")
@click.option("--reply-play/--no-reply-play", default=None,
              help="Play by reply: 'duelmail watch' mails you your moves and plays your replies (off by default).")
@click.option("--agent/--no-agent", default=None,
              help="With a passphrase-sealed identity: a long-lived 'duelmail watch' holds it for reply play.")
@click.pass_obj
@handled
def setup(ctx, smtp_host, smtp_port, smtp_security, smtp_user, imap_host, imap_port, imap_security, imap_user,
          user, folder, processed, processed_folder, address, ca_file, use_keyring, password_in_config, reply_play,
          agent):
    """Write the mail account settings into this home's config.toml (the password is not kept there).

    The password comes from the OS keyring (with the keyring extra), else $DUELMAIL_MAIL_PASSWORD,
    else a prompt; --password-in-config keeps it in plain text only because you insist.

    --reply-play: 'duelmail watch' on this (always-on) machine mails you a numbered list of your legal moves
    whenever one of your games needs a decision, and plays your reply to it (a number, words, 'resign' ...)
    from any mail client (docs/transports.md, "Play by reply").

    \b
    Example:
      duelmail mail setup --user alice --smtp-host smtp.example.org --imap-host imap.example.org
      duelmail mail setup --smtp-host 127.0.0.1 --smtp-port 2525 --smtp-security plain --smtp-user ""
      duelmail mail setup --reply-play
    """
    from duelmail.transport import mail as mailt

    try:
        current = mailt.load_settings(ctx.home)
    except mailt.MailError:
        current = mailt.MailSettings()
    given = {"smtp_host": smtp_host, "smtp_port": smtp_port, "smtp_security": smtp_security,
             "smtp_user": smtp_user if smtp_user is not None else user, "imap_host": imap_host,
             "imap_port": imap_port, "imap_security": imap_security,
             "imap_user": imap_user if imap_user is not None else user, "imap_folder": folder,
             "processed": processed, "processed_folder": processed_folder, "address": address,
             "ca_file": str(Path(ca_file).resolve()) if ca_file else None, "reply_play": reply_play,
             "reply_agent": agent}
    settings = replace(current, **{k: v for k, v in given.items() if v is not None})
    if imap_port is None and imap_security is not None and current.imap_port == mailt.MailSettings.imap_port:
        settings.imap_port = 993 if imap_security == "tls" else 143
    if smtp_port is None and smtp_security is not None and current.smtp_port == mailt.MailSettings.smtp_port:
        settings.smtp_port = 465 if smtp_security == "tls" else 587
    login = settings.imap_user or settings.smtp_user
    host = settings.imap_host or settings.smtp_host
    if use_keyring or password_in_config:
        if not login or not host:
            raise click.UsageError("set --user and a host before storing a password")
        secret = os.environ.get(mailt.PASSWORD_ENV) or click.prompt(f"Password for {login} at {host}",
                                                                    hide_input=True)
        if use_keyring:
            stored = [mailt.store_in_keyring(u, h, secret) for u, h in
                      {(settings.smtp_user, settings.smtp_host), (settings.imap_user, settings.imap_host)} if u and h]
            if not all(stored):
                raise click.ClickException("no OS keyring here: pip install 'duelmail[keyring]', or set "
                                           f"${mailt.PASSWORD_ENV}")
        else:
            settings.password = secret
    if settings.reply_play:
        _check_reply_play(ctx, settings)
    path = mailt.save_settings(ctx.home, settings)
    click.echo(f"mail settings written to {path}")
    if reply_play is not None:
        from duelmail.delivery import replies

        replies.mark(ctx.home, settings.reply_play)
        click.echo("reply play: " + (f"on: 'duelmail watch' mails your moves to {settings.address or '(your identity)'}"
                                     " and plays your replies" if settings.reply_play else "off"))
    if settings.smtp_host:
        click.echo(f"send: {settings.smtp_host}:{settings.smtp_port} ({settings.smtp_security})"
                   + (f" as {settings.smtp_user}" if settings.smtp_user else ", no login"))
    if settings.imap_host:
        click.echo(f"fetch: {settings.imap_host}:{settings.imap_port} ({settings.imap_security}) as "
                   f"{settings.imap_user}, folder {settings.imap_folder}, processed mail: {settings.processed}"
                   + (f" to {settings.processed_folder}" if settings.processed == "move" else ""))
    where = ("config.toml (plain text, as asked)" if settings.password else
             "the OS keyring" if use_keyring else f"${mailt.PASSWORD_ENV}, or a prompt")
    click.echo(f"password: from {where}")


def _check_reply_play(ctx, settings) -> None:
    """Reply play mails and signs while the player is away: it needs an outgoing server, and a sealed identity
    needs an agent (a long-lived watch)."""
    from duelmail.delivery import replies
    from duelmail.util.fs import read_text

    if not settings.smtp_host:
        raise click.ClickException("reply play mails you your moves: set an outgoing server first (--smtp-host)")
    path = ctx.home.identity_path(ctx.as_name)
    replies.refuse_sealed(read_text(path, "identity file"), settings.reply_agent)


@mail.command("send")
@click.argument("game", required=False)
@click.pass_obj
@handled
def send(ctx, game):
    """Mail your newest file of GAME to every other seat (again, if it got lost).

    \b
    Example:
      duelmail mail send 3f2a
    """
    from duelmail.delivery import arrivals

    ident = ctx.identity()
    folder, match, seat = _app().open_game(ctx.home, game, ident)
    if seat is None:
        raise click.ClickException(f"game {match.gid[:12]}: you hold no seat in it")
    played = arrivals.last_played(folder, match, seat)
    left = send_played(ctx, ident, [played])
    if any(u.file == played.path.name and u.game[:12] == match.gid[:12] for u in left):
        raise click.ClickException(f"{played.path.name} of game {match.gid[:12]} was not sent (see above); it is "
                                   "kept in the outbox, and the next 'duelmail mail send', 'play', 'receive', "
                                   "'mail fetch', 'watch' or 'git sync' tries again")


@mail.command("fetch")
@click.argument("source", required=False)
@click.option("--auto/--no-auto", default=True, show_default=True,
              help="Answer what needs no decision (key shares, reveals) at once, and mail the answers.")
@click.pass_obj
@handled
def fetch(ctx, source, auto):
    """Read new mail, verify and apply the turns in it, and say who is awaited now.

    SOURCE is a Maildir, an mbox, a single .eml file, or - for standard input (procmail,
    fetchmail, a sieve pipe); without it, the IMAP account of 'mail setup'. Fetching the same mail
    twice changes nothing. Exit status 1 when a file was refused (it is reported and not applied).

    \b
    Example:
      duelmail mail fetch
      duelmail mail fetch ~/Maildir
      duelmail mail fetch - < message.eml
    """
    from duelmail.delivery import arrivals
    from duelmail.delivery import mail as mailing
    from duelmail.transport import mail as mailt

    ident = ctx.identity()
    src = mailt.open_source(source, lambda: mailt.load_settings(ctx.home), password_for,
                            stdin=sys.stdin.buffer, home_root=ctx.home.root)
    report = mailing.fetch_mail(ctx.home, ident, src, now())
    for a in report.arrivals:
        click.echo(a.line())
    new = [a for a in report.arrivals if a.status == "applied"]
    click.echo(f"{report.letters} messages read, {len(new)} turns applied"
               + (f", {report.ignored} without a turn" if report.ignored else "")
               + (f", {report.replies} repl{'ies' if report.replies != 1 else 'y'} to a 'your move' mail left for "
                  "'duelmail watch'" if report.replies else "")
               + (f"; {report.processed}" if report.letters and report.processed else "")
               + (f"; {report.aside} with a refused file {report.aside_how}" if report.aside else "")
               + (f"; {report.later} left unread, read again once the files before theirs arrive" if report.later
                  else ""))
    answers, decisions = arrivals.answer_duties(ctx.home, ident, now) if auto else ([], [])
    for a in answers:
        click.echo(a.line())
        _store_views(ctx, a.folder, a.played.match, a.played.file.seat, ident)
    try:
        settings = mailt.load_settings(ctx.home)
    except mailt.MailError:
        settings = None
    left = []
    if answers and settings is not None and settings.smtp_host:
        left = send_played(ctx, ident, [a.played for a in answers])  # with what the outbox held from before
    else:
        if answers:
            click.echo("answers written; no SMTP host set up, so send them with 'duelmail mail send'")
        left = retry_outbox(ctx, ident)
    _mail_forwards(ctx, ident)
    from duelmail.transport.archive import awaited_text

    touched = {a.game for a in report.arrivals if a.status in arrivals.APPLIED}
    answered = {a.played.match.game_ref: a.played.match for a in answers}
    shown = []
    for folder in ctx.home.game_folders():
        ref = next((g for g in touched if folder.path.name.endswith("-" + g[:12])), None)
        if ref is not None:
            match = answered.get(ref[:16]) or arrivals.fold(folder)
            shown.append(match)
            click.echo(f"game {match.gid[:12]}: now awaiting {awaited_text(match)}")
    for d in decisions:
        click.echo(d.line())
    refresh_views(ctx, ident, touched, folded=[*shown, *(d.match for d in decisions)])
    if any(a.status == "refused" for a in report.arrivals):
        raise click.ClickException("refused files were not applied (see above)")
    if left:
        raise click.ClickException(f"{len(left)} file{'s' if len(left) != 1 else ''} signed here not sent yet "
                                   "(see above): kept in the outbox, and mailed by the next command that can")


def _mail_forwards(ctx, ident) -> None:
    """Mail the proofs of an equivocation this home keeps to send on (protocol section 5): once each; one that
    cannot go now is kept for the next fetch."""
    from duelmail.delivery import mail as mailing
    from duelmail.transport import mail as mailt

    try:
        settings = mailt.load_settings(ctx.home)
    except mailt.MailError:
        settings = None
    for line in mailing.mail_forwards(ctx.home, ident, now(), settings,
                                      lambda: password_for(settings, settings.smtp_user, settings.smtp_host)):
        click.echo(line)
