"""The Yushino board: squares A1..O15 and the premium layout (games.md, Yushino).

A square is written column letter then row number, ``H8`` (columns A..O left to right, rows 1..15
top to bottom; H8 is the centre). The premiums are ``2*``/``3*`` (a new number on it counts twice /
three times) and ``2X``/``3X`` (a sequence with a new tile on it counts twice / three times).

The default layout, ``[Layout "classic"]``, puts them where the classic 15 x 15 word-game board
has them (games.md). A real board is described by a small TOML file, one list of squares per kind::

    name = "Yushino 2012"          # optional
    "3X" = ["A1", "H1", "O1"]
    "2X" = ["H8"]
    "3*" = ["F2"]
    "2*" = ["D1", "L1"]

Kinds left out have no squares; a square may carry one premium at most.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
#: Largest row number the reader accepts before calling a square off the board (input limit).
MAX_ROW = 1000
#: Largest layout file read (bytes): a real one lists at most 225 squares.
MAX_LAYOUT_BYTES = 64_000

NUMBER_X2, NUMBER_X3, SEQUENCE_X2, SEQUENCE_X3 = "2*", "3*", "2X", "3X"
PREMIUM_KINDS = (SEQUENCE_X3, SEQUENCE_X2, NUMBER_X3, NUMBER_X2)
#: The factor of each premium kind.
FACTOR = {NUMBER_X2: 2, NUMBER_X3: 3, SEQUENCE_X2: 2, SEQUENCE_X3: 3}


@dataclass(frozen=True, slots=True, order=True)
class Square:
    """A square of the board: 0-based column (A = 0) and row (row 1 = 0).

    Values off the 15 x 15 board are allowed (a transcript may name them; the rules reject them):
    ``is_on_board`` tells.
    """

    col: int
    row: int

    def __post_init__(self) -> None:
        if not (0 <= self.col < 26 and 0 <= self.row < MAX_ROW):
            raise ValueError(f"square column {self.col} row {self.row} out of range")

    def __hash__(self) -> int:  # the rules hash squares often: cheaper than hashing a tuple
        return self.row * 32 + self.col

    @property
    def is_on_board(self) -> bool:
        """True for A1..O15."""
        return self.col < SIZE and self.row < SIZE

    def __str__(self) -> str:
        return format_square(self)


CENTRE = Square(7, 7)


def parse_square(text: str) -> Square:
    """``"H8"`` -> Square(7, 7); a letter A..Z and a row 1..1000 (case-insensitive).

    Raises:
        ValueError: not a letter and a row number (the message quotes the text).
    """
    t = text.strip().upper()
    if len(t) < 2 or not ("A" <= t[0] <= "Z") or not (t[1:].isascii() and t[1:].isdecimal()) or len(t) > 5:
        raise ValueError(f"not a square: {text!r} (expected a column A..O and a row 1..15, e.g. H8)")
    row = int(t[1:])
    if not 1 <= row <= MAX_ROW:
        raise ValueError(f"row {row} of {text!r} out of range 1..{MAX_ROW}")
    return Square(ord(t[0]) - ord("A"), row - 1)


def format_square(square: Square) -> str:
    """Square(7, 7) -> ``"H8"``."""
    return f"{chr(ord('A') + square.col)}{square.row + 1}"


ALL_SQUARES: tuple[Square, ...] = tuple(Square(c, r) for r in range(SIZE) for c in range(SIZE))
_GRID = tuple(tuple(ALL_SQUARES[r * SIZE + c] for r in range(SIZE)) for c in range(SIZE))


def square_at(col: int, row: int) -> Square:
    """The square at a 0-based column and row of the 15 x 15 board, built once (for the rules' loops).

    Raises:
        IndexError: off the board.
    """
    return _GRID[col][row]


_CLASSIC = {
    SEQUENCE_X3: "A1 H1 O1 A8 O8 A15 H15 O15",
    SEQUENCE_X2: "B2 C3 D4 E5 K5 L4 M3 N2 B14 C13 D12 E11 K11 L12 M13 N14 H8",
    NUMBER_X3: "F2 J2 B6 F6 J6 N6 B10 F10 J10 N10 F14 J14",
    NUMBER_X2: "D1 L1 G3 I3 A4 H4 O4 C7 G7 I7 M7 D8 L8 C9 G9 I9 M9 A12 H12 O12 G13 I13 D15 L15",
}


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the premium squares are.

    Attributes:
        name: the layout's name (``"classic"``, or the file's ``name`` or path).
        premiums: square -> premium kind (``"2*"``, ``"3*"``, ``"2X"``, ``"3X"``).
    """

    name: str
    premiums: Mapping[Square, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for square, kind in self.premiums.items():
            if kind not in FACTOR:
                raise ValueError(f"unknown premium {kind!r} on {square}")
            if not square.is_on_board:
                raise ValueError(f"premium square {square} is off the 15 x 15 board")
        object.__setattr__(self, "premiums", MappingProxyType(dict(self.premiums)))

    def squares(self, kind: str) -> list[Square]:
        """The squares of one premium kind, in board order."""
        return sorted((s for s, k in self.premiums.items() if k == kind), key=lambda s: (s.row, s.col))


@cache
def classic_layout() -> Layout:
    """The default layout of games.md (built once; a Layout cannot change)."""
    return Layout("classic", {parse_square(s): kind for kind, text in _CLASSIC.items() for s in text.split()})


class LayoutError(ValueError):
    """A layout file that cannot be used, with its file and 1-based line (0 when unknown)."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}, line {line}: {message}")
        self.path = path
        self.line = line
        self.message = message


def _line_of(text: str, needle: str, after: int = 0) -> int:
    """The 1-based line where ``needle`` first occurs at or after line ``after`` (0 if nowhere)."""
    lines = text.splitlines()
    for i in range(max(after - 1, 0), len(lines)):
        if needle in lines[i]:
            return i + 1
    return 0


def parse_layout(text: str, source: str = "<layout>") -> Layout:
    """A layout from the text of a TOML layout file (see the module docstring).

    Args:
        text: the file's text.
        source: the file's name, used in messages and as the default name.

    Raises:
        LayoutError: bad TOML, an unknown key, a value that is not a list of squares, a square off
            the board or given two premiums (the message names the file and the line).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        line = int(found.group(1)) if found else len(text.splitlines())
        raise LayoutError(source, line, f"not TOML: {exc}") from None
    name = data.pop("name", source)
    if not isinstance(name, str):
        raise LayoutError(source, _line_of(text, "name"), f"name must be a string, got {name!r}")
    premiums: dict[Square, str] = {}
    for key, value in data.items():
        key_line = _line_of(text, key)
        if key not in FACTOR:
            raise LayoutError(
                source, key_line, f"unknown key {key!r} (expected name, {', '.join(PREMIUM_KINDS)})"
            )
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise LayoutError(source, key_line, f'{key} must be a list of squares such as ["H8"]')
        for item in value:
            where = _line_of(text, f'"{item}"', key_line) or key_line
            try:
                square = parse_square(item)
            except ValueError as exc:
                raise LayoutError(source, where, str(exc)) from None
            if not square.is_on_board:
                raise LayoutError(source, where, f"square {item!r} is off the 15 x 15 board")
            if square in premiums:
                message = f"square {item!r} is both {premiums[square]} and {key}"
                raise LayoutError(source, where, message)
            premiums[square] = key
    return Layout(name, premiums)


def load_layout(value: str, folder: Path) -> Layout:
    """The layout named by a ``[Layout "..."]`` tag.

    Args:
        value: ``"classic"`` or the path of a TOML layout file, relative to ``folder``.
        folder: the transcript's folder; the file must lie inside it.

    Raises:
        LayoutError: a path outside ``folder``, a missing, unreadable or oversized file, or a bad
            file.
    """
    if value.strip().lower() == "classic":
        return classic_layout()
    base = folder.resolve()
    path = (base / value).resolve()
    if not path.is_relative_to(base):
        raise LayoutError(value, 0, f"layout file outside the transcript's folder {str(base)!r}: refused")
    try:
        if path.stat().st_size > MAX_LAYOUT_BYTES:
            raise LayoutError(value, 0, f"layout file of more than {MAX_LAYOUT_BYTES} bytes")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LayoutError(value, 0, f"cannot read the layout file: {exc}") from None
    return parse_layout(text, value)
