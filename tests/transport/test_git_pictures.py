"""The shared git repository as people see it: each game's README with its picture (``table.svg`` committed beside
it), the last events in words and a link to the committed replay page; commits authored by the player who moved;
and the static site of every game's replay (``duelmail git site``)."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from clitable import dm
from test_git import GitTable, git  # noqa: I001


def test_readme_picture_replay_page_authors_and_site(tmp_path):
    t = GitTable(tmp_path)
    repos = t.start("summoner", "life=3")
    for repo in repos:  # the machines' own git identity: commits must name the player instead
        git(repo, "config", "user.name", "laptop")
        git(repo, "config", "user.email", "laptop@example.org")
    t.join(1)
    for i in range(4):
        for home in t.homes:
            dm(home, "git", "sync")
            if t.status(home)["your_turn"]:
                dm(home, "play", "--bot", "heuristic", "--seed", str(i), "--push")
    for home in t.homes:
        dm(home, "git", "sync")
    repo = repos[0]
    game = next((t.homes[0] / "games").iterdir()).name
    readme = (repo / game / "README.md").read_text()
    assert "![The table, as everyone can see it](table.svg)" in readme
    assert "[Step through the game (replay page)](replay.html)" in readme
    events = readme.split("Last events:", 1)[1].split("[Step", 1)[0]
    assert re.search(r"^- round \d+: (alice|bob) ", events, re.M) and "seat 0" not in events
    svg = (repo / game / "table.svg").read_text()
    root = ElementTree.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and "alice" in svg and "bob" in svg
    assert 'class="hand' not in svg and "(you)" not in svg  # the public view: nobody's hand
    assert (repo / game / "replay.html").read_text().startswith("<!DOCTYPE html>")
    # every turn commit is authored by the player whose file it adds; the machine only commits it
    log = git(repo, "log", "--format=@%an|%cn", "--name-only", "--diff-filter=A", "--", f"{game}/r*.toml")
    seen = 0
    for block in log.split("@")[1:]:
        head, *paths = [line for line in block.splitlines() if line]
        author, committer = head.split("|")
        seats = {re.search(r"-s(\d)\.toml$", p).group(1) for p in paths}
        assert seats == {"0" if author == "alice" else "1"} and author in ("alice", "bob"), (head, paths)
        seen += committer == "laptop"
    assert seen >= 3
    out = dm(t.homes[1], "git", "site", str(repos[1]), "--out", str(tmp_path / "site"))
    assert f"wrote {tmp_path / 'site' / 'index.html'}" in out
    index = (tmp_path / "site" / "index.html").read_text()
    assert f'href="{game}.html"' in index and re.search(r">alice</span> vs <span[^>]*>bob<", index) and "<svg" in index
    assert "seat 0" not in index and "seat 1" not in index and "last move " in index  # names, and the time
    assert (tmp_path / "site" / f"{game}.html").read_text().startswith("<!DOCTYPE html>")
    assert "http" not in index.replace("http://www.w3.org/2000/svg", "")  # the site links nowhere outside
