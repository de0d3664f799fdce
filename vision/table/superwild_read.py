"""Reading a Super Wild table from one photo: the tiles found, read and placed on the grid
(games.md "Reading a table", issue "Super Wild: the open table").

1. Every tile on the bare table (vision.table.finder).
2. Each tile's long axis and extent (the principal axes of its pixels) give its centre, its
   diagonal (the crop's size, vision.reader.crop) and the axis its number reads along; where its
   print lies off its middle along that axis (a Rummikub-like tile prints its number in its upper
   part) that end is its top (``UP_SHIFT``), otherwise which end is up stays open.
3. The learned reader (vision.reader.model) reads face and colour from each tile's crop at its
   four quarter turns (TileReader.probabilities' views), each colour's probability weighed by how
   likely the tile's ink hue against its own body is under that colour (vision.reader.ink_hue: a
   tinted body moves what the reader sees, not the hue), the faces limited to the Super Wild set's
   ("1".."13" less 6 and 9, "6/9", "joker" for the Super Wild; a tile read as a 6 or a 9, printed
   the way other sets print them, is the 6/9 tile); a number tile takes the likeliest number
   and colour of the four together. A tile found that reads "none" is no tile. Where no tile
   reads as the Super Wild, the likeliest one is taken for it (``WILD_FLOOR``). The set has each
   number tile once (a colour's 6/9 twice): the tiles are named likeliest first, a tile whose
   likeliest name is taken getting its likeliest free one (on TRAIN-style tables, bench/bench_table.py --split
   train --seed 0 --tables 60 --photos: per-tile error 5.1 -> 4.3%, real crops 4.7 -> 4.6%).
4. vision.table.superwild_grid places them on the grid, the Super Wild at 0,0.
5. Each number tile placed keeps its likeliest other names (``ALTERNATIVES``: another number and
   colour of the same tile, from the same probabilities, each with its probability over the name
   read), so that the rules can take a runner-up where the name read makes a turn illegal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.superwild.tiles import Move, Pos, Tile, format_move
from vision.reader.crop import tile_crops
from vision.reader.faces import COLOURS, FACES, JOKER_FACE, NO_COLOUR, NOT_A_FACE, SIX_NINE_FACE
from vision.reader.ink_hue import body_ink, shipped_ink_hues
from vision.reader.model import ALL_VIEWS, TileReader
from vision.table.finder import FoundTile, TileFinder
from vision.table.superwild_grid import SeenTile, SuperWildGrid, superwild_grid, tile_of

#: The faces of the Super Wild set (games.md "Super Wild": the 6 and the 9 are one tile, "6/9").
SUPERWILD_FACES: tuple[str, ...] = (
    *(str(v) for v in range(1, 14) if v not in (6, 9)), SIX_NINE_FACE, JOKER_FACE,
)
#: A tile's true diagonal over the diagonal of its region as found (the region takes in some of
#: the tile's side and its contact shadow): the median ratio on rendered TRAIN-style tables
#: (vision.sim.table_shots seeds 20000..20039, split "train": 0.954, 5% to 95% 0.91 to 1.01).
DIAGONAL_SCALE = 0.95
#: A tile's print is measured within its outline scaled by this about its centre: off its darker
#: rim and the contact shadow that the finder's region takes in. On TRAIN-style tables
#: (vision.sim.table_shots seeds 21000..21099, split "train", every other one with real crops;
#: 1,202 tiles) 1.0 / 0.95 / 0.9 / 0.85 / 0.8 read 9 / 3 / 2 / 2 / 2 tiles wrong (their ink's
#: colour), 2 missed at each.
INK_SCALE = 0.9
#: The print lies off the body's middle by more than this share of its length: that end is its top.
UP_SHIFT = 0.04
#: Where no tile is read as the Super Wild, the tile likeliest to be it is taken for it when it is
#: at least this likely (the table has one; the grid is counted from it). On TRAIN-style tables
#: (bench/bench_table.py --split train --seed 30 --tables 60) 0 / 0.01 / 0.1 / never left 0 / 2 / 3
#: / 3 tables unread (per-tile error 7.8 / 8.0 / 8.1 / 8.1%); 0 would take some tile for the Super
#: Wild on any table, so a photo with none could not be told (games.md: say so).
WILD_FLOOR = 0.01
#: Other names kept per tile read: the runner-ups of a misread seen on TRAIN-style tables are
#: mostly the second or third (a number's look-alike, or the same number in a look-alike colour).
ALTERNATIVES = 3


@dataclass(frozen=True, slots=True)
class SuperWildReading:
    """What one photo of a Super Wild table shows.

    Attributes:
        grid: the tiles on the grid, and the seen tiles left out with why.
        seen: every tile found and read, photo pixels.
        dropped: tiles found that read as no tile face, as "tile at (x, y) px" sentences.
        alternatives: a number tile placed, as a placement (``R8@3,0``) -> its likeliest other
            names on the same place (``(("R3@3,0", 0.4), ...)``, each with the reader's probability
            over the name read's, best first, at most ALTERNATIVES); the Super Wild and a tile
            placed twice (a colour's 6/9) have none.
    """

    grid: SuperWildGrid
    seen: tuple[SeenTile, ...]
    dropped: tuple[str, ...]
    alternatives: dict[str, tuple[tuple[str, float], ...]]


def tile_print(image: np.ndarray, tile: FoundTile) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A tile's print, measured off its rim and shadow (within its outline scaled by INK_SCALE).

    Args:
        image: the photo, BGR uint8 H x W x 3.
        tile: one tile found on it.

    Returns:
        (the pixels measured, float32 [n, 2] (x, y); which of them are ink, bool [n]; the ink's
        hue against the tile's body, float32 [3]: vision.reader.ink_hue.body_ink).
    """
    inner = tile.pixels(image.shape, INK_SCALE)
    ink, hue = body_ink(image, inner)
    return inner, ink, hue


def tile_axes(image: np.ndarray, tile: FoundTile) -> tuple[float, float, bool, np.ndarray]:
    """A tile's diagonal (pixels, DIAGONAL_SCALE applied), the direction from its top to its bottom
    (radians, atan2(dy, dx) on the photo), whether that top is known (its print off its middle)
    and its print's ink hue (:func:`tile_print`, float32 [3]).

    Args:
        image: the photo, BGR uint8 H x W x 3.
        tile: one tile found on it.
    """
    points = tile.pixels(image.shape).astype(np.float64)
    centred = points - points.mean(axis=0)
    _, vectors = np.linalg.eigh(np.cov(centred.T))
    long_axis, short_axis = vectors[:, 1], vectors[:, 0]
    along, across = centred @ long_axis, centred @ short_axis
    length, width = float(np.ptp(along)), float(np.ptp(across))
    diagonal = DIAGONAL_SCALE * float(np.hypot(length, width))
    inner, ink, hue = tile_print(image, tile)
    along_ink = (inner[ink] - points.mean(axis=0)) @ long_axis
    shift = float(along_ink.mean()) / max(length, 1.0) if ink.any() else 0.0
    down = -long_axis if shift > 0 else long_axis  # from the print (the top) to the foot
    return diagonal, float(np.arctan2(down[1], down[0])), abs(shift) > UP_SHIFT, hue


def read_superwild(image: np.ndarray, reader: TileReader, finder: TileFinder) -> SuperWildReading:
    """Find, read and place every tile of a Super Wild table.

    Args:
        image: the photo, BGR uint8 H x W x 3, the table seen from above at any turn.
        reader: the learned tile reader.
        finder: the tile finder.

    Returns:
        the reading (tiles on the grid, the seen tiles, the tiles found that were no tile).

    Raises:
        FinderError: a photo the finder cannot search, or its model missing or damaged.
        GridError: no Super Wild among the tiles read (the grid is counted from it).
    """
    found = finder.find(image)
    axes = [tile_axes(image, t) for t in found]
    seen, dropped, others = _seen(image, found, axes, reader)
    grid = superwild_grid(seen)
    return SuperWildReading(grid, tuple(seen), tuple(dropped), _placed_alternatives(grid, seen, others))


def _placed_alternatives(
    grid: SuperWildGrid, seen: Sequence[SeenTile], others: Sequence[tuple[tuple[Tile, float], ...]]
) -> dict[str, tuple[tuple[str, float], ...]]:
    """Each placed tile's other names as placements on its place (SuperWildReading.alternatives)."""
    where: dict[Tile, list[Pos]] = {}
    for pos, tile in grid.tiles:
        where.setdefault(tile, []).append(pos)
    read = [tile_of(s) for s in seen]
    out: dict[str, tuple[tuple[str, float], ...]] = {}
    for named, alts in zip(read, others, strict=True):
        places = where.get(named) if named is not None else None
        if named is not None and alts and places is not None and len(places) == 1 and read.count(named) == 1:
            out[format_move(Move(named, places[0]))] = tuple(
                (format_move(Move(t, places[0])), ratio) for t, ratio in alts
            )
    return out


def _seen(
    image: np.ndarray, found: Sequence[FoundTile], axes: Sequence[tuple[float, float, bool, np.ndarray]],
    reader: TileReader,
) -> tuple[list[SeenTile], list[str], list[tuple[tuple[Tile, float], ...]]]:
    """The tiles found read as Super Wild tiles, those read as no face, and each seen tile's likeliest
    other number tiles with their probability over the name read's (none for the Super Wild)."""
    if not found:
        return [], [], []
    centres = np.array([t.centre for t in found], np.float64)
    crops = tile_crops(image, centres, np.array([a[0] for a in axes]))
    faces, colours = reader.probabilities(crops, (*SUPERWILD_FACES, "6", "9"), ALL_VIEWS)
    colours = shipped_ink_hues().colour_probabilities(colours, np.array([a[3] for a in axes]))
    six_nine = FACES.index(SIX_NINE_FACE)
    for printed in ("6", "9"):  # a Super Wild tile read as a 6 or a 9 is the 6/9 tile
        faces[:, six_nine] += faces[:, FACES.index(printed)]
        faces[:, FACES.index(printed)] = 0.0
    chosen = faces.argmax(axis=1)
    joker = FACES.index(JOKER_FACE)
    likeliest = int(np.argmax(faces[:, joker]))
    if not (chosen == joker).any() and faces[likeliest, joker] >= WILD_FLOOR:
        chosen[likeliest] = joker  # every Super Wild table has its Super Wild
    named = _each_tile_once(faces, colours, chosen)
    seen, dropped, others = [], [], []
    for i, (tile, (diagonal, angle, has_up, _), pick) in enumerate(zip(found, axes, named, strict=True)):
        if pick is None:
            dropped.append(f"tile at ({tile.centre[0]:.0f}, {tile.centre[1]:.0f}) px")
            continue
        face, colour, confidence = pick
        seen.append(SeenTile(tile.centre, diagonal, angle, face, colour, min(confidence, 1.0),
                             has_up and face != SIX_NINE_FACE))
        others.append(() if face == JOKER_FACE
                      else _runner_ups(faces[i], colours[i], face, colour, confidence))
    return seen, dropped, others


def _runner_ups(
    faces: np.ndarray, colours: np.ndarray, face: str, colour: str, p_read: float
) -> tuple[tuple[Tile, float], ...]:
    """The ALTERNATIVES likeliest number tiles other than ``face`` ``colour`` for one tile found (its
    face row float [len(FACES)] and colour row [len(COLOURS)]), each with p(face) p(colour) over
    ``p_read``, the name read's."""
    options = sorted(
        ((float(faces[FACES.index(f)] * colours[COLOURS.index(c)]), f, c)
         for f in SUPERWILD_FACES if f != JOKER_FACE for c in COLOURS if c != NO_COLOUR
         if (f, c) != (face, colour)),
        reverse=True,
    )[:ALTERNATIVES]
    return tuple((Tile(c, 6 if f == SIX_NINE_FACE else int(f)), p / max(p_read, 1e-12))
                 for p, f, c in options)


def _each_tile_once(
    faces: np.ndarray, colours: np.ndarray, chosen: np.ndarray
) -> list[tuple[str, str, float] | None]:
    """Each tile's (face, colour, confidence), None for no tile: the face ``chosen`` for the Super
    Wild and "none"; the number tiles named likeliest first, each (face, colour) taken at most as
    often as the set has it (once; a colour's 6/9 twice), a tile whose likeliest is taken getting
    its likeliest free one (games.md "Super Wild": 52 number tiles)."""
    joker, six_nine = FACES.index(JOKER_FACE), FACES.index(SIX_NINE_FACE)
    number_colours = [COLOURS.index(c) for c in COLOURS if c != NO_COLOUR]
    numbers = [FACES.index(f) for f in SUPERWILD_FACES if f != JOKER_FACE]
    out: list[tuple[str, str, float] | None] = [None] * len(faces)
    options = []
    for i, pick in enumerate(chosen.tolist()):
        if pick == joker:
            out[i] = (JOKER_FACE, NO_COLOUR, float(faces[i, joker]))
        elif FACES[pick] != NOT_A_FACE:
            options += [(float(faces[i, f] * colours[i, c]), i, f, c)
                        for f in numbers for c in number_colours]
    left = {(f, c): 2 if f == six_nine else 1 for f in numbers for c in number_colours}
    for p, i, f, c in sorted(options, reverse=True):
        if out[i] is None and left[(f, c)] > 0:
            left[(f, c)] -= 1
            out[i] = (FACES[f], COLOURS[c], p)
    return out
