"""Tiles lying on a bare table, found by their bodies' colour: where each tile lies on the photo.

A set's tiles share one body colour (ivory, white, cream...), plain and smooth, unlike the table
around them, and each tile's body is ringed by its darker rim and contact shadow, so tiles lying
side by side or edge to edge stay apart. Stages (one function each):

1. The light on the table and the table's colour under it (vision.table.table_light, learned
   from the photo's border ring and then the whole table); the photo relit evenly, so that one
   colour model holds for every tile wherever it lies; the table's colour over OpenCV 8-bit Lab
   from the pixels within TABLE_SIGMAS of it (``table_model``: the border ring alone, where the
   table shows no pixel apart from the light).
2. ``body_models``: the body colour from the smooth pixels far from the table (TABLE_SIGMAS), the
   cluster around their median or one of their k-means centres (BODY_NEAR, BODY_COLOURS);
   ``find_bodies`` keeps the median's where its mask (step 3) has a region shaped like one tile,
   otherwise the one whose mask has the most area in such regions.
3. ``find_bodies``: the body mask (within BODY_SIGMAS of the body colour, far from the table)
   with the print beside it (not the body's rim in shade nor a shadow on the table: a Super
   Wild's ring would cut its body in pieces), cut into connected regions; each region filled
   and counted in tiles by its area over a tile's: the median area of the regions shaped like
   one tile (TILE_ASPECT, TILE_FILL); where every tile touches another, of the body's own regions
   (the print and the rims between tiles left out) shaped so; of every region where none is
   (tiles still touching make one region twice as large, split by k-means on its pixels, or where
   k-means makes no part shaped like a tile, a row bent at its Super Wild or a cross, by tile-sized
   rectangles laid in it one by one, ``LAID_COVER``); pieces of less than half a tile are joined
   with the pieces near them where together they make one tile, or dropped; what is not table
   beyond the bodies found, its holes filled (a Super Wild's ring or face; not a tile found that
   the rims and sides around it ring), in regions of at least half a tile, is counted in tiles
   the same way (a tile whose body is unlike the others', a Super Wild on a tinted body).
   A region whose outline is no sharper than the table's own texture (``_edge_test``: a blotch
   of the cloth's pattern, a pool of light; a tile's rim and shadow are edges) holds no tile.

Constants were chosen on rendered TRAIN-style tables (vision.sim.table_shots, split "train").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from vision.table.errors import TableError
from vision.table.table_light import table_light

#: Width of the border ring the table is learned from, as a share of the photo's short side.
TABLE_RING = 0.05
#: A pixel further than this (Mahalanobis distance) from the table's colour, the light taken out
#: (vision.table.table_light), is not table.
TABLE_SIGMAS = 4.0
#: Added to a colour model's covariance (Lab units squared): a floor on its spread (noise).
COLOUR_FLOOR = 4.0
#: A pixel is smooth when its lightness gradient (Sobel, 8-bit L units) is below this.
SMOOTH_GRADIENT = 20.0
#: The body colour is learned from the smooth non-table pixels within this Lab distance of their
#: median (the body, not the print or the rims).
BODY_NEAR = 20.0
#: The smooth non-table pixels are split into this many colours (k-means) to find the body's: the
#: tiles, a patch of the table lighter than the rest, a tile's rim in shade.
BODY_COLOURS = 3
#: A pixel within this Mahalanobis distance of the body colour is body.
BODY_SIGMAS = 3.5
#: Rim and shade: within RIM_CHROMA (OpenCV 8-bit a, b) of the body's chroma and at least
#: RIM_LIGHT of its lightness, or within RIM_CHROMA of the table's chroma (a shadow); print (a
#: ring, a digit) is coloured or darker. Print within NEAR_BODY_PX of body is part of the tile.
#: Chosen on TRAIN-style tables (bench/bench_table.py --split train --seed 0 --tables 60
#: --game superwild --photos: per-tile error rendered / real crops): (NEAR_BODY_PX, RIM_CHROMA)
#: (1, 10) 8.5 / 6.8%, (2, 10) 9.2 / 17.3%, (2, 20) 4.9 / 5.6%, (2, 30) 9.0 / 5.4%, (3, 20)
#: 5.1 / 4.7%; without print 10.1 / 5.4% (the Super Wild's ring cuts its body in pieces).
RIM_CHROMA = 20.0
RIM_LIGHT = 0.6
NEAR_BODY_PX = 3
#: What is not table beyond the bodies found is opened over this share of a tile's side (the
#: square root of its area): a rim or a contact shadow is thinner, a tile is not.
UNLIKE_OPEN = 0.3
#: Regions smaller than this many pixels are specks, not counted when measuring a tile's area.
MIN_REGION_PX = 60
#: A region is one tile's when it is a rectangle of this aspect (long side over short): a 3:4 tile
#: is 1.33, two side by side 1.5 and more with the gap between them, a column of two 2.7, a Super
#: Wild's ring cut out of its body 1.
TILE_ASPECT: tuple[float, float] = (1.15, 1.45)
#: ... filling at least this share of its smallest bounding rectangle (a tile with rounded corners
#: about 0.95, two tiles joined in an L 0.75).
TILE_FILL = 0.85
#: A region of less than this share of a tile's area is no tile.
MIN_TILE_SHARE = 0.5
#: Touching tiles that k-means cannot part are laid in their region as rectangles of a tile's
#: size where a tile's core (this share of its sides, inside its rims) is covered at least
#: LAID_COVER (more than half: what is left beside a tile laid is no tile). Not swept: on
#: TRAIN-style tables (vision.sim.table_shots seeds 6500..6799, split "train") the finder missed
#: 5 of 3885 tiles before, 2 with them (3 rows bent at their Super Wild read whole again).
LAID_CORE = 0.85
LAID_COVER = 0.6
#: A tile's outline is an edge (its rim, its shadow), a blotch of the cloth or a pool of light
#: shades into the table: a region holds tiles where the lightness gradient along its outline (its
#: OUTLINE_QUANTILE, each point taking the most within OUTLINE_PX) is at least OUTLINE_SHARPNESS
#: times the table's own (the same over its pixels: its texture and noise). On TRAIN-style tables
#: (vision.sim.table_shots seeds 6000..6099 and 6640..6699, split "train", 1918 regions holding a
#: tile; seeds 6000..6059 with train/ photo crops, 687) that ratio is at least 3.5 rendered and 4.1
#: from photos, and at most 2.2 on the regions that are blotches of the cloth.
OUTLINE_SHARPNESS = 2.5
OUTLINE_QUANTILE = 75
OUTLINE_PX = 2


class TableFindError(TableError):
    """A photo the table finder cannot search (not BGR uint8, too small, or no tile colour apart
    from the table); the message says which."""


@dataclass(frozen=True, slots=True)
class Body:
    """One tile's body as found (photo pixels, x right, y down).

    Attributes:
        centre: (x, y) of the body's centroid.
        area: its area with the print inside it, pixels.
        points: float32 [n, 2] (x, y) of its pixels (filled).
        contour: float32 [m, 2] its outline, in order.
    """

    centre: tuple[float, float]
    area: float
    points: np.ndarray
    contour: np.ndarray


@dataclass(frozen=True, slots=True)
class ColourModel:
    """A Gaussian colour model over OpenCV 8-bit Lab: mean float [3], inverse covariance [3, 3]."""

    mean: np.ndarray
    inverse: np.ndarray

    def distance(self, lab: np.ndarray) -> np.ndarray:
        """Mahalanobis distance of every pixel (float32 H x W x 3 Lab) to the model (H x W)."""
        d = lab - self.mean.astype(np.float32)
        return np.sqrt(np.sum((d @ self.inverse.astype(np.float32)) * d, axis=-1))


def light_gradient(lab: np.ndarray) -> np.ndarray:
    """The lightness gradient's magnitude (float32 H x W, 8-bit L units per pixel; 3 x 3 Sobel) of
    ``lab`` (float32 H x W x 3 OpenCV Lab)."""
    light = lab[..., 0]
    return np.hypot(cv2.Sobel(light, cv2.CV_32F, 1, 0), cv2.Sobel(light, cv2.CV_32F, 0, 1))


def colour_model(pixels: np.ndarray) -> ColourModel:
    """The Gaussian colour model of ``pixels`` (float32 [n, 3], Lab), its spread floored by COLOUR_FLOOR."""
    cov = np.cov(pixels.T.astype(np.float64)) + COLOUR_FLOOR * np.eye(3)
    return ColourModel(pixels.mean(axis=0).astype(np.float64), np.linalg.inv(cov))


def table_model(lab: np.ndarray) -> ColourModel:
    """The table's colour from the photo's border ring (TABLE_RING) of ``lab`` (float32 H x W x 3)."""
    h, w = lab.shape[:2]
    b = max(2, round(TABLE_RING * min(h, w)))
    ring = np.ones((h, w), bool)
    ring[b:-b, b:-b] = False
    return colour_model(lab[ring])


def body_models(lab: np.ndarray, not_table: np.ndarray) -> Iterator[ColourModel]:
    """Candidate models of the tiles' body colour from the smooth pixels of ``not_table`` (bool
    H x W): the pixels within BODY_NEAR of their median, then of each of their BODY_COLOURS
    k-means centres (a patch of the table lighter than the rest may outnumber the tiles; the
    median is kept where it makes a tile-shaped region, since a tighter cluster may leave out a
    tile in shade). Given one by one: the k-means runs only when a model beyond the median's is
    asked for.

    Raises:
        TableFindError: too few smooth pixels apart from the table (when the first is asked for).
    """
    pixels = lab[not_table & (light_gradient(lab) < SMOOTH_GRADIENT)]
    if len(pixels) < MIN_REGION_PX:
        raise TableFindError("nothing on the table stands apart from its colour")
    given = 0
    for centre in _body_centres(pixels):
        near = pixels[np.linalg.norm(pixels - centre, axis=1) < BODY_NEAR]
        if len(near) >= MIN_REGION_PX:
            given += 1
            yield colour_model(near)
    if not given:
        yield colour_model(pixels)


def _body_centres(pixels: np.ndarray) -> Iterator[np.ndarray]:
    """The candidate body colours of ``pixels`` (float32 [n, 3], Lab): their median, then their
    BODY_COLOURS k-means centres (computed only when asked for)."""
    yield np.median(pixels, axis=0)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(0)  # the same photo gives the same colours
    _, _, centres = cv2.kmeans(pixels, min(BODY_COLOURS, len(pixels)), np.zeros(0), criteria, 2,
                               cv2.KMEANS_PP_CENTERS)
    yield from centres


def find_bodies(image: np.ndarray) -> list[Body]:
    """Find every tile's body on a photo of tiles lying on a bare table.

    Args:
        image: BGR uint8, H x W x 3 (at least 64 px each way), the table filling the photo's border.

    Returns:
        one body per tile found, largest regions first.

    Raises:
        TableFindError: not a BGR uint8 photo of at least 64 x 64 px, or nothing apart from the table.
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8 or min(image.shape[:2]) < 64:
        raise TableFindError(f"expected a BGR uint8 H x W x 3 photo of at least 64 px, "
                             f"got {image.dtype} {image.shape}")
    light = table_light(image)
    lab = cv2.cvtColor(light.relit(image), cv2.COLOR_BGR2Lab).astype(np.float32)
    not_table = light.distance(image) > TABLE_SIGMAS
    table = colour_model(lab[~not_table]) if (~not_table).sum() >= MIN_REGION_PX else table_model(lab)
    models = body_models(lab, not_table)
    body, regions, shaped = _tile_mask(lab, next(models), table, not_table)
    if not shaped:  # the median colour makes no tile: the colour whose mask has most tile in it
        masks = [(body, regions, shaped), *(_tile_mask(lab, m, table, not_table) for m in models)]
        body, regions, shaped = max(masks, key=lambda m: sum(m[2]))
    if not regions:
        return []
    areas = np.array([cv2.contourArea(c) for c in regions])
    alone = regions if shaped else _regions(body)
    shaped = shaped or _shaped_areas(alone)
    unit = float(np.median(shaped if shaped else areas))
    sides = _tile_sides(alone, unit)
    is_edge = _edge_test(lab, not_table)
    bodies: list[Body] = []
    pieces = []
    for contour, area in sorted(zip(regions, areas, strict=True), key=lambda ca: -ca[1]):
        if not is_edge(contour):
            continue
        count = math.floor(area / unit + 1 - MIN_TILE_SHARE)  # whole tiles, a half counted up
        if count < 1:
            pieces.append(contour)
        else:
            bodies.extend(_counted(contour, count, sides))
    bodies += _joined(pieces, unit)
    return bodies + _unlike_bodies(not_table, bodies, unit, sides, is_edge)


