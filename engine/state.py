"""A position prepared for the rules: values per cell index and the wild tiles' possible values (§2-2,
§7, §10-12).

:class:`BoardState` is what the rules (engine.rules) and the legal-value search (engine.legal) work
on. ``values[i]`` is the value on cell i (a natural, the modulus marker's 0, a declared wild's value,
or a wild value settled by the lines through it), -1 for an empty cell, -2 for a wild tile whose
value is still ambiguous (§7-2 E). ``wild[i]`` marks wild tiles (ignored when scoring, §7-1).
``domains`` gives every wild tile's possible values, found by the solver in engine.wilds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.cells import Cell, format_cell
from engine.grid import AMBIGUOUS, EMPTY, Grid, grid_of
from engine.laws import Law
from engine.legal import legal_masks
from engine.position import Position
from engine.settings import Settings
from engine.wilds import mask_values, resolve_wilds


@dataclass(frozen=True, slots=True, eq=False)
class BoardState:
    """A position with per-cell values and the wild tiles' resolved domains.

    Attributes:
        settings: the game's settings.
        grid: index tables of the settings' board.
        position: the tiles.
        values: per cell index: value >= 0, EMPTY (-1) or AMBIGUOUS (-2).
        wild: per cell index: True for a wild tile.
        domains: wild tile cell -> the values it can stand for (one value when resolved).
        blocked: indices of the blocked cells (§2-2).
    """

    settings: Settings
    grid: Grid
    position: Position
    values: tuple[int, ...]
    wild: tuple[bool, ...]
    domains: Mapping[Cell, frozenset[int]]
    blocked: frozenset[int]

    @classmethod
    def build(cls, settings: Settings, position: Position) -> BoardState:
        """Prepare ``position`` for the rules, resolving its wild tiles (§7-2, §7-3).

        Raises:
            ValueError: a tile off the board, a value outside the set, or a line of tiles that is
                not a sequence of the game's law (the message names the cells).
        """
        grid = grid_of(settings.board)
        law = settings.law
        m = settings.modulus
        values = [EMPTY] * len(grid.cells)
        wild = [False] * len(grid.cells)
        for cell, tile in position.items():
            i = grid.index.get(cell)
            if i is None:
                raise ValueError(f"tile {tile.notation()} on {format_cell(cell)}, which is off the board")
            if tile.value is not None and not law.lowest <= tile.value < m:
                raise ValueError(f"tile {tile.notation()} on {format_cell(cell)} is not a value of the set")
            values[i] = AMBIGUOUS if tile.value is None else tile.value
            wild[i] = tile.is_wild
        for k, run in grid.lines(values):
            if AMBIGUOUS not in (values[j] for j in run) and not line_obeys(grid, law, values, run, k):
                cells = ", ".join(format_cell(grid.cells[j]) for j in run)
                raise ValueError(f"the line {cells} is not {law.adjective} under modulus {m}")
        domains = resolve_wilds(grid, values, law)
        if domains is None:
            raise ValueError(f"the wild tiles cannot take values that make every line {law.adjective}")
        state = cls.assemble(settings, grid, position, values, wild, domains, frozenset())
        return state.with_blocked(None)

    @classmethod
    def assemble(
        cls,
        settings: Settings,
        grid: Grid,
        position: Position,
        values: list[int],
        wild: list[bool],
        masks: Mapping[int, int],
        blocked: frozenset[int],
    ) -> BoardState:
        """A state from already checked parts; ``masks`` are the ambiguous wilds' solved domains.

        Resolved wilds (one value left) get that value in ``values``; ``blocked`` is taken as is.
        """
        values = list(values)
        for i, mask in masks.items():
            if mask.bit_count() == 1:
                values[i] = mask.bit_length() - 1
        domains = {}
        for i, is_wild in enumerate(wild):
            if is_wild:
                domains[grid.cells[i]] = frozenset((values[i],)) if values[i] >= 0 else mask_values(masks[i])
        return cls(settings, grid, position, tuple(values), tuple(wild), domains, blocked)

    def with_blocked(self, candidates: frozenset[int] | set[int] | None) -> BoardState:
        """This state with its blocked cells found: all of them (``candidates`` None), or the
        previously blocked cells plus those among ``candidates`` that are blocked now.

        Blocked cells stay blocked (lines only grow), so after a turn that leaves no wild tile
        ambiguous only the cells at the ends of the changed lines need a look (engine.legal).
        """
        law = self.settings.law
        known = self.ambiguous_masks()
        if candidates is None:
            masks = legal_masks(self.grid, self.values, law, known=known, blocked_only=True)
            blocked = frozenset(i for i, mask in masks.items() if not mask)
        else:
            masks = legal_masks(self.grid, self.values, law, candidates, known, blocked_only=True)
            blocked = self.blocked.union(i for i, mask in masks.items() if not mask)
            blocked = frozenset(i for i in blocked if self.values[i] == EMPTY)
        return BoardState(
            self.settings, self.grid, self.position, self.values, self.wild, self.domains, blocked
        )

    def blocked_cells(self) -> frozenset[Cell]:
        """Empty cells where no value can ever be legal (§2-2)."""
        return frozenset(self.grid.cells[i] for i in self.blocked)

    def legal_values(self) -> dict[Cell, frozenset[int]]:
        """The legal values of every empty cell (§2-2); an empty set marks a blocked cell."""
        law = self.settings.law
        cells = self.grid.cells
        everything = mask_values(law.full_mask)
        out = {cells[i]: everything for i, v in enumerate(self.values) if v == EMPTY}
        by_mask: dict[int, frozenset[int]] = {law.full_mask: everything}
        for i, mask in legal_masks(self.grid, self.values, law, known=self.ambiguous_masks()).items():
            values = by_mask.get(mask)
            if values is None:
                values = by_mask[mask] = mask_values(mask)
            out[cells[i]] = values
        return out

    def ambiguous_masks(self) -> dict[int, int]:
        """Cell index -> possible values as a bit mask, for every ambiguous wild tile."""
        return {
            self.grid.index[c]: sum(1 << v for v in values)
            for c, values in self.domains.items()
            if len(values) > 1
        }


def line_obeys(grid: Grid, law: Law, values: list[int] | tuple[int, ...], run: list[int], k: int) -> bool:
    """True when the run of known values ``run`` (direction ``k``) obeys ``law``: read in the law's
    reading order (§10), closed across the seam when it is a loop (§12)."""
    seq = [values[j] for j in grid.reading_order(run, k, law.directed)]
    return law.valid_loop(seq) if grid.is_loop(run, k) else law.valid(seq)
