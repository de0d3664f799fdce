"""Design and print the MODLINSEQ board sheet: board.png, board.json and a true-scale board.pdf.

The sheet is a pointy-top hexagon of cells (§1-2) sized for the seeds' 25 mm tiles (§1-3): with the
default 32 mm between cell centres a tile leaves a few millimetres of paper around it. Faint
outlines and small faint addresses (near the bottom of each cell, so a tile hides them) help the
players; ArUco fiducial markers in a band around the cells let vision.board.locate find the board when
tiles and hands cover much of it. board.png is drawn here (OpenCV, at the sheet's dpi); board.pdf
is vector drawing of the same geometry (calibration.board_pdf), on sheets of calibration.paper.

Run ``python -m calibration.board_print OUT_DIR`` to write an order-9 board.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.geometry import (
    DEFAULT_DICTIONARY,
    MAX_CELL_MM,
    MAX_SHEET_PIXELS,
    BoardGeometry,
    CellGeometry,
    MarkerGeometry,
)
from calibration.layout import SQRT3, Layout
from calibration.paper import PAPER_MM
from engine.hexgrid import format_address, hexagon_cells
from engine.limits import MAX_ORDER

#: What board.png and board.pdf draw alike: grey levels (0 black .. 255 white), the outlines' width,
#: the addresses' capital height and their drop below the centre (a fraction of centre to flat).
OUTLINE_GREY = 185
ADDRESS_GREY = 175
LABEL_GREY = 120
OUTLINE_MM = 0.5
ADDRESS_CAP_MM = 2.4
ADDRESS_DROP = 0.78


def board_label(geometry: BoardGeometry) -> str:
    """The line printed under the board: what it is and its size."""
    return f"tilescribe MODLINSEQ board  order {geometry.order}  {geometry.cell_mm:g} mm cells"


@dataclass(frozen=True, slots=True)
class SheetSpec:
    """What to print.

    Attributes:
        order: hexagon order (rings 0..order), 9 for the seeds' standard board.
        cell_mm: distance between neighbouring cell centres, millimetres (>= 27 for 25 mm tiles).
        dpi: board.png resolution.
        marker_mm: side of each fiducial marker, millimetres.
        quiet_mm: white space around each marker and between markers and cells, millimetres.
    """

    order: int = 9
    cell_mm: float = 32.0
    dpi: float = 150.0
    marker_mm: float = 36.0
    quiet_mm: float = 8.0

    def __post_init__(self) -> None:
        if not 0 <= self.order <= MAX_ORDER:
            raise ValueError(f"board order must be 0 to {MAX_ORDER}, got {self.order!r}")
        if not 27.0 <= self.cell_mm <= MAX_CELL_MM:
            raise ValueError(f"cell_mm {self.cell_mm!r} must be 27 (25 mm tiles) to {MAX_CELL_MM:g}")
        if not 50 <= self.dpi <= 600:
            raise ValueError(f"dpi must be between 50 and 600, got {self.dpi!r}")
        if self.marker_mm < 10 or self.quiet_mm < 2:
            raise ValueError(
                f"marker_mm >= 10 and quiet_mm >= 2 needed, got {self.marker_mm}, {self.quiet_mm}"
            )
        w, h = (round(v * self.dpi / 25.4) for v in self.sheet_mm)
        if w * h > MAX_SHEET_PIXELS:
            raise ValueError(f"order {self.order} with {self.cell_mm:g} mm cells at {self.dpi:g} dpi makes a "
                             f"{w}x{h} board.png, more than {MAX_SHEET_PIXELS} pixels: lower the dpi")

    @property
    def sheet_mm(self) -> tuple[float, float]:
        """The sheet's (width, height) in millimetres: the cells and the marker band around them."""
        band = self.marker_mm + 2 * self.quiet_mm
        cells_w = (2 * self.order + 1) * self.cell_mm
        cells_h = (3 * self.order + 2) * (self.cell_mm / SQRT3)
        return cells_w + 2 * band, cells_h + 2 * band


def design_board(spec: SheetSpec) -> BoardGeometry:
    """Lay out cells and fiducial markers on the sheet (§1-2 addresses, §1-3 tile size).

    Returns:
        The board's geometry in board.png pixels at ``spec.dpi``.
    """
    ppm = spec.dpi / 25.4
    size_mm = spec.cell_mm / SQRT3
    sheet_w, sheet_h = spec.sheet_mm
    layout = Layout((sheet_w / 2 * ppm, sheet_h / 2 * ppm), size_mm * ppm)
    cells = {}
    for cell in hexagon_cells(spec.order):
        address = format_address(cell)
        cells[address] = CellGeometry(address, layout.hex_to_pixel(cell), tuple(layout.hex_corners(cell)))
    markers = marker_ring((sheet_w, sheet_h), spec.marker_mm, spec.quiet_mm, ppm)
    return BoardGeometry(spec.order, spec.cell_mm, (round(sheet_w * ppm), round(sheet_h * ppm)), spec.dpi,
                         cells, markers, layout, DEFAULT_DICTIONARY)


