"""Fuzzing every door a stranger's text comes through: the turn-file parser, the armour decoder, a mail
(its parts, HTML included, searched for turns and unsigned words), a genesis (parsed and opened as a game), a
player card, an identity file, a skirmish battlefield, and each game's notation followed by ``apply`` on a real
game state.

``targets()`` builds the doors with a real corpus (files of games played by ``SelfPlay``, their armour,
the legal actions of real states); ``SEEDS`` are inputs that once crashed duelmail; ``Mutator`` is a
seeded random mutator over the corpus and the seeds. The hypothesis tests (tests/adversary/test_fuzz.py)
and ``bench/bench_fuzz.py`` (1,000,000 inputs) both use it. Only ``DuelmailError`` may escape a door.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import field
from functools import cache

from duelmail.errors import DuelmailError
from duelmail.games.base import GameState, Sealed, game_names, get_game
from duelmail.games.skirmish.battlefield import SHIPPED, parse_battlefield
from duelmail.protocol.identity import Identity, PlayerCard
from duelmail.protocol.turnfile import BEGIN, END, parse_any, parse_toml, unarmour
from duelmail.util.classes import dataclass

_DEEP = "[" * 1500 + "]" * 1500
_ARM = f"{BEGIN}\nGame: x  Round: 1  Seat: 0\n\n"
# inputs that crashed duelmail (issue 14, part 6), in the form each door sees them
SEEDS: dict[str, list[str]] = {
    "turnfile": [
        "duelmail = 1\na = " + _DEEP,
        "duelmail = 1\na = " + "{b=" * 1500 + "1" + "}" * 1500,
        "[" + ".".join(["a"] * 60000) + "]\n",
        "\n".join("[" + ".".join(["a"] * 40) + f".k{i}]" for i in range(200)),
        "duelmail = 1\nround = " + "9" * 5000,
        "duelmail = 1\nround = 0x" + "f" * 5000,
        'duelmail = 1\nkind = "genesis"\nsignature = "AA"\nseats = [1, 2]\n',
        'duelmail = 1\nkind = "turn"\nsignature = "AA"\nround = 1e400\n',
        'duelmail = 1\n"\r" = 1\x00',
        'duelmail = 1\na = "' + '\\"' * 20000,  # a string left open: the limits' scan was quadratic (6 s)
        'duelmail = 1\na = ' + '"""x' * 20000,
    ],
    "armour": [
        f"{_ARM}abcé\n{END}\n",
        f"{_ARM}²²²²\n{END}\n",
        f"> {BEGIN}\n> \n> eJzLSM3JyVcozy/KSQEAGgQEXQ==\n> {END}\n",
        f"{_ARM}eJzLSM3JyVcozy/KSQEAGgQEXQ==\n",
        f"{_ARM}{'A' * 5000}\n{END}\n",
    ],
    "genesis": [
        'duelmail = 1\nkind = "genesis"\nsignature = "AA"\ngame_kind = "warlords"\nrules_version = 1\n'
        'created = "2026-01-01T00:00:00Z"\ncreator = 0\nseats = [1, 2]\nnonce = "AA"\n[options]\n',
    ],
    "card": [
        'duelmail_card = 1\nname = "bob"\nemail = "bob@example.org\\rX-Evil: 1"\n'
        'key = "O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik"\n',
        'duelmail_card = 1\nname = "bob"\nemail = "b@x"\nkey = "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"\n',
        'duelmail_card = 1\nname = "bob"\nemail = "b@x"\nkey = "7P________________________________________8"\n',
    ],
    "identity": [
        'duelmail_identity = 1\nname = "a"\nsecret = "x"\n',
        'duelmail_identity = 1\nname = "a"\n[secret]\nkdf = "scrypt"\nn = 3\nsalt = "AA"\nbox = "AA"\n',
        'duelmail_identity = 1\nname = "a"\n[secret]\nkdf = "scrypt"\nn = 1099511627776\nsalt = "AA"\n',
        'duelmail_identity = 1\nname = "a"\n[secret]\nkdf = "scrypt"\nn = 32768\nsalt = "AA"\n',
    ],
    "mail": [  # each was quadratic or worse in the mail's own scans (seconds to hours on 100 KB)
        "Content-Type: text/html\n\n" + "<" * 100000,
        "Content-Type: text/html\n\n" + "<br" * 30000,
        "Content-Type: text/plain\n\n" + "\n" * 200000,
        f"Content-Type: text/plain\n\nOn {'<a@' * 30000}\n{BEGIN}\n",
        f"Content-Type: text/plain\n\n{('<' * 5000 + '@') * 20} wrote:\n{BEGIN}\n",
        f"Content-Type: text/plain\n\nx{' played round 1 of ' * 20000}\n{BEGIN}\n",
    ],
    "reply": [  # each raised in the header parser (issue 40: a flood's malformed From: ended 'watch')
        "From: bob <bob@\nSubject: Re: [duelmail] your move\n\n1\n",
        "From: <\nSubject: [duelmail] your move\n\n1\n",
        "From: a@b\nMessage-ID: <\nIn-Reply-To: <dm-\nReferences: <<<\nSubject: =?utf-8?q?=FF?=\n\n1\n",
        "From: \"\\\nSubject: =?x-unknown?b?AAAA?=\n\n1\n",
        "From: " + ": " * 2000 + "\nSubject: [duelmail] your move\n\n1\n",  # RecursionError in email.utils
        "From: x@y\nContent-Type: text/h" + ": text/h" * 26000 + "\n\n1\n",  # 3 s a parse of this header
    ],
    "battlefield": [
        "a = " + _DEEP,
        'name = "x"\nwidth = ' + "9" * 5000,
        'name = "x"\nwidth = 1e400\nheight = 10\nstarts = [[1, 1], [2, 2]]',
        'name = "x"\nwidth = 10\nheight = 10\nstarts = [[1, 1], [2, 2]]\n[[terrain]]\nid = "a"\nkind = "level"\n'
        "circle = [1, 1, 0.001]",
    ],
    "notation": [
        "warlord a#" + "9" * 5000,
        "target \u00b2",
        "target \u0663",
        "attack a#1=" + "9" * 5000 + "d",
        "run " + "9" * 5000 + ",1",
        "plan p1: " + "1 " * 3000,
        "play a#1\r\nend",
        "a" * 100_000,
        "",
    ],
}


