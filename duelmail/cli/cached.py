"""What ``status`` and ``show`` answer from their caches, without click: their keys, reading them, the status
text, and ``answer``, which the ``duelmail`` command tries before it loads click (about 30 ms of imports, most of
a cached answer's cost).

``.status.json`` and ``.show.json`` are caches, never state: keyed by what their text depends on, written by the
commands that change a game (``common._store_views``) or by a ``status``/``show`` that folded; delete them and
nothing is lost.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime, timedelta

from duelmail.errors import DuelmailError
from duelmail.home import Home

SHOW_CACHE = ".show.json"


def _status_key(folder, seat) -> str:
    return f"{folder.listing_key()}|{seat}|3"


def _cached_status(folder, seat, key: str | None = None) -> dict | None:
    """The status cache: only a cache, keyed by the game's file listing; deleting it loses nothing."""
    p = folder.path / ".status.json"
    try:
        cached = json.loads(p.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(cached, dict) or cached.get("key") != (key or _status_key(folder, seat)):
        return None
    data = cached.get("data")
    return data if _usable(data) else None


def _usable(data) -> bool:
    """Whether cached status data is as ``status`` wrote it (a cache changed by hand is no cache: folded again)."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or not isinstance(data.get("over"), bool):
        return False
    try:
        status_lines({**data, "cheats": []}, datetime.now(UTC))
    except (LookupError, TypeError, ValueError, AttributeError):
        return False
    return True


def _show_key(home: Home, folder) -> str:
    """What the text of a plain ``show`` depends on: the game's files and seat (the status cache's key), this
    home's identities and default (their files' sizes and times), the moves noted for the turn, and the code."""
    from duelmail.util.fs import listing
    from duelmail.util.stamp import code_check

    ids = listing(home.id_dir)
    config = listing(home.root).get("config.toml")
    try:
        pending = (folder.path / ".pending.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        pending = ""
    identities = ";".join(f"{n}:{st[0]}:{st[1]}" for n, st in sorted(ids.items()) if n.endswith(".toml"))
    return (f"{_status_key(folder, home.me(folder).get('seat'))}|{identities}|{config and config[:2]}|"
            f"{json.dumps(pending)}|{code_check()}|show 1")


def _cached_show(folder, key: str) -> str | None:
    """The text a plain ``show`` printed last, if nothing it depends on has changed since (``_show_key``): only a
    cache, like the status cache; deleting it loses nothing."""
    try:
        cached = json.loads((folder.path / SHOW_CACHE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    text = cached.get("text") if isinstance(cached, dict) and cached.get("key") == key else None
    return text if isinstance(text, str) else None


def _left(due: datetime, at: datetime) -> str:
    secs = int((due - at).total_seconds())
    sign, secs = ("", secs) if secs >= 0 else ("overdue by ", -secs)
    d, rem = divmod(secs, 86400)
    h, rem = divmod(rem, 3600)
    m = rem // 60
    text = f"{d}d {h}h" if d else f"{h}h {m}m" if h else f"{m}m {rem % 60}s" if m else f"{rem % 60}s"
    return f"{sign}{text}" + ("" if sign else " left")


def status_lines(data: dict, t: datetime) -> list[str]:
    """What ``status`` says of one game at ``t``, a line each, from its data (``common._status_data``, plus the
    home's ``cheats``)."""
    out = []
    seat = data["you"]
    you = data["seats"][seat] if seat is not None else "a spectator"
    out.append(f"game {data['game'][:12]} ({data['title']}), round {data['round']}, you are {you}")
    if data["result"]:
        out.append(f"game over: {data['result']}")
    if data["last"]:
        out.append("lately:" + "".join(f"\n  {line}" for line in data["last"]))
    for s, a in data["awaited"].items():
        who = "you" if int(s) == seat else data["seats"][int(s)]
        due = ""
        if a["deadline"]:
            left = datetime.fromisoformat(a["deadline"]) - t
            soon = timedelta(hours=data["reminder_hours"])
            if data.get("opened"):  # never at the start of a short window (a 24-hour answer, a 24-hour reminder)
                soon = min(soon, (datetime.fromisoformat(a["deadline"]) - datetime.fromisoformat(data["opened"])) / 2)
            remind = " (reminder: due soon)" if timedelta(0) <= left <= soon else ""
            stands = datetime.fromisoformat(a.get("claim_from") or a["deadline"])
            late = "" if left >= timedelta(0) or int(s) == seat else \
                " - a timeout can be claimed ('duelmail claim')" if t > stands else \
                f" - a timeout claim stands from {stands.isoformat()} (a file sent in time may still be on its way)"
            due = f"; due {a['deadline']}, {_left(datetime.fromisoformat(a['deadline']), t)}{remind}{late}"
        out.append(f"awaiting {who}: {a['what']}{due}")
    if data.get("now") and "machine" in data["now"]:  # a file that needs no decision: what it is for, in words
        out.append(f"now: {data['now']}")
    answered = data.get("answered", [])
    if answered:
        who = ", ".join("you" if s == seat else data["seats"][s] for s in answered)
        out.append(f"answered this round: {who} (the round closes when every awaited file is in)")
    offer = data.get("draw_offer")
    if offer:
        by = "you" if offer["by"] == seat else data["seats"][offer["by"]]
        yes = ", ".join(data["seats"][s] for s in offer["accepted"]) or "nobody yet"
        answer = "" if offer["by"] == seat or seat in offer["accepted"] else \
            " ('duelmail draw accept' or 'duelmail draw decline')"
        out.append(f"draw offered by {by}; accepted by {yes}{answer}")
    if data.get("by_reply") and not data["result"]:
        out.append("played by reply: your 'duelmail watch' mails you your moves; answer the mail")
    if data["audited"]:
        out.append("audit: " + ("passed" if data["audit_ok"] else "CHEATING FOUND"))
    for rnd, s in data.get("late", []):
        if s != seat:
            name = data["seats"][s]
            out.append(f"{name}'s file of round {rnd} came later than the time it carries allows: "
                       f"'duelmail claim' claims {name}'s timeout for it")
    for line in data["cheats"]:
        out.append(f"CHEAT: {line}")
    if data["cheats"]:
        out.append("this game cannot go on as it is: the seats hold different histories (docs/protocol.md, section 5)")
    return out


def all_games_lines(rows: list[dict], broken: list[tuple[str, str]], t: datetime, home: Home,
                    as_json: bool = False, finished: list[dict] | None = None, settled: int = 0) -> list[str]:
    """What ``status --all`` says at ``t``: every game in play a line, the soonest deadline first (``rows`` are
    sorted here), the games that cannot be read, how many are finished and how many archived; with ``as_json``,
    one JSON text. ``settled``: how many finished games the home's index holds (not in ``rows``); ``finished``:
    their lines, to list the finished games too (``--finished``)."""
    rows.sort(key=lambda d: min((a["deadline"] for a in d["awaited"].values() if a["deadline"]), default="9999"))
    over = [d for d in rows if d["over"]]
    if finished is None:
        rows = [d for d in rows if not d["over"]]
    else:
        rows = rows + [{**r, "over": True} for r in sorted(finished, key=lambda r: r["folder"])]
    if as_json:
        return [json.dumps(rows + [{"folder": n, "error": e} for n, e in broken], indent=2)]
    out = [f"{name}: cannot be read: {error}" for name, error in broken]
    for d in rows:
        if d["over"]:
            out.append(f"{d['game'][:12]} {d['kind']:<9} over: {d['result']}")
            continue
        soon = min(((a["deadline"], n) for n, a in d["awaited"].items() if a["deadline"]), default=None)
        who = ", ".join("you" if int(s) == d["you"] else d["seats"][int(s)] for s in d["awaited"])
        when = f", due {soon[0]} ({_left(datetime.fromisoformat(soon[0]), t)})" if soon else ""
        against = " and ".join(n for s, n in enumerate(d["seats"]) if s != d["you"])
        out.append(f"{d['game'][:12]} {d['title']}" + (f" against {against}" if against else "")
                   + f", round {d['round']}: awaiting {who}{when}"
                   + (" (by reply)" if d.get("by_reply") else ""))
    done = settled + len(over)
    if not rows and not broken:
        out.append("no games in play")
    if done and finished is None:
        out.append(f"and {done} finished game{'s' if done != 1 else ''} ('duelmail status --all --finished' "
                   "lists them)")
    filed = len(list(home.archive_dir.iterdir())) if home.archive_dir.is_dir() else 0
    if filed:
        out.append(f"and {filed} archived game{'s' if filed != 1 else ''} in {home.archive_dir}")
    return out


def by_reply(folder) -> dict:
    """``{"by_reply": True}`` for a game played by reply (its folder's ``.by-reply`` mark,
    ``duelmail.delivery.replies``)."""
    return {"by_reply": True} if (folder.path / ".by-reply").exists() else {}


def settle_rows(index, games: list[tuple]) -> None:
    """File the finished games among ``games`` (folder, its status data) in the home's index: over, nothing
    awaited, no cheat found (``transport/settled.py``)."""
    index.settle([(f.path, {"game": d["game"], "kind": d["kind"], "result": d["result"]}) for f, d in games
                  if d["over"] and not d["awaited"] and not d.get("cheats")])


def _cached_row(home: Home, folder) -> dict | None:
    """``status``'s data of one game from its fresh cache, with the home's cheats; None if the cache is stale."""
    data = _cached_status(folder, home.me(folder).get("seat"))
    if data is None:
        return None
    return {**data, "cheats": folder.cheats(), "late": folder.unclaimed_late(), **by_reply(folder)}


def _status_text(home: Home, args: list[str]) -> str | None:
    """``status [GAME] [--json] [--all [--finished]]`` from the caches, or None if any game it names must be folded."""
    flags = {a for a in args if a.startswith("-")}
    names = [a for a in args if not a.startswith("-")]
    if flags - {"--json", "--all", "--finished"} or len(names) > (0 if "--all" in flags else 1):
        return None
    if "--finished" in flags and "--all" not in flags:
        return None
    t = datetime.now(UTC)
    if "--all" in flags:
        index = home.index()
        folders = home.live_folders(index)
        rows = [_cached_row(home, f) for f in folders]
        if not (folders or index.finished) or None in rows:
            return None
        finished, settled = (list(index.rows().values()) if "--finished" in flags else None), index.finished
        settle_rows(index, list(zip(folders, rows, strict=True)))
        lines = all_games_lines(rows, [], t, home, "--json" in flags, finished, settled)
    else:
        row = _cached_row(home, home.find(names[0] if names else None))
        if row is None:
            return None
        lines = [json.dumps(row, indent=2)] if "--json" in flags else status_lines(row, t)
    return "".join(f"{line}\n" for line in lines)


def _game_positional(args: list[str]) -> list[str]:
    """``-g GAME``, ``--game GAME`` and ``--game=GAME`` as the positional ``GAME`` they mean (anything odd: as is)."""
    out: list[str] = []
    rest = iter(args)
    for a in rest:
        if a in ("-g", "--game"):
            out.append(next(rest, "-"))  # no name after it: left to the click command, which says so
        elif a.startswith("--game="):
            out.append(a.partition("=")[2] or "-")
        else:
            out.append(a)
    return out


def answer(args: list[str], environ=os.environ, out=None) -> bool:
    """Answer ``duelmail status [GAME] [--json] [--all]`` or ``duelmail show [GAME]`` from the fresh caches, as the
    click command would print it; False (nothing printed, nothing written) for anything else, a cache that does not
    answer, or any error, which the click command then says."""
    if not args or args[0] not in ("status", "show") or environ.get("DUELMAIL_AS"):
        return False  # another command, or another identity than the default (never cached): the click command
    args = _game_positional(args)
    try:
        home = Home(environ.get("DUELMAIL_HOME") or None)
        if args[0] == "status":
            text = _status_text(home, args[1:])
        elif len(args) > 2 or any(a.startswith("-") for a in args[1:]):
            return False  # show's options (--svg, --html, --help): the click command
        else:
            folder = home.find(args[1] if len(args) == 2 else None)
            text = _cached_show(folder, _show_key(home, folder))
        if text is None:
            return False
    except (DuelmailError, OSError, ValueError, LookupError, TypeError):  # no such game, a cache not as written
        return False  # the click command says what is wrong, or answers by folding
    (out or sys.stdout).write(text)
    (out or sys.stdout).flush()
    return True
