"""Hex grid geometry and MODLINSEQ cell addresses (§1-2).

Pointy-top hexagons in axial coordinates ``(q, r)``: ``r`` grows southward, ``q`` eastward along a
row. Addresses follow ../shared/design/addressing.md: ``A0`` is the centre; sextants B (north-west),
E (north), H (north-east), M (south-east), P (south), T (south-west); inside a sextant cells are
numbered ring by ring from the centre outward, the ray cell of each ring first, then clockwise.

Pure grid maths: no pixels here (see calibration.layout for the pixel mapping).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from math import isqrt

from engine.limits import MAX_ADDRESS_NUMBER, MAX_DIGITS, MAX_ORDER


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """One cell of the infinite hex grid in axial coordinates.

    Attributes:
        q: column coordinate, growing eastward along a row.
        r: row coordinate, growing southward.
    """

    q: int
    r: int

    def __post_init__(self) -> None:
        if not isinstance(self.q, int) or not isinstance(self.r, int):
            raise ValueError(f"Hex coordinates must be integers, got ({self.q!r}, {self.r!r})")

    @property
    def s(self) -> int:
        """Third cube coordinate, so that q + r + s == 0."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        """This vector multiplied by the integer ``k``."""
        return Hex(self.q * k, self.r * k)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent cells, in the order of ``DIRECTIONS``."""
        return tuple(self + d for d in DIRECTIONS.values())

    def ring(self) -> int:
        """Hex distance from A0 (0 for A0, k for the 6k cells of ring k)."""
        return distance(self, ORIGIN)


ORIGIN = Hex(0, 0)

#: The six neighbour directions by compass name (addressing.md, "Coordinates").
DIRECTIONS: dict[str, Hex] = {
    "E": Hex(1, 0),
    "NE": Hex(1, -1),
    "NW": Hex(0, -1),
    "W": Hex(-1, 0),
    "SW": Hex(-1, 1),
    "SE": Hex(0, 1),
}

#: The three line directions of §2-1, by slope name; each is one of the two ways along the line.
LINE_DIRECTIONS: dict[str, Hex] = {
    "zero": Hex(1, 0),  # W -> E rows
    "positive": Hex(1, -1),  # SW -> NE
    "negative": Hex(0, 1),  # NW -> SE
}

#: Sextant letter -> (ray direction, step along the ring), addressing.md "Sextants and numbering".
SEXTANTS: dict[str, tuple[Hex, Hex]] = {
    "B": (DIRECTIONS["W"], DIRECTIONS["NE"]),
    "E": (DIRECTIONS["NW"], DIRECTIONS["E"]),
    "H": (DIRECTIONS["NE"], DIRECTIONS["SE"]),
    "M": (DIRECTIONS["E"], DIRECTIONS["SW"]),
    "P": (DIRECTIONS["SE"], DIRECTIONS["W"]),
    "T": (DIRECTIONS["SW"], DIRECTIONS["NW"]),
}

_ADDRESS_RE = re.compile(r"([A-Za-z])(\d+)", re.ASCII)


def distance(a: Hex, b: Hex) -> int:
    """Hex distance between two cells (number of steps between neighbours)."""
    d = a - b
    return max(abs(d.q), abs(d.r), abs(d.s))


def _ring_of_number(n: int) -> int:
    """Ring k that holds sextant number n >= 1: k(k-1)/2 < n <= k(k+1)/2."""
    k = (isqrt(8 * n + 1) - 1) // 2
    if k * (k + 1) // 2 < n:
        k += 1
    return k


def parse_address(text: str) -> Hex:
    """Parse a cell address such as ``"B14"`` or ``"A0"`` (§1-2).

    Args:
        text: sextant letter (A, B, E, H, M, P, T; either case) then a number; A takes only 0.

    Returns:
        The cell's axial coordinates.

    Raises:
        ValueError: ``text`` is not a well-formed address, or its number lies beyond the largest
            board (engine.limits.MAX_ADDRESS_NUMBER); the message quotes it.
    """
    m = _ADDRESS_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    if m is None:
        raise ValueError(f"not a cell address: {text!r} (expected a letter A/B/E/H/M/P/T and a number)")
    if len(m.group(2)) > MAX_DIGITS or int(m.group(2)) > MAX_ADDRESS_NUMBER:
        raise ValueError(
            f"not a cell address: {text!r} (numbers go up to {MAX_ADDRESS_NUMBER}, "
            f"the outer ring of the largest board, order {MAX_ORDER})"
        )
    letter, number = m.group(1).upper(), int(m.group(2))
    if letter == "A":
        if number != 0:
            raise ValueError(f"not a cell address: {text!r} (the centre is A0 only)")
        return ORIGIN
    if letter not in SEXTANTS:
        raise ValueError(f"not a cell address: {text!r} (sextant letter must be one of A B E H M P T)")
    if number < 1:
        raise ValueError(f"not a cell address: {text!r} (sextant numbers start at 1)")
    k = _ring_of_number(number)
    j = number - k * (k - 1) // 2 - 1
    ray, step = SEXTANTS[letter]
    return ray.scale(k) + step.scale(j)


