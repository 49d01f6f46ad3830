"""A club's repository (issue 32): the top README lists the games in play and counts the finished ones, whose lines
go once to their month's listing (``finished/YYYY-MM.md``); a sync that brings a new turn writes only what the new
commits changed and builds its commits with git's plumbing. Real repositories, and plain git reads them after."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from clitable import dm
from test_git import GitTable, git
from test_git_memory import move, traced
from test_git_memory import mover as mover_of
from test_hostile import push_as

from duelmail.delivery import git as gitsync
from duelmail.transport.git import SHELF, GitRepo


def assert_plain_git_reads(clone: Path) -> None:
    """Any git client takes the clone as it is: no broken object, nothing left uncommitted, the remote's tip."""
    fsck = subprocess.run(["git", "-C", str(clone), "fsck", "--no-dangling"], capture_output=True, text=True)
    assert fsck.returncode == 0 and "error" not in fsck.stderr + fsck.stdout, fsck.stderr
    assert git(clone, "status", "--porcelain", "--untracked-files=all") == ""
    assert git(clone, "rev-parse", "HEAD") == git(clone, "rev-parse", "origin/main")


def test_a_finished_games_line_leaves_the_index_for_its_months_listing_once_with_names_escaped(tmp_path):
    t = GitTable(tmp_path, names=("alice", "bob__loud__"))  # `_` is markdown: a name a player chose, escaped
    repos = t.start("warlords")
    t.join(1)
    alice, bob = t.homes
    for home in t.homes:
        dm(home, "git", "sync")
    game = next((alice / "games").iterdir()).name
    top = (repos[0] / "README.md").read_text()
    assert re.search(rf"^In play:\n\n- \[{game}\]\({game}/README\.md\): Warlords, round \d+, awaiting ", top, re.M), top
    assert "Finished: none yet." in top and not (repos[0] / "finished").exists()
    dm(alice, "resign", "--push")
    dm(bob, "git", "sync")  # bob's seed for the audit goes out
    dm(alice, "git", "sync")
    dm(bob, "git", "sync")
    for repo in repos:
        top = (repo / "README.md").read_text()
        (listing,) = (repo / "finished").iterdir()
        assert re.fullmatch(r"[0-9]{4}-[0-9]{2}\.md", listing.name)
        assert game not in top and "In play: none." in top, top
        assert f"Finished: 1 game, listed by the month of their last move: [{listing.stem}](finished/{listing.name}) " \
               "(1)." in top, top
        text = listing.read_text()
        assert text.count(f"- [{game}](../{game}/README.md)") == 1, text  # both homes settled it: one line
        assert "over: bob\\_\\_loud\\_\\_ won: alice resigned" in text and "bob__loud__" not in text, text
        assert "finished/*.md merge=union" in (repo / ".gitattributes").read_text()
        assert_plain_git_reads(repo)


def test_a_new_turn_is_written_alone_and_the_clone_stays_a_plain_git_clone(tmp_path, monkeypatch):
    """The sync that takes a new turn in moves the branch by writing the files its commits changed: no ``git
    status``, ``rebase``, ``merge`` or ``commit`` (each checks every file of the working tree, some 110,000 in a
    club's repository of 10,000 games), and the next sync, with nothing new, does not look at the working tree."""
    t = GitTable(tmp_path)
    repos = t.start("warlords")
    t.join(1)
    for home in (*t.homes, *t.homes):
        dm(home, "git", "sync")
    other, applied = move(t)
    out, commands = traced(other, monkeypatch, tmp_path, "git", "sync")
    assert applied in out, out
    verbs = {c.split()[0] for c in commands}
    assert not verbs & {"status", "rebase", "merge", "commit", "reset", "write-tree"}, commands
    assert [c.split()[0] for c in commands].count("update-index") == 1, commands  # git's index: written once
    assert [c for c in commands if c.startswith("cat-file --batch")], commands
    clone = repos[t.homes.index(other)]
    assert_plain_git_reads(clone)
    new = git(clone, "diff", "--name-only", "HEAD~1", "HEAD").split()
    assert new and all((clone / p).read_text() == git(clone, "show", f"HEAD:{p}") for p in new)
    _, commands = traced(other, monkeypatch, tmp_path, "git", "sync")
    assert "status" not in {c.split()[0] for c in commands}, commands
    mover = t.homes[1 - t.homes.index(other)]  # the mover's own commits are built by plumbing, and plain git reads
    assert_plain_git_reads(repos[t.homes.index(mover)])
    author, title = git(repos[t.homes.index(mover)], "log", "-1", "--format=%an%n%s", "HEAD").splitlines()
    assert author == mover.name and title.startswith("warlords-") and " round " in title, (author, title)
    player, _ = mover_of(t)  # (issue 42) a turn: HEAD's tree, its folder made again; the index written once
    _, commands = traced(player, monkeypatch, tmp_path, "play", "--bot", "heuristic", "--seed", "1", "--push")
    verbs = [c.split()[0] for c in commands]
    assert any(c.startswith("hash-object -t tree") for c in commands), commands  # HEAD's tree, its folder anew
    assert "write-tree" not in verbs and verbs.count("update-index") == 1, commands
    assert_plain_git_reads(repos[t.homes.index(player)])


