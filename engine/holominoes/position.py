"""The tiles on the table (placement only), legal placements, holes and blocked points.

Rules (seed "Play", "Scoring", "Blocking"; games.md):

- A placement is legal when its cell is empty, shares an edge with a tile, and every numbered
  corner it shares with a neighbour carries the same number ("Play: numbers match").
- A hole is a bite point whose three cells are filled. It is worth the sum of the three numbers
  one edge away from it, each shared by two of the hole's tiles (6 to 15 points). A move closing
  two or three holes scores their product (``scoring="sum"``: their sum times their count).
- A blocked point is an empty cell next to the tiles that no remaining tile fits in any rotation.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from engine.games import Violation
from engine.holominoes.geometry import (
    BITE_CELLS,
    HOLE_NUMBERS,
    NEIGHBOURS,
    NUMBERED,
    NUMBERED_OWNER,
    Cell,
    Point,
    format_cell,
    format_point,
)
from engine.holominoes.tiles import Placement, Tile, format_placement, tile_set

RULE_EMPTY = "Play: empty cell"
RULE_ADJACENT = "Play: adjacent to a tile"
RULE_MATCH = "Play: numbers match"

#: Scoring of a move closing several holes: "product" (seed) or "sum" (sum times count).
SCORINGS = ("product", "sum")

_OWNERS = tuple(NUMBERED_OWNER[name] for name in NUMBERED)
#: For each bite of a cell: the offset of the bite point's owner, and the two other cells' offsets.
_BITES = tuple(
    (
        (oq, orr),
        tuple((oq + dq, orr + dr) for (dq, dr), _ in BITE_CELLS if (oq + dq, orr + dr) != (0, 0)),
    )
    for oq, orr in ((0, 0), (-1, 0), (0, -1))  # SE, W, NE
)


@dataclass(frozen=True, slots=True)
class Hole:
    """A hole closed by a move.

    Attributes:
        point: the bite point at its middle.
        numbers: the three numbers around it (each shared by two of its tiles).
    """

    point: Point
    numbers: tuple[int, int, int]

    @property
    def points(self) -> int:
        """The hole's worth: the sum of its numbers."""
        return sum(self.numbers)

    def to_json(self) -> dict[str, object]:
        """``{"point": "0,0/SE", "numbers": [1, 2, 3], "points": 6}``."""
        return {"point": format_point(self.point), "numbers": list(self.numbers), "points": self.points}


def score_holes(holes: Iterable[Hole], scoring: str = "product") -> int:
    """Points for the holes one move closed (seed "Scoring").

    Args:
        holes: the holes closed.
        scoring: "product": one hole its sum, several the product of their sums; "sum": the sum
            of their sums times their count.

    Raises:
        ValueError: an unknown scoring.
    """
    values = [h.points for h in holes]
    if scoring == "sum":
        return sum(values) * len(values)
    if scoring != "product":
        raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, got {scoring!r}")
    if not values:
        return 0
    out = 1
    for v in values:
        out *= v
    return out


@cache
def _fitting(digits: int) -> dict[tuple[int, int, int], tuple[tuple[Tile, str], ...]]:
    """Every corner pattern (E, SW, NW; 0 for free) -> the (tile, first corner) that fit it."""
    oriented = [(t, first, t.oriented(first)) for t in tile_set(digits) for first in NUMBERED]
    out: dict[tuple[int, int, int], tuple[tuple[Tile, str], ...]] = {}
    for e in range(digits + 1):
        for sw in range(digits + 1):
            for nw in range(digits + 1):
                out[(e, sw, nw)] = tuple(
                    (t, first)
                    for t, first, (a, b, c) in oriented
                    if e in (0, a) and sw in (0, b) and nw in (0, c)
                )
    return out


@cache
def _fit_masks(digits: int) -> tuple[dict[Tile, int], dict[tuple[int, int, int], int]]:
    """Each tile's bit, and each corner pattern's mask of the tiles that fit it."""
    bits = {t: 1 << i for i, t in enumerate(tile_set(digits))}
    masks = {key: sum({bits[t] for t, _ in fits}) for key, fits in _fitting(digits).items()}
    return bits, masks


