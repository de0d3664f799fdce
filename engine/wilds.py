"""The constraint solver behind wild tiles (§7-1, §7-2, §7-3, §7-4).

Every unbroken straight line of tiles must be a sequence of the game's law (§2-2 modular-linear,
§10, §11; engine.laws): there is a parameter pair (a, d) with the value at position p equal to
``law.term(a, d, p)`` (for §2, a + p*d mod m); positions count along the law's reading order, and
a loop (§12) must close. A wild tile whose value is not fixed is a
variable; each line through variables is a constraint allowing exactly the (a, d) pairs that agree
with the line's fixed values. The solver finds, for every variable, the values it takes in at least
one assignment satisfying every line at once (generalised arc consistency, then a search per value
left). A variable with one such value is resolved; several values leave the wild ambiguous (§7-2 E,
figures 7B to 7E); no assignment at all means the position breaks the modular-linear rule.

Domains are bit masks: bit v set when value v is possible.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from operator import and_, or_

from engine.grid import AMBIGUOUS, Grid
from engine.laws import Law


@dataclass(frozen=True, slots=True)
class LineConstraint:
    """One unbroken line of tiles seen by the solver.

    Attributes:
        fixed: (position along the line, value) for tiles whose value is known.
        variables: (position along the line, variable) for wild tiles whose value is not.
        loop: the line's length when it closes into a loop (§12), else 0.

    Raises:
        ValueError: a position used twice or negative.
    """

    fixed: tuple[tuple[int, int], ...]
    variables: tuple[tuple[int, Hashable], ...]
    loop: int = 0

    def __post_init__(self) -> None:
        positions = [p for p, _ in self.fixed] + [p for p, _ in self.variables]
        if len(set(positions)) != len(positions) or any(p < 0 for p in positions):
            raise ValueError(f"line positions must be distinct and >= 0: {self!r}")

    def pairs(self, law: Law) -> list[tuple[int, int]]:
        """Every parameter pair (a, d) of ``law`` agreeing with the fixed values (and the loop)."""
        return law.pairs(self.fixed, self.loop)


class _Problem:
    """Lines as tables of allowed rows, and the lines each variable lies on.

    A line's row is, for one allowed (a, d) pair, the bit of the value each of its variables
    would take; a row survives while every bit is still in its variable's domain.
    """

    def __init__(self, lines: Sequence[LineConstraint], law: Law) -> None:
        self.lines: list[tuple[tuple[Hashable, ...], list[tuple[int, ...]]]] = []
        for line in lines:
            if not line.variables:
                continue
            names = tuple(var for _, var in line.variables)
            rows = {tuple(1 << law.term(a, d, p) for p, _ in line.variables) for a, d in line.pairs(law)}
            self.lines.append((names, sorted(rows)))
        self.lines_of: dict[Hashable, list[int]] = {}
        for k, (names, _) in enumerate(self.lines):
            for var in names:
                self.lines_of.setdefault(var, []).append(k)

    def propagate(self, domains: dict[Hashable, int]) -> bool:
        """Shrink ``domains`` in place to arc consistency; False when a line has no row left."""
        pending = set(range(len(self.lines)))
        while pending:
            k = pending.pop()
            names, rows = self.lines[k]
            doms = [domains[var] for var in names]
            alive = [row for row in rows if all(map(and_, row, doms))]
            if not alive:
                return False
            for var, dom, column in zip(names, doms, zip(*alive, strict=True), strict=True):
                new = dom & reduce(or_, column)
                if new != dom:
                    domains[var] = new
                    pending.update(self.lines_of[var])
        return True

    def find(self, domains: dict[Hashable, int]) -> dict[Hashable, int] | None:
        """One full assignment (every domain a single bit) extending ``domains``, or None."""
        domains = dict(domains)
        if not self.propagate(domains):
            return None
        open_vars = [v for v, mask in domains.items() if mask & (mask - 1)]
        if not open_vars:
            return domains
        var = min(open_vars, key=lambda v: domains[v].bit_count())
        mask = domains[var]
        while mask:
            bit = mask & -mask
            mask ^= bit
            trial = dict(domains)
            trial[var] = bit
            found = self.find(trial)
            if found is not None:
                return found
        return None


def _components(lines: Sequence[LineConstraint]) -> list[list[LineConstraint]]:
    """The lines grouped into independent parts: lines sharing a variable go together."""
    parent: dict[Hashable, Hashable] = {}

    def root(v: Hashable) -> Hashable:
        while parent.setdefault(v, v) != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for line in lines:
        names = [var for _, var in line.variables]
        for other in names[1:]:
            parent[root(other)] = root(names[0])
    groups: dict[Hashable, list[LineConstraint]] = {}
    for line in lines:
        if line.variables:
            groups.setdefault(root(line.variables[0][1]), []).append(line)
    return list(groups.values())


def _supports(
    problem: _Problem, domains: dict[Hashable, int], targets: set[Hashable], one: bool
) -> dict[Hashable, int] | None:
    """Supported values of the target variables of one connected problem, None if unsatisfiable.

    With ``one``, a single supported value per target (from one solution) is enough.
    """
    work = dict(domains)
    first = problem.find(work)
    if first is None:
        return None
    support = dict(first)
    if one:
        return {var: support[var] for var in targets}
    problem.propagate(work)
    for var in targets:
        untried = work[var] & ~support[var]
        while untried:
            bit = untried & -untried
            untried ^= bit
            trial = dict(work)
            trial[var] = bit
            found = problem.find(trial)
            if found is None:
                work[var] &= ~bit
                continue
            for v, b in found.items():
                support[v] |= b
            untried &= ~support[var]
    return {var: support[var] for var in targets}


def solve(
    lines: Sequence[LineConstraint],
    domains: Mapping[Hashable, int],
    law: Law,
    targets: set[Hashable] | None = None,
    one: bool = False,
) -> dict[Hashable, int] | None:
    """The values each variable takes in some assignment satisfying every line (§7-2, §7-3).

    The lines fall into independent parts (lines sharing a variable belong together); each part is
    solved on its own.

    Args:
        lines: the unbroken lines through the variables (lines without variables are ignored:
            check those with ``law.valid``).
        domains: variable -> bit mask of the values allowed before the lines are considered.
        law: the sequence law and modulus.
        targets: the variables whose supported values are wanted (default: every variable).
            Parts without a target are not examined: give targets only when the rest is known
            to be satisfiable.
        one: stop at one solution: each target's mask then holds a single supported value
            (enough to tell whether any value works).

    Returns:
        variable -> bit mask: for each target, its supported values (each is part of a full
        solution); other variables keep their given domain. None when an examined part has no
        assignment satisfying every line.

    Raises:
        ValueError: a line names a variable without a domain.
    """
    result = dict(domains)
    for part in _components(lines):
        problem = _Problem(part, law)
        names = set(problem.lines_of)
        missing = names - set(domains)
        if missing:
            raise ValueError(f"variables without a domain: {sorted(map(repr, missing))}")
        wanted = names if targets is None else names & targets
        if not wanted:
            continue
        found = _supports(problem, {v: domains[v] for v in names}, wanted, one)
        if found is None:
            return None
        result.update(found)
    return result


def mask_values(mask: int) -> frozenset[int]:
    """The values whose bits are set in ``mask``."""
    out = []
    v = 0
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return frozenset(out)


def wild_lines(grid: Grid, values: Sequence[int], variables: list[int], law: Law) -> list[LineConstraint]:
    """The lines through the given variable cells, each once, as solver constraints (positions in
    the law's reading order)."""
    seen: set[tuple[int, int]] = set()
    lines = []
    for i in variables:
        for k in grid.directions:
            run = grid.run(values, i, k)
            if len(run) < 2 or (k, run[0]) in seen:
                continue
            seen.add((k, run[0]))
            loop = len(run) if grid.is_loop(run, k) else 0
            run = grid.reading_order(run, k, law.directed)
            lines.append(
                LineConstraint(
                    fixed=tuple((p, values[j]) for p, j in enumerate(run) if values[j] >= 0),
                    variables=tuple((p, j) for p, j in enumerate(run) if values[j] < 0),
                    loop=loop,
                )
            )
    return lines


def resolve_wilds(
    grid: Grid,
    values: Sequence[int],
    law: Law,
    extra: Mapping[int, int] | None = None,
    known: Mapping[int, int] | None = None,
    one: bool = False,
) -> dict[int, int] | None:
    """Solve for every ambiguous wild tile (and the ``extra`` variable cells) at once.

    Args:
        grid: index tables.
        values: per cell index, with AMBIGUOUS (-2) at every variable cell, including ``extra``.
        law: the sequence law and modulus.
        extra: cell index -> starting domain mask for further variables (e.g. an empty cell whose
            legal values are wanted); ambiguous wilds start with every value. With ``extra`` only
            the extra cells are solved for, taking the rest of the position as consistent.
        known: cell index -> a mask known to hold every possible value of that ambiguous wild
            (e.g. from before the turn: lines only grow, so possible values only shrink).
        one: see :func:`solve`.

    Returns:
        cell index -> supported values mask for every variable (every extra variable when
        ``extra`` is given), or None when unsatisfiable.
    """
    variables = [i for i, v in enumerate(values) if v == AMBIGUOUS]
    if not variables:
        return {}
    full = law.full_mask
    known = known or {}
    domains: dict[Hashable, int] = {i: known.get(i, full) for i in variables}
    for i, mask in (extra or {}).items():
        domains[i] = mask
    targets: set[Hashable] | None = set(extra) if extra else None
    result = solve(wild_lines(grid, values, variables, law), domains, law, targets, one)
    return None if result is None else {k: v for k, v in result.items() if isinstance(k, int)}
