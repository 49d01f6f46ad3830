"""Play by reply: ``watch`` mails its player the legal moves, reads the player's reply, and moves for them.

A home with reply play on (``[mail] reply_play``) mails its own player, from its own account, a "your move" mail
for each decision of theirs (``ReplyPlay.offer``), with a reply code only this home can compute
(``transport/reply.py``). A reply is checked (``ReplyPlay.play``): from the player's address, carrying a code this
home made for the list now current, not answered before; then its words are read as ``duelmail play`` reads them
(``choosing.read_answer``), checked the same way before anything is signed, signed, and handed to the poll to
send by the game's transport. The player gets an answer either way. Nothing a reply says is played otherwise.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import field
from datetime import datetime, timedelta
from email.message import EmailMessage, Message
from pathlib import Path

import tomlkit

from duelmail import app
from duelmail.choosing import (
    Choice,
    ChoiceError,
    asked,
    choices,
    confirming,
    numbered,
    read_answer,
    refusal,
    twice,
    warned,
)
from duelmail.delivery.arrivals import Answer, Decision, my_games
from duelmail.errors import DuelmailError, LocalFileError, unexpected
from duelmail.home import Home
from duelmail.protocol.identity import Identity
from duelmail.transport import mail as mailt
from duelmail.transport import reply as rt
from duelmail.transport.folder import GameFolder
from duelmail.util.classes import dataclass
from duelmail.util.fs import atomic_write

MEMO = ".replies.toml"  # in a game folder: the lists mailed (serial, round, digest) and the serials answered
MARK = ".by-reply"  # in a game folder: this game is played by reply (what 'status' says, without reading config)
KEEP_ISSUED = 64
_SAY = re.compile(r"(?:say|tell)\s*:?\s+(.+)", re.I)
_DRAW = {"offer a draw": "offer", "offer draw": "offer", "i offer a draw": "offer",  # never a bare 'draw' or
         "accept the draw": "accept", "accept draw": "accept",  # 'accept': a game's own moves may be called so
         "decline the draw": "decline", "decline draw": "decline"}


class ReplyRefused(DuelmailError):
    """A reply that is not played: no code, not from the player, a forged, replayed or old code. ``told``: why, in
    words that quote nothing of the message (what the refusal mailed to the player says); ``stranger``: it is not
    from the player's address."""

    def __init__(self, message: str, told: str | None = None, stranger: bool = False):
        super().__init__(message)
        self.told, self.stranger = message if told is None else told, stranger


QUIET = timedelta(hours=24)  # mail from other addresses posing as replies: told to the player once in this time
STRANGERS = "strangers-told"  # in HOME/mail: when the player was last told of such mail (a cache: lost, told again)


def _told_at(p) -> datetime | None:
    try:
        t = datetime.fromisoformat(p.read_text().strip())
    except (OSError, ValueError):
        return None
    return t if t.tzinfo is not None else None


@dataclass
class Memo:
    """What a game folder remembers of its reply play (``.replies.toml``)."""

    last: int = 0
    issued: dict[int, tuple[int, str]] = field(default_factory=dict)  # serial -> (round, list digest)
    used: list[int] = field(default_factory=list)
    copies: int = 0  # mails sent with a code (each its own Message-ID)

    @classmethod
    def load(cls, folder: GameFolder) -> Memo:
        p = folder.path / MEMO
        if not p.exists():
            return cls()
        try:
            d = tomllib.loads(p.read_text())
            issued = {int(k): (int(v[0]), str(v[1])) for k, v in d.get("issued", {}).items()}
            return cls(int(d.get("last", 0)), issued, [int(u) for u in d.get("used", [])], int(d.get("copies", 0)))
        except (tomllib.TOMLDecodeError, ValueError, TypeError, IndexError, AttributeError, UnicodeError) as e:
            raise LocalFileError(f"{p}: not a reply memo as duelmail writes it ({e}); delete it to start again "
                                 "(mails sent before then are no longer answered)") from None

    def save(self, folder: GameFolder) -> None:
        keep = sorted(self.issued)[-KEEP_ISSUED:]
        doc = {"last": self.last, "copies": self.copies,
               "issued": {str(k): [self.issued[k][0], self.issued[k][1]] for k in keep},
               "used": [u for u in self.used if u >= (keep[0] if keep else 0)]}
        atomic_write(folder.path / MEMO, tomlkit.dumps(doc))


