"""Replays of archived games: step through a game in the terminal, or as one self-contained web page.

``load_replay(path)`` folds an archive once, snapshotting every closed round (``model``);
``render_html`` draws it as a page (``html``); ``TerminalReplay`` steps through it by commands
(``terminal``). See ``docs/replay.md``.
"""

from duelmail.replay.html import render_html, write_html
from duelmail.replay.model import Replay, Step, build_replay, load_replay

__all__ = ["Replay", "Step", "build_replay", "load_replay", "render_html", "write_html"]
