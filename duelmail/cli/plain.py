"""What the commands of ``duelmail.cli`` share that needs no click: the context and clock, the caches they keep
fresh (``.status.json``, ``.show.json``), the noted moves (``.pending.toml``), and ``receive``, which the
``duelmail`` command runs without loading click (``receive_plain``): click's imports were about a sixth of a cold
``receive``.

``common`` gives all of these to the command modules beside what needs click.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

from duelmail.cli.cached import SHOW_CACHE, _cached_status, _show_key, _status_key
from duelmail.errors import DuelmailError, IdentityError
from duelmail.home import Home
from duelmail.util.fs import read_text


def _app():
    from duelmail import app

    return app


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
    import click  # only to ask on a terminal

    return click.prompt("Passphrase", hide_input=True)


def _parse_options(pairs) -> dict:
    """K=V pairs; V=@FILE puts the file's text in the genesis (a custom skirmish battlefield)."""
    out = {}
    for p in pairs:
        k, _, v = p.partition("=")
        v = v.strip()
        if v.startswith("@"):
            v = read_text(v[1:], f"--option {k.strip()} file").replace("\r\n", "\n").strip()
        out[k.strip()] = v if "=" in p else True
    return out


def _copy_out(path: Path, out: str | None) -> Path:
    """``--out DIR``: a copy of the file just written, under its own name (``r0007-s1.toml``), or under a name that
    carries its game (``90503a612059-r0007-s1.toml``) when DIR holds another game's file (or anything else) under
    the plain one: files of different games never overwrite each other."""
    if not out:
        return path
    from duelmail.util.fs import atomic_write

    target = Path(out) / path.name
    if target.exists() and _game_of(target) != path.parent.name[-12:]:
        target = Path(out) / f"{path.parent.name[-12:]}-{path.name}"
    return atomic_write(target, path.read_text())


def _game_of(path: Path) -> str | None:
    """The game (first 12 characters of its id) of the duelmail file at ``path``; None for anything else."""
    from duelmail.protocol.turnfile import parse_any

    try:
        return parse_any(read_text(path, "turn file", 4 << 20), str(path))[0].game[:12]
    except Exception:  # noqa: BLE001 - not a duelmail file: never overwritten either
        return None


def _send_on(ctx: Ctx, out: str | None, echo) -> None:
    """Write to ``out`` the files a game folder keeps to send on to every seat (an equivocator's file this home
    holds, the other seats' proof, protocol section 5): the player sends them as any file of the game."""
    from duelmail.util.fs import atomic_write

    for folder in ctx.home.game_folders():
        for name, text in folder.take_again():  # the last call (protocol section 6b): a claim sent on, or an answer
            path = atomic_write(Path(out) / name, text) if out else folder.again_path / name
            echo(f"send to every other seat ({_again_why(text)}): {path}")
        if not out:
            continue
        for name, text in folder.take_forwards():
            path = atomic_write(Path(out) / name, text)
            echo(f"send to every seat (a file this home holds that another seat's file disputes: with another file "
                 f"its seat signed for that round, it proves an equivocation): {path}")


def _again_why(text: str) -> str:
    """Why a file is sent again, as ``GameFolder.send_again`` wrote it in its first line."""
    first = text.split("\n", 1)[0]
    return first.removeprefix("# duelmail: ").strip() or "sent again"


def _retry_outbox(ctx: Ctx, ident, echo, prompt=None) -> list:
    """What this home signed and has not mailed yet (a failing server, a killed command: ``transport/outbox.py``):
    mailed now, in a home with an outgoing server, a line for each file sent or still failing; else each is said.
    What is still unsent comes back. ``prompt``: asks for the password when nothing else gives it (a terminal)."""
    from duelmail.transport.outbox import OUTBOX

    games = str(ctx.home.games_dir)
    try:
        names = os.listdir(games)
    except OSError:
        names = []
    if not any(os.path.exists(os.path.join(games, name, OUTBOX)) for name in names):
        return []  # (one ``stat`` a game, no object made for it: nothing of the mail code is loaded)
    from duelmail.delivery.outbox import send_outbox, unsent
    from duelmail.transport import mail as mailt

    try:
        settings = mailt.load_settings(ctx.home)
    except mailt.MailError:
        settings = None
    if settings is None or not settings.smtp_host:
        left = unsent(ctx.home)
        for u in left:
            echo(u.line() + ": set up an outgoing server ('duelmail mail setup --smtp-host HOST') to send it")
        return left
    user, host = settings.smtp_user, settings.smtp_host
    lines, left = send_outbox(ctx.home, ident, now(), settings,
                              lambda: mailt.get_password(settings, user, host, prompt=prompt))
    for line in lines:
        echo(line)
    return left


