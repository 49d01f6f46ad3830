"""Table talk and the ends players agree on: what a note file may say, checked before signing and on arrival.

A *note* (``kind = "note"``) is a signed file a seat may send at any time, in turn or not: it carries
talk (``say``), a resignation (``resign = true``) or a draw offer and its answers (``draw``). It never
takes a round slot, so it never delays the game (protocol.md section 5a).
"""

from __future__ import annotations

import unicodedata
from datetime import datetime

from duelmail.errors import IllegalMove
from duelmail.util.classes import dataclass

MAX_SAY = 500  # characters: a line of table talk, not a letter
DRAW_ANSWERS = ("accept", "decline")
DRAW = ("offer", *DRAW_ANSWERS)
_BIDI = {chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}  # could make a line read backwards


@dataclass(frozen=True)
class Talk:
    """One line of table talk, in the order the fold met it."""

    round: int
    seat: int
    text: str
    time: datetime | None = None
    signed: bool = True


def check_say(text: object) -> str:
    """The text of a ``say``: one line of at most ``MAX_SAY`` characters, no control characters."""
    if not isinstance(text, str):
        raise IllegalMove("P-say", f"'say' must be a string, not {text!r}")
    if not text.strip():
        raise IllegalMove("P-say", "'say' is empty")
    if len(text) > MAX_SAY:
        raise IllegalMove("P-say", f"'say' is {len(text)} characters long; at most {MAX_SAY} ({text[:40]!r}...)")
    bad = [ch for ch in text if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI]
    if bad:
        raise IllegalMove("P-say", f"'say' holds a control character ({bad[0]!r}) in {text!r}: one plain line only")
    return text
