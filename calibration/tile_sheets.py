"""Print-and-play tile sheets: every tile of a game's set as vector drawing with its cut line.

- Yushino: the 96 tiles of seed §6 (engine.yushino.DISTRIBUTION), squares 2 mm smaller than the
  printed board's squares (calibration.square_board), the digit (``#`` for a blank) with a bar
  under it that shows which way is up; squares are butted, so one cut serves two tiles.
- Holominoes: the 40 tiles of games.md (engine.holominoes.tile_set), flat-topped hexagons with the
  numbers upright at the E, SW and NW corners in the transcript's frame (the first number at E) and
  round bites cut out of the NE, W and SE corners.
- MODLINSEQ: a set for one modulus, counts from the tile-set profile (calibration/tilesets_data,
  §1-3), regular pentagons apex up 25 mm wide (§1-3), plus the modulus marker (§8) that shows 0
  and its modulus.

Text is DejaVu Sans; outlines are black 0.2 mm cut lines. ``tiles.json`` beside ``tiles.pdf``
lists every tile's face, page and centre (mm from the page's top-left corner).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from calibration.board_pdf import font_size_pt, use_dejavu
from calibration.paper import PAPER_MM, PRINTER_MARGIN_MM
from calibration.tilesets import load_tileset

Point = tuple[float, float]

CUT_MM = 0.2  # a cut line thin enough to vanish under a blade, dark enough to follow
TITLE_CAP_MM = 3.0
#: Room left at the top of each page for its title line, millimetres.
TITLE_MM = 8.0
#: Yushino tiles are this much smaller than the board's squares (1 mm of play on each side).
YUSHINO_PLAY_MM = 2.0
#: Holominoes: a tile's radius (centre to corner), the bite's radius, and where the numbers sit
#: (a fraction of the radius from the centre towards their corner); chosen for a 20 mm tile whose
#: digits stay clear of the bites and of one another.
HOLO_RADIUS_MM = 20.0
HOLO_BITE = 0.28
HOLO_DIGIT_AT = 0.58
#: MODLINSEQ §1-3: a pentagon 25 mm wide.
PENTAGON_WIDTH_MM = 25.0
#: Gap between hexagons or pentagons on the sheet (each is cut on its own), millimetres.
GAP_MM = 3.0
GAMES = ("Yushino", "Holominoes", "MODLINSEQ")


@dataclass(frozen=True, slots=True)
class TileShape:
    """How one game's tiles look.

    Attributes:
        outline: the cut line's corners around (0, 0), millimetres, y down.
        width, height: the bounding box, millimetres.
        gap: space between neighbouring tiles on the sheet, millimetres.
        draw: draws a face's print (digits, marks) centred on a page point.
    """

    outline: tuple[Point, ...]
    width: float
    height: float
    gap: float
    draw: Callable[[FPDF, str, Point], None]


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on a sheet: its face, its page (from 1) and its centre (mm from the page's corner)."""

    face: str
    page: int
    center: Point


def _centred(pdf: FPDF, words: str, centre: Point, cap_mm: float, bold: bool = True) -> tuple[float, float]:
    """Write ``words`` centred on ``centre`` with capitals ``cap_mm`` tall; its (left, right) in mm."""
    pdf.set_font("dejavu", "B" if bold else "", font_size_pt(cap_mm))
    width = pdf.get_string_width(words)
    pdf.text(centre[0] - width / 2, centre[1] + cap_mm / 2, words)
    return centre[0] - width / 2, centre[0] + width / 2


def yushino_shape(square_mm: float = 25.0) -> TileShape:
    """Yushino's square tile for a board of ``square_mm`` squares: digit, bar under it (up)."""
    side = square_mm - YUSHINO_PLAY_MM
    h = side / 2
    cap = side * 0.5

    def draw(pdf: FPDF, face: str, c: Point) -> None:
        left, right = _centred(pdf, face, (c[0], c[1] - side * 0.04), cap)
        bar_y = c[1] - side * 0.04 + cap / 2 + side * 0.1
        pdf.set_fill_color(0)
        pdf.rect(left, bar_y, right - left, side * 0.05, style="F")

    return TileShape(((-h, -h), (h, -h), (h, h), (-h, h)), side, side, 0.0, draw)