def _open(ctx: Ctx, game: str | None):
    ident = ctx.identity()
    folder, match, seat = _app().open_game(ctx.home, game, ident, now())
    return ident, folder, match, seat


def _recent(match, seat, known=None, most: int = 8) -> list[str]:
    """What happened since ``seat``'s last move (at most ``most`` events), in its words."""
    news: list = []  # backwards from the last event, only as far as needed: a long game costs no more
    mine_last = False  # the seat's own move is the last event: the last ``most`` events, its own among them
    for e in reversed(match.events):
        if e.technical:
            continue
        if seat is not None and e.seat == seat and e.said is None:
            if news and not mine_last:
                break
            mine_last = mine_last or not news
        news.append(e)
        if len(news) >= most:
            break
    return [f"round {e.round}: {e.text}" for e in match.told_to(news[::-1], known)]


def _status_data(match, seat) -> dict:
    from duelmail.transport.archive import duty_text, waiting_words

    over = match.over()
    deadlines = match.deadlines()
    return {
        "game": match.gid, "kind": match.game.spec.id, "title": match.game.spec.title, "round": match.round,
        "you": seat, "seats": match.names(),
        # a seat that has sent its file of a round several seats answer is awaited no longer
        "awaited": {str(s): {"what": duty_text(match, s),
                             "deadline": deadlines[s].isoformat() if s in deadlines else None,
                             "claim_from": match.claim_from(s).isoformat() if s in deadlines else None}
                    for s in sorted(match.duties) if s not in match.current},
        "answered": sorted(s for s in match.current if s in match.duties) if not over else [],
        "opened": match.opened_at.isoformat() if match.opened_at else None,
        "your_turn": seat in match.duties and seat not in match.current,
        "now": waiting_words(match, seat) if not over else None,
        "reminder_hours": match.tc.reminder_hours,
        "over": over, "audited": match.audit is not None,
        "audit_ok": bool(match.audit and match.audit.ok),
        "result": match.describe_outcome() if over else None,
        "last": _recent(match, seat, match.seen(seat) if seat in match.own else None),
        "draw_offer": ({"by": match.draw_offer[0], "accepted": sorted(match.draw_accepts)}
                       if match.draw_offer and not over else None),
        "calls": [{"by": c.seat, "against": c.content["against"], "round": c.round} for _, c in match.last_calls()],
    }


def _store_status(folder, seat, data, key: str | None = None) -> None:
    from duelmail.util.fs import atomic_write

    try:
        atomic_write(folder.path / ".status.json",
                     json.dumps({"key": key or _status_key(folder, seat), "data": data}), durable=False)
    except OSError:
        pass  # a read-only archive still answers, just without the cache


def _refresh_status(folder, match, seat) -> None:
    """A command that opened the game (``show``, ``history``, ``moves``) brings the status cache up to date if it
    is not, so the next ``status`` answers from it without loading the engine."""
    key = _status_key(folder, seat)
    if _cached_status(folder, seat, key) is None:
        _store_status(folder, seat, _status_data(match, seat), key)


def _needs_passphrase(ctx: Ctx) -> bool:
    """Whether the identity ``ctx`` acts as is sealed by a passphrase (its ``show`` is then never cached: the
    cache would show its hand without asking)."""
    from duelmail.protocol.identity import Identity

    path = ctx.home.identity_path(ctx.as_name)
    return Identity.is_encrypted(read_text(path, "identity file"))


def _store_show(folder, key: str, text: str) -> None:
    """Keep the text of a plain ``show`` (mode 0600: it names the cards in the seat's hand)."""
    from duelmail.util.fs import atomic_write

    try:
        atomic_write(folder.path / SHOW_CACHE, json.dumps({"key": key, "text": text}), mode=0o600, durable=False)
    except OSError:
        pass  # a read-only archive still answers, just without the cache


def _echo_talk(match, say, last: int = 10) -> None:
    """The last lines of table talk, oldest first."""
    if match.talk:
        say("Talk:")
    for t in match.talk[-last:]:
        say(f'  round {t.round}, {match.cards[t.seat].name}: "{t.text}"')


