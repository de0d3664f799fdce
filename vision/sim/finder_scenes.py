"""Photos of tiles on a bare table with the truth of every pixel: which tile it shows, if any.

The tile finder (vision.table.finder) is trained on these and the labelled real photos, and measured
on the HELD-OUT split of them. Three kinds of photo (``KINDS``):

- "superwild" and "holominoes": a seeded table of the game (vision.sim.table_shots), its tiles on
  the game's grid or lattice;
- "loose": tiles of one design lying as players leave them: rows side by side (a Rummikub run or
  group, touching or nearly), blocks of rows, tiles alone, each at any angle; any game's shape
  (Rummikub-like rectangles drawn or cut from real photos, Super Wild, Yushino squares, MODLINSEQ
  pentagons, Holominoes hexagons); on wood, cloth, a plain or woven surface or a photo of an
  empty table, with things that are no tile beside them (coins, cards, pencils); seen by a camera
  held at a slant (a perspective up to PERSPECTIVE), in uneven light, blurred, noisy and
  JPEG-compressed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.reader.faces import NO_COLOUR
from vision.sim.camera import jpeg_round_trip, still_photo
from vision.sim.game_tiles import (
    HOLOMINO_DIGITS,
    SUPERWILD_FACES,
    SUPERWILD_INKS,
    YUSHINO_FACES,
    render_holomino,
    render_superwild,
    render_yushino,
    sample_game_style,
)
from vision.sim.options import Split
from vision.sim.table_shots import random_shot
from vision.sim.tile_scenes import MODLINSEQ_FACES, clutter, place_sprite, table_surface
from vision.sim.tiles import render_tile, sample_style
from vision.table.finder import FoundTile

#: The kinds of photo and how often each is drawn.
KINDS: dict[str, float] = {"superwild": 0.2, "holominoes": 0.2, "loose": 0.6}
#: The loose tiles' shapes and how often each is drawn: Rummikub-like tiles most, as read-tiles reads.
SHAPES: dict[str, float] = {"rummikub": 0.45, "superwild": 0.15, "yushino": 0.12, "pentagon": 0.13,
                            "holominoes": 0.15}
#: A loose tile's canvas side (its long side, a hexagon's width) in photo pixels, drawn log-uniform:
#: from the smallest tile a table game's camera sees (vision.sim.table_shots: a Super Wild tile 40
#: px tall) to a phone held close.
TILE_PX: tuple[float, float] = (40.0, 170.0)
#: Photo sizes (width, height): a table camera's frame or a phone's photo, either way round.
PHOTO_SIZES: tuple[tuple[int, int], ...] = ((1024, 768), (768, 1024))
#: Each photo corner moves by up to this share of the photo: a camera held at a slant.
PERSPECTIVE = 0.12
#: The lens's blur (Gaussian sigma, pixels) and sensor noise (grey levels), drawn up to these: a
#: phone or webcam held by hand, softer and noisier than the table camera of vision.sim.table_shots.
BLUR_MAX = 1.5
NOISE_MAX = 5.0
#: Gap between tiles side by side in a row, as a share of the step: none (touching) up to this.
ROW_GAP = 0.15
#: Groups of tiles laid per photo, at most (each a row, a block of rows or a tile alone).
GROUPS = 8
#: A tile found is a true tile where their regions overlap this much (intersection over union):
#: the usual detection threshold; an outline that good cuts a crop the reader reads.
MATCH_IOU = 0.5


@dataclass(frozen=True, slots=True)
class FinderScene:
    """A photo of tiles and its truth.

    Attributes:
        image: BGR uint8, H x W x 3.
        ids: int32, H x W: 0 where no tile shows, k (1, 2, ...) on the pixels of the k-th tile.
        kind: one of KINDS.
        shape: the tiles' shape ("rummikub", "superwild", "yushino", "pentagon", "holominoes").
    """

    image: np.ndarray
    ids: np.ndarray
    kind: str
    shape: str


def finder_scene(seed: int, split: Split, backgrounds: Sequence[np.ndarray] = ()) -> FinderScene:
    """A seeded photo of one of KINDS.

    Args:
        seed: every random choice follows it.
        split: the font split of the tiles' print ("train" or "held_out").
        backgrounds: photos of empty tables (BGR uint8), of which a loose photo takes its table a
            third of the time; none: drawn tables only.

    Returns:
        the photo and which tile each pixel shows.
    """
    rng = np.random.default_rng(seed)
    kind = str(rng.choice(list(KINDS), p=list(KINDS.values())))
    if kind == "loose":
        return loose_scene(rng, split, backgrounds)
    shot = random_shot(kind, seed, split, photos=kind == "superwild" and rng.random() < 0.3)
    return FinderScene(shot.image, shot.ids, kind, kind)


def loose_scene(rng: np.random.Generator, split: Split,
                backgrounds: Sequence[np.ndarray] = ()) -> FinderScene:
    """Tiles of one design lying loose (see the module docstring); arguments as :func:`finder_scene`."""
    size = PHOTO_SIZES[int(rng.integers(len(PHOTO_SIZES)))]
    canvas = _background(rng, size, backgrounds)
    ids = np.zeros(canvas.shape[:2], np.int32)
    shape = str(rng.choice(list(SHAPES), p=list(SHAPES.values())))
    side = round(math.exp(rng.uniform(math.log(TILE_PX[0]), math.log(TILE_PX[1]))))
    draw, width = _drawer(shape, split, side, rng)
    for _ in range(int(rng.integers(0, 4))):
        at = rng.uniform(0.1, 0.9, 2) * size
        clutter(canvas, at, side * rng.uniform(0.8, 2.0), rng)
    taken = np.zeros((size[1] // 8 + 1, size[0] // 8 + 1), np.uint8)
    count = 0
    for _ in range(int(rng.integers(1, GROUPS + 1))):
        for at, turn in _group(rng, size, side, width, shape, taken):
            count += 1
            sprite, anchor = draw()
            place_sprite(canvas, sprite, anchor, at, turn, ids, count)
    image, ids = _seen(canvas, ids, rng)
    return FinderScene(image, ids, "loose", shape)


def _background(rng: np.random.Generator, size: tuple[int, int],
                backgrounds: Sequence[np.ndarray]) -> np.ndarray:
    """The table: a drawn surface, or a photo of an empty table cut to ``size``, flipped and tinted."""
    if not backgrounds or rng.random() >= 1 / 3:
        return table_surface(rng, size)
    photo = backgrounds[int(rng.integers(len(backgrounds)))]
    scale = max(size[0] / photo.shape[1], size[1] / photo.shape[0]) * rng.uniform(1.0, 1.6)
    big = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    x, y = int(rng.integers(big.shape[1] - size[0] + 1)), int(rng.integers(big.shape[0] - size[1] + 1))
    cut = big[y : y + size[1], x : x + size[0]]
    if rng.random() < 0.5:
        cut = cut[:, ::-1]
    tint = rng.uniform(0.8, 1.15, 3)
    return np.clip(cut * tint, 0, 255).astype(np.uint8)


Drawer = Callable[[], tuple[np.ndarray, tuple[float, float]]]


def _drawer(shape: str, split: Split, side: int, rng: np.random.Generator) -> tuple[Drawer, float]:
    """One design's tile drawing (-> BGRA sprite, the anchor that goes where the tile lies) and the
    tile's width across a row, in pixels."""
    if shape == "rummikub":
        style = sample_style(rng, split, ("rectangle", "photo"))
        faces = [f for f in (*(str(v) for v in range(1, 14)), "joker") if style.supports(f)]
        return (lambda: (render_tile(faces[int(rng.integers(len(faces)))], style, side, rng),
                         (side / 2, side / 2))), 0.75 * side
    if shape == "pentagon":
        style = sample_style(rng, split, ("pentagon",))
        def pentagon() -> tuple[np.ndarray, tuple[float, float]]:
            face = MODLINSEQ_FACES[int(rng.integers(len(MODLINSEQ_FACES)))]
            return render_tile(face, style, side, rng, modulus=int(rng.integers(5, 20))), (side / 2, side / 2)
        return pentagon, 0.95 * side
    game_style = sample_game_style(rng, split, shape)
    if shape == "superwild":
        def superwild() -> tuple[np.ndarray, tuple[float, float]]:
            face = SUPERWILD_FACES[int(rng.integers(len(SUPERWILD_FACES)))]
            inks = tuple(SUPERWILD_INKS)
            colour = NO_COLOUR if face == "joker" else inks[int(rng.integers(len(inks)))]
            return render_superwild(face, colour, game_style, side, rng), (side / 2, side / 2)
        return superwild, 0.75 * side
    if shape == "yushino":
        def yushino() -> tuple[np.ndarray, tuple[float, float]]:
            face = YUSHINO_FACES[int(rng.integers(len(YUSHINO_FACES)))]
            return render_yushino(face, game_style, side, rng), (side / 2, side / 2)
        return yushino, float(side)

    def holomino() -> tuple[np.ndarray, tuple[float, float]]:
        digits = tuple(int(d) for d in rng.choice(HOLOMINO_DIGITS, 3))
        tile = render_holomino(digits, game_style, side, rng)  # type: ignore[arg-type]
        return tile.image, tile.centre
    return holomino, math.sqrt(3) / 2 * side  # edge to edge: the step between hexagon centres


