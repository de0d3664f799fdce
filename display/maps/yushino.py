"""Yushino's map: the 15 x 15 board (games.md) with its premium squares and the tiles on it.

Premium squares are filled with the printed board's colours (calibration.palette) and keep their
label (``2*``, ``3*``, ``2X``, ``3X``) while empty; a tile shows its number, a blank ``#`` and the
number it stands for; the last play's squares are outlined; column letters and row numbers run
along the top and the left.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from calibration.palette import PREMIUM_RGB
from display.theme import Theme, ink_on
from engine.games import Replay
from engine.yushino import parse_placement, replay_game
from engine.yushino.board import COLUMNS, SIZE, Square


@dataclass(frozen=True, slots=True)
class YushinoMap:
    """The board after a transcript.

    Attributes:
        premiums: (square, kind) of every premium square of the game's layout.
        tiles: (square, label) of every tile: ``"7"``, or ``"#7"`` for a blank standing for 7.
        last_turn: the squares of the last legal play.
    """

    premiums: tuple[tuple[Square, str], ...]
    tiles: tuple[tuple[Square, str], ...]
    last_turn: frozenset[Square] = frozenset()

    def square_rect(self, rect: pygame.Rect, square: Square) -> pygame.Rect:
        """Where ``square`` is drawn when the map fills ``rect`` (pixels)."""
        cell, left, top = _grid(rect)
        return pygame.Rect(left + square.col * cell, top + square.row * cell, cell, cell)

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, theme: Theme) -> None:
        """Draw the board into ``rect``."""
        cell, left, top = _grid(rect)
        premiums, tiles = dict(self.premiums), dict(self.tiles)
        label_font = theme.font(max(8, int(cell * 0.42)), bold=True)
        tile_font = theme.font(max(9, int(cell * 0.75)), bold=True)
        small = theme.font(max(7, int(cell * 0.45)), bold=True)
        for i in range(SIZE):
            col = label_font.render(COLUMNS[i], True, theme.muted)
            surface.blit(col, col.get_rect(center=(left + (i + 0.5) * cell, top - cell * 0.4)))
            row = label_font.render(str(i + 1), True, theme.muted)
            surface.blit(row, row.get_rect(center=(left - cell * 0.45, top + (i + 0.5) * cell)))
        for r in range(SIZE):
            for c in range(SIZE):
                square = Square(c, r)
                box = pygame.Rect(left + c * cell, top + r * cell, cell, cell).inflate(-2, -2)
                label = tiles.get(square)
                kind = premiums.get(square)
                fill = theme.square_tile if label else PREMIUM_RGB[kind] if kind else theme.square
                pygame.draw.rect(surface, fill, box)
                if square in self.last_turn:
                    pygame.draw.rect(surface, theme.last_turn, box, max(2, cell // 8))
                text = label or kind
                if text:
                    font = tile_font if label and len(label) == 1 else small if label else label_font
                    ink = theme.tile_text if label else ink_on(fill)
                    words = font.render(text, True, ink)
                    surface.blit(words, words.get_rect(center=box.center))


def _grid(rect: pygame.Rect) -> tuple[int, int, int]:
    """Square side and the board's top-left corner in ``rect`` (one square's room for the labels)."""
    cell = max(1, int(min(rect.width, rect.height) / (SIZE + 1)))
    left = rect.x + (rect.width - SIZE * cell + cell) // 2
    top = rect.y + (rect.height - SIZE * cell + cell) // 2
    return cell, left, top


def yushino_map(text: str) -> tuple[YushinoMap, Replay]:
    """The board after a Yushino transcript, and the engine's replay.

    Raises:
        TranscriptError, LayoutError (ValueErrors): the header makes no game, or a bad layout file.
    """
    game, replay = replay_game(text)
    tiles = tuple(
        (square, f"#{tile.value}" if tile.blank else str(tile.value))
        for square, tile in sorted(game.position.tiles.items())
    )
    plays = [t for t in replay.turns if t.legal and t.kind == "play"]
    last = frozenset(parse_placement(m).square for m in plays[-1].moves) if plays else frozenset()
    premiums = tuple(sorted(game.settings.layout.premiums.items()))
    return YushinoMap(premiums, tiles, last), replay