def _show_lines(folder, match, seat, ident) -> tuple[list[str], object]:
    """What a plain ``show`` prints, a line each: the table from ``seat``, after its noted moves, what happened
    lately, and the talk; and the match the table is drawn from (after the noted moves)."""
    from duelmail.games.base import for_player, in_words

    lines: list[str] = []

    def say(line: str) -> None:
        lines.append(f"{line}\n")

    awaited = seat in match.duties and seat not in match.current and not match.over()  # not sent yet this round
    pending = _pending(folder) if awaited else []
    view = match.draft(seat, ident, pending) if awaited else match
    seen = view.seen(seat)  # a card the table draws by face is said by face in its prompt too, never "a face-down card"
    table = "\n".join(in_words(ln, seen, namer=view.state.card_words) if ln.startswith(("Your move", "Jokers thrown"))
                      else ln for ln in view.named(view.state.render(seat, seen)).split("\n"))
    table = for_player(table)
    deciding = awaited and match.duties[seat].decide
    if not deciding and not match.over():  # the rules' turn is the seat's, but the game awaits others' files first
        table = table.replace("\nYour move: ", "\nYour move once they are in: ")
    say(table)
    if not deciding and not match.over():  # what the table waits for instead, in words
        from duelmail.transport.archive import waiting_words

        say(f"now: {waiting_words(match, seat)}")
    if pending:
        from duelmail.choosing import said_moves

        say(f"noted, not sent (the table above is after them): {'; '.join(said_moves(match, seat, ident, pending))}")
        say("'duelmail undo' drops the last, 'duelmail undo --all' all of them")
    recent = _recent(match, seat, match.seen(seat) if seat in match.own else None)
    if recent:
        say("lately:" + "".join(f"\n  {line}" for line in recent))
    _echo_talk(match, say)
    return lines, view


def _store_views(ctx: Ctx, folder, match, seat, ident) -> None:
    """After a command changed the game: the status cache, and the show cache when a plain ``show`` would keep it
    (this home's own seat, an identity without a passphrase), so the next ``status`` and ``show`` fold nothing."""
    _store_status(folder, seat, _status_data(match, seat))
    if ctx.as_name is None and seat is not None and seat == ctx.home.me(folder).get("seat") \
            and not _needs_passphrase(ctx):
        _store_show(folder, _show_key(ctx.home, folder), "".join(_show_lines(folder, match, seat, ident)[0]))


def refresh_views(ctx: Ctx, ident, games, folded=()) -> None:
    """After files came in by mail or git (``mail fetch``, ``git sync``, ``watch``): the status and show caches of
    ``games`` (game ids, or their first 12 characters) that are not fresh, so the next ``status`` and ``show`` of
    those games fold nothing. ``folded``: matches this command has folded already (a poll's decisions, the games
    ``mail fetch`` reports on), used where they still fold the folder as it is. A game that cannot be read is left
    as it is (the next command says why)."""
    from duelmail.transport.kept import folds_folder
    from duelmail.util.lock import acquire

    refs = {g[:12] for g in games}
    known = {m.gid[:12]: m for m in folded}
    for folder in (ctx.home.folder_of(r) for r in sorted(refs)):  # found by name: one stat per kind of game
        if folder is None:
            continue
        ref = folder.path.name[-12:]
        if _cached_status(folder, ctx.home.me(folder).get("seat")) is not None:
            continue
        try:
            acquire(folder.path, wait=0, say=lambda _: None)  # held by another command: its own caches follow
            match = known.get(ref)
            if match is None or not folds_folder(match, folder):
                match = folder.fold()
        except (DuelmailError, OSError):  # a cache is never worth failing the command that brought the files
            continue
        seat = match.seat_of(ident)
        if seat is not None:
            match.attach(seat, ident)
        _store_views(ctx, folder, match, seat, ident)


def _pending_data(folder) -> dict:
    """``.pending.toml``: the moves noted for this turn (``actions``) and their words (``say``)."""
    from duelmail.errors import LocalFileError
    from duelmail.util import toml

    p = folder.path / ".pending.toml"
    if not p.exists():
        return {}
    data = toml.read(p, LocalFileError, "TOML memo")
    actions, say = data.get("actions", []), data.get("say")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions) \
            or not isinstance(say, str | None):
        raise LocalFileError(f"{p}: 'actions' must be a list of moves as text and 'say' a text (delete the file "
                             "to start the turn again)")
    return data


def _pending(folder) -> list[str]:
    return list(_pending_data(folder).get("actions", []))


def _set_pending(folder, actions: list[str], say: str | None = None) -> None:
    p = folder.path / ".pending.toml"
    if actions or say:
        from duelmail.util import toml
        from duelmail.util.fs import atomic_write

        data = {"actions": actions, **({"say": say} if say else {})}
        text = toml.plain_dumps(list(data.items()))
        if text is None:  # talk in another script than ASCII
            import tomlkit

            text = tomlkit.dumps(data)
        atomic_write(p, text)
    elif p.exists():
        from duelmail.util.fs import forget

        p.unlink()
        forget(folder.path)


