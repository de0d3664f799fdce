"""Yushino's placement rules and scoring on a placement-only position (seed §2-§3, games.md).

- A *sequence* is a maximal unbroken row or column of two or more tiles. Three or more are read left
  to right / top to bottom, each number the sum of the two before it modulo 10 (875, 7291); with
  ``direction="either"`` (``[Direction "either"]``) the reverse reading is accepted too. Two tiles
  differ by 1 modulo 10, in either order (56, 87, 90, 09) (§2).
- A play lays its tiles in one row or one column; with the tiles already there they make one
  unbroken line. The first play has two or more tiles, one on H8; every later play forms a sequence
  holding a tile already on the board; every sequence holding a new tile is valid (§2).
- Score (§3): for each sequence holding a new tile, the sum of its numbers (a new tile on 2*/3*
  counted twice/three times, a blank as 0), times 2 or 3 for every 2X/3X square under a new tile of
  that sequence; the play scores the sum over its sequences, plus 100 when 7 tiles were laid.

The game-level rules (turn order, racks, the set of §6, exchanges, the end) are engine.yushino.game's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.games import Violation
from engine.yushino.board import (
    CENTRE,
    FACTOR,
    NUMBER_X2,
    NUMBER_X3,
    SIZE,
    Layout,
    Square,
    classic_layout,
    format_square,
    square_at,
)
from engine.yushino.tiles import RACK_SIZE, Placement, Tile

FORWARD, EITHER = "forward", "either"
ALL_TILES_BONUS = 100

RULE_ON_BOARD = "§2 square on the board"
RULE_ONE_PER_SQUARE = "§2 one tile per square"
RULE_EMPTY = "§2 empty square"
RULE_ONE_LINE = "§2 one row or column"
RULE_UNBROKEN = "§2 one unbroken line"
RULE_FIRST = "§2 first sequence on the centre"
RULE_SHARE = "§2 shares a tile with the board"
RULE_SEQUENCE = "§2 Yushino sequence"

_STEPS = ((1, 0), (0, 1))  # along a row, down a column
_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _neighbours(square: Square) -> Iterator[Square]:
    """The squares on the board next to ``square``."""
    for dc, dr in _NEIGHBOURS:
        c, r = square.col + dc, square.row + dr
        if 0 <= c < SIZE and 0 <= r < SIZE:
            yield square_at(c, r)


def is_sequence(values: tuple[int, ...] | list[int], direction: str = FORWARD) -> bool:
    """§2: is this run of two or more numbers a valid Yushino sequence?

    Args:
        values: the numbers left to right or top to bottom.
        direction: ``"forward"``, or ``"either"`` to accept the reverse reading of 3+ numbers.
    """
    n = len(values)
    if n < 2:
        return True
    if n == 2:
        return (values[0] - values[1]) % 10 in (1, 9)
    if all(values[i] == (values[i - 2] + values[i - 1]) % 10 for i in range(2, n)):
        return True
    return direction == EITHER and all(
        values[i] == (values[i + 2] + values[i + 1]) % 10 for i in range(n - 2)
    )


@dataclass(frozen=True, slots=True)
class Position:
    """The tiles on the board, nothing else (placement-only).

    Attributes:
        tiles: square -> tile (a blank carries the number it stands for).
    """

    tiles: Mapping[Square, Tile] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for square, tile in self.tiles.items():
            if not square.is_on_board or tile.value is None:
                raise ValueError(f"position: {square} {tile} is off the board or a blank without a number")
        object.__setattr__(self, "tiles", MappingProxyType(dict(self.tiles)))

    def __contains__(self, square: object) -> bool:
        return square in self.tiles

    def __len__(self) -> int:
        return len(self.tiles)

    def value(self, square: Square) -> int | None:
        """The number on a square, None when empty."""
        tile = self.tiles.get(square)
        return None if tile is None else tile.value

    def apply(self, placements: Iterable[Placement]) -> Position:
        """The position with these tiles added (no rule is checked)."""
        out = dict(self.tiles)
        out.update((p.square, p.tile) for p in placements)
        return Position(out)


@dataclass(frozen=True, slots=True)
class SequenceScore:
    """One sequence holding a new tile, and its points (§3).

    Attributes:
        squares: its squares left to right or top to bottom.
        values: their numbers.
        points: the sequence's score after its premiums.
        number_premiums: (square, "2*"/"3*") under its new tiles.
        sequence_premiums: (square, "2X"/"3X") under its new tiles.
    """

    squares: tuple[Square, ...]
    values: tuple[int, ...]
    points: int
    number_premiums: tuple[tuple[Square, str], ...] = ()
    sequence_premiums: tuple[tuple[Square, str], ...] = ()

    def to_json(self) -> dict[str, object]:
        """``{"cells", "values", "points", "premiums"}`` (premiums as ``"G7 2*"``)."""
        premiums = [f"{format_square(s)} {k}" for s, k in self.number_premiums + self.sequence_premiums]
        return {
            "cells": [format_square(s) for s in self.squares],
            "values": list(self.values),
            "points": self.points,
            "premiums": premiums,
        }


@dataclass(frozen=True, slots=True)
class PlayResult:
    """The verdict on a play: legal or not, its sequences and score.

    Attributes:
        placements: the play's placements as given.
        violation: the first rule broken, None when legal.
        sequences: the sequences holding a new tile, with their points (empty when illegal).
        bonus: 100 when 7 tiles were laid, else 0.
    """

    placements: tuple[Placement, ...]
    violation: Violation | None = None
    sequences: tuple[SequenceScore, ...] = ()
    bonus: int = 0

    @property
    def legal(self) -> bool:
        """True when no rule is broken."""
        return self.violation is None

    @property
    def score(self) -> int:
        """The play's points: its sequences plus the bonus (0 when illegal)."""
        return sum(s.points for s in self.sequences) + self.bonus if self.legal else 0


