"""A printed square board's geometry (the Yushino board): its board.json as a value.

The hex board's board.json (calibration.geometry) is in board.png pixels and has no ``kind``; a
square board's says ``"kind": "square"`` and holds every position in millimetres of paper, in the
board frame (x to the right, y down, from the sheet's top-left corner)::

    {"kind": "square", "units": "mm", "columns": 15, "rows": 15, "square_mm": 25,
     "size_mm": [w, h], "dpi": 150, "image_size": [w_px, h_px], "marker_dictionary": "DICT_4X4_50",
     "layout": "classic",
     "squares": {"A1": {"corners": [[x, y], ... 4], "premium": "3X"}, "B1": {..., "premium": null}, ...},
     "markers": [{"id": 0, "corners": [[x, y], ... 4]}, ...]}

Corners run clockwise from the top-left (ArUco's order), for squares and markers alike. board.png
is the same sheet at ``dpi``: a point's pixel is its millimetres times ``dpi / 25.4``.
:func:`load_board` reads either kind of board.json.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from calibration.files import InputFileError, read_text
from calibration.geometry import (
    DEFAULT_DICTIONARY,
    BoardFileError,
    BoardGeometry,
    MarkerGeometry,
    Point,
    find_marker,
    four_points,
    xy_point,
)
from engine.yushino.board import FACTOR, Square, format_square, parse_square

SQUARE_KIND = "square"
#: Widest square (mm): a real board's squares are about 19 to 25 mm; more is a mistyped unit.
MAX_SQUARE_MM = 60.0


@dataclass(frozen=True, slots=True)
class SquareGeometry:
    """One square of the printed board, in board millimetres.

    Attributes:
        address: the square's address (``"H8"``).
        corners: four corners clockwise from the top-left.
        premium: ``"2*"``, ``"3*"``, ``"2X"``, ``"3X"`` or None (games.md, Yushino).

    Raises:
        ValueError: an unreadable address or premium.
    """

    address: str
    corners: tuple[Point, Point, Point, Point]
    premium: str | None = None

    def __post_init__(self) -> None:
        if format_square(parse_square(self.address)) != self.address:
            raise ValueError(f"square address {self.address!r} is not written as e.g. 'H8'")
        if self.premium is not None and self.premium not in FACTOR:
            raise ValueError(f"square {self.address}: unknown premium {self.premium!r}")

    @property
    def square(self) -> Square:
        """The engine's square."""
        return parse_square(self.address)

    @property
    def center(self) -> Point:
        """The centre (mm)."""
        xs, ys = zip(*self.corners, strict=True)
        return (sum(xs) / 4, sum(ys) / 4)


