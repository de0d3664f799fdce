"""The best-scoring legal turns for the player to move (MODLINSEQ §2-3, §3-2, §3-3, §7, §10-12).

A turn installs tiles on one straight line, in one unbroken run with the tiles already there
(§3-2). The search walks every line direction from every empty cell that can start such a run near
the tiles, takes each stretch of up to ``max_tiles`` empty cells as the turn's cells, and gives
them values by depth-first search:

- a cell's candidates are its legal values before the turn (engine.legal): the run through a cell
  after the turn holds the run it would have alone, and a sub-run of a sequence is a sequence, so
  no legal turn is lost;
- the stretch's run, read so far, must already obey the game's law (engine.laws);
- values come from the rack (a wild tile may stand for any value).

Each complete candidate gets an upper bound of its score (every tile counted as natural, bonus
cells but no malus, a loop's bonus); the candidates are judged by the rules (engine.rules, through
``Game.evaluate``) in order of that bound until no later one can enter the best ``top``, so every
hint is legal and scored exactly as the turn would be. Without a rack the values are those
the set still has (tiles per value, less those on the board; any value when the set is unlimited)
and turns hold at most :data:`DEFAULT_MAX_TILES` tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from engine.bonus import bonus_cells
from engine.game import Game
from engine.grid import EMPTY, Grid
from engine.laws import Law
from engine.rules import TurnResult
from engine.sequences import points
from engine.tiles import Placement, Tile

#: Most tiles of a hinted turn when no rack is given.
DEFAULT_MAX_TILES = 7
#: The key of wild tiles in a rack.
WILD = -1


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A legal turn and the rules' verdict on it.

    Attributes:
        placements: the tiles, in line order.
        result: the verdict (legal, with its score and sequences).
    """

    placements: tuple[Placement, ...]
    result: TurnResult


def set_remaining(game: Game) -> Counter[int]:
    """The natural tiles the set still has per value (§1-3): tiles per value less those on the
    board; a large count for every value when the set is unlimited."""
    law = game.settings.law
    per_value = game.settings.tiles_per_value
    if per_value is None:
        return Counter(dict.fromkeys(range(law.lowest, law.modulus), DEFAULT_MAX_TILES))
    on_board = Counter(t.value for t in game.position.tiles() if t.is_natural and not t.is_marker)
    return Counter({v: max(0, per_value - on_board[v]) for v in range(law.lowest, law.modulus)})


def best_turns(
    game: Game, rack: Counter[int] | None, top: int, max_tiles: int | None = None
) -> list[Suggestion]:
    """The ``top`` best-scoring legal turns for the player to move, best first.

    Args:
        game: the game (not changed).
        rack: value -> count of the player's tiles (:data:`WILD` for wild tiles); None for the
            tiles the set still has.
        top: how many turns at most.
        max_tiles: the most tiles a turn installs (default: the rack's size, or
            :data:`DEFAULT_MAX_TILES` without a rack).

    Returns:
        Suggestions sorted by score (highest first), then by fewer tiles, then by cells and values.
    """
    if game.is_over or top < 1:
        return []
    counts = set_remaining(game) if rack is None else Counter(rack)
    most = (
        max_tiles
        if max_tiles is not None
        else (sum(counts.values()) if rack is not None else DEFAULT_MAX_TILES)
    )
    if most < 1:
        return []
    search = _Search(game, counts, most)
    bounded: dict[tuple[Move, ...], tuple[int, list[Move]]] = {}
    for moves, bound in search.candidates():
        key = tuple(sorted(moves))
        if bounded.get(key, (-1, moves))[0] < bound:
            bounded[key] = (bound, moves)
    best: list[tuple[tuple[int, int, tuple[Move, ...]], Suggestion]] = []
    for key, (bound, moves) in sorted(bounded.items(), key=lambda kv: (-kv[1][0], len(kv[0]), kv[0])):
        if len(best) >= top and (-bound, len(key), key) > best[top - 1][0]:
            break  # a score never exceeds its bound: nothing later can enter the best
        placements = search.placements(moves)
        result = game.evaluate(placements)
        if result.legal:
            best.append(((-result.score, len(key), key), Suggestion(tuple(placements), result)))
            best.sort(key=lambda item: item[0])
    return [suggestion for _, suggestion in best[:top]]