def format_address(cell: Hex) -> str:
    """Format a cell as its address, the inverse of :func:`parse_address` (§1-2).

    Raises:
        ValueError: ``cell`` is not a hex cell (a Hex, not a square cell of engine.squaregrid).
    """
    if type(cell) is not Hex:  # a subclass (engine.squaregrid.Square) is no hex cell
        raise ValueError(f"not a hex cell: {cell!r}")
    return _format_address(cell)


@lru_cache(maxsize=65536)
def _format_address(cell: Hex) -> str:
    """format_address without the type check, cached (addresses are asked for very often)."""
    k = distance(cell, ORIGIN)
    if k == 0:
        return "A0"
    for letter, (ray, step) in SEXTANTS.items():
        offset = cell - ray.scale(k)
        j = distance(offset, ORIGIN)  # offset must be j * step with 0 <= j < k
        if j < k and step.scale(j) == offset:
            return f"{letter}{k * (k - 1) // 2 + 1 + j}"
    raise AssertionError(f"unreachable: no sextant holds {cell!r}")  # pragma: no cover


def ring_cells(k: int) -> list[Hex]:
    """The 6k cells of ring ``k`` (hex distance k from A0; A0 alone for k = 0), in address order.

    Raises:
        ValueError: ``k`` is negative.
    """
    if k < 0:
        raise ValueError(f"ring must be >= 0, got {k!r}")
    if k == 0:
        return [ORIGIN]
    cells = [ray.scale(k) + step.scale(j) for ray, step in SEXTANTS.values() for j in range(k)]
    return sorted(cells, key=address_sort_key)


def hexagon_cells(order: int) -> list[Hex]:
    """All cells of a regular-hexagon board of the given order, rings 0..order (§1-2, table 1B).

    Returns:
        ``3 * order * (order + 1) + 1`` cells, sorted by ring then address.

    Raises:
        ValueError: ``order`` is negative or above engine.limits.MAX_ORDER.
    """
    if not 0 <= order <= MAX_ORDER:
        raise ValueError(f"board order must be 0 to {MAX_ORDER}, got {order!r}")
    cells = [
        Hex(q, r)
        for q in range(-order, order + 1)
        for r in range(max(-order, -q - order), min(order, -q + order) + 1)
    ]
    return sorted(cells, key=address_sort_key)


@lru_cache(maxsize=65536)
def address_sort_key(cell: Hex) -> tuple[int, str, int]:
    """Key that sorts cells by ring, then sextant letter, then number (A0, B1, E1, ..., B2, ...)."""
    address = format_address(cell)
    return (cell.ring(), address[0], int(address[1:]))


@dataclass(frozen=True, slots=True)
class Board:
    """The set of cells of a printed board: a regular hexagon, possibly truncated (§1-2).

    Attributes:
        order: order of the hexagon the board was cut from (cells to the left of A0).
        cells: the board's cells; truncation drops cells but never renumbers the rest.
    """

    order: int
    cells: frozenset[Hex]

    def __post_init__(self) -> None:
        if not 0 <= self.order <= MAX_ORDER:
            raise ValueError(f"board order must be 0 to {MAX_ORDER}, got {self.order!r}")
        outside = [c for c in self.cells if c.ring() > self.order]
        if outside:
            raise ValueError(
                f"cells {[format_address(c) for c in sorted(outside)]} lie outside order {self.order}"
            )

    @classmethod
    def hexagon(cls, order: int) -> Board:
        """The full regular-hexagon board of ``order`` (3n(n+1)+1 cells, table 1B)."""
        return cls(order, frozenset(hexagon_cells(order)))

    @classmethod
    def truncated(cls, order: int, dropped: Iterable[str | Hex]) -> Board:
        """A hexagon of ``order`` with the ``dropped`` cells removed (addresses kept, §1-2).

        Raises:
            ValueError: a dropped address is malformed or not on the hexagon.
        """
        full = set(hexagon_cells(order))
        for item in dropped:
            cell = parse_address(item) if isinstance(item, str) else item
            if cell not in full:
                raise ValueError(f"cannot drop {item!r}: not a cell of an order-{order} board")
            full.discard(cell)
        return cls(order, frozenset(full))

    def __contains__(self, cell: object) -> bool:
        return cell in self.cells

    def __iter__(self) -> Iterator[Hex]:
        return iter(sorted(self.cells, key=address_sort_key))

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def is_hexagon(self) -> bool:
        """True when no cell of the order's hexagon was dropped."""
        return len(self.cells) == 3 * self.order * (self.order + 1) + 1

    def addresses(self) -> list[str]:
        """Every cell's address, sorted by ring then sextant then number."""
        return [format_address(c) for c in self]
