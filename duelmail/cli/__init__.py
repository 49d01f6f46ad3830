"""The ``duelmail`` command: a thin click layer over ``duelmail.app``.

Every library error (``DuelmailError``) becomes a one-line message and exit status 1.

``run`` is the installed command: it answers ``status`` and ``show`` from their fresh caches without loading
click (``cached.answer``), runs a plain ``receive FILE...`` without it too (``plain.receive_plain``), and hands
everything else to the click group ``main`` (``group.py``), which this
package gives as ``duelmail.cli.main`` when asked for it.
"""

from __future__ import annotations

import os
import sys


def run() -> int | None:
    """The ``duelmail`` command."""
    from duelmail.cli.cached import answer

    try:
        if answer(sys.argv[1:]):
            return 0
        if sys.argv[1:2] == ["receive"]:
            from duelmail.cli.plain import receive_plain

            code = receive_plain(sys.argv[1:])
            if code is not None:
                return code
    except BrokenPipeError:  # the reader went away ('duelmail status | head -1'): quietly, as click does
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the interpreter's last flush
        return 1
    from duelmail.cli.group import main

    return main()


def __getattr__(name: str):
    if name in ("main", "COMMANDS", "LazyGroup"):
        from duelmail.cli import group

        return getattr(group, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
