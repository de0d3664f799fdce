"""Super Wild's map: the table grid of games.md (x to the right, y down) with every group outlined.

Each tile is a light rectangle (``theme.table_tile``) with its number in its colour's ink (K
black, B blue, O orange, R red) and, where the tiles are large enough, the colour's letter; the
Super Wild is a dark tile (``theme.wild_tile``) with a white ``W``. Every group of every line
(engine.superwild.lines.split_line) gets an outline around its tiles: sets in
``theme.set_group``, runs in ``theme.run_group``, rows drawn a little outside the tiles and
columns a little further, so that a tile shared by a row and a column shows both. A legend names
the two outline colours in words.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from display.theme import Theme
from engine.games import Replay
from engine.superwild import RUN, replay_round, split_line
from engine.superwild.tiles import Pos, Tile

#: Ink of each colour's numbers on a light tile (RGB); "W" is the Super Wild.
INK: dict[str, tuple[int, int, int]] = {
    "K": (20, 20, 20), "B": (0, 80, 200), "O": (215, 105, 0), "R": (200, 25, 25),
}  # fmt: skip
#: Smallest cell (pixels) that also shows the colour's letter under the number: below it the
#: letter would touch the number, and the ink alone tells the colour.
LETTER_MIN_PX = 36


@dataclass(frozen=True, slots=True)
class Group:
    """One set or run: its kind ("set" or "run"), its direction and its tiles' positions in order."""

    kind: str
    direction: str
    positions: tuple[Pos, ...]


@dataclass(frozen=True, slots=True)
class SuperWildMap:
    """The table after a transcript.

    Attributes:
        tiles: (position, tile) of every tile, the Super Wild among them.
        groups: every group of every legal line.
    """

    tiles: tuple[tuple[Pos, Tile], ...]
    groups: tuple[Group, ...]

    def cell_rect(self, rect: pygame.Rect, pos: Pos) -> pygame.Rect:
        """Where the tile at ``pos`` is drawn when the map fills ``rect`` (pixels)."""
        cell, x0, y0 = self._grid(rect)
        return pygame.Rect(x0 + pos.x * cell, y0 + pos.y * cell, cell, cell)

    def _grid(self, rect: pygame.Rect) -> tuple[int, int, int]:
        """Cell side and the pixel of position 0,0's top-left corner (one cell of margin around)."""
        xs = [p.x for p, _ in self.tiles]
        ys = [p.y for p, _ in self.tiles]
        cols, rows = max(xs) - min(xs) + 3, max(ys) - min(ys) + 3
        legend = 0.08 * rect.height  # room for the legend at the bottom
        cell = max(4, int(min(rect.width / cols, (rect.height - legend) / rows)))
        x0 = rect.x + (rect.width - (cols - 2) * cell) // 2 - min(xs) * cell
        y0 = rect.y + int(rect.height - legend - (rows - 2) * cell) // 2 - min(ys) * cell
        return cell, x0, y0

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, theme: Theme) -> None:
        """Draw the table into ``rect``."""
        cell, _, _ = self._grid(rect)
        lettered = cell >= LETTER_MIN_PX
        number_font = theme.font(max(8, int(cell * (0.5 if lettered else 0.62))), bold=True)
        letter_font = theme.font(max(7, int(cell * 0.24)), bold=True)
        for pos, tile in self.tiles:
            box = self.cell_rect(rect, pos).inflate(-cell // 6, -cell // 6)
            fill = theme.wild_tile if tile.is_wild else theme.table_tile
            pygame.draw.rect(surface, fill, box, border_radius=cell // 10)
            ink = (255, 255, 255) if tile.is_wild else INK[tile.colour]
            number = number_font.render("W" if tile.is_wild else str(tile.number), True, ink)
            lift = cell // 12 if lettered else 0  # room for the letter under the number
            surface.blit(number, number.get_rect(center=(box.centerx, box.centery - lift)))
            if lettered and not tile.is_wild:
                letter = letter_font.render(tile.colour, True, ink)
                surface.blit(letter, letter.get_rect(midbottom=(box.centerx, box.bottom - 1)))
        width = max(2, cell // 10)
        for group in self.groups:
            first = self.cell_rect(rect, group.positions[0])
            box = first.unionall([self.cell_rect(rect, p) for p in group.positions[1:]])
            grow = cell // 12 if group.direction == "row" else -cell // 30
            colour = theme.run_group if group.kind == RUN else theme.set_group
            pygame.draw.rect(surface, colour, box.inflate(grow * 2, grow * 2), width, border_radius=cell // 6)
        legend_font = theme.font(max(9, int(rect.height * 0.045)))
        x = rect.x + 4
        for words, colour in (("set", theme.set_group), ("run", theme.run_group)):
            swatch = pygame.Rect(x, rect.bottom - legend_font.get_height(), legend_font.get_height(),
                                 legend_font.get_height() - 2)
            pygame.draw.rect(surface, colour, swatch, width)
            label = legend_font.render(words, True, theme.text)
            surface.blit(label, (swatch.right + 4, swatch.y))
            x = swatch.right + label.get_width() + 16


def superwild_map(text: str) -> tuple[SuperWildMap, Replay]:
    """The table after a Super Wild transcript (one round), and the engine's replay.

    Raises:
        ValueError: the tags cannot make a round (the engine's message names the tag).
    """
    _, game, replay = replay_round(text)
    table = game.table
    groups = []
    for line in table.lines():
        fits = split_line(table.line_tiles(line))
        for fit in fits or ():
            groups.append(Group(fit.kind, line.direction, tuple(line.positions[fit.start : fit.end + 1])))
    tiles = tuple(sorted(table.tiles.items(), key=lambda pt: (pt[0].y, pt[0].x)))
    return SuperWildMap(tiles, tuple(groups)), replay
