"""Legal values and blocked cells (§2-2: "a computerized version could detect the blocked cells").

A value x is legal on an empty cell when installing x there leaves every line through the cell a
sequence of the game's law (engine.laws: §2 modular-linear, §10 fibonacciësque, §11
multiplicative). Lines through a cell only grow as the game goes on, so a cell where no value is
legal now never gets one: it is blocked for the rest of the game.

Speed: an empty cell with no neighbouring tile takes any value. For the others, each of the three
lines through the cell is decided by at most two tiles on either side (the board's lines are
already modular-linear): the nearest tile and the step away from the cell. Only when a line through
the cell holds a wild tile whose value is still ambiguous (§7-2 E) is the cell handed to the
constraint solver of engine.wilds, with the cell as one more variable.

Under §10 and §11, and on wrapping boards (§12), a line is decided by trying each value on the
tiles around the cell (:func:`_law_mask`): the two nearest on either side for a law decided by
three consecutive tiles, the whole line otherwise or when the cell closes a loop.

Values are bit masks here (bit v set when v is legal); engine.state turns them into sets.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from engine.grid import AMBIGUOUS, EMPTY, Grid
from engine.laws import LINEAR, MULTIPLICATIVE, Law
from engine.wilds import resolve_wilds


@lru_cache(maxsize=64)
def _halves(modulus: int) -> tuple[int, ...]:
    """``halves[s]``: mask of the x with 2x = s (mod m), the middle of u ~ x ~ w with u + w = s."""
    out = [0] * modulus
    for x in range(modulus):
        out[(2 * x) % modulus] |= 1 << x
    return tuple(out)


def _line_mask(
    values: list[int] | tuple[int, ...],
    i: int,
    fwd: tuple[int, ...],
    back: tuple[int, ...],
    m: int,
    full: int,
    halves: tuple[int, ...],
) -> int:
    """Legal values on empty cell i as far as one line direction decides (no ambiguous wilds)."""
    a, b = back[i], fwd[i]
    u0 = values[a] if a >= 0 else EMPTY
    w0 = values[b] if b >= 0 else EMPTY
    if u0 == EMPTY and w0 == EMPTY:
        return full
    # step away from the cell on each side, None when that side has a single tile
    dl = dr = None
    if u0 != EMPTY:
        a2 = back[a]
        if a2 >= 0 and values[a2] != EMPTY:
            dl = values[a2] - u0
    if w0 != EMPTY:
        b2 = fwd[b]
        if b2 >= 0 and values[b2] != EMPTY:
            dr = values[b2] - w0
    if w0 == EMPTY:
        return full if dl is None else 1 << ((u0 - dl) % m)
    if u0 == EMPTY:
        return full if dr is None else 1 << ((w0 - dr) % m)
    if dl is None and dr is None:
        return halves[(u0 + w0) % m]
    if dl is not None:
        x = (u0 - dl) % m
        ok = (x - dl - w0) % m == 0 and (dr is None or (dr + dl) % m == 0)
    else:
        x = (w0 - dr) % m  # type: ignore[operator]
        ok = (x - dr - u0) % m == 0  # type: ignore[operator]
    return 1 << x if ok else 0


def _law_mask(law: Law, values: list[int] | tuple[int, ...], i: int, grid: Grid, k: int) -> int:
    """Legal values on empty cell i as far as line direction k decides, for any law (no ambiguous
    wilds): each value is tried on the line the cell would join, in the law's reading order."""
    fwd, back = grid.forward[k], grid.backward[k]
    after: list[int] = []
    j = fwd[i]
    while j >= 0 and values[j] != EMPTY and j != i:
        after.append(values[j])
        j = fwd[j]
    if j == i:  # the cell closes a loop (§12)
        return _loop_mask(law, tuple(after), grid.reads_forward[k])
    before: list[int] = []
    j = back[i]
    while j >= 0 and values[j] != EMPTY:
        before.append(values[j])
        j = back[j]
    before.reverse()
    if law.local:
        before, after = before[-2:], after[:2]
    if len(before) + len(after) < (1 if law.kind == MULTIPLICATIVE else 2):
        return law.full_mask
    return _open_mask(law, tuple(before), tuple(after), grid.reads_forward[k])


