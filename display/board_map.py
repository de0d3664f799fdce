"""The board map: every cell of the hex board drawn into a rectangle of the kiosk screen.

Pointy-top hexagons as on the printed board (../shared/design/addressing.md); :func:`fit_layout`
gives the calibration ``Layout`` that fits the board into the rectangle (pixels <-> cells, the
latter for touch corrections).
"""

from __future__ import annotations

from collections.abc import Iterable

import pygame

from calibration.layout import SQRT3, Layout
from display.theme import Theme, ink_on
from display.view import KioskView
from engine.hexgrid import Hex


def fit_layout(cells: Iterable[Hex], rect: pygame.Rect) -> Layout:
    """The largest pixel layout that shows all ``cells`` inside ``rect`` (pixels), centred.

    Raises:
        ValueError: ``cells`` is empty or ``rect`` has no area.
    """
    cells = list(cells)
    if not cells or rect.width <= 0 or rect.height <= 0:
        raise ValueError(f"cannot fit {len(cells)} cells into {rect}")
    unit = Layout((0.0, 0.0), 1.0)
    xs, ys = zip(*(unit.hex_to_pixel(c) for c in cells), strict=True)
    size = min(rect.width / (max(xs) - min(xs) + SQRT3), rect.height / (max(ys) - min(ys) + 2.0))
    mid_x, mid_y = (max(xs) + min(xs)) / 2.0, (max(ys) + min(ys)) / 2.0
    origin = (rect.centerx - size * mid_x, rect.centery - size * mid_y)
    return Layout(origin, size)


def _outline(layout: Layout, cell: Hex, shrink: float) -> list[tuple[float, float]]:
    x, y = layout.hex_to_pixel(cell)
    return [(x + (cx - x) * shrink, y + (cy - y) * shrink) for cx, cy in layout.hex_corners(cell)]


def draw_board(surface: pygame.Surface, view: KioskView, layout: Layout, theme: Theme,
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
        outline = _outline(layout, cell, 0.94)
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
        if cell in view.uncertain:
            edge, width = theme.uncertain, max(2, int(layout.size * 0.18))
        if cell == view.selected:
            edge, width = theme.selected, max(2, int(layout.size * 0.18))
        pygame.draw.polygon(surface, edge, outline, width)
        if cell in view.blocked and label is None:
            x, y = layout.hex_to_pixel(cell)
            d = layout.size * 0.4
            pygame.draw.line(surface, theme.blocked_mark, (x - d, y - d), (x + d, y + d), 2)
            pygame.draw.line(surface, theme.blocked_mark, (x - d, y + d), (x + d, y - d), 2)
        if cell in view.restore:
            label = view.restore[cell]
        if label:
            text = (font if len(label) <= 2 else small).render(label, True, ink_on(fill))
            surface.blit(text, text.get_rect(center=layout.hex_to_pixel(cell)))
    for cell in view.uncertain:  # a question mark in a dark disc on the outline: not colour alone
        x, y = layout.hex_to_pixel(cell)
        mark = small.render("?", True, theme.uncertain)
        where = mark.get_rect(center=(x + layout.size * 0.62, y - layout.size * 0.55))
        pygame.draw.circle(surface, theme.background, where.center, max(where.width, where.height) // 2 + 1)
        surface.blit(mark, where)
