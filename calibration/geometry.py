"""The printed board's geometry: board.json as a value.

board.json holds, in board.png pixels, every cell's centre and six corners and every fiducial
marker's four corners (ArUco order: top-left, top-right, bottom-right, bottom-left)::

    {"order": 9, "cell_mm": 32, "image_size": [w, h],
     "cells": {"A0": {"center": [x, y], "corners": [[x, y], ... 6]}, ...},
     "markers": [{"id": 0, "corners": [[x, y], ... 4]}, ...],
     "dpi": 150, "marker_dictionary": "DICT_4X4_50", "layout": {"origin": [x, y], "size": s}}

The last three keys were added later; files without them still load (dpi defaults to
150, the dictionary to DICT_4X4_50, and the layout is recovered from the cell centres).
A square board's board.json says ``"kind": "square"`` (calibration.square_geometry); this module
refuses it. A hex board's has no ``kind`` (or ``"hex"``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from calibration.files import InputFileError, read_text
from calibration.layout import Layout
from engine.hexgrid import Hex, format_address, parse_address
from engine.limits import MAX_ORDER

Point = tuple[float, float]

DEFAULT_DICTIONARY = "DICT_4X4_50"

#: Widest cell (mm between centres): the largest tiles sold are about 60 mm; more is a mistyped unit.
MAX_CELL_MM = 100.0

#: Most pixels in board.png: OpenCV draws it in memory (80 MP is 240 MB of BGR), and an order-30
#: board at 150 dpi (129 MP) is better printed from board.pdf at a lower --dpi.
MAX_SHEET_PIXELS = 80_000_000


class BoardFileError(ValueError):
    """board.json is missing, malformed or inconsistent; the message names the file and key."""


@dataclass(frozen=True, slots=True)
class CellGeometry:
    """One cell of the printed board in board.png pixels.

    Attributes:
        address: the cell's address ("A0", "B14", ...).
        center: (x, y) of the cell's centre.
        corners: the six corners, clockwise from the top corner.
    """

    address: str
    center: Point
    corners: tuple[Point, ...]

    def __post_init__(self) -> None:
        if len(self.corners) != 6:
            raise ValueError(f"cell {self.address}: expected 6 corners, got {len(self.corners)}")

    @property
    def cell(self) -> Hex:
        """The cell's axial coordinates."""
        return parse_address(self.address)


