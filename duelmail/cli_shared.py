"""What the command modules registered in ``duelmail.cli`` (mail, git, watch) share, without importing
``duelmail.cli`` at import time: any of them can be imported first."""

from __future__ import annotations

import functools


def handled(fn):
    """``duelmail.cli.handled``, looked up when the command runs (library errors become click errors)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from duelmail.cli import handled as real

        return real(fn)(*args, **kwargs)

    return wrapper


def cli():
    """The ``duelmail.cli`` module (its clock, status cache and app)."""
    from duelmail import cli as module

    return module
