"""Every game lives in its own folder ``duelmail/games/<id>/`` and registers itself when imported.

A game is imported only when it is asked for by name (``base.get_game``): a command loads the game it plays and
no other. A game's folder name is its id.
"""

import importlib
import pkgutil

_FOLDERS: tuple[str, ...] | None = None


def folders() -> tuple[str, ...]:
    """The names of the game folders, found without importing them."""
    global _FOLDERS
    if _FOLDERS is None:
        _FOLDERS = tuple(sorted(i.name for i in pkgutil.iter_modules(__path__)
                                if i.ispkg and not i.name.startswith("_")))
    return _FOLDERS


def load(name: str) -> None:
    """Import the game folder ``name`` (it registers its game)."""
    importlib.import_module(f"{__name__}.{name}")