def _illegal(
    placements: tuple[Placement, ...], rule: str, squares: Iterable[Square], message: str
) -> PlayResult:
    return PlayResult(placements, Violation(rule, tuple(format_square(s) for s in squares), message))


def _run(tiles: Mapping[Square, Tile], square: Square, step: tuple[int, int]) -> list[Square]:
    """The maximal unbroken line of tiles through ``square`` along ``step`` (square holds a tile)."""
    dc, dr = step
    c, r = square.col, square.row
    while c - dc >= 0 and r - dr >= 0 and square_at(c - dc, r - dr) in tiles:
        c, r = c - dc, r - dr
    out = []
    while c < SIZE and r < SIZE and square_at(c, r) in tiles:
        out.append(square_at(c, r))
        c, r = c + dc, r + dr
    return out


def _shape(position: Position, placements: tuple[Placement, ...]) -> PlayResult | None:
    """The placement checks of §2 that do not read numbers; None when they pass."""
    squares = [p.square for p in placements]
    off = [s for s in squares if not s.is_on_board]
    if off:
        return _illegal(
            placements, RULE_ON_BOARD, off, f"{format_square(off[0])} is not on the 15 x 15 board"
        )
    seen: set[Square] = set()
    for square in squares:
        if square in seen:
            return _illegal(
                placements, RULE_ONE_PER_SQUARE, [square], f"two tiles on {format_square(square)}"
            )
        seen.add(square)
    taken = [s for s in squares if s in position]
    if taken:
        where = format_square(taken[0])
        return _illegal(placements, RULE_EMPTY, taken, f"{where} already holds {position.tiles[taken[0]]}")
    rows, cols = {s.row for s in squares}, {s.col for s in squares}
    if len(rows) > 1 and len(cols) > 1:
        return _illegal(placements, RULE_ONE_LINE, squares, "the tiles are not in one row or one column")
    if len(squares) > 1:
        axis = 0 if len(rows) == 1 else 1  # along the row, or down the column
        ends = sorted((s.col, s.row)[axis] for s in squares)
        fixed = (squares[0].row, squares[0].col)[axis]
        line = [
            square_at(i, fixed) if axis == 0 else square_at(fixed, i) for i in range(ends[0], ends[-1] + 1)
        ]
        holes = [s for s in line if s not in seen and s not in position]
        if holes:
            message = f"{format_square(holes[0])} is empty between the new tiles"
            return _illegal(placements, RULE_UNBROKEN, holes, message)
    if not len(position):
        if len(squares) < 2 or CENTRE not in seen:
            message = "the first play lays two or more tiles, one of them on H8"
            return _illegal(placements, RULE_FIRST, squares, message)
    elif not any(n in position for s in squares for n in _neighbours(s)):
        return _illegal(placements, RULE_SHARE, squares, "no new tile touches a tile already on the board")
    return None


def new_sequences(after: Mapping[Square, Tile], squares: Iterable[Square]) -> Iterator[list[Square]]:
    """Each sequence (2+ tiles) holding one of ``squares``, once, on the board ``after`` the play."""
    seen: set[tuple[Square, int]] = set()
    for square in squares:
        for axis, step in enumerate(_STEPS):
            run = _run(after, square, step)
            if len(run) >= 2 and (run[0], axis) not in seen:
                seen.add((run[0], axis))
                yield run


