"""Several seats of one game played in memory, each with its own ``Match``, passing signed files.

Used by the benchmarks and the tests: the same engine paths as play by files, without the disk.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from duelmail.app import BEFORE_DELIVERY_TIME_CONTROL, bot_actions, demo_fresh, demo_identity, genesis_content
from duelmail.engine.match import Match
from duelmail.games.base import Bot, RandomBot, get_game
from duelmail.protocol.turnfile import SignedFile

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "kim", "leo"]


class SelfPlay:
    def __init__(self, game: str = "warlords", n: int = 2, options: dict | None = None, seed: int = 0,
                 bots: Sequence[Bot] | None = None, shared: bool = False, honest: bool = True,
                 escrow: dict | None = None, time_control: dict | None = None, ahead: bool = False):
        """``shared``: every seat acts through one ``Match`` that leaves the pass proofs unchecked (one
        machine playing every seat, as fast as it gets); ``fresh()`` then folds every file with every check,
        as a receiver does. Otherwise each seat has its own ``Match`` and checks every file it receives.
        ``honest=False``: the seats' clients let false claims about their own cards through (cheating bots).
        ``time_control``: the genesis's; by default the one before the delivery allowance, under which the seeds
        of the tests and benchmarks were chosen (another genesis is another game id, and so other deals).
        ``ahead``: the genesis says ``ahead = true`` where it can serve, as ``duelmail new`` writes it (shares ahead of
        a draw the rules make certain, protocol section 6)."""
        self.honest = honest
        self.ids = [demo_identity(seed, name) for name in NAMES[:n]]
        self.clock = T0
        content = genesis_content(game, [i.card for i in self.ids], 0, options or {}, self.clock,
                                  hashlib.sha256(f"{game}{seed}".encode()).digest()[:16],
                                  time_control or BEFORE_DELIVERY_TIME_CONTROL, master=self.ids[0].master,
                                  escrow=escrow, ahead=ahead)
        self.genesis = SignedFile.sign(content, self.ids[0])
        if shared:
            one = Match(self.genesis)
            one.book.deferred = []  # queued and never run: fresh() checks them
            self.matches = [one] * n
        else:
            self.matches = [Match(self.genesis) for _ in range(n)]
        for s, m in enumerate(self.matches):
            m.attach(s, self.ids[s], demo_fresh(seed, NAMES[s], game))
        self.files: list[SignedFile] = [self.genesis]
        self.decisions = 1  # the genesis: choosing to play is a decision
        self.rng = random.Random(seed)
        g = get_game(game)
        self.bots = list(bots) if bots else [g.bots.get("heuristic", RandomBot)() for _ in range(n)]

    @property
    def match(self) -> Match:
        return self.matches[0]

    def tick(self) -> datetime:
        self.clock += timedelta(minutes=5)
        return self.clock

    def compose(self, seat: int, actions: Sequence[str] | None = None, honest: bool | None = None) -> SignedFile:
        """``seat``'s next file (a bot's actions by default); ``honest=False`` lets a cheat through (the harness)."""
        m = self.matches[seat]
        honest = self.honest if honest is None else honest
        if actions is None:
            actions = bot_actions(m, seat, self.ids[seat], self.bots[seat], self.rng, honest=honest)
        if actions or m.duties[seat].join:
            self.decisions += 1
        return m.compose(seat, self.ids[seat], actions, self.tick(), honest=honest)

    def deliver(self, f: SignedFile) -> None:
        for m in {id(m): m for m in self.matches}.values():
            m.apply(f, f"r{f.round:04d}-s{f.seat}.toml")
        self.files.append(f)

    def step(self) -> list[SignedFile]:
        """Every awaited seat of the open round sends its file."""
        out = []
        for seat in sorted(self.match.duties):
            f = self.compose(seat)
            self.deliver(f)
            out.append(f)
        return out

    def run(self, until: Callable[[Match], bool] = lambda m: m.finished, limit: int = 5000) -> SelfPlay:
        for _ in range(limit):
            if until(self.match):
                return self
            self.step()
        raise AssertionError("the game did not reach the wanted point")

    def fresh(self) -> Match:
        """A new fold of every file so far (what a receiver's fresh process sees)."""
        m = Match(self.genesis)
        for f in self.files[1:]:
            m.apply(f, f"r{f.round:04d}-s{f.seat}.toml")
        return m
