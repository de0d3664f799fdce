"""Holominoes tiles, placements and moves, with their notation (games.md).

- A tile has three different numbers on alternate corners, written clockwise from the smallest:
  ``123`` and ``132`` are the two tiles of {1, 2, 3} (seed "Tiles", the CW/ACW figure). With
  numbers 1..6 that is 20 triplets x 2 = 40 tiles (:func:`tile_set`).
- A placement is tile @ cell / the numbered corner (E, SW or NW) holding the tile's first number:
  ``132@1,0/E`` puts 1 on E, 3 on SW and 2 on NW (clockwise E -> SW -> NW).
- A move is a placement or a pass returning a pool tile, ``pass 456``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache

from engine.holominoes.geometry import NUMBERED, Cell, format_cell, parse_cell

#: The fewest and the most numbers a tile set may use (one digit each; three corners need three).
MIN_DIGITS, MAX_DIGITS = 3, 9
_PLACEMENT_RE = re.compile(r"(\d+)@([^/]*)/(\w+)", re.ASCII)


@dataclass(frozen=True, slots=True)
class Tile:
    """A holomino: three different numbers read clockwise from the smallest.

    Attributes:
        numbers: e.g. ``(1, 3, 2)``.

    Raises:
        ValueError: not three different numbers 1..9 starting from the smallest.
    """

    numbers: tuple[int, int, int]

    def __post_init__(self) -> None:
        n = self.numbers
        if len(n) != 3 or len(set(n)) != 3 or not all(1 <= v <= MAX_DIGITS for v in n):
            raise ValueError(f"a tile has three different numbers 1..{MAX_DIGITS}, got {n!r}")
        if n[0] != min(n):
            raise ValueError(f"a tile is written from its smallest number, got {n!r}")

    def oriented(self, first: str) -> tuple[int, int, int]:
        """The numbers on (E, SW, NW) with the first number on corner ``first``.

        Raises:
            ValueError: ``first`` is not a numbered corner.
        """
        a, b, c = self.numbers
        if first == "E":
            return (a, b, c)
        if first == "SW":
            return (c, a, b)
        if first == "NW":
            return (b, c, a)
        raise ValueError(f"the first number sits on a numbered corner ({', '.join(NUMBERED)}), not {first!r}")


def parse_tile(text: str) -> Tile:
    """``"132"`` -> ``Tile((1, 3, 2))``.

    Raises:
        ValueError: not three different digits written clockwise from the smallest (the message
            gives the canonical writing where there is one).
    """
    t = text.strip()
    if len(t) != 3 or not t.isdigit() or "0" in t or len(set(t)) != 3:
        raise ValueError(f"tile {text!r} is not three different digits 1..{MAX_DIGITS} (e.g. 132)")
    digits = tuple(int(ch) for ch in t)
    k = digits.index(min(digits))
    if k:
        canonical = "".join(str(v) for v in digits[k:] + digits[:k])
        raise ValueError(f"tile {text!r} is written from its smallest number: {canonical!r}")
    return Tile((digits[0], digits[1], digits[2]))


def format_tile(tile: Tile) -> str:
    """``Tile((1, 3, 2))`` -> ``"132"``."""
    return "".join(str(v) for v in tile.numbers)


@cache
def tile_set(digits: int = 6) -> tuple[Tile, ...]:
    """Every tile of a set with numbers 1..digits: each triplet read both ways round.

    Args:
        digits: the largest number (3..9); 6 gives the seed's 40 tiles.

    Raises:
        ValueError: digits outside 3..9.
    """
    if not MIN_DIGITS <= digits <= MAX_DIGITS:
        raise ValueError(f"digits must be {MIN_DIGITS}..{MAX_DIGITS}, got {digits!r}")
    out = []
    for a, b, c in itertools.combinations(range(1, digits + 1), 3):
        out += [Tile((a, b, c)), Tile((a, c, b))]
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile laid on a cell, its first number on a numbered corner.

    Attributes:
        tile: the tile.
        cell: where it lies.
        first: the corner holding the tile's first number: "E", "SW" or "NW".

    Raises:
        ValueError: ``first`` is not a numbered corner.
    """

    tile: Tile
    cell: Cell
    first: str

    def __post_init__(self) -> None:
        if self.first not in NUMBERED:
            raise ValueError(
                f"the first number sits on a numbered corner ({', '.join(NUMBERED)}), not {self.first!r}"
            )

    @property
    def corners(self) -> tuple[int, int, int]:
        """The numbers on (E, SW, NW)."""
        return self.tile.oriented(self.first)


def clockwise_tile(numbers: tuple[int, int, int]) -> Tile:
    """The tile whose numbers read clockwise are ``numbers``, from any one of them: ``(3, 4, 1)``
    -> ``Tile((1, 3, 4))``.

    Raises:
        ValueError: not three different numbers 1..9.
    """
    k = numbers.index(min(numbers))  # the tile is written from its smallest number
    return Tile((numbers[k], numbers[(k + 1) % 3], numbers[(k + 2) % 3]))


def corner_placement(cell: Cell, corners: tuple[int, int, int]) -> Placement:
    """The placement on ``cell`` with the numbers ``corners`` on (E, SW, NW): the inverse of
    :attr:`Placement.corners`.

    Raises:
        ValueError: not three different numbers 1..9.
    """
    return Placement(clockwise_tile(corners), cell, NUMBERED[corners.index(min(corners))])


def parse_placement(text: str) -> Placement:
    """``"132@1,0/E"`` -> the placement.

    Raises:
        ValueError: not ``TILE@q,r/CORNER``, a bad tile, a cell beyond 1000, or a corner that is
            not numbered (the message quotes the text).
    """
    m = _PLACEMENT_RE.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"placement {text!r} is not TILE@q,r/CORNER (e.g. 132@1,0/E)")
    corner = m.group(3).upper()
    if corner not in NUMBERED:
        raise ValueError(
            f"placement {text!r}: corner {m.group(3)!r} is not a numbered corner ({', '.join(NUMBERED)})"
        )
    return Placement(parse_tile(m.group(1)), parse_cell(m.group(2)), corner)


def format_placement(placement: Placement) -> str:
    """``"132@1,0/E"``; :func:`parse_placement` reads it back."""
    return f"{format_tile(placement.tile)}@{format_cell(placement.cell)}/{placement.first}"


@dataclass(frozen=True, slots=True)
class Play:
    """A move laying one tile."""

    placement: Placement


@dataclass(frozen=True, slots=True)
class Pass:
    """A pass returning a pool tile to the sack (seed "Play"); ``tile`` None when none was named."""

    tile: Tile | None = None


Move = Play | Pass


def parse_move(text: str) -> Move:
    """``"132@1,0/E"``, ``"pass 456"`` or ``"pass"`` -> the move.

    Raises:
        ValueError: neither a placement nor a pass.
    """
    words = text.replace(",", " ").split()
    if words and words[0].lower() == "pass":
        if len(words) > 2:
            raise ValueError(f"pass {text!r} returns one tile (e.g. pass 456)")
        return Pass(parse_tile(words[1]) if len(words) == 2 else None)
    return Play(parse_placement(text))


def format_move(move: Move) -> str:
    """``"132@1,0/E"`` or ``"pass 456"``; :func:`parse_move` reads it back."""
    if isinstance(move, Play):
        return format_placement(move.placement)
    return "pass" if move.tile is None else f"pass {format_tile(move.tile)}"