@dataclass(frozen=True, slots=True)
class SquareBoardGeometry:
    """Everything known about a printed square board, in board millimetres.

    Attributes:
        columns, rows: the grid's size in squares.
        square_mm: side of a square, millimetres.
        size_mm: (width, height) of the sheet, millimetres.
        dpi: board.png resolution, dots per inch.
        squares: address -> square, row by row.
        markers: the fiducial markers (corners in mm), by increasing id.
        layout: the premium layout's name (``"classic"``).
        marker_dictionary: the cv2.aruco predefined dictionary's name.

    Raises:
        ValueError: sizes out of range, squares missing, fewer than 2 markers or duplicate ids.
    """

    columns: int
    rows: int
    square_mm: float
    size_mm: tuple[float, float]
    dpi: float
    squares: Mapping[str, SquareGeometry]
    markers: tuple[MarkerGeometry, ...]
    layout: str = "classic"
    marker_dictionary: str = DEFAULT_DICTIONARY

    def __post_init__(self) -> None:
        if not (1 <= self.columns <= 26 and 1 <= self.rows <= 99 and 0 < self.square_mm <= MAX_SQUARE_MM):
            raise ValueError(f"square board needs 1..26 columns, 1..99 rows and 0 < square_mm <= "
                             f"{MAX_SQUARE_MM:g}; got {self.columns}, {self.rows}, {self.square_mm}")
        if not self.dpi > 0 or min(self.size_mm) <= 0:
            raise ValueError(f"square board needs dpi > 0 and a size, got {self.dpi}, {self.size_mm}")
        if len(self.squares) != self.columns * self.rows:
            raise ValueError(f"a {self.columns} x {self.rows} board has {self.columns * self.rows} squares, "
                             f"got {len(self.squares)}")
        ids = [m.id for m in self.markers]
        if len(ids) < 2 or len(set(ids)) != len(ids):
            raise ValueError(f"board needs at least 2 fiducial markers with different ids, got {ids}")
        object.__setattr__(self, "squares", MappingProxyType(dict(self.squares)))

    @property
    def px_per_mm(self) -> float:
        """board.png pixels per millimetre of paper."""
        return self.dpi / 25.4

    @property
    def image_size(self) -> tuple[int, int]:
        """(width, height) of board.png in pixels."""
        return (round(self.size_mm[0] * self.px_per_mm), round(self.size_mm[1] * self.px_per_mm))

    def marker(self, marker_id: int) -> MarkerGeometry:
        """The marker with this id.

        Raises:
            KeyError: no marker has this id.
        """
        return find_marker(self.markers, marker_id)

    def square_at(self, x_mm: float, y_mm: float) -> str | None:
        """The address of the square holding the board point (x, y) in mm, None off the grid."""
        a1 = self.squares["A1"].corners[0]
        col = int((x_mm - a1[0]) // self.square_mm)
        row = int((y_mm - a1[1]) // self.square_mm)
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            return None
        return format_square(Square(col, row))

    def to_json(self) -> dict[str, Any]:
        """The board.json document (see the module docstring)."""

        def pt(p: Point) -> list[float]:
            return [round(p[0], 3), round(p[1], 3)]

        return {
            "kind": SQUARE_KIND,
            "units": "mm",
            "columns": self.columns,
            "rows": self.rows,
            "square_mm": self.square_mm,
            "size_mm": pt(self.size_mm),
            "dpi": self.dpi,
            "image_size": list(self.image_size),
            "marker_dictionary": self.marker_dictionary,
            "layout": self.layout,
            "squares": {a: {"corners": [pt(p) for p in s.corners], "premium": s.premium}
                        for a, s in self.squares.items()},
            "markers": [{"id": m.id, "corners": [pt(p) for p in m.corners]} for m in self.markers],
        }

    def save(self, path: str | Path) -> None:
        """Write board.json to ``path``."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> SquareBoardGeometry:
        """Build from a parsed square board.json document.

        Raises:
            KeyError, TypeError, ValueError: a key is missing or malformed (the message names it).
        """
        if doc.get("kind") != SQUARE_KIND:
            raise ValueError(f"kind {doc.get('kind')!r}: not a square board")
        for key in ("columns", "rows", "square_mm", "size_mm", "dpi", "squares", "markers"):
            if key not in doc:
                raise KeyError(f"missing key {key!r}")
        squares = {
            str(a): SquareGeometry(str(a), four_points(s["corners"], f"squares.{a}.corners"),
                                   s.get("premium"))
            for a, s in doc["squares"].items()
        }
        markers = tuple(
            MarkerGeometry(int(m["id"]), four_points(m["corners"], f"markers[{i}].corners"))
            for i, m in enumerate(doc["markers"])
        )
        w, h = xy_point(doc["size_mm"], "size_mm")
        return cls(
            columns=int(doc["columns"]), rows=int(doc["rows"]), square_mm=float(doc["square_mm"]),
            size_mm=(w, h), dpi=float(doc["dpi"]), squares=squares,
            markers=tuple(sorted(markers, key=lambda m: m.id)), layout=str(doc.get("layout", "classic")),
            marker_dictionary=str(doc.get("marker_dictionary", DEFAULT_DICTIONARY)),
        )


def load_board(path: str | Path) -> BoardGeometry | SquareBoardGeometry:
    """Read a board.json of either kind: the hex board (no ``kind``) or a square board.

    Raises:
        BoardFileError: the file cannot be read, is not JSON, or a key is missing or wrong; the
            message names the file and the key.
    """
    path = Path(path)
    try:
        doc = json.loads(read_text(path))
    except InputFileError as exc:
        raise BoardFileError(f"{exc} (the board file)") from exc
    except (ValueError, RecursionError) as exc:
        raise BoardFileError(f"{path}: not JSON we can read ({exc})") from exc
    if not isinstance(doc, dict) or doc.get("kind", "hex") == "hex":
        return BoardGeometry.load(path)
    try:
        return SquareBoardGeometry.from_json(doc)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as exc:
        raise BoardFileError(f"{path}: bad board file: {exc}") from exc