#: One new tile of a candidate: (cell index, value, wild).
Move = tuple[int, int, bool]


class _Search:
    """The candidate turns of one position (see the module docstring)."""

    def __init__(self, game: Game, counts: Counter[int], most: int) -> None:
        state = game.state
        self.game = game
        self.grid: Grid = state.grid
        self.values = state.values
        self.law = game.settings.law
        self.declare = game.settings.wild_policy == "D"
        self.counts = counts
        self.most = most
        legal = state.legal_values()
        index = self.grid.index
        self.allowed = {index[c]: sum(1 << v for v in vals) for c, vals in legal.items()}
        self.first = all(t.is_marker for t in game.position.tiles())
        marks = bonus_cells(self.grid.board, game.settings.bonus) if game.settings.bonus else {}
        self.bonus = frozenset(index[c] for c, sign in marks.items() if sign > 0)
        self.loop_bonus = game.settings.loop_bonus
        self.wraps = any(self.grid.seams)
        self._cross: dict[tuple[int, int], int] = {}

    def placements(self, moves: list[Move]) -> list[Placement]:
        """The moves as placements, in line order."""
        cells = self.grid.cells
        out = []
        for i, v, wild in moves:
            tile = Tile.wild(v if self.declare else None) if wild else Tile.natural(v)
            out.append(Placement(cells[i], tile))
        return out

    def candidates(self) -> Iterator[tuple[list[Move], int]]:
        """Every candidate turn (repeats possible) with its score's bound."""
        grid = self.grid
        values = self.values
        if self.first:
            centre = grid.centre
            if centre is None:
                return
            seeds = {centre} if values[centre] == EMPTY else set(grid.neighbours[centre])
        else:
            seeds = {
                i
                for i, mask in self.allowed.items()
                if mask and any(values[j] != EMPTY for j in grid.neighbours[i])
            }
        for k in grid.directions:
            for start in self._starts(seeds, k):
                yield from self._stretches(start, k)

    def _starts(self, seeds: set[int], k: int) -> set[int]:
        """Empty cells from which a stretch along ``k`` can reach a seed within ``most`` new tiles."""
        back = self.grid.backward[k]
        out = set()
        for seed in seeds:
            if self.values[seed] != EMPTY:
                continue
            i, empties = seed, 0
            while i >= 0 and empties < self.most:
                if self.values[i] == EMPTY:
                    if not self.allowed.get(i, 1):
                        break
                    out.add(i)
                    empties += 1
                i = back[i]
                if i == seed:
                    break
        return out

    def _stretches(self, start: int, k: int) -> Iterator[tuple[list[Move], int]]:
        """The turns whose first new cell along ``k`` is ``start``."""
        grid, values = self.grid, self.values
        fwd, back = grid.forward[k], grid.backward[k]
        before = []
        j = back[start]
        while j >= 0 and values[j] != EMPTY and j != start:
            before.append(j)
            j = back[j]
        cells = before[::-1]
        new: list[int] = []
        i = start
        while i >= 0 and len(new) < self.most:
            if values[i] == EMPTY:
                if not self.allowed.get(i, 1):
                    return
                new.append(i)
            cells.append(i)
            tail = cells[:]
            j = fwd[i]
            while j >= 0 and values[j] != EMPTY and j not in tail:
                tail.append(j)
                j = fwd[j]
            if values[i] == EMPTY and self._shape_ok(new, tail):
                found: list[list[Move]] = []
                self._assign(tail, k, set(new), found)
                for moves in found:
                    yield moves, self._bound(moves, k, len(tail))
            i = fwd[i]
            if i == start:
                return

    def _shape_ok(self, new: list[int], run: list[int]) -> bool:
        """A first turn covers the centre (§3-3); a later one touches an old tile."""
        grid = self.grid
        if self.first:
            return grid.centre in run
        return any(self.values[j] != EMPTY for i in new for j in grid.neighbours[i])

    def _assign(self, run: list[int], k: int, new: set[int], found: list[list[Move]]) -> None:
        """Values for the new cells of ``run`` (table order), each prefix obeying the law, added to
        ``found``."""
        grid, law = self.grid, self.law
        reverse = law.directed and not grid.reads_forward[k]
        seq: list[int] = []
        chosen: list[Move] = []
        counts = self.counts
        values = self.values
        allowed = self.allowed
        full = law.full_mask
        local = law.local
        lowest, modulus = law.lowest, law.modulus
        wild_left = counts[WILD] > 0

        def prefix_ok() -> bool:
            if local:
                return len(seq) < 3 or bool(_following(law, seq[-3], seq[-2], reverse) >> seq[-1] & 1)
            return law.valid(seq[::-1] if reverse else seq)

        def walk(p: int) -> None:
            if p == len(run):
                found.append(list(chosen))
                return
            i = run[p]
            if i not in new:
                seq.append(values[i])
                if prefix_ok():
                    walk(p + 1)
                seq.pop()
                return
            mask = allowed.get(i, full)
            if local and len(seq) >= 2:
                mask &= _following(law, seq[-2], seq[-1], reverse)
            for v in range(lowest, modulus):
                if not mask >> v & 1:
                    continue
                for wild in (False, True) if wild_left else (False,):
                    key = WILD if wild else v
                    if counts[key] <= 0:
                        continue
                    seq.append(v)
                    if prefix_ok():
                        counts[key] -= 1
                        chosen.append((i, v, wild))
                        walk(p + 1)
                        chosen.pop()
                        counts[key] += 1
                    seq.pop()

        walk(0)

    def _bound(self, moves: list[Move], k: int, run_length: int) -> int:
        """At least the score of the turn: every run through a new tile, wild tiles counted,
        bonus cells but no malus, a loop's bonus (engine.rules scores the same runs)."""
        grid = self.grid
        new = [i for i, _, _ in moves]
        if self.wraps and any(
            len({grid.line_ids[d][i] for i in new}) < len(new) for d in grid.directions if d != k
        ):
            return self._wrapped_bound(moves)  # two new tiles share a line besides the primary (§12)
        extra = self.loop_bonus * len(grid.directions)
        if len(new) == 1:  # a one-tile turn: its primary is any of its lines
            return extra + sum(self._cross_points(new[0], d) for d in grid.directions)
        total = extra + points(run_length + sum(1 for i in new if i in self.bonus))
        for d in grid.directions:
            if d != k:
                total += sum(self._cross_points(i, d) for i in new)
        return total

    def _cross_points(self, i: int, d: int) -> int:
        """Points of the line along ``d`` through empty cell i alone filled (bonus counted; on a
        line that i would close into a loop its tiles are counted from both sides: still a bound)."""
        key = (i, d)
        found = self._cross.get(key)
        if found is None:
            length = 1 + (i in self.bonus)
            for table in (self.grid.forward[d], self.grid.backward[d]):
                j = table[i]
                while j >= 0 and self.values[j] != EMPTY:
                    length += 1
                    j = table[j]
            found = self._cross[key] = points(length)
        return found

    def _wrapped_bound(self, moves: list[Move]) -> int:
        """The bound on a wrapping board, where two cells can share more than one line (§12)."""
        grid = self.grid
        scratch = list(self.values)
        new = [i for i, _, _ in moves]
        for i in new:
            scratch[i] = 0
        total = 0
        seen = set()
        for k in grid.directions:
            for i in new:
                run = grid.run(scratch, i, k)
                if (k, run[0]) in seen:
                    continue
                seen.add((k, run[0]))
                total += points(len(run) + sum(1 for j in new if j in self.bonus and j in run))
                if self.loop_bonus and grid.is_loop(run, k):
                    total += self.loop_bonus
        return total


@lru_cache(maxsize=65536)
def _following(law: Law, a: int, b: int, reverse: bool) -> int:
    """Mask of the values c that may follow a, b (table order) on a line of a law decided by three
    consecutive tiles; ``reverse`` when the law reads the line the other way."""
    mask = 0
    for c in range(law.lowest, law.modulus):
        if law.valid((c, b, a) if reverse else (a, b, c)):
            mask |= 1 << c
    return mask
