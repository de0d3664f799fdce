"""The table: tiles at positions, its lines and their groups, and a turn's moves applied to it.

:class:`Table` is the placement-only position under :class:`engine.superwild.game.Game`. Lines
("2-D (Crisscross)") are the maximal unbroken rows and columns of two or more tiles; with the
optional "Diagonals" rule also the two diagonals through the Super Wild. The table is legal when
every line splits into groups (engine.superwild.lines) and every number tile lies in a line (a tile
on its own is in no group, "Playing": tiles form groups of three or more). The Super Wild may stand
alone: it is on the table from the start. Groups need not touch one another (the seed asks only
that every group be legal).

A turn's moves are applied together (:meth:`Table.apply`): the moved tiles are lifted first, then
every tile is put down, so two tiles may swap places in one turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.games import Violation
from engine.superwild.lines import GroupFit, line_problem, split_line
from engine.superwild.tiles import MAX_COORD, ORIGIN, SUPPLY, WILD, Move, Pos, Tile, format_pos, format_tile

ROW, COLUMN, DIAGONAL, ANTIDIAGONAL = "row", "column", "diagonal", "antidiagonal"
_STEPS = {ROW: (1, 0), COLUMN: (0, 1), DIAGONAL: (1, 1), ANTIDIAGONAL: (1, -1)}

RULE_LONE_TILE = "Playing: every tile in a group"
RULE_OCCUPIED = "2-D (Crisscross): one tile per position"
RULE_MOVE_SOURCE = "Playing: rearrange tiles on the table"
RULE_SUPPLY = "Starting: 52 number tiles and one Super Wild"
RULE_WILD_STAYS = "Super Wild: always on the table"


@dataclass(frozen=True, slots=True)
class TableLine:
    """A line of the table: its direction and positions in order (x, then y, growing)."""

    direction: str
    positions: tuple[Pos, ...]

    def __post_init__(self) -> None:
        if self.direction not in _STEPS or len(self.positions) < 2:
            raise ValueError(f"a line has a direction and two or more positions, got {self.direction}")


@dataclass(frozen=True, slots=True)
class Table:
    """Tiles on the table.

    Attributes:
        tiles: position -> tile (the Super Wild among them).
        diagonals: whether the diagonals through the Super Wild are lines ("Diagonals", optional).

    Raises:
        ValueError: no Super Wild, or more tiles of a shape than the game has.
    """

    tiles: Mapping[Pos, Tile] = field(default_factory=lambda: {ORIGIN: WILD})
    diagonals: bool = False
    _grid: dict[tuple[int, int], Tile] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        counts = Counter(t.shape for t in self.tiles.values())
        if counts[WILD.shape] != 1:
            raise ValueError("the table holds the Super Wild exactly once")
        over = [s for s, k in counts.items() if k > SUPPLY[s]]
        if over:
            raise ValueError(f"more tiles of shape {over[0]} than the game has")
        object.__setattr__(self, "_grid", {(p.x, p.y): t for p, t in self.tiles.items()})

    @property
    def wild_pos(self) -> Pos:
        """Where the Super Wild lies."""
        return next(p for p, t in self.tiles.items() if t.is_wild)

    def __len__(self) -> int:
        return len(self.tiles)

    def lines(self) -> Iterator[TableLine]:
        """Every line: rows top to bottom, columns, then the diagonals through the Super Wild."""
        grid = self._grid
        for direction in (ROW, COLUMN):
            dx, dy = _STEPS[direction]
            for x, y in sorted(grid, key=lambda xy: (xy[1], xy[0])):
                if (x - dx, y - dy) not in grid and (x + dx, y + dy) in grid:
                    yield TableLine(direction, tuple(Pos(*xy) for xy in _run(grid, (x, y), dx, dy)))
        if self.diagonals:
            yield from (ln for ln in self.lines_through(self.wild_pos) if ln.direction not in (ROW, COLUMN))

    def _runs_at(self, grid: dict[tuple[int, int], Tile], xy: tuple[int, int]) -> Iterator[tuple[str, list]]:
        """The lines (direction, positions as (x, y)) through ``xy`` on ``grid``."""
        wild = self.wild_pos if self.diagonals else None
        for direction, (dx, dy) in _STEPS.items():
            off_diagonal = wild is None or (xy[0] - wild.x) * dy != (xy[1] - wild.y) * dx
            if direction in (DIAGONAL, ANTIDIAGONAL) and off_diagonal:
                continue
            run = _run(grid, xy, dx, dy)
            if len(run) >= 2 and (wild is None or direction in (ROW, COLUMN) or (wild.x, wild.y) in run):
                yield direction, run

    def lines_through(self, pos: Pos) -> Iterator[TableLine]:
        """The lines that hold ``pos`` (its row, its column, and a diagonal through the Super Wild)."""
        for direction, run in self._runs_at(self._grid, (pos.x, pos.y)):
            yield TableLine(direction, tuple(Pos(*xy) for xy in run))

    def accepts(self, laid: Mapping[Pos, Tile]) -> bool:
        """Whether laying ``laid`` on empty positions of this legal table keeps it legal: every line
        through a laid tile splits into groups, and every laid tile is in a line."""
        grid = dict(self._grid)
        grid.update(((p.x, p.y), t) for p, t in laid.items())
        for pos in laid:
            lines = list(self._runs_at(grid, (pos.x, pos.y)))
            if not lines or any(split_line(tuple(grid[xy] for xy in run)) is None for _, run in lines):
                return False
        return True

    def around(self, moves: Iterable[Move]) -> set[Pos]:
        """The positions whose lines a turn's moves can change: where tiles land, the neighbours
        (diagonal ones too) of where moved tiles left, and every tile of a diagonal through the Super
        Wild that a moved tile leaves."""
        wild = self.lines_through(self.wild_pos) if self.diagonals else iter(())
        diagonals = [ln.positions for ln in wild if ln.direction in (DIAGONAL, ANTIDIAGONAL)]
        near = set()
        for m in moves:
            near.add(m.target)
            if m.dest is not None:
                near.update(neighbours(m.pos, diagonal=True))
                for line in diagonals:  # the part cut off from the Wild is no line at all
                    if m.pos in line:
                        near.update(line)
        return near

    def with_tiles(self, laid: Mapping[Pos, Tile]) -> Table:
        """The table with more tiles laid on empty positions (no checks of the lines)."""
        return Table({**self.tiles, **laid}, self.diagonals)

    def line_tiles(self, line: TableLine) -> tuple[Tile, ...]:
        """The tiles of a line, in order."""
        return tuple(self.tiles[p] for p in line.positions)

    def problem(self, near: Iterable[Pos] | None = None) -> Violation | None:
        """The first broken rule of the table, None when it is legal.

        Args:
            near: only judge the lines through these positions and the tiles at them (the rest of
                the table is known legal); None judges the whole table.
        """
        wanted = None if near is None else {p for p in near if p in self.tiles}
        covered: set[Pos] = set()
        if wanted is None:
            lines: Iterable[TableLine] = self.lines()
        else:
            lines = list(dict.fromkeys(line for p in wanted for line in self.lines_through(p)))
        for line in lines:
            covered.update(line.positions)
            found = line_problem(self.line_tiles(line))
            if found is not None:
                rule, message = found
                return Violation(rule, tuple(format_pos(p) for p in line.positions), message)
        for pos, tile in sorted(self.tiles.items(), key=lambda pt: (pt[0].y, pt[0].x)):
            if wanted is not None and pos not in wanted:
                continue
            if not tile.is_wild and pos not in covered:
                message = f"{format_tile(tile)} at {format_pos(pos)} is in no line of three or more"
                return Violation(RULE_LONE_TILE, (format_pos(pos),), message)
        return None

    def groups(self) -> list[dict[str, Any]]:
        """Every line with its groups, JSON-ready: direction, positions, and per group its kind,
        tiles and the values they stand for (a legal table's lines only; others are skipped)."""
        out = []
        for line in self.lines():
            tiles = self.line_tiles(line)
            fits = split_line(tiles)
            if fits is None:
                continue
            out.append(
                {
                    "direction": line.direction,
                    "positions": [format_pos(p) for p in line.positions],
                    "groups": [_group_json(tiles, g) for g in fits],
                }
            )
        return out

    def to_json(self) -> list[dict[str, Any]]:
        """``[{"tile", "x", "y"}, ...]`` top to bottom, left to right."""
        return [
            {"tile": format_tile(t), "x": p.x, "y": p.y}
            for p, t in sorted(self.tiles.items(), key=lambda pt: (pt[0].y, pt[0].x))
        ]

    def apply(self, moves: Iterable[Move]) -> Table | Violation:
        """The table after a turn's moves (lifted together, then put down), or the rule they break.

        Lays put rack tiles on empty positions (the Super Wild is never laid: it is on the table);
        moves take the named tile from its position. No other tile leaves the table.
        """
        tiles = dict(self.tiles)
        moves = list(moves)
        for m in moves:
            if m.dest is None:
                continue
            here = tiles.pop(m.pos, None)
            if here is None or here.shape != m.tile.shape:
                what = "nothing" if here is None else format_tile(here)
                message = f"move {m} takes {format_tile(m.tile)} from {format_pos(m.pos)}, which holds {what}"
                return Violation(RULE_MOVE_SOURCE, (format_pos(m.pos),), message)
        for m in moves:
            if m.dest is None and m.tile.is_wild:
                message = f"{m} lays the Super Wild, which is already on the table"
                return Violation(RULE_WILD_STAYS, (format_pos(m.pos),), message)
            if m.target in tiles:
                message = f"{m} puts a tile on {format_pos(m.target)}, which holds {tiles[m.target]}"
                return Violation(RULE_OCCUPIED, (format_pos(m.target),), message)
            tiles[m.target] = self.tiles[m.pos] if m.dest is not None else m.tile
        counts = Counter(t.shape for t in tiles.values())
        for m in moves:
            if m.dest is None and counts[m.tile.shape] > SUPPLY[m.tile.shape]:
                message = f"{m} lays a tile whose every copy is already on the table"
                return Violation(RULE_SUPPLY, (format_pos(m.pos),), message)
        return Table(tiles, self.diagonals)


def neighbours(pos: Pos, diagonal: bool = False) -> list[Pos]:
    """The positions next to ``pos`` on the table (left, right, up, down; with ``diagonal`` the four
    corners too)."""
    steps = [
        (dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx or dy) and (diagonal or not dx or not dy)
    ]
    return [
        Pos(pos.x + dx, pos.y + dy)
        for dx, dy in steps
        if abs(pos.x + dx) <= MAX_COORD and abs(pos.y + dy) <= MAX_COORD
    ]


def _run(grid: dict[tuple[int, int], Tile], xy: tuple[int, int], dx: int, dy: int) -> list[tuple[int, int]]:
    """The unbroken run of positions through ``xy`` along (dx, dy), in order."""
    x, y = xy
    while (x - dx, y - dy) in grid:
        x, y = x - dx, y - dy
    out = []
    while (x, y) in grid:
        out.append((x, y))
        x, y = x + dx, y + dy
    return out


def _group_json(tiles: tuple[Tile, ...], group: GroupFit) -> dict[str, Any]:
    """One group: kind, its tiles, and what each stands for (``R6`` for a 9 read as 6, the wild's value)."""
    return {
        "kind": group.kind,
        "tiles": [format_tile(t) for t in tiles[group.start : group.end + 1]],
        "values": [f"{c}{n}" for c, n in group.values],
    }
