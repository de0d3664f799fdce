"""Cells of either kind of board: hex cells (§1-2) and square cells of rectangular boards (§12).

The engine's values (placements, positions, rule violations, sequences) hold a :data:`Cell`: a
:class:`engine.hexgrid.Hex`, or its subclass :class:`engine.squaregrid.Square` on a rectangular
board (a subclass so that code written for hex boards keeps its types). These functions address
one whatever its kind: ``B2`` for a hex cell, ``C5`` for a square cell. Parsing needs the board,
since the two notations share their spelling.
"""

from __future__ import annotations

from engine.hexgrid import Board, Hex, address_sort_key, format_address, parse_address
from engine.squaregrid import RectBoard, Square, format_square, parse_square

#: A cell of a hex board (Hex) or of a rectangular board (Square, a Hex subclass).
Cell = Hex
#: A board of either kind.
AnyBoard = Board | RectBoard


def format_cell(cell: Cell) -> str:
    """The cell's address (``B2`` or ``C5``).

    Raises:
        ValueError: ``cell`` is neither a Hex nor a Square.
    """
    if isinstance(cell, Square):
        return format_square(cell)
    return format_address(cell)


def cell_sort_key(cell: Cell) -> tuple[int, str, int]:
    """Address order: hex cells by ring, sextant, number; square cells row by row."""
    if isinstance(cell, Square):
        return (cell.row, "", cell.col)
    return address_sort_key(cell)


def parse_cell(text: str, board: AnyBoard | None = None) -> Cell:
    """Parse an address in the notation of ``board`` (hex when None).

    Raises:
        ValueError: not an address of that notation; the message quotes it.
    """
    return parse_square(text) if isinstance(board, RectBoard) else parse_address(text)


def board_centre(board: AnyBoard) -> Cell:
    """The cell the first turn covers (§3-3) and the modulus marker sits on (§8): A0, or the centre
    of a rectangular board."""
    return board.centre if isinstance(board, RectBoard) else Hex(0, 0)
