"""The integer programme behind the rearranging hint, in the manner of den Hertog & Hulshof (2006),
solved with HiGHS (highspy).

Variables: how often each candidate group is chosen (sets of 3-4 colours, runs of 3-5 tiles
wrapping from 13 to 1, each with or without the Super Wild standing in one place; a longer run is
cut into runs of these lengths), and how many rack tiles of each shape are laid. Constraints: every
table tile is used (exactly once, or with ``share`` once or twice: crisscross play lets a tile sit
in a row group and a column group), the Super Wild in at most two groups (its row and its column),
a colour's 6 and 9 never both real tiles of one run. Objective: the most rack tiles laid; with
sharing, a second stage then keeps that many laid and seeks the fewest tile places (the fewest
tiles serving two groups), taking the best it finds within the time limit.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache

from engine.solver import new_highs
from engine.superwild.lines import RUN, SET, Value
from engine.superwild.tiles import COLOURS, TOP

#: Seconds the integer programme may take.
SOLVER_SECONDS = 0.5
#: Longest run the programme chooses (a longer run is cut into runs of 3 to 5).
LONGEST_RUN = 5

Shape = tuple[str, int]


@dataclass(frozen=True, slots=True)
class GroupPlan:
    """A group the programme may choose: its values in order and where the Super Wild stands.

    Raises:
        ValueError: fewer than three values, or a joker index outside them.
    """

    kind: str
    values: tuple[Value, ...]
    joker: int | None = None

    def __post_init__(self) -> None:
        if len(self.values) < 3 or (self.joker is not None and not 0 <= self.joker < len(self.values)):
            raise ValueError(f"a group plan needs three or more values and a joker among them: {self}")

    @property
    def uses(self) -> Counter[Shape]:
        """The tile shapes it takes (the joker's value excluded)."""
        return Counter(_shape(v) for i, v in enumerate(self.values) if i != self.joker)


def _shape(value: Value) -> Shape:
    return (value[0], 6 if value[1] == 9 else value[1])


@lru_cache(maxsize=1)
def candidate_groups() -> tuple[GroupPlan, ...]:
    """Every set (3-4 colours, the joker as one of them) and run (3-5 tiles, wrapping from 13 to 1,
    the joker anywhere); a run holding a colour's 6 and 9 needs the joker on one of them."""
    out = []
    for colour in COLOURS:
        for start in range(1, TOP + 1):
            for length in range(3, LONGEST_RUN + 1):
                values = tuple((colour, (start - 1 + k) % TOP + 1) for k in range(length))
                numbers = [n for _, n in values]
                both = 6 in numbers and 9 in numbers
                if not both:
                    out.append(GroupPlan(RUN, values))
                out.extend(
                    GroupPlan(RUN, values, j) for j in range(length) if not both or numbers[j] in (6, 9)
                )
    for number in range(1, TOP + 1):
        for mask in range(1, 16):
            colours = [c for i, c in enumerate(COLOURS) if mask >> i & 1]
            values = tuple((c, number) for c in colours)
            if len(colours) >= 3:
                out.append(GroupPlan(SET, values))
            if 2 <= len(colours) <= 3:
                free = next(c for c in COLOURS if c not in colours)
                out.append(GroupPlan(SET, (*values, (free, number)), len(colours)))
    return tuple(out)


def choose_groups(table: Counter[Shape], rack: Counter[Shape], share: bool) -> list[GroupPlan] | None:
    """The groups (with repeats) that use every table tile and most rack tiles, None if none do.

    Args:
        table: tile shapes on the table (the Super Wild left out).
        rack: tile shapes in the rack.
        share: let a tile serve two groups (crisscross) instead of exactly one.
    """
    avail = table + rack
    plans = [g for g in candidate_groups() if all(avail[s] for s in g.uses)]
    model = new_highs(SOLVER_SECONDS)
    picks = [model.addIntegral(0, 2) for _ in plans]
    laid = {s: model.addIntegral(0, k) for s, k in rack.items()}
    uses: dict[Shape, list[tuple[int, int]]] = defaultdict(list)
    for i, plan in enumerate(plans):
        for shape, k in plan.uses.items():
            uses[shape].append((i, k))
    for shape in avail:
        used = model.qsum(k * picks[i] for i, k in uses[shape]) if uses[shape] else None
        base = table[shape] + laid.get(shape, 0)
        if used is None:
            if table[shape]:
                return None
            continue
        if share:
            model.addConstr(used >= base)
            model.addConstr(used <= 2 * base)
        else:
            model.addConstr(used == base)
    jokers = [picks[i] for i, p in enumerate(plans) if p.joker is not None]
    if jokers:
        model.addConstr(model.qsum(jokers) <= 2)
    if laid:
        model.maximize(model.qsum(laid.values()))
    else:
        model.run()
    if model.getModelStatus() != type(model.getModelStatus()).kOptimal:
        return None
    values = model.vals(picks)
    if share:  # second stage: as many laid, the fewest tiles serving two groups (best found in time)
        best = round(sum(model.vals(list(laid.values())))) if laid else 0
        if laid:
            model.addConstr(model.qsum(laid.values()) >= best)
        model.setSolution(model.getSolution())
        model.minimize(model.qsum(len(p.values) * x for p, x in zip(plans, picks, strict=True)))
        if model.getSolution().value_valid:
            values = model.vals(picks)
    return [plan for plan, v in zip(plans, values, strict=True) for _ in range(round(v))]