@lru_cache(maxsize=65536)
def _open_mask(law: Law, before: tuple[int, ...], after: tuple[int, ...], forward: bool) -> int:
    """Mask of the values x making ``before + (x,) + after`` (table order) a sequence of ``law``."""
    mask = 0
    for x in range(law.lowest, law.modulus):
        line = [*before, x, *after]
        if law.valid(line if forward or not law.directed else line[::-1]):
            mask |= 1 << x
    return mask


@lru_cache(maxsize=4096)
def _loop_mask(law: Law, after: tuple[int, ...], forward: bool) -> int:
    """Mask of the values x closing ``(x,) + after`` (table order) into a loop of ``law`` (§12)."""
    mask = 0
    for x in range(law.lowest, law.modulus):
        line = [x, *after]
        if law.valid_loop(line if forward or not law.directed else line[::-1]):
            mask |= 1 << x
    return mask


def _touches_ambiguous(grid: Grid, values: list[int] | tuple[int, ...], i: int) -> bool:
    """True when a line through empty cell i (once i is filled) holds an ambiguous wild tile."""
    for k in grid.directions:
        for table in (grid.forward[k], grid.backward[k]):
            j = table[i]
            while j >= 0 and values[j] != EMPTY and j != i:
                if values[j] == AMBIGUOUS:
                    return True
                j = table[j]
    return False


def frontier(grid: Grid, values: list[int] | tuple[int, ...]) -> set[int]:
    """Empty cells next to at least one tile: the only cells whose legal values are restricted."""
    out: set[int] = set()
    for i, v in enumerate(values):
        if v != EMPTY:
            out.update(j for j in grid.neighbours[i] if values[j] == EMPTY)
    return out


def legal_masks(
    grid: Grid,
    values: list[int] | tuple[int, ...],
    law: Law,
    cells: Iterable[int] | None = None,
    known: Mapping[int, int] | None = None,
    blocked_only: bool = False,
) -> dict[int, int]:
    """Legal-value masks of empty cells (§2-2).

    Args:
        grid: index tables of the board.
        values: per cell index: value >= 0, EMPTY or AMBIGUOUS (a legal position).
        law: the sequence law and modulus (engine.laws).
        cells: empty cell indices to examine; default: the frontier (every other empty cell takes
            any value).
        known: the ambiguous wild tiles' possible values, if known (engine.wilds.resolve_wilds).
        blocked_only: only tell blocked cells (mask 0) from the others: a cell next to an
            ambiguous wild tile then gets a mask with one legal value rather than all of them.

    Returns:
        cell index -> mask of legal values (0 for a blocked cell).
    """
    m = law.modulus
    full = law.full_mask
    halves = _halves(m)
    any_ambiguous = AMBIGUOUS in values
    out = {}
    fwd, back = grid.forward, grid.backward
    fast = law.kind == LINEAR and not any(grid.seams) and len(fwd) == 3
    for i in frontier(grid, values) if cells is None else cells:
        if any_ambiguous and _touches_ambiguous(grid, values, i):
            trial = list(values)
            trial[i] = AMBIGUOUS
            solved = resolve_wilds(grid, trial, law, extra={i: full}, known=known, one=blocked_only)
            out[i] = 0 if solved is None else solved[i]
            continue
        if not fast:
            mask = full
            for k in grid.directions:
                mask &= _law_mask(law, values, i, grid, k)
                if not mask:
                    break
            out[i] = mask
            continue
        mask = _line_mask(values, i, fwd[0], back[0], m, full, halves)
        if mask:
            mask &= _line_mask(values, i, fwd[1], back[1], m, full, halves)
        if mask:
            mask &= _line_mask(values, i, fwd[2], back[2], m, full, halves)
        out[i] = mask
    return out


def line_end_cells(grid: Grid, values: list[int] | tuple[int, ...], changed: Iterable[int]) -> set[int]:
    """Empty cells at either end of the runs through the changed cells, in all three directions.

    These are the only cells whose legal values a turn can change when no wild tile is ambiguous.
    """
    out: set[int] = set()
    for i in changed:
        for k in grid.directions:
            for table in (grid.forward[k], grid.backward[k]):
                j = table[i]
                while j >= 0 and values[j] != EMPTY and j != i:
                    j = table[j]
                if j >= 0 and j != i:
                    out.add(j)
    return out
