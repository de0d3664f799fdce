"""A deliberately plain re-statement of the MODLINSEQ rules, for cross-checking the engine.

Written from the rules text with Hex arithmetic only (no grid indices, masks or solver), natural
tiles only unless a line check is given explicit values.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.hexgrid import LINE_DIRECTIONS, Board, Hex

STEPS = list(LINE_DIRECTIONS.values())
CENTRE = Hex(0, 0)


def run_through(tiles: Mapping[Hex, int], cell: Hex, step: Hex) -> list[Hex]:
    """The unbroken line of tiles through ``cell`` along ``step`` (cell must hold a tile)."""
    start = cell
    while start - step in tiles:
        start = start - step
    out = []
    c = start
    while c in tiles:
        out.append(c)
        c = c + step
    return out


def linear(values: list[int], m: int) -> bool:
    return len(values) < 3 or all(
        (values[i + 1] - values[i] - values[1] + values[0]) % m == 0 for i in range(len(values) - 1)
    )


def all_lines_linear(tiles: Mapping[Hex, int], m: int) -> bool:
    return all(
        linear([tiles[c] for c in run_through(tiles, cell, step)], m) for cell in tiles for step in STEPS
    )


def points(n: int) -> int:
    return max(0, (n - 1) * (n - 2) // 2)


def verdict(board: Board, tiles: Mapping[Hex, int], turn: list[tuple[Hex, int]], m: int) -> tuple[bool, int]:
    """(legal, score) of a natural-only turn, from §3-2 and §3-3 read literally."""
    cells = [c for c, _ in turn]
    if not turn or len(set(cells)) != len(cells):
        return False, 0
    if any(c not in board or c in tiles or not 0 <= v < m for c, v in turn):
        return False, 0
    after = dict(tiles)
    after.update(turn)
    if len(cells) > 1:
        lines = [step for step in STEPS if all(c in run_through(after, cells[0], step) for c in cells)]
        if not lines:
            return False, 0  # not one straight unbroken run
    if not tiles:
        if CENTRE not in cells:
            return False, 0
    elif not any(c + d in tiles for c in cells for d in STEPS + [Hex(-s.q, -s.r) for s in STEPS]):
        return False, 0
    runs = {tuple(run_through(after, c, step)) for c in cells for step in STEPS}
    if not all(linear([after[c] for c in run], m) for run in runs):
        return False, 0
    return True, sum(points(len(run)) for run in runs if len(run) >= 2)


def legal_values_at(tiles: Mapping[Hex, int], m: int, cell: Hex) -> set[int]:
    """Values x on empty ``cell`` that leave every line through it modular-linear."""
    ok = set()
    for x in range(m):
        after = dict(tiles)
        after[cell] = x
        if all(linear([after[c] for c in run_through(after, cell, step)], m) for step in STEPS):
            ok.add(x)
    return ok


def legal_values(board: Board, tiles: Mapping[Hex, int], m: int) -> dict[Hex, set[int]]:
    """:func:`legal_values_at` for every empty cell of the board."""
    return {cell: legal_values_at(tiles, m, cell) for cell in board.cells - set(tiles)}
