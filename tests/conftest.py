import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "engine"))
sys.path.insert(0, str(Path(__file__).parent / "cli"))
sys.path.insert(0, str(Path(__file__).parent))

from chromium import browser  # noqa: E402, F401  (the headless Chromium fixture, for every test that needs it)
