"""Super Wild's values: tiles, table positions and moves, with parse/format pairs (games.md).

- A number tile is its colour's letter and its number, ``R7``, ``K13``: colours K (black), B (blue),
  O (orange), R (red), numbers 1..13 ("Starting": 52 number tiles). The 6 and the 9 of a colour are
  one tile shape ("Sixes and Nines Are Identical"): ``R6`` and ``R9`` both name it and a colour has
  two such tiles. The Super Wild is ``W``.
- A position is ``x,y`` on the square grid of the table, x to the right and y down, the Super Wild
  at ``0,0`` when the round starts; |x|, |y| <= 1000.
- A move lays a tile from the rack, ``R7@3,0``, or moves a tile on the table, ``R7@3,0>3,1`` (from
  3,0 to 3,1).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

#: The four colours in their usual order: black, blue, orange, red.
COLOURS = ("K", "B", "O", "R")
#: Highest number on a tile.
TOP = 13
#: Largest |x| or |y| a position may have.
MAX_COORD = 1000
#: The two numbers a 6/9 tile can take.
SIX_NINE = (6, 9)

_TILE_RE = re.compile(r"([KBOR])(1[0-3]|[1-9])|W")
_POS_RE = re.compile(r"(-?\d{1,6}),(-?\d{1,6})", re.ASCII)


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile: a number tile (colour, number) or the Super Wild (colour "W", number 0).

    Attributes:
        colour: "K", "B", "O", "R", or "W" for the Super Wild.
        number: 1..13 as written (``R9`` keeps 9), 0 for the Super Wild.

    Raises:
        ValueError: a colour or number out of range.
    """

    colour: str
    number: int

    def __post_init__(self) -> None:
        if self.colour == "W":
            if self.number != 0:
                raise ValueError(f"the Super Wild has no number, got {self.number}")
        elif self.colour not in COLOURS or not 1 <= self.number <= TOP:
            raise ValueError(f"no tile {self.colour!r} {self.number!r} (colours K B O R, numbers 1..13)")

    @property
    def is_wild(self) -> bool:
        """True for the Super Wild."""
        return self.colour == "W"

    @property
    def is_six_nine(self) -> bool:
        """True for a 6/9 tile (either way up)."""
        return self.number in SIX_NINE

    @property
    def shape(self) -> tuple[str, int]:
        """The physical tile shape: (colour, number) with a 6/9 tile as 6; ("W", 0) for the wild."""
        return (self.colour, 6 if self.number == 9 else self.number)

    def values(self) -> tuple[tuple[str, int], ...]:
        """The (colour, number) values the tile may take in a line: one, two for a 6/9 tile (as
        written first)."""
        if self.is_six_nine:  # the number as written first
            return ((self.colour, self.number), (self.colour, 15 - self.number))
        return ((self.colour, self.number),)

    def __str__(self) -> str:
        return format_tile(self)


WILD = Tile("W", 0)


def parse_tile(text: str) -> Tile:
    """``"R7"`` -> Tile("R", 7); ``"W"`` -> the Super Wild.

    Raises:
        ValueError: not a tile name (the message quotes it).
    """
    m = _TILE_RE.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"not a tile: {text!r} (expected a colour K, B, O or R and 1..13, or W)")
    return WILD if m.group(0) == "W" else Tile(m.group(1), int(m.group(2)))


def format_tile(tile: Tile) -> str:
    """Tile("R", 7) -> ``"R7"``; the Super Wild -> ``"W"``."""
    return "W" if tile.is_wild else f"{tile.colour}{tile.number}"


def _supply() -> Counter[tuple[str, int]]:
    supply: Counter[tuple[str, int]] = Counter()
    for colour in COLOURS:
        for number in range(1, TOP + 1):
            supply[Tile(colour, number).shape] += 1
    supply[WILD.shape] = 1
    return supply


#: Number tiles in the game: 1..13 in each colour.
NUMBER_TILES = len(COLOURS) * TOP

#: How many tiles of each shape the game has: 1 for each number tile, 2 for a colour's 6/9 shape,
#: 1 for the Super Wild (53 tiles).
SUPPLY = _supply()


