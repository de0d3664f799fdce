"""The placement-only position: which tile lies on which cell (§3-2).

:class:`Position` is an immutable mapping ``cell -> Tile`` underneath the full game (turn order,
scores and history live in engine.game), like python-chess's BaseBoard under Board.
``position.apply(placements)`` returns a new position.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from engine.cells import Cell, cell_sort_key, format_cell
from engine.hexgrid import ORIGIN, Hex
from engine.tiles import Placement, Tile, format_placement


class Position(Mapping[Cell, Tile]):
    """An immutable mapping from cells to the tiles on them.

    Iteration runs in address order (ring, sextant, number).
    """

    __slots__ = ("_tiles", "_hash")

    def __init__(self, tiles: Mapping[Cell, Tile] | Iterable[Placement] = ()) -> None:
        """Build a position from a mapping or from placements.

        Raises:
            ValueError: a key that is not a cell, a value that is not a Tile, or two placements on
                one cell.
        """
        if isinstance(tiles, Mapping):
            items = dict(tiles)
        else:
            items = {}
            for p in tiles:
                if p.cell in items:
                    raise ValueError(f"two tiles on {format_cell(p.cell)}")
                items[p.cell] = p.tile
        for cell, tile in items.items():
            if not isinstance(cell, Hex) or not isinstance(tile, Tile):
                raise ValueError(f"a position maps cells to tiles, got {cell!r}: {tile!r}")
        self._tiles: dict[Cell, Tile] = items
        self._hash: int | None = None

    @classmethod
    def with_marker(cls, centre: Cell = ORIGIN) -> Position:
        """The starting position of a game played with the modulus marker on A0 (§8), or on
        ``centre`` (a rectangular board's centre cell, §12)."""
        return cls({centre: Tile.marker()})

    def __getitem__(self, cell: Cell) -> Tile:
        return self._tiles[cell]

    def __iter__(self) -> Iterator[Cell]:
        return iter(sorted(self._tiles, key=cell_sort_key))

    def tiles(self) -> Iterator[Tile]:
        """The tiles in no particular order (faster than ``values()``, which sorts by address)."""
        return iter(self._tiles.values())

    def __len__(self) -> int:
        return len(self._tiles)

    def __contains__(self, cell: object) -> bool:
        return cell in self._tiles

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._tiles.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"Position({', '.join(self.notation())})"

    def notation(self) -> list[str]:
        """Every tile in cell notation, in address order (``["1A0", "6B1", ...]``)."""
        return [format_placement(Placement(c, self._tiles[c])) for c in self]

    def apply(self, placements: Iterable[Placement]) -> Position:
        """A new position with ``placements`` added; a placement on a wild tile replaces it (§7-4).

        This is placement bookkeeping only; the rules (engine.rules) decide whether a turn is legal.

        Raises:
            ValueError: a placement on a cell holding a natural tile or the marker, or two
                placements on one cell.
        """
        tiles = dict(self._tiles)
        seen: set[Cell] = set()
        for p in placements:
            if p.cell in seen:
                raise ValueError(f"two tiles on {format_cell(p.cell)} in one turn")
            seen.add(p.cell)
            old = tiles.get(p.cell)
            if old is not None and not old.is_wild:
                raise ValueError(f"{format_cell(p.cell)} already holds {old.notation()}")
            tiles[p.cell] = p.tile
        return Position(tiles)
