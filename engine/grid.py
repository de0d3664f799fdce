"""A board's cells as integer indices with line tables, for the fast rule checks.

The rules walk lines of tiles many times per turn; doing it with cell arithmetic allocates a value
per step. A :class:`Grid` numbers a board's cells 0..n-1 (address order) and stores, for each line
direction, the next and previous cell index along it (-1 off the board), so line walks are list
look-ups. The same tables serve both topologies:

- a hex board (§1-2): three line directions, zero, positive and negative slope (§2-1);
- a rectangular board (§12, engine.squaregrid): rows and columns, and the two diagonals when they
  count; with wrap-around the tables continue across the edges, so two runs touching opposite edges
  are one line and a full row can close into a loop.

Each direction also has a reading direction (§10): the way a directed law reads its lines.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.cells import AnyBoard, Cell, board_centre
from engine.hexgrid import DIRECTIONS, LINE_DIRECTIONS, Hex
from engine.squaregrid import READING_NAMES, RectBoard

#: Cell value codes used with a Grid: an empty cell, and a wild tile whose value is not settled.
EMPTY = -1
AMBIGUOUS = -2

#: Hex line directions in a fixed order: zero, positive, negative slope (§2-1).
LINE_ORDER: tuple[str, ...] = tuple(LINE_DIRECTIONS)

#: §10: addition runs left to right on zero-slope lines, from upper right to lower left on positive
#: slope and from lower right to upper left on negative slope; the tables run W->E, SW->NE, NW->SE.
_HEX_READING = (
    (True, "left to right"),
    (False, "upper right to lower left"),
    (False, "lower right to upper left"),
)


@dataclass(frozen=True, slots=True, eq=False)
class Grid:
    """Index tables of one board.

    Attributes:
        board: the board.
        cells: the cells in address order; a cell's index is its position here.
        index: cell -> index.
        forward: ``forward[k][i]`` is the index of the next cell after cell i along line direction
            k, or -1 when that cell is off the board.
        backward: the same, the previous cell.
        neighbours: ``neighbours[i]``: the indices of the cells next to i along a line direction.
        reads_forward: per direction, True when a directed law (§10) reads along ``forward``.
        reading: per direction, the reading direction in words (``"left to right"``).
        seams: per direction, the cells whose ``forward`` step crosses an edge (§12 wrap-around).
        line_ids: ``line_ids[k][i]`` names the straight line through cell i along direction k
            (cells on one line share it, whether or not the cells between them are on the board).
        centre: index of A0 (or the rectangular board's centre), None when the board lacks it.
    """

    board: AnyBoard
    cells: tuple[Cell, ...]
    index: dict[Cell, int]
    forward: tuple[tuple[int, ...], ...]
    backward: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[int, ...], ...]
    reads_forward: tuple[bool, ...]
    reading: tuple[str, ...]
    seams: tuple[frozenset[int], ...]
    line_ids: tuple[tuple[int, ...], ...]
    centre: int | None

    @property
    def directions(self) -> range:
        """The line direction indices."""
        return range(len(self.forward))

    def run(self, occupied: Sequence[int], i: int, k: int) -> list[int]:
        """The maximal run of occupied cells through cell ``i`` along direction ``k``, in order.

        A run that goes all the way round a wrapping line (a loop, §12) starts at its lowest index.

        Args:
            occupied: per cell index, a value >= 0 or AMBIGUOUS for an occupied cell, EMPTY for empty.
            i: a cell index (need not be occupied: then the run is empty).
            k: line direction index.
        """
        if occupied[i] == EMPTY:
            return []
        back, fwd = self.backward[k], self.forward[k]
        start = i
        j = back[start]
        while j >= 0 and occupied[j] != EMPTY:
            if j == i:
                return self._loop(i, k)
            start = j
            j = back[j]
        out = [start]
        j = fwd[start]
        while j >= 0 and occupied[j] != EMPTY:
            out.append(j)
            j = fwd[j]
        return out

    def _loop(self, i: int, k: int) -> list[int]:
        fwd = self.forward[k]
        cycle = [i]
        j = fwd[i]
        while j != i:
            cycle.append(j)
            j = fwd[j]
        first = cycle.index(min(cycle))
        return cycle[first:] + cycle[:first]

    def is_loop(self, run: Sequence[int], k: int) -> bool:
        """True when ``run`` (from :meth:`run`) goes all the way round a wrapping line (§12)."""
        return len(run) > 2 and self.forward[k][run[-1]] == run[0]

    def crosses_edge(self, run: Sequence[int], k: int) -> bool:
        """True when ``run`` continues across an edge of a wrapping board (§12)."""
        seam = self.seams[k]
        return bool(seam) and any(j in seam for j in run[:-1])

    def reading_order(self, run: list[int], k: int, directed: bool) -> list[int]:
        """``run`` in the order a law reads it: the reading direction for a directed law (§10)."""
        return run if not directed or self.reads_forward[k] else run[::-1]

    def lines(self, occupied: Sequence[int]) -> Iterator[tuple[int, list[int]]]:
        """Every run of two or more tiles (loops included), each once, as (direction, run)."""
        wraps = any(self.seams)
        for k in self.directions:
            back = self.backward[k]
            for i, v in enumerate(occupied):
                if v == EMPTY or (not wraps and back[i] >= 0 and occupied[back[i]] != EMPTY):
                    continue
                run = self.run(occupied, i, k)
                if run[0] == i and len(run) >= 2:
                    yield k, run


def _hex_tables(board: AnyBoard, cells: tuple[Cell, ...], index: dict[Cell, int]) -> tuple:
    forward, backward = [], []
    for name in LINE_ORDER:
        d = LINE_DIRECTIONS[name]
        forward.append(tuple(index.get(Hex(c.q + d.q, c.r + d.r), -1) for c in cells))
        backward.append(tuple(index.get(Hex(c.q - d.q, c.r - d.r), -1) for c in cells))
    neighbours = tuple(
        tuple(index[n] for n in (Hex(c.q + d.q, c.r + d.r) for d in DIRECTIONS.values()) if n in index)
        for c in cells
    )
    reads = tuple(r for r, _ in _HEX_READING)
    names = tuple(n for _, n in _HEX_READING)
    # what stays constant along a line: zero slope r, positive slope q + r, negative slope q
    ids = (
        tuple(c.r for c in cells),
        tuple(c.q + c.r for c in cells),
        tuple(c.q for c in cells),
    )
    return forward, backward, neighbours, reads, names, tuple(frozenset() for _ in LINE_ORDER), ids


def _rect_tables(board: RectBoard, cells: tuple[Cell, ...], index: dict[Cell, int]) -> tuple:
    forward, backward, seams = [], [], []
    squares = list(board)  # the cells, as squares
    for d in board.directions:
        nxt = [board.step(c, d, +1) for c in squares]
        prev = [board.step(c, d, -1) for c in squares]
        forward.append(tuple(-1 if n is None else index[n] for n in nxt))
        backward.append(tuple(-1 if p is None else index[p] for p in prev))
        seams.append(
            frozenset(
                i
                for i, (c, n) in enumerate(zip(squares, nxt, strict=True))
                if n is not None and (abs(n.col - c.col) > 1 or abs(n.row - c.row) > 1)
            )
        )
    neighbours = tuple(
        tuple(sorted({t[i] for t in forward + backward if t[i] >= 0 and t[i] != i}))
        for i in range(len(cells))
    )
    reads = tuple(True for _ in board.directions)
    names = tuple(READING_NAMES[d] for d in board.directions)
    return forward, backward, neighbours, reads, names, tuple(seams), tuple(_walk_ids(f) for f in forward)


def _walk_ids(forward: tuple[int, ...]) -> tuple[int, ...]:
    """Line ids from a forward table whose lines are unbroken (a rectangular board): each line's id is
    the index of its first cell (or of the cell a loop is first met at)."""
    ids = [-1] * len(forward)
    starts = set(range(len(forward))) - set(forward)
    for i in sorted(starts) + list(range(len(forward))):
        j = i
        while j >= 0 and ids[j] < 0:
            ids[j] = i
            j = forward[j]
    return tuple(ids)


@lru_cache(maxsize=32)
def grid_of(board: AnyBoard) -> Grid:
    """The (cached) index tables of ``board``."""
    cells: tuple[Cell, ...] = tuple(board)
    index: dict[Cell, int] = {c: i for i, c in enumerate(cells)}
    tables = (
        _rect_tables(board, cells, index)
        if isinstance(board, RectBoard)
        else _hex_tables(board, cells, index)
    )
    forward, backward, neighbours, reads, names, seams, ids = tables
    return Grid(
        board,
        cells,
        index,
        tuple(forward),
        tuple(backward),
        neighbours,
        reads,
        names,
        seams,
        ids,
        index.get(board_centre(board)),
    )
