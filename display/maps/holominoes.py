"""Holominoes' map: flat-topped hexes on axial q,r (games.md), corner numbers, holes, blocked points.

Each tile is drawn at its cell with round bites at NE, W and SE and its numbers upright near the
E, SW and NW corners (the transcript's frame); the last tile laid is outlined. A closed hole (a
bite point with its three cells filled) is a light disc at the bite point with its score (the sum
of its three numbers) in it. A blocked point (an empty cell that no remaining tile fits) is filled
and crossed as MODLINSEQ's blocked cells are on display.board_map. The turn in progress (its tile,
not yet committed) is drawn at its cell thickly outlined in ``theme.provisional`` (``theme.illegal``
when the turn is illegal). A tap on the tile of the turn in progress picks it for a correction
(:meth:`HolominoesMap.tile_at`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from display.theme import Theme
from display.tile_keypad import HolominoesKeypad
from engine.games import Replay
from engine.holominoes import Cell, parse_cell, parse_placement, parse_point, replay
from engine.holominoes.geometry import (
    BITES,
    CORNERS,
    NEIGHBOURS,
    NUMBERED,
    cell_at,
    centre_xy,
    corner_xy,
    format_cell,
)
from engine.holominoes.tiles import corner_placement, format_placement

#: Where a number sits, as a fraction of the radius from the centre towards its corner (clear of
#: the bites and of the other numbers), and a bite's radius as a fraction of the tile's radius.
DIGIT_AT = 0.58
BITE = 0.28


@dataclass(frozen=True, slots=True)
class HoleMark:
    """A closed hole: its bite point (the owning cell and ``"SE"``) and its score."""

    cell: Cell
    points: int


@dataclass(frozen=True, slots=True)
class HolominoesMap:
    """The table after a transcript.

    Attributes:
        tiles: (cell, numbers on E, SW, NW) of every tile.
        holes: every hole closed so far.
        blocked: the blocked points (empty cells no remaining tile fits).
        last: the cell of the last tile laid, if any.
        pending: (cell, numbers on E, SW, NW) of the tiles of the turn in progress.
        illegal: the turn in progress breaks a rule (its tiles in the alert colour).
        digits: the tiles' largest number (``[Digits]``).
    """

    tiles: tuple[tuple[Cell, tuple[int, int, int]], ...]
    holes: tuple[HoleMark, ...] = ()
    blocked: frozenset[Cell] = frozenset()
    last: Cell | None = None
    pending: tuple[tuple[Cell, tuple[int, int, int]], ...] = ()
    illegal: bool = False
    digits: int = 6

    def fit(self, rect: pygame.Rect) -> tuple[float, tuple[float, float]]:
        """Tile radius (pixels) and the pixel of cell 0,0's centre that fit every cell and the cells
        beside the tiles (where a tile the camera does not see may be added) into ``rect``."""
        laid = [c.key for c, _ in self.tiles + self.pending]
        beside = {(q + dq, r + dr) for q, r in laid for dq, dr in ((0, 0), *NEIGHBOURS)}
        keys = beside | {c.key for c in self.blocked}
        xs, ys = zip(*(centre_xy(k) for k in keys), strict=True)
        radius = min(rect.width / (max(xs) - min(xs) + 2.2), rect.height / (max(ys) - min(ys) + 2.0))
        mid_x, mid_y = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
        origin = (rect.centerx - radius * mid_x, rect.centery - radius * mid_y)
        return radius, origin

    def pixel(self, rect: pygame.Rect, xy: tuple[float, float]) -> tuple[float, float]:
        """The pixel of a picture point (tile radii, games.md) when the map fills ``rect``."""
        radius, (ox, oy) = self.fit(rect)
        return (ox + radius * xy[0], oy + radius * xy[1])

    def tile_at(self, rect: pygame.Rect, xy: tuple[float, float]) -> str | None:
        """The tile of the turn in progress on the hexagon under ``xy`` (pixels) when the map fills
        ``rect``, as a placement (``132@1,0/E``); None off those tiles (a tile already played never
        moves: what the camera reads on it changes nothing)."""
        radius, (ox, oy) = self.fit(rect)
        key = cell_at(((xy[0] - ox) / radius, (xy[1] - oy) / radius))
        numbers = {cell.key: n for cell, n in self.pending}.get(key)
        if numbers is None:
            return None
        return format_placement(corner_placement(Cell(*key), numbers))

    def place_at(self, rect: pygame.Rect, xy: tuple[float, float]) -> str | None:
        """The empty cell under ``xy`` (pixels) when the map fills ``rect`` (``"1,0"``); None on a tile."""
        radius, (ox, oy) = self.fit(rect)
        key = cell_at(((xy[0] - ox) / radius, (xy[1] - oy) / radius))
        taken = {cell.key for cell, _ in self.tiles + self.pending}
        return None if key in taken else format_cell(Cell(*key))

    def outline(self, rect: pygame.Rect, place: str) -> list[tuple[float, float]]:
        """The hexagon of the cell ``place`` (``"1,0"``; pixels, its six corners)."""
        cell = parse_cell(place)
        return [self.pixel(rect, corner_xy(cell.key, c)) for c in CORNERS]

    def keypad(self) -> HolominoesKeypad:
        """The keypad's faces for a tile of this table (digits 1 .. ``digits``)."""
        return HolominoesKeypad(self.digits)

    def hole_centre(self, rect: pygame.Rect, hole: HoleMark) -> tuple[float, float]:
        """Where ``hole``'s disc is drawn (pixels)."""
        return self.pixel(rect, corner_xy(hole.cell.key, "SE"))

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, theme: Theme) -> None:
        """Draw the table into ``rect``."""
        radius, _ = self.fit(rect)
        digit_font = theme.font(max(8, int(radius * 0.42)), bold=True)
        for cell in self.blocked:
            outline = [self.pixel(rect, corner_xy(cell.key, c)) for c in CORNERS]
            pygame.draw.polygon(surface, theme.blocked, outline)
            pygame.draw.polygon(surface, theme.cell_edge, outline, 1)
            x, y = self.pixel(rect, centre_xy(cell.key))
            d = radius * 0.4
            pygame.draw.line(surface, theme.blocked_mark, (x - d, y - d), (x + d, y + d), 2)
            pygame.draw.line(surface, theme.blocked_mark, (x - d, y + d), (x + d, y - d), 2)
        pending = {cell for cell, _ in self.pending}
        provisional = theme.illegal if self.illegal else theme.provisional
        for cell, numbers in self.tiles + self.pending:
            outline = [self.pixel(rect, _inset(cell, c)) for c in CORNERS]
            pygame.draw.polygon(surface, theme.tile, outline)
            if cell in pending:
                pygame.draw.polygon(surface, provisional, outline, max(2, int(radius * 0.16)))
            elif cell == self.last:
                pygame.draw.polygon(surface, theme.last_turn, outline, max(2, int(radius * 0.1)))
            else:
                pygame.draw.polygon(surface, theme.cell_edge, outline, 1)
            for corner in BITES:
                pygame.draw.circle(surface, theme.background, self.pixel(rect, corner_xy(cell.key, corner)),
                                   BITE * radius * 0.94)
            cx, cy = centre_xy(cell.key)
            for number, corner in zip(numbers, NUMBERED, strict=True):
                kx, ky = corner_xy(cell.key, corner)
                at = self.pixel(rect, (cx + DIGIT_AT * (kx - cx), cy + DIGIT_AT * (ky - cy)))
                words = digit_font.render(str(number), True, theme.tile_text)
                surface.blit(words, words.get_rect(center=at))
        hole_font = theme.font(max(8, int(radius * 0.36)), bold=True)
        for hole in self.holes:
            centre = self.hole_centre(rect, hole)
            disc = BITE * radius * 1.25  # larger than the bite: the score stays readable
            pygame.draw.circle(surface, theme.hole, centre, disc)
            pygame.draw.circle(surface, theme.last_turn, centre, disc, max(1, int(radius * 0.05)))
            words = hole_font.render(str(hole.points), True, (0, 0, 0))
            surface.blit(words, words.get_rect(center=centre))


