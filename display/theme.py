"""Colours and fonts of the kiosk, scaled to the screen height."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pygame

Colour = tuple[int, int, int]

_FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")


@dataclass(slots=True)
class Theme:
    """Colours (RGB) and a font cache; fonts fall back to pygame's bundled font when DejaVu is absent."""

    background: Colour = (18, 38, 28)
    panel: Colour = (28, 30, 36)
    text: Colour = (235, 235, 235)
    muted: Colour = (150, 155, 165)
    cell: Colour = (40, 110, 70)
    cell_edge: Colour = (20, 60, 38)
    tile: Colour = (240, 210, 90)
    tile_text: Colour = (20, 20, 20)
    provisional: Colour = (150, 200, 250)
    last_turn: Colour = (255, 130, 20)
    selected: Colour = (250, 250, 250)
    blocked: Colour = (70, 70, 70)
    blocked_mark: Colour = (200, 60, 60)
    illegal: Colour = (235, 30, 30)
    illegal_dim: Colour = (120, 30, 30)
    restore: Colour = (210, 90, 210)
    ok: Colour = (90, 210, 110)
    warn: Colour = (245, 180, 40)
    error: Colour = (245, 70, 60)
    button: Colour = (60, 64, 76)
    _fonts: dict[tuple[int, bool], pygame.font.Font] = field(default_factory=dict)

    def font(self, px: int, bold: bool = False) -> pygame.font.Font:
        """A font of about ``px`` pixels line height (cached)."""
        key = (px, bold)
        if key not in self._fonts:
            path = _FONT_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
            self._fonts[key] = pygame.font.Font(str(path) if path.is_file() else None, px)
        return self._fonts[key]
