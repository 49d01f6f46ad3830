"""``duelmail watch``: poll mail and repositories, apply, answer what needs no decision, tell the human.

Registered in ``duelmail.cli``; the loop is ``duelmail.delivery.watch.watch`` (clock and sleep injected).
"""

from __future__ import annotations

import sys
import time

import click

from duelmail.cli.common import handled, now, password_for, refresh_views


@click.command("watch")
@click.option("--once", is_flag=True, help="Poll once and exit: 0 nothing for you to decide, 10 a decision "
                                           "of yours awaits, 1 an error (for cron).")
@click.option("--interval", type=float, default=300, show_default=True, help="Seconds between polls.")
@click.option("--bot", help="Let this bot make your decisions too (a bot seat hosted here).")
@click.option("--seed", type=int, default=None, help="Seed for the bot's choices.")
@click.option("--mail/--no-mail", "use_mail", default=None, help="Poll the mail account (default: if set up).")
@click.option("--source", help="Read mail from this Maildir or mbox instead of IMAP.")
@click.option("--git/--no-git", "use_git", default=True, show_default=True, help="Sync this home's repositories.")
@click.pass_obj
@handled
def watch(ctx, once, interval, bot, seed, use_mail, source, use_git):
    """Poll mail and repositories, apply what arrives, answer what needs no decision on your own.

    Prints one line when a decision is yours ("duelmail: your move in ..."). With --once it polls
    once and exits 0 (nothing for you to decide) or 10 (a decision of yours awaits); 1 is an error.
    With reply play on ('duelmail mail setup --reply-play') it also mails you the list of your legal
    moves for each decision and plays your reply to that mail, from any mail client.

    \b
    Example:
      duelmail watch --interval 120
      duelmail watch --once || notify-send "$(duelmail status --all)"
      duelmail --as warbot watch --bot heuristic
    """
    import random

    from duelmail.delivery import arrivals
    from duelmail.delivery import git as gitsync
    from duelmail.delivery import watch as watching
    from duelmail.transport import mail as mailt

    ident = ctx.identity()
    carriers, replies = [], None
    if use_mail is not False:
        try:
            settings = mailt.load_settings(ctx.home)
        except mailt.MailError:
            if use_mail:
                raise
            settings = None
        if source is not None or (settings is not None and settings.imap_host):
            replies = _reply_play(ctx, ident, settings, once)
            carriers.append(watching.MailCarrier(settings or mailt.MailSettings(), password_for, source,
                                          take=replies.take if replies is not None else None))
    if use_git:
        carriers += [watching.GitCarrier(p) for p in gitsync.repos(ctx.home)]
    def after(p: watching.Poll) -> None:  # the caches of every game the poll changed: status and show fold nothing
        folded = [*(a.played.match for a in p.answers), *(d.match for d in p.decisions)]
        applied = [a.game for a in p.arrivals if a.status in arrivals.APPLIED]
        refresh_views(ctx, ident, [*applied, *(m.gid for m in folded)], folded)

    code = watching.watch(ctx.home, ident, carriers, clock=now, sleep=time.sleep, say=click.echo, interval=interval,
                   once=once, bot=bot, rng=random.Random(seed), after=after, replies=replies)
    sys.exit(code)


def _reply_play(ctx, ident, settings, once: bool):
    """The reply play of ``[mail] reply_play`` (None when off): refused with a sealed identity and no agent."""
    if settings is None or not settings.reply_play:
        return None
    from duelmail.delivery import replies
    from duelmail.protocol.identity import Identity
    from duelmail.transport import mail as mailt
    from duelmail.util.fs import read_text

    replies.refuse_sealed(read_text(ctx.home.identity_path(ctx.as_name), "identity file"), settings.reply_agent)
    if once and Identity.is_encrypted(read_text(ctx.home.identity_path(ctx.as_name), "identity file")):
        raise click.ClickException("reply play with a sealed identity needs a watch that keeps running (the agent "
                                   "holding it): run 'duelmail watch' without --once")
    if not settings.smtp_host:
        raise click.ClickException("reply play mails you your moves: set an outgoing server ('duelmail mail setup "
                                   "--smtp-host HOST')")
    return replies.ReplyPlay(ident, settings.address or ident.email,
                             lambda msgs: mailt.send(settings, msgs,
                                                     lambda: password_for(settings, settings.smtp_user,
                                                                          settings.smtp_host)),
                             spool=ctx.home.root / replies.SPOOL)
