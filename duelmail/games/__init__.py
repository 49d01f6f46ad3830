"""Every game lives in its own folder and registers itself here by being imported."""

import importlib

for _name in ("warlords",):
    importlib.import_module(f"duelmail.games.{_name}")