@dataclass
class Door:
    """One way in: ``feed(text)`` parses (and for a game, applies) the text; ``corpus``: real inputs."""

    name: str
    feed: Callable[[str], object]
    corpus: list[str] = field(default_factory=list)


def _parse_all(text: str) -> object:
    return parse_any(text, "fuzz")


def _genesis(text: str) -> object:
    from duelmail.engine.match import Match

    return [Match(f, "fuzz") for f in parse_any(text, "fuzz")]


def _identity(text: str) -> object:
    # no passphrase: a boxed file stops before scrypt (its cost is the file's n, capped at 2**17)
    return Identity.from_toml(text, "fuzz")


def _mail(text: str) -> object:
    """A mail's turns; a mail without any is refused here (``find_turns`` itself says what it met, never raises)."""
    from duelmail.transport.mail import find_turns, parse_message

    found = find_turns(parse_message(text), "fuzz")
    if not found.files:
        said = "; ".join(found.problems).replace("\n", " ")[:200]
        raise DuelmailError(f"fuzz: no turn in this mail{': ' + said if said else ''}")
    return found


def _reply(text: str) -> object:
    """A mail as the reply play meets it before its try: whether it poses as a reply, who sent it, what it is
    called (issue 40: ``From: bob <bob@`` raised IndexError where a refusal read it again); one not from the
    player's address (here bob@example.org) is refused, as the reply play's first check refuses it."""
    from duelmail.transport import reply as rt
    from duelmail.transport.mail import describe, header, parse_message

    msg = parse_message(text)
    read = rt.looks_like_reply(msg), describe(msg), [header(msg, h) for h in (
        "From", "Subject", "Message-ID", "In-Reply-To", "References")]
    if rt.sender(msg) != "bob@example.org":
        raise DuelmailError(f"fuzz: not from the player's address (From: {rt.sender(msg)[:40]!r})")
    return read


def _unarmour(text: str) -> object:
    return [parse_toml(t, "fuzz") for t in unarmour(text, "fuzz")]


def _apply_on(game_id: str, states: list[GameState]) -> Callable[[str], object]:
    game = get_game(game_id)

    def feed(text: str) -> object:
        action = game.parse_action(text)
        if game.parse_action(str(action)) != action:
            raise AssertionError(f"{game_id}: {text!r} parses to {action!r}, whose text {str(action)!r} does not")
        for state in states:
            seats = list(state.deciders()) or [0]
            for seat in {seats[0], (seats[0] + 1) % 2}:
                s = state.clone()
                try:
                    label = action.sealed()
                    if label is not None:
                        s.check_sealed(seat, action, {label: action})
                        s.apply(seat, Sealed(label))
                    else:
                        s.apply(seat, action)
                except DuelmailError:
                    pass
        return action

    return feed


@cache
def _played(game_id: str) -> tuple[list[str], list[GameState], list[str]]:
    """Files (TOML, then one armoured), states and legal actions of a real game played a few rounds."""
    from duelmail.testing.selfplay import SelfPlay

    n = 3 if game_id == "wizard" else 2
    sp = SelfPlay(game_id, n, seed=7, shared=True)
    states, actions = [], set()
    for _ in range(10):
        if sp.match.finished:
            break
        m = sp.match
        states.append(m.state.clone())
        for seat in m.state.deciders():
            actions.update(str(a) for a in m.state.legal_actions(seat, m.known(seat))[:40])
        sp.step()
    texts = [f.to_toml(["a header line"]) for f in sp.files[:6]]
    texts.append(sp.files[-1].armour())
    return texts, states[::3], sorted(actions)