class Position:
    """The tiles on the table: an immutable value; :meth:`apply` gives the next position.

    Args:
        placements: the tiles laid, in order (not checked: see :meth:`check`).
    """

    __slots__ = ("_cells", "_numbers", "_placements", "_tiles")

    def __init__(self, placements: Iterable[Placement] = ()) -> None:
        self._placements: tuple[Placement, ...] = ()
        self._cells: dict[tuple[int, int], Placement] = {}
        self._numbers: dict[tuple[int, int], int] = {}
        self._tiles: frozenset[Tile] = frozenset()
        for p in placements:
            self._add(p)

    def _add(self, placement: Placement) -> None:
        q, r = placement.cell.q, placement.cell.r
        self._placements += (placement,)
        self._cells[(q, r)] = placement
        for (dq, dr), v in zip(_OWNERS, placement.corners, strict=True):
            self._numbers[(q + dq, r + dr)] = v
        self._tiles = self._tiles | {placement.tile}

    def apply(self, placement: Placement) -> Position:
        """The position with one more tile (not checked)."""
        out = Position.__new__(Position)
        out._placements = self._placements
        out._cells = dict(self._cells)
        out._numbers = dict(self._numbers)
        out._tiles = self._tiles
        out._add(placement)
        return out

    @property
    def placements(self) -> tuple[Placement, ...]:
        """The tiles laid, in order."""
        return self._placements

    @property
    def tiles(self) -> frozenset[Tile]:
        """The tiles on the table."""
        return self._tiles

    def __len__(self) -> int:
        return len(self._placements)

    def __contains__(self, cell: object) -> bool:
        key = cell.key if isinstance(cell, Cell) else cell
        return key in self._cells

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return set(self._placements) == set(other._placements)

    def __hash__(self) -> int:
        return hash(frozenset(self._placements))

    def __repr__(self) -> str:
        return f"Position([{', '.join(format_placement(p) for p in self._placements)}])"

    def at(self, cell: Cell) -> Placement | None:
        """The placement on a cell, None when empty."""
        return self._cells.get(cell.key)

    def pattern(self, cell: tuple[int, int]) -> tuple[int, int, int]:
        """The numbers a tile on ``cell`` must show on (E, SW, NW), 0 where free."""
        q, r = cell
        n = self._numbers
        return (n.get((q, r), 0), n.get((q - 1, r + 1), 0), n.get((q - 1, r), 0))

    # -- rules ---------------------------------------------------------------------------------
    def check(self, placement: Placement) -> Violation | None:
        """Why a placement is illegal here, None when it is legal (seed "Play").

        The first tile on an empty table may go anywhere.
        """
        q, r = key = placement.cell.q, placement.cell.r
        where = (format_placement(placement),)
        if key in self._cells:
            other = format_placement(self._cells[key])
            return Violation(RULE_EMPTY, where, f"cell {format_cell(key)} already holds {other}")
        cells = self._cells
        if cells and not any((q + dq, r + dr) in cells for dq, dr in NEIGHBOURS):
            return Violation(RULE_ADJACENT, where, f"cell {format_cell(key)} shares no edge with a tile")
        need = self.pattern(key)
        wrong = [
            f"{name} shows {v} where the table has {n}"
            for name, v, n in zip(NUMBERED, placement.corners, need, strict=True)
            if n and n != v
        ]
        if wrong:
            return Violation(RULE_MATCH, where, f"{format_placement(placement)}: {'; '.join(wrong)}")
        return None

    def holes(self, placement: Placement) -> tuple[Hole, ...]:
        """The holes a (legal) placement would close: its bites whose other two cells are filled."""
        q, r = placement.cell.q, placement.cell.r
        cells = self._cells
        out = []
        for (oq, orr), others in _BITES:
            if all((q + dq, r + dr) in cells for dq, dr in others):
                bq, br = q + oq, r + orr
                out.append(Hole(Point(Cell(bq, br), "SE"), self._hole_numbers(bq, br, placement)))
        return tuple(out)

    def _hole_numbers(self, bq: int, br: int, placement: Placement) -> tuple[int, int, int]:
        numbers = dict(
            zip(
                ((placement.cell.q + dq, placement.cell.r + dr) for dq, dr in _OWNERS),
                placement.corners,
                strict=True,
            )
        )
        numbers.update(self._numbers)
        a, b, c = (numbers[(bq + dq, br + dr)] for dq, dr in HOLE_NUMBERS)
        return (a, b, c)

    def frontier(self) -> list[tuple[int, int]]:
        """The empty cells sharing an edge with a tile, in a fixed order."""
        cells = self._cells
        seen: dict[tuple[int, int], None] = {}
        for q, r in cells:
            for dq, dr in NEIGHBOURS:
                c = (q + dq, r + dr)
                if c not in cells:
                    seen[c] = None
        return list(seen)

    def legal_placements(self, tiles: Iterable[Tile], digits: int = 6) -> Iterator[Placement]:
        """Every legal placement of the given tiles (seed "Play"): cells and rotations.

        On an empty table any cell and rotation is legal; the list then offers each tile once,
        on 0,0 with its first number east.

        Args:
            tiles: the tiles to try (a pool, or every tile not on the table).
            digits: the set's largest number.
        """
        wanted = frozenset(tiles)
        fitting = _fitting(digits)
        if not self._cells:
            for t in sorted(wanted, key=lambda t: t.numbers):
                yield Placement(t, Cell(0, 0), "E")
            return
        for key in self.frontier():
            cell = Cell(*key)
            for t, first in fitting.get(self.pattern(key), ()):
                if t in wanted:
                    yield Placement(t, cell, first)

    def blocked_points(self, tiles: Iterable[Tile], digits: int = 6) -> list[Cell]:
        """Empty cells next to the tiles where none of ``tiles`` fits in any rotation (seed
        "Blocking")."""
        bits, masks = _fit_masks(digits)
        wanted = sum({bits.get(t, 0) for t in tiles})
        return [Cell(*key) for key in self.frontier() if not masks.get(self.pattern(key), 0) & wanted]
