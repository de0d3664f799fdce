"""Hints: which rack tiles can be laid, rearranging the table as needed.

Two kinds of suggestion, each checked with the engine's own rules before it is returned (one that
fails the check is dropped, never shown):

- Lay-only turns (no table tile moves): greedy chains of :func:`engine.superwild.legal.lay_options`,
  searched for :data:`SEARCH_SECONDS` at most.
- A rearranged table from the integer programme of :mod:`engine.superwild.programme` (HiGHS): the
  chosen groups are laid out as trees of perpendicular groups crossing at their shared tiles, the
  Super Wild's groups through its position and every other tree in a band of its own below. When
  that layout fails (a cycle of shared tiles, groups that collide or touch), the programme is
  solved again with every tile in exactly one group, whose layout (separate rows) always holds.
  A chosen group that is already a whole line of the table, crossing no other, stays where it lies
  when the layout around it holds (else everything is laid out afresh).

Guaranteed: every hint is a legal turn on the given table with the given rack. Not guaranteed:
that no turn lays more tiles (the programme sees neither adjoined groups in one line nor a tile in
more than two groups), or that the rearranged turn moves few tiles (only whole lines that the
programme happens to choose as they lie stay put).
"""

from __future__ import annotations

import time
from collections import Counter, deque

from engine.games import Hint
from engine.superwild.game import Turn
from engine.superwild.legal import lay_options
from engine.superwild.programme import GroupPlan, choose_groups
from engine.superwild.table import Table
from engine.superwild.tiles import MAX_COORD, Move, Pos, Tile
from engine.superwild.transcript import format_turn

#: Seconds the lay-only search may take.
SEARCH_SECONDS = 0.3
#: First lays the lay-only search grows into whole turns.
FIRST_LAYS = 12

Tag = tuple[str, object]  # a physical tile: ("table", Pos), ("rack", index) or ("wild", None)
WILD_TAG: Tag = ("wild", None)


class _Forest:
    """Union-find over group indices and the Super Wild."""

    def __init__(self) -> None:
        self.parent: dict[object, object] = {}

    def root(self, a: object) -> object:
        while self.parent.get(a, a) != a:
            a = self.parent[a]
        return a

    def join(self, a: object, b: object) -> bool:
        ra, rb = self.root(a), self.root(b)
        if ra == rb:
            return False
        self.parent[ra] = rb
        return True


def assign_tiles(plans: list[GroupPlan], table: Table, rack: list[Tile]) -> list[list[Tag]] | None:
    """Which physical tile fills each place of each group, a tile serving two groups only where
    that keeps the groups a forest (no cycle of shared tiles); None when no such assignment exists."""
    supply: dict[tuple[str, int], list[Tag]] = {}
    for pos, tile in sorted(table.tiles.items(), key=lambda pt: (pt[0].y, pt[0].x)):
        if not tile.is_wild:
            supply.setdefault(tile.shape, []).append(("table", pos))
    for i, tile in enumerate(rack):
        supply.setdefault(tile.shape, []).append(("rack", i))
    places: list[list[Tag]] = [[WILD_TAG] * len(p.values) for p in plans]
    forest, wild_groups = _Forest(), 0
    occurrences: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for g, plan in enumerate(plans):
        for i, (colour, number) in enumerate(plan.values):
            if i == plan.joker:
                wild_groups += 1
                if not forest.join(g, WILD_TAG) or wild_groups > 2:
                    return None
            else:
                occurrences.setdefault((colour, 6 if number == 9 else number), []).append((g, i))
    for shape, occ in occurrences.items():
        tiles = supply.get(shape, [])
        table_count = sum(1 for t in tiles if t[0] == "table")
        used = tiles[: max(table_count, min(len(tiles), len(occ)))]
        if len(used) > len(occ):
            return None
        holders: dict[Tag, int] = {}
        for (g, i), tag in zip(occ, used, strict=False):
            places[g][i] = tag
            holders[tag] = g
        for g, i in occ[len(used) :]:
            shared = next((t for t, h in holders.items() if forest.root(h) != forest.root(g)), None)
            if shared is None:
                return None
            forest.join(holders.pop(shared), g)
            places[g][i] = shared
    return places


