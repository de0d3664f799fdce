"""Each game's own map on the kiosk, behind one interface chosen by the game.

MODLINSEQ's hex board is display.board_map (the camera session draws it from KioskView.cells and
tiles). The other games each have a module here whose map value is built from the engine's replay
of a transcript and draws itself into a rectangle of the screen:

- yushino: the 15 x 15 board with its premiums (calibration.palette) and tiles;
- superwild: the table grid, each set and run outlined, the Super Wild marked;
- holominoes: the flat-topped hexes with their corner numbers, closed holes with their score,
  blocked points crossed out as MODLINSEQ's blocked cells are.

:func:`read_game` picks the module from the transcript's ``[Game "..."]`` tag. Each map also draws the
turn in progress (the moves the camera sees before the turn is committed) as provisional tiles,
outlined in ``theme.provisional``, or in ``theme.illegal`` when that turn breaks a rule, and
outlines the last committed play's tiles in ``theme.last_turn``. A tap on a tile that may be
corrected (:meth:`GameMap.tile_at`: the turn in progress; on Super Wild's open table any tile) opens
the keypad with the game's faces (:meth:`GameMap.keypad`); a tap on an empty place
(:meth:`GameMap.place_at`) opens it for a tile the camera does not see there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import pygame

from display.theme import Theme
from display.tile_keypad import TileKeypad
from engine.games import Replay, canonical_name
from engine.record import game_tag


class GameMap(Protocol):
    """A game's picture of the table, an immutable value (compared by value, like KioskView)."""

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, theme: Theme) -> None:
        """Draw the map into ``rect`` of ``surface``."""
        ...

    def tile_at(self, rect: pygame.Rect, xy: tuple[float, float]) -> str | None:
        """The tile a tap at ``xy`` (pixels) picks for a correction when the map fills ``rect``, as a
        placement where the map shows it (games.md notation, the transcript's frame); None where
        no tile is there to correct."""
        ...

    def place_at(self, rect: pygame.Rect, xy: tuple[float, float]) -> str | None:
        """The empty place a tap at ``xy`` (pixels) picks for a tile the camera does not see when the
        map fills ``rect``, in the game's notation (``"H8"``, ``"3,1"``, ``"1,0"``); None on a tile."""
        ...

    def outline(self, rect: pygame.Rect, place: str) -> list[tuple[float, float]]:
        """The outline (pixels, a polygon) of the place ``place`` (engine.placement.place_of) when
        the map fills ``rect``: the kiosk marks the tile or empty place picked with it."""
        ...

    def keypad(self) -> TileKeypad:
        """The game's faces on the keypad (display.tile_keypad)."""
        ...


def read_game(text: str, pending: Sequence[str] = (), illegal: bool = False) -> tuple[GameMap, Replay]:
    """The map of the table after a transcript with the turn in progress, and the engine's replay of
    the transcript.

    Args:
        text: a Yushino, Super Wild or Holominoes transcript (its ``[Game "..."]`` tag decides) of
            the committed turns.
        pending: the moves of the turn in progress in the game's notation (the rules'
            ``table_turn`` text split on ", "): ``7H8`` (a blank seen as ``#H9``), ``R7@3,0`` or
            ``R7@3,0>3,1``, ``132@1,0/E``; none by default.
        illegal: the turn in progress breaks a rule (drawn in the alert colour).

    Raises:
        ValueError: an unknown game, MODLINSEQ (drawn by display.board_map), tags that make no
            game (the engine's message), or a pending move that cannot be read (quoted).
    """
    name = canonical_name(game_tag(text))
    if name == "Yushino":
        from display.maps.yushino import yushino_map

        return yushino_map(text, pending, illegal)
    if name == "Super Wild":
        from display.maps.superwild import superwild_map

        return superwild_map(text, pending, illegal)
    if name == "Holominoes":
        from display.maps.holominoes import holominoes_map

        return holominoes_map(text, pending, illegal)
    raise ValueError(f"{name}: its map is the hex board (display.board_map), not a game map")