def test_an_index_of_the_older_kind_is_rewritten_once_in_full(tmp_path):
    """A README listing every game, as duelmail wrote it before the listings (or as anyone pushed it), becomes the
    index of the games in play at the next sync; a line someone else wrote is cut back to its link."""
    t = GitTable(tmp_path)
    repos = t.start("warlords")
    t.join(1)
    alice = t.homes[0]
    game = next((alice / "games").iterdir()).name
    old = "\n".join(["# duelmail games", "", f"- [{game}]({game}/README.md): Warlords, over: <b>forged</b>",
                     "- [warlords-0123456789ab](warlords-0123456789ab/README.md): Warlords, round 3", ""])
    push_as(tmp_path, t.remote, "an index of the older kind", {"README.md": old})
    dm(alice, "git", "sync")
    top = (repos[0] / "README.md").read_text()
    assert "Finished: none yet." in top and "forged" not in top and "<b>" not in top, top
    assert re.search(rf"^- \[{game}\]\({game}/README\.md\): Warlords, round \d+, awaiting ", top, re.M), top
    assert "warlords-0123456789ab" not in top  # no such folder in the repository: not listed
    assert_plain_git_reads(repos[0])


def test_a_readme_edited_by_hand_in_the_clone_never_stops_the_sync(tmp_path):
    """The clean mark spares a sync ``git status``; a change by hand at a path the new commits change makes the
    fast-forward give way to the rebase, and the change is committed first, as after a stopped sync."""
    t = GitTable(tmp_path)
    repos = t.start("warlords")
    t.join(1)
    for home in (*t.homes, *t.homes):
        dm(home, "git", "sync")
    other, applied = move(t)
    clone = repos[t.homes.index(other)]
    game = next((other / "games").iterdir()).name
    (clone / game / "README.md").write_text("my own notes\n")  # the mover's push rewrote this README
    out = dm(other, "git", "sync")
    assert applied in out, out
    assert "my own notes" not in (clone / game / "README.md").read_text()  # rewritten from the home's state
    assert_plain_git_reads(clone)


def a_finished_game(tmp_path: Path) -> tuple[GitTable, list[Path], Path]:
    """Alice and Bob's Warlords game in a club's repository, resigned by alice and synced by both: the table, the
    two clones, alice's folder of the game."""
    t = GitTable(tmp_path)
    repos = t.start("warlords")
    t.join(1)
    alice, bob = t.homes
    for home in t.homes:
        dm(home, "git", "sync")
    game = next((alice / "games").iterdir())
    dm(alice, "resign", "--push")
    dm(bob, "git", "sync")
    dm(alice, "git", "sync")
    return t, repos, game


def test_a_finished_game_in_a_renamed_folder_is_known_by_its_genesis_and_listed_once(tmp_path):
    """Issue 42: a game folder renamed outside ``kind-12hex`` was appended to its month's listing at every sync
    that looked at it (its name in no line), and left out of the count. It is known by its genesis: listed once."""
    t, repos, game = a_finished_game(tmp_path)
    alice, bob = t.homes
    game.rename(game.with_name("the-final"))  # the club renamed the finished game's folder (a name it chose)
    git(repos[0], "mv", game.name, "the-final")
    git(repos[0], "commit", "-qm", "a name for the final")
    out = dm(alice, "git", "sync", code=1)  # its files under the old name: no game of this home's, refused once
    assert "REFUSED" in out and "the-final" not in out, out
    for _ in range(3):  # each sync without its memory of the last: every game is looked at
        for memory in (alice / "index").glob("git-*.json"):
            memory.unlink()
        dm(alice, "git", "sync")
    repo = repos[0]
    (listing,) = (repo / "finished").iterdir()
    text = listing.read_text()
    assert text.count("- [") == 1 and f"- [{game.name}](../{game.name}/README.md): Warlords, over: " in text, text
    top = (repo / "README.md").read_text()
    assert f"Finished: 1 game, listed by the month of their last move: [{listing.stem}](finished/{listing.name}) " \
           "(1)." in top and "the-final" not in top.split("Finished:")[0], top
    assert_plain_git_reads(repo)
    listing.write_text(text + "- [the-final](../the-final/README.md): Warlords, over: the same game, by its new name\n")
    assert gitsync._listing_names(GitRepo(repo)) == {listing.stem: {game.name[-12:]}}  # one game, by its genesis