def _inset(cell: Cell, corner: str) -> tuple[float, float]:
    """A corner pulled 3% towards the cell's centre, so that neighbouring tiles show a seam."""
    cx, cy = centre_xy(cell.key)
    x, y = corner_xy(cell.key, corner)
    return (cx + 0.97 * (x - cx), cy + 0.97 * (y - cy))


def holominoes_map(text: str, pending: Sequence[str] = (), illegal: bool = False
                   ) -> tuple[HolominoesMap, Replay]:
    """The table after a Holominoes transcript with the turn in progress, and the engine's replay
    (holes from its turns).

    Args:
        text: the transcript of the committed turns.
        pending: the placements of the turn in progress (``132@1,0/E``).
        illegal: the turn in progress breaks a rule.

    Raises:
        ValueError: the tags cannot make a game (the engine's message), or a pending placement that
            cannot be read (the message quotes it).
    """
    game, result = replay(text)
    tiles = tuple((p.cell, p.tile.oriented(p.first)) for p in game.position.placements)
    holes = tuple(
        HoleMark(parse_point(h["point"]).cell, int(h["points"]))
        for turn in result.turns if turn.legal
        for h in turn.details.get("holes", ())
    )
    plays = [t for t in result.turns if t.legal and t.kind == "play"]
    last = parse_placement(plays[-1].moves[0]).cell if plays else None
    blocked = frozenset(parse_cell(c) for c in game.blocked_points())
    laid = tuple((p.cell, p.tile.oriented(p.first)) for p in map(parse_placement, pending))
    return HolominoesMap(tiles, holes, blocked, last, laid, illegal, game.settings.digits), result



