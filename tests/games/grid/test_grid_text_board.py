"""Issue 29, section 3: the Grid text board never writes a square's name (``b3``) for a card, and shows the
picture's whole 5x5 frame with the picture's columns and rows in the picture's order, for each seat (G-3)."""

from __future__ import annotations

import re

from duelmail.games.grid.terms import pos_name
from duelmail.testing.selfplay import SelfPlay


def _mid_game():
    sp = SelfPlay("grid", n=2, seed=5, shared=True)
    sp.run(until=lambda m: m.state.turn >= 6)
    return sp.match


def _picture_order(svg: str) -> tuple[list[str], list[str]]:
    """The column letters and row numbers of the picture's frame, left to right and top to bottom."""
    labels = [(float(x), float(y), t) for x, y, t in
              re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([a-e1-5])</text>', svg)]
    letters = [v for v in labels if v[2].isalpha()]
    top = min(y for _, y, _ in letters)  # the column letters stand in one line over the board
    cols = [t for x, _, t in sorted(v for v in letters if v[1] == top)]
    left = min(x for x, _, t in labels if t.isdigit())  # the row numbers in one column left of it
    rows = [t for _, t in sorted((y, t) for x, y, t in labels if t.isdigit() and x == left)]
    return cols, rows


def test_a_card_on_the_map_is_never_written_as_a_square_name():
    m = _mid_game()
    squares = {pos_name(p) for p in range(25)}
    for seat in (0, 1, None):
        text = m.state.render(seat, m.seen(seat) if seat is not None else dict(m.state.public_faces()))
        board = text.splitlines()[2:7]
        cells = [c for line in board for c in line.split()[1:]]
        assert cells and not [c for c in cells if re.search(r"(?<![A-Z:])[a-e][1-5]\b", c)], board
        assert any(c.startswith(("A:", "B:")) for c in cells)
        assert not squares & set(cells)


def test_the_text_board_is_the_pictures_5x5_frame_in_the_pictures_order():
    m = _mid_game()
    for seat in (0, 1):
        known = m.seen(seat)
        lines = m.state.render(seat, known).splitlines()
        header, board = lines[1].split(), lines[2:7]
        assert len(header) == 5 and all(len(line.split()) == 6 for line in board), lines[:8]
        cols, rows = _picture_order(m.state.picture(seat, known))
        assert header == cols, (seat, header, cols)
        assert [line.split()[0] for line in board] == rows, (seat, rows)
