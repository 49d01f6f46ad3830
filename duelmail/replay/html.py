"""One self-contained HTML page for a replay: inline CSS, JavaScript and SVG, the steps as JSON.

Python does the game work once: every step's table is rendered by the game's own
``GameState.render`` for each view (a spectator, each seat, and once audited each seat with
every face), and the lines are interned so a long game stays small. The page's script draws each
line, turning card tokens (``QH``, ``10S``, ``XR``) into SVG playing cards and ``[??]`` into a
card back, so every game is drawn without code of its own.

The main view of each step is the game's own picture of the table (``GameState.picture``, an SVG
built from the same state and faces as the text, names escaped by ``games/svg.py``); the text table
stays one click away. "Everything" is one picture of the table with every face turned up, and every
seat's text. A game may add more: a function ``html_view(state, seat, known) -> str`` in the game's
package or its ``render`` module returns an HTML fragment (a battlefield map, say) shown above the
text table. It must escape whatever it takes from the archive.
"""

from __future__ import annotations

import html
import importlib
import json
import re
from collections.abc import Callable
from itertools import compress, repeat
from operator import is_
from pathlib import Path

from duelmail.games.cards import CardRef
from duelmail.games.svg import XMLNS, inline
from duelmail.replay.model import REF, TALK, TECHNICAL, Replay, Step
from duelmail.replay.page import PAGE
from duelmail.util.lines import lines_of

HOOK = "html_view"


def view_hook(replay: Replay) -> Callable | None:
    """The game's optional ``html_view`` (in its package, else its ``render`` module)."""
    module = importlib.import_module(type(replay.match.game).__module__)
    hook = getattr(module, HOOK, None)
    if hook is None:
        try:
            hook = getattr(importlib.import_module(module.__name__ + ".render"), HOOK, None)
        except ImportError:
            hook = None
    return hook if callable(hook) else None


class _Interner:
    """Strings to small ints: lines of text, whole texts (tuples of line ids), hook fragments, pictures.

    ``named``: ``Replay.named``, which names seats line by line, so a rules' line is named and looked up once."""

    def __init__(self, named: Callable[[str], str]):
        self.named = named
        self.lines: dict[str, int] = {}
        self.texts: dict[tuple[int, ...], int] = {}
        self.raw_lines: dict[str, int] = {}  # a line as the rules write it -> the id of its named line
        self.named_lines: dict[str, str] = {}  # ... -> its named line
        self.by_raw: dict[str, tuple[int, ...]] = {}
        self.frags: dict[str, int] = {}
        self.pieces: dict[str, int] = {}
        self.pictures: dict[tuple[int, ...], int] = {}

    def table(self, raw: str) -> tuple[int, ...]:
        """The line ids of ``named(raw)``, a rules' text (``Replay.table``) with names for seats."""
        ids = self.by_raw.get(raw)
        if ids is None:
            lines = lines_of(raw)
            ids = tuple(map(self.raw_lines.get, lines))
            if None in ids:  # name the new lines (the lines of named(raw) stay in order: new ids are as first seen)
                new = dict.fromkeys(compress(lines, map(is_, ids, repeat(None))))
                named = list(map(self.named, new))
                self.named_lines.update(zip(new, named, strict=True))
                if any("\n" in line for line in named):  # never with valid names; then as named(raw) would split
                    return _ids(self.lines, self.named(raw).split("\n"))
                self.raw_lines.update(zip(new, _ids(self.lines, named), strict=True))
                ids = tuple(map(self.raw_lines.__getitem__, lines))
            self.by_raw[raw] = ids
        return ids

    def named_text(self, raw: str) -> str:
        """``named(raw)`` for a text ``table`` has seen."""
        return "\n".join(map(self.named_lines.__getitem__, lines_of(raw)))

    def text(self, ids: tuple[int, ...]) -> int:
        """The id of a text given as its line ids."""
        return self.texts.setdefault(ids, len(self.texts))

    def frag(self, s: str) -> int:
        return self.frags.setdefault(s, len(self.frags))

    def picture(self, svg: str) -> int:
        """A picture, ``inline`` (``games/svg.py``), as a tuple of interned lines (one element or group each): steps
        share most of them. The namespace is taken off the first line alone, not off a copy of the whole text."""
        lines = lines_of(svg)
        if XMLNS in lines[0]:
            lines = (lines[0].replace(XMLNS, "", 1), *lines[1:])
        else:
            lines = lines_of(inline(svg))
        key = _ids(self.pieces, lines)
        return self.pictures.setdefault(key, len(self.pictures))


def _ids(table: dict[str, int], items: list[str]) -> tuple[int, ...]:
    """The ids of ``items`` in ``table``, new ones numbered in order of first appearance (as ``setdefault`` one by
    one would), with the lookups in C."""
    ids = tuple(map(table.get, items))
    if None not in ids:  # the usual case: every line was seen before
        return ids
    for x in dict.fromkeys(compress(items, map(is_, ids, repeat(None)))):  # the new ones, each once, in order
        table[x] = len(table)
    return tuple(map(table.__getitem__, items))


def _kind(text: str) -> int:
    """0: play, 1: protocol bookkeeping, 2: a cheat, 3: table talk."""
    if TALK.search(text):
        return 3
    if text.startswith("CHEAT") or "EQUIVOCATION" in text:
        return 2
    return 1 if TECHNICAL.search(text) else 0


