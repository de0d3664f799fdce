"""MODLINSEQ turns: validation and scoring (§2-2, §2-3, §3-2, §3-3, §7-12).

:func:`evaluate_turn` checks one turn against a :class:`engine.state.BoardState` and, when it is
legal, scores it and returns the state after it. Checks, in order (the first broken rule is
reported with its cells):

1. at least one tile (§3-2); every tile on a cell of the board (§1-2) with a value below the
   modulus (§1-3), and not 0 under §11; one tile per cell; every cell empty, or holding a wild
   tile that a natural replaces under the hash swap (§7-4); wild tiles only when the game has them
   (§7-1);
2. all changed cells on one straight line (§3-2), forming one unbroken run with the tiles already
   there: the primary sequence;
3. the first turn covers A0 (§3-3; with the modulus marker: its primary sequence runs through A0,
   §8; on a rectangular board the centre cell, §12); later turns add a tile next to an old one
   (§3-3);
4. every unbroken straight line through a changed cell is a sequence of the game's law (§2-2
   modular-linear, §10 fibonacciësque read in the board's reading direction, §11 multiplicative;
   engine.laws), across the edges of a wrapping board and round a loop (§12), wild tiles included
   (engine.wilds). A broken line is reported as §12 when it closes a loop or crosses an edge, as
   the direction rule of §10/§11 when it would be legal read the other way;
5. the wild policy of §7-2 (A: a sequence with two adjacent naturals; B: with two naturals;
   C: a unique value; D: a declared value; E: anything consistent), and a hash swap's natural agrees
   with a value the wild tile could have had (§7-4).

Scoring (§2-3, §3-2, §7-1, §7-4, §9-2, §9-3, §12): every sequence (run of two or more tiles, and
the primary sequence always) through a changed cell scores (n-1)(n-2)/2 where n counts its natural
tiles, plus 1 for each bonus cell and minus 1 for each malus cell covered in this turn. The §10 and
§11 sequences score the same way (their pages state no scoring; §2-3's is kept). A loop (§12)
scores as an ordinary sequence of its length, plus the loop bonus of the settings for the turn that
closes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from engine.bonus import bonus_cells
from engine.cells import Cell, cell_sort_key, format_cell
from engine.errors import (
    RULE_ABUT,
    RULE_ACROSS_EDGE,
    RULE_ADDITION_DIRECTION,
    RULE_AT_LEAST_ONE_TILE,
    RULE_EMPTY_CELL,
    RULE_FACTOR_DIRECTION,
    RULE_FIRST_TURN_A0,
    RULE_HASH_SWAP,
    RULE_LOOP,
    RULE_MARKER,
    RULE_NO_WILDS,
    RULE_NO_ZERO,
    RULE_ON_BOARD,
    RULE_ONE_TILE_PER_CELL,
    RULE_STRAIGHT_LINE,
    RULE_UNBROKEN_RUN,
    RULE_VALUE_BELOW_MODULUS,
    RULE_WILD_POLICY,
    RuleViolation,
)
from engine.grid import AMBIGUOUS, EMPTY, Grid, grid_of
from engine.laws import FIBONACCI, LINEAR, Law
from engine.legal import line_end_cells
from engine.sequences import msa_of, points, tilde
from engine.squaregrid import RectBoard
from engine.state import BoardState, line_obeys
from engine.tiles import Placement, Tile, format_placement
from engine.wilds import LineConstraint, resolve_wilds


@dataclass(frozen=True, slots=True)
class ScoredSequence:
    """A sequence a turn created or extended (§3-2).

    Attributes:
        cells: the sequence's cells in line order (west to east, south-west to north-east,
            north-west to south-east; under §10 and §11 in the reading direction, engine.grid).
        values: the values, None for an ambiguous wild tile.
        msa: the MSA notation (§2-4), None when the step is not determined (one tile, or
            ambiguous wild tiles) and under §10 and §11, which the MSA notation does not describe.
        length: the scoring length: natural tiles, plus bonus, minus malus cells (§7-1, §9).
        points: (length-1)(length-2)/2, 0 below 3 (table 2A), plus the loop bonus when the turn
            closed the sequence into a loop (§12).
        primary: True for the primary sequence (§3-2).
        wild: per cell, True for a wild tile.
        loop: True when the sequence goes all the way round a wrapping line (§12).
    """

    cells: tuple[Cell, ...]
    values: tuple[int | None, ...]
    msa: str | None
    length: int
    points: int
    primary: bool
    wild: tuple[bool, ...]
    loop: bool = False

    def __post_init__(self) -> None:
        if not self.cells or not len(self.cells) == len(self.values) == len(self.wild):
            raise ValueError(f"a sequence needs one value and wild flag per cell: {self!r}")

    @property
    def addresses(self) -> list[str]:
        """The cells as addresses."""
        return [format_cell(c) for c in self.cells]

    def _faces(self) -> list[str]:
        return ["#" if w else str(v) for v, w in zip(self.values, self.wild, strict=True)]

    def tilde(self) -> str:
        """The sequence in tilde notation with faces and addresses (``4B2 ~ #B1 ~ 10A0``, §2-1)."""
        return " ~ ".join(f"{f}{a}" for f, a in zip(self._faces(), self.addresses, strict=True))

    def values_tilde(self) -> str:
        """The faces in tilde notation (``5 ~ 1 ~ # ~ 5``, §7-1)."""
        return " ~ ".join(self._faces())

    def resolved_tilde(self) -> str:
        """The values in tilde notation, wild tiles by their value (``#`` when ambiguous)."""
        return tilde(self.values)


@dataclass(frozen=True, slots=True)
class TurnResult:
    """The verdict on a turn, whether or not it was committed.

    Attributes:
        placements: the turn's placements as given.
        legal: whether the turn obeys every rule.
        error: the first rule broken, None when legal.
        score: points for the turn (0 when illegal).
        sequences: sequences created or extended, primary first (empty when illegal).
        blocked: blocked cells after the turn (before it when illegal), §2-2.
        warnings: findings that do not make the turn illegal, e.g. more tiles of a value than the
            set holds (§1-3).
        wild_values: every wild tile's possible values after the turn (one value when resolved).
    """

    placements: tuple[Placement, ...]
    legal: bool
    error: RuleViolation | None
    score: int
    sequences: tuple[ScoredSequence, ...]
    blocked: frozenset[Cell]
    warnings: tuple[str, ...] = ()
    wild_values: Mapping[Cell, frozenset[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.legal != (self.error is None):
            raise ValueError("a turn is legal exactly when it has no error")

    @property
    def primary(self) -> ScoredSequence | None:
        """The primary sequence, None for an illegal turn."""
        return self.sequences[0] if self.sequences else None


def _violation(rule: str, cells: Sequence[Cell], message: str) -> RuleViolation:
    return RuleViolation(rule, tuple(cells), message)


def _check_placements(state: BoardState, placements: Sequence[Placement]) -> RuleViolation | None:
    """Step 1: each placement on its own."""
    s = state.settings
    if not placements:
        return _violation(RULE_AT_LEAST_ONE_TILE, (), "a turn must install at least one tile")
    seen: set[Cell] = set()
    for p in placements:
        cell, tile, text = p.cell, p.tile, format_placement(p)
        if cell not in state.grid.index:
            return _violation(RULE_ON_BOARD, (cell,), f"{text}: {format_cell(cell)} is not on the board")
        if cell in seen:
            return _violation(RULE_ONE_TILE_PER_CELL, (cell,), f"{text}: a second tile on the same cell")
        seen.add(cell)
        if tile.is_marker:
            return _violation(RULE_MARKER, (cell,), f"{text}: the modulus marker is installed before play")
        if tile.value is not None and tile.value >= s.modulus:
            return _violation(
                RULE_VALUE_BELOW_MODULUS,
                (cell,),
                f"{text}: value {tile.value} is not below modulus {s.modulus}",
            )
        if tile.value == 0 and s.law.lowest > 0:
            return _violation(
                RULE_NO_ZERO, (cell,), f"{text}: multiplicative sets (§11) have no tiles bearing 0"
            )
        if tile.is_wild and s.wild_policy is None:
            return _violation(RULE_NO_WILDS, (cell,), f"{text}: this game has no wild tiles")
        if tile.is_wild and s.wild_policy == "D" and tile.value is None:
            return _violation(RULE_WILD_POLICY, (cell,), f"{text}: policy D needs a declared value (#=v)")
        old = state.position.get(cell)
        if old is not None:
            if not (s.hash_swap and old.is_wild and tile.is_natural):
                return _violation(
                    RULE_EMPTY_CELL, (cell,), f"{text}: {format_cell(cell)} already holds {old.notation()}"
                )
            domain = state.domains[cell]
            if tile.value not in domain:
                allowed = ", ".join(map(str, sorted(domain)))
                return _violation(
                    RULE_HASH_SWAP, (cell,), f"{text}: the wild tile there can only stand for {allowed}"
                )
    return None


@lru_cache(maxsize=32)
def _bonus_by_index(grid: Grid, pattern: str | None) -> tuple[int, ...]:
    """Per cell index: +1 bonus, -1 malus, 0 plain (§9)."""
    marks = bonus_cells(grid.board, pattern)
    return tuple(marks.get(c, 0) for c in grid.cells)


def _direction(grid: Grid, changed: Sequence[int]) -> int | None:
    """The line direction index shared by all the cells, None when they are not collinear."""
    first = changed[0]
    for k, ids in enumerate(grid.line_ids):
        if all(ids[i] == ids[first] for i in changed):
            return k
    return None


def _not_straight(grid: Grid, changed: Sequence[int]) -> str:
    """Why the tiles of a turn are not on one line, in the board's words."""
    board = grid.board
    if isinstance(board, RectBoard) and not board.diagonals:
        wider = grid_of(replace(board, diagonals=True))
        if _direction(wider, [wider.index[grid.cells[i]] for i in changed]) is not None:
            return "the tiles of a turn must lie on one row or column (diagonals are not lines here, §12)"
    return "the tiles of a turn must lie on one straight line"


@dataclass(frozen=True, slots=True)
class _Applied:
    """A turn that passed every check: the state after it, the changed cells, the primary direction."""

    after: BoardState
    changed: tuple[int, ...]
    direction: int
    added: frozenset[int]


def _is_first_turn(state: BoardState) -> bool:
    """No tile on the board but the modulus marker (§3-3, §8)."""
    position = state.position
    if len(position) != 1:
        return len(position) == 0
    centre = state.grid.centre
    return centre is not None and position.get(state.grid.cells[centre], _NO_TILE).is_marker


_NO_TILE = Tile.natural(0)


def _check_turn(state: BoardState, placements: Sequence[Placement]) -> RuleViolation | _Applied:
    """Steps 2 to 5 of the module docstring."""
    grid, s = state.grid, state.settings
    law = s.law
    cells = [p.cell for p in placements]
    changed = [grid.index[c] for c in cells]
    values = list(state.values)
    wild = list(state.wild)
    for p, i in zip(placements, changed, strict=True):
        values[i] = AMBIGUOUS if p.tile.value is None else p.tile.value
        wild[i] = p.tile.is_wild
    ordered = sorted(cells, key=cell_sort_key)
    direction = _direction(grid, changed)
    if direction is None:
        return _violation(RULE_STRAIGHT_LINE, ordered, _not_straight(grid, changed))
    if len(changed) > 1:
        run = grid.run(values, changed[0], direction)
        if not set(changed) <= set(run):
            return _violation(
                RULE_UNBROKEN_RUN, ordered, "the tiles must form one unbroken run with the tiles there"
            )
    else:
        direction = -1  # decided below: the longest line through the single tile
    centre = grid.centre
    added = [i for i in changed if state.values[i] == EMPTY]
    if _is_first_turn(state):
        if direction >= 0:
            covers = centre in grid.run(values, changed[0], direction)
        else:
            covers = centre == changed[0] or (
                centre is not None and values[centre] != EMPTY and centre in grid.neighbours[changed[0]]
            )
        if not covers:
            where = "A0" if centre is None else format_cell(grid.cells[centre])
            return _violation(RULE_FIRST_TURN_A0, ordered, f"the first turn's sequence must cover {where}")
    elif added and not any(state.values[j] != EMPTY for i in added for j in grid.neighbours[i]):
        return _violation(
            RULE_ABUT, ordered, "at least one added tile must touch a tile already on the board"
        )
    error = _check_lines(state, values, changed)
    if error is not None:
        return error
    masks: dict[int, int] = {}
    if AMBIGUOUS in values:
        solved = resolve_wilds(grid, values, law, known=state.ambiguous_masks())
        if solved is None:
            return _violation(
                law.rule, ordered, f"no values of the wild tiles make every line {law.adjective}"
            )
        masks = solved
    after = BoardState.assemble(s, grid, state.position.apply(placements), values, wild, masks, state.blocked)
    error = _check_wild_policy(after, placements, changed)
    if error is not None:
        return error
    if direction < 0:
        direction = _primary_direction(after, changed[0], centre if _is_first_turn(state) else None)
    # cells whose lines changed: around the new tiles, and around every wild tile that was or is
    # ambiguous (its possible values, or those of wild tiles tied to it, may have narrowed)
    touched = changed + list(state.ambiguous_masks())
    after = after.with_blocked(line_end_cells(grid, after.values, touched))
    return _Applied(after, tuple(changed), direction, frozenset(added))


def _check_lines(state: BoardState, values: list[int], changed: list[int]) -> RuleViolation | None:
    """Every line of known values through a changed cell obeys the law (§2-2, §10-12)."""
    grid, law = state.grid, state.settings.law
    shortest = 3 if law.local else 2  # two tiles always fit a local law
    for i in changed:
        for k in grid.directions:
            run = grid.run(values, i, k)
            if len(run) < shortest:
                continue
            if AMBIGUOUS in (values[j] for j in run) or line_obeys(grid, law, values, run, k):
                continue
            return _line_violation(grid, law, values, run, k)
    return None


def _line_violation(grid: Grid, law: Law, values: list[int], run: list[int], k: int) -> RuleViolation:
    """The rule a line of known values breaks, with its cells in reading order."""
    ordered = grid.reading_order(run, k, law.directed)
    seq = [values[j] for j in ordered]
    cells = [grid.cells[j] for j in ordered]
    text, adjective, m = tilde(seq), law.adjective, law.modulus
    if grid.is_loop(run, k):
        n = len(seq)
        turns = [r for r in range(n) if law.valid(seq[r:] + seq[:r])]
        if not turns:
            return _violation(RULE_LOOP, cells, f"{text} closes a loop of {n} tiles and is not {adjective}")
        r = turns[0]
        return _violation(
            RULE_LOOP,
            cells[r:] + cells[:r],
            f"{tilde(seq[r:] + seq[:r])} closes a loop of {n} tiles that is not {adjective} across the "
            f"seam (a loop's length must be a whole number of the sequence's periods)",
        )
    if law.directed and law.valid(seq[::-1]):
        rule = RULE_ADDITION_DIRECTION if law.kind == FIBONACCI else RULE_FACTOR_DIRECTION
        return _violation(
            rule, cells, f"{text}, read {grid.reading[k]}, is not {adjective}; it is only read the other way"
        )
    if grid.crosses_edge(run, k):
        return _violation(
            RULE_ACROSS_EDGE,
            cells,
            f"{text} continues across the edge and is not {adjective} under modulus {m}",
        )
    return _violation(law.rule, cells, f"{text} is not {adjective} under modulus {m}")


def _check_wild_policy(
    after: BoardState, placements: Sequence[Placement], changed: list[int]
) -> RuleViolation | None:
    """The §7-2 policy for every wild tile installed in this turn."""
    policy = after.settings.wild_policy
    grid = after.grid
    for p, i in zip(placements, changed, strict=True):
        if not p.tile.is_wild or policy in ("D", "E"):
            continue
        text = format_placement(p)
        runs = [grid.run(after.values, i, k) for k in grid.directions]
        if policy == "A":
            ok = any(
                not (after.wild[a] or after.wild[b])
                for run in runs
                for a, b in zip(run, run[1:], strict=False)
            )
            why = "must lie in a sequence with two adjacent natural tiles (§7-2 A)"
        elif policy == "B":
            ok = any(sum(not after.wild[j] for j in run) >= 2 for run in runs)
            why = "must lie in a sequence with two natural tiles (§7-2 B)"
        else:
            ok = after.values[i] >= 0
            domain = ", ".join(map(str, sorted(after.domains[p.cell])))
            why = f"must have a unique value (§7-2 C), but could be any of {domain}"
        if not ok:
            return _violation(RULE_WILD_POLICY, (p.cell,), f"{text}: a wild tile {why}")
    return None


def _primary_direction(after: BoardState, i: int, centre: int | None) -> int:
    """For a one-tile turn: the longest line through the tile (through A0 on a first turn)."""
    runs = [after.grid.run(after.values, i, k) for k in after.grid.directions]
    candidates = [k for k in after.grid.directions if centre is None or centre in runs[k]]
    return max(candidates, key=lambda k: (len(runs[k]), -k))


def _msa_text(after: BoardState, run: list[int]) -> str | None:
    """The MSA of a §2 run, None when its step is not settled (one tile, ambiguous wilds) or the law
    is §10 or §11."""
    m = after.settings.modulus
    vals = [after.values[j] for j in run]
    if len(run) < 2 or after.settings.sequence != LINEAR:
        return None
    if AMBIGUOUS not in vals:
        return str(msa_of(vals[0], vals[1] - vals[0], m))
    unknown = [(p, after.domains[after.grid.cells[j]]) for p, j in enumerate(run) if vals[p] < 0]
    line = LineConstraint(fixed=tuple((p, v) for p, v in enumerate(vals) if v >= 0), variables=tuple(unknown))
    found = {
        str(msa_of(a, d, m))
        for a, d in line.pairs(after.settings.law)
        if all((a + p * d) % m in domain for p, domain in unknown)
    }
    return found.pop() if len(found) == 1 else None


def _score(after: BoardState, applied: _Applied) -> tuple[ScoredSequence, ...]:
    """Every sequence through a changed cell, primary first, with its points (§2-3, §7-1, §9, §12)."""
    grid, settings = after.grid, after.settings
    changed, direction = applied.changed, applied.direction
    marks = _bonus_by_index(grid, settings.bonus)
    directed = settings.law.directed
    changed_set = set(changed)
    out = []
    seen: set[tuple[int, int]] = set()
    for k in [direction] + [k for k in grid.directions if k != direction]:
        for i in changed:
            run = grid.run(after.values, i, k)
            primary = k == direction
            if (k, run[0]) in seen or (len(run) < 2 and not primary):
                continue
            seen.add((k, run[0]))
            loop = grid.is_loop(run, k)
            length = sum(not after.wild[j] for j in run) + sum(marks[j] for j in run if j in changed_set)
            closed = loop and not applied.added.isdisjoint(run)
            run = grid.reading_order(run, k, directed)
            out.append(
                ScoredSequence(
                    cells=tuple(grid.cells[j] for j in run),
                    values=tuple(after.values[j] if after.values[j] >= 0 else None for j in run),
                    msa=_msa_text(after, run),
                    length=length,
                    points=points(length) + (settings.loop_bonus if closed else 0),
                    primary=primary,
                    wild=tuple(after.wild[j] for j in run),
                    loop=loop,
                )
            )
    return tuple(out)


def _count_warnings(after: BoardState, placements: Sequence[Placement]) -> tuple[str, ...]:
    """More natural tiles of a value on the board than the set holds (§1-3)."""
    limit = after.settings.tiles_per_value
    if limit is None:
        return ()
    placed = {p.tile.value for p in placements if p.tile.is_natural}
    counts: dict[int, int] = {}
    for tile in after.position.tiles():
        if tile.value is not None and tile.is_natural and not tile.is_marker and tile.value in placed:
            counts[tile.value] = counts.get(tile.value, 0) + 1
    return tuple(
        f"§1-3 set composition: {n} tiles of value {v} on the board, the set has {limit}"
        for v, n in sorted(counts.items())
        if n > limit
    )


def evaluate_turn(state: BoardState, placements: Sequence[Placement]) -> tuple[TurnResult, BoardState | None]:
    """Validate and score one turn on ``state`` (§2-2, §2-3, §3-2, §3-3, §7-12).

    Args:
        state: the position before the turn.
        placements: the tiles installed (and, under the hash swap, the naturals replacing wild
            tiles), in any order.

    Returns:
        The verdict, and the state after the turn (None when illegal). Never raises for an
        illegal turn: the broken rule and its cells are in ``result.error``.
    """
    placements = tuple(placements)
    checked = _check_placements(state, placements) or _check_turn(state, placements)
    if isinstance(checked, RuleViolation):
        return TurnResult(placements, False, checked, 0, (), state.blocked_cells(), (), state.domains), None
    after = checked.after
    sequences = _score(after, checked)
    result = TurnResult(
        placements,
        True,
        None,
        sum(seq.points for seq in sequences),
        sequences,
        after.blocked_cells(),
        _count_warnings(after, placements),
        after.domains,
    )
    return result, after