def _edge_test(lab: np.ndarray, not_table: np.ndarray) -> Callable[[np.ndarray], bool]:
    """Whether a region's outline (a contour, int [m, 1, 2] x, y) is an edge against the table's
    texture (OUTLINE_SHARPNESS), from the photo relit (``lab``: float32 H x W x 3 OpenCV Lab) and
    its pixels that are not table (bool H x W)."""
    if not_table.all():
        return lambda contour: True
    side = 2 * OUTLINE_PX + 1
    edges = cv2.dilate(light_gradient(lab), np.ones((side, side), np.uint8))
    least = OUTLINE_SHARPNESS * float(np.percentile(edges[~not_table], OUTLINE_QUANTILE))
    h, w = not_table.shape

    def is_edge(contour: np.ndarray) -> bool:
        x, y = contour.reshape(-1, 2).T
        along = edges[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)]
        return float(np.percentile(along, OUTLINE_QUANTILE)) >= least

    return is_edge


def _tile_mask(
    lab: np.ndarray, colour: ColourModel, table: ColourModel, not_table: np.ndarray
) -> tuple[np.ndarray, list[np.ndarray], list[float]]:
    """For one body colour: its body pixels (bool H x W: within BODY_SIGMAS of it, not table),
    the regions of body with the print beside it, and the areas of those shaped like one tile."""
    body = (colour.distance(lab) < BODY_SIGMAS) & not_table
    regions = _regions(body | (_print(lab, colour, table, not_table & ~body) & _near(body)))
    return body, regions, _shaped_areas(regions)


