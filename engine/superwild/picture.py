"""The table as a text picture, one row of tiles per line, ``.`` for an empty position::

    .   R4  .
    K5  W   B5
    .   R6  .

The Super Wild's position in the picture fixes the coordinates (x to the right, y down). Used by
tests and for showing a table in a terminal; the two functions round-trip.
"""

from __future__ import annotations

from engine.superwild.table import Table
from engine.superwild.tiles import ORIGIN, Pos, Tile, format_tile, parse_tile

EMPTY = "."


def parse_picture(text: str, wild: Pos = ORIGIN, diagonals: bool = False) -> Table:
    """A table from its picture, the Super Wild at ``wild``.

    Raises:
        ValueError: an unreadable tile (with its row and column in the picture), or not exactly
            one Super Wild.
    """
    cells: dict[tuple[int, int], Tile] = {}
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    for r, row in enumerate(rows):
        for c, word in enumerate(row):
            if word == EMPTY:
                continue
            try:
                cells[(c, r)] = parse_tile(word)
            except ValueError as exc:
                raise ValueError(f"picture row {r + 1}, column {c + 1}: {exc}") from None
    wilds = [xy for xy, t in cells.items() if t.is_wild]
    if len(wilds) != 1:
        raise ValueError(f"a picture holds exactly one W, found {len(wilds)}")
    (wc, wr) = wilds[0]
    return Table({Pos(c - wc + wild.x, r - wr + wild.y): t for (c, r), t in cells.items()}, diagonals)


def format_picture(table: Table) -> str:
    """The picture of a table, its rows from the top tile to the bottom one."""
    xs = [p.x for p in table.tiles]
    ys = [p.y for p in table.tiles]
    lines = []
    for y in range(min(ys), max(ys) + 1):
        words = [table.tiles.get(Pos(x, y)) for x in range(min(xs), max(xs) + 1)]
        lines.append(" ".join(f"{format_tile(t) if t else EMPTY:<3}" for t in words).rstrip())
    return "\n".join(lines) + "\n"
