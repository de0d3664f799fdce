"""A board's cells as integer indices with neighbour tables, for the fast rule checks.

The rules walk lines of tiles many times per turn; doing it with ``Hex`` arithmetic allocates a
value per step. A :class:`Grid` numbers a board's cells 0..n-1 (address order) and stores, for each
of the three line directions of §2-1, the next and previous cell index along that direction (-1 off
the board), so line walks are list look-ups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.hexgrid import DIRECTIONS, LINE_DIRECTIONS, Board, Hex

#: Cell value codes used with a Grid: an empty cell, and a wild tile whose value is not settled.
EMPTY = -1
AMBIGUOUS = -2

#: Line directions in a fixed order: zero, positive, negative slope (§2-1).
LINE_ORDER: tuple[str, ...] = tuple(LINE_DIRECTIONS)


@dataclass(frozen=True, slots=True, eq=False)
class Grid:
    """Index tables of one board.

    Attributes:
        board: the board.
        cells: the cells in address order; a cell's index is its position here.
        index: cell -> index.
        forward: ``forward[k][i]`` is the index of the next cell after cell i along line direction
            k (``LINE_ORDER[k]``), or -1 when that cell is off the board.
        backward: the same, the previous cell.
        neighbours: ``neighbours[i]`` is the tuple of indices of the board cells adjacent to i.
    """

    board: Board
    cells: tuple[Hex, ...]
    index: dict[Hex, int]
    forward: tuple[tuple[int, ...], ...]
    backward: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[int, ...], ...]

    def run(self, occupied: Sequence[int], i: int, k: int) -> list[int]:
        """The maximal run of occupied cells through cell ``i`` along direction ``k``, in order.

        Args:
            occupied: per cell index, a value >= 0 or AMBIGUOUS for an occupied cell, EMPTY for empty.
            i: a cell index (need not be occupied: then the run is empty).
            k: line direction index (0, 1, 2 as in ``LINE_ORDER``).
        """
        if occupied[i] == EMPTY:
            return []
        back, fwd = self.backward[k], self.forward[k]
        start = i
        j = back[start]
        while j >= 0 and occupied[j] != EMPTY:
            start = j
            j = back[j]
        out = [start]
        j = fwd[start]
        while j >= 0 and occupied[j] != EMPTY:
            out.append(j)
            j = fwd[j]
        return out


@lru_cache(maxsize=32)
def grid_of(board: Board) -> Grid:
    """The (cached) index tables of ``board``."""
    cells = tuple(board)
    index = {c: i for i, c in enumerate(cells)}
    forward = []
    backward = []
    for name in LINE_ORDER:
        d = LINE_DIRECTIONS[name]
        forward.append(tuple(index.get(Hex(c.q + d.q, c.r + d.r), -1) for c in cells))
        backward.append(tuple(index.get(Hex(c.q - d.q, c.r - d.r), -1) for c in cells))
    neighbours = tuple(
        tuple(index[n] for n in (Hex(c.q + d.q, c.r + d.r) for d in DIRECTIONS.values()) if n in index)
        for c in cells
    )
    return Grid(board, cells, index, tuple(forward), tuple(backward), neighbours)
