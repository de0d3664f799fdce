"""Yushino's tiles, placements, racks and turns, with paired parse/format functions (games.md).

- A tile is a number 0..9 or a blank (seed §3 "joker"); a blank on the board stands for the number
  it was given: ``#=7``. In a rack a blank is ``#``.
- A placement is the tile then its square: ``7H8``, ``#=7H9``.
- A turn is placements separated by commas (``3G8, 4H8``), ``exchange N`` (§5) or ``pass`` (§5).
- The set is the 96 tiles of seed §6 (:data:`DISTRIBUTION`); a rack holds 7 (:data:`RACK_SIZE`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.yushino.board import Square, format_square, parse_square

#: §6: how many tiles of each face the set has (``"#"`` is the blank).
DISTRIBUTION: dict[str, int] = {
    "0": 10, "1": 14, "2": 14, "3": 14, "4": 8, "5": 8, "6": 8, "7": 6, "8": 6, "9": 6, "#": 2,
}  # fmt: skip
SET_SIZE = sum(DISTRIBUTION.values())
RACK_SIZE = 7
BLANK = "#"
PLAY, EXCHANGE, PASS = "play", "exchange", "pass"


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile: a number, or a blank with the number it stands for (None while in a rack).

    Attributes:
        value: 0..9; for a blank the number it stands for on the board, None in a rack.
        blank: True for a blank (it scores 0, §3).
    """

    value: int | None
    blank: bool = False

    def __post_init__(self) -> None:
        if self.value is None and not self.blank:
            raise ValueError("a numbered tile needs its number")
        if self.value is not None and not 0 <= self.value <= 9:
            raise ValueError(f"tile number {self.value} out of range 0..9")

    @property
    def face(self) -> str:
        """What is printed on the tile: ``"7"``, or ``"#"`` for a blank."""
        return BLANK if self.blank else str(self.value)

    @property
    def points(self) -> int:
        """The tile's points: its number, 0 for a blank (§3)."""
        return 0 if self.blank or self.value is None else self.value

    def __str__(self) -> str:
        return format_tile(self)


_DIGITS = "0123456789"


def parse_tile(text: str) -> Tile:
    """``"7"``, ``"#=7"`` (a blank standing for 7) or ``"#"`` (a blank in a rack).

    Raises:
        ValueError: anything else (the message quotes the text).
    """
    t = text.strip()
    if len(t) == 1 and t in _DIGITS:
        return Tile(int(t))
    if t == BLANK:
        return Tile(None, True)
    if len(t) == 3 and t[:2] == "#=" and t[2] in _DIGITS:
        return Tile(int(t[2]), True)
    raise ValueError(f"not a tile: {text!r} (expected 0..9, # or #=N)")


