"""Hex boards as text pictures, for golden test data and a quick look at a position.

One text line per row of cells, north at the top; each cell is a 3-character field and rows are
offset by half a cell, so the picture looks like the board::

        .   .   .
      .   4   6   .
    .   .   1   .   .
      .   .   .   .
        .   .   .

Cell tokens: ``.`` empty, ``x`` blocked (§2-2, written only), a number for a natural tile, ``#`` a
wild tile, ``#=8`` a wild tile with a declared value, ``m`` the modulus marker (§8), ``-`` a cell
that a truncated board drops (§1-2).

A rectangular board (§12) is drawn as its rows, top row first, without the offset; only hex
pictures are read back.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cells import AnyBoard, Cell
from engine.hexgrid import Board, Hex
from engine.squaregrid import RectBoard, Square
from engine.tiles import Tile

_WIDTH = 4  # a 3-character field and a space


def _row_range(order: int, r: int) -> range:
    return range(max(-order, -order - r), min(order, order - r) + 1)


def _token(tile: Tile) -> str:
    if tile.is_marker:
        return "m"
    return tile.notation()


def _cell_token(board: AnyBoard, cell: Cell, tiles: Mapping[Cell, Tile], blocked: frozenset[Cell]) -> str:
    if cell not in board:
        return "-"
    if cell in tiles:
        return _token(tiles[cell])
    return "x" if cell in blocked else "."


def format_board(board: AnyBoard, tiles: Mapping[Cell, Tile], blocked: frozenset[Cell] = frozenset()) -> str:
    """The board as a text picture (see the module docstring).

    Args:
        board: the board (a hex board's order sets the size of the picture).
        tiles: cell -> tile, e.g. a Position.
        blocked: empty cells to mark ``x``.
    """
    lines = []
    if isinstance(board, RectBoard):
        for row in range(board.height):
            tokens = [_cell_token(board, Square(col, row), tiles, blocked) for col in range(board.width)]
            lines.append(" ".join(f"{token:>3}" for token in tokens).rstrip())
        return "\n".join(lines) + "\n"
    n = board.order
    for r in range(-n, n + 1):
        tokens = [f"{_cell_token(board, Hex(q, r), tiles, blocked):>3}" for q in _row_range(n, r)]
        lines.append((" " * (abs(r) * _WIDTH // 2) + " ".join(tokens)).rstrip())
    return "\n".join(lines) + "\n"


def _parse_token(token: str) -> Tile | None:
    if token in (".", "x"):
        return None
    if token == "m":
        return Tile.marker()
    if token == "#":
        return Tile.wild()
    if token.startswith("#="):
        return Tile.wild(int(token[2:]))
    return Tile.natural(int(token))


def parse_board(text: str) -> tuple[Board, dict[Hex, Tile]]:
    """Read a text picture back: the board (order from the number of rows) and its tiles.

    Blank lines and surrounding indentation are ignored.

    Raises:
        ValueError: an even number of rows, a row with the wrong number of cells, or a token that
            is not a cell; the message gives the 1-based line and the token.
    """
    rows = [(i, line) for i, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(rows) % 2 == 0:
        raise ValueError(f"a hex board picture has an odd number of rows, got {len(rows)}")
    n = len(rows) // 2
    cells: set[Hex] = set()
    tiles: dict[Hex, Tile] = {}
    for (lineno, line), r in zip(rows, range(-n, n + 1), strict=True):
        tokens = line.split()
        qs = _row_range(n, r)
        if len(tokens) != len(qs):
            raise ValueError(
                f"line {lineno}: row {r} of an order-{n} board has {len(qs)} cells, got {len(tokens)}"
            )
        for q, token in zip(qs, tokens, strict=True):
            if token == "-":
                continue
            cell = Hex(q, r)
            cells.add(cell)
            try:
                tile = _parse_token(token)
            except ValueError:
                raise ValueError(
                    f"line {lineno}: {token!r} is not a cell (. x m # #=v or a number)"
                ) from None
            if tile is not None:
                tiles[cell] = tile
    return Board(n, frozenset(cells)), tiles