def _bitten_hexagon(radius: float, bite: float) -> tuple[Point, ...]:
    """A flat-topped hexagon's outline with round bites at NE, W and SE (clockwise from E, y down)."""
    corners = [(radius * math.cos(math.radians(60 * i)), radius * math.sin(math.radians(60 * i)))
               for i in range(6)]  # E, SE, SW, W, NW, NE
    bitten = {1, 3, 5}  # SE, W, NE
    out: list[Point] = []
    for i, (px, py) in enumerate(corners):
        if i not in bitten:
            out.append((px, py))
            continue
        prev, nxt = corners[i - 1], corners[(i + 1) % 6]
        start = math.atan2(prev[1] - py, prev[0] - px)
        end = math.atan2(nxt[1] - py, nxt[0] - px)
        sweep = (end - start + math.pi) % (2 * math.pi) - math.pi  # the 120 degrees inside the tile
        for k in range(9):
            a = start + sweep * k / 8
            out.append((px + bite * math.cos(a), py + bite * math.sin(a)))
    return tuple(out)


def holominoes_shape(radius: float = HOLO_RADIUS_MM) -> TileShape:
    """Holominoes' bitten hexagon with upright numbers at E, SW and NW (the face is ``"132"``)."""
    outline = _bitten_hexagon(radius, HOLO_BITE * radius)
    cap = radius * 0.3

    def draw(pdf: FPDF, face: str, c: Point) -> None:
        for digit, angle in zip(face, (0, 120, 240), strict=True):  # E, SW, NW (y down)
            a = math.radians(angle)
            at = (c[0] + HOLO_DIGIT_AT * radius * math.cos(a), c[1] + HOLO_DIGIT_AT * radius * math.sin(a))
            _centred(pdf, digit, at, cap)

    return TileShape(outline, 2 * radius, math.sqrt(3) * radius, GAP_MM, draw)


def pentagon_shape(width: float = PENTAGON_WIDTH_MM, modulus: int = 13) -> TileShape:
    """MODLINSEQ's regular pentagon, apex up, ``width`` wide; the marker face shows 0 and ``mod M``."""
    radius = width / (2 * math.sin(math.radians(72)))
    angles = [math.radians(72 * i) for i in range(5)]  # clockwise from the apex
    pts = [(radius * math.sin(a), -radius * math.cos(a)) for a in angles]
    top, bottom = -radius, max(y for _, y in pts)
    mid = (top + bottom) / 2  # centre of the bounding box, where the sheet places the tile
    outline = tuple((x, y - mid) for x, y in pts)
    cap = width * 0.34

    def draw(pdf: FPDF, face: str, c: Point) -> None:
        y = c[1] + (bottom - mid) * 0.15  # a little below the box's middle: the pentagon is widest there
        if face == "marker":
            _centred(pdf, "0", (c[0], y - cap * 0.15), cap * 0.8)
            _centred(pdf, f"mod {modulus}", (c[0], y + cap * 0.55), cap * 0.3, bold=False)
        else:
            _centred(pdf, face, (c[0], y), cap if len(face) == 1 else cap * 0.8)

    return TileShape(outline, width, bottom - top, GAP_MM, draw)


def tile_faces(game: str, modulus: int = 13) -> list[str]:
    """Every tile of the game's set, one face per tile, in print order.

    Args:
        game: "Yushino", "Holominoes" or "MODLINSEQ".
        modulus: MODLINSEQ's modulus (2 up to one more than the profile's highest number).

    Raises:
        ValueError: an unknown game, or a modulus the MODLINSEQ profile has no numbers for.
    """
    if game == "Yushino":
        from engine.yushino import DISTRIBUTION

        return [face for face, n in DISTRIBUTION.items() for _ in range(n)]
    if game == "Holominoes":
        from engine.holominoes import format_tile, tile_set

        return [format_tile(t) for t in tile_set(6)]
    if game == "MODLINSEQ":
        profile = load_tileset("modlinseq")
        numbers = [f for f in profile.faces if f.isdigit()]
        if not 2 <= modulus <= len(numbers):
            raise ValueError(f"modulus {modulus}: the MODLINSEQ set has numbers for moduli 2 to "
                             f"{len(numbers)}")
        faces = [f for f in numbers if profile.value(f, modulus) is not None]
        return [f for f in (*faces, "marker") for _ in range(profile.count(f))]
    raise ValueError(f"no tile sheet for {game!r}; choose one of {', '.join(GAMES)}")