def marker_ring(
    sheet_mm: tuple[float, float], marker_mm: float, quiet_mm: float, scale: float = 1.0
) -> tuple[MarkerGeometry, ...]:
    """The ten fiducial markers in the band around a sheet: ids 0..9 clockwise from the top-left
    corner (four corners, two more along the top and the bottom, one mid-way down each side).

    Args:
        sheet_mm: (width, height) of the sheet, millimetres.
        marker_mm: side of each marker, millimetres.
        quiet_mm: white space between the sheet's edge and the markers, millimetres.
        scale: output units per millimetre (1.0 for millimetres, dpi / 25.4 for pixels).
    """
    sheet_w, sheet_h = sheet_mm
    q, m = quiet_mm, marker_mm
    left, right, top, bottom = q, sheet_w - q - m, q, sheet_h - q - m
    mid_y = (sheet_h - m) / 2
    third = (right - left) / 3
    # clockwise from the top-left corner
    origins = [(left, top), (left + third, top), (left + 2 * third, top), (right, top), (right, mid_y),
               (right, bottom), (left + 2 * third, bottom), (left + third, bottom), (left, bottom),
               (left, mid_y)]
    k = scale
    return tuple(
        MarkerGeometry(i, ((x * k, y * k), ((x + m) * k, y * k), ((x + m) * k, (y + m) * k),
                           (x * k, (y + m) * k)))
        for i, (x, y) in enumerate(origins)
    )


def render_board(geometry: BoardGeometry, scale: float = 1.0) -> np.ndarray:
    """Draw the sheet: white paper, faint cell outlines and addresses, black fiducial markers.

    Args:
        geometry: the board (from :func:`design_board` or board.json).
        scale: output pixels per board.png pixel (1.0 draws board.png itself).

    Returns:
        BGR uint8, H x W x 3, of size ``image_size * scale``.
    """
    w, h = (round(v * scale) for v in geometry.image_size)
    image = np.full((h, w, 3), 255, np.uint8)
    ppm = geometry.px_per_mm * scale
    line = max(1, round(OUTLINE_MM * ppm))
    polys = [np.round(np.array(c.corners) * scale * 16).astype(np.int32) for c in geometry.cells.values()]
    cv2.polylines(image, polys, True, (OUTLINE_GREY,) * 3, line, cv2.LINE_AA, shift=4)
    inner = geometry.layout.size * scale * SQRT3 / 2
    font = cv2.FONT_HERSHEY_SIMPLEX
    font_scale = ADDRESS_CAP_MM * ppm / 22.0  # Hershey capitals are about 22 units tall at scale 1
    thickness = max(1, round(0.25 * ppm))
    for c in geometry.cells.values():
        (tw, th), _ = cv2.getTextSize(c.address, font, font_scale, thickness)
        x = c.center[0] * scale - tw / 2
        y = c.center[1] * scale + ADDRESS_DROP * inner
        cv2.putText(image, c.address, (round(x), round(y)), font, font_scale, (ADDRESS_GREY,) * 3,
                    thickness, cv2.LINE_AA)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, geometry.marker_dictionary))
    for m in geometry.markers:
        (x0, y0), _, (x1, y1), _ = m.corners
        x0, y0, x1, y1 = (round(v * scale) for v in (x0, y0, x1, y1))
        side = x1 - x0
        marker = cv2.aruco.generateImageMarker(dictionary, m.id, side, borderBits=1)
        image[y0:y0 + side, x0:x0 + side] = marker[:, :, None]
    cv2.putText(image, board_label(geometry), (round(w * 0.35), round(h - 3 * ppm)), font, font_scale,
                (LABEL_GREY,) * 3, thickness, cv2.LINE_AA)
    return image


def print_board(spec: SheetSpec, out_dir: str | Path, paper: str = "A3") -> BoardGeometry:
    """Write board.png, board.json and board.pdf into ``out_dir`` (created if missing).

    Raises:
        ValueError: unknown paper name.
        OSError: ``out_dir`` cannot be written.
    """
    if paper not in PAPER_MM:
        raise ValueError(f"unknown paper {paper!r}; choose one of {sorted(PAPER_MM)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    geometry = design_board(spec)
    png = out / "board.png"
    if not cv2.imwrite(str(png), render_board(geometry)):
        raise OSError(f"cannot write {png}")
    geometry.save(out / "board.json")
    from calibration.board_pdf import write_pdf  # fpdf loads only to print

    write_pdf(geometry, out / "board.pdf", paper)
    return geometry


if __name__ == "__main__":
    print_board(SheetSpec(), sys.argv[1] if len(sys.argv) > 1 else ".")