def _unlike_bodies(
    not_table: np.ndarray, bodies: list[Body], unit: float, sides: tuple[float, float],
    is_edge: Callable[[np.ndarray], bool],
) -> list[Body]:
    """Tiles whose body is unlike the others' (a Super Wild on a tinted body, a tile shaded or
    tinted by its style): what is not table (bool H x W) beyond the ``bodies`` found and
    NEAR_BODY_PX around them, opened over UNLIKE_OPEN of a tile's side (the rims and shadows
    along the tiles found are thinner), in regions of at least half a tile's area ``unit`` whose
    outline ``is_edge``, counted in tiles as the bodies are. The reader drops what is no tile."""
    found = np.zeros(not_table.shape, np.uint8)
    for body in bodies:
        found[body.points[:, 1].astype(int), body.points[:, 0].astype(int)] = 1
    taken = _near(found > 0)
    rest = (not_table & ~taken).astype(np.uint8)
    outside = np.pad(rest, 1)
    cv2.floodFill(outside, None, (0, 0), 1)  # the table reached from the photo's edge
    # holes: print inside a tile (a ring, a face) is the tile's; a tile found inside a ring of
    # rims and sides stays found
    rest |= (outside[1:-1, 1:-1] == 0) & ~taken
    side = max(3, round(UNLIKE_OPEN * math.sqrt(unit)) | 1)
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    contours, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out: list[Body] = []
    for contour in contours:
        count = math.floor(cv2.contourArea(contour) / unit + 1 - MIN_TILE_SHARE)
        if count >= 1 and is_edge(contour):
            out.extend(_counted(contour, count, sides))
    return out