def awaited_lines(match, reader: int | None = None) -> list[str]:
    """Who the game awaits now, and its result once over; the timeout claims whose last call is open."""
    from duelmail.transport.archive import awaited_text

    return (["game over: " + match.describe_outcome()] if match.over() else []) + \
        ["now awaiting: " + awaited_text(match, reader)] + [call_line(match, c) for _, c in match.last_calls()]


def call_line(match, claim, you: int | None = None) -> str:
    """A timeout claim whose last call is open (protocol section 6b), in a player's words."""
    by, against = match.cards[claim.seat].name, claim.content["against"]
    hours = match.tc.last_call_hours
    if against == you:
        return (f"{by} claims your timeout for round {claim.round}: a last call. Move, or answer that you are here "
                f"(any duelmail command that reads the claim does so), within {hours} hours of its coming, or you "
                "lose the game by the clock")
    them = match.cards[against].name
    return (f"{by} claims {them}'s timeout for round {claim.round}: a last call. {them} keeps the seat if "
            f"{them}'s move, or a word that {them} is here, comes within {hours} hours of the claim's coming here")


def late_line(match, rnd: int, seat: int, inside: bool = False) -> str:
    """What a player reads of a file that reached its home later than its delivery allowance (protocol §6b);
    ``inside``: a copy of the seat's answer for round ``rnd`` that came only inside this timeout claim."""
    name = match.cards[seat].name
    what = f"this claim counts from a copy of {name}'s answer for round {rnd} that" if inside else \
        f"this file of {name}"
    return (f"{what} came more than {match.tc.delivery_hours} hours after the time it carries: "
            f"{name}'s time for it had run out. 'duelmail claim' claims {name}'s timeout for round {rnd}, and the "
            "file then does not count")


def receive_files(ctx: Ctx, files: list[str], auto: bool, out: str | None, echo) -> None:
    """``duelmail receive FILES``: verify and apply them, then say what the seat must do (or answer at once, when
    ``auto`` and no decision is needed); ``echo`` prints a line. A bad file is refused in one line naming it and
    the good ones are applied all the same; then the command exits 1."""
    ident = ctx.identity()
    refused: list[str] = []  # each bad file refuses itself; the good ones around it are applied
    incoming = []
    for f in files:
        try:
            incoming += _app().read_incoming(Path(f), refused)
        except DuelmailError as e:
            refused.append(str(e))
    from duelmail.transport.archive import ordered

    results, last = [], None
    try:
        for where, f in sorted(ordered(incoming), key=lambda wf: wf[1].game[:16]):
            try:
                got = _app().receive_files(ctx.home, ident, [(where, f)], now(), batch=incoming)
            except DuelmailError as e:
                refused.append(str(e))
                continue
            results += [r for r in got if not r.refused]
            refused += [r.refused for r in got if r.refused]  # a held file that proved bad once it could be checked
            last = f
    finally:
        _send_on(ctx, out, echo)
    try:
        _after_receive(ctx, ident, results, last, auto, out, echo)
    except DuelmailError as e:
        raise DuelmailError("\n".join([*refused, str(e)])) from None
    finally:
        _retry_outbox(ctx, ident, echo)  # the answer just signed, and whatever an earlier command left unsent
    if refused:  # one line each, after what was applied; the command exits 1
        raise DuelmailError("\n".join(refused))