def score_sequence(
    after: Mapping[Square, Tile], run: list[Square], new: set[Square], layout: Layout
) -> SequenceScore:
    """§3: one sequence's points on the board ``after`` the play (``new``: the play's squares)."""
    total, factor = 0, 1
    numbers, sequences = [], []
    for square in run:
        points = after[square].points
        kind = layout.premiums.get(square) if square in new else None
        if kind in (NUMBER_X2, NUMBER_X3):
            points *= FACTOR[kind]
            numbers.append((square, kind))
        elif kind is not None:
            factor *= FACTOR[kind]
            sequences.append((square, kind))
        total += points
    values = tuple(after[s].value or 0 for s in run)
    return SequenceScore(tuple(run), values, total * factor, tuple(numbers), tuple(sequences))


def evaluate_play(
    position: Position,
    placements: Iterable[Placement],
    layout: Layout | None = None,
    direction: str = FORWARD,
) -> PlayResult:
    """Judge and score a play on a position (§2-§3), without changing it.

    Args:
        position: the board before the play.
        placements: the play's tiles (one or more).
        layout: the premium squares (classic by default).
        direction: ``"forward"`` or ``"either"`` (games.md's ``[Direction "either"]``).

    Returns:
        The verdict; an illegal play carries the first broken rule with its squares.
    """
    plays = tuple(placements)
    layout = layout or classic_layout()
    if not plays:
        return PlayResult(plays, Violation(RULE_ONE_LINE, (), "a play lays at least one tile"))
    broken = _shape(position, plays)
    if broken is not None:
        return broken
    after = dict(position.tiles)
    after.update((p.square, p.tile) for p in plays)
    new = {p.square for p in plays}
    scores = []
    for run in new_sequences(after, [p.square for p in plays]):
        values = [after[s].value or 0 for s in run]
        if not is_sequence(values, direction):
            shown = "".join(map(str, values))
            message = f"{shown} at {format_square(run[0])}-{format_square(run[-1])} is not a Yushino sequence"
            return _illegal(plays, RULE_SEQUENCE, run, message)
        scores.append(score_sequence(after, run, new, layout))
    if not scores:  # a lone first tile is caught by RULE_FIRST; a lone later tile by RULE_SHARE
        return _illegal(plays, RULE_SHARE, new, "the play forms no sequence")
    bonus = ALL_TILES_BONUS if len(plays) == RACK_SIZE else 0
    return PlayResult(plays, None, tuple(scores), bonus)


@dataclass(frozen=True, slots=True)
class LegalPlacements:
    """What a one-tile play could be at a position (for the kiosk and as the reader's prior).

    Attributes:
        values: each empty square next to a tile -> the numbers that could legally be laid there
            alone (non-empty sets only).
        blocked: the empty squares next to a tile where no number can be laid.
    """

    values: Mapping[Square, frozenset[int]]
    blocked: frozenset[Square]


def legal_placements(position: Position, direction: str = FORWARD) -> LegalPlacements:
    """§2: per empty square next to a tile, the numbers a one-tile play may lay there.

    A square away from every tile takes no one-tile play and is in neither field; on an empty board
    both are empty, as the first play lays two or more tiles.
    """
    values: dict[Square, frozenset[int]] = {}
    blocked = set()
    tiles = position.tiles
    for square in _frontier(position):
        lines = []
        for dc, dr in _STEPS:
            before = _walk(tiles, square, -dc, -dr)[::-1]
            after = _walk(tiles, square, dc, dr)
            if before or after:
                lines.append((before, after))
        ok = frozenset(v for v in range(10) if all(is_sequence([*b, v, *a], direction) for b, a in lines))
        if ok:
            values[square] = ok
        else:
            blocked.add(square)
    return LegalPlacements(values, frozenset(blocked))


def _walk(tiles: Mapping[Square, Tile], square: Square, dc: int, dr: int) -> list[int]:
    """The numbers on the unbroken tiles from next to ``square`` going (dc, dr)."""
    out = []
    c, r = square.col + dc, square.row + dr
    while 0 <= c < SIZE and 0 <= r < SIZE and (tile := tiles.get(square_at(c, r))) is not None:
        out.append(tile.value or 0)
        c, r = c + dc, r + dr
    return out


def _frontier(position: Position) -> list[Square]:
    """The empty squares next to a tile, in board order."""
    out = {n for s in position.tiles for n in _neighbours(s) if n not in position}
    return sorted(out, key=lambda s: (s.row, s.col))
