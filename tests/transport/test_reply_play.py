"""Play by reply: a seat played only by replies to the mails its own 'duelmail watch' sends its player, from mutt,
an HTML-only webmail and a phone, while the other seats play by the CLI (bots choosing).

Here the replies come in through a Maildir (``delivery.mail.fetch_mail`` with the reply play's hook: the code path
IMAP takes too, all but the server's search) and the game's files travel between the homes through folders
(``receive``/``play --out`` for the CLI seats, a carrier of folders for the watch), so that each of the five games
to its end takes seconds; a whole game by real mail, one kept in git, the replies found by their headers and the
refused replies run over the real Dovecot and OpenSMTPD in ``test_reply_play_servers.py``."""

from __future__ import annotations

import mailbox
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from clitable import dm
from replyplay import Hasty, Player, html_of, is_list, plain_of

from duelmail.delivery import arrivals as arriving
from duelmail.delivery import replies
from duelmail.delivery import watch as watching
from duelmail.home import Home
from duelmail.protocol.turnfile import parse_any
from duelmail.transport import mail as mailt


def now() -> datetime:
    return datetime.now(UTC)


class FolderCarrier(watching.Carrier):
    """The game's files through folders: each home reads its own inbox folder and writes into the others'."""

    name = "folders"

    def __init__(self, inbox: Path, others: list[Path]):
        self.inbox, self.others = inbox, others

    def pull(self, home, identity, now):
        files = sorted(self.inbox.glob("*.toml"))
        parsed = [(str(p), f) for p in files for f in parse_any(p.read_text(), str(p))]
        arrivals = arriving.apply_files(home, identity, parsed, now)
        held = {a.where for a in arrivals if a.status == "held"}
        for p in files:
            if str(p) not in held:
                p.unlink()
        return arrivals

    def push(self, home, identity, answers, now):
        for a in answers:
            for o in self.others:
                (o / a.played.path.name).write_text(a.played.path.read_text())
        return [f"copied {a.played.path.name} to the other homes" for a in answers]


