"""Legal placements at a position, and plays that lay rack tiles without moving the table's tiles.

- :func:`legal_placements`: for each tile (a rack, or every tile not on the table), the empty
  positions next to the table where laying it alone keeps every line legal, and the blocked
  positions: those next to the table where no tile fits alone (what the kiosk flags; a prior for
  the camera's reader).
- :func:`lay_options`: ways to lay one to three rack tiles on a legal table without rearranging
  it: one tile on a free position, two tiles beyond the end of a line or either side of a tile,
  three tiles as a group of their own a row below the table. Each option is checked with the
  table's rules. The random game generator and the hint's lay-only suggestions use them.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from engine.superwild.lines import split_line
from engine.superwild.table import Table, neighbours
from engine.superwild.tiles import MAX_COORD, SUPPLY, Move, Pos, Tile

_LINE_STEPS = ((1, 0), (0, 1))
_DIAGONAL_STEPS = ((1, 1), (1, -1))


@dataclass(frozen=True, slots=True)
class LegalPlacements:
    """The single-tile lays at a position.

    Attributes:
        placements: every legal lay (tile at position) of the tiles asked about.
        blocked: empty positions next to the table where no tile not on the table fits alone.
    """

    placements: frozenset[Move]
    blocked: frozenset[Pos]


def unseen_tiles(table: Table) -> list[Tile]:
    """One tile of each shape not all on the table (a 6/9 shape named as its 6)."""
    on_table: dict[tuple[str, int], int] = {}
    for t in table.tiles.values():
        on_table[t.shape] = on_table.get(t.shape, 0) + 1
    return [Tile(c, n) for (c, n), k in sorted(SUPPLY.items()) if c != "W" and on_table.get((c, n), 0) < k]


def frontier(table: Table) -> list[Pos]:
    """Empty positions next to a tile (with Diagonals, also the free positions beyond the ends of the
    Super Wild's diagonals), in reading order."""
    out: set[Pos] = set()
    for pos in table.tiles:
        out.update(p for p in neighbours(pos) if p not in table.tiles)
    if table.diagonals:  # beyond both ends of the Wild's two diagonals
        wild = table.wild_pos
        for dx, dy in ((1, 1), (1, -1)):
            for sign in (1, -1):
                pos = wild
                while (
                    pos in table.tiles
                    and abs(pos.x + sign * dx) <= MAX_COORD
                    and abs(pos.y + sign * dy) <= MAX_COORD
                ):
                    pos = pos.step(sign * dx, sign * dy)
                if pos not in table.tiles:
                    out.add(pos)
    return sorted(out, key=lambda p: (p.y, p.x))


def fits(table: Table, laid: dict[Pos, Tile]) -> bool:
    """Whether laying ``laid`` on a legal table keeps every line legal."""
    return table.accepts(laid)


def legal_placements(table: Table, tiles: Iterable[Tile] | None = None) -> LegalPlacements:
    """The lays of single tiles that keep a legal table legal, and the blocked positions.

    Args:
        table: a legal table.
        tiles: the tiles to try (a rack); None tries every tile not on the table.

    Returns:
        The legal lays and the blocked positions (judged with every tile not on the table).
    """
    unseen = unseen_tiles(table)
    asked = unseen if tiles is None else list(dict.fromkeys(tiles))
    legal: set[Move] = set()
    blocked: set[Pos] = set()
    for pos in frontier(table):
        for tile in asked:
            if fits(table, {pos: tile}):
                legal.add(Move(tile, pos))
        if not any(m.pos == pos for m in legal) and not any(fits(table, {pos: t}) for t in unseen):
            blocked.add(pos)
    return LegalPlacements(frozenset(legal), frozenset(blocked))


def _slots(table: Table) -> Iterator[tuple[Pos, Pos]]:
    """Pairs of empty positions that two tiles could fill to reach a tile: beyond the end of a
    line (or a lone tile), or either side of a tile; with Diagonals also along the Wild's diagonals."""
    tiles = table.tiles
    for pos in tiles:
        steps = _LINE_STEPS + (_DIAGONAL_STEPS if table.diagonals and tiles[pos].is_wild else ())
        yield from _slots_at(tiles, pos, steps)
    if table.diagonals:  # from the far ends of the Wild's diagonals
        for line in table.lines_through(table.wild_pos):
            if line.direction not in ("row", "column"):
                step = (line.positions[1].x - line.positions[0].x, line.positions[1].y - line.positions[0].y)
                for end in (line.positions[0], line.positions[-1]):
                    yield from _slots_at(tiles, end, (step,))


def _slots_at(
    tiles: Mapping[Pos, Tile], pos: Pos, steps: tuple[tuple[int, int], ...]
) -> Iterator[tuple[Pos, Pos]]:
    """The slot pairs at one tile along the given directions."""
    for dx, dy in steps:
        for sign in (1, -1):
            a = (pos.x + sign * dx, pos.y + sign * dy)
            b = (pos.x + 2 * sign * dx, pos.y + 2 * sign * dy)
            if _free(tiles, a) and _free(tiles, b):
                yield Pos(*a), Pos(*b)
        a, b = (pos.x - dx, pos.y - dy), (pos.x + dx, pos.y + dy)
        if _free(tiles, a) and _free(tiles, b):
            yield Pos(*a), Pos(*b)


def _free(tiles: Mapping[Pos, Tile], xy: tuple[int, int]) -> bool:
    x, y = xy
    return abs(x) <= MAX_COORD and abs(y) <= MAX_COORD and Pos(x, y) not in tiles


def _own_row(table: Table) -> Pos:
    """The left end of a free row two below the table's lowest tile."""
    ys = [p.y for p in table.tiles]
    xs = [p.x for p in table.tiles]
    return Pos(min(xs), max(ys) + 2)


def lay_options(
    table: Table, rack: list[Tile], rng: random.Random | None = None, deadline: float | None = None
) -> Iterator[dict[Pos, Tile]]:
    """Legal lays of one, two or three rack tiles on a legal table, without moving its tiles.

    Args:
        table: a legal table.
        rack: the player's tiles.
        rng: shuffles the order tried (None: reading order, singles, then pairs, then triples).
        deadline: a ``time.perf_counter()`` reading after which the search stops.

    Yields:
        position -> tile for each legal option found.
    """
    order = list(range(len(rack)))
    spots = frontier(table)
    slots = list(_slots(table))
    if rng is not None:
        rng.shuffle(spots)
        rng.shuffle(slots)
        rng.shuffle(order)

    def late() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    for pos in spots:
        if late():
            return
        for i in order:
            if fits(table, {pos: rack[i]}):
                yield {pos: rack[i]}
    pairs = [(i, j) for i in order for j in order if i != j]
    for a, b in slots:
        if late():
            return
        for i, j in pairs:
            if fits(table, {a: rack[i], b: rack[j]}):
                yield {a: rack[i], b: rack[j]}
    start = _own_row(table)
    for trio in itertools.permutations(order, 3):
        tiles = tuple(rack[k] for k in trio)
        if split_line(tiles) is not None:
            yield {start.step(k, 0): t for k, t in enumerate(tiles)}
