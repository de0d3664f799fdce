"""Tiles and placements in the seeds' cell notation (§2-1, §7-1, §8).

A :class:`Tile` is natural (a value 0..m-1), wild (``#``, optionally with a declared value, §7-1,
§7-2 D) or the modulus marker (§8, counted as a 0 on A0). A :class:`Placement` puts a tile on a
cell. Notation: value then address: ``4B2``; a wild ``#B2``, or ``#=8B2`` with a declared value;
the modulus marker is transcribed ``0A0`` (§8).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.cells import AnyBoard, Cell, format_cell, parse_cell
from engine.hexgrid import Hex
from engine.limits import MAX_DIGITS

WILD_FACE = "#"
MARKER_FACE = "marker"

_PLACEMENT_RE = re.compile(r"(?:(\d{1,6})|#(?:=(\d{1,6}))?)([A-Za-z]{1,2}\d{1,6})", re.ASCII)


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile's face.

    Attributes:
        value: the natural value, the declared value of a wild tile, or None for an undeclared
            wild tile. The range 0..m-1 is checked against the game's modulus by the rules.
        is_wild: True for a wild tile (§7-1).
        is_marker: True for the modulus marker (§8); its value is 0.

    Raises:
        ValueError: a negative value, a natural without a value, a marker that is wild or not 0.
    """

    value: int | None
    is_wild: bool = False
    is_marker: bool = False

    def __post_init__(self) -> None:
        if self.value is not None and (not isinstance(self.value, int) or self.value < 0):
            raise ValueError(f"tile value must be a non-negative integer, got {self.value!r}")
        if not self.is_wild and self.value is None:
            raise ValueError("a natural tile needs a value")
        if self.is_marker and (self.is_wild or self.value != 0):
            raise ValueError(f"the modulus marker counts as 0 and is not wild, got {self!r}")

    @classmethod
    def natural(cls, value: int) -> Tile:
        """A natural tile of ``value``."""
        return cls(value)

    @classmethod
    def wild(cls, declared: int | None = None) -> Tile:
        """A wild tile, optionally with a declared value (§7-2 D)."""
        return cls(declared, is_wild=True)

    @classmethod
    def marker(cls) -> Tile:
        """The modulus marker (§8), a 0 for every sequence."""
        return cls(0, is_marker=True)

    @property
    def is_natural(self) -> bool:
        """True for a natural tile or the modulus marker (both have a fixed value)."""
        return not self.is_wild

    @property
    def face(self) -> str:
        """What is printed on the tile: ``"4"``, ``"#"`` or ``"marker"`` (the reader's faces)."""
        if self.is_wild:
            return WILD_FACE
        if self.is_marker:
            return MARKER_FACE
        return str(self.value)

    def same_face(self, other: Tile) -> bool:
        """True when the two tiles look alike on the board (a declared value is not visible)."""
        if self.is_wild or other.is_wild:
            return self.is_wild and other.is_wild
        return self.value == other.value

    def notation(self) -> str:
        """The tile part of the cell notation: ``"4"``, ``"#"``, ``"#=8"``; the marker is ``"0"``."""
        if self.is_wild:
            return WILD_FACE if self.value is None else f"{WILD_FACE}={self.value}"
        return str(self.value)


@dataclass(frozen=True, slots=True, order=True)
class Placement:
    """A tile put on a cell in a turn.

    Attributes:
        cell: where the tile goes.
        tile: the tile.
    """

    cell: Cell
    tile: Tile

    def __post_init__(self) -> None:
        if not isinstance(self.cell, Hex) or not isinstance(self.tile, Tile):
            raise ValueError(f"a placement needs a cell and a Tile, got {self.cell!r}, {self.tile!r}")

    def __str__(self) -> str:
        return format_placement(self)


def parse_placement(text: str, board: AnyBoard | None = None) -> Placement:
    """Parse one placement in cell notation: ``"4B2"``, ``"#B2"``, ``"#=8B2"`` (§2-1, §7-1).

    Args:
        text: the placement.
        board: whose address notation the cell uses (hex when None; ``C5`` on a rectangular board).

    Raises:
        ValueError: ``text`` is not a placement; the message quotes it.
    """
    m = _PLACEMENT_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    if m is None:
        raise ValueError(f"not a placement: {text!r} (expected e.g. 4B2, #B2 or #=8B2)")
    natural, declared, address = m.groups()
    if len(natural or declared or "") > MAX_DIGITS:
        raise ValueError(f"not a placement: {text!r} (a value has at most {MAX_DIGITS} digits)")
    try:
        cell = parse_cell(address, board)
    except ValueError as exc:
        raise ValueError(f"not a placement: {text!r} ({exc})") from None
    if natural is not None:
        return Placement(cell, Tile.natural(int(natural)))
    return Placement(cell, Tile.wild(None if declared is None else int(declared)))


def format_placement(placement: Placement) -> str:
    """Format a placement in cell notation, the inverse of :func:`parse_placement`."""
    return f"{placement.tile.notation()}{format_cell(placement.cell)}"


def parse_placements(text: str, board: AnyBoard | None = None) -> list[Placement]:
    """Parse placements separated by commas and/or spaces (``"4B2, 7B1 10A0"``).

    Raises:
        ValueError: one item is not a placement; the message quotes it.
    """
    return [parse_placement(item, board) for item in re.split(r"[,\s]+", text.strip()) if item]