def _summary(step: Step, kinds: list[int]) -> str:
    """The step in a line; ``kinds``: its events' ``_kind``."""
    if step.index == 0:
        return step.events[0].text if step.events else "the game is opened"
    play = [(e.text, k) for e, k in zip(step.events, kinds, strict=True) if k != 1]
    if play:
        cheats = [t for t, k in play if k == 2]
        return (cheats or [play[0][0]])[0] + (f" (+{len(play) - 1})" if len(play) > 1 else "")
    return "cards shuffled and dealt" if step.events else "nothing happened"


def page_data(replay: Replay) -> dict:
    """Everything the page shows, as plain JSON-able data."""
    m = replay.match
    hook = view_hook(replay)
    inter = _Interner(replay.named)
    audited = replay.audited
    n = replay.n
    steps = []
    drawn: dict[tuple, int] = {}  # (view, its text's id) -> picture id (-1: the game draws none)
    for step in replay.steps:
        # the faces each view shows (Replay.known), found once a step for its text, picture, hook and cards
        kt = replay.known(step, None)
        ks = [replay.known(step, s) for s in range(n)]
        st = step.state
        raws = st.render_views([(None, kt), *zip(range(n), ks, strict=True),
                                *(zip(range(n), repeat(replay.all_faces)) if audited else ())])
        views: dict = {"t": inter.text(inter.table(raws[0])),
                       "s": [inter.text(inter.table(raw)) for raw in raws[1:n + 1]]}
        if audited:  # as Replay.render_all
            views["a"] = []
            for s, raw in enumerate(raws[n + 1:]):
                ids = inter.table(raw)
                rest = replay.holds(step, s, inter.named_text(raw))
                if rest:
                    ids += _ids(inter.lines, rest.split("\n"))
                views["a"].append(inter.text(ids))
        names = replay.names
        # A picture is drawn from the same state and faces as the view's text: where the text did not change
        # since an earlier step, neither did the picture, so it is drawn once (most steps only pass keys).
        pics = [("t", None, kt, views["t"]), *((f"s{s}", s, ks[s], views["s"][s]) for s in range(n)),
                *([("a", None, replay.all_faces, tuple(views["a"]))] if audited else [])]
        new = [(key, tid) for key, _, _, tid in pics if (key, tid) not in drawn]
        if new:
            wanted = set(new)
            svgs = st.picture_views([(seat, known) for key, seat, known, tid in pics if (key, tid) in wanted], names)
            for (key, tid), svg in zip(new, svgs, strict=True):
                drawn[(key, tid)] = inter.picture(svg) if svg else -1
        views["p"] = {}
        for key, _, _, tid in pics:
            if drawn[(key, tid)] >= 0:
                views["p"][key] = drawn[(key, tid)]
        if hook is not None:
            frags = {"t": hook(st, None, kt)}
            for s in range(n):
                frags[f"s{s}"] = hook(st, s, ks[s])
                if audited:
                    frags[f"a{s}"] = hook(st, s, replay.all_faces)
            views["h"] = {k: inter.frag(v) for k, v in frags.items() if v}
        mentioned = sorted({CardRef.parse(r) for e in step.events for r in REF.findall(e.text)})
        views["k"] = {}
        if mentioned:
            for key, known in [("t", kt), *((f"s{s}", ks[s]) for s in range(n)),
                               *([("a", replay.all_faces)] if audited else [])]:
                faces = {str(r): str(known[r]) for r in mentioned if r in known}
                if faces:
                    views["k"][key] = faces
        kinds = [_kind(e.text) for e in step.events]
        steps.append({
            "r": step.round, "p": step.partial, "o": step.over, "w": list(step.awaited),
            "f": list(step.files), "tm": step.time, "x": _summary(step, kinds),
            "e": [[e.seat, e.text, k] for e, k in zip(step.events, kinds, strict=True)],
            "v": views,
        })
    word, lines = replay.verdict()
    cheats = []
    if m.audit is not None:
        cheats = [{"seat": s, "rule": r, "message": m.named(t)} for s, r, t in m.audit.cheats]
    decks = [{"id": d, "cards": [str(c) if c is not None else "??" for c in cards]}
             for d, cards in replay.deck_orders().items()]
    return {
        "title": replay.title, "game": m.game.spec.id, "gid": m.gid, "names": replay.names,
        "audited": audited, "over": m.over(), "outcome": replay.outcome(),
        "verdict": {"word": word, "lines": lines, "cheats": cheats, "void": replay.set_aside()},
        "lines": list(inter.lines), "texts": list(inter.texts), "frags": list(inter.frags),
        "pieces": list(inter.pieces), "pictures": list(inter.pictures),
        "steps": steps, "decks": decks, "archive": "".join(f.armour() for f in replay.files),
    }


def _script_json(data: dict) -> str:
    """JSON safe inside a <script> element: no '<', '>' or '&' appears literally, nor any character outside ASCII
    (U+2028 and U+2029 among them). ASCII JSON is a few bytes longer and its three replacements run faster."""
    text = json.dumps(data, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_html(replay: Replay) -> str:
    """The whole page as one string (no network, no external assets)."""
    data = page_data(replay)
    names = " vs ".join(replay.names)
    title = f"{replay.title}: {names} ({replay.match.gid[:12]})"
    fills = {"TITLE": html.escape(title), "DATA": _script_json(data)}
    return re.sub(r"\{\{(TITLE|DATA)\}\}", lambda m: fills[m.group(1)], PAGE)  # one pass: fills are not rescanned


def write_html(replay: Replay, path: str | Path) -> Path:
    from duelmail.util.fs import atomic_write

    return atomic_write(Path(path), render_html(replay))
