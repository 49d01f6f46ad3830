"""A resignation in a game of three or more seats (protocol sections 5a and 6c): with escrow the seat leaves as a
seat claimed against does, and the others play on to an audited end; without it, or once two seats are left, the
game ends and the seats still in it share the win. A draw needs every other seat still in the game, and a seat that
has left can neither resign again nor offer or answer a draw. Rulings: W-32, Z-29, K-37."""

from __future__ import annotations

import pytest
from escrow_play import claim_file

from duelmail.errors import IllegalMove
from duelmail.testing.selfplay import SelfPlay
from duelmail.transport.archive import fold


def ready(game: str, n: int, seed: int, rounds: int = 12, **kw) -> SelfPlay:
    """A game played by bots until every deck is locked and a few more rounds have passed."""
    sp = SelfPlay(game, n, seed=seed, **kw)
    sp.run(until=lambda m: m.over() or (m.round > rounds and all(d.locked for d in m.book.decks.values())))
    assert not sp.match.over()
    return sp


def resign(sp: SelfPlay, seat: int) -> None:
    sp.deliver(sp.matches[seat].compose_note(seat, sp.ids[seat], sp.tick(), resign=True))


def refolded(sp: SelfPlay):
    return fold([(f"{i:05d}.toml", f) for i, f in enumerate(sp.files)])


@pytest.mark.parametrize("game, n, seed", [("wizard", 4, 1), ("warlords", 3, 2), ("skirmish", 3, 1)])
def test_a_resignation_removes_the_seat_and_the_others_play_to_an_audited_end(game, n, seed):
    sp = ready(game, n, seed)
    seat = 1
    assert sp.match.removable(seat)
    resign(sp, seat)
    m = sp.match
    assert not m.over() and (m.removing == seat or seat in m.removed)
    assert any("resigns" in e.text and "leaves the game" in e.text for e in m.events)
    sp.run()
    assert m.finished and m.removed == {seat} and m.audit.ok, m.audit.lines
    assert seat not in m.outcome().winners
    again = refolded(sp)
    assert again.finished and again.removed == {seat} and again.prev == m.prev and again.audit.ok
    with pytest.raises(IllegalMove) as err:  # its client refuses a second resignation: it has left
        sp.matches[seat].compose_note(seat, sp.ids[seat], sp.tick(), resign=True)
    assert err.value.rule == "P-over"


def test_a_resignation_that_leaves_one_seat_ends_the_game_and_only_the_seats_in_play_win():
    sp = ready("warlords", 3, 2)
    resign(sp, 0)
    sp.run(until=lambda m: 0 in m.removed)
    resign(sp, 2)
    m = sp.match
    assert m.over() and m.outcome().winners == (1,)  # not the seat that left before
    sp.run()
    assert m.finished and m.audit.ok, m.audit.lines


def test_a_resignation_without_escrow_ends_the_game_for_everyone():
    sp = ready("wizard", 3, 1, escrow={"off": True})
    resign(sp, 2)
    m = sp.match
    assert m.over() and m.outcome().winners == (0, 1) and not m.removed


def test_a_draw_needs_every_seat_still_in_the_game_and_no_more():
    sp = ready("wizard", 4, 2)
    resign(sp, 3)
    sp.run(until=lambda m: 3 in m.removed)
    m = sp.match
    sp.deliver(sp.matches[0].compose_note(0, sp.ids[0], sp.tick(), draw="offer"))
    with pytest.raises(IllegalMove):  # the seat that left has no say
        sp.matches[3].compose_note(3, sp.ids[3], sp.tick(), draw="accept")
    for s in (1, 2):
        assert not m.over()
        sp.deliver(sp.matches[s].compose_note(s, sp.ids[s], sp.tick(), draw="accept"))
    assert m.over() and m.outcome().winners == ()
    sp.run()
    assert m.finished and m.audit.ok


def test_a_timeout_that_forfeits_names_only_the_seats_in_play_as_winners():
    sp = ready("warlords", 3, 2)
    resign(sp, 0)
    sp.run(until=lambda m: 0 in m.removed)
    m = sp.match
    late = next(s for s in sorted(m.duties) if m.duties[s].decide)
    other = ({1, 2} - {late}).pop()
    sp.deliver(claim_file(sp, other, late))  # two seats in play: the third cannot be removed, the game is forfeit
    assert m.over() and m.outcome().winners == (other,)


def test_a_move_crossing_a_resignation_counts_and_the_removal_follows():
    """Seat 2 resigns while seat 0 has already sent its move of the next round, built on the round as it closed
    without the resignation: no note undoes a move made without it (issue 27), so every home folds that move,
    then the resignation opens the removal."""
    sp = ready("wizard", 4, 3)
    m = sp.match
    note = sp.matches[2].compose_note(2, sp.ids[2], sp.tick(), resign=True)  # names the open round
    while m.round == note.round:  # the round closes without it
        sp.step()
    crossing = [sp.compose(s) for s in sorted(m.duties)]
    files = [(f"{i:05d}.toml", f) for i, f in enumerate(sp.files)]
    later = files + [(f"x{i}.toml", f) for i, f in enumerate(crossing)] + [("resign.toml", note)]
    folded = fold(later)
    assert folded.removing == 2 or 2 in folded.removed
    assert not folded.void and {f.file_hash for f in crossing} <= folded.applied
    assert fold(list(reversed(later))).prev == folded.prev  # in any order