def _group(rng: np.random.Generator, size: tuple[int, int], side: int, width: float, shape: str,
           taken: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """Where the tiles of one group lie and how each is turned (degrees): a row of 1..6 side by
    side, a block of two or three such rows, or nothing where no free place is found."""
    rows = 1 if rng.random() < 0.75 else int(rng.integers(2, 4))
    length = int(rng.choice([1, 2, 3, 4, 5, 6], p=[0.25, 0.1, 0.25, 0.2, 0.1, 0.1]))
    turn = float(rng.uniform(0, 360))
    right, up = _seen_unit(turn), _seen_unit(turn + 90)  # the tiles' own right and up, as seen
    step = width * (1 + rng.uniform(0, ROW_GAP) * (rng.random() < 0.7))
    spread = 1 + rng.uniform(0, ROW_GAP)
    if shape == "holominoes":  # flat-topped hexagons edge to edge: columns, every other one half a step up
        along, across, row_step, shift = up, right, 0.75 * side * spread, 0.5
    else:
        along, across, row_step, shift = right, up, side * spread, 0.0
    offsets = [((i - (length - 1) / 2) + shift * (j % 2)) * step * along
               + (j - (rows - 1) / 2) * row_step * across for j in range(rows) for i in range(length)]
    reach = np.array(offsets)
    for _ in range(20):
        middle = rng.uniform(0.05, 0.95, 2) * size
        centres = middle + reach
        if not _free(centres, side, size, taken):
            continue
        taken |= _footprint(centres, side, taken.shape)
        pushed = centres + rng.normal(0, 0.02 * side, centres.shape)
        return [(c, turn + float(rng.normal(0, 3))) for c in pushed]
    return []


def _seen_unit(angle_deg: float) -> np.ndarray:
    """The unit vector (x, y down) at ``angle_deg`` counter-clockwise as seen from the photo's right."""
    return np.array([math.cos(math.radians(angle_deg)), -math.sin(math.radians(angle_deg))])


def _free(centres: np.ndarray, side: int, size: tuple[int, int], taken: np.ndarray) -> bool:
    """Whether tiles at ``centres`` lie within the photo and clear of the tiles laid before."""
    margin = 0.3 * side
    if (centres < -margin).any() or (centres > np.array(size) + margin).any():
        return False
    return not (_footprint(centres, side, taken.shape) & taken).any()


def _footprint(centres: np.ndarray, side: int, shape: tuple[int, ...]) -> np.ndarray:
    """The places tiles at ``centres`` take: uint8 ``shape``, one cell per 8 x 8 photo pixels, 1
    within a little more than half a tile of a centre."""
    cells = np.zeros(shape, np.uint8)
    for c in centres:
        cv2.circle(cells, (round(c[0] / 8), round(c[1] / 8)), round(0.6 * side / 8) + 1, 1, -1)
    return cells


def _seen(canvas: np.ndarray, ids: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The canvas as a camera held at a slant sees it (vision.sim.camera.still_photo, up to
    PERSPECTIVE), JPEG-compressed; the ids moved with it."""
    image, ids, _ = still_photo(canvas, ids, rng, PERSPECTIVE, BLUR_MAX, NOISE_MAX)
    return jpeg_round_trip(image, int(rng.integers(40, 96))), ids


def matched_overlaps(found: Sequence[FoundTile], ids: np.ndarray) -> list[float]:
    """The overlaps (intersection over union) of the tiles found that are true tiles: a tile found
    matches a true tile (each at most once, the best overlaps first) where their regions overlap by
    at least MATCH_IOU.

    Args:
        found: the tiles found (vision.table.finder).
        ids: int32 H x W, which true tile each pixel shows (FinderScene.ids), 0 for none.
    """
    areas = np.bincount(ids.ravel())
    pairs = []
    for i, tile in enumerate(found):
        xs, ys = tile.pixels(ids.shape).astype(np.int32).T
        inside = np.bincount(ids[ys, xs], minlength=len(areas))
        for k in (np.flatnonzero(inside[1:]) + 1).tolist():
            inter = int(inside[k])
            pairs.append((inter / (len(xs) + int(areas[k]) - inter), i, k))
    used_found, used_truth, overlaps = set(), set(), []
    for iou, i, k in sorted(pairs, reverse=True):
        if iou >= MATCH_IOU and i not in used_found and k not in used_truth:
            used_found.add(i)
            used_truth.add(k)
            overlaps.append(iou)
    return overlaps
