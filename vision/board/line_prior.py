"""The rules as a prior for a whole-board reading: every line of tiles is modular-linear (§2-2).

A board in play satisfies the rules, so a reading in which some unbroken straight line of three or
more tiles is not an arithmetic progression modulo m points at a misread, and the cell to suspect
is the one whose reader was least sure. :func:`decode_lines` picks, for each occupied cell, one of
the faces the tile reader offered (its alternatives with their probabilities) so as to maximise

    sum over cells of log P(face)  -  LINE_PENALTY x (lines that break §2-2)
                                   -  LINE_PENALTY x (faces that are no value here),

by greedy single-cell changes (iterated conditional modes). A clear reading of a value that breaks
a line is kept: a change is made only when the reader gave the other face at least
exp(-LINE_PENALTY) of the probability of its first choice, so an illegal placement read with
confidence is still reported as placed (the engine flags the turn).

A wild tile ("#", "joker": value None, §7-1) matches any value in each line through it (each line
is checked on its own, a relaxation of §7-2); since it would mend any line, a wild tile that the
reader put after a value counts as one broken line. A face with no value under the modulus
(a "15" under modulus 13, a modulus marker off A0) counts as one broken line.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from engine.grid import EMPTY, Grid, grid_of
from engine.hexgrid import Board, Hex

#: Log-odds against a reading that breaks a line of the rules (e^4: about 55 to 1). On games in the
#: TRAIN styles (bench/tune_line_prior.py) 0, 2.5, 4 and 6 leave 98, 36, 33 and 32 misreads of
#: 4607 tiles: 4 mends nearly all that a stronger prior would, while a clear reading still stands.
LINE_PENALTY = 4.0

#: Alternatives with less probability than this are not considered.
MIN_PROBABILITY = 1e-4


class _Option(NamedTuple):
    """One face the reader offered for a cell."""

    face: str
    logp: float
    value: int | None  # None: a wild tile or a face of no value
    wild: bool


def decode_lines(cells: Mapping[Hex, Sequence[tuple[str, float]]], board: Board, modulus: int,
                 value_of: Callable[[Hex, str], int | None], is_wild: Callable[[str], bool],
                 penalty: float = LINE_PENALTY, max_rounds: int = 200) -> dict[Hex, tuple[str, float]]:
    """The most probable faces under the line rule (§2-2), with their posterior probabilities.

    Args:
        cells: occupied cells and the reader's alternatives for each: (face, probability) pairs,
            probabilities in 0..1 (cells off ``board`` keep their most probable face).
        board: the board (its lines).
        modulus: m (§1-3).
        value_of: (cell, face) -> the face's value there, or None for a wild tile or a face that
            is no value (e.g. "15" under modulus 13, the marker off A0).
        is_wild: whether a face is a wild tile (value None but breaking nothing).
        penalty: log-odds against a broken line (``LINE_PENALTY`` by default).
        max_rounds: bound on the number of single-cell changes.

    Returns:
        cell -> (face, probability): the chosen face and its probability given the other cells'
        choices (the reader's probabilities re-weighted by the lines each alternative breaks); a
        first choice that no line put in doubt keeps the reader's probability.

    Raises:
        ValueError: for a modulus below 1 or a cell with no alternatives.
    """
    if modulus < 1:
        raise ValueError(f"modulus must be >= 1, got {modulus}")
    grid = grid_of(board)
    # each cell's first choice now; its other options only when a line puts it in doubt
    offered_at: dict[int, list[tuple[str, float]]] = {}
    options: dict[int, list[_Option]] = {}

    def _option(cell: Hex, face: str, p: float) -> _Option:
        return _Option(face, math.log(max(p, 1e-12)), value_of(cell, face), is_wild(face))

    def choices(i: int) -> list[_Option]:
        """Every option of cell i (built on first need)."""
        if len(options[i]) < len(offered_at[i]):
            options[i] += [_option(grid.cells[i], f, p) for f, p in offered_at[i][1:]]
        return options[i]

    outside: dict[Hex, tuple[str, float]] = {}
    for cell, offered in cells.items():
        if not offered:
            raise ValueError(f"cell {cell}: the reader offered no face")
        ranked = sorted(offered, key=lambda fp: -fp[1])
        if cell not in grid.index:
            outside[cell] = ranked[0]
            continue
        kept = [(f, p) for f, p in ranked if p >= MIN_PROBABILITY] or ranked[:1]
        i = grid.index[cell]
        offered_at[i] = kept
        options[i] = [_option(cell, *kept[0])]
    occupied = [EMPTY] * len(grid.cells)
    for i in options:
        occupied[i] = 0
    lines = _lines(grid, occupied, options)
    through: dict[int, list[int]] = {i: [] for i in options}
    for n, line in enumerate(lines):
        for i in line:
            through[i].append(n)
    steps = _steps(modulus)
    choice = {i: 0 for i in options}

    def cost(i: int, k: int) -> float:
        """Log-probability of option k on cell i less the penalties it brings, the others fixed."""
        option = options[i][k]
        # a face of no value counts as a broken line; a wild tile would mend any line, so only
        # the reader can say a tile is wild: one it put after a value counts as a broken line
        broken = int(k > 0 and options[i][0].value is not None) if option.wild else int(option.value is None)
        for n in through[i]:
            values = [options[j][k if j == i else choice[j]].value for j in lines[n]]
            broken += not _is_linear(values, steps, modulus)
        return option.logp - penalty * broken

    def best_change(i: int) -> tuple[float, int]:
        here = cost(i, choice[i])
        return max(((cost(i, k) - here, k) for k in range(len(options[i])) if k != choice[i]),
                   default=(0.0, 0))

    # only a cell on a broken line or with a face of no value can gain by a change at first;
    # after a change, the cells on its lines are looked at again
    broken_lines = [n for n, line in enumerate(lines)
                    if not _is_linear([options[j][0].value for j in line], steps, modulus)]
    suspects = {i for n in broken_lines for i in lines[n]}
    suspects |= {i for i in options if options[i][0].value is None and not options[i][0].wild}
    gains = {i: best_change(i) for i in suspects if len(choices(i)) > 1}
    for _ in range(max_rounds):
        if not gains:
            break
        i = max(gains, key=lambda c: gains[c][0])
        gain, k = gains[i]
        if gain <= 1e-9:
            break
        choice[i] = k
        for j in {i} | {j for n in through[i] for j in lines[n]}:
            if len(choices(j)) > 1:
                gains[j] = best_change(j)
    out = dict(outside)
    for i, k in choice.items():
        if k == 0 and i not in gains:
            # the reader's first choice, on lines that hold: its probability as the reader gave it
            # (the lines could only raise it)
            out[grid.cells[i]] = (options[i][0].face, math.exp(options[i][0].logp))
            continue
        costs = [cost(i, j) for j in range(len(options[i]))]
        top = max(costs)
        total = sum(math.exp(c - top) for c in costs)
        out[grid.cells[i]] = (options[i][k].face, math.exp(costs[k] - top) / total)
    return out


def _lines(grid: Grid, occupied: Sequence[int], options: Iterable[int]) -> list[tuple[int, ...]]:
    """Every maximal run of three or more occupied cells along the three line directions."""
    seen: set[tuple[int, ...]] = set()
    for i in options:
        for k in range(3):
            run = tuple(grid.run(occupied, i, k))
            if len(run) >= 3:
                seen.add(run)
    return sorted(seen)


@lru_cache(maxsize=32)
def _steps(modulus: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``steps[g][r]``: the steps d with g*d = r (mod m), for g, r in 0..m-1."""
    return tuple(tuple(tuple(d for d in range(modulus) if (g * d - r) % modulus == 0)
                       for r in range(modulus)) for g in range(modulus))


def _is_linear(values: Sequence[int | None], steps: tuple[tuple[tuple[int, ...], ...], ...],
               modulus: int) -> bool:
    """Whether the known values along a line (None: a wild tile or a face of no value, skipped)
    fit one arithmetic progression modulo m (§2-2) at their places along the line."""
    known = [(pos, v) for pos, v in enumerate(values) if v is not None]
    if len(known) < 3:
        if len(known) < 2:
            return True
        (p0, v0), (p1, v1) = known
        return bool(steps[(p1 - p0) % modulus][(v1 - v0) % modulus])
    (p0, v0), (p1, v1) = known[0], known[1]
    return any(all((v0 + (p - p0) * d - v) % modulus == 0 for p, v in known[2:])
               for d in steps[(p1 - p0) % modulus][(v1 - v0) % modulus])
