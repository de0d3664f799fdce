"""The turn between two layouts of a Super Wild table: what was laid and what was moved (games.md).

The layout before the turn is the game's table, in the transcript's frame; the layout after it is
a reading of the table (e.g. vision.table.superwild_grid: the Super Wild at 0,0, up to a quarter
turn). The reading is first brought into the transcript's frame: of the four quarter turns and
every shift that lays a seen tile on a tile of its shape on the table, the one under which most
seen tiles lie where a tile of their shape lay before (ties: no turn, then the shift that keeps the
Super Wild where it was, then the smallest shift). Then, shape by shape (a colour's 6/9 is one shape,
engine.superwild.tiles), the table's tiles are matched to the seen tiles of their shape by the least
total movement (grid steps, straight line): a matched tile on another position was moved
(``R7@3,0>3,1``), a seen tile matched to none was laid (``R7@3,0``). A table tile matched to no seen
tile left the table, which the rules forbid ("Playing": rearranging is allowed, taking back is not):
:class:`TableTurnError` names it.

Nothing changed is a ``draw`` (the player ended the turn without laying). The turn is judged by
the game itself (:meth:`engine.superwild.game.Game.evaluate`), never by rules restated here.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from engine.superwild.game import Game, Turn, TurnResult
from engine.superwild.tiles import SUPPLY, Move, Pos, Tile, format_pos, format_tile
from engine.superwild.transcript import format_turn

Shape = tuple[str, int]


class TableTurnError(ValueError):
    """A layout no turn leads to: a tile gone from the table, or more tiles of a shape than the game
    has (the message names the tile and its position)."""


@dataclass(frozen=True, slots=True)
class TableTurn:
    """A turn read from the table.

    Attributes:
        turn: the lays and moves (in the transcript's frame), or a draw when nothing changed.
        result: the game's verdict on it (legal or the rule it breaks).
    """

    turn: Turn
    result: TurnResult

    @property
    def text(self) -> str:
        """The turn in games.md notation: ``"R7@3,0, R8@4,0>4,1"`` or ``"draw"``."""
        return format_turn(self.turn)

    @property
    def is_legal(self) -> bool:
        """True when the game accepts the turn."""
        return self.result.is_legal


def table_turn(game: Game, seen: Mapping[Pos, Tile], drew: bool = False) -> TableTurn:
    """The current player's turn that leads from the game's table to the seen layout.

    Args:
        game: the round so far (its table is the layout before the turn).
        seen: the layout after the turn, position -> tile, in any frame a quarter turn and a shift
            away from the transcript's.
        drew: the player drew a tile this turn (before laying what is seen).

    Returns:
        the turn and the game's verdict on it.

    Raises:
        TableTurnError: a tile of the table is not seen any more, or the layout holds more tiles of a
            shape than the game has.
    """
    turn = Turn(turn_moves(game.table.tiles, seen), draw=drew)
    if not turn.moves:
        turn = Turn(draw=True)
    return TableTurn(turn, game.evaluate(turn))


def turn_moves(before: Mapping[Pos, Tile], seen: Mapping[Pos, Tile]) -> tuple[Move, ...]:
    """The moves (table moves, then lays; each top to bottom, left to right) from ``before`` to
    ``seen`` (see the module's docstring).

    Raises:
        TableTurnError: as :func:`table_turn`.
    """
    counts = Counter(t.shape for t in seen.values())
    for shape, count in counts.items():
        if count > SUPPLY[shape]:
            name = next(format_tile(t) for t in seen.values() if t.shape == shape)
            raise TableTurnError(f"{count} tiles {name} seen, the game has {SUPPLY[shape]}")
    after = aligned(before, seen)
    was: dict[Shape, list[Pos]] = defaultdict(list)
    now: dict[Shape, list[Pos]] = defaultdict(list)
    for pos, tile in before.items():
        was[tile.shape].append(pos)
    for pos, tile in after.items():
        now[tile.shape].append(pos)
    moves, lays = [], []
    for shape in sorted(set(was) | set(now)):
        sources, targets = sorted(was[shape], key=_order), sorted(now[shape], key=_order)
        if len(targets) < len(sources):
            gone = _unmatched(targets, sources)
            raise TableTurnError(
                f"{format_tile(before[gone])} at {format_pos(gone)} is no longer on the table "
                "(tiles may be rearranged, not taken back)"
            )
        matched = min(
            itertools.permutations(targets, len(sources)),
            key=lambda ts: sum(_distance(a, b) for a, b in zip(sources, ts, strict=True)),
        )
        moves += [Move(before[a], a, b) for a, b in zip(sources, matched, strict=True) if a != b]
        lays += [Move(after[b], b) for b in targets if b not in matched]
    return tuple(sorted(moves, key=lambda m: _order(m.pos)) + sorted(lays, key=lambda m: _order(m.pos)))


def aligned(before: Mapping[Pos, Tile], seen: Mapping[Pos, Tile]) -> dict[Pos, Tile]:
    """The seen layout in the frame of ``before``: turned by a quarter turn and shifted so that most
    seen tiles lie where a tile of their shape lies in ``before`` (ties as the module says)."""
    wild_before = next((p for p, t in before.items() if t.is_wild), None)
    best: tuple[tuple[int, int, int, int], int, tuple[int, int]] | None = None
    for quarter in range(4):
        turned = {_turned(p, quarter): t for p, t in seen.items()}
        wild_seen = next((p for p, t in turned.items() if t.is_wild), None)
        keeps_wild = (
            None
            if wild_before is None or wild_seen is None
            else (wild_before.x - wild_seen.x, wild_before.y - wild_seen.y)
        )
        votes = Counter(
            (b.x - s.x, b.y - s.y)
            for s, ts in turned.items()
            for b, tb in before.items()
            if tb.shape == ts.shape
        )
        for shift, count in votes.items():
            key = (count, -quarter, shift == keeps_wild, -abs(shift[0]) - abs(shift[1]))
            if best is None or key > best[0]:
                best = (key, quarter, shift)
    quarter, (dx, dy) = (0, (0, 0)) if best is None else best[1:]
    return {_turned(p, quarter).step(dx, dy): t for p, t in seen.items()}


def _turned(pos: Pos, quarter: int) -> Pos:
    """``pos`` turned by ``quarter`` quarter turns clockwise as seen (x right, y down)."""
    x, y = pos.x, pos.y
    for _ in range(quarter % 4):
        x, y = -y, x
    return Pos(x, y)


def _unmatched(targets: list[Pos], sources: list[Pos]) -> Pos:
    """The first source left over when the targets take the sources nearest to them in total."""
    kept = min(
        itertools.permutations(sources, len(targets)),
        key=lambda ss: sum(_distance(a, b) for a, b in zip(ss, targets, strict=True)),
    )
    return next(p for p in sources if p not in kept)


def _distance(a: Pos, b: Pos) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def _order(pos: Pos) -> tuple[int, int]:
    return (pos.y, pos.x)
