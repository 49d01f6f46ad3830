"""A player's home: identities and games on this machine.

Layout::

    HOME/config.toml                default identity
    HOME/identities/NAME.toml       secret identity files (mode 0600)
    HOME/games/KIND-GAMEID/         one folder per game: genesis.toml, r0001-s1.toml, ...
    HOME/games/KIND-GAMEID/.me.toml which identity plays which seat here; .pending.toml: moves
                                    entered but not yet sent
    HOME/archive/KIND-GAMEID/       finished games filed away ('duelmail archive GAME')

The default home is ``$DUELMAIL_HOME``, else ``$XDG_DATA_HOME/duelmail``, else
``~/.local/share/duelmail``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from duelmail.errors import GameNotFound, IdentityError, LocalFileError
from duelmail.transport.folder import GameFolder
from duelmail.util.fs import atomic_write, forget, read_text

if TYPE_CHECKING:
    from duelmail.protocol.identity import Identity


def default_home() -> Path:
    if os.environ.get("DUELMAIL_HOME"):
        return Path(os.environ["DUELMAIL_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "duelmail"


class Home:
    def __init__(self, root: Path | str | None = None):
        self.root = Path(root) if root else default_home()

    # -- identities ------------------------------------------------------------------
    @property
    def id_dir(self) -> Path:
        return self.root / "identities"

    def identity_names(self) -> list[str]:
        return sorted(p.stem for p in self.id_dir.glob("*.toml")) if self.id_dir.is_dir() else []

    def _config(self) -> dict:
        p = self.root / "config.toml"
        if not p.exists():
            return {}
        from duelmail.util import toml

        cfg = toml.read(p, LocalFileError, "TOML config file")
        if not isinstance(cfg.get("default", ""), str):
            raise LocalFileError(f"{p}: 'default' must be the name of an identity, not {cfg['default']!r}"[:200])
        return cfg

    def set_default(self, name: str) -> None:
        cfg = self._config()
        cfg["default"] = name
        import tomlkit

        atomic_write(self.root / "config.toml", tomlkit.dumps(cfg))

    def add_identity(self, identity: Identity, passphrase: str | None = None, replace: bool = False) -> Path:
        from duelmail.protocol.identity import NAME_RE, save_identity

        if not NAME_RE.fullmatch(identity.name):
            raise IdentityError(f"bad identity name {identity.name!r}")
        path = self.id_dir / f"{identity.name}.toml"
        if path.exists() and not replace:
            raise IdentityError(f"identity {identity.name!r} already exists in {self.root}")
        self.id_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.id_dir, 0o700)
        save_identity(path, identity, passphrase)
        if not self._config().get("default"):
            self.set_default(identity.name)
        return path

    def identity_path(self, name: str | None) -> Path:
        names = self.identity_names()
        if not names:
            raise IdentityError(f"no identity in {self.root}: create one with 'duelmail id new NAME --email ADDR'")
        if name is None:
            name = self._config().get("default")
            if name not in names:
                if len(names) > 1:
                    raise IdentityError(f"several identities here ({', '.join(names)}): choose one with --as")
                name = names[0]
        if name not in names:
            raise IdentityError(f"no identity {name!r} in {self.root} (have: {', '.join(names)})")
        return self.id_dir / f"{name}.toml"

    def load_identity(self, name: str | None, passphrase: Callable[[], str | None] = lambda: None) -> Identity:
        from duelmail.protocol.identity import Identity

        path = self.identity_path(name)
        text = read_text(path, "identity file")
        secret = passphrase() if Identity.is_encrypted(text) else None
        return Identity.from_toml(text, str(path), secret)

    # -- games ---------------------------------------------------------------------------
    @property
    def games_dir(self) -> Path:
        return self.root / "games"

    def game_folders(self) -> list[GameFolder]:
        if not self.games_dir.is_dir():
            return []
        return [GameFolder(p, self.root) for p in sorted(self.games_dir.iterdir())
                if p.is_dir() and (p / "genesis.toml").exists()]

    def index(self):
        """Which games are in play and which are settled (``transport/settled.py``)."""
        from duelmail.transport.settled import GameIndex

        return GameIndex(self.root)

    def live_folders(self, index=None) -> list[GameFolder]:
        """The games in play: every game but the settled ones, found without reading a settled game's folder."""
        index = index or self.index()
        return [GameFolder(self.games_dir / name, self.root) for name in index.live]

    def folder_of(self, game_id: str) -> GameFolder | None:
        """The folder of game ``game_id`` (or its first 12 characters), found by name: one ``stat`` per kind of game."""
        from duelmail.games.base import game_names

        for kind in game_names():
            path = self.games_dir / f"{kind}-{game_id[:12]}"
            if (path / "genesis.toml").exists():
                return GameFolder(path, self.root)
        return None

    def folder_for(self, kind: str, game_id: str) -> GameFolder:
        return GameFolder(self.games_dir / f"{kind}-{game_id[:12]}", self.root)

    @property
    def archive_dir(self) -> Path:
        return self.root / "archive"

    def find(self, query: str | None) -> GameFolder:
        """The game every command means: ``query`` is a game id or any part of its folder name (``3537``,
        ``warlords-3537``); with none, the only game, or else the only one still in play (finished games step
        aside)."""
        if query is None:  # the settled games step aside unread (``transport/settled.py``)
            index = self.index()
            folders = self.live_folders(index)
            if len(folders) == 1 and not index.finished:
                return folders[0]
            live = [f for f in folders if not f.is_over()]
            if len(live) == 1:
                return live[0]
            folders = live or self.game_folders()
            if not folders:
                raise GameNotFound(f"no games in {self.root}: start one with 'duelmail new' or 'duelmail join FILE'")
            if len(folders) == 1:
                return folders[0]
            names = ", ".join(f.path.name for f in folders)
            raise GameNotFound(f"{len(live)} games in play here; name one ({names})" if live else
                               f"{len(folders)} finished games here and none in play; name one ({names})")
        whole = GameFolder(self.games_dir / query, self.root)
        hits = [whole] if "/" not in query and whole.genesis_path.exists() else self.matching(query)  # a whole name
        folders = hits or self.game_folders()
        if not folders:
            raise GameNotFound(f"no games in {self.root}: start one with 'duelmail new' or 'duelmail join FILE'")
        if len(hits) != 1:
            names = ", ".join(f.path.name for f in (hits or folders))
            raise GameNotFound(f"{'no' if not hits else 'more than one'} game matches {query!r} ({names})")
        return hits[0]

    def matching(self, query: str) -> list[GameFolder]:
        """Games whose folder name holds ``query`` or whose id starts with it."""
        q = query.lower()
        names = sorted(os.listdir(self.games_dir)) if self.games_dir.is_dir() else []
        hits = [GameFolder(self.games_dir / n, self.root) for n in names
                if q in n or n.split("-", 1)[-1].startswith(q)]  # named first: a stat only for the names that match
        return [f for f in hits if f.genesis_path.exists()]

    def archive(self, folder: GameFolder) -> Path:
        """File a game away in ``HOME/archive/``: no command picks it any more; its files stay as they are."""
        self.archive_dir.mkdir(parents=True, exist_ok=True)
        target = self.archive_dir / folder.path.name
        if target.exists():
            raise GameNotFound(f"{target} already exists: the game was archived before")
        folder.path.rename(target)
        forget(folder.path)
        return target

    def me(self, folder: GameFolder) -> dict:
        """Which identity plays which seat in ``folder`` (empty if this home only watches)."""
        p = folder.path / ".me.toml"
        if not p.exists():
            return {}
        try:
            me = _plain_memo(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            me = None
        if me is None:  # not as ``set_me`` writes it: the TOML reader says what is wrong, if anything
            from duelmail.util import toml

            me = toml.read(p, LocalFileError, "TOML memo")
        seat, ident = me.get("seat", 0), me.get("identity", "")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0 or not isinstance(ident, str):
            raise LocalFileError(f"{p}: expected identity = NAME and seat = a seat number, not "
                                 f"identity = {ident!r}, seat = {seat!r} (delete it: 'duelmail status' "
                                 "finds your seat from your key)"[:300])
        return me

    def set_me(self, folder: GameFolder, identity: str, seat: int) -> None:
        import tomlkit

        atomic_write(folder.path / ".me.toml", tomlkit.dumps({"identity": identity, "seat": seat}))


def _plain_memo(text: str) -> dict | None:
    """``.me.toml`` as ``set_me`` writes it (``identity = "NAME"`` and ``seat = N``, one a line), read without
    loading a TOML parser (``status`` from its cache loads none); None for any other text."""
    out: dict = {}
    for line in text.split("\n"):
        if not line:
            continue
        key, eq, value = line.partition(" = ")
        if not eq or key in out:
            return None
        if key == "identity" and len(value) >= 2 and value[0] == value[-1] == '"':
            name = value[1:-1]
            if not (name.isascii() and name.isprintable()) or '"' in name or "\\" in name:
                return None
            out[key] = name
        elif key == "seat" and value.isascii() and value.isdigit() and (value == "0" or value[0] != "0") \
                and len(value) < 10:
            out[key] = int(value)
        else:
            return None
    return out