def shape_for(game: str, modulus: int = 13, square_mm: float = 25.0) -> TileShape:
    """The tile shape of ``game`` (see :func:`tile_faces` for the names).

    Raises:
        ValueError: an unknown game.
    """
    if game == "Yushino":
        return yushino_shape(square_mm)
    if game == "Holominoes":
        return holominoes_shape()
    if game == "MODLINSEQ":
        return pentagon_shape(modulus=modulus)
    raise ValueError(f"no tile sheet for {game!r}; choose one of {', '.join(GAMES)}")


def lay_out(faces: list[str], shape: TileShape, paper: str) -> tuple[tuple[float, float], list[PlacedTile]]:
    """Place the tiles row by row on portrait pages of ``paper`` inside the printer margins.

    Returns:
        The page size (mm) and every tile placed.

    Raises:
        ValueError: unknown paper, or a tile larger than the printable area.
    """
    if paper not in PAPER_MM:
        raise ValueError(f"unknown paper {paper!r}; choose one of {sorted(PAPER_MM)}")
    page_w, page_h = PAPER_MM[paper]
    usable_w = page_w - 2 * PRINTER_MARGIN_MM
    usable_h = page_h - 2 * PRINTER_MARGIN_MM - TITLE_MM
    pitch_x, pitch_y = shape.width + shape.gap, shape.height + shape.gap
    cols = int((usable_w + shape.gap) // pitch_x)
    rows = int((usable_h + shape.gap) // pitch_y)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {shape.width:.0f} x {shape.height:.0f} mm tile does not fit on {paper}")
    left = PRINTER_MARGIN_MM + (usable_w - (cols * pitch_x - shape.gap)) / 2
    top = PRINTER_MARGIN_MM + TITLE_MM
    placed = []
    for i, face in enumerate(faces):
        page, slot = divmod(i, cols * rows)
        row, col = divmod(slot, cols)
        centre = (left + col * pitch_x + shape.width / 2, top + row * pitch_y + shape.height / 2)
        placed.append(PlacedTile(face, page + 1, centre))
    return (page_w, page_h), placed


def write_tile_sheets(
    game: str, out_dir: str | Path, paper: str = "A4", modulus: int = 13, square_mm: float = 25.0
) -> list[PlacedTile]:
    """Write ``tiles.pdf`` and ``tiles.json`` of ``game``'s set into ``out_dir`` (created).

    Args:
        game: "Yushino", "Holominoes" or "MODLINSEQ".
        out_dir: the folder.
        paper: a key of calibration.paper.PAPER_MM.
        modulus: MODLINSEQ's modulus.
        square_mm: the Yushino board's square side (the tiles are 2 mm smaller).

    Returns:
        Every tile placed.

    Raises:
        ValueError: an unknown game or paper, or a modulus the set has no numbers for.
        OSError: the folder cannot be written, or DejaVu Sans is missing.
    """
    faces = tile_faces(game, modulus)
    shape = shape_for(game, modulus, square_mm)
    page_mm, placed = lay_out(faces, shape, paper)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pdf = FPDF(unit="mm", format=page_mm)
    pdf.set_auto_page_break(False)
    pdf.set_creator("tilescribe")
    use_dejavu(pdf)
    pages = placed[-1].page
    what = f"{game} modulus {modulus}" if game == "MODLINSEQ" else game
    for page in range(1, pages + 1):
        pdf.add_page()
        pdf.set_text_color(0)
        pdf.set_font("dejavu", "", font_size_pt(TITLE_CAP_MM))
        pdf.text(PRINTER_MARGIN_MM, PRINTER_MARGIN_MM + TITLE_CAP_MM,
                 f"tilescribe {what}: {len(faces)} tiles, sheet {page}/{pages}; cut along the black lines")
        pdf.set_draw_color(0)
        pdf.set_line_width(CUT_MM)
        for tile in (t for t in placed if t.page == page):
            cx, cy = tile.center
            pdf.polygon([(cx + x, cy + y) for x, y in shape.outline], style="D")
            shape.draw(pdf, tile.face, tile.center)
    pdf.output(str(out / "tiles.pdf"))
    tiles = [{"face": t.face, "page": t.page, "center": [round(v, 3) for v in t.center]} for t in placed]
    doc: dict[str, object] = {"game": game, "paper": paper, "page_mm": list(page_mm),
                              "tile_mm": [shape.width, shape.height], "tiles": tiles}
    if game == "MODLINSEQ":
        doc["modulus"] = modulus
    (out / "tiles.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return placed
