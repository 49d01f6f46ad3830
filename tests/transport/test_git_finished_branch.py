"""Issue 42: a club's finished games move to a branch of their own (``finished-games``) once ``SHELVE_AT`` of them
are in the branch in play, so the tree every turn commits to, which git reads whole at each fetch and push, holds the
games in play and a few finished ones. Real repositories; plain git reads them after."""

from __future__ import annotations

import re
import shutil
import subprocess

from clitable import dm
from test_git import GitTable, git, midgame  # noqa: F401, F811 - (a fixture)
from test_git_memory import move, mover
from test_git_readme import assert_plain_git_reads
from test_hostile import push_as

import duelmail.delivery.git as gitsync
from duelmail.home import Home
from duelmail.transport.folder import GameFolder
from duelmail.transport.git import SHELF, GitError, GitRepo
from duelmail.transport.settled import MARK


def game_in_play(tmp_path, monkeypatch, most: int = 1):
    """Alice and Bob's Warlords game in play, in a club that moves its finished games from ``most`` on."""
    monkeypatch.setattr(gitsync, "SHELVE_AT", most)
    t = GitTable(tmp_path)
    repos = t.start("warlords")
    t.join(1)
    for home in t.homes:
        dm(home, "git", "sync")
    return t, repos, next((t.homes[0] / "games").iterdir()).name


def finished_game(tmp_path, monkeypatch, most: int = 1):
    """The same game, resigned by alice."""
    t, repos, game = game_in_play(tmp_path, monkeypatch, most)
    dm(t.homes[0], "resign", "--push")
    return t, repos, game


def files_on(repo, ref: str, folder: str) -> set[str]:
    return set(git(repo, "ls-tree", "--name-only", f"{ref}:{folder}").split())


def test_a_settled_game_moves_to_the_finished_branch_and_every_home_takes_it_so(tmp_path, monkeypatch):
    t, repos, game = finished_game(tmp_path, monkeypatch)
    alice, bob = t.homes
    for home in (bob, alice, bob, alice):  # bob's seed for the audit, then both settle the game
        dm(home, "git", "sync")
    signed = {p.name for p in (alice / "games" / game).iterdir() if p.suffix == ".toml" and not p.name.startswith(".")}
    assert "genesis.toml" in signed and len(signed) > 3
    for repo in repos:
        assert not (repo / game).exists()  # out of the branch in play, and of the working tree
        assert game not in git(repo, "ls-tree", "--name-only", "origin/main").split()
        held = files_on(repo, f"origin/{SHELF}", game)
        assert signed <= held and "README.md" in held, held  # every signed file, and the game's views beside them
        (listing,) = (repo / "finished").iterdir()
        text = listing.read_text()
        assert text.count(f"- [{game}](../../{SHELF}/{game}/README.md): Warlords, over: ") == 1, text
        assert "Finished: 1 game" in (repo / "README.md").read_text()
        assert_plain_git_reads(repo)
    tip = git(t.remote, "rev-parse", "main")
    for home in t.homes:  # nothing puts the folder back, nothing is committed again
        dm(home, "git", "sync")
        status = dm(home, "status")
        assert "not pushed" not in status, status
    assert git(t.remote, "rev-parse", "main") == tip
    (bob / "games" / game / MARK).unlink()  # a home that had not settled it, with nothing new to fetch and no memory
    shutil.rmtree(bob / "index")  # (a cache: rebuilt from the games' marks)
    dm(bob, "git", "sync")  # reads the whole history, finds the game moved and finished: settles it, puts nothing back
    assert (bob / "games" / game / MARK).exists() and git(t.remote, "rev-parse", "main") == tip
    folder = GameFolder(bob / "games" / game, bob)
    assert gitsync.holds_game(repos[1], game) and gitsync.unpushed(Home(bob), folder) == []  # known there, pushed
    out = dm(bob, "git", "site", str(repos[1]), "--out", str(tmp_path / "site"))
    pages = [p.name for p in (tmp_path / "site").iterdir()]
    assert f"{game}.html" in pages and "index.html" in pages, (out, pages)
    assert "Over" in (tmp_path / "site" / "index.html").read_text()


def test_below_the_threshold_finished_games_stay_in_the_branch_in_play(tmp_path, monkeypatch):
    t, repos, game = finished_game(tmp_path, monkeypatch, most=2)
    for home in (t.homes[1], t.homes[0], t.homes[1]):
        dm(home, "git", "sync")
    for repo in repos:
        assert (repo / game / "genesis.toml").is_file()
        assert subprocess.run(["git", "-C", str(repo), "rev-parse", "-q", "--verify", f"origin/{SHELF}"],
                              capture_output=True).returncode == 1  # no such branch: nothing moved
        assert f"- [{game}](../{game}/README.md)" in next((repo / "finished").iterdir()).read_text()


