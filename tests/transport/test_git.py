"""Play by git with real repositories: clones of a bare remote, the git binary, concurrent pushes, forgeries."""

from __future__ import annotations

import json
import re
import subprocess
import threading
from pathlib import Path

import pytest
from clitable import assert_views_fresh, dm, snapshot

from duelmail.delivery import git as gitsync
from duelmail.home import Home


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True).stdout


def clone(tmp: Path, remote: Path, name: str) -> Path:
    path = tmp / f"{name}-clone"
    subprocess.run(["git", "clone", "-q", str(remote), str(path)], check=True, capture_output=True)
    git(path, "config", "user.name", name)
    git(path, "config", "user.email", f"{name}@example.org")
    git(path, "symbolic-ref", "HEAD", "refs/heads/main")
    return path


class GitTable:
    """Players with homes and clones of one bare remote."""

    def __init__(self, tmp: Path, names=("alice", "bob")):
        self.tmp = tmp
        self.remote = tmp / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(self.remote)], check=True)
        self.homes = [tmp / n for n in names]
        for home, name in zip(self.homes, names, strict=True):
            dm(home, "id", "new", name, "--email", f"{name}@example.org")
            (tmp / f"{name}-card.toml").write_text(dm(home, "id", "card"))

    def clone(self, i: int) -> Path:
        name = self.homes[i].name
        path = clone(self.tmp, self.remote, name)
        dm(self.homes[i], "git", "init", str(path))
        return path

    def status(self, home: Path) -> dict:
        return json.loads(dm(home, "status", "--json"))

    def start(self, game: str, *options: str) -> list[Path]:
        alice = self.homes[0]
        repo = self.clone(0)
        opts = [x for o in options for x in ("--option", o)]
        cards = [str(self.tmp / f"{h.name}-card.toml") for h in self.homes[1:]]
        seats = ["--seat", "alice", *[x for c in cards for x in ("--seat", c)]]
        out = dm(alice, "new", game, *seats, *opts, "--git", str(repo))
        assert "pushed" in out
        return [repo] + [self.clone(i) for i in range(1, len(self.homes))]

    def join(self, i: int, sync: bool = True) -> None:
        home = self.homes[i]
        out = dm(home, "git", "sync")
        assert "a new game" in out and "duelmail join" in out, out
        genesis = str(next((home / "games").iterdir()) / "genesis.toml")
        if sync:
            assert "committed" in dm(home, "join", genesis, "--push")
        else:
            dm(home, "join", genesis)


def test_whole_game_between_two_clones_through_a_bare_remote(tmp_path):
    t = GitTable(tmp_path)
    repos = t.start("summoner", "life=3")
    t.join(1)
    for i in range(200):
        for home, name in zip(t.homes, ("alice", "bob"), strict=True):
            dm(home, "git", "sync")
            if i < 3:  # what came in and what was answered: the next status and show fold nothing
                assert_views_fresh(home, name)
            if t.status(home)["your_turn"]:
                dm(home, "play", "--bot", "heuristic", "--seed", str(i), "--push")
        if all(t.status(h)["audited"] for h in t.homes):
            break
    for home in t.homes:
        dm(home, "git", "sync")
    a, b = t.status(t.homes[0]), t.status(t.homes[1])
    assert a["audited"] and a["audit_ok"] and a["result"] == b["result"]
    game = next((t.homes[0] / "games").iterdir()).name
    for repo in repos:  # the repository holds exactly the game's files, and its README the result
        held = sorted(p.name for p in (repo / game).glob("[gr]*.toml"))
        assert held == sorted(p.name for p in (t.homes[0] / "games" / game).glob("[gr]*.toml"))
        assert "Game over" in (repo / game / "README.md").read_text() and "as everyone can see it" in (
            repo / game / "README.md").read_text()
        top = (repo / "README.md").read_text()  # a finished game: counted there, its line in its month's listing
        assert game not in top and "In play: none." in top and "Finished: 1 game" in top, top
        (listing,) = (repo / "finished").iterdir()
        assert f"- [{game}](../{game}/README.md): Summoner (playing card duel), over: " in listing.read_text()
        assert f"[{listing.stem}](finished/{listing.name}) (1)" in top
    log = git(repos[1], "log", "--format=%s%n%b")
    assert f"{game} round 3: " in log and "now awaited" in log
    # issue 15: commits say what the rules computed, each card by its face once the table has seen it
    # (the shuffle is random: a game may end by a jokers' win claim (S-22) before any battle)
    told = (r"loses \d+ life points: \d+ -> -?\d+", r"battle: \w+'s \w+ of \w+ \(\d+\)",
            r"summons the \w+ of \w+", r"claims the instant win with the (red|black) joker")
    assert re.search("|".join(told), log), log
    assert "game over: " in log and not re.search(r"round \d+: seat \d answered", log)
    assert "pass on deck" not in (repos[0] / game / "README.md").read_text()  # its last events are play
    assert "VERIFIED" in dm(t.homes[1], "verify", str(repos[1] / game))
    assert git(repos[0], "rev-parse", "HEAD") == git(t.remote, "rev-parse", "main")


