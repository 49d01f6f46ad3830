"""Fixtures every game's rule tests share: ``play`` (actions in notation onto a simulator table) and ``ref``."""

from __future__ import annotations

import pytest

from duelmail.games.base import PUBLIC, Sealed
from duelmail.games.cards import CardRef
from duelmail.games.simulate import Table


def play(table: Table, seat: int, *texts: str) -> None:
    """Apply one or more actions (the game's notation) for ``seat``."""
    for text in texts:
        table.play(seat, table.game.parse_action(text))


@pytest.fixture(name="play")
def _play():
    return play


@pytest.fixture(name="ref")
def _ref():
    return CardRef.parse


# -- a seat removed by escrow (protocol section 6c; W-32, Z-29, K-37) ------------------------------------------------
class Removal:
    """Helpers for the removal tests: play bots to a point, remove seats, and play on checking the contract."""

    @staticmethod
    def check(table: Table, removed) -> None:
        """The removed seats are never awaited again, are retired for good, and no window is open at the end."""
        st = table.state
        assert set(removed) <= set(st.removed) <= set(st.retired())
        assert not set(removed) & set(st.deciders()), (removed, st.deciders())
        assert not {w.seat for w in st.windows()} & set(removed)
        assert not set(st.openings()) & set(removed)
        assert {w.seat for w in st.windows()} <= set(st.deciders())
        if st.is_terminal():
            assert not st.windows() and not st.deciders() and st.outcome() is not None
        elif st.chance() is None:
            assert st.deciders(), "nobody to move, no chance: the rules are stuck after a removal"

    @staticmethod
    def advance(table: Table, bots, actions: int) -> None:
        """Play up to ``actions`` decisions by ``bots`` (fewer if the game ends)."""
        for _ in range(actions):
            st = table.state
            if st.is_terminal():
                return
            seat = st.deciders()[0]
            table.play(seat, bots[seat].choose(st, seat, table.known(seat), table.rng))

    @staticmethod
    def unsettled(table: Table, bots, rng) -> bool:
        """Apply the next bot decision without settling, then some of the reveals it asks for: a position where the
        rules await chance or reveals (where the engine's removal round can close). False if the game ended."""
        st = table.state
        seat = st.deciders()[0]
        action = bots[seat].choose(st, seat, table.known(seat), table.rng)
        label = action.sealed()
        if label is not None:
            st.apply(seat, Sealed(label))
            table.sealed[(seat, label)] = action
        else:
            st.apply(seat, action)
        table.told += st.take_told()
        pending = [r for r, who in sorted(st.visibility().items()) if who == PUBLIC and r not in st.public_faces()]
        for r in pending[:rng.randrange(len(pending) + 1)]:
            if st.is_terminal() or st.chance() is not None:
                break
            table.violations += st.reveal(r, table.truth[r])
        table.told += st.take_told()
        if st.is_terminal():
            table.settle()
            return False
        return True

    @classmethod
    def play_on(cls, table: Table, bots, removed, max_actions: int = 20_000):
        """Play to the end with the seats left, checking the contract after every step; the outcome."""
        retired = set(table.state.retired())
        for _ in range(max_actions):
            cls.check(table, removed)
            assert retired <= set(table.state.retired())  # once retired, retired for good
            retired = set(table.state.retired())
            st = table.state
            if st.is_terminal():
                out = st.outcome()
                assert not set(out.winners) & set(removed), out
                return out
            seat = st.deciders()[0]
            table.play(seat, bots[seat].choose(st, seat, table.known(seat), table.rng))
        raise AssertionError(f"no end after {max_actions} actions")


    @classmethod
    def one_after_another(cls, table: Table, bots, rng, count: int, actions: tuple[int, int], seats_in,
                          remove=None):
        """Remove ``count`` seats one after the other, each after a random number of decisions in ``actions``
        (``rng.randrange``) and chosen among ``seats_in(state)``; check the contract, play to the end; the outcome."""
        gone: set[int] = set()
        for _ in range(count):
            cls.advance(table, bots, rng.randrange(*actions))
            if table.state.is_terminal():
                break
            seat = rng.choice(seats_in(table.state))
            if remove is None:
                table.remove(seat)
            else:
                remove(table, seat)
            gone.add(seat)
            cls.check(table, gone)
        out = cls.play_on(table, bots, gone)
        assert not set(out.winners) & gone
        return out


@pytest.fixture(name="removal")
def _removal():
    return Removal