# -- the noted moves (the same .pending.toml as 'duelmail play') -------------------------------------------
def pending(folder: GameFolder) -> tuple[list[str], str | None]:
    p = folder.path / ".pending.toml"
    if not p.exists():
        return [], None
    try:
        d = tomllib.loads(p.read_text())
    except (tomllib.TOMLDecodeError, UnicodeError) as e:
        raise LocalFileError(f"{p}: not valid TOML ({e})") from None
    actions, say = d.get("actions", []), d.get("say")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions) or not isinstance(say, str | None):
        raise LocalFileError(f"{p}: 'actions' must be a list of moves as text and 'say' a text")
    return list(actions), say


def set_pending(folder: GameFolder, actions: Sequence[str], say: str | None = None) -> None:
    p = folder.path / ".pending.toml"
    if actions or say:
        atomic_write(p, tomlkit.dumps({"actions": list(actions), **({"say": say} if say else {})}))
    elif p.exists():
        p.unlink()


def mark(home: Home, on: bool) -> int:
    """Mark (or unmark) every game folder of the home as played by reply; the number changed."""
    n = 0
    for folder in home.game_folders():
        p = folder.path / MARK
        if on and not p.exists():
            atomic_write(p, "played by reply to duelmail's mail (duelmail watch)\n")
            n += 1
        elif not on and p.exists():
            p.unlink()
            n += 1
    return n


def by_reply(folder: GameFolder) -> bool:
    return (folder.path / MARK).exists()


SPOOL = "replies"  # in the home: each reply a fetch took (and marked read), kept until it is played