def test_two_players_answer_the_same_round_at_once(tmp_path):
    t = GitTable(tmp_path, ("alice", "bob", "carol"))
    repos = t.start("warlords")
    for i in (1, 2):  # round 1 awaits both acceptances
        t.join(i, sync=False)
    ids = [Home(h).load_identity(None) for h in t.homes]
    barrier = threading.Barrier(2)
    reports, errors = {}, []

    def push(i):
        barrier.wait()
        try:
            reports[i] = gitsync.sync_git(Home(t.homes[i]), ids[i], repos[i])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=push, args=(i,)) for i in (1, 2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors and all(r.pushed for r in reports.values())
    game = next((t.homes[0] / "games").iterdir()).name
    files = git(t.remote, "ls-tree", "-r", "--name-only", "main")
    assert f"{game}/r0001-s1.toml" in files and f"{game}/r0001-s2.toml" in files
    out = dm(t.homes[0], "git", "sync")  # alice gets both acceptances, answers, pushes
    assert out.count("verified and applied") == 2
    assert t.status(t.homes[0])["round"] >= 2
    for name in ("README.md", f"{game}/README.md"):  # both wrote the READMEs at once: merged, then rewritten
        text = git(t.remote, "show", f"main:{name}")
        assert "<<<<<<<" not in text and game.split("-")[1] in text


@pytest.fixture
def midgame(tmp_path):
    t = GitTable(tmp_path)
    repos = t.start("summoner", "life=3")
    t.join(1)
    for home in (*t.homes, *t.homes):
        dm(home, "git", "sync")
    return t, repos


def test_forged_file_pushed_by_a_third_party_is_refused_and_the_real_one_still_lands(midgame, tmp_path):
    t, repos = midgame
    alice, bob = t.homes
    mover, watcher = (alice, bob) if t.status(alice)["your_turn"] else (bob, alice)
    assert t.status(mover)["your_turn"] and not t.status(watcher)["your_turn"]
    seat = t.status(mover)["you"]
    game = next((mover / "games").iterdir()).name
    dm(mover, "play", "--bot", "heuristic")  # written, not pushed yet
    real = sorted((mover / "games" / game).glob(f"r*-s{seat}.toml"))[-1]
    text = real.read_text()
    i = text.index('signature = "') + 20
    mallory = clone(tmp_path, t.remote, "mallory")
    (mallory / game / real.name).write_text(text[:i] + ("A" if text[i] != "A" else "B") + text[i + 1:])
    git(mallory, "add", "-A")
    git(mallory, "commit", "-qm", "a perfectly normal move")
    git(mallory, "push", "-q", "origin", "main")
    before = snapshot(watcher)
    out = dm(watcher, "git", "sync", code=1)
    assert "REFUSED" in out and "[P-signature]" in out and real.name in out and "commit" in out, out
    assert snapshot(watcher) == before  # nothing applied
    wrepo = repos[1] if mover == alice else repos[0]
    assert git(wrepo, "rev-parse", "HEAD") == git(t.remote, "rev-parse", "main")  # and the sync went on
    dm(mover, "git", "sync")  # the real file replaces the forgery in the repository (same name, rebased over it)
    repo = repos[0] if mover == alice else repos[1]
    assert (repo / game / real.name).read_text() == text
    out = dm(watcher, "git", "sync")
    assert f"round {int(real.name[1:5])} seat {seat} verified and applied" in out


def test_sync_refuses_a_folder_that_is_not_a_repository(tmp_path):
    t = GitTable(tmp_path)
    (tmp_path / "plain").mkdir()
    assert "not a git repository" in dm(t.homes[0], "git", "sync", str(tmp_path / "plain"), code=1)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    assert "not empty" in dm(t.homes[0], "git", "init", str(tmp_path / "full"), code=1)


def test_a_push_the_host_refuses_says_the_hosts_reason_and_what_is_left(tmp_path):
    """A pre-receive hook (as a protected branch) declines every push: 'new --git' says git's reason and what the
    hook said, gives no advice to try again, and says what is left: the game in this home and committed in the clone,
    pushed by the next sync once the host takes it (issue 40 item 3)."""
    t = GitTable(tmp_path)
    hook = t.remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'protected branch: main takes no direct pushes' >&2\nexit 1\n")
    hook.chmod(0o755)
    repo = t.clone(0)
    out = dm(t.homes[0], "new", "warlords", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"),
             "--git", str(repo), code=1)
    assert "(pre-receive hook declined)" in out and "protected branch: main takes no direct pushes" in out, out
    assert "kept moving" not in out and "try again" not in out and not out.startswith("new game"), out
    (folder,) = (t.homes[0] / "games").iterdir()
    assert f"is in this home ({folder}) and committed in {repo}, but not pushed" in out, out
    assert f"'duelmail git sync {repo}' pushes it" in out
    assert git(t.remote, "for-each-ref") == ""  # nothing reached the host
    out = dm(t.homes[0], "git", "sync", str(repo), code=1)  # a sync says the same, once, and no more
    assert out.count("pre-receive hook declined") == 1 and "try again" not in out, out
    hook.unlink()  # the owner lets the pushes in
    dm(t.homes[0], "git", "sync", str(repo))
    assert f"{folder.name}/genesis.toml" in git(t.remote, "ls-tree", "-r", "--name-only", "main")


@pytest.mark.parametrize("stderr, moved, refused", [
    (" ! [rejected]        HEAD -> main (fetch first)\nerror: failed to push some refs to 'r.git'", True, ""),
    (" ! [rejected]        HEAD -> main (non-fast-forward)\n", True, ""),
    (" ! [remote rejected] HEAD -> main (cannot lock ref 'refs/heads/main': is at 12ab but expected 34cd)\n", True, ""),
    (" ! [remote rejected] HEAD -> main (failed to update ref)\n", True, ""),
    ("remote: GitLab: You are not allowed to push code to protected branches on this project.\nTo host:g.git\n"
     " ! [remote rejected] HEAD -> main (pre-receive hook declined)\n", False, "pre-receive hook declined"),
    (" ! [remote rejected] HEAD -> main (protected branch hook declined)\n", False, "protected branch hook declined"),
    ("fatal: unable to access 'https://h/g.git/': Could not resolve host: h\n", False, ""),
])
def test_a_moved_branch_is_told_from_a_push_the_host_refuses(stderr, moved, refused):
    """What 'git push' prints, as git and the hosts word it: a branch another push moved is pushed again; a host's
    own refusal (a hook, a protected branch) is said with its reason; anything else is git's error as it is."""
    from duelmail.transport.git import _push_outcome

    assert _push_outcome(stderr) == (moved, refused)


def test_status_says_a_file_not_pushed_yet_until_a_sync_pushes_it(tmp_path):
    """Issue 38: a game by git has no outbox; 'status' compares this seat's files with what the repository's remote
    has (as the clone last saw it) and says each it lacks, as the mail outbox says what is not sent: here after a
    push to a remote made unreachable (a wrong path), until a sync with the path fixed pushes it."""
    t = GitTable(tmp_path)
    repos = t.start("skirmish")
    t.join(1)
    alice, bob = t.homes
    dm(alice, "git", "sync")
    assert "not pushed" not in dm(alice, "status") + dm(bob, "status")
    git(repos[0], "remote", "set-url", "origin", str(tmp_path / "nowhere.git"))
    out = dm(alice, "play", "--bot", "heuristic", "--seed", "1", "--push", code=1)
    assert "nowhere.git" in out, out
    st = dm(alice, "status")
    assert "not pushed yet: r0002-s0.toml (origin of " in st and "'duelmail git sync'" in st, st
    assert [u["file"] for u in t.status(alice)["unsent"]] == ["r0002-s0.toml"]
    assert "1 file signed here not sent yet" in dm(alice, "status", "--all")
    dm(alice, "git", "sync", code=1)  # still unreachable: still said
    assert "not pushed yet: r0002-s0.toml" in dm(alice, "status")
    git(repos[0], "remote", "set-url", "origin", str(t.remote))
    dm(alice, "git", "sync")
    assert "not pushed" not in dm(alice, "status") and "unsent" not in t.status(alice)
    assert "round 2 seat 0 verified and applied" in dm(bob, "git", "sync")
    assert "not pushed" not in dm(bob, "status")


def test_a_commit_tree_is_the_one_git_itself_makes_of_the_same_files(tmp_path):
    """(issue 42) A commit's tree is made from HEAD's tree's own bytes (``GitRepo._mktree``, written by
    ``hash-object -t tree``): the same object as git's index makes of the same working tree (``write-tree``),
    in git's order (a folder sorts as its name and '/': ``a`` after ``a.b`` and ``a-b``, a file ``a0`` after the
    folder ``a``), with a symbolic link, an executable, a folder taken out and a new nested one."""
    import os

    from duelmail.transport.git import GitRepo

    repo = tmp_path / "r"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "config", "user.name", "x")
    git(repo, "config", "user.email", "x@example.org")
    for rel in ("a/one.toml", "a.b", "a-b", "a0", "gone/x.toml", "keep/deep/y.toml", "run.sh"):
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(f"{rel}\n")
    os.chmod(repo / "run.sh", 0o755)
    os.symlink("a0", repo / "link")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "first")
    g = GitRepo(repo)
    (repo / "a" / "two.toml").write_text("two\n")
    (repo / "gone" / "x.toml").unlink()
    (repo / "new" / "deeper").mkdir(parents=True)
    (repo / "new" / "deeper" / "z.toml").write_text("z\n")
    (repo / "keep" / "deep" / "y.toml").write_text("y, changed\n")
    g.add("a/two.toml", "gone/x.toml", "new/deeper/z.toml", "keep/deep/y.toml")
    assert g.commit("second")
    git(repo, "add", "-A")
    assert git(repo, "rev-parse", "HEAD^{tree}") == git(repo, "write-tree")
    assert git(repo, "status", "--porcelain") == ""
    git(repo, "fsck", "--strict")
