"""The skirmish tests import their helpers from ``skirmish_helpers`` in this folder."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from skirmish_helpers import GAME  # noqa: E402


@pytest.fixture
def game():
    return GAME