@dataclass(frozen=True, slots=True)
class MarkerGeometry:
    """One ArUco fiducial marker printed on the sheet, in board.png pixels.

    Attributes:
        id: marker id in the board's ArUco dictionary.
        corners: four corners in ArUco order (top-left, top-right, bottom-right, bottom-left).
    """

    id: int
    corners: tuple[Point, Point, Point, Point]

    def __post_init__(self) -> None:
        if self.id < 0 or len(self.corners) != 4:
            raise ValueError(f"marker {self.id}: needs id >= 0 and 4 corners, got {len(self.corners)}")


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Everything known about a printed board, in board.png pixels.

    Attributes:
        order: order of the hexagon (rings 0..order).
        cell_mm: distance between neighbouring cell centres on paper, millimetres.
        image_size: (width, height) of board.png in pixels.
        dpi: board.png resolution, dots per inch.
        cells: address -> cell geometry, in address order.
        markers: the fiducial markers, by increasing id.
        layout: pixel <-> hex mapping in board.png pixels.
        marker_dictionary: name of the cv2.aruco predefined dictionary ("DICT_4X4_50").
    """

    order: int
    cell_mm: float
    image_size: tuple[int, int]
    dpi: float
    cells: Mapping[str, CellGeometry]
    markers: tuple[MarkerGeometry, ...]
    layout: Layout
    marker_dictionary: str = DEFAULT_DICTIONARY

    def __post_init__(self) -> None:
        if not 0 <= self.order <= MAX_ORDER or not 0 < self.cell_mm <= MAX_CELL_MM or not self.dpi > 0:
            raise ValueError(f"board needs order 0 to {MAX_ORDER}, cell_mm 0 to {MAX_CELL_MM:g}, dpi > 0; "
                             f"got {self.order}, {self.cell_mm}, {self.dpi}")
        w, h = self.image_size
        if not (w >= 1 and h >= 1 and w * h <= MAX_SHEET_PIXELS):
            raise ValueError(f"image_size {w}x{h}: need 1 to {MAX_SHEET_PIXELS} pixels")
        if not self.cells:
            raise ValueError("board has no cells")
        if len(self.markers) < 2:
            raise ValueError(f"board needs at least 2 fiducial markers, got {len(self.markers)}")
        ids = [m.id for m in self.markers]
        if len(set(ids)) != len(ids):
            raise ValueError(f"duplicate marker ids {ids}")
        object.__setattr__(self, "cells", MappingProxyType(dict(self.cells)))

    @property
    def px_per_mm(self) -> float:
        """board.png pixels per millimetre of paper."""
        return self.dpi / 25.4

    def marker(self, marker_id: int) -> MarkerGeometry:
        """The marker with this id.

        Raises:
            KeyError: no marker has this id.
        """
        return find_marker(self.markers, marker_id)

    def to_json(self) -> dict[str, Any]:
        """The board.json document (see the module docstring)."""

        def pt(p: Point) -> list[float]:
            return [round(p[0], 2), round(p[1], 2)]

        return {
            "order": self.order,
            "cell_mm": self.cell_mm,
            "image_size": list(self.image_size),
            "cells": {a: {"center": pt(c.center), "corners": [pt(p) for p in c.corners]}
                      for a, c in self.cells.items()},
            "markers": [{"id": m.id, "corners": [pt(p) for p in m.corners]} for m in self.markers],
            "dpi": self.dpi,
            "marker_dictionary": self.marker_dictionary,
            "layout": {"origin": pt(self.layout.origin), "size": round(self.layout.size, 4)},
        }

    def save(self, path: str | Path) -> None:
        """Write board.json to ``path``."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> BoardGeometry:
        """Read board.json.

        Raises:
            BoardFileError: the file cannot be read, is not JSON, or a key is missing or wrong;
                the message names the file and the key.
        """
        path = Path(path)
        try:
            doc = json.loads(read_text(path))
        except InputFileError as exc:
            raise BoardFileError(f"{exc} (the board file)") from exc
        except json.JSONDecodeError as exc:
            raise BoardFileError(f"{path}: line {exc.lineno}: not JSON ({exc.msg})") from exc
        except (ValueError, RecursionError) as exc:  # a number too long for Python's int, nested too deep
            raise BoardFileError(f"{path}: not JSON we can read ({exc})") from exc
        try:
            return cls.from_json(doc)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as exc:
            raise BoardFileError(f"{path}: bad board file: {exc}") from exc

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> BoardGeometry:
        """Build from a parsed board.json document.

        Raises:
            KeyError, TypeError, ValueError: a key is missing or malformed (the message names it).
        """
        if doc.get("kind", "hex") != "hex":
            raise ValueError(f"kind {doc.get('kind')!r}: this needs a hex board, not a square one")
        for key in ("order", "cell_mm", "image_size", "cells", "markers"):
            if key not in doc:
                raise KeyError(f"missing key {key!r}")
        cells: dict[str, CellGeometry] = {}
        for address, c in doc["cells"].items():
            format_address(parse_address(address))  # validates the address
            cells[address] = CellGeometry(
                address, xy_point(c["center"], f"cells.{address}.center"),
                tuple(xy_point(p, f"cells.{address}.corners") for p in c["corners"]),
            )
        markers = tuple(
            MarkerGeometry(int(m["id"]), four_points(m["corners"], f"markers[{i}].corners"))
            for i, m in enumerate(doc["markers"])
        )
        if "layout" in doc:
            layout = Layout(xy_point(doc["layout"]["origin"], "layout.origin"), float(doc["layout"]["size"]))
        else:
            layout = _layout_from_cells(cells)
        w, h = doc["image_size"]
        return cls(
            order=int(doc["order"]), cell_mm=float(doc["cell_mm"]), image_size=(int(w), int(h)),
            dpi=float(doc.get("dpi", 150)), cells=cells, markers=tuple(sorted(markers, key=lambda m: m.id)),
            layout=layout, marker_dictionary=str(doc.get("marker_dictionary", DEFAULT_DICTIONARY)),
        )


def find_marker(markers: tuple[MarkerGeometry, ...], marker_id: int) -> MarkerGeometry:
    """The marker with this id among ``markers``.

    Raises:
        KeyError: no marker has this id.
    """
    for m in markers:
        if m.id == marker_id:
            return m
    raise KeyError(f"board has no marker {marker_id}")


def xy_point(value: Any, where: str) -> Point:
    """``[x, y]`` from JSON as floats.

    Raises:
        ValueError: not a list of two numbers (the message names ``where``).
    """
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"{where}: expected [x, y], got {value!r}")
    return (float(value[0]), float(value[1]))


def four_points(value: Any, where: str) -> tuple[Point, Point, Point, Point]:
    """Four ``[x, y]`` corners from JSON.

    Raises:
        ValueError: not a list of four points (the message names ``where``).
    """
    if not isinstance(value, list | tuple) or len(value) != 4:
        raise ValueError(f"{where}: expected 4 corners, got {value!r}")
    a, b, c, d = (xy_point(p, where) for p in value)
    return (a, b, c, d)


def _layout_from_cells(cells: Mapping[str, CellGeometry]) -> Layout:
    """Recover the layout from A0's centre and the centre-to-corner distance of A0."""
    if "A0" not in cells:
        raise KeyError("cells.A0 (needed to recover the layout when 'layout' is absent)")
    a0 = cells["A0"]
    size = math.dist(a0.center, a0.corners[0])
    return Layout(a0.center, size)
