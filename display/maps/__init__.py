"""Each game's own map on the kiosk, behind one interface chosen by the game.

MODLINSEQ's hex board is display.board_map (the camera session draws it from KioskView.cells and
tiles). The other games each have a module here whose map value is built from the engine's replay
of a transcript and draws itself into a rectangle of the screen:

- yushino: the 15 x 15 board with its premiums (calibration.palette) and tiles;
- superwild: the table grid, each set and run outlined, the Super Wild marked;
- holominoes: the flat-topped hexes with their corner numbers, closed holes with their score,
  blocked points crossed out as MODLINSEQ's blocked cells are.

:func:`read_game` picks the module from the transcript's ``[Game "..."]`` tag.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from display.theme import Theme
from engine.games import Replay, canonical_name
from engine.record import game_tag


class GameMap(Protocol):
    """A game's picture of the table, an immutable value (compared by value, like KioskView)."""

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, theme: Theme) -> None:
        """Draw the map into ``rect`` of ``surface``."""
        ...


def read_game(text: str) -> tuple[GameMap, Replay]:
    """The map of the table after a transcript, and the engine's replay of it.

    Args:
        text: a Yushino, Super Wild or Holominoes transcript (its ``[Game "..."]`` tag decides).

    Raises:
        ValueError: an unknown game, MODLINSEQ (drawn by display.board_map), or tags that make no
            game (the engine's message).
    """
    name = canonical_name(game_tag(text))
    if name == "Yushino":
        from display.maps.yushino import yushino_map

        return yushino_map(text)
    if name == "Super Wild":
        from display.maps.superwild import superwild_map

        return superwild_map(text)
    if name == "Holominoes":
        from display.maps.holominoes import holominoes_map

        return holominoes_map(text)
    raise ValueError(f"{name}: its map is the hex board (display.board_map), not a game map")