def test_a_large_clones_index_is_split_once_and_a_turn_writes_only_its_small_part(tmp_path, monkeypatch):
    """(issue 42) From ``SPLIT_AT`` files on, a sync keeps the index of a clone that is not sparse (its keeper set
    ``core.sparseCheckout = false``) split (``core.splitIndex``, set in the clone alone): the shared index, the whole
    repository's, is written once; a new turn writes only the small index of what changed, and plain git reads the
    clone as before. A smaller clone's index is left as git writes it."""
    import duelmail.transport.git as gitmod

    t = GitTable(tmp_path)
    repos = t.start("warlords")
    t.join(1)
    for home in t.homes:
        dm(home, "git", "sync")
    assert not [p for r in repos for p in (r / ".git").glob("sharedindex.*")]  # below SPLIT_AT: one index file
    assert subprocess.run(["git", "-C", str(repos[0]), "config", "--get", "core.splitIndex"]).returncode == 1
    files = len(git(repos[0], "ls-files").split())
    monkeypatch.setattr(gitmod, "SPLIT_AT", files)
    for repo in repos:
        git(repo, "config", "core.sparseCheckout", "false")  # (else the clone is made sparse: the next test)
    for home in t.homes:
        dm(home, "git", "sync")
    shared = {r: sorted((r / ".git").glob("sharedindex.*")) for r in repos}
    for repo in repos:
        assert len(shared[repo]) == 1, shared
        assert git(repo, "config", "--get", "core.splitIndex").strip() == "true"
        assert git(repo, "config", "--get", "index.version").strip() == "4"
        assert (repo / ".git" / "index").stat().st_size < shared[repo][0].stat().st_size
        assert_plain_git_reads(repo)
    other, applied = move(t)  # the mover's turn, then the sync that applies it: the shared index is not written
    out, commands = traced(other, monkeypatch, tmp_path, "git", "sync")
    assert applied in out, out
    assert [c.split()[0] for c in commands].count("update-index") == 1, commands
    assert "--split-index" not in " ".join(commands), commands  # set once, not at every sync
    for repo in repos:
        assert sorted((repo / ".git").glob("sharedindex.*")) == shared[repo]
        assert git(repo, "ls-files", "--", "*/r0*.toml").split() == [
            p for p in git(repo, "ls-tree", "-r", "--name-only", "HEAD").split() if "/r0" in p]
        assert_plain_git_reads(repo)
    git(repos[0], "config", "core.splitIndex", "false")  # whoever keeps the clone chose a whole index: it stays
    git(repos[0], "update-index", "--no-split-index")
    dm(t.homes[0], "git", "sync")
    entries = int.from_bytes((repos[0] / ".git" / "index").read_bytes()[8:12], "big")
    assert entries == len(git(repos[0], "ls-files").split()) >= files
    assert git(repos[0], "config", "--get", "core.splitIndex").strip() == "false"
    assert_plain_git_reads(repos[0])