def _regions(mask: np.ndarray) -> list[np.ndarray]:
    """The outer contours of a mask's (bool or uint8 H x W) regions of at least MIN_REGION_PX."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return [c for c in contours if cv2.contourArea(c) >= MIN_REGION_PX]


def _shaped_areas(regions: list[np.ndarray]) -> list[float]:
    """The areas (pixels) of the regions shaped like one tile."""
    return [cv2.contourArea(c) for c in regions if _is_tile_shaped(c)]


def _is_tile_shaped(contour: np.ndarray) -> bool:
    """Whether a region looks like one tile: a rectangle (it fills at least TILE_FILL of its
    smallest bounding rectangle) of a tile's aspect (TILE_ASPECT)."""
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    if min(w, h) <= 0:
        return False
    return (TILE_ASPECT[0] <= max(w, h) / min(w, h) <= TILE_ASPECT[1]
            and cv2.contourArea(contour) >= TILE_FILL * w * h)


def _print(lab: np.ndarray, colour: ColourModel, table: ColourModel, other: np.ndarray) -> np.ndarray:
    """Which of the ``other`` pixels (bool H x W: neither table nor body) are print, not the rim
    and shade that part one tile from the next: the rim is the body's colour in shade (its
    chroma within RIM_CHROMA of the body's, its lightness at least RIM_LIGHT of the body's), a
    shadow the table's chroma."""
    rim = (_chroma_apart(lab, colour) < RIM_CHROMA) & (lab[..., 0] > RIM_LIGHT * colour.mean[0])
    return other & ~rim & (_chroma_apart(lab, table) >= RIM_CHROMA)


