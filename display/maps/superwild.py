"""Super Wild's map: the table grid of games.md (x to the right, y down) with every group outlined.

Each tile is a light rectangle (``theme.table_tile``) with its number in its colour's ink (K
black, B blue, O orange, R red) and, where the tiles are large enough, the colour's letter; the
Super Wild is a dark tile (``theme.wild_tile``) with a white ``W``. Every group of every line
(engine.superwild.lines.split_line) gets an outline around its tiles: sets in
``theme.set_group``, runs in ``theme.run_group``, rows drawn a little outside the tiles and
columns a little further, so that a tile shared by a row and a column shows both. A legend names
the two outline colours in words. The last legal play's tiles (laid or moved) are outlined in
``theme.last_turn``. The turn in progress (not yet committed) is drawn as it would leave the table:
its laid and moved tiles at their new places, thickly outlined in ``theme.provisional``
(``theme.illegal`` when the turn is illegal), each moved tile's old place outlined thinly in the same
colour, and the groups those tiles make. A tap on a tile picks it for a correction
(:meth:`SuperWildMap.tile_at`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pygame

from display.theme import Theme
from display.tile_keypad import SuperWildKeypad
from engine.games import Replay
from engine.superwild import RUN, Move, Table, parse_move, replay_round, split_line
from engine.superwild.tiles import Pos, Tile, format_move, format_pos, parse_pos

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
        last_turn: where the last legal play's tiles lie (laid or moved there).
        pending: where the tiles of the turn in progress lie (laid or moved there).
        vacated: the old places of the tiles the turn in progress moves (now empty).
        illegal: the turn in progress breaks a rule (its tiles in the alert colour).
    """

    tiles: tuple[tuple[Pos, Tile], ...]
    groups: tuple[Group, ...]
    last_turn: frozenset[Pos] = frozenset()
    pending: frozenset[Pos] = frozenset()
    vacated: tuple[Pos, ...] = ()
    illegal: bool = False

    def cell_rect(self, rect: pygame.Rect, pos: Pos) -> pygame.Rect:
        """Where the tile at ``pos`` is drawn when the map fills ``rect`` (pixels)."""
        cell, x0, y0 = self._grid(rect)
        return pygame.Rect(x0 + pos.x * cell, y0 + pos.y * cell, cell, cell)

    def tile_at(self, rect: pygame.Rect, xy: tuple[float, float]) -> str | None:
        """The tile under ``xy`` (pixels) when the map fills ``rect``, as a placement where the map
        shows it (``R7@3,0``, ``W@0,0``); None off the tiles. Every tile may be tapped: the table's
        tiles may be moved, so a misread one matters."""
        cell, x0, y0 = self._grid(rect)
        pos = Pos(math.floor((xy[0] - x0) / cell), math.floor((xy[1] - y0) / cell))
        tile = dict(self.tiles).get(pos)
        return None if tile is None else format_move(Move(tile, pos))

    def place_at(self, rect: pygame.Rect, xy: tuple[float, float]) -> str | None:
        """The empty grid position under ``xy`` (pixels) when the map fills ``rect`` (``"3,1"``); None
        on a tile."""
        cell, x0, y0 = self._grid(rect)
        pos = Pos(math.floor((xy[0] - x0) / cell), math.floor((xy[1] - y0) / cell))
        return None if pos in dict(self.tiles) else format_pos(pos)

    def outline(self, rect: pygame.Rect, place: str) -> list[tuple[float, float]]:
        """The grid square of the position ``place`` (``"3,0"``; pixels, its four corners)."""
        box = self.cell_rect(rect, parse_pos(place))
        return [box.topleft, box.topright, box.bottomright, box.bottomleft]

    def keypad(self) -> SuperWildKeypad:
        """The keypad's faces for a tile of this table."""
        return SuperWildKeypad()

    def _grid(self, rect: pygame.Rect) -> tuple[int, int, int]:
        """Cell side and the pixel of position 0,0's top-left corner (one cell of margin around)."""
        xs = [p.x for p, _ in self.tiles] + [p.x for p in self.vacated]
        ys = [p.y for p, _ in self.tiles] + [p.y for p in self.vacated]
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
        provisional = theme.illegal if self.illegal else theme.provisional
        for pos in self.vacated:
            box = self.cell_rect(rect, pos).inflate(-cell // 6, -cell // 6)
            pygame.draw.rect(surface, provisional, box, max(1, cell // 16), border_radius=cell // 10)
        for pos, outline in [(p, theme.last_turn) for p in self.last_turn - self.pending] + [
                (p, provisional) for p in self.pending]:
            box = self.cell_rect(rect, pos).inflate(-cell // 6, -cell // 6)
            pygame.draw.rect(surface, outline, box, max(2, cell // 7), border_radius=cell // 10)
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


def superwild_map(text: str, pending: Sequence[str] = (), illegal: bool = False
                  ) -> tuple[SuperWildMap, Replay]:
    """The table after a Super Wild transcript (one round) with the turn in progress, and the
    engine's replay.

    Args:
        text: the transcript of the committed turns.
        pending: the moves of the turn in progress (``R7@3,0`` laid, ``R7@3,0>3,1`` moved; ``draw``
            tokens lay nothing).
        illegal: the turn in progress breaks a rule.

    Raises:
        ValueError: the tags cannot make a round (the engine's message names the tag), or a pending
            move that cannot be read (the message quotes it).
    """
    _, game, replay = replay_round(text)
    moves = _moves(pending)
    tiles = dict(game.table.tiles)
    for m in moves:  # lifted together, then put down (engine.superwild.table.Table.apply)
        if m.dest is not None:
            tiles.pop(m.pos, None)
    for m in moves:
        tiles[m.target] = game.table.tiles.get(m.pos, m.tile) if m.dest is not None else m.tile
    try:
        table = Table(tiles, game.table.diagonals)
    except ValueError:  # a turn in progress that no table can hold: the committed table's groups
        table = game.table
    plays = [t for t in replay.turns if t.legal and t.kind == "play"]
    last = frozenset(m.target for m in _moves(plays[-1].moves)) if plays else frozenset()
    ordered = tuple(sorted(tiles.items(), key=lambda pt: (pt[0].y, pt[0].x)))
    vacated = tuple(m.pos for m in moves if m.dest is not None and m.pos not in tiles)
    return SuperWildMap(ordered, _groups(table), last, frozenset(m.target for m in moves), vacated,
                        illegal), replay


def _moves(tokens: Iterable[str]) -> list[Move]:
    """The lays and moves among a turn's tokens (``draw`` and ``draw R7`` lay nothing)."""
    return [parse_move(t) for t in tokens if "@" in t]


def _groups(table: Table) -> tuple[Group, ...]:
    """Every group of every line of ``table`` that splits into sets and runs."""
    groups = []
    for line in table.lines():
        for fit in split_line(table.line_tiles(line)) or ():
            groups.append(Group(fit.kind, line.direction, tuple(line.positions[fit.start : fit.end + 1])))
    return tuple(groups)