def test_a_large_clone_is_made_sparse_its_finished_games_leave_the_working_tree_and_turns_go_on(tmp_path, monkeypatch):
    """(issue 42) From ``SPLIT_AT`` files on, a sync makes the clone a cone-mode sparse checkout with a sparse index
    (set in the clone alone): a finished game's folder leaves the working tree, not the repository (``git show``
    reads it, and ``git site`` publishes it), a game in play stays; a turn and the sync that applies it touch an
    index of the cone alone, and plain git reads the clone as before. A clone whose keeper set
    ``core.sparseCheckout`` is left whole."""
    import duelmail.transport.git as gitmod

    t, repos, game = a_finished_game(tmp_path)
    alice, bob = t.homes
    done = game.name
    dm(bob, "git", "sync")
    out = dm(alice, "new", "warlords", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"), "--git",
             str(repos[0]))
    assert "pushed" in out
    (live,) = {p.name for p in (alice / "games").iterdir()} - {done}
    assert "a new game" in dm(bob, "git", "sync")
    assert "committed" in dm(bob, "join", str(bob / "games" / live / "genesis.toml"), "--push")
    for home in t.homes:
        dm(home, "git", "sync")
    files = len(git(repos[0], "ls-files").split())
    git(repos[1], "config", "core.sparseCheckout", "false")  # bob's keeper chose a whole clone: it stays whole
    dm(bob, "git", "sync")
    assert (repos[1] / done / "genesis.toml").is_file()
    git(repos[1], "config", "--unset", "core.sparseCheckout")
    monkeypatch.setattr(gitmod, "SPLIT_AT", files)
    for home in t.homes:
        dm(home, "git", "sync")
    for repo in repos:
        assert git(repo, "config", "--get", "duelmail.sparse").strip() == "true"
        assert git(repo, "config", "--get", "core.sparseCheckout").strip() == "true"
        assert f"{done}/" in git(repo, "ls-files", "--sparse").split()  # the index: one entry for the folder
        assert not (repo / done).exists() and (repo / live / "genesis.toml").is_file()
        assert (repo / "finished").is_dir() and (repo / "README.md").is_file()
        assert "genesis" in git(repo, "show", f"HEAD:{done}/genesis.toml")  # still in the repository
        assert not list((repo / ".git").glob("sharedindex.*"))  # sparse, not split
        assert git(repo, "config", "--get", "sparse.expectFilesOutsideOfPatterns").strip() == "true"
        assert_plain_git_reads(repo)
        git(repo, "config", "--unset", "sparse.expectFilesOutsideOfPatterns")  # as a clone made sparse before it
    kept = next((alice / "games" / done).glob("r0*.toml"))  # the same file, its comment lines written otherwise
    kept.write_text("# as another home writes its header\n" + kept.read_text())
    for memory in (alice / "index").glob("git-*.json"):
        memory.unlink()  # a sync without its memory looks at every game, the finished ones left out too
    _, commands = traced(alice, monkeypatch, tmp_path, "git", "sync")
    assert not [c for c in commands if c.startswith("sparse-checkout")], commands  # the same files: none put back
    assert not (repos[0] / done).exists()
    other, applied = move(t)  # a turn, then the sync that applies it
    out, commands = traced(other, monkeypatch, tmp_path, "git", "sync")
    assert applied in out, out
    assert [c.split()[0] for c in commands].count("update-index") == 1, commands
    assert not [c for c in commands if c.startswith("sparse-checkout")], commands  # the cone as it was
    for repo in repos:
        assert not (repo / done).exists() and (repo / live / "README.md").is_file()
        assert git(repo, "ls-files", "--", f"{live}/r0*.toml").split() == [
            p for p in git(repo, "ls-tree", "-r", "--name-only", "HEAD").split() if p.startswith(f"{live}/r0")]
        assert git(repo, "ls-tree", "-r", "--name-only", "HEAD", "--", done).split()  # not deleted
        assert git(repo, "config", "--get", "sparse.expectFilesOutsideOfPatterns").strip() == "true"  # set again
        assert_plain_git_reads(repo)
    dm(alice, "resign", "--push")  # the game in play ends: its folder leaves the working trees too
    for home in (bob, alice, bob):
        dm(home, "git", "sync")
    for repo in repos:
        assert not (repo / live).exists() and not (repo / done).exists()
        assert git(repo, "ls-tree", "-r", "--name-only", "HEAD", "--", live).split()
        assert "Finished: 2 games" in (repo / "README.md").read_text()
        assert_plain_git_reads(repo)
    dm(alice, "git", "site", str(repos[0]), "--out", str(tmp_path / "site"))  # from HEAD's trees, not the working tree
    assert {p.name for p in (tmp_path / "site").iterdir()} == {"index.html", f"{done}.html", f"{live}.html"}
    out = dm(alice, "new", "warlords", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"), "--git",
             str(repos[0]))  # a game begun in a sparse clone: put in its cone before it is written
    assert "pushed" in out
    (third,) = {p.name for p in (alice / "games").iterdir()} - {done, live}
    assert "a new game" in dm(bob, "git", "sync")  # out of bob's cone: git's own fast-forward, then put in it
    assert (repos[1] / third / "genesis.toml").is_file()  # (a game bob is seated in, his home holds it now)
    assert_plain_git_reads(repos[1])
    assert "committed" in dm(bob, "join", str(bob / "games" / third / "genesis.toml"), "--push")
    dm(alice, "git", "sync")
    for repo in repos:
        assert (repo / third / "genesis.toml").is_file() and (repo / third / "README.md").is_file()
        assert not (repo / live).exists()
        assert_plain_git_reads(repo)
    monkeypatch.setattr(gitsync, "SHELVE_AT", 2)  # the club's two finished games move to their own branch
    for home in (alice, bob):
        dm(home, "git", "sync")
    for repo in repos:
        assert not git(repo, "ls-tree", "--name-only", "HEAD", "--", done, live).split()
        assert {done, live} <= set(git(repo, "ls-tree", "--name-only", f"origin/{SHELF}").split())
        assert (repo / third / "genesis.toml").is_file()
        assert_plain_git_reads(repo)
    for repo in repos:  # few files in HEAD now: ordinary clones again (alice's at her move, bob's at the sync after)
        assert subprocess.run(["git", "-C", str(repo), "config", "--get", "core.sparseCheckout"],
                              capture_output=True).returncode == 1
        assert not (repo / ".git" / "info" / "sparse-checkout").exists()
        assert sorted(git(repo, "ls-files").split()) == sorted(git(repo, "ls-tree", "-r", "--name-only",
                                                                   "HEAD").split())  # every file, no folder left out
    dm(bob, "git", "site", str(repos[1]), "--out", str(tmp_path / "site2"))  # both branches' games
    assert {p.name for p in (tmp_path / "site2").iterdir()} == {"index.html", f"{done}.html", f"{live}.html",
                                                                f"{third}.html"}


