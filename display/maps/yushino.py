"""Yushino's map: the 15 x 15 board (games.md) with its premium squares and the tiles on it.

Premium squares are filled with the printed board's colours (calibration.palette) and keep their
label (``2*``, ``3*``, ``2X``, ``3X``) while empty; a tile shows its number, a blank ``#`` and the
number it stands for; the last play's squares are outlined; column letters and row numbers run
along the top and the left. The turn in progress (its placements, not yet committed) is drawn as
provisional tiles: a tile thickly outlined in ``theme.provisional`` (``theme.illegal`` when the turn
is illegal). A tap on a tile of the turn in progress picks it for a correction (:meth:`YushinoMap.tile_at`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from calibration.palette import PREMIUM_RGB
from display.theme import Theme, ink_on
from display.tile_keypad import YushinoKeypad
from engine.games import Replay
from engine.yushino import parse_placement, replay_game
from engine.yushino.board import COLUMNS, SIZE, Square, format_square, parse_square
from engine.yushino.tiles import BLANK


@dataclass(frozen=True, slots=True)
class YushinoMap:
    """The board after a transcript.

    Attributes:
        premiums: (square, kind) of every premium square of the game's layout.
        tiles: (square, label) of every tile: ``"7"``, or ``"#7"`` for a blank standing for 7.
        last_turn: the squares of the last legal play.
        pending: (square, label) of every tile of the turn in progress (``"#"`` for a blank seen
            without its number).
        illegal: the turn in progress breaks a rule (its tiles in the alert colour).
    """

    premiums: tuple[tuple[Square, str], ...]
    tiles: tuple[tuple[Square, str], ...]
    last_turn: frozenset[Square] = frozenset()
    pending: tuple[tuple[Square, str], ...] = ()
    illegal: bool = False

    def square_rect(self, rect: pygame.Rect, square: Square) -> pygame.Rect:
        """Where ``square`` is drawn when the map fills ``rect`` (pixels)."""
        cell, left, top = _grid(rect)
        return pygame.Rect(left + square.col * cell, top + square.row * cell, cell, cell)

    def tile_at(self, rect: pygame.Rect, xy: tuple[float, float]) -> str | None:
        """The tile of the turn in progress on the square under ``xy`` (pixels) when the map fills
        ``rect``, as a placement (``7H8``, ``#=7H9``, ``#H9``); None off those tiles (a tile already
        played never moves: what the camera reads on it changes nothing)."""
        cell, left, top = _grid(rect)
        col, row = math.floor((xy[0] - left) / cell), math.floor((xy[1] - top) / cell)
        if not (0 <= col < SIZE and 0 <= row < SIZE):
            return None
        square = Square(col, row)
        label = dict(self.pending).get(square)
        if label is None:
            return None
        face = f"{BLANK}={label[1:]}" if label.startswith(BLANK) and len(label) > 1 else label
        return f"{face}{format_square(square)}"

    def place_at(self, rect: pygame.Rect, xy: tuple[float, float]) -> str | None:
        """The empty square under ``xy`` (pixels) when the map fills ``rect`` (``"H8"``); None off
        the board or on a tile."""
        cell, left, top = _grid(rect)
        col, row = math.floor((xy[0] - left) / cell), math.floor((xy[1] - top) / cell)
        square = Square(col, row)
        taken = {s for s, _ in self.tiles} | {s for s, _ in self.pending}
        return format_square(square) if 0 <= col < SIZE and 0 <= row < SIZE and square not in taken else None

    def outline(self, rect: pygame.Rect, place: str) -> list[tuple[float, float]]:
        """The square ``place`` (``"H8"``; pixels, its four corners)."""
        box = self.square_rect(rect, parse_square(place))
        return [box.topleft, box.topright, box.bottomright, box.bottomleft]

    def keypad(self) -> YushinoKeypad:
        """The keypad's faces for a tile of this board."""
        return YushinoKeypad()

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, theme: Theme) -> None:
        """Draw the board into ``rect``."""
        cell, left, top = _grid(rect)
        premiums, tiles, pending = dict(self.premiums), dict(self.tiles), dict(self.pending)
        provisional = theme.illegal if self.illegal else theme.provisional
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
                label = tiles.get(square) or pending.get(square)
                kind = premiums.get(square)
                fill = theme.square_tile if label else PREMIUM_RGB[kind] if kind else theme.square
                pygame.draw.rect(surface, fill, box)
                if square in pending:
                    pygame.draw.rect(surface, provisional, box, max(2, cell // 6))
                elif square in self.last_turn:
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


def yushino_map(text: str, pending: Sequence[str] = (), illegal: bool = False) -> tuple[YushinoMap, Replay]:
    """The board after a Yushino transcript with the turn in progress, and the engine's replay.

    Args:
        text: the transcript of the committed turns.
        pending: the placements of the turn in progress (``7H8``, ``#=7H9``, or ``#H9`` for a blank
            seen without its number).
        illegal: the turn in progress breaks a rule.

    Raises:
        TranscriptError, LayoutError (ValueErrors): the header makes no game, or a bad layout file.
        ValueError: a pending placement that cannot be read (the message quotes it).
    """
    game, replay = replay_game(text)
    tiles = tuple(
        (square, f"#{tile.value}" if tile.blank else str(tile.value))
        for square, tile in sorted(game.position.tiles.items())
    )
    plays = [t for t in replay.turns if t.legal and t.kind == "play"]
    last = frozenset(parse_placement(m).square for m in plays[-1].moves) if plays else frozenset()
    premiums = tuple(sorted(game.settings.layout.premiums.items()))
    return YushinoMap(premiums, tiles, last, tuple(_pending(m) for m in pending), illegal), replay


def _pending(move: str) -> tuple[Square, str]:
    """``"7H8"`` -> (H8, "7"); ``"#=7H9"`` -> (H9, "#7"); ``"#H9"`` -> (H9, "#")."""
    if move.startswith(BLANK) and not move.startswith(BLANK + "="):
        try:
            return parse_square(move[1:]), BLANK
        except ValueError as exc:
            raise ValueError(f"not a placement: {move!r}: {exc}") from None
    placement = parse_placement(move)
    tile = placement.tile
    return placement.square, f"{BLANK}{tile.value}" if tile.blank else str(tile.value)

