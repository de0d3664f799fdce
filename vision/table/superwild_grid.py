"""Super Wild tiles seen on a bare table, placed on the transcript's grid (games.md "Reading a table").

The grid (games.md "Super Wild", engine.superwild.table): x to the right, y down, in whole tile
positions, the Super Wild at 0,0. A crisscross line is a row of tiles lying side by side or a column
of tiles one above the other, so one step of x is a tile's width and one step of y a tile's height
(each with the gap players leave between tiles). The tiles are portrait, so the two steps differ;
both are measured on the layout itself:

- y lies along the tiles' long axes (their weighted mean direction) and points the way most tiles'
  numbers read downwards: a vote of the tiles whose up is known (:attr:`SeenTile.has_up`; a 6/9
  reads the same both ways and does not vote), weighted by confidence. With no vote, y points down
  the photo rather than up (tools compare layouts up to a quarter turn).
- The x step is the median distance between neighbours side by side, the y step between neighbours
  one above the other; neighbours are tiles nearer than a tile's diagonal, so the gaps between
  tiles may be up to about a quarter of a tile's width (diagonal - height; 7 mm of 27 x 36 mm tiles
  come back in tests/vision/test_superwild_grid.py's layouts, 11 mm do not). Where no two tiles lie
  side by side (or none one above the other) that step is what the diagonal leaves of the other,
  height^2 = size^2 - width^2; where neither is seen the tiles are taken as 3:4.
- The lattice is then fitted to every centre (vision.table.lattice): a layout turned by any angle
  on the cloth, seen at any scale, with tiles pushed by a few millimetres, gives the same positions.

Entry: :func:`superwild_grid`. Tiles the grid cannot name (a face of no Super Wild tile, a number
tile without its colour, a second Super Wild, two tiles on one position) are left out and listed
in :attr:`SuperWildGrid.problems`; no Super Wild at all raises :class:`GridError`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.superwild.tiles import COLOURS, TOP, WILD, Pos, Tile, format_pos, format_tile
from vision.reader.faces import COLOURS as READER_COLOURS
from vision.reader.faces import FACES, JOKER_FACE, SIX_NINE_FACE
from vision.table.errors import TableError
from vision.table.lattice import angle_mean, fit_lattice, neighbour_step, snap_square

#: A neighbour in the same row lies within this slope of the row (|dy| < 0.5 |dx|, about 27 degrees):
#: far from both a tile pushed by a few millimetres and the diagonal neighbour of a portrait tile.
LINE_SLOPE = 0.5
#: Width and height of a tile as parts of its diagonal when the layout shows no step (3:4 tiles).
WIDTH_PART, HEIGHT_PART = 0.6, 0.8


class GridError(TableError):
    """Seen tiles that cannot be placed on a grid (no Super Wild among them; the message says so)."""


@dataclass(frozen=True, slots=True)
class SeenTile:
    """One tile as the table stage sees it (photo pixels, x right, y down).

    Attributes:
        centre: (x, y) of the tile's centre.
        size: diameter of the circle through its corners (its diagonal), pixels.
        angle: direction of its long axis from the top of its face to the bottom (the way its number
            reads downwards), radians, atan2(dy, dx) on the photo (clockwise as seen). Where
            ``has_up`` is False only the axis is known (the angle modulo pi).
        face: the reader's face (vision.reader.faces.FACES): "1".."13", "6/9", "joker" (the Super Wild).
        colour: the reader's colour letter, "K", "B", "O", "R" ("-" none).
        confidence: the reading's confidence, 0..1.
        has_up: whether which end of the tile is its top is known.

    Raises:
        ValueError: a size not above 0, a confidence outside 0..1, an unknown face or colour, or a
            value that is not finite.
    """

    centre: tuple[float, float]
    size: float
    angle: float
    face: str
    colour: str
    confidence: float = 1.0
    has_up: bool = True

    def __post_init__(self) -> None:
        numbers = (*self.centre, self.size, self.angle, self.confidence)
        if not all(math.isfinite(v) for v in numbers) or self.size <= 0 or not 0 <= self.confidence <= 1:
            raise ValueError(f"seen tile at {self.centre}: size {self.size} or confidence {self.confidence}")
        if self.face not in FACES or self.colour not in READER_COLOURS:
            raise ValueError(
                f"seen tile at {self.centre}: unknown face {self.face!r} or colour {self.colour!r}"
            )


@dataclass(frozen=True, slots=True)
class SuperWildGrid:
    """The tiles on the transcript's grid.

    Attributes:
        tiles: (position, tile) pairs, top to bottom then left to right; the Super Wild at 0,0 and a
            6/9 named as its 6 (``R6``).
        problems: one sentence per seen tile left out, naming it and where it lies (photo pixels).
    """

    tiles: tuple[tuple[Pos, Tile], ...]
    problems: tuple[str, ...] = ()

    @property
    def layout(self) -> dict[Pos, Tile]:
        """Position -> tile."""
        return dict(self.tiles)

    def to_json(self) -> dict[str, Any]:
        """``{"tiles": [{"tile": "W", "x": 0, "y": 0}, {"tile": "R7", "x": 3, "y": 0}, ...]}``."""
        return {"tiles": [{"tile": format_tile(t), "x": p.x, "y": p.y} for p, t in self.tiles]}


def tile_of(seen: SeenTile) -> Tile | None:
    """The Super Wild tile a seen face names (a 6/9, 6 or 9 as its 6), None for a face no tile has or
    a number without its colour."""
    if seen.face == JOKER_FACE:
        return WILD
    number = 6 if seen.face in (SIX_NINE_FACE, "9") else int(seen.face) if seen.face.isdigit() else 0
    if not 1 <= number <= TOP or seen.colour not in COLOURS:
        return None
    return Tile(seen.colour, number)


def superwild_grid(seen: Sequence[SeenTile]) -> SuperWildGrid:
    """Place the tiles seen on a table on Super Wild's grid, the Super Wild at 0,0.

    Args:
        seen: the tiles found on the photo, any order.

    Returns:
        the tiles by position, and the seen tiles left out with why.

    Raises:
        GridError: no Super Wild ("joker") among the tiles seen.
    """
    problems: list[str] = []
    named: list[tuple[SeenTile, Tile]] = []
    for s in seen:
        tile = tile_of(s)
        if tile is None:
            problems.append(f"{_where(s)}: face {s.face!r} colour {s.colour!r} is no Super Wild tile")
        else:
            named.append((s, tile))
    wilds = sorted((i for i, (_, t) in enumerate(named) if t.is_wild), key=lambda i: -named[i][0].confidence)
    if not wilds:
        raise GridError(f"no Super Wild among the {len(seen)} tiles seen: the grid is counted from it")
    for i in wilds[1:]:
        problems.append(f"{_where(named[i][0])}: a second Super Wild (the game has one)")
    kept = [st for i, st in enumerate(named) if i not in wilds[1:]]
    anchor = next(i for i, (_, t) in enumerate(kept) if t.is_wild)
    centres = np.array([s.centre for s, _ in kept], np.float64)
    whole = fit_lattice(centres, _steps([s for s, _ in kept]), snap_square, anchor)
    by_pos: dict[Pos, tuple[SeenTile, Tile]] = {}
    for (s, tile), (x, y) in sorted(
        zip(kept, whole.tolist(), strict=True), key=lambda k: -k[0][0].confidence
    ):
        pos = Pos(x, y)
        if pos in by_pos:
            problems.append(f"{_where(s)}: {tile} on {format_pos(pos)}, where {by_pos[pos][1]} lies")
        else:
            by_pos[pos] = (s, tile)
    tiles = tuple(sorted(((p, t) for p, (_, t) in by_pos.items()), key=lambda pt: (pt[0].y, pt[0].x)))
    return SuperWildGrid(tiles, tuple(problems))


def _steps(seen: list[SeenTile]) -> np.ndarray:
    """The first guess of one step of x and one of y (photo pixels, shape: [2, 2])."""
    angles = np.array([s.angle for s in seen])
    weights = np.array([max(s.confidence, 1e-3) for s in seen])  # a reading of 0 still places its tile
    axis = angle_mean(angles, weights, 2)
    down = np.array([math.cos(axis), math.sin(axis)])
    vote = sum(w * math.cos(a - axis) for s, a, w in zip(seen, angles, weights, strict=True) if s.has_up)
    if vote < 0 or (vote == 0 and down[1] < 0):
        down = -down
    across = np.array([down[1], -down[0]])  # x: y turned a quarter turn anticlockwise as seen
    centres = np.array([s.centre for s in seen], np.float64)
    offsets = centres[None, :, :] - centres[:, None, :]
    along_x, along_y = offsets @ across, offsets @ down
    diagonal = float(np.median([s.size for s in seen]))
    in_row = np.abs(along_y) < LINE_SLOPE * np.abs(along_x)
    in_column = np.abs(along_x) < LINE_SLOPE * np.abs(along_y)
    width = neighbour_step(np.where(in_row, along_x, np.nan), diagonal)
    height = neighbour_step(np.where(in_column, along_y, np.nan), diagonal)
    if width is None and height is None:
        width, height = WIDTH_PART * diagonal, HEIGHT_PART * diagonal
    elif width is None:
        width = _other_side(diagonal, height)
    elif height is None:
        height = _other_side(diagonal, width)
    return np.array([across * width, down * height])


def _other_side(diagonal: float, side: float | None) -> float:
    """The other side of a tile with this diagonal and one side, never flatter than 1:2."""
    known = diagonal if side is None else side
    return math.sqrt(max(diagonal**2 - known**2, (0.5 * known) ** 2))


def _where(seen: SeenTile) -> str:
    return f"tile at ({seen.centre[0]:.0f}, {seen.centre[1]:.0f}) px"