# -- the play ------------------------------------------------------------------------------------------------
class ReplyPlay:
    """The reply play of one home: ``take`` keeps the replies a fetch meets, ``play`` plays them (before the poll
    answers duties), ``offer`` mails a list for each decision left (after it). ``send`` mails messages (SMTP)."""

    def __init__(self, identity: Identity, address: str, send: Callable[[list[EmailMessage]], object],
                 spool: Path | None = None):
        self.identity, self.address, self.send = identity, address.strip().lower(), send
        self.key = rt.reply_key(identity.master)
        self.queue: list[tuple[str, Message, Path | None]] = []
        self.spool = spool  # (``HOME/replies``) where a reply taken waits for ``play``, on disk

    def take(self, letter) -> bool:
        """A fetch's hook: a reply (or anything posing as one) is kept for ``play`` and marked read. It is kept on
        disk first (``spool``), so a poll stopped between the fetch that marks it read and the play loses no reply:
        the next ``play`` takes it from there."""
        if not rt.looks_like_reply(letter.msg):
            return False
        self.queue.append((letter.where, letter.msg, self._keep(letter.msg)))
        return True

    def _keep(self, msg: Message) -> Path | None:
        if self.spool is None:
            return None
        try:
            data = msg.as_bytes()
        except Exception:  # noqa: BLE001 - a message email cannot write out again: kept in memory, as before
            return None
        self.spool.mkdir(mode=0o700, exist_ok=True)
        return atomic_write(self.spool / f"{hashlib.sha256(data).hexdigest()[:32]}.eml", data, mode=0o600)

    def _left(self, taken: set[Path | None]) -> list[tuple[str, Message, Path]]:
        """The replies an earlier poll took (marked read) and did not play: it was stopped before."""
        if self.spool is None or not self.spool.is_dir():
            return []
        return [(f"{p} (a reply a stopped poll had taken)", mailt.parse_message(p.read_bytes()), p)
                for p in sorted(self.spool.glob("*.eml")) if p not in taken]

    # -- reading replies -------------------------------------------------------------------------------
    def play(self, home: Home, identity: Identity, now: Callable[[], datetime]) -> tuple[list[Answer], list[str]]:
        """Check and play every reply taken; the files signed (to be sent) and a line per reply. The refused ones
        are told to the player in one mail (however many came), to the player's own address only, quoting nothing
        of them; mail from other addresses is told at most once a day (``QUIET``): a flood is not answered in
        kind."""
        answers, lines, out = [], [], []
        refused: list[tuple[str, ReplyRefused]] = []
        queue, self.queue = self.queue, []
        queue += self._left({kept for _, _, kept in queue})
        for where, msg, kept in queue:
            try:
                try:
                    answer, line, mails = self._one(home, identity, where, msg, now)
                except (ReplyRefused, LocalFileError):
                    raise
                except DuelmailError as e:  # the game's own files or state: said, and the next reply goes on
                    raise ReplyRefused(str(e)) from None
                except Exception as e:  # noqa: BLE001 - the last line of defence: one reply never stops the rest
                    raise ReplyRefused(str(unexpected(where, e)), "it could not be read or checked") from None
            except (ReplyRefused, LocalFileError) as e:
                e = e if isinstance(e, ReplyRefused) else ReplyRefused(str(e))
                refused.append((where, e))
                answer, line, mails = None, f"reply {where} REFUSED: {e}", []
            if kept is not None:
                kept.unlink(missing_ok=True)  # played (signed and stored) or refused: done with
            if answer is not None:
                answers.append(answer)
            lines.append(line)
            out += mails
        told = self._refusal(home, refused, now(), lines)
        if told is not None:
            out.append(told)
        if out:
            self.send(out)
            lines.append(f"mailed {len(out)} answer{'s' if len(out) != 1 else ''} to {self.address}")
        return answers, lines

    def _refusal(self, home: Home, refused: list[tuple[str, ReplyRefused]], at: datetime, lines: list[str]
                 ) -> EmailMessage | None:
        """The one mail that tells the player of the replies refused in a poll (None: nothing to tell)."""
        strangers = [(w, e) for w, e in refused if e.stranger]
        memo = home.root / "mail" / STRANGERS
        if strangers and (told := _told_at(memo)) is not None and timedelta(0) <= at - told < QUIET:
            lines.append(f"not mailed to {self.address}: {len(strangers)} mail{'s' if len(strangers) != 1 else ''} "
                         "from other addresses posing as replies (told already within the day)")
            refused = [(w, e) for w, e in refused if not e.stranger]
        elif strangers:
            memo.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(memo, at.isoformat() + "\n", durable=False)
        if not refused:
            return None
        n = len(refused)
        words = [f"{'A reply' if n == 1 else f'{n} replies'} that reached your duelmail {'was' if n == 1 else 'were'} "
                 "refused, and nothing was played:",
                 *(f"  {where}: {e.told}" for where, e in refused[:20]),
                 *([f"  ... and {n - 20} more"] if n > 20 else []), "",
                 "If you sent one, answer the newest 'your move' mail (keep its subject and quote); if you did not, "
                 "someone tried to play for you. Mail from other addresses is never played."]
        return rt.compose_answer(self.identity.name, self.address, "[duelmail] reply refused: nothing was played",
                                 words, at, f"refused-{_stamp(at)}")

    def _one(self, home, identity, where, msg, now):
        if rt.sender(msg) != self.address:
            raise ReplyRefused(f"it is not from your address {self.address} (From: {rt.sender(msg)[:80] or 'none'!r})",
                               f"it is not from your address {self.address}", stranger=True)
        token = rt.find_token(msg)
        if token is None:
            raise ReplyRefused("it carries no reply code (reply to a 'your move' mail, keeping its subject)")
        gid12, r, n = (lambda m: (m.group(1), int(m.group(2)), int(m.group(3))))(rt.TOKEN.fullmatch(token))
        found = [(f, m, s) for f, m, s in my_games(home, identity) if m.gid[:12] == gid12]
        if not found:
            raise ReplyRefused(f"its reply code names game {gid12}, which you do not play here")
        folder, match, seat = found[0]
        memo = Memo.load(folder)
        record = memo.issued.get(n)
        if record is None or record[0] != r or not rt.same_token(
                token, rt.make_token(self.key, match.gid, r, seat, n, record[1])):
            raise ReplyRefused(f"its reply code {token} was not made by your duelmail (forged or damaged)")
        if n in memo.used:
            raise ReplyRefused(f"the mail with reply code {token} was answered already: only the first reply to a "
                               "mail plays")
        noted, say = pending(folder)
        listed = choices(match, seat, identity, noted) if not match.over() else []
        if n != memo.last or (match.round, rt.list_digest(noted, [c.move for c in listed])) != record:
            raise ReplyRefused(f"it answers an old list (round {r}); the game has moved on since: answer the newest "
                               "'your move' mail")
        text = rt.reply_text(msg)
        reply_to = mailt.header(msg, "Message-ID") or None
        head = f"game {match.gid[:12]} round {match.round}: reply {text[:60]!r}"
        try:
            played, words = self._act(folder, match, seat, identity, text, noted, say, now())
        except DuelmailError as e:  # an honest slip: nothing signed, the list again with the same code
            why = refusal(match, seat, identity, e, noted, commands=False)  # in words: no position, no rule id alone
            happened = _happened(match, seat)
            mail = rt.compose_list(match, seat, self.address, token, numbered(listed), happened, now(),
                                   copy=_copy(memo, folder), view=_drafted(match, seat, identity, noted), heading=[
                                       f"Nothing was sent: your reply {text[:200]!r} was not played: "
                                       + (why if why.endswith((".", "?", "!")) else f"{why}."),
                                       "Answer again with one of these moves."])
            return None, f"{head} not played: {e}", [mail]
        memo.used.append(n)
        memo.save(folder)
        title = f"[duelmail] {'sent' if played is not None else 'noted'}: {match.game.spec.title} {match.gid[:12]}"
        mail = rt.compose_answer(identity.name, self.address, title, words, now(), f"{token}-done",
                                 in_reply_to=reply_to)
        answer = Answer(folder, played, "by reply") if played is not None else None
        return answer, f"{head}: " + " ".join(w for w in words[:2]), [mail]

    def _act(self, folder, match, seat, identity, text, noted, say, now) -> tuple[app.Played | None, list[str]]:
        """What the reply asks for, done under the checks of ``duelmail play`` and of the notes; the file signed
        (None when nothing was: a move noted, an undo) and the answer's words."""
        if not text:
            raise ChoiceError("the reply holds no answer above the quoted mail")
        if len(text) > rt.MAX_REPLY:
            raise ChoiceError(f"the reply's text is {len(text)} characters long; answer in at most {rt.MAX_REPLY}")
        low = re.sub(r"[.!\s]+$", "", text.lower().strip())
        others = [c.name for s, c in enumerate(match.cards) if s != seat]
        sent = f"signed and sent to {', '.join(others)}"
        if low in _DRAW or low in ("resign", "i resign", "give up", "concede"):
            draw = _DRAW.get(low)
            played = app.write_note(folder, match, seat, identity, now, resign=draw is None, draw=draw, send=True)
            what = "your resignation" if draw is None else f"your draw {'offer' if draw == 'offer' else draw}"
            return played, [f"Your reply was read: {text!r}.", f"{what.capitalize()} was {sent}."]
        lines = text.splitlines()
        talk = [m.group(1).strip() for m in (_SAY.match(line) for line in lines) if m]
        if talk and len(talk) < len(lines):  # moves, and a line of talk to go with them in the turn
            say = " ".join(talk)
            text = "\n".join(line for line in lines if not _SAY.match(line))
        text, sure = confirming(text)
        if not sure and twice(text.split(), choices(match, seat, identity, noted)):
            text, sure = text.split()[0], True  # '2 2': "yes, move 2" of a move marked 'careful'
        answer = read_answer(match, seat, identity, text, noted)
        if not sure and warned(answer.chosen):
            raise ChoiceError(f"{asked(answer.chosen)}. If you mean it, reply '{text.strip()} yes'")
        if answer.undo:
            if not noted:
                raise ChoiceError("nothing chosen yet to take back (a file already sent cannot be taken back)")
            set_pending(folder, noted[:-1], say)
            return None, [f"Your reply was read: {text!r}.", f"Took back: {noted[-1]}. Nothing was sent."]
        if answer.say is not None and not answer.chosen:
            played = app.write_note(folder, match, seat, identity, now, say=answer.say, send=True)
            return played, [f"Your reply was read: {text!r}.", f"Your words were {sent}: {answer.say!r}."]
        actions = [*noted, *answer.moves]
        draft = match.draft(seat, identity, actions, now)
        chosen = "; ".join(_words(c) for c in answer.chosen)
        if not draft.over() and seat in draft.state.deciders() and draft.ready(seat):
            set_pending(folder, actions, say)
            return None, [f"Your reply was read: {text!r}.", f"Noted (not sent yet): {chosen}.",
                          f"Your turn goes on: {draft.named(draft.state.prompt(seat))}; the next list follows."]
        played = app.write_turn(folder, match, seat, identity, actions, now, say=say, send=True)
        set_pending(folder, [])
        told = played.match.told_to([e for e in played.events if not e.technical], played.match.seen(seat))
        return played, [f"Your reply was read: {text!r}.", f"Round {played.file.round} was {sent}: {chosen}.",
                        *(f"  {e.text}" for e in told)]

    # -- mailing lists ---------------------------------------------------------------------------------------
    def offer(self, home: Home, identity: Identity, decisions: Sequence[Decision], now: Callable[[], datetime]
              ) -> list[str]:
        """Mail a "your move" list for each decision whose current list was not mailed yet; a line per mail."""
        mails, lines = [], []
        mark(home, True)
        for d in decisions:
            folder, match, seat = d.folder, d.match, d.seat
            noted, _say = pending(folder)
            try:
                listed = choices(match, seat, identity, noted)
            except DuelmailError:
                listed = []
            if not listed:
                continue  # not a choice of moves (joining a game): 'duelmail watch' says it
            digest = rt.list_digest(noted, [c.move for c in listed])
            memo = Memo.load(folder)
            if memo.last and memo.issued.get(memo.last) == (match.round, digest) and memo.last not in memo.used:
                continue  # mailed already
            memo.last += 1
            memo.issued[memo.last] = (match.round, digest)
            token = rt.make_token(self.key, match.gid, match.round, seat, memo.last, digest)
            said = [_words(c) for c in _noted_choices(match, seat, identity, noted)]
            mails.append(rt.compose_list(match, seat, self.address, token, numbered(listed),
                                         _happened(match, seat), now(), copy=_copy(memo, folder, save=False),
                                         noted_words=said, view=_drafted(match, seat, identity, noted)))
            memo.save(folder)
            lines.append(f"mailed your moves in {match.game.spec.title} {match.gid[:12]} (round {match.round}) "
                         f"to {self.address}: answer by replying")
        if mails:
            self.send(mails)
        return lines