@dataclass(frozen=True, slots=True)
class Pos:
    """A table position: x to the right, y down.

    Raises:
        ValueError: |x| or |y| above :data:`MAX_COORD`.
    """

    x: int
    y: int

    def __post_init__(self) -> None:
        if abs(self.x) > MAX_COORD or abs(self.y) > MAX_COORD:
            raise ValueError(f"position {self.x},{self.y} is off the table (|x|, |y| <= {MAX_COORD})")

    def step(self, dx: int, dy: int, k: int = 1) -> Pos:
        """The position ``k`` steps of (dx, dy) away."""
        return Pos(self.x + k * dx, self.y + k * dy)

    def __str__(self) -> str:
        return format_pos(self)


ORIGIN = Pos(0, 0)


def parse_pos(text: str) -> Pos:
    """``"3,-1"`` -> Pos(3, -1).

    Raises:
        ValueError: not two whole numbers with a comma, or off the table.
    """
    m = _POS_RE.fullmatch(text.strip())
    if m is None:
        if text.count(",") >= 2:
            raise ValueError(f"position {text!r} has three coordinates: 3-D stacking is not supported")
        raise ValueError(f"not a position: {text!r} (expected x,y such as 3,-1)")
    return Pos(int(m.group(1)), int(m.group(2)))


def format_pos(pos: Pos) -> str:
    """Pos(3, -1) -> ``"3,-1"``."""
    return f"{pos.x},{pos.y}"


@dataclass(frozen=True, slots=True)
class Move:
    """Laying a tile from the rack at ``pos`` (``dest`` None) or moving the table's tile at ``pos``
    to ``dest``.

    Attributes:
        tile: the tile as written.
        pos: where it is laid, or where it lies before the move.
        dest: where a moved tile goes; None for a lay.

    Raises:
        ValueError: a move to its own position.
    """

    tile: Tile
    pos: Pos
    dest: Pos | None = None

    def __post_init__(self) -> None:
        if self.dest == self.pos:
            raise ValueError(f"move of {format_tile(self.tile)} goes nowhere ({format_pos(self.pos)})")

    @property
    def is_lay(self) -> bool:
        """True for a tile laid from the rack."""
        return self.dest is None

    @property
    def target(self) -> Pos:
        """Where the tile ends up."""
        return self.pos if self.dest is None else self.dest

    def __str__(self) -> str:
        return format_move(self)


def parse_move(text: str) -> Move:
    """``"R7@3,0"`` (lay) or ``"R7@3,0>3,1"`` (move on the table) -> Move.

    Raises:
        ValueError: unreadable tile or position (the message quotes the text).
    """
    tile_text, at, where = text.partition("@")
    if not at:
        raise ValueError(f"not a move: {text!r} (expected tile@x,y or tile@x,y>x,y)")
    source, arrow, dest = where.partition(">")
    try:
        return Move(parse_tile(tile_text), parse_pos(source), parse_pos(dest) if arrow else None)
    except ValueError as exc:
        raise ValueError(f"in move {text!r}: {exc}") from None


def format_move(move: Move) -> str:
    """Move -> ``"R7@3,0"`` or ``"R7@3,0>3,1"``."""
    head = f"{format_tile(move.tile)}@{format_pos(move.pos)}"
    return head if move.dest is None else f"{head}>{format_pos(move.dest)}"


def parse_rack(text: str) -> tuple[Tile, ...]:
    """Tiles separated by spaces or commas: ``"R7 K13 B6"``.

    Raises:
        ValueError: an unreadable tile, the Super Wild (never in a rack), or more than
            :data:`NUMBER_TILES` tiles.
    """
    words = text.replace(",", " ").split()
    if len(words) > NUMBER_TILES:
        raise ValueError(f"a rack of {len(words)} tiles (the game has {NUMBER_TILES} number tiles)")
    tiles = tuple(parse_tile(w) for w in words)
    if WILD in tiles:
        raise ValueError(f"rack {text!r} holds the Super Wild, which is always on the table")
    return tiles


def format_rack(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    """Tiles -> ``"R7 K13 B6"``."""
    return " ".join(format_tile(t) for t in tiles)