@cache
def targets() -> dict[str, Door]:
    files, arm = [], []
    doors: dict[str, Door] = {}
    for g in game_names():
        texts, states, actions = _played(g)
        files += texts[:-1]
        arm.append(texts[-1])
        doors[f"notation:{g}"] = Door(f"notation:{g}", _apply_on(g, states), actions + SEEDS["notation"])
    doors["turnfile"] = Door("turnfile", _parse_all, files + SEEDS["turnfile"])
    geneses = [t for t in files if 'kind = "genesis"' in t]
    doors["genesis"] = Door("genesis", _genesis, geneses + SEEDS["genesis"])
    people = [Identity.generate(n, f"{n}@example.org", bytes([i]) * 32) for i, n in enumerate(("ann", "bo"), 1)]
    doors["card"] = Door("card", lambda t: PlayerCard.from_toml(t, "fuzz"),
                         [p.card.to_toml() for p in people] + SEEDS["card"])
    doors["identity"] = Door("identity", _identity, [people[0].to_toml(), people[1].to_toml("pw")] + SEEDS["identity"])
    doors["armour"] = Door("armour", _unarmour, arm + ["> " + a.replace("\n", "\n> ") for a in arm]
                           + SEEDS["armour"])
    mails = [f"From: a@example.org\nSubject: a turn\nContent-Type: text/plain\n\nyour move\n\n{a}" for a in arm]
    mails += ["From: a@example.org\nContent-Type: text/html\n\n<p>" + a.replace("\n", "<br>") + "</p>" for a in arm]
    doors["mail"] = Door("mail", _mail, mails + SEEDS["mail"])
    token = "dm-0123456789ab-3-1-" + "0123456789abcdef01234567"
    replies = [f"From: Bob <bob@example.org>\nSubject: Re: [duelmail] your move [{token}]\nIn-Reply-To: <{token}.1@"
               f"duelmail.invalid>\nMessage-ID: <r1@client.example>\nContent-Type: text/plain\n\n2\n\n> reply code: "
               f"{token}\n", "From: =?utf-8?q?B=C3=B6b?= <bob@example.org>\nSubject: hello\nContent-Type: text/html\n\n"
               f"<p>1 then 4</p><blockquote>reply code: {token}</blockquote>"]
    doors["reply"] = Door("reply", _reply, replies + SEEDS["reply"])
    doors["battlefield"] = Door("battlefield", lambda t: parse_battlefield(t, "fuzz"),
                                list(SHIPPED.values()) + SEEDS["battlefield"])
    return {k: doors[k] for k in sorted(doors)}


_PIECES = ["[", "]", "{", "}", '"', "'", "'''", '"""', "#", "=", ".", ",", "\n", "\r", "\x00", "\\", "²", "é",
           "\u202e", "9" * 30, "-", "+", "inf", "nan", "1e999", "0x", "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q",
           " ", "#", "!", ":", ">", BEGIN, END, "\U0001f600", "true", "[[x]]", "seats = [1, 2]"]


class Mutator:
    """Seeded mutations of the corpus: flips, inserts of TOML's special characters, cuts, repeats, splices."""

    def __init__(self, corpus: list[str], seed: int = 0):
        self.corpus = corpus
        self.rng = random.Random(seed)

    def __call__(self) -> str:
        rng = self.rng
        text = rng.choice(self.corpus)
        for _ in range(rng.choice((1, 1, 2, 3, 8))):
            text = self._one(text)
        return text

    def _one(self, text: str) -> str:
        rng = self.rng
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.choice((1, 2, 8, 64, 1000)))
        op = rng.randrange(8)
        if op == 0 and text:  # change one character
            k = min(i, len(text) - 1)
            return text[:k] + chr(rng.choice((rng.randrange(32, 127), rng.randrange(0, 0x2000)))) + text[k + 1:]
        if op == 1:
            return text[:i] + rng.choice(_PIECES) + text[i:]
        if op == 2:
            return text[:i] + text[j:]
        if op == 3:  # repeat a chunk: deep nesting, long keys, long numbers
            return text[:i] + text[i:j] * rng.choice((2, 10, 200, 2000)) + text[j:]
        if op == 4:
            other = rng.choice(self.corpus)
            k = rng.randrange(len(other) + 1)
            return text[:i] + other[k:k + rng.choice((10, 100, 5000))] + text[j:]
        if op == 5:  # swap a digit run for a long one
            return text[:i] + str(rng.choice((0, 1, -1, 2**63, 10**30))) + text[j:]
        if op == 6:
            return text[:i] + text[i:j].upper() + text[j:]
        return text[:i] + "".join(rng.choice(_PIECES) for _ in range(rng.choice((3, 30, 300)))) + text[j:]
