"""Hexagonal tiles laid edge to edge on a bare table, as one lattice: from the tiles the finder
found (vision.table.finder), every tile's centre, the tiles' radius and the way their corners point.

Tiles that meet edge to edge point their corners the same six ways, and every side of a hexagon
runs along one of the three ways its corners point (modulo 60 degrees): the layout's turn is the
mean direction, modulo 60 degrees, of the sides of every tile's outline, weighted by their length.
A tile's radius (centre to corner) is the distance from its centre to its outline's furthest
point (three of its corners are not bitten); the layout's, the median over its tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.table.finder import FoundTile
from vision.table.lattice import angle_mean


@dataclass(frozen=True, slots=True)
class HexLayout:
    """Hexagonal tiles found on a photo (photo pixels, x right, y down).

    Attributes:
        centres: float64 [n, 2] (x, y) of each tile's centre.
        radius: the tiles' radius (centre to corner), pixels.
        turn: direction of one corner of every tile, radians (atan2 on the photo) in (-pi/6, pi/6].
    """

    centres: np.ndarray
    radius: float
    turn: float


def hex_layout(found: Sequence[FoundTile]) -> HexLayout:
    """The layout of hexagonal tiles found on a photo.

    Args:
        found: the tiles the finder found.

    Returns:
        their centres, radius and turn (no centres, radius 1 and turn 0 when none was found).
    """
    if not found:
        return HexLayout(np.zeros((0, 2)), 1.0, 0.0)
    centres = np.array([t.centre for t in found], np.float64)
    radii = [float(np.linalg.norm(t.outline - np.array(t.centre), axis=1).max()) for t in found]
    sides = [np.roll(t.outline, -1, axis=0) - t.outline for t in found]
    vectors = np.concatenate(sides).astype(np.float64)
    lengths = np.hypot(vectors[:, 0], vectors[:, 1])
    turn = angle_mean(np.arctan2(vectors[:, 1], vectors[:, 0]), lengths, 6) if lengths.sum() > 0 else 0.0
    return HexLayout(centres, float(np.median(radii)), turn)
