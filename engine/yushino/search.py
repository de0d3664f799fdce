"""Every legal play for a rack at a position, best first (for hints and random games, §2-§3).

A play lays its new tiles on the empty squares of one stretch of a row or column; with the board's
tiles next to it they make one line, which is a valid sequence. Three or more numbers are fixed by
their first two (100 readings forward, 100 more backward under ``"either"``), two by one of 20
pairs, so each stretch is tried against those readings only; the numbers each new tile may take
across the line are worked out once per square. A play that needs more of a number than the rack
holds uses the rack's blanks for the missing ones, on the squares where they cost least.
Each play found is judged and scored by :func:`engine.yushino.rules.evaluate_play`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from engine.yushino.board import CENTRE, SIZE, Layout, Square, square_at
from engine.yushino.rules import EITHER, PlayResult, Position, evaluate_play, is_sequence
from engine.yushino.tiles import BLANK, RACK_SIZE, Placement, Tile


@dataclass(frozen=True, slots=True)
class _Readings:
    """Every valid sequence of one length, and which of them hold number v at place i.

    Attributes:
        seqs: the sequences, sorted.
        holding: holding[i][v] -> the indices into ``seqs`` of those with v at place i.
    """

    seqs: tuple[tuple[int, ...], ...]
    holding: tuple[tuple[frozenset[int], ...], ...]


def _readings(direction: str) -> dict[int, _Readings]:
    """Every valid sequence of each length 1..15 (length 1: the ten numbers), indexed."""
    out: dict[int, set[tuple[int, ...]]] = {1: {(v,) for v in range(10)}}
    out[2] = {(a, b) for a in range(10) for b in range(10) if is_sequence((a, b))}
    for n in range(3, SIZE + 1):
        seqs = set()
        for a in range(10):
            for b in range(10):
                seq = [a, b]
                while len(seq) < n:
                    seq.append((seq[-1] + seq[-2]) % 10)
                seqs.add(tuple(seq))
                if direction == EITHER:
                    seqs.add(tuple(reversed(seq)))
        out[n] = seqs
    indexed = {}
    for n, found in out.items():
        ordered = tuple(sorted(found))
        holding = tuple(
            tuple(frozenset(k for k, seq in enumerate(ordered) if seq[i] == v) for v in range(10))
            for i in range(n)
        )
        indexed[n] = _Readings(ordered, holding)
    return indexed


_READINGS: dict[str, dict[int, _Readings]] = {}


def _cross(
    tiles: Mapping[Square, Tile], square: Square, dc: int, dr: int, direction: str
) -> frozenset[int] | None:
    """The numbers ``square`` may take in the line across (dc, dr); None when no tile is there."""
    before, after = [], []
    c, r = square.col - dc, square.row - dr
    while c >= 0 and r >= 0 and (t := tiles.get(square_at(c, r))) is not None:
        before.append(t.value or 0)
        c, r = c - dc, r - dr
    c, r = square.col + dc, square.row + dr
    while c < SIZE and r < SIZE and (t := tiles.get(square_at(c, r))) is not None:
        after.append(t.value or 0)
        c, r = c + dc, r + dr
    if not before and not after:
        return None
    before.reverse()
    return frozenset(v for v in range(10) if is_sequence([*before, v, *after], direction))


def _stretches(
    tiles: Mapping[Square, Tile], max_tiles: int
) -> Iterator[tuple[int, list[Square], list[int | None]]]:
    """(axis, the line's squares, their numbers or None where new) for every stretch of new tiles.

    Axis 0 is a row, 1 a column. A one-tile play is given once, on axis 0.
    """
    for axis in (0, 1):
        for fixed in range(SIZE):
            line = [square_at(i, fixed) if axis == 0 else square_at(fixed, i) for i in range(SIZE)]
            vals = [None if (t := tiles.get(s)) is None else (t.value or 0) for s in line]
            for start in range(SIZE):
                if vals[start] is not None:
                    continue
                lo = start
                while lo > 0 and vals[lo - 1] is not None:
                    lo -= 1
                end, placed = start, 0
                while end < SIZE and placed < max_tiles:
                    if vals[end] is None:
                        placed += 1
                        if placed > 1 or axis == 0:
                            hi = end
                            while hi + 1 < SIZE and vals[hi + 1] is not None:
                                hi += 1
                            yield axis, line[lo : hi + 1], vals[lo : hi + 1]
                    end += 1


def legal_plays(
    position: Position,
    rack: Mapping[str, int],
    max_tiles: int,
    layout: Layout,
    direction: str,
) -> list[PlayResult]:
    """Every legal play from ``rack`` at ``position``, best score first (ties in notation order).

    Args:
        position: the board.
        rack: face -> how many (``"#"`` the blanks); may be larger than a real rack (a hint without
            a rack uses every unseen tile).
        max_tiles: most tiles one play may lay (the rack's size, at most 7).
        layout: the premium squares.
        direction: ``"forward"`` or ``"either"``.
    """
    if direction not in _READINGS:
        _READINGS[direction] = _readings(direction)
    readings = _READINGS[direction]
    tiles = position.tiles
    first = not tiles
    max_tiles = min(max_tiles, RACK_SIZE, sum(rack.values()))
    blanks = rack.get(BLANK, 0)
    naturals = {int(f): n for f, n in rack.items() if f != BLANK}
    cross_cache: dict[tuple[Square, int], frozenset[int] | None] = {}

    def cross(square: Square, axis: int) -> frozenset[int] | None:
        key = (square, axis)
        if key not in cross_cache:
            dc, dr = (0, 1) if axis == 0 else (1, 0)
            cross_cache[key] = _cross(tiles, square, dc, dr, direction)
        return cross_cache[key]

    found: dict[frozenset[Placement], PlayResult] = {}
    for axis, squares, vals in _stretches(tiles, max_tiles):
        new = [i for i, v in enumerate(vals) if v is None]
        crosses = [cross(squares[i], axis) for i in new]
        if first:
            if len(new) < 2 or CENTRE not in squares:
                continue
        elif len(new) == len(vals) and all(c is None for c in crosses):
            continue  # touches no tile
        for seq in _fitting(readings[len(vals)], vals, new, crosses):
            need = Counter(seq[i] for i in new)
            short = {v: n - naturals.get(v, 0) for v, n in need.items() if n > naturals.get(v, 0)}
            if sum(short.values()) > blanks:
                continue
            for placements in _blank_choices(squares, new, seq, short):
                result = evaluate_play(position, placements, layout, direction)
                if result.legal:
                    key = frozenset(placements)
                    if key not in found:
                        found[key] = result
    return sorted(found.values(), key=lambda r: (-r.score, [str(p) for p in r.placements]))


def _fitting(
    readings: _Readings, vals: list[int | None], new: list[int], crosses: list[frozenset[int] | None]
) -> list[tuple[int, ...]]:
    """The readings that keep the line's old numbers and give each new tile a number its cross
    line allows."""
    holding = readings.holding
    fit: frozenset[int] | None = None
    for i, v in enumerate(vals):
        if v is not None:
            fit = holding[i][v] if fit is None else fit & holding[i][v]
    for i, allowed in zip(new, crosses, strict=True):
        if allowed is not None and len(allowed) < 10:
            some = frozenset().union(*(holding[i][v] for v in allowed))
            fit = some if fit is None else fit & some
    if fit is None:
        return list(readings.seqs)
    return [readings.seqs[k] for k in sorted(fit)]


def _blank_choices(
    squares: list[Square], new: list[int], seq: tuple[int, ...], short: Mapping[int, int]
) -> Iterator[list[Placement]]:
    """The placements of one reading, each way of putting blanks on ``short[v]`` squares of value v."""
    if not short:
        yield [Placement(squares[i], Tile(seq[i])) for i in new]
        return
    options = []
    for v, n in short.items():
        options.append(list(itertools.combinations([i for i in new if seq[i] == v], n)))
    for combo in itertools.product(*options):
        blank_at = {i for group in combo for i in group}
        yield [Placement(squares[i], Tile(seq[i], i in blank_at)) for i in new]