def _after_receive(ctx: Ctx, ident, results, last, auto: bool, out, echo) -> None:
    """What ``receive`` says of the files it applied, then what the seat must do (or the automatic answer)."""
    from duelmail.transport.archive import duty_text
    from duelmail.util.lock import hold

    for r in results:
        echo(r.line())
        if r.duplicate or r.waiting or r.answered:
            continue
        played = [e for e in r.events if not e.technical]  # deck passes and key shares: 'history --protocol'
        for e in r.match.told_to(played, r.match.reader_faces(ident)):
            echo(f"  {e.text}")
        if r.late:
            echo(f"  {late_line(r.match, r.round, r.seat)}")
        for rnd, seat in r.late_copies:  # a copy of an answer that came only inside this claim
            echo(f"  {late_line(r.match, rnd, seat, inside=True)}")
    if not results or last is None:
        return
    folder = _app().game_folder_for(ctx.home, ident, last)
    hold(folder.path)
    match = folder.fold(reuse=next((r.match for r in reversed(results)  # the state receive left, unless changed since
                                    if r.match is not None and r.match.gid[:16] == last.game[:16]), None))
    seat = match.seat_of(ident)
    if seat is not None:
        match.attach(seat, ident)
        _said_again(folder, seat, results, last, echo)
    match, told = _app().settle_calls(folder, match, now())  # last calls that ran out here: their claims stand
    for e in match.told_to(told, match.reader_faces(ident)):
        echo(f"  {e.text}")
    if auto and seat is not None and match.owes_here(seat):  # the answer to a last call needs no decision
        played = _app().write_note(folder, match, seat, ident, now(), here=True, send=True)
        match = played.match
        echo(f"answered the timeout claim automatically: you are here, and your clock for round {match.round} "
             f"starts again (due {match.deadline(seat).isoformat()}): {_copy_out(played.path, out)}; send it to "
             "every other seat")
    if seat in match.duties and seat not in match.current:  # current: this seat's file of the round is in already
        duty = match.duties[seat]
        if auto and not duty.needs_human and _app().late_files(folder, match, seat):
            echo("not answered automatically: a file came late, claim first ('duelmail claim')")
        elif auto and not duty.needs_human:  # every decision-free file it owes, at once (a home never waits on itself)
            for played in _app().owed(folder, match, seat, ident, now(), send=True):
                echo(f"answered automatically ({played.owed}): {_copy_out(played.path, out)}")
                match = played.match
            _store_views(ctx, folder, match, seat, ident)
            if seat in match.duties and seat not in match.current and match.duties[seat].needs_human:
                echo(f"your move: {duty_text(match, seat, seat)}")
            else:
                for line in awaited_lines(match, seat):
                    echo(line)
            return
        echo(f"your move: {duty_text(match, seat, seat)}")
    else:
        for line in awaited_lines(match, seat):
            echo(line)
    _store_views(ctx, folder, match, seat, ident)


def _said_again(folder, seat: int, results, last, echo) -> None:
    """``receive`` of files all applied before (a command run again, after one killed half-way): this seat's answer
    written after them, if there is one, is said again (the killed run may never have said it): a home that mails
    its games has it in its outbox; anyone else sends it by hand."""
    if not all(r.duplicate for r in results):
        return
    from duelmail.transport.outbox import Outbox

    mine = sorted(folder.path.glob(f"r*-s{seat}.toml"))
    if not mine or mine[-1].name <= f"r{last.round:04d}-s{seat}.toml" or \
            any(e["file"] == mine[-1].name for e in Outbox(folder).entries()):
        return
    echo(f"your answer to it is written: {mine[-1]} (send it to the other players if it did not go out)")


def os_error_line(e: OSError) -> str:
    """What the commands say of a file they could not read or write: its name and the system's reason."""
    return f"{e.filename or ''}: {e.strerror or e}"


def receive_plain(args: list[str], environ=os.environ) -> int | None:
    """``duelmail receive [--auto|--no-auto] FILE...`` without click, as the click command would run it: its exit
    status; None (nothing done) for any other command line, which the click command then takes."""
    from duelmail.util.fs import commit
    from duelmail.util.lock import release_all

    if not args or args[0] != "receive" or len(args) < 2:
        return None
    flags = [a for a in args[1:] if a.startswith("-")]
    files = [a for a in args[1:] if not a.startswith("-")]
    if set(flags) - {"--auto", "--no-auto"} or not files or not all(os.path.isfile(f) for f in files):
        return None  # other options, --help, a missing file: the click command says it
    ctx = Ctx(environ.get("DUELMAIL_HOME") or None, environ.get("DUELMAIL_AS") or None)
    try:
        if _needs_passphrase(ctx):
            return None  # it may ask on the terminal: click's prompt
    except (DuelmailError, OSError):
        return None  # no identity, or none by that name: the click command says it

    def echo(line: str) -> None:
        sys.stdout.write(f"{line}\n")

    try:
        try:
            with commit():
                receive_files(ctx, files, (flags or ["--auto"])[-1] == "--auto", None, echo)
        finally:
            release_all()
    except DuelmailError as e:
        message = str(e)
    except BrokenPipeError:
        raise
    except OSError as e:
        message = os_error_line(e)
    except KeyboardInterrupt:  # as click says it: nothing written is left half-done (the commit above)
        sys.stdout.flush()
        sys.stderr.write("\nAborted!\n")
        return 1
    else:
        sys.stdout.flush()
        return 0
    sys.stdout.flush()
    sys.stderr.write(f"Error: {message}\n")
    return 1