def _copy(memo: Memo, folder: GameFolder, save: bool = True) -> int:
    memo.copies += 1
    if save:
        memo.save(folder)
    return memo.copies


def _drafted(match, seat, identity, noted):
    """The table a list shows: after the steps noted for the turn (the hand as it now stands), or as it is."""
    if not noted:
        return None
    try:
        return match.draft(seat, identity, list(noted))
    except DuelmailError:
        return None


def _stamp(t: datetime) -> str:
    return t.strftime("%Y%m%d%H%M%S%f")


def _words(c: Choice) -> str:
    return f"{c.words} ({c.move})" if c.number == 0 else c.words


def _noted_choices(match, seat, identity, noted) -> list[Choice]:
    out = []
    for i, move in enumerate(noted):
        listed = choices(match, seat, identity, noted[:i])
        out.append(next((c for c in listed if c.move == move), Choice(0, move, move)))
    return out


def _happened(match, seat: int, limit: int = 12) -> list[str]:
    """What happened since the seat's last file, in words the seat may read."""
    mine = [e.round for e in match.events if e.seat == seat]
    since = max(mine) if mine else 0
    events = [e for e in match.events if e.round >= since and e.seat != seat and not e.technical]
    return [f"round {e.round}: {e.text}" for e in match.told_to(events[-limit:], match.seen(seat))]


def refuse_sealed(identity_text: str, agent: bool) -> None:
    """Reply play signs unattended: with an identity sealed by a passphrase, only when an agent holds it."""
    if Identity.is_encrypted(identity_text) and not agent:
        raise DuelmailError("your identity is sealed by a passphrase, and reply play signs while you are away: "
                            "either keep an unsealed identity on this always-on machine, or run a long-lived "
                            "'duelmail watch' that holds it (--agent: the passphrase asked once at its start)")