def _cells(anchor: Pos, index: int, length: int, across: bool) -> list[Pos] | None:
    """Positions of a group of ``length`` whose place ``index`` lies at ``anchor``; None off the table."""
    dx, dy = (1, 0) if across else (0, 1)
    x0, y0 = anchor.x - index * dx, anchor.y - index * dy
    cells = [(x0 + k * dx, y0 + k * dy) for k in range(length)]
    if any(abs(x) > MAX_COORD or abs(y) > MAX_COORD for x, y in cells):
        return None
    return [Pos(x, y) for x, y in cells]


def _grow(
    places: list[list[Tag]], roots: list[tuple[int, Pos, int, bool]], layout: dict[Pos, Tag]
) -> set[int] | None:
    """Lay out the trees of groups from their roots (group, anchor, place at anchor, across), each
    group perpendicular to the one it crosses; the groups placed, None on a collision."""
    where = {tag: pos for pos, tag in layout.items()}
    placed: set[int] = set()
    queue = deque(roots)
    while queue:
        g, anchor, index, across = queue.popleft()
        if g in placed:
            continue
        cells = _cells(anchor, index, len(places[g]), across)
        if cells is None:
            return None
        for pos, tag in zip(cells, places[g], strict=True):
            if layout.get(pos, tag) != tag or (tag in where and where[tag] != pos):
                return None
            layout[pos], where[tag] = tag, pos
        placed.add(g)
        for h, group in enumerate(places):
            if h in placed:
                continue
            for i, tag in enumerate(group):
                if tag in where and tag in places[g]:
                    queue.append((h, where[tag], i, not across))
    return placed


def kept_lines(places: list[list[Tag]], table: Table) -> tuple[list[list[Tag]], dict[Pos, Tag]]:
    """The groups still to lay out, and the tiles that stay: a group whose tiles are a whole line
    of the table, crossing no other line and shared with no other group, stays where it lies."""
    uses = Counter(tag for group in places for tag in group)
    lines = list(table.lines())
    crossings = Counter(p for line in lines for p in line.positions)
    whole = {frozenset(line.positions) for line in lines}
    rest: list[list[Tag]] = []
    kept: dict[Pos, Tag] = {}
    for group in places:
        spots = frozenset(where for kind, where in group if kind == "table" and isinstance(where, Pos))
        if (
            len(spots) == len(group)
            and spots in whole
            and all(uses[t] == 1 for t in group)
            and all(crossings[p] == 1 for p in spots)
        ):
            kept.update({p: ("table", p) for p in spots})
        else:
            rest.append(group)
    return rest, kept


def lay_out(places: list[list[Tag]], wild: Pos, kept: dict[Pos, Tag] | None = None) -> dict[Pos, Tag] | None:
    """Positions for every tile of the groups: the Super Wild's trees through ``wild``, every other
    tree in a band two rows below everything laid so far (``kept`` tiles included, which stay where
    they are); None when groups collide."""
    layout: dict[Pos, Tag] = {wild: WILD_TAG, **(kept or {})}
    wild_groups = [g for g, group in enumerate(places) if WILD_TAG in group]
    wild_roots = [(g, wild, places[g].index(WILD_TAG), k == 0) for k, g in enumerate(wild_groups)]
    done = _grow(places, wild_roots, layout)
    if done is None:
        return None
    for g in range(len(places)):
        if g in done:
            continue
        local: dict[Pos, Tag] = {}
        tree = _grow(places, [(g, Pos(0, 0), 0, True)], local)
        if tree is None:
            return None
        top = max(p.y for p in layout) + 2 - min(p.y for p in local)
        left = wild.x - min(p.x for p in local)
        if abs(top) + max(abs(p.y) for p in local) > MAX_COORD:
            return None
        layout.update({Pos(p.x + left, p.y + top): tag for p, tag in local.items()})
        done |= tree
    return layout


