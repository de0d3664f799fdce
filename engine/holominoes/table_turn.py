"""The tile placed between two layouts of a Holominoes table (games.md "Holominoes", "Reading a
table").

The layout before the turn is the game's position, in the transcript's frame. The layout after it
is a reading of the table (e.g. vision.table.holominoes_grid) whose origin is free and which may be
turned by 120 or 240 degrees against the transcript's frame (every turn by a third keeps the numbered
corners at E, SW and NW). The tiles already placed fix the frame: of the three turns and every shift
that lays a seen tile on a placed one, the one under which the most numbers seen agree with the
numbers placed at the same corners is taken (ties: no turn, then the smallest shift). In that frame
the tiles already placed stay where they lie (tiles are never taken back or moved), so what the
camera sees on their cells tells nothing new: a tile misread or missed there is the placed tile. One
tile on a cell no placed tile holds is the turn's placement (``132@1,0/E``). An empty table fixes
no frame: the first tile is placed as seen.

The placement is judged by the game itself (:meth:`engine.holominoes.game.Game.evaluate`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from engine.holominoes.game import Game, TurnResult
from engine.holominoes.geometry import NUMBERED, Cell
from engine.holominoes.tiles import Placement, Play, format_placement, format_tile


class TableTurnError(ValueError):
    """A layout no single placement leads to: several new tiles, two on one cell, or a new tile that is
    already placed elsewhere (the message names them)."""


@dataclass(frozen=True, slots=True)
class TableTurn:
    """The placement read from the table.

    Attributes:
        placement: the tile laid, in the transcript's frame.
        result: the game's verdict on it (legal, with its holes and score, or the rule it breaks).
    """

    placement: Placement
    result: TurnResult

    @property
    def text(self) -> str:
        """The placement in games.md notation, ``"132@1,0/E"``."""
        return format_placement(self.placement)


def table_turn(game: Game, seen: Iterable[Placement]) -> TableTurn | None:
    """The current player's placement that leads from the game's position to the seen layout.

    Args:
        game: the game so far (its position is the layout before the turn).
        seen: the layout after the turn, in a frame a shift and a turn by 0, 120 or 240 degrees
            away from the transcript's.

    Returns:
        the placement and the game's verdict, None when the layouts are the same (no tile placed).

    Raises:
        TableTurnError: more than one new tile, two on one cell, or a new tile already placed.
    """
    before = {p.tile: p for p in game.position.placements}
    placed_cells = {p.cell for p in before.values()}
    new = [p for p in aligned(before.values(), seen) if p.cell not in placed_cells]
    cells = Counter(p.cell for p in new)
    for p in new:
        if p.tile in before:
            raise TableTurnError(f"{format_placement(p)}: tile {format_tile(p.tile)} is already on the table "
                                 f"at {format_placement(before[p.tile])}")
        if cells[p.cell] > 1:
            raise TableTurnError(f"two tiles seen on {p.cell.q},{p.cell.r}")
    if len(new) > 1:
        raise TableTurnError(
            f"{len(new)} new tiles ({', '.join(map(format_placement, new))}): a turn lays one"
        )
    if not new:
        return None
    return TableTurn(new[0], game.evaluate(Play(new[0])))


def aligned(before: Iterable[Placement], seen: Iterable[Placement]) -> list[Placement]:
    """The seen layout in the frame of ``before``: turned by a third (0, 1 or 2 times 120 degrees) and
    shifted so that the most numbers seen lie where ``before`` has them: every seen tile laid on a
    placed one votes for that turn and shift with the corners (E, SW, NW) whose numbers agree, so a
    tile misread in one digit still anchors the frame (ties as the module says)."""
    placed = list(before)
    seen = list(seen)
    votes: Counter[tuple[int, int, int]] = Counter()
    for thirds in range(3):
        for p in seen:
            turned = turned_by(p, thirds)
            for old in placed:
                agree = sum(a == b for a, b in zip(old.corners, turned.corners, strict=True))
                if agree:
                    votes[(thirds, old.cell.q - turned.cell.q, old.cell.r - turned.cell.r)] += agree
    thirds, dq, dr = 0, 0, 0
    if votes:
        def rank(k: tuple[int, int, int]) -> tuple[int, int, int]:
            return votes[k], -k[0], -abs(k[1]) - abs(k[2]) - abs(k[1] + k[2])

        thirds, dq, dr = max(votes, key=rank)
    out = []
    for p in seen:
        turned = turned_by(p, thirds)
        out.append(Placement(p.tile, Cell(turned.cell.q + dq, turned.cell.r + dr), turned.first))
    return out


def turned_by(placement: Placement, thirds: int) -> Placement:
    """A placement turned about 0,0 by ``thirds`` times 120 degrees clockwise as seen: the cell q,r
    goes to -q-r,q and each numbered corner to the next clockwise (E -> SW -> NW -> E)."""
    q, r = placement.cell.q, placement.cell.r
    first = placement.first
    for _ in range(thirds % 3):
        q, r = -q - r, q
        first = NUMBERED[(NUMBERED.index(first) + 1) % 3]
    return Placement(placement.tile, Cell(q, r), first)
