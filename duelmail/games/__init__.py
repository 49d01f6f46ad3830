"""Every game lives in its own folder ``duelmail/games/<id>/`` and registers itself when imported.

Importing this package imports every game folder, so the registry knows them all.
"""

import importlib
import pkgutil

for _info in pkgutil.iter_modules(__path__):
    if _info.ispkg and not _info.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_info.name}")
