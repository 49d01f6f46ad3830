"""Debian's headless Chromium driven by Playwright, for the tests that look at pages and pictures.

Needs the ``playwright`` package and a Chromium binary (``/usr/bin/chromium``, or $DUELMAIL_CHROMIUM); the
browser bundled by ``playwright install`` is not used. Outside CI a test is skipped when either is missing;
in CI (``CI`` set) it fails instead, so a missing install cannot pass unnoticed.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def _missing(why: str):
    if os.environ.get("CI"):
        pytest.fail(f"the browser test cannot run in CI: {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install playwright)")
    exe = os.environ.get("DUELMAIL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(exe).exists():
        _missing(f"no Chromium at {exe} (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=ARGS)
        yield b
        b.close()
