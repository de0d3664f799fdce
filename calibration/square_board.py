"""Design and print the Yushino board: board.png, board.json and a true-scale board.pdf.

The sheet is the 15 x 15 board of games.md (columns A..O left to right, rows 1..15 top to
bottom), each premium square filled with its colour (calibration.palette) and labelled ``2*``,
``3*``, ``2X`` or ``3X``, each square with its small address near its bottom edge (a tile hides
it), the column letters and row numbers around the grid, and the hex board's ring of ArUco
fiducial markers in a band around it (calibration.board_print.marker_ring), so that a board stage
finds it as it finds the hex board. board.json is calibration.square_geometry's, in millimetres.
board.pdf is vector drawing of the same geometry tiled over sheets (calibration.board_pdf).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from fpdf import FPDF

from calibration.board_print import ADDRESS_CAP_MM, LABEL_GREY, OUTLINE_GREY, OUTLINE_MM, marker_ring
from calibration.geometry import DEFAULT_DICTIONARY, MAX_SHEET_PIXELS
from calibration.palette import PLAIN_RGB, PREMIUM_RGB, ink_on
from calibration.paper import PAPER_MM, SheetPlan
from calibration.square_geometry import MAX_SQUARE_MM, SquareBoardGeometry, SquareGeometry
from engine.yushino.board import COLUMNS, SIZE, Layout, Square, classic_layout, format_square

#: Capital height of a premium's label and of the column letters and row numbers, millimetres.
PREMIUM_CAP_MM = 5.0
COORD_CAP_MM = 5.0
#: Grey of each square's own address (0 black .. 255 white), as faint as the hex board's.
ADDRESS_GREY = 150
#: Hershey capitals are about 22 units tall at font scale 1 (OpenCV's simplex font).
HERSHEY_CAP = 22.0


@dataclass(frozen=True, slots=True)
class SquareSpec:
    """What to print.

    Attributes:
        square_mm: side of a square, millimetres (25 by default: the seeds' practical tile width,
            MODLINSEQ §1-3, so tiles of one size and one reader serve both boards).
        dpi: board.png resolution.
        marker_mm: side of each fiducial marker, millimetres (as the hex board's).
        quiet_mm: white space around each marker, millimetres (as the hex board's).
        gutter_mm: room for the column letters and row numbers between grid and markers, mm.

    Raises:
        ValueError: a size out of range, or a board.png of more than MAX_SHEET_PIXELS.
    """

    square_mm: float = 25.0
    dpi: float = 150.0
    marker_mm: float = 36.0
    quiet_mm: float = 8.0
    gutter_mm: float = 10.0

    def __post_init__(self) -> None:
        if not 15.0 <= self.square_mm <= MAX_SQUARE_MM:
            raise ValueError(f"square_mm {self.square_mm!r} must be 15 to {MAX_SQUARE_MM:g}")
        if not 50 <= self.dpi <= 600:
            raise ValueError(f"dpi must be between 50 and 600, got {self.dpi!r}")
        if self.marker_mm < 10 or self.quiet_mm < 2 or self.gutter_mm < 2 * COORD_CAP_MM:
            raise ValueError(f"marker_mm >= 10, quiet_mm >= 2 and gutter_mm >= {2 * COORD_CAP_MM:g} needed, "
                             f"got {self.marker_mm}, {self.quiet_mm}, {self.gutter_mm}")
        w, h = (round(v * self.dpi / 25.4) for v in self.sheet_mm)
        if w * h > MAX_SHEET_PIXELS:
            raise ValueError(f"{w}x{h} board.png is more than {MAX_SHEET_PIXELS} pixels: lower the dpi")

    @property
    def grid_origin_mm(self) -> float:
        """Distance from the sheet's top-left corner to A1's top-left corner, along x and y (mm)."""
        return self.marker_mm + 2 * self.quiet_mm + self.gutter_mm

    @property
    def sheet_mm(self) -> tuple[float, float]:
        """The sheet's (width, height) in millimetres: grid, gutter and marker band."""
        side = SIZE * self.square_mm + 2 * self.grid_origin_mm
        return (side, side)


def design_square_board(spec: SquareSpec, layout: Layout | None = None) -> SquareBoardGeometry:
    """Lay out the squares (games.md: A..O, 1..15, premiums of ``layout``) and the markers.

    Args:
        spec: sizes.
        layout: the premium layout, None for the classic one.

    Returns:
        The board's geometry in millimetres.
    """
    layout = layout or classic_layout()
    o, s = spec.grid_origin_mm, spec.square_mm
    squares = {}
    for row in range(SIZE):
        for col in range(SIZE):
            square = Square(col, row)
            x, y = o + col * s, o + row * s
            address = format_square(square)
            squares[address] = SquareGeometry(
                address, ((x, y), (x + s, y), (x + s, y + s), (x, y + s)), layout.premiums.get(square)
            )
    markers = marker_ring(spec.sheet_mm, spec.marker_mm, spec.quiet_mm)
    return SquareBoardGeometry(SIZE, SIZE, s, spec.sheet_mm, spec.dpi, squares, markers, layout.name,
                               DEFAULT_DICTIONARY)


def board_label(geometry: SquareBoardGeometry) -> str:
    """The line printed under the board: what it is and its size."""
    return f"tilescribe Yushino board  layout {geometry.layout}  {geometry.square_mm:g} mm squares"


def coordinate_labels(geometry: SquareBoardGeometry) -> list[tuple[str, tuple[float, float]]]:
    """The column letters above and below the grid and the row numbers left and right of it:
    (text, centre in mm)."""
    a1 = geometry.squares["A1"].corners[0]
    s = geometry.square_mm
    far = (a1[0] + geometry.columns * s, a1[1] + geometry.rows * s)
    gap = COORD_CAP_MM  # label centres one capital off the grid: SquareSpec's gutter holds two
    out = []
    for col in range(geometry.columns):
        x = a1[0] + (col + 0.5) * s
        out += [(COLUMNS[col], (x, a1[1] - gap)), (COLUMNS[col], (x, far[1] + gap))]
    for row in range(geometry.rows):
        y = a1[1] + (row + 0.5) * s
        out += [(str(row + 1), (a1[0] - gap, y)), (str(row + 1), (far[0] + gap, y))]
    return out


def render_square_board(geometry: SquareBoardGeometry) -> np.ndarray:
    """Draw board.png: white paper, premium squares filled and labelled, outlines, addresses,
    coordinates and black fiducial markers.

    Returns:
        BGR uint8, H x W x 3, of ``geometry.image_size``.
    """
    w, h = geometry.image_size
    k = geometry.px_per_mm
    image = np.full((h, w, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX

    def text(words: str, centre: tuple[float, float], cap_mm: float, bgr: tuple[int, ...]) -> None:
        scale = cap_mm * k / HERSHEY_CAP
        thickness = max(1, round(cap_mm * k / 10))
        (tw, th), _ = cv2.getTextSize(words, font, scale, thickness)
        origin = (round(centre[0] * k - tw / 2), round(centre[1] * k + th / 2))
        cv2.putText(image, words, origin, font, scale, bgr, thickness, cv2.LINE_AA)

    def bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
        return (rgb[2], rgb[1], rgb[0])

    for sq in geometry.squares.values():
        if sq.premium is not None:
            corners = np.round(np.array(sq.corners) * k).astype(np.int32)
            cv2.fillConvexPoly(image, corners, bgr(PREMIUM_RGB[sq.premium]))
    polys = [np.round(np.array(sq.corners) * k * 16).astype(np.int32) for sq in geometry.squares.values()]
    line = max(1, round(OUTLINE_MM * k))
    cv2.polylines(image, polys, True, (OUTLINE_GREY,) * 3, line, cv2.LINE_AA, shift=4)
    for sq in geometry.squares.values():
        cx, cy = sq.center
        if sq.premium is not None:
            text(sq.premium, (cx, cy), PREMIUM_CAP_MM, bgr(ink_on(PREMIUM_RGB[sq.premium])))
        ink = (ADDRESS_GREY,) * 3 if sq.premium is None else bgr(ink_on(PREMIUM_RGB[sq.premium]))
        text(sq.address, (cx, cy + geometry.square_mm * 0.36), ADDRESS_CAP_MM, ink)
    for words, centre in coordinate_labels(geometry):
        text(words, centre, COORD_CAP_MM, (LABEL_GREY,) * 3)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, geometry.marker_dictionary))
    for m in geometry.markers:
        (x0, y0), _, (x1, _y1), _ = m.corners
        x0, y0, side = round(x0 * k), round(y0 * k), round((x1 - x0) * k)
        marker = cv2.aruco.generateImageMarker(dictionary, m.id, side, borderBits=1)
        image[y0:y0 + side, x0:x0 + side] = marker[:, :, None]
    text(board_label(geometry), (geometry.size_mm[0] / 2, geometry.size_mm[1] - 3), ADDRESS_CAP_MM,
         (LABEL_GREY,) * 3)
    return image


def write_square_pdf(geometry: SquareBoardGeometry, pdf_path: Path, paper: str) -> SheetPlan:
    """Write board.pdf: the square board at true scale on sheets of ``paper`` (vector: squares,
    fills, text in DejaVu Sans, markers as filled paths).

    Raises:
        ValueError: unknown paper name or marker dictionary.
        OSError: the file cannot be written, or DejaVu Sans is missing.
    """
    from calibration.board_pdf import (
        SheetWindow,
        draw_marker,
        font_size_pt,
        marker_modules,
        use_dejavu,
        write_tiled_pdf,
    )

    modules = {m.id: marker_modules(geometry.marker_dictionary, m.id) for m in geometry.markers}

    def centred(pdf: FPDF, window: SheetWindow, words: str, centre: tuple[float, float], cap_mm: float
                ) -> None:
        pdf.set_font_size(font_size_pt(cap_mm))
        x, y = window.page(centre)
        pdf.text(x - pdf.get_string_width(words) / 2, y + cap_mm / 2, words)

    def draw(pdf: FPDF, window: SheetWindow) -> None:
        shown = [sq for sq in geometry.squares.values() if window.shows(sq.corners)]
        pdf.set_line_width(OUTLINE_MM)
        pdf.set_draw_color(OUTLINE_GREY)
        for sq in shown:
            fill = PLAIN_RGB if sq.premium is None else PREMIUM_RGB[sq.premium]
            pdf.set_fill_color(*fill)
            pdf.polygon([window.page(p) for p in sq.corners], style="DF" if sq.premium else "D")
        pdf.set_font("dejavu", "B")
        for sq in shown:
            if sq.premium is not None:
                pdf.set_text_color(*ink_on(PREMIUM_RGB[sq.premium]))
                centred(pdf, window, sq.premium, sq.center, PREMIUM_CAP_MM)
        pdf.set_font("dejavu", "")
        for sq in shown:
            ink = (ADDRESS_GREY,) * 3 if sq.premium is None else ink_on(PREMIUM_RGB[sq.premium])
            pdf.set_text_color(*ink)
            centred(pdf, window, sq.address, (sq.center[0], sq.center[1] + geometry.square_mm * 0.36),
                    ADDRESS_CAP_MM)
        pdf.set_text_color(LABEL_GREY)
        for words, centre in coordinate_labels(geometry):
            centred(pdf, window, words, centre, COORD_CAP_MM)
        centred(pdf, window, board_label(geometry), (geometry.size_mm[0] / 2, geometry.size_mm[1] - 3),
                ADDRESS_CAP_MM)
        for marker in geometry.markers:
            if window.shows(marker.corners):
                draw_marker(pdf, window.page(marker.corners[0]), window.page(marker.corners[2]),
                            modules[marker.id])

    return write_tiled_pdf(geometry.size_mm, draw, pdf_path, paper, setup=use_dejavu)


def print_square_board(
    spec: SquareSpec, out_dir: str | Path, paper: str = "A3", layout: Layout | None = None
) -> SquareBoardGeometry:
    """Write board.png, board.json and board.pdf of the Yushino board into ``out_dir`` (created).

    Raises:
        ValueError: unknown paper name.
        OSError: ``out_dir`` cannot be written, or DejaVu Sans is missing.
    """
    if paper not in PAPER_MM:
        raise ValueError(f"unknown paper {paper!r}; choose one of {sorted(PAPER_MM)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    geometry = design_square_board(spec, layout)
    png = out / "board.png"
    if not cv2.imwrite(str(png), render_square_board(geometry)):
        raise OSError(f"cannot write {png}")
    geometry.save(out / "board.json")
    write_square_pdf(geometry, out / "board.pdf", paper)
    return geometry
