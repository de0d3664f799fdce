"""A table reading (games.md "Reading a table" JSON) compared with the truth of a rendered table
(vision.sim.table_shots), as tools compare layouts: Super Wild up to a quarter turn (the Super
Wild at 0,0 in both), Holominoes up to a shift and a turn by 120 or 240 degrees (which also moves
each tile's first corner, E -> SW -> NW). The alignment that places most tiles right is taken.

Every tile of the truth is then right, or has one error: read at its place as another tile (or,
for Holominoes, the same tile turned: another first corner) is a *wrong face*; read right but at
another place a *wrong place*; not read at all *missed*. A tile read that is none of these is
*extra*.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.holominoes.geometry import NUMBERED, centre_xy
from vision.sim.table_shots import TableShot

Layout = dict[tuple[int, int], str]


@dataclass(frozen=True, slots=True)
class TableErrors:
    """Per-tile errors of one reading (counts of tiles).

    Attributes:
        tiles: tiles in the truth.
        missed: truth tiles not read.
        extra: tiles read that are no truth tile.
        wrong_face: tiles read at their place as another tile (or another first corner).
        wrong_place: tiles read right at another place.
    """

    tiles: int
    missed: int
    extra: int
    wrong_face: int
    wrong_place: int

    @property
    def errors(self) -> int:
        """Every error counted once per tile."""
        return self.missed + self.extra + self.wrong_face + self.wrong_place

    def __add__(self, other: TableErrors) -> TableErrors:
        return TableErrors(self.tiles + other.tiles, self.missed + other.missed, self.extra + other.extra,
                           self.wrong_face + other.wrong_face, self.wrong_place + other.wrong_place)


def table_errors(shot: TableShot, read: Sequence[Mapping[str, Any]]) -> TableErrors:
    """The errors of a reading's tiles (``{"tiles": [...]}``'s list) against a rendered table.

    Raises:
        ValueError: a game other than "superwild" or "holominoes".
    """
    if shot.game == "superwild":
        truth = {t.place: t.tile for t in shot.tiles}
        seen = {(int(t["x"]), int(t["y"])): str(t["tile"]) for t in read}
        return min((_count(truth, turned) for turned in _quarter_turns(seen)), key=lambda e: e.errors)
    if shot.game == "holominoes":
        truth = {t.place: f"{t.tile}/{t.first}" for t in shot.tiles}
        seen = {(int(t["q"]), int(t["r"])): f"{t['tile']}/{t['first']}" for t in read}
        candidates = [_count(truth, shifted) for turned in _hex_turns(seen)
                      for shifted in _shifts(truth, turned)]
        return min(candidates, key=lambda e: e.errors) if candidates else _count(truth, {})
    raise ValueError(f"unknown table game {shot.game!r}")


def _count(truth: Layout, seen: Layout) -> TableErrors:
    right = {p for p, t in truth.items() if seen.get(p) == t}
    wrong_face = {p for p in truth if p in seen and p not in right}
    spare = Counter(t for p, t in seen.items() if p not in truth)  # read where no truth tile lies
    wrong_place = 0
    for p, t in truth.items():
        if p not in seen and spare[t] > 0:
            spare[t] -= 1
            wrong_place += 1
    missed = sum(1 for p in truth if p not in seen) - wrong_place
    return TableErrors(len(truth), missed, sum(spare.values()), len(wrong_face), wrong_place)


def _quarter_turns(layout: Layout) -> Iterable[Layout]:
    for k in range(4):
        yield layout
        if k < 3:
            layout = {(-y, x): t for (x, y), t in layout.items()}


def _hex_turns(layout: Layout) -> Iterable[Layout]:
    """The layout turned by 0, 120 and 240 degrees (clockwise as seen): cells and first corners."""
    for k in range(3):
        angle = k * 2 * math.pi / 3
        c, s = math.cos(angle), math.sin(angle)
        out = {}
        for cell, tile in layout.items():
            x, y = centre_xy(cell)
            x, y = c * x - s * y, s * x + c * y
            q = round(x / 1.5)
            r = round(y / math.sqrt(3) - q / 2)
            name, first = tile.split("/")
            out[(q, r)] = f"{name}/{NUMBERED[(NUMBERED.index(first) + k) % 3]}"
        yield out


def _shifts(truth: Layout, seen: Layout) -> Iterable[Layout]:
    """``seen`` shifted so that one of its tiles lies on the truth's place of the same tile."""
    where = {t: p for p, t in truth.items()}
    tried = set()
    for (q, r), tile in seen.items():
        if tile in where:
            dq, dr = where[tile][0] - q, where[tile][1] - r
            if (dq, dr) not in tried:
                tried.add((dq, dr))
                yield {(a + dq, b + dr): t for (a, b), t in seen.items()}
    if not tried:
        yield seen