def _chroma_apart(lab: np.ndarray, colour: ColourModel) -> np.ndarray:
    return np.hypot(lab[..., 1] - colour.mean[1], lab[..., 2] - colour.mean[2])


def _near(body: np.ndarray) -> np.ndarray:
    """Pixels within NEAR_BODY_PX of body pixels (bool H x W)."""
    side = 2 * NEAR_BODY_PX + 1
    return cv2.dilate(body.astype(np.uint8), np.ones((side, side), np.uint8)) > 0


def _joined(pieces: list[np.ndarray], unit: float) -> list[Body]:
    """Pieces of less than a tile (a body cut by a ring of print reaching its rim: the Super
    Wild's) joined with the pieces near them (within a tile's side, ``sqrt(unit)``) into one tile
    where their hull is a tile's area (within MIN_TILE_SHARE of ``unit`` either way)."""
    if not pieces:
        return []
    centres = np.array([c.reshape(-1, 2).mean(axis=0) for c in pieces])
    near = np.linalg.norm(centres[:, None] - centres[None], axis=2) < math.sqrt(unit)
    group = list(range(len(pieces)))
    for i, j in zip(*np.nonzero(near), strict=True):
        gi, gj = group[i], group[j]
        group = [gi if g == gj else g for g in group]
    out = []
    for g in sorted(set(group)):
        hull = cv2.convexHull(np.vstack([pieces[i] for i in range(len(pieces)) if group[i] == g]))
        if abs(cv2.contourArea(hull) / unit - 1) <= MIN_TILE_SHARE:
            out.extend(_split(hull, 1))
    return out


def _tile_sides(regions: list[np.ndarray], unit: float) -> tuple[float, float]:
    """A tile's long and short sides (pixels): the medians of the regions shaped like one tile,
    else those of a rectangle of ``unit`` area at the middle of TILE_ASPECT."""
    rects = [cv2.minAreaRect(c)[1] for c in regions if _is_tile_shaped(c)]
    if rects:
        return float(np.median([max(r) for r in rects])), float(np.median([min(r) for r in rects]))
    aspect = float(np.mean(TILE_ASPECT))
    return math.sqrt(unit * aspect), math.sqrt(unit / aspect)


def _counted(contour: np.ndarray, count: int, sides: tuple[float, float]) -> list[Body]:
    """A region of ``count`` tiles by its area as its tiles: its k-means clusters of pixels
    (:func:`_split`), unless none of them is shaped like one tile (the region's tiles are no
    compact blobs, a row bent at the Super Wild or a cross; or a tile of another body colour
    is half in it), then tile-sized rectangles laid in it (:func:`_laid`) where they find at
    least ``count`` tiles (what they leave of a tile of another colour is found with those)."""
    split = _split(contour, count)
    if any(_is_tile_shaped(b.contour) for b in split):
        return split
    laid = _laid(contour, sides)
    return laid if len(laid) >= count else split


