"""Bonus and malus cells (§9-1, §9-2, §9-3).

Pattern ``"9A"`` (§9-1, figure 9A, table 9A): every cell whose sextant number is one of 0, 6, 12,
20, 22, 32, 43, 48, 55, 61, 68, 75 is a bonus cell (+1), the same in all sextants.
Pattern ``"9B"`` (§9-3, table 9B): hexagonal rings of bonus (+1) and malus (-1) cells given by the
numbers in their addresses; the table lists rings 0..6, beyond that no cell is marked.

A bonus (malus) cell adds 1 to (subtracts 1 from) the scoring length of each sequence through it,
for the player who first installs a tile there (§9-2).
"""

from __future__ import annotations

from engine.cells import AnyBoard, Cell
from engine.hexgrid import Board, Hex, format_address

BONUS_PATTERNS = ("9A", "9B")

_PATTERN_9A = {n: +1 for n in (0, 6, 12, 20, 22, 32, 43, 48, 55, 61, 68, 75)}

_RINGS_9B: tuple[tuple[int, tuple[int, ...]], ...] = (
    (+1, (0,)),
    (-1, (6,)),
    (+1, (12, 20)),
    (-1, (22, 32, 43)),
    (+1, (48, 55, 61, 75)),
    (-1, (68, 83, 90, 99, 116)),
    (+1, (92, 109, 127, 134, 146, 166)),
)
_PATTERN_9B = {n: sign for sign, numbers in _RINGS_9B for n in numbers}


def cell_number(cell: Hex) -> int:
    """The number in a cell's address (0 for A0, 14 for B14)."""
    return int(format_address(cell)[1:])


def bonus_cells(board: AnyBoard, pattern: str | None) -> dict[Cell, int]:
    """The bonus (+1) and malus (-1) cells of ``board`` under ``pattern`` (§9-1, §9-3).

    Args:
        board: the board (a rectangular board has none: the patterns follow hex addresses).
        pattern: ``None`` (no bonus cells), ``"9A"`` or ``"9B"``.

    Returns:
        cell -> +1 (bonus) or -1 (malus); unmarked cells are absent.

    Raises:
        ValueError: an unknown pattern name.
    """
    if pattern is None or not isinstance(board, Board):
        return {}
    if pattern == "9A":
        table = _PATTERN_9A
    elif pattern == "9B":
        table = _PATTERN_9B
    else:
        raise ValueError(f"unknown bonus pattern {pattern!r}; expected one of {BONUS_PATTERNS}")
    marks: dict[Cell, int] = {}
    for cell in board.cells:
        sign = table.get(cell_number(cell))
        if sign is not None:
            marks[cell] = sign
    return marks
