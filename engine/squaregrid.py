"""Rectangular boards and their cell addresses, for the wrap-around variation (§12).

§12 plays on a rectangular grid of square cells whose edges may wrap like a torus: the leftmost and
rightmost columns are adjacent, and so are the top and bottom rows. The seed gives no notation, so
this one follows the Yushino board of games.md: columns are lettered A, B, ..., Z, AA, AB, ... from
left to right, rows numbered 1, 2, ... from top to bottom; ``C5`` is the third column, fifth row.
In a transcript the board is the tag ``[Board "rect 12x8"]`` (12 columns, 8 rows), with
``[Wrap "yes"]`` for the torus and ``[Diagonals "yes"]`` when diagonals count as lines.

The centre cell (column width // 2, row height // 2, 0-based; ``G5`` on 12 x 8) plays the part of A0:
the first turn covers it (§3-3) and the modulus marker sits on it (§8).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from engine.hexgrid import Hex

#: Most columns or rows of a rectangular board (input limit of the transcript reader).
MAX_SIDE = 100
#: Fewest columns or rows: a wrapped line of two cells would meet itself on both sides.
MIN_SIDE = 3

_ADDRESS_RE = re.compile(r"([A-Za-z]{1,2})(\d{1,4})", re.ASCII)
_BOARD_RE = re.compile(r"\s*rect\s+(\d{1,6})\s*[xX]\s*(\d{1,6})\s*", re.IGNORECASE | re.ASCII)

#: Line directions (dcol, drow) in their reading order: rows, columns, then the two diagonals.
ROW, COLUMN, FALLING, RISING = (1, 0), (0, 1), (1, 1), (1, -1)
#: How a line of each direction is read (§10's direction rule, carried over to square cells).
READING_NAMES = {
    ROW: "left to right",
    COLUMN: "top to bottom",
    FALLING: "upper left to lower right",
    RISING: "lower left to upper right",
}


@dataclass(frozen=True, slots=True, order=True)
class Square(Hex):
    """One cell of a rectangular board: ``Square(column, row)``, 0-based from the top left.

    A Square is a :class:`engine.hexgrid.Hex` by type only, so that positions, placements and
    results hold either kind of cell: its ``q`` is the column and its ``r`` the row, and it never
    equals a Hex. Its geometry is the board's (engine.grid builds the line tables), not the hex
    grid's: the Hex methods (neighbours, ring) do not apply to it, and hex addresses refuse it.

    Raises:
        ValueError: a negative or non-integer coordinate.
    """

    def __post_init__(self) -> None:
        Hex.__post_init__(self)
        if self.q < 0 or self.r < 0:
            raise ValueError(f"square coordinates must be >= 0, got ({self.q!r}, {self.r!r})")

    @property
    def col(self) -> int:
        """Column index, 0 at the left."""
        return self.q

    @property
    def row(self) -> int:
        """Row index, 0 at the top."""
        return self.r


def column_letters(col: int) -> str:
    """Column index as letters: 0 -> A, 25 -> Z, 26 -> AA."""
    out = ""
    n = col + 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("A") + r) + out
    return out


def format_square(cell: Square) -> str:
    """The address of a square cell: column letters then 1-based row (``C5``)."""
    return f"{column_letters(cell.col)}{cell.row + 1}"


def parse_square(text: str) -> Square:
    """Parse a square cell's address (``C5``, ``AB12``; letters in either case).

    Raises:
        ValueError: ``text`` is not such an address; the message quotes it.
    """
    m = _ADDRESS_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    if m is None:
        raise ValueError(
            f"not a square address: {text!r} (expected column letters and a row number, e.g. C5)"
        )
    col = 0
    for ch in m.group(1).upper():
        col = col * 26 + ord(ch) - ord("A") + 1
    row = int(m.group(2))
    if row < 1:
        raise ValueError(f"not a square address: {text!r} (rows are numbered from 1)")
    return Square(col - 1, row - 1)


@dataclass(frozen=True, slots=True)
class RectBoard:
    """A rectangular board of square cells (§12).

    Attributes:
        width: columns.
        height: rows.
        wrap: whether the edges wrap like a torus (§12).
        diagonals: whether the two diagonals count as lines besides rows and columns.

    Raises:
        ValueError: a side outside MIN_SIDE..MAX_SIDE.
    """

    width: int
    height: int
    wrap: bool = False
    diagonals: bool = False

    def __post_init__(self) -> None:
        for name, side in (("width", self.width), ("height", self.height)):
            if not isinstance(side, int) or not MIN_SIDE <= side <= MAX_SIDE:
                raise ValueError(f"board {name} must be {MIN_SIDE}..{MAX_SIDE}, got {side!r}")

    @property
    def cells(self) -> frozenset[Square]:
        """Every cell."""
        return frozenset(self)

    @property
    def centre(self) -> Square:
        """The cell that plays the part of A0 (§3-3, §8)."""
        return Square(self.width // 2, self.height // 2)

    @property
    def order(self) -> int:
        """§1-2's order, "the number of cells to the left of" the centre cell: width // 2. It does
        not give a rectangular board's size (width and height do)."""
        return self.width // 2

    @property
    def directions(self) -> tuple[tuple[int, int], ...]:
        """The line directions as (dcol, drow): rows and columns, and the diagonals if allowed."""
        return (ROW, COLUMN, FALLING, RISING) if self.diagonals else (ROW, COLUMN)

    def step(self, cell: Square, direction: tuple[int, int], sign: int) -> Square | None:
        """The cell next to ``cell`` along ``direction`` (sign +1 forward, -1 back), None off the board."""
        col, row = cell.col + sign * direction[0], cell.row + sign * direction[1]
        if self.wrap:
            return Square(col % self.width, row % self.height)
        if 0 <= col < self.width and 0 <= row < self.height:
            return Square(col, row)
        return None

    def tag(self) -> str:
        """The ``[Board "..."]`` tag's value: ``"rect 12x8"``."""
        return f"rect {self.width}x{self.height}"

    def __contains__(self, cell: object) -> bool:
        return isinstance(cell, Square) and cell.col < self.width and cell.row < self.height

    def __iter__(self) -> Iterator[Square]:
        return (Square(c, r) for r in range(self.height) for c in range(self.width))

    def __len__(self) -> int:
        return self.width * self.height


def parse_board_tag(value: str) -> tuple[int, int]:
    """The (width, height) of a ``[Board "rect WxH"]`` tag's value.

    Raises:
        ValueError: not of the form ``rect WxH``.
    """
    m = _BOARD_RE.fullmatch(value)
    if m is None:
        raise ValueError(f"board {value!r} is not of the form 'rect WIDTHxHEIGHT' (e.g. 'rect 12x8')")
    return int(m.group(1)), int(m.group(2))
