"""The board map: every cell of the hex board drawn into a rectangle of the kiosk screen.

Pointy-top hexagons as on the printed board (../shared/design/addressing.md); a :class:`MapLayout`
fits the board into the rectangle and maps cells to pixels and back (for touch corrections).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import pygame

from display.theme import Theme
from display.view import KioskView
from engine.hexgrid import Hex

_SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, slots=True)
class MapLayout:
    """Where the board map sits on screen.

    Attributes:
        cx, cy: pixel position of A0's centre.
        size: hexagon circumradius in pixels.
    """

    cx: float
    cy: float
    size: float

    def __post_init__(self) -> None:
        if not self.size > 0:
            raise ValueError(f"MapLayout size must be > 0 pixels, got {self.size!r}")

    @classmethod
    def fit(cls, cells: Iterable[Hex], rect: pygame.Rect) -> MapLayout:
        """The largest layout that shows all ``cells`` inside ``rect`` (pixels), centred.

        Raises:
            ValueError: ``cells`` is empty or ``rect`` has no area.
        """
        cells = list(cells)
        if not cells or rect.width <= 0 or rect.height <= 0:
            raise ValueError(f"cannot fit {len(cells)} cells into {rect}")
        xs = [_SQRT3 * (c.q + c.r / 2.0) for c in cells]
        ys = [1.5 * c.r for c in cells]
        width = max(xs) - min(xs) + _SQRT3
        height = max(ys) - min(ys) + 2.0
        size = min(rect.width / width, rect.height / height)
        cx = rect.centerx - size * (max(xs) + min(xs)) / 2.0
        cy = rect.centery - size * (max(ys) + min(ys)) / 2.0
        return cls(cx, cy, size)

    def centre(self, cell: Hex) -> tuple[float, float]:
        """Pixel (x, y) of the centre of ``cell``."""
        return (self.cx + self.size * _SQRT3 * (cell.q + cell.r / 2.0), self.cy + self.size * 1.5 * cell.r)

    def corners(self, cell: Hex, shrink: float = 1.0) -> list[tuple[float, float]]:
        """The six corners of ``cell`` in pixels, scaled by ``shrink`` about its centre."""
        x, y = self.centre(cell)
        r = self.size * shrink
        return [(x + r * math.cos(math.radians(60 * i - 90)), y + r * math.sin(math.radians(60 * i - 90)))
                for i in range(6)]

    def cell_at(self, x: float, y: float) -> Hex:
        """The cell under pixel (x, y) (cube rounding of the fractional position)."""
        fr = (y - self.cy) / (1.5 * self.size)
        fq = (x - self.cx) / (_SQRT3 * self.size) - fr / 2.0
        fs = -fq - fr
        q, r, s = round(fq), round(fr), round(fs)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        return Hex(int(q), int(r))


def draw_board(surface: pygame.Surface, view: KioskView, layout: MapLayout, theme: Theme,
               flash_on: bool) -> None:
    """Draw every cell of ``view`` with its tile, highlight, blocked mark or illegal flag.

    Args:
        surface: the target surface.
        view: what to show.
        layout: where the board sits on ``surface``.
        theme: colours and fonts.
        flash_on: phase of the flashing of illegal cells (True draws them bright red).
    """
    font = theme.font(max(8, int(layout.size * 0.9)), bold=True)
    small = theme.font(max(7, int(layout.size * 0.55)), bold=True)
    for cell in view.cells:
        outline = layout.corners(cell, 0.94)
        label = view.tiles.get(cell) or view.provisional.get(cell)
        if cell in view.illegal:
            fill = theme.illegal if flash_on else theme.illegal_dim
        elif cell in view.restore:
            fill = theme.restore
        elif cell in view.provisional:
            fill = theme.provisional
        elif label is not None:
            fill = theme.tile
        elif cell in view.blocked:
            fill = theme.blocked
        else:
            fill = theme.cell
        pygame.draw.polygon(surface, fill, outline)
        edge, width = theme.cell_edge, 1
        if cell in view.last_turn:
            edge, width = theme.last_turn, max(2, int(layout.size * 0.14))
        if cell == view.selected:
            edge, width = theme.selected, max(2, int(layout.size * 0.18))
        pygame.draw.polygon(surface, edge, outline, width)
        if cell in view.blocked and label is None:
            x, y = layout.centre(cell)
            d = layout.size * 0.4
            pygame.draw.line(surface, theme.blocked_mark, (x - d, y - d), (x + d, y + d), 2)
            pygame.draw.line(surface, theme.blocked_mark, (x - d, y + d), (x + d, y - d), 2)
        if cell in view.restore:
            label = view.restore[cell]
        if label:
            text = (font if len(label) <= 2 else small).render(label, True, theme.tile_text)
            surface.blit(text, text.get_rect(center=layout.centre(cell)))
