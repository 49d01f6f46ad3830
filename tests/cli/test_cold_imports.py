"""A cold command loads only what it needs (issue 18): each runs in a new Python process, which reports the
modules it imported when it exits. Behaviour, not timing: what ``status`` and ``show`` say is checked beside
what they load.

- ``status`` answered from its cache (``.status.json``, fresh) loads neither the engine, nor any game, nor the
  crypto: only the command line, the home and the cache.
- ``status`` and ``show`` without the cache fold from the kept state: they load the engine and the game played,
  but not the other games, the audit or the proofs (a game in progress), the pictures (no ``--svg``/``--html``),
  tomlkit (nothing is written as TOML), the ``cryptography`` package (no passphrase to open), nor the mail, git,
  watch or replay code.
- ``show``, ``history`` and ``moves`` leave the status cache fresh, so the ``status`` after them loads nothing
  of the engine.
- ``show`` answered from its cache (``.show.json``) loads no more than ``status`` from its own.
- The installed ``duelmail`` answers those two, and runs a plain ``receive FILE...``, without loading click.
- Neither cache loads a TOML parser, ``hashlib`` (OpenSSL), ``pickle``, PyNaCl or ``dataclasses``; no command loads
  ``tempfile`` (nor its ``shutil``, ``random``, ``bz2``, ``lzma``) to write a file, and ``status`` or ``show``
  without the cache load no ``random`` or ``shutil`` at all.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clitable import Table, dm, snapshot

from duelmail.home import Home

REPORT = ("import atexit, json, sys\n"
          "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)) + '\\n'))\n"
          "from duelmail.cli import main\n"
          "main()\n")
INSTALLED = REPORT.replace("import main\nmain()", "import run\nsys.exit(run())")  # the 'duelmail' command

FROM_A_CACHE_NEVER = ("duelmail.engine", "duelmail.games", "duelmail.crypto", "duelmail.protocol", "duelmail.app",
                      "duelmail.transport.kept", "duelmail.util.toml", "nacl", "tomllib", "hashlib", "_hashlib",
                      "pickle", "dataclasses", "tempfile", "shutil", "random")
WRITING_NEVER = ("tempfile", "shutil", "bz2", "lzma")
OTHER_GAMES = ("duelmail.games.skirmish", "duelmail.games.wizard", "duelmail.games.grid", "duelmail.games.summoner")
NEVER_HERE = ("tomlkit", "cryptography", "duelmail.pictures", "duelmail.games.svg", "duelmail.games.warlords.picture",
              "duelmail.engine.audit", "duelmail.crypto.proofs", "duelmail.crypto.escrow", "duelmail.replay",
              "duelmail.watch", "duelmail.delivery", "duelmail.transport.mail", "duelmail.transport.git",
              "duelmail.cli.mail",
              "duelmail.cli.git", "duelmail.cli.watch", "duelmail.cli.replay", "duelmail.cli.identities",
              "duelmail.cli.talk", "duelmail.games.warlords.bots", *OTHER_GAMES)


def cold(home: Path, *args: str, launch: str = REPORT, code: int = 0, **env: str) -> tuple[str, set[str]]:
    """``duelmail ARGS`` in a new process (the click group, or ``launch``): its output and the modules it had
    imported when it exited."""
    env = dict(os.environ, DUELMAIL_HOME=str(home), **env)
    p = subprocess.run([sys.executable, "-c", launch, *args], env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == code, p.stdout + p.stderr
    line = next(x for x in p.stderr.splitlines() if x.startswith("MODULES "))
    return p.stdout, set(json.loads(line.removeprefix("MODULES ")))


def loaded(modules: set[str], names) -> list[str]:
    """Which of ``names`` (or modules under them) were imported."""
    return sorted(m for m in modules for n in names if m == n or m.startswith(n + "."))


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    t = Table(tmp_path_factory.mktemp("cold"))
    t.play_turns(4)
    (folder,) = (t.alice / "games").iterdir()
    return t, folder


def test_status_from_its_cache_loads_no_engine_game_or_crypto(game):
    t, folder = game
    dm(t.alice, "status")  # the cache is fresh after it
    out, modules = cold(t.alice, "status")
    assert f"game {folder.name.split('-')[-1][:12]}" in out or "game " in out.splitlines()[0]
    assert "you are alice" in out.splitlines()[0]
    assert loaded(modules, (*FROM_A_CACHE_NEVER, *NEVER_HERE)) == []


def test_show_from_its_cache_loads_no_engine_game_or_crypto(game):
    t, folder = game
    first, _ = cold(t.alice, "show")  # folds, and keeps its text
    out, modules = cold(t.alice, "show")
    assert out == first and "Hand:" in out
    assert loaded(modules, (*FROM_A_CACHE_NEVER, *NEVER_HERE)) == []


def test_status_without_its_cache_folds_but_loads_only_its_game(game):
    t, folder = game
    (folder / ".status.json").unlink(missing_ok=True)
    out, modules = cold(t.alice, "status")
    assert "you are alice" in out.splitlines()[0]
    assert {"duelmail.engine.match", "duelmail.games.warlords.rules"} <= modules  # it did fold (kept state)
    assert loaded(modules, (*NEVER_HERE, *WRITING_NEVER, "random")) == []
    assert (folder / ".status.json").exists()


@pytest.mark.parametrize("command", ["show", "history", "moves"])
def test_show_history_moves_load_no_pictures_audit_or_tomlkit_and_refresh_the_status_cache(game, command):
    t, folder = game
    (folder / ".status.json").unlink(missing_ok=True)
    (folder / ".show.json").unlink(missing_ok=True)
    out, modules = cold(t.alice, command)
    assert out.strip()
    assert loaded(modules, (*NEVER_HERE, *WRITING_NEVER, "random")) == []
    _, after = cold(t.alice, "status")  # answered from the cache the command left
    assert loaded(after, ("duelmail.engine", "duelmail.games", "nacl")) == []


def test_show_with_a_picture_loads_the_pictures(game, tmp_path):
    t, _ = game
    out, modules = cold(t.alice, "show", "--svg", str(tmp_path / "table.svg"), "--no-open")
    assert (tmp_path / "table.svg").read_text().startswith("<svg")
    assert {"duelmail.games.svg", "duelmail.games.warlords.picture"} <= modules


def test_play_and_receive_write_turn_files_without_tomlkit_or_the_cryptography_package(game):
    """A turn written (``play``) and one received, stored with its header (``receive``, answering by itself):
    plain files, written without tomlkit; no passphrase, so no ``cryptography``; a game in progress, no audit."""
    t, _ = game
    st = t.status(t.alice)
    assert not st["over"]
    seat = t.todo(st)[0]
    player = t.home(seat)
    before = set(t.out.iterdir())
    out, modules = cold(player, "play", "--bot", "heuristic", "--seed", "5", "--out", str(t.out))
    assert "wrote" in out
    assert loaded(modules, ("tomlkit", "cryptography", "duelmail.engine.audit", "duelmail.pictures",
                            "duelmail.games.svg", *OTHER_GAMES, *WRITING_NEVER)) == []
    (sent,) = sorted(set(t.out.iterdir()) - before)
    out, modules = cold(t.other(player), "receive", str(sent), "--out", str(t.out))
    assert "verified and applied" in out
    assert loaded(modules, (*NEVER_HERE, *WRITING_NEVER)) == []


def test_the_installed_command_answers_status_and_show_from_their_caches_without_click(game, tmp_path):
    """``duelmail`` (``cli.run``) prints what the click command prints, from the caches, without loading click;
    with an option, another identity, a game it cannot find or a stale cache, the click command answers."""
    t, folder = game
    name = folder.name.split("-")[-1][:6]
    dm(t.alice, "status", "--all")  # every game's cache fresh
    for args in (["status"], ["show"], ["status", name], ["show", name], ["status", "--json"],
                 ["status", "--all"], ["status", "--all", "--json"], ["status", name, "--json"]):
        click_said, _ = cold(t.alice, *args)
        said, modules = cold(t.alice, *args, launch=INSTALLED)
        assert said == click_said and said.strip()
        assert loaded(modules, ("click", *FROM_A_CACHE_NEVER, *NEVER_HERE)) == []
    svg = str(tmp_path / "table.svg")
    for args, env in ((["show", "--svg", svg, "--no-open"], {}), (["show"], {"DUELMAIL_AS": "alice"}),
                      (["status", "-h"], {})):
        said, modules = cold(t.alice, *args, launch=INSTALLED, **env)
        assert "click" in modules and said == cold(t.alice, *args, **env)[0]
    said, modules = cold(t.alice, "status", "nosuchgame", launch=INSTALLED, code=1)
    assert "click" in modules
    (folder / ".show.json").write_text('{"key": "stale", "text": "not this"}')
    said, modules = cold(t.alice, "show", launch=INSTALLED)
    assert "not this" not in said and "Hand:" in said and "click" in modules  # folded, and kept again
    assert cold(t.alice, "show", launch=INSTALLED)[0] == said


def test_a_cache_not_as_written_is_left_to_the_click_command(game):
    """A status cache whose data was changed by hand (a key missing, a wrong type) is no answer: the click command
    folds, prints the status and writes the cache again."""
    t, folder = game
    dm(t.alice, "status")
    good = (folder / ".status.json").read_text()
    cached = json.loads(good)
    for broken in ({**cached, "data": {**cached["data"], "seats": None}}, {**cached, "data": {"you": 0}}):
        (folder / ".status.json").write_text(json.dumps(broken))
        said, modules = cold(t.alice, "status", launch=INSTALLED)
        assert "click" in modules and "you are alice" in said
        assert json.loads((folder / ".status.json").read_text())["data"] == cached["data"]


def test_the_installed_command_receives_without_click(tmp_path):
    """``duelmail receive [--auto|--no-auto] FILE...`` (``plain.receive_plain``) says and writes what the click
    command does, without loading click; a refused file gets the click command's one line and exit status and
    changes nothing; other options, a missing file or ``--help`` go to the click command."""
    t = Table(tmp_path / "t")
    t.play_turns(2)
    st = t.status(t.alice)
    player = t.home(t.todo(st)[0])
    t.turn(player, "--bot", "heuristic", "--seed", "3")
    receiver = t.other(player)
    files = [str(f) for f in t.inbox[receiver]]
    homes = {}
    for name in ("click", "installed"):
        homes[name] = tmp_path / name
        shutil.copytree(receiver, homes[name])
    click_said, _ = cold(homes["click"], "receive", "--no-auto", *files)
    said, modules = cold(homes["installed"], "receive", "--no-auto", *files, launch=INSTALLED)
    assert said == click_said and "verified and applied" in said
    assert "click" not in modules
    assert snapshot(homes["installed"]) == snapshot(homes["click"])
    again, modules = cold(homes["installed"], "receive", *files, launch=INSTALLED)
    assert "already applied (nothing changed)" in again and "click" not in modules

    bad = tmp_path / Path(files[-1]).name
    bad.write_text(Path(files[-1]).read_text().replace('round = ', 'round = 1', 1))
    fresh = tmp_path / "fresh"
    shutil.copytree(receiver, fresh)
    before = snapshot(fresh)
    for launch in (REPORT, INSTALLED):
        p = subprocess.run([sys.executable, "-c", launch, "receive", str(bad)], capture_output=True, text=True,
                           env=dict(os.environ, DUELMAIL_HOME=str(fresh)), timeout=120)
        lines = [x for x in p.stderr.splitlines() if x and not x.startswith("MODULES ")]
        assert p.returncode == 1 and len(lines) == 1 and lines[0].startswith("Error: ") and bad.name in lines[0]
        assert ("click" in p.stderr) == (launch == REPORT) and "Traceback" not in p.stderr
        assert snapshot(fresh) == before
    for args, code in ((["receive", str(tmp_path / "nowhere.toml")], 2), (["receive", "--help"], 0),
                       (["receive", "--out", str(tmp_path / "o"), "--no-auto", *files], 0)):
        _, modules = cold(fresh, *args, launch=INSTALLED, code=code)
        assert "click" in modules
    sealed = tmp_path / "sealed"  # an identity that may ask for its passphrase on a terminal: click's prompt
    shutil.copytree(receiver, sealed)
    home = Home(sealed)
    home.add_identity(home.load_identity(None), "correct horse battery", replace=True)
    said, modules = cold(sealed, "receive", "--no-auto", *files, launch=INSTALLED,
                         DUELMAIL_PASSPHRASE="correct horse battery")
    assert said == click_said and "click" in modules