def format_tile(tile: Tile) -> str:
    """Tile(7) -> ``"7"``; a blank -> ``"#=7"`` or ``"#"``."""
    if not tile.blank:
        return str(tile.value)
    return BLANK if tile.value is None else f"#={tile.value}"


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile laid on a square (the tile's number is known: a blank carries its number)."""

    square: Square
    tile: Tile

    def __post_init__(self) -> None:
        if self.tile.value is None:
            raise ValueError(f"a blank placed on {self.square} needs its number: #=N{self.square}")

    @property
    def value(self) -> int:
        """The number the tile stands for."""
        return 0 if self.tile.value is None else self.tile.value

    def __str__(self) -> str:
        return format_placement(self)


def parse_placement(text: str) -> Placement:
    """``"7H8"`` or ``"#=7H9"``.

    Raises:
        ValueError: not a tile followed by a square (the message quotes the text).
    """
    t = text.strip()
    split = 3 if t.startswith("#=") else 1
    if len(t) <= split:
        raise ValueError(f"not a placement: {text!r} (expected e.g. 7H8 or #=7H9)")
    try:
        return Placement(parse_square(t[split:]), parse_tile(t[:split]))
    except ValueError as exc:
        raise ValueError(f"not a placement: {text!r}: {exc}") from None


def format_placement(placement: Placement) -> str:
    """Placement(H8, 7) -> ``"7H8"``."""
    return f"{format_tile(placement.tile)}{format_square(placement.square)}"


def parse_rack(text: str) -> tuple[Tile, ...]:
    """``"3 4 7 # 1 2 9"`` (spaces or commas) -> the rack's tiles; ``""`` or ``"-"`` is empty.

    Raises:
        ValueError: a token that is not 0..9 or ``#``, or more than :data:`RACK_SIZE` tiles.
    """
    words = text.replace(",", " ").split()
    if words == ["-"]:
        return ()
    if len(words) > RACK_SIZE:
        raise ValueError(f"rack {text!r} holds {len(words)} tiles (at most {RACK_SIZE})")
    tiles = []
    for word in words:
        if not (word == BLANK or (len(word) == 1 and word in _DIGITS)):
            raise ValueError(f"not a rack tile: {word!r} in {text!r} (expected 0..9 or #)")
        tiles.append(parse_tile(word))
    return tuple(tiles)


def format_rack(tiles: tuple[Tile, ...]) -> str:
    """The rack's faces separated by spaces, ``"-"`` when empty."""
    return " ".join(t.face for t in tiles) or "-"


def faces(tiles: tuple[Tile, ...] | list[Tile]) -> Counter[str]:
    """How many tiles of each face (``"#"`` for blanks)."""
    return Counter(t.face for t in tiles)


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: a play (placements), an exchange of ``count`` tiles, or a pass (§2, §5).

    Attributes:
        kind: ``"play"``, ``"exchange"`` or ``"pass"``.
        placements: the tiles laid, for a play.
        count: how many tiles are exchanged (1..7), for an exchange.
    """

    kind: str
    placements: tuple[Placement, ...] = ()
    count: int = 0

    def __post_init__(self) -> None:
        if self.kind not in (PLAY, EXCHANGE, PASS):
            raise ValueError(f"unknown kind of turn {self.kind!r}")
        if (self.kind == PLAY) != bool(self.placements):
            raise ValueError("a play lays tiles; an exchange or a pass lays none")
        if (self.kind == EXCHANGE) != (self.count > 0) or not 0 <= self.count <= RACK_SIZE:
            raise ValueError(f"an exchange swaps 1..{RACK_SIZE} tiles, got {self.count}")

    @staticmethod
    def play(placements: list[Placement] | tuple[Placement, ...]) -> Turn:
        """A play of these placements."""
        return Turn(PLAY, tuple(placements))

    def __str__(self) -> str:
        return format_turn(self)


PASS_TURN = Turn(PASS)


def parse_turn(text: str) -> Turn:
    """``"3G8, 4H8"``, ``"exchange 3"`` or ``"pass"``.

    Raises:
        ValueError: an unreadable placement or count (the message quotes it).
    """
    words = text.replace(",", " ").split()
    if [w.lower() for w in words] == [PASS]:
        return PASS_TURN
    if words and words[0].lower() == EXCHANGE:
        count = words[1] if len(words) == 2 else ""
        if not (count.isascii() and count.isdecimal()) or not 1 <= int(count[:4]) <= RACK_SIZE:
            raise ValueError(f"not an exchange: {text!r} (expected exchange 1..{RACK_SIZE})")
        return Turn(EXCHANGE, count=int(words[1]))
    if not words:
        raise ValueError("a turn with no moves")
    return Turn.play([parse_placement(w) for w in words])


def format_turn(turn: Turn) -> str:
    """The turn as written after ``N. Name:``."""
    if turn.kind == PLAY:
        return ", ".join(format_placement(p) for p in turn.placements)
    return f"{EXCHANGE} {turn.count}" if turn.kind == EXCHANGE else PASS
