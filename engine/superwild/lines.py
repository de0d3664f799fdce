"""One line of tiles split into adjoined groups ("Playing", "Adjoined Groups", "Super Wild",
"Sixes and Nines Are Identical").

A line (a maximal unbroken row or column of two or more tiles) is legal when it splits into
groups of three or more tiles that follow each other, neighbouring groups sharing exactly one tile
(or the Super Wild). A group is

- a set: one number in different colours, at most 4 tiles, the Super Wild counted;
- a run: one colour, consecutive numbers forward or reverse, wrapping from 13 to 1 (the seed's
  diagonal example "2 W 13 (W = 1)"), at most 13 tiles.

In each line the Super Wild stands for one tile (colour and number), the same one in both groups
where it is the shared tile, and may stand for another tile in each other line ("It can be a
different value at the same time in each direction"); it may stand for a tile that lies elsewhere,
even in its own line (so ``K7 B7 O7 R7 W`` is two sets sharing O7, the Wild a second K7). A 6/9 tile
is a 6 or a 9, the same in both of its groups. A colour's two 6/9 tiles are never in one group.
Two groups of one line never overlap by more than one tile.

:func:`split_line` is a dynamic programme over the line's positions: ``reach[i]`` holds the values
the tile at ``i`` can take as the last tile of a legal chain of groups covering ``0..i``; each group
``i..j`` is tried as a set or as a run with the choices of its 6/9 tiles and the Super Wild. The
result for a line's tiles is cached (a line of n tiles costs O(n^2) group checks).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.superwild.tiles import COLOURS, TOP, Tile, format_tile

Value = tuple[str, int]

SET, RUN = "set", "run"
#: Most tiles in a set (four colours, the Super Wild counted).
MAX_SET = 4
#: Most tiles in a run (each number once).
MAX_RUN = TOP

RULE_GROUP_SIZE = "Playing: groups of three or more"
RULE_ADJOINED = "Adjoined Groups: a line splits into sets and runs"
RULE_SIX_NINE = "Sixes and Nines: a colour's 6 and 9 never in one group"


@dataclass(frozen=True, slots=True)
class GroupFit:
    """One group of a legal line.

    Attributes:
        kind: "set" or "run".
        start: index of its first tile in the line.
        end: index of its last tile (inclusive; end - start >= 2).
        values: the (colour, number) each of its tiles stands for, the Super Wild's included.
    """

    kind: str
    start: int
    end: int
    values: tuple[Value, ...]

    def __post_init__(self) -> None:
        if self.kind not in (SET, RUN) or self.end - self.start < 2:
            raise ValueError(
                f"a group is a set or run of three or more, got {self.kind} {self.start}..{self.end}"
            )
        if len(self.values) != self.end - self.start + 1:
            raise ValueError(f"a group of {self.end - self.start + 1} tiles needs as many values")


def _step(number: int, delta: int) -> int:
    """``number + delta`` wrapping within 1..13."""
    return (number - 1 + delta) % TOP + 1


def _runs(seg: tuple[Tile, ...], six_nine_rule: bool) -> list[tuple[Value, ...]]:
    """Every reading of ``seg`` as a run: the values of its tiles."""
    if len(seg) > MAX_RUN:
        return []
    first = next(i for i, t in enumerate(seg) if not t.is_wild)
    colour = seg[first].colour
    if any(not t.is_wild and t.colour != colour for t in seg):
        return []
    if six_nine_rule and sum(1 for t in seg if t.is_six_nine) > 1:
        return []
    out = []
    for _, number in seg[first].values():
        for direction in (1, -1):
            numbers = [_step(number, direction * (i - first)) for i in range(len(seg))]
            if all(t.is_wild or (colour, n) in t.values() for t, n in zip(seg, numbers, strict=True)):
                out.append(tuple((colour, n) for n in numbers))
    return out


def _sets(seg: tuple[Tile, ...], wild_at_end: bool) -> list[tuple[Value, ...]]:
    """Every reading of ``seg`` as a set; the Super Wild's colour varies only where it is at an end
    (elsewhere one free colour stands for all)."""
    if len(seg) > MAX_SET:
        return []
    colours = [t.colour for t in seg if not t.is_wild]
    if len(set(colours)) != len(colours):
        return []
    numbers: set[int] | None = None
    for t in seg:
        if not t.is_wild:
            mine = {n for _, n in t.values()}
            numbers = mine if numbers is None else numbers & mine
    free = [c for c in COLOURS if c not in colours]
    wild_colours = free if wild_at_end else free[:1]
    out = []
    written = next(t.number for t in seg if not t.is_wild)
    for number in sorted(numbers or (), key=lambda n: (n != written, n)):
        for wc in wild_colours if len(colours) < len(seg) else [""]:
            out.append(tuple((wc, number) if t.is_wild else (t.colour, number) for t in seg))
    return out


def _readings(seg: tuple[Tile, ...], six_nine_rule: bool) -> list[tuple[str, tuple[Value, ...]]]:
    """The segment's readings as groups: (kind, values)."""
    if all(t.is_wild for t in seg):
        return []
    wild_at_end = seg[0].is_wild or seg[-1].is_wild
    return [(RUN, v) for v in _runs(seg, six_nine_rule)] + [(SET, v) for v in _sets(seg, wild_at_end)]


@lru_cache(maxsize=1 << 16)
def split_line(tiles: tuple[Tile, ...], six_nine_rule: bool = True) -> tuple[GroupFit, ...] | None:
    """The groups of a legal line, None when the line is illegal.

    Args:
        tiles: the line's tiles in order (two or more; the Super Wild at most once).
        six_nine_rule: keep a colour's two 6/9 tiles out of one group (False only to tell why a
            line fails).

    Returns:
        The groups from the line's start to its end, each sharing its first tile with the previous
        group's last; None when no split exists (a line of two tiles never splits).
    """
    n = len(tiles)
    # reach[j]: value of tile j (as the last tile of a group) -> (start of that group, its reading)
    reach: list[dict[Value, tuple[int, str, tuple[Value, ...]]]] = [{} for _ in range(n)]
    for j in range(2, n):
        for i in range(j - 1):
            if i > 0 and not reach[i]:
                continue
            for kind, values in _readings(tiles[i : j + 1], six_nine_rule):
                if (i == 0 or values[0] in reach[i]) and values[-1] not in reach[j]:
                    reach[j][values[-1]] = (i, kind, values)
    if not reach[n - 1]:
        return None
    groups: list[GroupFit] = []
    j, value = n - 1, next(iter(reach[n - 1]))
    while True:
        i, kind, values = reach[j][value]
        groups.append(GroupFit(kind, i, j, values))
        if i == 0:
            break
        j, value = i, values[0]
    return tuple(reversed(groups))


def line_problem(tiles: tuple[Tile, ...]) -> tuple[str, str] | None:
    """Why a line is illegal, as (rule, message); None when it is legal.

    A line of two tiles breaks "groups of three or more"; a line that would split if a colour's
    two 6/9 tiles could share a group breaks "Sixes and Nines"; any other breaks "Adjoined Groups".
    """
    if split_line(tiles) is not None:
        return None
    text = " ".join(format_tile(t) for t in tiles)
    if len(tiles) < 3:
        return RULE_GROUP_SIZE, f"the line {text} has {len(tiles)} tiles, a group needs three or more"
    if split_line(tiles, six_nine_rule=False) is not None:
        return RULE_SIX_NINE, f"the line {text} needs a colour's 6 and 9 in one group"
    return RULE_ADJOINED, f"the line {text} does not split into sets and runs sharing one tile"