def _laid(contour: np.ndarray, sides: tuple[float, float]) -> list[Body]:
    """A filled region of touching tiles as its tiles: tile-sized rectangles (``sides``: long,
    short) at the region's turn (its smallest bounding rectangle's), either way round, laid one at
    a time where one's core (LAID_CORE of its sides) is most covered by the region not yet laid
    on (the rims between tiles cut notches into it), while that is at least LAID_COVER."""
    long, short = sides
    reach = int(math.ceil(long))
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = x - reach, y - reach
    inside = np.zeros((h + 2 * reach, w + 2 * reach), np.uint8)
    cv2.drawContours(inside, [contour - [x0, y0]], -1, 1, -1)
    left = inside.astype(np.float32)
    angle = cv2.minAreaRect(contour)[2]
    cores = [_rectangle(LAID_CORE * long, LAID_CORE * short, angle + turn) for turn in (0.0, 90.0)]
    out: list[Body] = []
    while True:
        cover = np.stack([cv2.filter2D(left, -1, core, borderType=cv2.BORDER_CONSTANT) for core in cores])
        way, cy, cx = np.unravel_index(int(np.argmax(cover)), cover.shape)
        if cover[way, cy, cx] < LAID_COVER:
            return out
        corners, footprint = _box(inside.shape, (float(cx), float(cy)), (long, short), angle + 90.0 * way)
        ys, xs = np.nonzero(footprint & inside)
        left[footprint > 0] = 0
        if len(xs):
            points = np.column_stack([xs + x0, ys + y0]).astype(np.float32)
            outline = (corners + [x0, y0]).astype(np.float32)
            out.append(Body(_mean(points), float(len(points)), points, outline))


def _rectangle(long: float, short: float, angle: float) -> np.ndarray:
    """A filled rectangle (long x short pixels, turned by ``angle`` degrees as cv2.boxPoints turns
    it) as a float32 kernel summing to 1, its middle at the kernel's."""
    side = int(math.ceil(math.hypot(long, short))) | 1
    _, kernel = _box((side, side), (side // 2, side // 2), (long, short), angle)
    return (kernel / max(int(kernel.sum()), 1)).astype(np.float32)


def _box(
    shape: tuple[int, ...], centre: tuple[float, float], size: tuple[float, float], angle: float
) -> tuple[np.ndarray, np.ndarray]:
    """A rectangle (``size`` pixels about ``centre``, turned by ``angle`` degrees as cv2.boxPoints
    turns it): its corners (float32 [4, 2]) and its pixels filled on a uint8 canvas of ``shape``."""
    corners = cv2.boxPoints((centre, size, angle))
    canvas = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(canvas, np.round(corners).astype(np.int32), 1)
    return corners, canvas


def _split(contour: np.ndarray, count: int) -> list[Body]:
    """A filled region as ``count`` tiles: itself, or its k-means clusters of pixels."""
    x, y, w, h = cv2.boundingRect(contour)
    filled = np.zeros((h, w), np.uint8)
    cv2.drawContours(filled, [contour - [x, y]], -1, 1, -1)
    ys, xs = np.nonzero(filled)
    points = np.column_stack([xs + x, ys + y]).astype(np.float32)
    if count == 1:
        outline = contour.reshape(-1, 2).astype(np.float32)
        return [Body(_mean(points), float(len(points)), points, outline)]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    cv2.setRNGSeed(0)  # the same photo gives the same tiles
    _, labels, _ = cv2.kmeans(points, count, np.zeros(0), criteria, 3, cv2.KMEANS_PP_CENTERS)
    out = []
    for k in range(count):
        part = points[labels.ravel() == k]
        part_mask = np.zeros((h, w), np.uint8)
        part_mask[part[:, 1].astype(int) - y, part[:, 0].astype(int) - x] = 1
        found, _ = cv2.findContours(part_mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        largest = max(found, key=cv2.contourArea).reshape(-1, 2).astype(np.float32) + [x, y]
        out.append(Body(_mean(part), float(len(part)), part, largest.astype(np.float32)))
    return out


def _mean(points: np.ndarray) -> tuple[float, float]:
    cx, cy = points.mean(axis=0)
    return float(cx), float(cy)
