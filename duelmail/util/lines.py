"""Text that keeps its lines.

A replay page interns every view's text table and picture line by line (``replay/html.py``). A game that draws
from memos makes the same line strings again and again, and Python keeps a string's hash; splitting the joined
text would make new strings and hash every one of them again. ``Lines.of(lines)`` is the text, a ``str`` like any
other, that also keeps ``lines``.
"""

from __future__ import annotations

import re

_CLEAN: set[str] = set()  # lines known to hold no newline: memoised drawings make the same lines again and again
_CLEAN_MAX = 1 << 15


class Lines(str):
    """A ``str``, ``"\\n".join(self.lines)``, that keeps its ``lines``."""

    lines: tuple[str, ...]

    @staticmethod
    def of(lines: tuple[str, ...]) -> str:
        """``"\\n".join(lines)``; a ``Lines`` that keeps them unless a line holds a newline itself."""
        text = "\n".join(lines)
        if not _CLEAN.issuperset(lines):  # a line not met before: count the text's newlines (slower, in C still)
            if text.count("\n") != len(lines) - 1:
                return text
            if len(_CLEAN) > _CLEAN_MAX:
                _CLEAN.clear()
            _CLEAN.update(lines)
        out = Lines(text)
        out.lines = lines
        return out


def lines_of(text: str) -> tuple[str, ...] | list[str]:
    """``text.split("\\n")``, without splitting a ``Lines``."""
    return getattr(text, "lines", None) or text.split("\n")


def third_person(text: str, name: str) -> str:
    """A prompt said to its player ("alice attacks you ...: take, or defend your ...") as another player reads it
    ("alice attacks bob ...: take, or defend bob's ...")."""
    text = re.sub(r"\byou (are|have|like|want|control|hold)\b",
                  lambda m: f"{name} " + {"are": "is", "have": "has"}.get(m.group(1), m.group(1) + "s"), text)
    return re.sub(r"\byou\b", name, re.sub(r"\byour\b", f"{name}'s", text))
