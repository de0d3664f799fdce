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
        Suggestions sorted by score (highest first), then by fewer tiles, then by notation.
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
    bounded: dict[frozenset[Placement], tuple[int, int, list[str], list[Placement]]] = {}
    for placements, bound in search.candidates():
        key = frozenset(placements)
        if key not in bounded:
            bounded[key] = (-bound, len(placements), [str(p) for p in placements], placements)
    best: list[tuple[tuple[int, int, list[str]], Suggestion]] = []
    for neg_bound, size, notation, placements in sorted(bounded.values(), key=lambda c: c[:3]):
        if len(best) >= top and (neg_bound, size, notation) > best[top - 1][0]:
            break  # a score never exceeds its bound: nothing later can enter the best
        result = game.evaluate(placements)
        if result.legal:
            best.append(((-result.score, size, notation), Suggestion(tuple(placements), result)))
            best.sort(key=lambda item: item[0])
    return [suggestion for _, suggestion in best[:top]]


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

    def candidates(self) -> Iterator[tuple[list[Placement], int]]:
        """Every candidate turn (placements in line order; repeats possible) with its score's bound."""
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

    def _stretches(self, start: int, k: int) -> Iterator[tuple[list[Placement], int]]:
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
                for placements in self._assign(tail, k, set(new)):
                    yield placements, self._bound(placements)
            i = fwd[i]
            if i == start:
                return

    def _shape_ok(self, new: list[int], run: list[int]) -> bool:
        """A first turn covers the centre (§3-3); a later one touches an old tile."""
        grid = self.grid
        if self.first:
            return grid.centre in run
        return any(self.values[j] != EMPTY for i in new for j in grid.neighbours[i])

    def _assign(self, run: list[int], k: int, new: set[int]) -> Iterator[list[Placement]]:
        """Values for the new cells of ``run`` (table order), each prefix obeying the law."""
        grid, law = self.grid, self.law
        reverse = law.directed and not grid.reads_forward[k]
        seq: list[int] = []
        chosen: list[Placement] = []
        counts = self.counts

        def prefix_ok() -> bool:
            if law.local:
                return len(seq) < 3 or bool(_following(law, seq[-3], seq[-2], reverse) >> seq[-1] & 1)
            return law.valid(seq[::-1] if reverse else seq)

        def walk(p: int) -> Iterator[list[Placement]]:
            if p == len(run):
                yield list(chosen)
                return
            i = run[p]
            if i not in new:
                seq.append(self.values[i])
                if prefix_ok():
                    yield from walk(p + 1)
                seq.pop()
                return
            mask = self.allowed.get(i, law.full_mask)
            if law.local and len(seq) >= 2:
                mask &= _following(law, seq[-2], seq[-1], reverse)
            cell = grid.cells[i]
            for v in range(law.lowest, law.modulus):
                if not mask >> v & 1:
                    continue
                for wild in (False, True):
                    key = WILD if wild else v
                    if counts[key] <= 0:
                        continue
                    seq.append(v)
                    if prefix_ok():
                        counts[key] -= 1
                        tile = Tile.wild(v if self.declare else None) if wild else Tile.natural(v)
                        chosen.append(Placement(cell, tile))
                        yield from walk(p + 1)
                        chosen.pop()
                        counts[key] += 1
                    seq.pop()

        yield from walk(0)

    def _bound(self, placements: list[Placement]) -> int:
        """At least the score of the turn: every run through a new tile, wild tiles counted,
        bonus cells but no malus, a loop's bonus (engine.rules scores the same runs)."""
        grid = self.grid
        scratch = list(self.values)
        new = [grid.index[p.cell] for p in placements]
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