def test_a_move_stopped_between_its_two_pushes_is_finished_by_the_next_sync(tmp_path, monkeypatch):
    """The finished games' branch is pushed first; a sync stopped before the branch in play lets them go leaves them
    in both, and the next sync takes them out without a second commit on the finished games' branch."""
    t, repos, game = finished_game(tmp_path, monkeypatch)
    alice, bob = t.homes
    dm(bob, "git", "sync")

    def stopped(self, names):
        raise GitError("the connection dropped")

    monkeypatch.setattr(GitRepo, "drop_folders", stopped)
    assert "the connection dropped" in dm(alice, "git", "sync", code=1)
    shelf = git(t.remote, "rev-parse", SHELF)
    assert game in git(t.remote, "ls-tree", "--name-only", "main").split()  # still in the branch in play
    monkeypatch.undo()
    monkeypatch.setattr(gitsync, "SHELVE_AT", 1)
    dm(alice, "git", "sync")
    assert git(t.remote, "rev-parse", SHELF) == shelf  # the branch already held it: no commit again
    assert game not in git(t.remote, "ls-tree", "--name-only", "main").split()
    dm(bob, "git", "sync")
    for repo in repos:
        assert not (repo / game).exists()
        assert_plain_git_reads(repo)


def test_a_file_pushed_into_a_moved_games_folder_is_kept_when_it_moves_again(tmp_path, monkeypatch):
    t, repos, game = finished_game(tmp_path, monkeypatch)
    alice, bob = t.homes
    for home in (bob, alice, bob):
        dm(home, "git", "sync")
    before = files_on(repos[0], f"origin/{SHELF}", game)
    genesis = git(repos[0], "rev-parse", f"origin/{SHELF}:{game}/genesis.toml")
    push_as(tmp_path, t.remote, "a late note", {f"{game}/NOTES.md": "gg\n",  # the folder back in play: a new file,
                                                f"{game}/genesis.toml": "# forged\n"})  # and one under a file's name
    dm(alice, "git", "sync")
    after = files_on(repos[0], f"origin/{SHELF}", game)
    assert after == before | {"NOTES.md"}, after ^ before  # nothing of the folder's lost on the finished branch
    assert git(repos[0], "rev-parse", f"origin/{SHELF}:{game}/genesis.toml") == genesis  # nor replaced
    assert game not in git(t.remote, "ls-tree", "--name-only", "main").split()
    assert re.search(r"^\S+ duelmail: 1 finished game moved to the branch finished-games$",
                     git(t.remote, "log", "--format=%h %s", "main"), re.M)


def test_a_bogus_move_pushed_by_someone_stops_no_game(tmp_path, monkeypatch):
    """The finished games' branch is a view: no sync reads it to verify or play. Mallory takes a game in play out of
    the branch in play and pushes a ``finished-games`` branch holding it with a forged last file: no home settles the
    game or reads the forgery, and the next move puts the folder back, where the game goes on."""
    t, repos, game = game_in_play(tmp_path, monkeypatch)
    mallory = tmp_path / "mallory-clone"
    push_as(tmp_path, t.remote, "a note", {"NOTE.md": "hi\n"})  # (mallory's clone)
    git(mallory, "rm", "-r", "-q", game)
    git(mallory, "commit", "-qm", "finished (not really)")
    git(mallory, "push", "-q", "origin", "main")
    git(mallory, "checkout", "-q", "-b", SHELF, "HEAD~1")
    (mallory / game / "r0999-s0.toml").write_text("# the game is over: mallory won\n[file]\nround = 999\n")
    git(mallory, "add", "-A")
    git(mallory, "commit", "-qm", "mallory wins")
    git(mallory, "push", "-q", "origin", SHELF)
    for i, home in enumerate(t.homes):
        out = dm(home, "git", "sync")
        assert "r0999" not in out and "REFUSED" not in out, out  # never read
        if i == 0:
            assert "its files put back (its folder was taken out of main)" in out, out
        status = t.status(home)
        assert not status.get("result") and not status.get("audited"), status  # still in play
        assert (repos[i] / game / "genesis.toml").is_file()
    for _ in range(2):
        other, applied = move(t)  # the mover's file goes out: its folder is back in the branch in play
        assert applied in dm(other, "git", "sync")
    held = set(git(repos[0], "ls-tree", "--name-only", f"origin/main:{game}").split())
    assert "genesis.toml" in held and any(n.endswith("-s0.toml") for n in held) \
        and any(n.endswith("-s1.toml") for n in held), held


def test_a_game_folder_deleted_by_someone_is_put_back_by_the_next_sync(midgame, tmp_path):  # noqa: F811
    """Before, a game's folder deleted whole from the branch in play stopped the game: no sync wrote it again and
    ``play --push`` found no repository holding it. The sync that reads the deletion puts it back."""
    t, repos = midgame
    game = next((t.homes[0] / "games").iterdir()).name
    push_as(tmp_path, t.remote, "tidy up", {"NOTE.md": "hi\n"})
    mallory = tmp_path / "mallory-clone"
    git(mallory, "rm", "-r", "-q", game)
    git(mallory, "commit", "-qm", "gone")
    git(mallory, "push", "-q", "origin", "main")
    other, _ = mover(t)
    assert "its files put back" in dm(other, "git", "sync")
    other, applied = move(t)
    assert applied in dm(other, "git", "sync")
    assert "genesis.toml" in git(repos[0], "ls-tree", "--name-only", f"origin/main:{game}").split()
