"""Colours and fonts of the kiosk.

The palette stays apart under the common colour-vision deficiencies: every pair of state colours
(and each against the background), and every pair of board marks, keeps a CIEDE2000 difference of
at least 20 under normal vision and under simulated protanopia, deuteranopia and tritanopia
(tests/display/test_palette.py). Every state is also written in words on the banner, so colour
is never the only cue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pygame

from calibration.palette import ink_on
from display.view import TableState

Colour = tuple[int, int, int]

__all__ = ["Colour", "Theme", "ink_on"]

_FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")


@dataclass(slots=True)
class Theme:
    """Colours (RGB) and a font cache; fonts fall back to pygame's bundled font when DejaVu is absent."""

    background: Colour = (22, 26, 34)
    panel: Colour = (22, 26, 34)
    card: Colour = (48, 52, 64)
    current: Colour = (245, 245, 245)
    current_text: Colour = (0, 0, 0)
    score: Colour = (255, 255, 255)
    text: Colour = (235, 235, 235)
    muted: Colour = (160, 165, 175)
    # the banner's state colours (each with its words)
    waiting: Colour = (129, 126, 128)
    reading: Colour = (94, 173, 255)
    hand: Colour = (216, 250, 33)
    illegal_state: Colour = (172, 6, 0)
    out_of_sync: Colour = (145, 32, 177)
    game_over: Colour = (249, 215, 216)
    # the board map: cell fills
    cell: Colour = (30, 141, 124)
    cell_edge: Colour = (12, 60, 52)
    tile: Colour = (240, 210, 90)
    tile_text: Colour = (20, 20, 20)
    provisional: Colour = (164, 198, 215)
    blocked: Colour = (35, 0, 50)
    blocked_mark: Colour = (150, 150, 150)
    illegal: Colour = (184, 27, 49)
    illegal_dim: Colour = (100, 14, 26)
    restore: Colour = (152, 25, 235)
    # other games' maps: a Yushino square and tile (premiums: calibration.palette), Super Wild's
    # tiles, its Super Wild and the outlines of sets and runs, a closed Holominoes hole
    square: Colour = (110, 110, 110)
    square_tile: Colour = (255, 255, 255)
    table_tile: Colour = (245, 240, 225)
    wild_tile: Colour = (110, 30, 160)
    set_group: Colour = (94, 173, 255)
    run_group: Colour = (255, 140, 0)
    hole: Colour = (255, 255, 255)
    # the board map: outlines
    last_turn: Colour = (0, 29, 205)
    selected: Colour = (255, 255, 255)
    uncertain: Colour = (188, 95, 255)
    # words and buttons
    ok: Colour = (94, 173, 255)
    warn: Colour = (216, 250, 33)
    error: Colour = (255, 110, 100)
    button: Colour = (64, 70, 86)
    button_text: Colour = (245, 245, 245)
    _fonts: dict[tuple[int, bool], pygame.font.Font] = field(default_factory=dict)

    def state_colour(self, state: TableState) -> Colour:
        """The banner colour of ``state``."""
        return {
            TableState.WAITING: self.waiting,
            TableState.READING: self.reading,
            TableState.HAND: self.hand,
            TableState.ILLEGAL: self.illegal_state,
            TableState.OUT_OF_SYNC: self.out_of_sync,
            TableState.GAME_OVER: self.game_over,
        }[state]

    def fitting(self, text: str, width: int, px: int, bold: bool = False) -> pygame.font.Font:
        """The font of at most ``px`` pixels in which ``text`` is at most ``width`` pixels wide
        (never below 8 px)."""
        font = self.font(px, bold)
        while font.size(text)[0] > width and px > 8:
            px -= 1
            font = self.font(px, bold)
        return font

    def font(self, px: int, bold: bool = False) -> pygame.font.Font:
        """A font of about ``px`` pixels line height (cached)."""
        key = (px, bold)
        if key not in self._fonts:
            path = _FONT_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
            self._fonts[key] = pygame.font.Font(str(path) if path.is_file() else None, px)
        return self._fonts[key]
