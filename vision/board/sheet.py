"""The printed sheet as the board stage sees it, whichever board it is: cells and markers in board.png
pixels.

MODLINSEQ's hex board (calibration.geometry.BoardGeometry, positions in board.png pixels) and
Yushino's square board (calibration.square_geometry.SquareBoardGeometry, positions in millimetres)
give one :class:`Sheet`: every cell's address, centre and corners, the distance between
neighbouring cell centres, the fiducial markers, which cells lie near which, and a drawing of the
empty sheet. Locating, rectifying, presence and the simulator's scene work on a Sheet and so serve
both boards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.geometry import BoardGeometry, MarkerGeometry
from calibration.square_geometry import SquareBoardGeometry
from engine.hexgrid import distance, parse_address
from engine.yushino.board import parse_square

#: Either kind of printed board.
AnyBoard = BoardGeometry | SquareBoardGeometry


@dataclass(frozen=True, slots=True, eq=False)
class Sheet:
    """A printed board in board.png pixels.

    Attributes:
        kind: "hex" (MODLINSEQ) or "square" (Yushino).
        geometry: the board it was made from.
        image_size: (width, height) of board.png in pixels.
        px_per_mm: board.png pixels per millimetre of paper.
        addresses: cell addresses in board.json order; cell indices refer to this tuple.
        centres: float64 (shape: [N, 2]) cell centres (x, y).
        corners: float64 (shape: [N, K, 2]) each cell's corners clockwise (K = 6 hex, 4 square).
        pitch: distance between neighbouring cell centres.
        middle: (x, y) of the middle cell's centre: A0 on the hex board, H8 on Yushino's.
        markers: the fiducial markers, corners in board.png pixels (ArUco order).
        marker_dictionary: the cv2.aruco predefined dictionary's name.
        steps: steps(i, j) -> the number of cell steps between cells i and j (hex distance, or
            the larger of the column and row differences on squares: a diagonal neighbour is 1).
        render: render(scale) -> the empty sheet, BGR uint8, of size ``image_size * scale``.
    """

    kind: str
    geometry: AnyBoard
    image_size: tuple[int, int]
    px_per_mm: float
    addresses: tuple[str, ...]
    centres: np.ndarray
    corners: np.ndarray
    pitch: float
    middle: tuple[float, float]
    markers: tuple[MarkerGeometry, ...]
    marker_dictionary: str
    steps: Callable[[int, int], int]
    render: Callable[[float], np.ndarray]

    def near(self, most_steps: int) -> list[list[int]]:
        """For every cell, the indices of the other cells at most ``most_steps`` steps away."""
        n = len(self.addresses)
        return [[j for j in range(n) if j != i and self.steps(i, j) <= most_steps] for i in range(n)]


def board_sheet(geometry: AnyBoard) -> Sheet:
    """The sheet of either kind of board.

    Args:
        geometry: a hex board.json's geometry or a square one's (calibration.square_geometry.load_board).

    Returns:
        The sheet in board.png pixels.
    """
    if isinstance(geometry, SquareBoardGeometry):
        return _square_sheet(geometry)
    return _hex_sheet(geometry)


def _hex_sheet(geometry: BoardGeometry) -> Sheet:
    from calibration.board_print import render_board

    cells = list(geometry.cells.values())
    hexes = [parse_address(c.address) for c in cells]
    return Sheet(
        "hex", geometry, geometry.image_size, geometry.px_per_mm, tuple(geometry.cells),
        np.array([c.center for c in cells], np.float64), np.array([c.corners for c in cells], np.float64),
        geometry.layout.pitch, geometry.layout.origin, geometry.markers, geometry.marker_dictionary,
        lambda i, j: distance(hexes[i], hexes[j]), lambda scale: render_board(geometry, scale),
    )


def _square_sheet(geometry: SquareBoardGeometry) -> Sheet:
    from calibration.square_board import render_square_board

    k = geometry.px_per_mm
    squares = list(geometry.squares.values())
    places = [parse_square(s.address) for s in squares]
    corners = np.array([s.corners for s in squares], np.float64) * k
    markers = tuple(MarkerGeometry(m.id, _scaled(m.corners, k)) for m in geometry.markers)

    def steps(i: int, j: int) -> int:
        return max(abs(places[i].col - places[j].col), abs(places[i].row - places[j].row))

    def render(scale: float) -> np.ndarray:
        # drawn at no less than board.png's dpi and shrunk, as a camera sees the printed sheet: labels
        # drawn straight at a small scale come out bolder than printed ones seen from afar
        drawn = render_square_board(replace(geometry, dpi=geometry.dpi * max(1.0, scale)))
        size = (round(geometry.image_size[0] * scale), round(geometry.image_size[1] * scale))
        return drawn if drawn.shape[1::-1] == size else cv2.resize(drawn, size, interpolation=cv2.INTER_AREA)

    centres = corners.mean(axis=1)
    x, y = centres.mean(axis=0)
    return Sheet(
        "square", geometry, geometry.image_size, k, tuple(geometry.squares), centres, corners,
        geometry.square_mm * k, (float(x), float(y)), markers, geometry.marker_dictionary, steps, render,
    )


def _scaled(corners: tuple[tuple[float, float], ...], k: float
            ) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]:
    a, b, c, d = ((x * k, y * k) for x, y in corners)
    return (a, b, c, d)
