"""Play by reply in the tests: a player's replies built the way mutt, an HTML-only webmail and a phone send them,
and the player who answers them (choosing what a bot would, by the list's numbers or words)."""

from __future__ import annotations

import html
import itertools
import random
from email.message import EmailMessage, Message
from email.utils import make_msgid

from duelmail import app
from duelmail.choosing import choices, matching
from duelmail.delivery.replies import pending
from duelmail.games.base import Bot, get_game
from duelmail.home import Home

ATTRIBUTION = "On Thu, 26 Nov 2026 at 20:00, {name} wrote:"


def plain_of(msg: Message) -> str:
    return msg.get_body(("plain",)).get_content()


def html_of(msg: Message) -> str:
    return msg.get_body(("html",)).get_content()


def _head(orig: Message, frm: str, in_reply_to: bool = True) -> EmailMessage:
    m = EmailMessage()
    m["From"], m["To"] = frm, frm
    m["Subject"] = "Re: " + str(orig["Subject"])
    if in_reply_to:
        m["In-Reply-To"] = orig["Message-ID"]
    m["References"] = orig["Message-ID"]
    m["Message-ID"] = make_msgid(domain="client.example.org")
    return m


def mutt(orig: Message, text: str, frm: str, subject: str | None = None) -> EmailMessage:
    """mutt: plain text, the attribution, every line quoted with '> ', the answer under it, a signature;
    ``subject``: the one its user wrote instead of "Re: ..." (In-Reply-To and References still name the mail)."""
    m = _head(orig, frm)
    if subject is not None:
        m.replace_header("Subject", subject)
    m["User-Agent"] = "NeoMutt/20231103"
    quoted = "\n".join(("> " + line) if line else ">" for line in plain_of(orig).splitlines())
    m.set_content(f"{ATTRIBUTION.format(name=orig['From'])}\n{quoted}\n\n{text}\n\n-- \nBob, from his terminal\n",
                  cte="8bit")  # as NeoMutt sends UTF-8 text: no encoding the server's search could not look into
    return m


def webmail(orig: Message, text: str, frm: str) -> EmailMessage:
    """An HTML-only webmail: the answer on top, the original inside a gmail_quote <blockquote>."""
    m = _head(orig, frm)
    attribution = html.escape(ATTRIBUTION.format(name=orig["From"]))
    page = (f'<div dir="ltr">{"<br>".join(html.escape(t) for t in text.splitlines())}</div><br>'
            f'<div class="gmail_quote"><div dir="ltr" class="gmail_attr">{attribution}<br></div>'
            f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid '
            f'rgb(204,204,204);padding-left:1ex">{html_of(orig)}</blockquote></div>')
    m.set_content(page, subtype="html")
    return m


def phone(orig: Message, text: str, frm: str) -> EmailMessage:
    """A phone: top-posted, "Sent from my iPhone", the "On ... wrote:" line and the quote under it; only
    References points at the original."""
    m = _head(orig, frm, in_reply_to=False)
    quoted = "\n".join("> " + line for line in plain_of(orig).splitlines())
    m.set_content(f"{text}\n\nSent from my iPhone\n\n{ATTRIBUTION.format(name=orig['From'])}\n\n{quoted}\n")
    return m


CLIENTS = (mutt, webmail, phone)

# The moves that end a game soonest: (the heuristic's own picks kept as they are, the moves taken first found first
# where legal). Warlords' reply seat attacks when its heuristic would (W-10), else ends its turn, and as defender takes
# every blow (W-11, W-15, W-20): half the rounds of a game that attacks at every turn, whose failed attacks only cost
# a card. Summoner attacks (S-14); Wizard Duel takes the blow and attacks (Z-7, Z-15); Grid Duel ends the game the
# first time it may (G-13). Skirmish's four turns are short already.
HASTE = {"warlords": (("attack",), ("accept", "support - accept", "defend - -", "end")),
         "summoner": ((), ("attack",)), "wizard": ((), ("take", "attack")), "grid": ((), ("end",)),
         "skirmish": ((), ())}


class Hasty(Bot):
    """The heuristic bot, bent by ``HASTE`` towards the moves that end a game soonest: a whole game played by reply
    in a few dozen mails."""

    name = "hasty"

    def __init__(self, game: str):
        (self.keep, self.prefer), self.inner = HASTE[game], get_game(game).bots["heuristic"]()

    def choose(self, state, seat, known, rng):
        mine = self.inner.choose(state, seat, known, rng)
        if str(mine).split(" ", 1)[0] in self.keep:
            return mine
        legal = state.legal_actions(seat, known)
        for word in self.prefer:
            fit = [a for a in legal if str(a) == word or str(a).startswith(word + " ")]
            if fit:
                return mine if mine in fit else rng.choice(fit)
        return mine


def is_list(msg: Message) -> bool:
    return msg.get("X-Duelmail-Reply") == "list"


class Player:
    """The person behind a seat played by reply: reads each 'your move' mail, answers as a bot would choose,
    through the next client of ``CLIENTS`` in turn, with numbers or the words of the list; ``mutt_subject``: the
    subject they give their mutt replies (one without duelmail's tag)."""

    def __init__(self, home, address: str, seed: int = 0, bot: str | Bot = "heuristic",
                 mutt_subject: str | None = None):
        self.bot, self.mutt_subject = bot, mutt_subject
        self.rng = random.Random(seed)
        self.clients = itertools.cycle(CLIENTS)
        self.used: dict[str, int] = {}
        self.replies = 0
        if home is not None:
            self.sit(home, address)

    def sit(self, home, address: str) -> None:
        """Play the seat of ``home`` (mail at ``address``) from now on, the clients' turn going on where it was."""
        self.home, self.address = Home(home), address
        self.ident = self.home.load_identity(None)

    def answer_text(self, one_step: bool = False) -> str:
        """The bot's moves for the rest of the turn as the list names them, 'yes' after them when the list marks
        one 'careful' (the player means it); ``one_step``: only the first (the turn goes on, and the next list
        follows)."""
        folder, match, seat = app.open_game(self.home, None, self.ident)
        noted, _ = pending(folder)
        bot = match.game.bots[self.bot]() if isinstance(self.bot, str) else self.bot
        actions = app.bot_actions(match, seat, self.ident, bot, self.rng, start=noted)
        if one_step:
            actions = actions[:len(noted) + 1]
        steps, careful = [], False
        for i in range(len(noted), len(actions)):
            listed = choices(match, seat, self.ident, actions[:i])
            c = next((c for c in listed if c.move == actions[i]), None)
            careful = careful or (c is not None and c.warning is not None)
            if c is None:
                steps.append(actions[i])  # a move the list leaves out (Skirmish lists a sample): its notation
            elif self.rng.random() < 0.3 and not any(x in c.words.lower() for x in (" then ", ";", "\n")) \
                    and matching(listed, c.words) == [c]:
                steps.append(c.words)  # in words
            else:
                steps.append(str(c.number))
        text = " then ".join(steps) if all(s.isdigit() for s in steps) else "\n".join(steps)
        return text + " yes" if careful else text  # a move the list marks 'careful' is meant (issue 39)

    def reply(self, orig: Message, text: str | None = None) -> EmailMessage:
        """A reply to ``orig``: ``text``, or the moves a bot would choose."""
        client = next(self.clients)
        self.used[client.__name__] = self.used.get(client.__name__, 0) + 1
        self.replies += 1
        extra = {"subject": self.mutt_subject} if client is mutt and self.mutt_subject else {}
        return client(orig, self.answer_text() if text is None else text, self.address, **extra)
