"""``duelmail watch``: polls, applies, answers what needs no decision, tells the human once, exit statuses
for cron, and a bot seat hosted by watching a mailbox."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from clitable import dm
from freezegun import freeze_time
from mailtable import MailTable
from servers import PASSWORD
from test_git import GitTable

from duelmail.delivery import arrivals
from duelmail.delivery import watch as watching
from duelmail.errors import DuelmailError
from duelmail.home import Home
from duelmail.transport import mail as mailt
from duelmail.transport.git import GitError


@pytest.fixture
def git_game(tmp_path):
    t = GitTable(tmp_path)
    repos = t.start("summoner", "life=3")
    t.join(1, sync=False)
    return t, repos


def test_once_exits_0_when_nothing_is_yours_and_10_when_a_decision_is(git_game):
    t, repos = git_game
    alice, bob = t.homes
    polls = []
    for _ in range(6):  # decision-free rounds answer themselves until someone must decide
        for home in (bob, alice):
            polls.append((home, dm_code(home, "watch", "--once", "--no-mail")))
            if polls[-1][1] == watching.DECISION:
                break
        if polls[-1][1] == watching.DECISION:
            break
    decider, code = polls[-1]
    assert code == watching.DECISION and any(c == watching.NOTHING for _, c in polls)
    out = dm(decider, "watch", "--once", "--no-mail", code=watching.DECISION)
    assert "duelmail: your move in Summoner" in out and "(round " in out
    other = alice if decider == bob else bob
    assert "your move" not in dm(other, "watch", "--once", "--no-mail", code=watching.NOTHING)


def dm_code(home, *args) -> int:
    from clitable import runner

    from duelmail.cli import main

    res = runner.invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert res.exit_code in (watching.NOTHING, watching.DECISION), res.output
    return res.exit_code


def test_polls_at_the_interval_and_says_a_decision_once(tmp_path):
    # the whole scenario runs at one injected time: the game's files and the watch's clock agree whatever today is
    start = datetime(2031, 5, 1, 12, tzinfo=UTC)
    with freeze_time(start, tick=True):
        t = GitTable(tmp_path)
        repos = t.start("summoner", "life=3")
        t.join(1, sync=False)
    carriers = {h: [watching.GitCarrier(r)] for h, r in zip(t.homes, repos, strict=True)}
    ids = {h: Home(h).load_identity(None) for h in t.homes}
    clock = iter(start + timedelta(minutes=10 + i) for i in range(1000))
    slept, said = [], []
    for _ in range(3):  # both homes answer what needs no decision, passing files through the remote
        for h in t.homes:
            watching.watch(Home(h), ids[h], carriers[h], clock=lambda: next(clock), sleep=slept.append,
                        say=said.append, polls=1)
    decider = next(h for h in t.homes if Home(h).game_folders() and t.status(h)["your_turn"])
    said.clear()
    code = watching.watch(Home(decider), ids[decider], carriers[decider], clock=lambda: next(clock),
                       sleep=slept.append, say=said.append, interval=90, polls=3)
    assert code == watching.DECISION
    assert slept[-2:] == [90, 90]  # slept between polls, not after the last
    assert [line for line in said if "your move" in line] == [said[-1]]  # told once, not at every poll


def test_a_failing_carrier_is_reported_and_the_watch_goes_on(tmp_path):
    home = tmp_path / "h"
    dm(home, "id", "new", "alice", "--email", "alice@example.org")
    ident = Home(home).load_identity(None)
    (tmp_path / "gone").mkdir()
    said, slept = [], []
    code = watching.watch(Home(home), ident, [watching.GitCarrier(tmp_path / "gone")], clock=lambda: None,
                       sleep=slept.append, say=said.append, interval=60, polls=2)
    assert code == watching.NOTHING and slept == [60]
    assert len(said) == 2 and all("not a git repository" in s and "trying again in 60 s" in s for s in said)
    with pytest.raises(GitError):
        watching.watch(Home(home), ident, [watching.GitCarrier(tmp_path / "gone")], clock=lambda: None,
                    sleep=slept.append, say=said.append, once=True)


def test_watching_a_maildir_without_smtp_applies_and_answers(tmp_path):
    import mailbox

    from clitable import Table
    from test_mail_local import letter

    t = Table(tmp_path)
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    box.add(letter(t.out / "r0001-s1.toml"))
    out = dm(t.alice, "watch", "--once", "--source", str(tmp_path / "Maildir"))
    assert "round 1 seat 1 verified and applied" in out and "auto:" in out and "no SMTP host set up" in out
    assert list(next((t.alice / "games").iterdir()).glob("r0002-s0.toml"))


def test_nothing_to_watch_and_bad_interval_are_errors(tmp_path):
    home = tmp_path / "h"
    dm(home, "id", "new", "alice", "--email", "alice@example.org")
    assert "nothing to watch" in dm(home, "watch", "--once", code=1)
    ident = Home(home).load_identity(None)
    with pytest.raises(DuelmailError, match="interval"):
        watching.watch(Home(home), ident, [watching.GitCarrier(tmp_path)], clock=lambda: None, sleep=lambda s: None,
                    say=print, interval=0)


def test_a_bot_seat_hosted_elsewhere_plays_a_human_by_mail(mail_servers, tmp_path, monkeypatch):
    monkeypatch.setenv(mailt.PASSWORD_ENV, PASSWORD)
    t = MailTable(tmp_path, mail_servers)
    alice, bot = t.homes
    dm(alice, "new", "summoner", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"), "--option", "life=3")
    t.note_sent(alice, dm(alice, "mail", "send"))
    bot_moves = 0
    for i in range(40):
        if t.read[t.user(bot)] < t.sent[t.user(bot)]:  # the bot's host polls once, as cron would run it
            mail_servers.wait_for(t.user(bot), t.sent[t.user(bot)])
            t.read[t.user(bot)] = t.sent[t.user(bot)]
            out = dm_out(bot, "watch", "--once", "--bot", "heuristic", "--seed", str(i))
            assert "your move" not in out  # a bot seat never waits for a human
            bot_moves += out.count(": bot heuristic:")
            t.note_sent(bot, out)
        if t.read[t.user(alice)] < t.sent[t.user(alice)]:
            t.fetch(alice)
        st = t.status(alice)
        if st["audited"]:
            break
        if st["your_turn"]:
            t.note_sent(alice, dm(alice, "play", "--bot", "random", "--seed", str(i), "--send"))
    assert t.status(alice)["audited"] and bot_moves >= 2, (t.status(alice), dm(alice, "history"))


def dm_out(home, *args) -> str:
    from clitable import runner

    from duelmail.cli import main

    res = runner.invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert res.exit_code == watching.NOTHING, res.output
    return res.output


def test_watch_offers_a_claim_instead_of_answering_on_top_of_a_late_file(tmp_path):
    """Protocol section 6b (delivery rule): a move signed with its round's opening time that reaches the other
    home three days later came after its sender's own deadline for it. The home notes it, answers nothing on top
    of it, offers the timeout claim as the decision to make, and the claim sets the move aside."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
    from helpers import Players

    from duelmail import app
    from duelmail.app import DELIVERY_TIME_CONTROL

    p = Players(n=2, seed=1, time_control=DELIVERY_TIME_CONTROL)
    for _ in range(200):  # to a decision whose move leaves the other seat a file with no decision in it
        m = p.match
        if len(m.duties) == 1 and next(iter(m.duties.values())).decide:
            (mover,) = m.duties
            trial = m.clone()
            actions = app.bot_actions(m, mover, p.ids[mover], p.bots[mover], p.rng)
            move = p.matches[mover].compose(mover, p.ids[mover], actions, m.opened_at)
            trial.apply(move, "trial")
            if list(trial.duties) == [1 - mover] and not trial.duties[1 - mover].needs_human:
                break
        p.step()
    victim = 1 - mover
    home = Home(tmp_path / "victim")
    home.add_identity(p.ids[victim])
    app.receive_files(home, p.ids[victim], [(f"f{i}.toml", f) for i, f in enumerate(p.files)], now=m.opened_at)
    came = m.opened_at + timedelta(days=3)
    (r,) = app.receive_files(home, p.ids[victim], [("move.toml", move)], now=came)
    assert r.late
    answers, decisions = arrivals.answer_duties(home, p.ids[victim], lambda: came)
    assert answers == [] and len(decisions) == 1 and "claim" in decisions[0].what and "came late" in decisions[0].what
    (folder,) = home.game_folders()
    played = app.write_claim(folder, folder.fold(), victim, p.ids[victim], came + timedelta(minutes=1))
    assert played.file.round == move.round and move.file_hash not in played.match.applied
    assert played.match.timed_out[move.round][0] == mover