class ReplyTable:
    """Players with homes, each an inbox folder; the last seat is played by reply through a Maildir that is its
    player's inbox (the watch reads it, and its mails to the player land in it)."""

    def __init__(self, tmp: Path, game: str, *options: str, names=("alice", "bob")):
        self.tmp = tmp
        self.homes = [tmp / n for n in names]
        self.inbox = {h: tmp / f"in-{h.name}" for h in self.homes}
        self.outs = {h: tmp / f"out-{h.name}" for h in self.homes}
        self.sent: set[Path] = set()
        for h in self.homes:
            dm(h, "id", "new", h.name, "--email", f"{h.name}@example.org")
            (tmp / f"{h.name}-card.toml").write_text(dm(h, "id", "card"))
            self.inbox[h].mkdir()
        seats = [x for h in self.homes[1:] for x in ("--seat", str(tmp / f"{h.name}-card.toml"))]
        dm(self.homes[0], "new", game, "--seat", "alice", *seats, *[x for o in options for x in ("--option", o)],
           "--out", str(self.outs[self.homes[0]]))
        self.spread()
        for h in self.homes[1:]:
            genesis = self.inbox[h] / "genesis.toml"
            dm(h, "join", str(genesis), "--out", str(self.outs[h]))
            genesis.unlink()
            self.spread()
        self.reply_home = self.homes[-1]
        self.joined = set(self.outs[self.reply_home].iterdir())
        self.box_path = tmp / "Maildir"
        self.box = mailbox.Maildir(str(self.box_path), create=True)
        self.address = f"{self.reply_home.name}@example.org"
        self.ident = Home(self.reply_home).load_identity(None)
        self.mailed: list = []
        self.play = replies.ReplyPlay(self.ident, self.address, self.deliver)
        self.carriers = [watching.MailCarrier(mailt.MailSettings(), lambda *a: "", str(self.box_path),
                                           take=self.play.take),
                         FolderCarrier(self.inbox[self.reply_home], [self.inbox[h] for h in self.homes[:-1]])]
        self.seen: set[str] = set()

    def spread(self) -> None:
        """Copy each new file of the CLI homes' out folders into every other home's inbox."""
        for h, out in self.outs.items():
            for p in sorted(out.glob("*.toml")) if out.is_dir() else []:
                if p not in self.sent:
                    self.sent.add(p)
                    for o in self.homes:
                        if o != h:
                            (self.inbox[o] / p.name).write_text(p.read_text())

    def status(self, home: Path) -> dict:
        import json

        return json.loads(dm(home, "status", "--json"))

    def deliver(self, messages) -> None:
        """The player's inbox: what the watch mails them (read here, not by the watch: an IMAP fetch marks its own
        mails read once, a Maildir would parse them at every poll)."""
        self.mailed += messages

    def poll(self) -> list[str]:
        return watching.poll(Home(self.reply_home), self.ident, self.carriers, now, replies=self.play).lines

    def new_lists(self) -> list:
        out = []
        for m in self.mailed:
            if is_list(m) and m["Message-ID"] not in self.seen:
                self.seen.add(m["Message-ID"])
                out.append(m)
        return out

    def others_move(self, i: int) -> None:
        for h in self.homes[:-1]:
            files = sorted(self.inbox[h].glob("*.toml"))
            if files:
                dm(h, "receive", *map(str, files), "--out", str(self.outs[h]))
                for p in files:
                    p.unlink()
                self.spread()
            st = self.status(h)
            folder = next((h / "games").iterdir())
            if st["your_turn"] and not (folder / f"r{st['round']:04d}-s{self.homes.index(h)}.toml").exists():
                dm(h, "play", "--bot", "heuristic", "--seed", str(i), "--out", str(self.outs[h]))
                self.spread()

    def run(self, player: Player, limit: int = 300) -> list[str]:
        """Play until the game is over and audited everywhere; ``limit`` polls (a cap that fails the test: a game
        by reply that does not end is a bug, never resigned away)."""
        said = []
        for i in range(limit):
            self.others_move(i)
            said += self.poll()
            for orig in self.new_lists()[-1:]:  # the newest list: an older one is no longer current
                text = player.answer_text(one_step=player.replies < 3)  # a step at a time at first: each client
                if player.replies == 1:
                    text += "\nsay good luck"  # a move and a line of talk with it
                self.box.add(player.reply(orig, text).as_bytes())
            if self.status(self.reply_home)["audited"] and all(self.status(h)["audited"] for h in self.homes[:-1]):
                return said
        raise AssertionError(f"the game did not end in {limit} polls: {[self.status(h) for h in self.homes]}\n"
                             + "\n".join(said[-30:]))


@pytest.mark.parametrize(("game", "options", "names"), [
    ("summoner", ("life=10",), ("alice", "bob")),
    ("warlords", (), ("alice", "bob")),
    ("grid", (), ("alice", "bob")),
    ("skirmish", ("turns=4",), ("alice", "bob")),
    ("wizard", (), ("alice", "carol", "bob")),
])
def test_a_whole_game_with_one_seat_played_only_by_replies(tmp_path, game, options, names):
    """Each game to its end by its own rules (never a resignation): the reply seat chooses only by replies, in
    turn from mutt, an HTML-only webmail and a phone (its first three replies a step each, so that even a short
    game meets all three), picking the moves that end a game soonest (``Hasty``: the defender of Warlords takes
    every blow, ...). Wizard Duel is for three or more (Z-1): three seats here. Replies
    come through a Maildir, the same ``fetch_mail`` and reply hook as IMAP (which is the one step a Maildir skips:
    the server's search; ``test_reply_play_servers.py`` plays a whole game over IMAP and SMTP), so that five
    games take seconds each. A deal can end a game before three replies (Summoner's two jokers, S-22): then another
    game, until all three clients have answered."""
    player = Player(None, None, seed=len(names), bot=Hasty(game))
    for n in range(4):
        (tmp_path / f"game{n}").mkdir()
        t = ReplyTable(tmp_path / f"game{n}", game, *options, names=names)
        player.sit(t.reply_home, t.address)
        before = player.replies
        said = t.run(player)
        results = {t.status(h)["result"] for h in t.homes}
        assert len(results) == 1 and all(t.status(h)["audit_ok"] for h in t.homes), results
        assert "resign" not in results.pop(), results
        played = [line for line in said if ": reply " in line and "not played" not in line]
        assert len(played) == player.replies - before and not [line for line in said if "REFUSED" in line], \
            "\n".join(said)
        if set(player.used) == {"mutt", "webmail", "phone"}:
            break
    else:
        raise AssertionError(f"four games ended before all three clients answered: {player.used}")
    assert set(t.outs[t.reply_home].iterdir()) == t.joined  # after its join, the reply seat never used the CLI
    folder = next((t.reply_home / "games").iterdir())
    assert "VERIFIED" in dm(t.homes[0], "verify", str(folder))
    assert "good luck" in dm(t.homes[0], "history")


