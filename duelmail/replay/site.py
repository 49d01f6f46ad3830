"""A static site of a game repository's replays, for spectators: one index page and one replay page per game.

``write_site(repo, out)`` reads every game folder of the repository (``KIND-GAMEID/``), builds its replay from
the signed files alone (so only what is public, or everything once the game is audited) and writes
``out/index.html`` and ``out/KIND-GAMEID.html`` (a folder its club renamed: ``NAME-GAMEID.html``): plain files any
static pages host serves as they are.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

from duelmail.errors import DuelmailError
from duelmail.games.svg import SEATS, inline, named
from duelmail.replay.html import render_html
from duelmail.replay.model import Replay, build_replay
from duelmail.transport.archive import read_files
from duelmail.util.classes import dataclass
from duelmail.util.fs import atomic_write


@dataclass
class SiteGame:
    folder: str
    title: str
    players: list[str]
    status: str
    picture: str | None
    time: str = ""  # the last move's time as its files give it ("" when unknown)


def game_folders(repo: Path) -> list[Path]:
    """The repository's game folders: each named ``kind-12hex`` that holds a genesis, and any other that holds a
    game's genesis (a folder its club renamed; a game is known by its genesis, not by its folder's name)."""
    from duelmail.transport.git import GAME_DIR

    found = []
    for p in sorted(repo.iterdir()):
        genesis = p / "genesis.toml"
        if p.name.startswith(".") or p.is_symlink() or not p.is_dir() or genesis.is_symlink() or not genesis.is_file():
            continue
        if GAME_DIR.fullmatch(p.name) or page_name(p) != p.name:
            found.append(p)
    return found


def page_name(folder: Path) -> str:
    """The name of a game's page (``NAME.html``): its folder's, ``kind-12hex``; a renamed folder's said in letters,
    digits, dots and dashes and ended by its game's id, so no page is named like another or the index. The
    folder's own name when it holds no game's genesis."""
    from duelmail.transport.archive import genesis_prefix
    from duelmail.transport.git import GAME_DIR

    if GAME_DIR.fullmatch(folder.name):
        return folder.name
    try:
        gid = genesis_prefix((folder / "genesis.toml").read_text(errors="replace"), str(folder / "genesis.toml"))
    except OSError:
        gid = None
    if gid is None:
        return folder.name
    return f"{re.sub(r'[^A-Za-z0-9.]+', '-', folder.name).strip('.-')[:60] or 'game'}-{gid}"


def summary(folder: str, replay: Replay) -> SiteGame:
    """A game as the index shows it: its state in words (players by name, never a seat number)."""
    m = replay.match
    step = replay.steps[-1]
    if m.over():
        status = "Over: " + named(replay.outcome(), replay.names)
    else:
        waiting = ", ".join(replay.names[s] for s in step.awaited) or "nobody"
        status = f"In progress, round {m.round}: waiting for {waiting}"
    picture = inline(step.state.picture(None, replay.known(step, None), replay.names))
    time = next((s.time for s in reversed(replay.steps) if s.time), "")
    return SiteGame(folder, replay.title, replay.names, status, picture, time.replace("T", " "))


STYLE = """
body { margin: 0; background: #efebe2; color: #1d2326; font: 15px/1.45 Verdana, Arial, sans-serif; }
header { background: #154530; color: #f6f3ec; padding: 18px 20px 14px; }
header h1 { margin: 0 0 4px; font-size: 24px; } header p { margin: 0; color: #cfe0d6; max-width: 60em; }
ul.games { list-style: none; margin: 0 auto; padding: 16px; max-width: 1180px; display: grid; gap: 16px;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 300px), 1fr)); }
li.game { background: #fffdf8; border: 1px solid #d9d2c3; border-radius: 12px; overflow: hidden;
  box-shadow: 0 1px 4px rgba(0,0,0,.12); }
li.game > a { display: block; color: inherit; text-decoration: none; }
li.game > a:hover, li.game > a:focus { background: #f6f1e4; }
.thumb { height: 220px; overflow: hidden; border-bottom: 1px solid #e4ddcd; }
.thumb svg { display: block; width: 100%; height: auto; }
.about { padding: 10px 14px 12px; overflow-wrap: break-word; }
.about h2 { margin: 0 0 2px; font-size: 17px; }
.players { margin: 0 0 4px; font-weight: bold; }
.state { margin: 0 0 4px; } .meta { margin: 0; color: #5f676c; font-size: 13px; }
@media (max-width: 480px) {  /* a phone: each card the screen's width, so its picture's text stays 12 px or more */
  ul.games { padding: 12px 0; gap: 12px; } li.game { border-radius: 0; border-left: 0; border-right: 0; } }
"""


def index_html(games: list[SiteGame]) -> str:
    """The index: each game a card with a small picture of its table, its players, its state and last move."""
    cards = []
    for g in games:
        players = " vs ".join(f'<span style="color:{SEATS[i % len(SEATS)]}">{escape(p)}</span>'
                              for i, p in enumerate(g.players))
        meta = escape(g.folder) + (f" &#183; last move {escape(g.time)}" if g.time else "")
        body = ((f'<div class="thumb">{g.picture}</div>' if g.picture else "")
                + f'<div class="about"><h2>{escape(g.title)}</h2>'
                + (f'<p class="players">{players}</p>' if g.players else "")
                + f'<p class="state">{escape(g.status)}</p><p class="meta">{meta}</p></div>')
        link = f'<a href="{escape(g.folder)}.html">{body}</a>' if g.players else body
        cards.append(f'<li class="game">{link}</li>')
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>duelmail games</title>'
            f'<style>{STYLE}</style></head><body><header><h1>duelmail games</h1>'
            '<p>Every game of this repository, replayed from its signed turn files: the table as everyone saw it, '
            'and every card once a game is over and audited. Pick a game to replay it step by step.</p></header>'
            f'<ul class="games">{"".join(cards) or "<li>No game yet.</li>"}</ul></body></html>\n')


def write_site(repo: Path, out: Path) -> list[Path]:
    """Write the index and one replay page per game into ``out``; the paths written."""
    written, games = [], []
    for folder in game_folders(repo):
        page = page_name(folder)
        try:
            replay = build_replay(read_files(folder, archive_only=True))
        except (DuelmailError, OSError) as e:  # a file someone pushed that does not verify: say so, draw no page
            games.append(SiteGame(page, folder.name.split("-")[0], [], f"does not verify: {e}", None))
            continue
        written.append(atomic_write(out / f"{page}.html", render_html(replay)))
        games.append(summary(page, replay))
    written.insert(0, atomic_write(out / "index.html", index_html(games)))
    return written
