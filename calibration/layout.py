"""Pixel <-> hex mapping for pointy-top boards (Red Blob Games' Layout).

A :class:`Layout` keeps the grid maths of engine.hexgrid apart from pixels: it knows where A0's
centre lies in an image and how large a cell is, and maps cells to pixel centres and corners and
pixels back to (fractional or whole) cells.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.hexgrid import Hex

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, slots=True)
class Layout:
    """Placement of a pointy-top hex grid in an image.

    Attributes:
        origin: pixel (x, y) of A0's centre.
        size: circumradius of a cell in pixels (centre to corner); neighbouring centres are
            ``size * sqrt(3)`` apart.
    """

    origin: tuple[float, float]
    size: float

    def __post_init__(self) -> None:
        if not self.size > 0:
            raise ValueError(f"Layout size must be > 0 pixels, got {self.size!r}")

    @property
    def pitch(self) -> float:
        """Distance between neighbouring cell centres in pixels (the width across flats)."""
        return self.size * SQRT3

    def scaled(self, factor: float) -> Layout:
        """The same layout in an image scaled by ``factor`` (pixel centres scale about (0, 0))."""
        return Layout((self.origin[0] * factor, self.origin[1] * factor), self.size * factor)

    def hex_to_pixel(self, cell: Hex) -> tuple[float, float]:
        """Pixel (x, y) of the centre of ``cell``."""
        x = self.size * SQRT3 * (cell.q + cell.r / 2.0)
        y = self.size * 1.5 * cell.r
        return (self.origin[0] + x, self.origin[1] + y)

    def hex_corners(self, cell: Hex) -> list[tuple[float, float]]:
        """The six corners of ``cell`` in pixels, clockwise from the top corner."""
        cx, cy = self.hex_to_pixel(cell)
        corners = []
        for i in range(6):
            angle = math.radians(-90 + 60 * i)
            corners.append((cx + self.size * math.cos(angle), cy + self.size * math.sin(angle)))
        return corners

    def pixel_to_hex_fractional(self, x: float, y: float) -> tuple[float, float]:
        """Fractional axial (q, r) of the pixel (x, y)."""
        px = (x - self.origin[0]) / self.size
        py = (y - self.origin[1]) / self.size
        r = py * 2.0 / 3.0
        q = px / SQRT3 - py / 3.0
        return (q, r)

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The cell containing the pixel (x, y) (cube rounding of the fractional cell)."""
        fq, fr = self.pixel_to_hex_fractional(x, y)
        fs = -fq - fr
        q, r, s = round(fq), round(fr), round(fs)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        return Hex(int(q), int(r))