def rearranged_turn(table: Table, rack: list[Tile]) -> Turn | None:
    """The programme's turn: every table tile moved to its place in the new layout, the chosen rack
    tiles laid; None when the programme finds no groups or no legal layout lays a tile."""
    on_table = Counter(t.shape for t in table.tiles.values() if not t.is_wild)
    in_rack = Counter(t.shape for t in rack)
    for share in (True, False):
        plans = choose_groups(on_table, in_rack, share)
        places = None if plans is None else assign_tiles(plans, table, rack)
        if places is None:
            continue
        turn = _turn_from(places, table, rack, keep=True) or _turn_from(places, table, rack, keep=False)
        if turn is not None:
            return turn
    return None


def _turn_from(places: list[list[Tag]], table: Table, rack: list[Tile], keep: bool) -> Turn | None:
    """The turn that lays the groups out (whole lines kept in place if ``keep``), None unless legal."""
    rest, kept = kept_lines(places, table) if keep else (places, {})
    layout = lay_out(rest, table.wild_pos, kept)
    if layout is None:
        return None
    moves = []
    for pos, (kind, where) in sorted(layout.items(), key=lambda pt: (pt[0].y, pt[0].x)):
        if kind == "rack" and isinstance(where, int):
            moves.append(Move(rack[where], pos))
        elif kind == "table" and isinstance(where, Pos) and where != pos:
            moves.append(Move(table.tiles[where], where, pos))
    turn = Turn(tuple(moves))
    return turn if turn.lays and _is_legal(table, turn) else None


def _is_legal(table: Table, turn: Turn) -> bool:
    """Whether the turn's moves leave a legal table."""
    after = table.apply(turn.moves)
    return isinstance(after, Table) and after.problem() is None


def lay_only_turns(table: Table, rack: list[Tile], deadline: float) -> list[Turn]:
    """Turns laying rack tiles without moving table tiles: each of the first lays found, grown
    greedily (the biggest first lays first) until nothing more fits or time runs out."""
    firsts = []
    for option in lay_options(table, rack, deadline=deadline):
        firsts.append(option)
        if len(firsts) >= FIRST_LAYS * 4:
            break
    firsts.sort(key=len, reverse=True)
    turns = []
    for first in firsts[:FIRST_LAYS]:
        laid, left, now = dict(first), list(rack), table.with_tiles(first)
        for tile in first.values():
            left.remove(tile)
        while left and time.perf_counter() < deadline:
            more = next(lay_options(now, left, deadline=deadline), None)
            if more is None:
                break
            laid.update(more)
            now = now.with_tiles(more)
            for tile in more.values():
                left.remove(tile)
        turns.append(
            Turn(tuple(Move(t, p) for p, t in sorted(laid.items(), key=lambda pt: (pt[0].y, pt[0].x))))
        )
    return turns


def hints(table: Table, rack: list[Tile], top: int) -> list[Hint]:
    """The ``top`` best turns laying tiles from ``rack``, most tiles laid first (fewer table moves
    breaking ties); ``draw`` (score 0) when no lay is found.

    Args:
        table: a legal table.
        rack: the player's tiles.
        top: how many hints at most (>= 1).

    Raises:
        ValueError: ``top`` below 1.
    """
    if top < 1:
        raise ValueError(f"top must be 1 or more, got {top}")
    turns = lay_only_turns(table, rack, time.perf_counter() + SEARCH_SECONDS)
    best = max((len(t.lays) for t in turns), default=0)
    if best < len(rack):
        rearranged = rearranged_turn(table, rack)
        if rearranged is not None:
            turns.append(rearranged)
    found: dict[str, Hint] = {}
    for turn in sorted(turns, key=lambda t: (-len(t.lays), len(t.moves) - len(t.lays))):
        text = format_turn(turn)
        if text not in found and _is_legal(table, turn):
            moved = len(turn.moves) - len(turn.lays)
            found[text] = Hint(text, len(turn.lays), {"laid": len(turn.lays), "moved": moved})
    out = list(found.values())[:top]
    return out or [Hint("draw", 0, {"laid": 0, "moved": 0})]
