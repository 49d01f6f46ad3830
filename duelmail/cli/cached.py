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
from pathlib import Path

from duelmail.errors import DuelmailError
from duelmail.home import Home
from duelmail.util.lines import third_person

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
    if isinstance(data, dict) and data.get("calls"):
        return None  # a last call is open: it may close by the clock alone, so the game is folded (protocol §6b)
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
    title = data["title"].replace(" (", ", ").removesuffix(")") if "(" in data["title"] else data["title"]
    out.append(f"game {data['game'][:12]} ({title}), round {data['round']}, you are {you}")  # no brackets in brackets
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
        what = a["what"] if who == "you" else third_person(a["what"], who)  # "alice attacks bob", said to carol
        out.append(f"awaiting {who}: {what}{due}")
    if data.get("now") and "machine" in data["now"]:  # a file that needs no decision: what it is for, in words
        out.append(f"now: {data['now']}")
    answered = data.get("answered", [])
    if answered:
        who = ", ".join("you" if s == seat else data["seats"][s] for s in answered)
        out.append(f"answered this round: {who} (the round closes when every awaited file is in)")
    for call in data.get("calls", []):  # the last call (protocol section 6b)
        by = "you" if call["by"] == seat else data["seats"][call["by"]]
        if call["against"] == seat:
            out.append(f"{by} claimed your timeout for round {call['round']}: a last call. Move, or answer that you "
                       "are here (any duelmail command that reads the claim does so), or you lose by the clock")
        else:
            them = data["seats"][call["against"]]
            out.append(f"{by} claimed {them}'s timeout for round {call['round']}: a last call; {them} keeps the seat "
                       f"if {them}'s move, or a word that {them} is here, comes in time")
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
    for u in data.get("unsent", []):
        if u.get("by") == "git":
            out.append(f"not pushed yet: {u['file']} ({u['error']}); the next 'duelmail git sync' (or 'watch', "
                       "'play --push') pushes it")
            continue
        why = u["error"] or "not tried yet (the command that signed it ended first)"
        out.append(f"not sent yet: {u['file']} ({why}); the next 'duelmail play', 'receive', 'mail fetch', "
                   "'watch' or 'git sync' tries again ('duelmail mail send' now)")
    held = data.get("held")
    if held:
        out.append(f"held aside: {held['files']} file{'s' if held['files'] != 1 else ''} ({_size(held['bytes'])}) "
                   "that came before the files they follow, applied once those arrive")
    kept = data.get("strangers")
    if kept:
        out += strangers_lines((kept["items"], kept["bytes"]))
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
    unsent = sum(len(d.get("unsent", [])) for d in rows)  # (a finished game's last answer too)
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
    if unsent:
        out.append(f"and {unsent} file{'s' if unsent != 1 else ''} signed here not sent yet ('duelmail status GAME' "
                   "says why; the next command that reaches the network tries again)")
    out += strangers_lines(strangers_usage(home.root))
    return out


def strangers_lines(usage: tuple[int, int]) -> list[str]:
    """What ``status`` says of what strangers sent (``strangers_usage``): nothing when there is none."""
    items, size = usage
    if not items:
        return []
    return [f"this home holds {items} thing{'s' if items != 1 else ''} ({_size(size)}) that nobody you play with "
            "sent (invitations not joined, files of games it does not hold): at most 16 MiB and 64 things, the "
            "oldest dropped first"]


def by_reply(folder) -> dict:
    """``{"by_reply": True}`` for a game played by reply (its folder's ``.by-reply`` mark,
    ``duelmail.delivery.replies``)."""
    return {"by_reply": True} if (folder.path / ".by-reply").exists() else {}


def _size(n: int) -> str:
    return f"{n} bytes" if n < 1024 else f"{n / 1024:.0f} KiB" if n < 1 << 20 else f"{n / (1 << 20):.1f} MiB"


def _git_repos(root) -> bool:
    """Whether the home at ``root`` keeps games in git repositories (its config names some; no TOML read)."""
    try:
        return "repos" in (Path(root) / "config.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def kept_here(folder, alone: bool = True) -> dict:
    """What this home keeps of a game beside its log, for ``status``: the files it signed and has not mailed yet
    (``transport/outbox.py``: each with the transport's last error) and the early files it holds aside
    (``transport/held.py``: how many, how many bytes); ``alone`` (the status of one game), with what the home holds
    that strangers sent (``status --all`` says that once, ``all_games_lines``)."""
    out: dict = {}
    try:
        box = json.loads((folder.path / ".outbox").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        box = []
    unsent = [{"file": e["file"], "error": str(e.get("error") or "")} for e in box if isinstance(box, list)
              and isinstance(e, dict) and isinstance(e.get("file"), str)]
    if folder.home is not None and _git_repos(folder.home):  # a game kept in git: this seat's files its remote lacks
        from duelmail.delivery.git import unpushed

        unsent += unpushed(Home(folder.home), folder)
    if unsent:
        out["unsent"] = unsent
    try:
        held = [e for e in os.scandir(folder.path / ".held") if e.name.endswith(".toml") and e.is_file()]
    except OSError:
        held = []
    if held:
        out["held"] = {"files": len(held), "bytes": sum(e.stat().st_size for e in held)}
    items, size = strangers_usage(folder.path.parent.parent) if alone else (0, 0)
    if items:
        out["strangers"] = {"items": items, "bytes": size}
    return out


def strangers_usage(root) -> tuple[int, int]:
    """How many things nobody this home plays with sent it holds (``transport/strangers.py``: invitations not
    joined, files of games it does not hold), and their bytes; read without loading that module."""
    items = size = 0
    try:
        for e in os.scandir(os.path.join(root, "strangers")):
            if e.name.endswith(".toml") and e.is_file():
                items, size = items + 1, size + e.stat().st_size
    except OSError:
        pass
    try:
        games = [e.path for e in os.scandir(os.path.join(root, "games")) if e.is_dir()]
    except OSError:
        games = []
    for g in games:
        if os.path.exists(os.path.join(g, ".stranger")):
            items += 1
            for base, _, files in os.walk(g):
                size += sum(os.lstat(os.path.join(base, n)).st_size for n in files)
    return items, size


def settle_rows(index, games: list[tuple]) -> None:
    """File the finished games among ``games`` (folder, its status data) in the home's index: over, nothing
    awaited, no cheat found (``transport/settled.py``)."""
    index.settle([(f.path, {"game": d["game"], "kind": d["kind"], "result": d["result"]}) for f, d in games
                  if d["over"] and not d["awaited"] and not d.get("cheats")])


def _cached_row(home: Home, folder, alone: bool = True) -> dict | None:
    """``status``'s data of one game from its fresh cache, with the home's cheats; None if the cache is stale."""
    data = _cached_status(folder, home.me(folder).get("seat"))
    if data is None:
        return None
    return {**data, "cheats": folder.cheats(), "late": folder.unclaimed_late(), **by_reply(folder),
            **kept_here(folder, alone)}


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
        rows = [_cached_row(home, f, alone=False) for f in folders]
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
