"""A static site of a game repository's replays, for spectators: one index page and one replay page per game.

``write_site(repo, out)`` reads every game folder of the repository (``KIND-GAMEID/``), builds its replay from
the signed files alone (so only what is public, or everything once the game is audited) and writes
``out/index.html`` and ``out/KIND-GAMEID.html``: plain files any static pages host serves as they are.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from duelmail.errors import DuelmailError
from duelmail.games.svg import inline
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


def game_folders(repo: Path) -> list[Path]:
    from duelmail.transport.git import GAME_DIR

    return sorted(p for p in repo.iterdir() if p.is_dir() and GAME_DIR.fullmatch(p.name)
                  and (p / "genesis.toml").exists())


def summary(folder: str, replay: Replay) -> SiteGame:
    m = replay.match
    step = replay.steps[-1]
    status = f"over: {replay.outcome()}" if m.over() else f"round {m.round}, in progress"
    picture = inline(step.state.picture(None, replay.known(step, None), replay.names))
    return SiteGame(folder, replay.title, replay.names, status, picture)


def index_html(games: list[SiteGame]) -> str:
    rows = []
    for g in games:
        head = (f'<a href="{escape(g.folder)}.html">{escape(g.title)}: {escape(" vs ".join(g.players))}</a>'
                if g.players else escape(g.title))
        rows.append(f'<li style="margin:0 0 22px;list-style:none"><h2 style="margin:0 0 4px;font-size:18px">'
                    f'{head}</h2>'
                    f'<p style="margin:0 0 6px;color:#5f676c">{escape(g.folder)} · {escape(g.status)}</p>'
                    + (f'<a href="{escape(g.folder)}.html" style="display:block;max-width:480px">{g.picture}</a>'
                       if g.picture else "") + "</li>")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>duelmail games</title></head>'
            '<body style="margin:0 auto;max-width:760px;padding:12px;font:15px/1.45 Verdana,Arial,sans-serif;'
            'color:#1d2326;background:#fffdf8"><h1 style="font-size:24px">duelmail games</h1>'
            '<p>Every game of this repository, replayed from its signed turn files: the table as everyone saw it, '
            'and every card once a game is over and audited.</p>'
            f'<ul style="padding:0">{"".join(rows) or "<li>No game yet.</li>"}</ul></body></html>\n')


def write_site(repo: Path, out: Path) -> list[Path]:
    """Write the index and one replay page per game into ``out``; the paths written."""
    written, games = [], []
    for folder in game_folders(repo):
        try:
            replay = build_replay(read_files(folder, archive_only=True))
        except (DuelmailError, OSError) as e:  # a file someone pushed that does not verify: say so, draw no page
            games.append(SiteGame(folder.name, folder.name.split("-")[0], [], f"does not verify: {e}", None))
            continue
        written.append(atomic_write(out / f"{folder.name}.html", render_html(replay)))
        games.append(summary(folder.name, replay))
    written.insert(0, atomic_write(out / "index.html", index_html(games)))
    return written
