"""Holominoes tiles seen on a bare table, placed on the hex grid of the transcript's frame
(games.md "Holominoes", "Reading a table").

The grid (engine.holominoes.geometry): flat-topped hexagons on axial q,r, the centre of q,r at
x = 1.5 q, y = 1.732 (r + q/2) tile radii, y down; in the transcript's frame every tile has its
numbered corners at E, SW and NW. On the photo the layout may lie turned by any angle:

- The frame's turn is the mean direction of every numbered corner seen from its tile's centre,
  taken modulo 120 degrees (the three numbered corners of a tile are 120 degrees apart, and tiles
  meet edge to edge, so all of them point the same three ways), weighted by confidence. Of the three
  turns that put the numbered corners at E, SW and NW, the one nearest the photo's own axes is taken
  (within 60 degrees): the layout is read up to turning it by 120 or 240 degrees (games.md).
- One step between neighbours is the median distance from each tile to its nearest neighbour
  (tiles meet edge to edge: sqrt(3) radii); with no neighbour seen, sqrt(3) times the tiles'
  median radius.
- The hex lattice is fitted to every centre (vision.table.lattice), the tile nearest the layout's
  middle at 0,0 (the origin is free: tools compare layouts up to a shift).

Each tile's numbers are read clockwise from its smallest (engine.holominoes.tiles), its first corner
the one holding that number. Entry: :func:`holominoes_grid`. Tiles it cannot name (not three
numbered corners one on each of E, SW, NW, a digit out of 1..9 or twice on a tile, a tile seen twice,
two tiles on one cell) are left out and listed in :attr:`HolominoesGrid.problems`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.holominoes.geometry import NUMBERED, Cell
from engine.holominoes.tiles import MAX_DIGITS, Placement, Tile, format_placement, format_tile
from vision.table.lattice import angle_mean, fit_lattice, neighbour_step, snap_hex

#: Distance between the centres of two tiles sharing an edge, in tile radii.
NEIGHBOUR_RADII = math.sqrt(3)
#: Tiles nearer than this many steps are neighbours when measuring the step (next-but-one: 2 steps).
NEAR_STEPS = 1.5


@dataclass(frozen=True, slots=True)
class SeenCorner:
    """A numbered corner as seen: where its digit lies and what it reads.

    Attributes:
        at: (x, y) of the digit, photo pixels.
        face: the reader's face for the digit, "1".."9".
    """

    at: tuple[float, float]
    face: str


@dataclass(frozen=True, slots=True)
class SeenHex:
    """One Holominoes tile as the table stage sees it (photo pixels, x right, y down).

    Attributes:
        centre: (x, y) of the tile's centre.
        radius: distance from the centre to a corner, pixels.
        corners: its numbered corners seen (three on a tile seen whole), any order.
        confidence: the reading's confidence, 0..1.

    Raises:
        ValueError: a radius not above 0, a confidence outside 0..1, or a value that is not finite.
    """

    centre: tuple[float, float]
    radius: float
    corners: tuple[SeenCorner, ...]
    confidence: float = 1.0

    def __post_init__(self) -> None:
        numbers = (*self.centre, self.radius, self.confidence, *(v for c in self.corners for v in c.at))
        if not all(math.isfinite(v) for v in numbers) or self.radius <= 0 or not 0 <= self.confidence <= 1:
            raise ValueError(
                f"seen hexagon at {self.centre}: radius {self.radius} or confidence {self.confidence}"
            )


@dataclass(frozen=True, slots=True)
class HolominoesGrid:
    """The tiles on the hex grid, in the transcript's frame up to a shift and a turn by 120 degrees.

    Attributes:
        placements: the tiles with their cells and first corners, by cell (q, then r).
        problems: one sentence per seen tile left out, naming it and where it lies (photo pixels).
    """

    placements: tuple[Placement, ...]
    problems: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"tiles": [{"tile": "132", "q": 1, "r": 0, "first": "E"}, ...]}``."""
        return {
            "tiles": [
                {"tile": format_tile(p.tile), "q": p.cell.q, "r": p.cell.r, "first": p.first}
                for p in self.placements
            ]
        }


