"""The picture tests: their helper module (picture_tables.py) on the path."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