def test_a_renamed_finished_folder_left_out_of_a_sparse_clone_is_still_known_by_its_genesis(tmp_path, monkeypatch):
    """(issue 42) A sparse clone leaves a finished game's folder out of its working tree; one the club renamed
    (not ``kind-12hex``) is then known by the genesis HEAD's tree holds, so syncs without memory list it once."""
    import duelmail.transport.git as gitmod

    t, repos, game = a_finished_game(tmp_path)
    alice, bob = t.homes
    git(repos[0], "mv", game.name, "the-final")  # the club renames the finished game's folder
    git(repos[0], "commit", "-qm", "a name for the final")
    git(repos[0], "push", "-q")
    monkeypatch.setattr(gitmod, "SPLIT_AT", 1)
    repo = repos[1]
    for _ in range(3):  # bob's clone made sparse; each sync without its memory looks at every game
        for memory in (bob / "index").glob("git-*.json"):
            memory.unlink()
        dm(bob, "git", "sync")
    assert git(repo, "config", "--get", "duelmail.sparse").strip() == "true"
    assert not (repo / "the-final").exists() and "genesis" in git(repo, "show", "HEAD:the-final/genesis.toml")
    (listing,) = (repo / "finished").iterdir()
    assert listing.read_text().count("- [") == 1, listing.read_text()
    assert "Finished: 1 game," in (repo / "README.md").read_text()
    listing.write_text(listing.read_text() + "- [the-final](../the-final/README.md): Warlords, over: by its new name\n")
    clone = GitRepo(repo)
    clone.load_cone()  # as a sync reads it
    assert clone.outside("the-final") and not clone.outside("finished")
    assert gitsync._listing_names(clone) == {listing.stem: {game.name[-12:]}}  # one game, by its genesis
    assert gitsync._is_game(clone, "the-final") and not gitsync._is_game(clone, "finished")
    git(repo, "checkout", "-q", "--", ".")
    assert_plain_git_reads(repo)
    page = f"the-final-{game.name[-12:]}.html"  # its page too, from HEAD's trees (bob's) or the working tree (alice's)
    for clone_path, out in ((repo, tmp_path / "site-sparse"), (repos[0], tmp_path / "site-whole")):
        dm(bob, "git", "site", str(clone_path), "--out", str(out))
        assert {p.name for p in out.iterdir()} == {"index.html", page}
        assert f'href="{page}"' in (out / "index.html").read_text() and "Over: " in (out / "index.html").read_text()