def _first_list(t: ReplyTable, offering: str = ""):
    """The first "your move" mail to the reply seat (its list offering ``offering``), the others moving first."""
    for i in range(12):
        t.others_move(i)
        t.poll()
        lists = t.new_lists()
        if lists and offering in plain_of(lists[-1]).lower():
            return lists[-1]
    raise AssertionError(f"no list of the reply seat's offering {offering!r}")


def test_resign_by_reply(tmp_path):
    t = ReplyTable(tmp_path, "summoner", "life=3")
    player = Player(t.reply_home, t.address)
    t.box.add(player.reply(_first_list(t), "I resign.").as_bytes())
    said = "\n".join(t.poll())
    assert "Your resignation was signed and sent to alice" in said, said
    t.others_move(99)
    assert "resign" in t.status(t.homes[0])["result"] and t.status(t.reply_home)["result"] == t.status(
        t.homes[0])["result"]


def test_undo_a_noted_step_and_offer_a_draw_by_reply(tmp_path):
    t = ReplyTable(tmp_path, "summoner", "life=3")
    player = Player(t.reply_home, t.address)
    orig = _first_list(t, "summon")
    folder = next((t.reply_home / "games").iterdir())
    t.box.add(player.reply(orig, "1").as_bytes())  # a step that does not end the turn: noted, a new list
    said = "\n".join(t.poll())
    assert "Noted (not sent yet)" in said and (folder / ".pending.toml").exists(), said
    second = t.new_lists()[-1]
    assert "Chosen so far (not sent yet): Summon" in plain_of(second)
    t.box.add(player.reply(second, "undo").as_bytes())
    said = "\n".join(t.poll())
    assert "Took back" in said and not (folder / ".pending.toml").exists(), said
    third = t.new_lists()[-1]
    t.box.add(player.reply(third, "offer a draw").as_bytes())
    said = "\n".join(t.poll())
    assert "Your draw offer was signed and sent" in said, said
    t.others_move(99)
    assert t.status(t.homes[0])["draw_offer"]["by"] == 1
    fourth = t.new_lists()[-1]  # the turn is still Bob's: a new list, with a new code
    assert fourth["Subject"] != third["Subject"]
    t.box.add(player.reply(fourth).as_bytes())
    assert ": by reply: " in "\n".join(t.poll())


@pytest.mark.parametrize("yes", ["1 yes", "1 1"])
def test_a_reply_naming_a_move_that_loses_at_once_is_asked_again_and_yes_plays_it(tmp_path, yes):
    """Issue 39 (1), K-3, K-7: by reply, a move the list marks 'careful' (1 Endurance card: the character is out at
    the start) is not played on its number alone: the answer names the move and its warning and asks for
    'N yes', which notes it; so does the number given twice ('N N')."""
    t = ReplyTable(tmp_path, "skirmish", "turns=4")
    player = Player(t.reply_home, t.address)
    orig = _first_list(t, "strength")
    for _ in range(2):  # Strength 1, then Speed 1: each a step noted, and the next list mailed
        t.box.add(player.reply(orig, "1").as_bytes())
        assert "Noted (not sent yet)" in "\n".join(t.poll())
        orig = t.new_lists()[-1]
    assert "1. Give Endurance 1 card (secret until shown) (careful: removes your character at the start" \
        in plain_of(orig)
    t.box.add(player.reply(orig, "1").as_bytes())
    said = "\n".join(t.poll())
    assert "not played: 'Give Endurance 1 card (secret until shown)' removes your character" in said, said
    again = t.new_lists()[-1]
    text = plain_of(again)
    assert "Nothing was sent" in text and "If you mean it, reply '1 yes'" in text
    t.box.add(player.reply(again, yes).as_bytes())
    said = "\n".join(t.poll())
    assert "Noted (not sent yet): Give Endurance 1 card (secret until shown)" in said, said


