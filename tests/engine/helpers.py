"""The in-memory driver, with the High Card test game registered."""

import toy  # noqa: F401  (registers the High Card test game)

from duelmail.testing.selfplay import T0, SelfPlay


class Players(SelfPlay):
    def __init__(self, game: str = "highcard", **kw):
        super().__init__(game, **kw)


__all__ = ["Players", "T0"]
