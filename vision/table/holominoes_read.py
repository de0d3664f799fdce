"""Reading a Holominoes table from one photo: the hexagonal tiles found, their three numbered
corners read and the tiles placed on the axial grid (games.md "Reading a table").

1. The tiles found on the bare table (vision.table.finder), their radius and the layout's turn
   (vision.table.hex_layout: tiles meet edge to edge, so every corner points one of six ways).
2. Each tile's six corners are read with the learned reader (vision.reader.model): a crop centred
   where a corner's digit is printed (DIGIT_AT of the radius towards it, vision.reader.crop's
   Holominoes crop: size = the radius), the faces limited to the set's digits. The numbered
   corners alternate with the bites, which read "none": of the two alternate triples the one
   less likely "none" over all the tiles holds the digits (tiles meet edge to edge, so every
   tile's numbered corners point the same three ways). Each digit is then read once more turned
   by the up its tile's geometry gives (``_digit_ups``: a set's digits stand upright on their tile
   or point at their corner), and its probabilities are the geometric mean of that reading and
   the first (on held-out digit crops, tests/vision/test_reader_model.py, a digit turned by its
   known up reads right 96% of the time, by the up network's own 93%). Tiles laid legally carry
   one number at a corner they share, so a corner's reading is the sum of the log-probabilities
   of every tile's digit at that point (``SAME_POINT``); each tile takes the three different
   digits likeliest at its corners, unless two tiles would then be one tile of the set, which holds
   every tile once: then the readings of greatest total likelihood that are all different tiles
   (``_distinct_tiles``). On TRAIN-style tables (vision.sim.table_shots seeds 6200..6399, split
   "train") this took the per-tile error from 20 of 2983 to 14.
   A cell of the layout is a tile where its corners read as a tile's (``DIGITS_SURE``,
   ``BITES_SURE``): the finder can take a patch of table, or a thing on it, for a tile. A cell
   next to the tiles that the finder left out is read
   too (at one view, and at every quarter turn where it may be a tile: ``MAYBE_TILE``), and kept
   by the same test; the cells next to a tile so kept are read in turn, until no new tile is
   found.
3. vision.table.holominoes_grid places them on the grid in the transcript's frame.
4. Each tile placed keeps its likeliest other readings (``ALTERNATIVES``: another three different
   digits at the same corners, hence another tile or turn on the same cell), each with its
   probability over the reading taken, so that the rules can take a runner-up where the reading
   makes a turn illegal.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from engine.holominoes.geometry import NUMBERED
from engine.holominoes.tiles import (
    Placement,
    Tile,
    clockwise_tile,
    corner_placement,
    format_placement,
    format_tile,
)
from engine.solver import assignment
from vision.reader.crop import INPUT_PX, tile_crops
from vision.reader.faces import FACES, NOT_A_FACE
from vision.reader.model import ALL_VIEWS, TileReader, geometric_mean, up_likelihood
from vision.table.finder import TileFinder
from vision.table.hex_layout import HexLayout, hex_layout
from vision.table.holominoes_grid import HolominoesGrid, SeenCorner, SeenHex, holominoes_grid

#: The set's largest number (games.md: `[Digits "6"]`, the seed's default).
DEFAULT_DIGITS = 6
#: A corner's digit is printed this share of the radius from the tile's centre towards the corner
#: (the Holominoes tiles the reader was trained on, vision.sim.game_tiles HOLOMINO_DIGIT_AT).
DIGIT_AT = 0.58
#: A cell read (the layout's or one beside it) is a tile when each of its numbered corners reads
#: a digit at least this surely. On TRAIN-style tables (bench/bench_table.py --split train --game
#: holominoes --seed 20000 --tables 900: 12,875 tiles, the layout from the tile finder) 0.5 / 0.6
#: / 0.7 / 0.8 / 0.9 / 0.95 keep 8 / 2 / 0 / 0 / 0 / 0 cells of bare table as tiles and miss
#: 4 / 4 / 5 / 5 / 7 / 13 tiles (4 wrong faces at each): 0.8 lies in the flat best band.
DIGITS_SURE = 0.8
#: ... and its bites read "none" at least this surely on the whole (their geometric mean: the crop
#: of one bite can catch the edge of its tile's own digit): even odds. On those tables (DIGITS_SURE
#: 0.8) 0.3 / 0.5 / 0.7 miss 5 / 5 / 6 tiles and keep no bare table.
BITES_SURE = 0.5
#: The cells beside the tiles are read at one view first (most are bare table); a cell whose
#: numbered corners each read a digit at least this likely is read again at every quarter turn,
#: as the layout's tiles are, and DIGITS_SURE and BITES_SURE decide on that reading. On
#: TRAIN-style tables (bench/bench_table.py --split train --seed 0 --tables 60 --game holominoes),
#: of 1529 such cells the 14 kept read their digits at least 0.98 at one view, and 2.4% of the
#: cells pass 0.1; with the shipped tile reader 0.05, 0.1 and 0.2 alike read every tile right.
MAYBE_TILE = 0.1
#: Two tiles' numbered corners less than this share of the radius apart are one point.
SAME_POINT = 0.35
#: Other readings kept per tile: a misread tile is mostly one digit off, and a digit's look-alikes
#: are few (a 1 and a 7, a 5 and a 6), so the runner-ups that matter are the first few.
ALTERNATIVES = 3
_NONE = FACES.index(NOT_A_FACE)


@dataclass(frozen=True, slots=True)
class HolominoesReading:
    """What one photo of a Holominoes table shows.

    Attributes:
        grid: the tiles on the grid in the transcript's frame, and the seen tiles left out with why.
        seen: every tile found with its numbered corners read, photo pixels.
        turn: the direction of one corner of every tile on the photo, radians in (-pi/6, pi/6].
        alternatives: a tile placed, as a placement (``256@1,0/E``) -> its likeliest other readings
            on the same cell (``(("156@1,0/E", 0.3), ...)``: other digits at its corners, each with
            the reader's probability over the reading taken, best first, at most ALTERNATIVES).
    """

    grid: HolominoesGrid
    seen: tuple[SeenHex, ...]
    turn: float
    alternatives: dict[str, tuple[tuple[str, float], ...]]


def read_holominoes(image: np.ndarray, reader: TileReader, finder: TileFinder,
                    digits: int = DEFAULT_DIGITS) -> HolominoesReading:
    """Find, read and place every tile of a Holominoes table.

    Args:
        image: the photo, BGR uint8 H x W x 3, the table seen from above at any turn.
        reader: the learned tile reader.
        finder: the tile finder.
        digits: the set's largest number (3..9).

    Returns:
        the reading (tiles on the grid, the seen tiles, the layout's turn).

    Raises:
        FinderError: a photo the finder cannot search, or its model missing or damaged.
        ValueError: ``digits`` out of 3..9.
    """
    if not 3 <= digits <= 9:
        raise ValueError(f"a Holominoes set has digits 3..9, got {digits}")
    allowed = tuple(str(d) for d in range(1, digits + 1))
    layout = hex_layout(finder.find(image))
    best = _corner_reads(image, layout, reader, allowed, ALL_VIEWS)
    best, keep = _grown(image, best, reader, allowed)
    if not keep.any():  # no cells, or all read as bare table
        return HolominoesReading(holominoes_grid([]), (), best.layout.turn, {})
    layout, centres, faces, at = best.layout, best.centres, best.faces, best.at
    turn = layout.turn
    ways = _corner_ways(turn)
    unit = np.column_stack([np.cos(ways), np.sin(ways)])  # [6, 2]
    numbered = list(range(best.parity, 6, 2))  # one way for every tile: they meet edge to edge
    centres, at, faces = centres[keep], at[keep], faces[keep]
    digit_crops = best.crops[np.flatnonzero(keep)[:, None] * 6 + np.array(numbered)[None]].reshape(
        -1, *best.crops.shape[1:])
    ups = _digit_ups(reader, digit_crops, np.degrees(ways[numbered]))
    turned, _ = reader.probabilities(digit_crops, allowed, ups_deg=ups)
    faces[:, numbered] = geometric_mean(
        np.concatenate([turned, faces[:, numbered].reshape(len(turned), -1)]), 2).reshape(len(centres), 3, -1)
    columns = [FACES.index(d) for d in allowed]
    digit_p = faces[:, numbered][:, :, columns]  # [n, 3, digits]
    digit_p = np.log(np.clip(digit_p / digit_p.sum(axis=2, keepdims=True), 1e-6, 1.0))
    vertices = centres[:, None, :] + layout.radius * unit[None, numbered]  # [n, 3, 2]
    fused = _fused(digit_p, vertices, layout.radius)
    triples = np.array(list(itertools.permutations(range(digits), 3)))  # three different digits
    scores = fused[:, np.arange(3)[None, :], triples].sum(axis=2)  # [n, triples]
    taken = _distinct_tiles(scores, allowed)
    ranked = np.argsort(-scores, axis=1)[:, : ALTERNATIVES + 1].tolist()
    order = [[t for t in row if t != k][:ALTERNATIVES] for k, row in zip(taken.tolist(), ranked, strict=True)]
    choice = triples[taken]  # [n, 3]
    seen = []
    for k, (centre, best) in enumerate(zip(centres.tolist(), choice.tolist(), strict=True)):
        corners = tuple(SeenCorner((float(at[k, j, 0]), float(at[k, j, 1])), allowed[d])
                        for j, d in zip(numbered, best, strict=True))
        sure = min(float(faces[k, j, columns[d]]) for j, d in zip(numbered, best, strict=True))
        seen.append(SeenHex((centre[0], centre[1]), float(layout.radius), corners, min(1.0, sure)))
    grid = holominoes_grid(seen)
    others = [tuple((tuple(allowed[d] for d in triples[t]), math.exp(scores[k, t] - scores[k, taken[k]]))
                    for t in row) for k, row in enumerate(order)]
    return HolominoesReading(grid, tuple(seen), turn, _placed_alternatives(grid, seen, others))


def _distinct_tiles(scores: np.ndarray, allowed: tuple[str, ...]) -> np.ndarray:
    """Each tile's reading, an index into the triples of different digits (int [n]): its
    likeliest, unless two tiles would then be one tile of the set, which holds every tile once
    (games.md "Holominoes"); then the readings of greatest total log-probability that are all
    different tiles (an assignment, engine.solver). ``scores``: float [n, t], each tile's
    log-probability of each triple at its numbered corners, in :func:`_tile_kinds`' order."""
    best = scores.argmax(axis=1)
    kind = _tile_kinds(allowed)
    kinds = int(kind.max()) + 1
    if len(set(kind[best].tolist())) == len(best) or len(best) > kinds:
        return best
    per_kind = np.full((len(best), kinds), -np.inf)  # each tile's best triple of each kind
    at = np.zeros(per_kind.shape, int)
    for t, k in enumerate(kind.tolist()):
        better = scores[:, t] > per_kind[:, k]
        per_kind[better, k], at[better, k] = scores[better, t], t
    return at[np.arange(len(best)), assignment(per_kind)]


@cache
def _tile_kinds(allowed: tuple[str, ...]) -> np.ndarray:
    """Which tile of the set (int [t], 0..) each triple of different digits names, read clockwise,
    the triples of indices into ``allowed`` in itertools.permutations' order (read_holominoes')."""
    digit = [int(d) for d in allowed]
    names = [clockwise_tile((digit[a], digit[b], digit[c]))
             for a, b, c in itertools.permutations(range(len(allowed)), 3)]
    kinds = sorted(set(names), key=format_tile)
    return np.array([kinds.index(name) for name in names])


def _placed_alternatives(
    grid: HolominoesGrid, seen: list[SeenHex], others: list[tuple[tuple[tuple[str, ...], float], ...]]
) -> dict[str, tuple[tuple[str, float], ...]]:
    """Each placed tile's other readings as placements on its cell (HolominoesReading.alternatives):
    the digit read at each corner (E, SW or NW of the placement) replaced by the other reading's."""
    by_tile = {p.tile: p for p in grid.placements}
    read = [_cycle(s) for s in seen]
    out: dict[str, tuple[tuple[str, float], ...]] = {}
    for s, tile, alts in zip(seen, read, others, strict=True):
        placed = by_tile.get(tile)
        if placed is None or read.count(tile) != 1:
            continue  # left out, or two tiles read as one (which is which is open)
        names = {n: NUMBERED[placed.corners.index(n)] for n in placed.corners}  # digit -> its corner
        corners = [names[int(c.face)] for c in s.corners]
        out[format_placement(placed)] = tuple(
            (format_placement(_placement(dict(zip(corners, map(int, faces), strict=True)), placed)), ratio)
            for faces, ratio in alts
        )
    return out


def _cycle(seen: SeenHex) -> Tile:
    """The tile a seen hexagon's digits name: its numbered corners, listed by their direction
    (clockwise as seen, as E, SW, NW follow one another), read from the smallest."""
    a, b, c = (int(corner.face) for corner in seen.corners)
    return clockwise_tile((a, b, c))


def _placement(numbers: dict[str, int], on: Placement) -> Placement:
    """The tile with ``numbers`` on its corners (E, SW, NW -> digit) laid on ``on``'s cell."""
    e, sw, nw = (numbers[name] for name in NUMBERED)
    return corner_placement(on.cell, (e, sw, nw))


@dataclass(frozen=True, slots=True)
class _CornerReads:
    """One layout's tiles (the ``found`` first of ``centres``, then the empty cells beside them,
    photo pixels float [n, 2]) with where their six corners' digits would be printed (``at``,
    float [n, 6, 2], corner j at the layout's turn + j 60 degrees), their crops (uint8
    [6 n, 64, 64, 3]) and faces (float32 [n, 6, len(FACES)]); which alternate corners hold the
    digits (``parity``: 0 or 1: the one whose digits read less likely "none" over the found ones)."""

    layout: HexLayout
    centres: np.ndarray
    found: int
    at: np.ndarray
    crops: np.ndarray
    faces: np.ndarray
    parity: int


def _corner_reads(
    image: np.ndarray, layout: HexLayout, reader: TileReader, allowed: tuple[str, ...], views: int = 1
) -> _CornerReads:
    """Read the six corners of every tile of ``layout``, each at ``views`` quarter turns
    (TileReader.probabilities)."""
    centres, found = layout.centres, len(layout.centres)
    if not found:
        no_crops = np.zeros((0, INPUT_PX, INPUT_PX, 3), np.uint8)
        return _CornerReads(layout, centres, 0, np.zeros((0, 6, 2)), no_crops,
                            np.zeros((0, 6, len(FACES)), np.float32), 0)
    ways = _corner_ways(layout.turn)
    unit = np.column_stack([np.cos(ways), np.sin(ways)])  # [6, 2]
    at = centres[:, None, :] + DIGIT_AT * layout.radius * unit[None]  # [n, 6, 2]
    crops = tile_crops(image, at.reshape(-1, 2), np.full(6 * len(centres), layout.radius))
    faces, _ = reader.probabilities(crops, allowed, views)
    faces = faces.reshape(len(centres), 6, -1)
    none = np.clip(faces[:found, :, _NONE], 1e-6, 1 - 1e-6)
    score = [float(np.sum(np.log1p(-none[:, p::2])) + np.sum(np.log(none[:, 1 - p::2]))) for p in (0, 1)]
    parity = int(np.argmax(score))
    return _CornerReads(layout, centres, found, at, crops, faces, parity)


def _tiles_kept(reads: _CornerReads) -> np.ndarray:
    """Which cells read are tiles (bool [n]): those whose numbered corners each read a digit
    (DIGITS_SURE) and whose bites read blank on the whole (BITES_SURE)."""
    bites = np.clip(reads.faces[:, 1 - reads.parity::2, _NONE], 1e-6, 1.0)
    bites_read = np.exp(np.log(bites).mean(axis=1)) >= BITES_SURE  # over the three bites
    return (_least_digit(reads.faces, reads.parity) >= DIGITS_SURE) & bites_read


def _grown(
    image: np.ndarray, reads: _CornerReads, reader: TileReader, allowed: tuple[str, ...]
) -> tuple[_CornerReads, np.ndarray]:
    """The layout's tiles read, grown cell by cell: the empty cells beside every tile are read too,
    and where one is a tile (the finder left it out), the cells beside it in turn, until no new
    tile is found. Returns the reads and which of their cells are tiles (bool [n])."""
    keep = _tiles_kept(reads)
    radius, turn = reads.layout.radius, reads.layout.turn
    while True:
        new = _neighbours(reads.centres[keep], radius, turn, image.shape, reads.centres)
        if not len(new):
            return reads, keep
        more = _corner_reads(image, HexLayout(new, radius, turn), reader, allowed)
        maybe = _least_digit(more.faces, reads.parity) >= MAYBE_TILE
        if maybe.any():  # read again at every quarter turn, as the layout's own tiles are
            faces, _ = reader.probabilities(more.crops[np.repeat(maybe, 6)], allowed, ALL_VIEWS)
            more.faces[maybe] = faces.reshape(-1, 6, faces.shape[1])
        reads = replace(reads, centres=np.vstack([reads.centres, more.centres]),
                        at=np.concatenate([reads.at, more.at]),
                        crops=np.concatenate([reads.crops, more.crops]),
                        faces=np.concatenate([reads.faces, more.faces]))
        grown = _tiles_kept(reads)
        if grown.sum() == keep.sum():
            return reads, grown
        keep = grown


def _least_digit(faces: np.ndarray, parity: int) -> np.ndarray:
    """Each cell's least likelihood of a digit (not "none") over its numbered corners (float [n]),
    from its corners' faces (float32 [n, 6, len(FACES)]; ``parity``: which alternate corners)."""
    return (1 - faces[:, parity::2, _NONE]).min(axis=1)


def _corner_ways(turn: float) -> np.ndarray:
    """The directions of a tile's six corners (float [6], radians, atan2 on the photo), corner j
    at the layout's ``turn`` + j 60 degrees."""
    return turn + np.arange(6) * math.pi / 3


def _digit_ups(reader: TileReader, crops: np.ndarray, corners_deg: np.ndarray) -> np.ndarray:
    """Which way each numbered corner's digit points, from the few ways the tiles' geometry allows
    (games.md "Holominoes": a set's digits stand upright on their tile or point at their corner).

    Pointing, a digit's up is its corner's direction; upright, it is its tile's up, one of three
    ways (the tile's first corner at any of its numbered corners). The set's style is the one the
    up network finds likelier over every digit on the table, each tile taking its likeliest way.

    Args:
        reader: the learned tile reader (its up network).
        crops: BGR uint8 [3 n, 64, 64, 3], each tile's numbered corners' digit crops in turn.
        corners_deg: float [3], the numbered corners' directions in the photo, degrees
            (clockwise as seen from the x axis, y down), the same for every tile.

    Returns:
        float [3 n], each digit's up, degrees counter-clockwise as seen from upright.
    """
    n = len(crops) // 3
    p = reader.up_finder.probabilities(crops)
    pointing = np.tile(-90.0 - corners_deg, n)[:, None]  # [3 n, 1]
    upright = np.repeat(-corners_deg[None, :], 3 * n, axis=0)  # [3 n, 3]: the tile's first corner at each
    floor = 1e-6
    pointing_log = np.log(np.maximum(up_likelihood(p, pointing), floor)).sum()
    upright_log = np.log(np.maximum(up_likelihood(p, upright), floor)).reshape(n, 3, 3).sum(axis=1)  # [n, 3]
    if pointing_log >= upright_log.max(axis=1).sum():
        return pointing[:, 0]
    return np.repeat(-corners_deg[upright_log.argmax(axis=1)], 3)


def _neighbours(centres: np.ndarray, radius: float, turn: float, shape: tuple[int, ...],
                taken: np.ndarray) -> np.ndarray:
    """The cells next to the tiles at ``centres`` (float [m, 2], photo pixels), inside the photo,
    that are not ``taken`` (float [k, 2], the cells read already)."""
    step = math.sqrt(3) * radius
    ways = turn + np.radians(30 + 60 * np.arange(6))
    around = (centres[:, None, :] + step * np.column_stack([np.cos(ways), np.sin(ways)])[None]).reshape(-1, 2)
    near = taken.reshape(-1, 2)
    for cell in around:
        inside = radius <= cell[0] <= shape[1] - radius and radius <= cell[1] <= shape[0] - radius
        if inside and np.hypot(*(near - cell).T).min() > step / 2:
            near = np.vstack([near, cell])
    return near[len(taken):]


def _fused(log_p: np.ndarray, vertices: np.ndarray, radius: float) -> np.ndarray:
    """Each numbered corner's digit log-probabilities (float [n, 3, digits]) summed over every tile
    whose numbered corner lies at the same point (within SAME_POINT of the radius): tiles laid
    legally carry one number at a shared corner (games.md "Holominoes")."""
    points = vertices.reshape(-1, 2)
    flat = log_p.reshape(len(points), -1)
    near = np.linalg.norm(points[:, None] - points[None], axis=2) < SAME_POINT * radius
    return (near.astype(np.float64) @ flat).reshape(log_p.shape)
