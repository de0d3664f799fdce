"""Paper sizes and how a true-scale board is tiled over sheets of them (pure arithmetic).

A board larger than the printable area of one sheet is cut into a grid of sheets; neighbouring
sheets share an overlap strip of :data:`OVERLAP_MM` whose middle line carries alignment crosses
(:meth:`SheetPlan.crosses`; calibration.board_pdf draws them). This module only decides the grid,
where each sheet's printable area lies on the board and where its crosses go, so that the command
line can list the paper sizes without loading the PDF or image libraries.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Paper sizes (width, height) in millimetres, portrait.
PAPER_MM: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "A3": (297.0, 420.0),
    "A2": (420.0, 594.0),
    "letter": (215.9, 279.4),
    "tabloid": (279.4, 431.8),
}
PRINTER_MARGIN_MM = 10.0  # unprintable edge assumed on every sheet
OVERLAP_MM = 10.0  # shared strip between neighbouring sheets of a tiled print


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet of a tiled print.

    Attributes:
        row, col: the sheet's place in the grid, from 0 (top-left).
        origin_mm: the board point (x, y), in millimetres from the board's top-left corner, that
            lies at the top-left corner of the sheet's printable area; it may be negative when
            the board is smaller than the area (the board is then centred).
    """

    row: int
    col: int
    origin_mm: tuple[float, float]

    def __post_init__(self) -> None:
        if self.row < 0 or self.col < 0:
            raise ValueError(f"sheet row and column must be >= 0, got {self.row}, {self.col}")

    def page_to_board_mm(self, x: float, y: float) -> tuple[float, float]:
        """The board point (mm) printed at the page point (x, y) (mm from the page's top-left)."""
        return (x - PRINTER_MARGIN_MM + self.origin_mm[0], y - PRINTER_MARGIN_MM + self.origin_mm[1])


@dataclass(frozen=True, slots=True)
class SheetPlan:
    """A true-scale print of a board on sheets of one paper size.

    Attributes:
        page_mm: (width, height) of each page in millimetres, in the chosen orientation.
        cols, rows: the grid of sheets.
        sheets: every sheet, row by row.
    """

    page_mm: tuple[float, float]
    cols: int
    rows: int
    sheets: tuple[Sheet, ...]

    def __post_init__(self) -> None:
        if self.cols < 1 or self.rows < 1 or len(self.sheets) != self.cols * self.rows:
            raise ValueError(
                f"a {self.cols} x {self.rows} grid needs that many sheets, got {len(self.sheets)}"
            )

    @property
    def printable_mm(self) -> tuple[float, float]:
        """(width, height) of each page's printable area in millimetres."""
        return (self.page_mm[0] - 2 * PRINTER_MARGIN_MM, self.page_mm[1] - 2 * PRINTER_MARGIN_MM)

    def crosses(self, sheet: Sheet) -> list[tuple[float, float]]:
        """Where ``sheet``'s alignment crosses go: page points (mm from the page's top-left).

        Three along the middle line of each overlap strip the sheet shares with a neighbour; the
        neighbour prints its own three at the same board points, so laid over each other they meet.
        """
        m, half = PRINTER_MARGIN_MM, OVERLAP_MM / 2
        uw, uh = self.printable_mm
        xs = [m + half] if sheet.col > 0 else []
        xs += [m + uw - half] if sheet.col < self.cols - 1 else []
        ys = [m + half] if sheet.row > 0 else []
        ys += [m + uh - half] if sheet.row < self.rows - 1 else []
        return [(x, m + uh * f) for x in xs for f in (0.25, 0.5, 0.75)] + [
            (m + uw * f, y) for y in ys for f in (0.25, 0.5, 0.75)
        ]


def _count(board: float, usable: float) -> int:
    return 1 if board <= usable else math.ceil((board - OVERLAP_MM) / (usable - OVERLAP_MM))


def plan_sheets(board_mm: tuple[float, float], paper: str) -> SheetPlan:
    """The orientation of ``paper`` that needs the fewest sheets, and each sheet's part of the board.

    Args:
        board_mm: (width, height) of the board in millimetres.
        paper: a key of :data:`PAPER_MM`.

    Raises:
        ValueError: unknown paper name.
    """
    if paper not in PAPER_MM:
        raise ValueError(f"unknown paper {paper!r}; choose one of {sorted(PAPER_MM)}")
    pw, ph = PAPER_MM[paper]
    # portrait first: on a tie it wins
    (pw, ph), cols, rows = min(
        (
            (
                (w, h),
                _count(board_mm[0], w - 2 * PRINTER_MARGIN_MM),
                _count(board_mm[1], h - 2 * PRINTER_MARGIN_MM),
            )
            for w, h in ((pw, ph), (ph, pw))
        ),
        key=lambda option: option[1] * option[2],
    )
    uw, uh = pw - 2 * PRINTER_MARGIN_MM, ph - 2 * PRINTER_MARGIN_MM
    sheets = tuple(
        Sheet(
            row,
            col,
            (
                col * (uw - OVERLAP_MM) if cols > 1 else (board_mm[0] - uw) / 2,
                row * (uh - OVERLAP_MM) if rows > 1 else (board_mm[1] - uh) / 2,
            ),
        )
        for row in range(rows)
        for col in range(cols)
    )
    return SheetPlan((pw, ph), cols, rows, sheets)
