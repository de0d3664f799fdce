"""board.pdf as vector drawing: the board at true scale, tiled over sheets when it does not fit.

Everything is drawn from board.json's geometry in millimetres, with nothing rasterised: each cell
is a polygon, each ArUco fiducial marker one filled path of black squares taken from the
dictionary's bit pattern (so its corners lie exactly where board.json puts them), each address
and the sheet's label is text. Sheets are laid out by calibration.paper; neighbouring sheets share
an overlap strip whose middle line carries alignment crosses (the same board points on both), and
each sheet names its row and column.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
from fpdf import FPDF
from fpdf.enums import PathPaintRule

from calibration.board_print import (
    ADDRESS_CAP_MM,
    ADDRESS_DROP,
    ADDRESS_GREY,
    LABEL_GREY,
    OUTLINE_GREY,
    OUTLINE_MM,
    board_label,
)
from calibration.geometry import BoardGeometry
from calibration.layout import SQRT3
from calibration.paper import OVERLAP_MM, PRINTER_MARGIN_MM, Sheet, SheetPlan, plan_sheets

HELVETICA_CAP = 0.718  # Helvetica's capital height per em
DEJAVU_CAP = 0.729  # DejaVu Sans's capital (and digit) height per em
PT_PER_MM = 72 / 25.4
#: DejaVu Sans (Debian's fonts-dejavu-core), regular and bold.
DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")


def use_dejavu(pdf: FPDF) -> None:
    """Add DejaVu Sans to ``pdf`` as family ``"dejavu"`` (styles "" and "B").

    Raises:
        OSError: the fonts are not installed (the message names the package).
    """
    for style, name in (("", "DejaVuSans.ttf"), ("B", "DejaVuSans-Bold.ttf")):
        path = DEJAVU_DIR / name
        if not path.is_file():
            raise OSError(f"font {path} is missing: install fonts-dejavu-core")
        pdf.add_font("dejavu", style, str(path))


def font_size_pt(cap_mm: float) -> float:
    """The DejaVu Sans size (points) whose capitals and digits are ``cap_mm`` tall."""
    return cap_mm / DEJAVU_CAP * PT_PER_MM


def board_size_mm(geometry: BoardGeometry) -> tuple[float, float]:
    """(width, height) of the printed board in millimetres."""
    return (geometry.image_size[0] / geometry.px_per_mm, geometry.image_size[1] / geometry.px_per_mm)


def marker_modules(dictionary_name: str, marker_id: int) -> list[list[bool]]:
    """The marker's modules, border included, row by row from the top; True is black.

    Args:
        dictionary_name: a cv2.aruco predefined dictionary ("DICT_4X4_50").
        marker_id: the marker's id in it.

    Returns:
        (n + 2) rows of (n + 2) booleans, n the dictionary's marker size in bits.

    Raises:
        ValueError: unknown dictionary, or an id the dictionary does not hold.
    """
    if not hasattr(cv2.aruco, dictionary_name):
        raise ValueError(f"unknown ArUco dictionary {dictionary_name!r}")
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary_name))
    if not 0 <= marker_id < len(dictionary.bytesList):
        raise ValueError(f"marker id {marker_id} is not in {dictionary_name}")
    side = dictionary.markerSize + 2
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, side, borderBits=1)  # one pixel a module
    return [[bool(v == 0) for v in row] for row in image]


@dataclass(frozen=True, slots=True)
class SheetWindow:
    """Where one sheet of a tiled print shows the board: page mm = board mm + ``offset``.

    Attributes:
        offset: (dx, dy) in millimetres from board to page coordinates.
        printable_mm: (width, height) of the sheet's printable area (it starts at the printer margin).
    """

    offset: tuple[float, float]
    printable_mm: tuple[float, float]

    def page(self, p: tuple[float, float]) -> tuple[float, float]:
        """The page point (mm) of the board point ``p`` (mm)."""
        return (p[0] + self.offset[0], p[1] + self.offset[1])

    def shows(self, corners: Sequence[tuple[float, float]], reach: float = OUTLINE_MM) -> bool:
        """True when the shape with these board corners (mm), grown by ``reach`` mm (a stroke
        reaches past its corners), meets the printable area."""
        xs, ys = zip(*(self.page(p) for p in corners), strict=True)
        lo = PRINTER_MARGIN_MM - reach
        hi_x, hi_y = (PRINTER_MARGIN_MM + reach + v for v in self.printable_mm)
        return max(xs) > lo and min(xs) < hi_x and max(ys) > lo and min(ys) < hi_y


def write_tiled_pdf(
    board_mm: tuple[float, float],
    draw: Callable[[FPDF, SheetWindow], None],
    pdf_path: Path,
    paper: str,
    setup: Callable[[FPDF], None] | None = None,
) -> SheetPlan:
    """Write a board of ``board_mm`` (width, height) at true scale on sheets of ``paper``.

    Args:
        board_mm: the board's size in millimetres.
        draw: draws the board on one sheet through its window (the caller's drawing is clipped
            to the printable area).
        pdf_path: the file to write.
        paper: a key of calibration.paper.PAPER_MM.
        setup: called once on the new document (to add fonts), or None.

    Returns:
        The sheets written.

    Raises:
        ValueError: unknown paper name.
        OSError: the file cannot be written.
    """
    plan = plan_sheets(board_mm, paper)
    pdf = FPDF(unit="mm", format=plan.page_mm)
    pdf.set_auto_page_break(False)
    pdf.set_creator("tilescribe")
    if setup is not None:
        setup(pdf)
    uw, uh = plan.printable_mm
    for sheet in plan.sheets:
        pdf.add_page()
        offset = (PRINTER_MARGIN_MM - sheet.origin_mm[0], PRINTER_MARGIN_MM - sheet.origin_mm[1])
        window = SheetWindow(offset, plan.printable_mm)
        with pdf.rect_clip(PRINTER_MARGIN_MM, PRINTER_MARGIN_MM, uw, uh):
            draw(pdf, window)
        if len(plan.sheets) > 1:
            _alignment_marks(pdf, plan, sheet)
    pdf.output(str(pdf_path))
    return plan


def write_pdf(geometry: BoardGeometry, pdf_path: Path, paper: str) -> SheetPlan:
    """Write board.pdf: the hex board at true scale on sheets of ``paper``.

    Args:
        geometry: the board (board.json); its pixel coordinates become millimetres.
        pdf_path: the file to write.
        paper: a key of calibration.paper.PAPER_MM.

    Returns:
        The sheets written (their page size and each one's part of the board).

    Raises:
        ValueError: unknown paper name or marker dictionary.
        OSError: the file cannot be written.
    """
    modules = {m.id: marker_modules(geometry.marker_dictionary, m.id) for m in geometry.markers}
    def draw(pdf: FPDF, window: SheetWindow) -> None:
        _draw_board(pdf, geometry, window, modules)

    return write_tiled_pdf(board_size_mm(geometry), draw, pdf_path, paper)


def _draw_board(
    pdf: FPDF, geometry: BoardGeometry, window: SheetWindow, modules: dict[int, list[list[bool]]]
) -> None:
    """The board placed for one sheet: the cells and markers that reach into its printable area
    (the caller clips to it), and the label."""
    ppm = geometry.px_per_mm

    def mm(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] / ppm, p[1] / ppm)

    def page(p: tuple[float, float]) -> tuple[float, float]:
        return window.page(mm(p))

    cells = [cell for cell in geometry.cells.values() if window.shows([mm(p) for p in cell.corners])]
    pdf.set_draw_color(OUTLINE_GREY)
    pdf.set_line_width(OUTLINE_MM)
    for cell in cells:
        pdf.polygon([page(p) for p in cell.corners], style="D")
    pdf.set_font("helvetica", size=ADDRESS_CAP_MM / HELVETICA_CAP * PT_PER_MM)
    pdf.set_text_color(ADDRESS_GREY)
    inner = geometry.layout.size * SQRT3 / 2  # centre to flat, pixels
    for cell in cells:
        x, y = page((cell.center[0], cell.center[1] + ADDRESS_DROP * inner))
        pdf.text(x - pdf.get_string_width(cell.address) / 2, y, cell.address)
    for marker in geometry.markers:
        if window.shows([mm(p) for p in marker.corners]):
            draw_marker(pdf, page(marker.corners[0]), page(marker.corners[2]), modules[marker.id])
    width, height = board_size_mm(geometry)
    pdf.set_text_color(LABEL_GREY)
    x, y = window.page((width * 0.35, height - 3))
    pdf.text(x, y, board_label(geometry))


def draw_marker(
    pdf: FPDF, top_left: tuple[float, float], bottom_right: tuple[float, float], modules: list[list[bool]]
) -> None:
    """One marker as a single filled path (no seams between its black modules), between its
    top-left and bottom-right page points (mm)."""
    n = len(modules)
    step_x = (bottom_right[0] - top_left[0]) / n
    step_y = (bottom_right[1] - top_left[1]) / n
    with pdf.new_path(paint_rule=PathPaintRule.FILL_NONZERO) as path:
        path.style.fill_color = "#000000"
        for i, row in enumerate(modules):
            j = 0
            while j < n:  # each run of black modules in a row as one rectangle
                if not row[j]:
                    j += 1
                    continue
                start = j
                while j < n and row[j]:
                    j += 1
                path.rectangle(
                    top_left[0] + start * step_x, top_left[1] + i * step_y, (j - start) * step_x, step_y
                )


def _alignment_marks(pdf: FPDF, plan: SheetPlan, sheet: Sheet) -> None:
    """The sheet's alignment crosses (:meth:`SheetPlan.crosses`) and its name."""
    m = PRINTER_MARGIN_MM
    pdf.set_draw_color(0)
    pdf.set_line_width(0.2)
    for x, y in plan.crosses(sheet):
        _cross(pdf, x, y)
    pdf.set_font("helvetica", size=7)
    pdf.set_text_color(0)
    pdf.text(
        m,
        plan.page_mm[1] - 4,
        f"sheet row {sheet.row + 1}/{plan.rows} column {sheet.col + 1}/{plan.cols}: "
        f"overlap the {OVERLAP_MM:g} mm strips, match the crosses",
    )


def _cross(pdf: FPDF, x: float, y: float) -> None:
    pdf.line(x - 4, y, x + 4, y)
    pdf.line(x, y - 4, x, y + 4)
    pdf.circle(x=x, y=y, radius=2)
