"""Holominoes geometry: cells on a hex grid, their corners, and which corners coincide.

Flat-topped hexagons on axial coordinates q,r (games.md): the centre of cell q,r lies at
x = 1.5 q, y = sqrt(3) (r + q/2) in tile radii, y down the picture. Neighbours: 1,0 south-east,
1,-1 north-east, 0,-1 north, -1,0 north-west, -1,1 south-west, 0,1 south.

A cell has six corners, E, SE, SW, W, NW, NE (clockwise on the picture). Tiles meet edge to edge,
so in the transcript's frame every tile has its numbers on E, SW and NW and its bites on NE, W
and SE. Every corner point is shared by three cells, and the three corners meeting there are of
one kind:

- a numbered point is the E corner of q,r, the SW corner of q+1,r-1 and the NW corner of q+1,r;
- a bite point is the SE corner of q,r, the W corner of q+1,r and the NE corner of q,r+1.

A point is named by the cell whose E (numbered) or SE (bite) corner it is: :class:`Point`. A bite
point with its three cells filled is a hole; the three numbered points one edge away from it are
E of q,r, SW of q,r and E of q,r+1 (each shared by two of the hole's cells).

Internally cells and points are plain ``(q, r)`` tuples for speed; :class:`Cell` and
:class:`Point` are the public values with their parse/format pairs.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

#: Largest |q| or |r| a transcript may name.
MAX_COORD = 1000

#: Corner names, clockwise on the picture starting east.
CORNERS = ("E", "SE", "SW", "W", "NW", "NE")
#: The numbered corners in clockwise order (a tile's numbers are read E -> SW -> NW).
NUMBERED = ("E", "SW", "NW")
#: The bitten corners.
BITES = ("NE", "W", "SE")

#: Neighbour offsets by direction (games.md).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "SE": (1, 0),
    "NE": (1, -1),
    "N": (0, -1),
    "NW": (-1, 0),
    "SW": (-1, 1),
    "S": (0, 1),
}
NEIGHBOURS: tuple[tuple[int, int], ...] = tuple(DIRECTIONS.values())

#: Offset from a cell to the cell whose E corner is its numbered corner ``name``.
NUMBERED_OWNER: dict[str, tuple[int, int]] = {"E": (0, 0), "SW": (-1, 1), "NW": (-1, 0)}
#: Offset from a cell to the cell whose SE corner is its bite ``name``.
BITE_OWNER: dict[str, tuple[int, int]] = {"SE": (0, 0), "W": (-1, 0), "NE": (0, -1)}
#: The three cells (offsets from the owner) around a numbered point, with their corner there.
NUMBERED_CELLS = (((0, 0), "E"), ((1, -1), "SW"), ((1, 0), "NW"))
#: The three cells (offsets from the owner) around a bite point, with their corner there.
BITE_CELLS = (((0, 0), "SE"), ((1, 0), "W"), ((0, 1), "NE"))
#: The numbered points (owner offsets) one edge away from a bite point (offsets from its owner).
HOLE_NUMBERS = ((0, 0), (-1, 1), (0, 1))

_ANGLE = {name: i * math.pi / 3 for i, name in enumerate(CORNERS)}
_CELL_RE = re.compile(r"(-?\d+),(-?\d+)", re.ASCII)


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell of the hex grid, axial q,r.

    Raises:
        ValueError: q or r beyond :data:`MAX_COORD`.
    """

    q: int
    r: int

    def __post_init__(self) -> None:
        if abs(self.q) > MAX_COORD or abs(self.r) > MAX_COORD:
            raise ValueError(f"cell {self.q},{self.r} is beyond {MAX_COORD} from 0,0")

    @property
    def key(self) -> tuple[int, int]:
        """The ``(q, r)`` tuple."""
        return (self.q, self.r)


def parse_cell(text: str) -> Cell:
    """``"1,-1"`` -> ``Cell(1, -1)``.

    Raises:
        ValueError: not two integers ``q,r`` or beyond :data:`MAX_COORD` (the message quotes it).
    """
    m = _CELL_RE.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"cell {text!r} is not q,r (two whole numbers, e.g. 1,-1)")
    if max(len(m.group(1)), len(m.group(2))) > 6:
        raise ValueError(f"cell {text!r} is beyond {MAX_COORD} from 0,0")
    try:
        return Cell(int(m.group(1)), int(m.group(2)))
    except ValueError as exc:
        raise ValueError(f"cell {text!r}: {exc}") from None