def test_the_your_move_mail_is_short_second_person_and_shows_the_table_after_a_noted_step(tmp_path):
    """Issue 39 (5): the list mail speaks to its reader ("bob, it is your move ... against alice"), holds the moves,
    the table and how to answer, and nothing about commands; its HTML part keeps each paragraph whole (a line
    wrapped for the plain text is not a paragraph of its own); the answer to a noted step reads as sentences; and
    the next list's table is the one after that step (the card summoned has left the hand)."""
    t = ReplyTable(tmp_path, "summoner", "life=3")
    player = Player(t.reply_home, t.address)
    orig = _first_list(t, "summon")
    text = plain_of(orig)
    assert text.startswith("bob, it is your move in Summoner (playing card duel) against alice, by "), text
    assert "duelmail " not in text.split("reply code:")[0] and "'duelmail" not in text, text
    assert "Your moves:\n  1. " in text and "Answer by replying to this mail" in text and "Your table:" in text
    page = html_of(orig)
    assert ("Answer by replying to this mail: the number of a move (&quot;2&quot;), several (&quot;1 then 4&quot;), "
            "the move in words,") in page, page
    assert "<br>  1. " in page or "<br>1. " in page or "<br>  1." in page
    t.box.add(player.reply(orig, "1").as_bytes())
    said = "\n".join(t.poll())
    assert "Your reply was read: '1'. Noted (not sent yet): Summon" in said and ".;" not in said, said
    second = t.new_lists()[-1]
    hands = [re.findall(r"^  Hand: (.+)$", plain_of(m).split("Your table:")[1], re.M) for m in (orig, second)]
    assert hands[0] and hands[1] and set(hands[0][0].split()) - set(hands[1][0].split()), hands  # a card left it


def test_the_poll_that_leaves_a_decision_awaited_mails_its_list(tmp_path):
    """Issue 39 (5): whenever 'status' says the reply seat is awaited for a decision after a poll, that poll has
    mailed its list (its files that needed no decision were written in the same poll, and the decision they led
    to offered at once, never a poll later): the first 16 polls of a Wizard Duel of three."""
    import json

    t = ReplyTable(tmp_path, "wizard", names=("alice", "carol", "bob"))  # Z-1: each seat locks the one stock
    mailed: set[int] = set()
    checked = 0
    player = Player(t.reply_home, t.address)
    for i in range(16):
        t.others_move(i)
        t.poll()
        lists = t.new_lists()
        mailed |= {int(re.search(r" round (\d+) ", str(m["Subject"])).group(1)) for m in lists}
        st = t.status(t.reply_home)
        if st["your_turn"] and json.loads(dm(t.reply_home, "moves", "--json")):
            assert st["round"] in mailed, (i, st["round"], mailed)
            checked += 1
        for orig in lists[-1:]:  # answered as a player would: the game goes on
            t.box.add(player.reply(orig).as_bytes())
    assert checked >= 2


def test_a_reply_the_rules_refuse_is_answered_in_words(tmp_path):
    """Issue 39 (2): a reply in notation naming a card by its position (one of alice's), that the rules refuse, is
    answered in words: no card's position, no rule id alone (the rule's id after words), no command; nothing is
    sent."""
    from duelmail.app import open_game
    from duelmail.games.cards import CardRef

    t = ReplyTable(tmp_path, "grid")
    player = Player(t.reply_home, t.address)
    orig = _first_list(t, "play")
    home = Home(t.reply_home)
    folder, match, seat = open_game(home, None)
    known = match.draft(seat, home.load_identity(None), []).known(seat)
    ref = next(f"a#{i}" for i in range(60) if CardRef.parse(f"a#{i}") not in known)  # alice's, unseen
    square = "a1"
    typed = f"play {ref} {square}"
    sent = set(t.outs[t.reply_home].iterdir())
    t.box.add(player.reply(orig, typed).as_bytes())
    said = "\n".join(t.poll())
    assert " not played: " in said, said
    text = plain_of(t.new_lists()[-1])
    head = text.split("Answer again", 1)[0]
    assert "Nothing was sent" in head and "was not played: " in head, head
    assert not re.search(r"#\d", head.replace(repr(typed), "")), head  # only the reply quoted names one
    assert not re.search(r"[(\[](?:rule )?[A-Z]{1,2}-\d+[)\]]", head) and "duelmail " not in head, head
    assert "of the rules of Grid Duel)" in head, head
    assert set(t.outs[t.reply_home].iterdir()) == sent
