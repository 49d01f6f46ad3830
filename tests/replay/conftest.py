"""The replay tests: their helper module on the path, and a game in progress."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from replay_archives import CHEAT, cheat, prefix  # noqa: E402


@pytest.fixture
def in_progress(tmp_path) -> Path:
    """The cheat game stopped just after bob played his false Warlord face down."""
    return prefix(CHEAT, tmp_path / "in-progress", cheat().played.round)