def holominoes_grid(seen: Sequence[SeenHex]) -> HolominoesGrid:
    """Place the Holominoes tiles seen on a table on the hex grid of the transcript's frame.

    Args:
        seen: the tiles found on the photo, any order.

    Returns:
        the placements (none for no tile seen) and the tiles left out with why.
    """
    if not seen:
        return HolominoesGrid(())
    turn = _frame_turn(seen)
    problems: list[str] = []
    read: list[tuple[SeenHex, Tile, str]] = []
    for s in seen:
        found = _tile_of(s, turn)
        if isinstance(found, str):
            problems.append(f"{_where(s)}: {found}")
        else:
            read.append((s, *found))
    if not read:
        return HolominoesGrid((), tuple(problems))
    centres = np.array([s.centre for s, _, _ in read], np.float64)
    anchor = int(np.argmin(np.hypot(*(centres - centres.mean(axis=0)).T)))
    whole = fit_lattice(centres, _steps(read, turn), snap_hex, anchor)
    cells: dict[tuple[int, int], Placement] = {}
    tiles: dict[Tile, Placement] = {}
    for (s, tile, first), (q, r) in sorted(
        zip(read, whole.tolist(), strict=True), key=lambda k: -k[0][0].confidence
    ):
        placement = Placement(tile, Cell(q, r), first)
        if (q, r) in cells or tile in tiles:
            other = cells.get((q, r)) or tiles[tile]
            problems.append(
                f"{_where(s)}: {format_placement(placement)} clashes with {format_placement(other)}"
            )
            continue
        cells[(q, r)] = tiles[tile] = placement
    ordered = tuple(sorted(cells.values(), key=lambda p: (p.cell.q, p.cell.r)))
    return HolominoesGrid(ordered, tuple(problems))


def _frame_turn(seen: Sequence[SeenHex]) -> float:
    """How far the frame is turned on the photo (radians, clockwise as seen, in (-pi/3, pi/3])."""
    angles, weights = [], []
    for s in seen:
        for c in s.corners:
            angles.append(math.atan2(c.at[1] - s.centre[1], c.at[0] - s.centre[0]))
            weights.append(max(s.confidence, 1e-3))  # a reading of 0 still shows its corners
    if not angles:
        return 0.0
    return angle_mean(np.array(angles), np.array(weights), 3)


def _tile_of(seen: SeenHex, turn: float) -> tuple[Tile, str] | str:
    """The tile and its first corner, or why the seen tile names none."""
    numbers: dict[str, int] = {}
    for c in seen.corners:
        slot = round(
            (math.atan2(c.at[1] - seen.centre[1], c.at[0] - seen.centre[0]) - turn) / (2 * math.pi / 3)
        )
        name = NUMBERED[slot % 3]
        if name in numbers:
            return f"two numbered corners at {name}"
        if not c.face.isdigit() or not 1 <= int(c.face) <= MAX_DIGITS:
            return f"corner {name} reads {c.face!r}, not a number 1..{MAX_DIGITS}"
        numbers[name] = int(c.face)
    if len(numbers) != 3 or len(set(numbers.values())) != 3:
        return f"numbered corners {numbers} are not three different numbers"
    first = min(NUMBERED, key=lambda name: numbers[name])
    k = NUMBERED.index(first)
    return Tile((numbers[first], numbers[NUMBERED[(k + 1) % 3]], numbers[NUMBERED[(k + 2) % 3]])), first


def _steps(read: list[tuple[SeenHex, Tile, str]], turn: float) -> np.ndarray:
    """The first guess of one step of q and one of r (photo pixels, shape: [2, 2])."""
    centres = np.array([s.centre for s, _, _ in read], np.float64)
    radius = float(np.median([s.radius for s, _, _ in read]))
    distance = np.hypot(*(centres[None, :, :] - centres[:, None, :]).transpose(2, 0, 1))
    np.fill_diagonal(distance, np.nan)
    step = neighbour_step(distance, NEAR_STEPS * NEIGHBOUR_RADII * radius)
    size = (step if step is not None else NEIGHBOUR_RADII * radius) / NEIGHBOUR_RADII
    c, s = math.cos(turn), math.sin(turn)
    frame = np.array([[1.5, math.sqrt(3) / 2], [0.0, math.sqrt(3)]])  # q and r steps in radii (geometry)
    return size * frame @ np.array([[c, s], [-s, c]])


def _where(seen: SeenHex) -> str:
    return f"hexagon at ({seen.centre[0]:.0f}, {seen.centre[1]:.0f}) px"