def format_cell(cell: Cell | tuple[int, int]) -> str:
    """``Cell(1, -1)`` (or ``(1, -1)``) -> ``"1,-1"``."""
    q, r = (cell.q, cell.r) if isinstance(cell, Cell) else cell
    return f"{q},{r}"


@dataclass(frozen=True, slots=True)
class Point:
    """A corner point, named by the cell whose E corner (numbered) or SE corner (bite) it is.

    Attributes:
        cell: the naming cell.
        corner: "E" for a numbered point, "SE" for a bite point.

    Raises:
        ValueError: another corner name.
    """

    cell: Cell
    corner: str

    def __post_init__(self) -> None:
        if self.corner not in ("E", "SE"):
            raise ValueError(f"a point is named by an E or SE corner, got {self.corner!r}")

    @property
    def is_bite(self) -> bool:
        """True for a bite point (where holes form)."""
        return self.corner == "SE"


def point_of(cell: tuple[int, int], corner: str) -> Point:
    """The point at ``corner`` of ``cell``, by its canonical name.

    Raises:
        ValueError: an unknown corner name.
    """
    if corner in NUMBERED_OWNER:
        dq, dr = NUMBERED_OWNER[corner]
        kind = "E"
    elif corner in BITE_OWNER:
        dq, dr = BITE_OWNER[corner]
        kind = "SE"
    else:
        raise ValueError(f"corner {corner!r} is not one of {', '.join(CORNERS)}")
    return Point(Cell(cell[0] + dq, cell[1] + dr), kind)


def cells_at(point: Point) -> tuple[tuple[tuple[int, int], str], ...]:
    """The three cells sharing ``point``, each with its corner there."""
    table = NUMBERED_CELLS if point.corner == "E" else BITE_CELLS
    q, r = point.cell.q, point.cell.r
    return tuple(((q + dq, r + dr), name) for (dq, dr), name in table)


def parse_point(text: str) -> Point:
    """``"0,0/SE"`` -> the point at that corner of that cell (any corner name; canonical result).

    Raises:
        ValueError: not ``q,r/CORNER``.
    """
    cell_text, sep, corner = text.partition("/")
    if not sep:
        raise ValueError(f"point {text!r} is not q,r/CORNER (e.g. 0,0/SE)")
    return point_of(parse_cell(cell_text).key, corner.strip().upper())


def format_point(point: Point) -> str:
    """The canonical name, ``"0,0/SE"``; :func:`parse_point` reads it back."""
    return f"{format_cell(point.cell)}/{point.corner}"


def centre_xy(cell: tuple[int, int]) -> tuple[float, float]:
    """The centre of a cell on the picture (tile radii, y down)."""
    q, r = cell
    return 1.5 * q, math.sqrt(3) * (r + q / 2)


def cell_fractional(xy: tuple[float, float]) -> tuple[float, float]:
    """The fractional axial (q, r) of a point of the picture (tile radii, y down): the inverse of
    :func:`centre_xy`."""
    q = xy[0] / 1.5
    return q, xy[1] / math.sqrt(3) - q / 2


def cell_at(xy: tuple[float, float]) -> tuple[int, int]:
    """The cell whose hexagon holds a point of the picture (tile radii, y down): the nearest centre,
    which is a corner of the lattice rhombus around the point's fractional cell (two equilateral
    triangles of centres)."""
    fq, fr = cell_fractional(xy)
    q, r = math.floor(fq), math.floor(fr)
    return min(((q + dq, r + dr) for dq in (0, 1) for dr in (0, 1)),
               key=lambda c: math.dist(centre_xy(c), xy))


def corner_xy(cell: tuple[int, int], corner: str) -> tuple[float, float]:
    """A corner of a cell on the picture (tile radii, y down).

    Raises:
        KeyError: an unknown corner name.
    """
    x, y = centre_xy(cell)
    angle = _ANGLE[corner]
    return x + math.cos(angle), y + math.sin(angle)
