"""Finding and reading Rummikub-like tiles lying loose anywhere in a photo, at any rotation.

Stages (one function each):

1. ``surface_mask`` (vision/surface.py): which pixels look like the tiles' body, from a colour
   lookup table over OpenCV Lab learned on the labelled photos' train/ split
   (vision/models/tile_surface_lut.npz); tiles touching each other make one region, filled to
   its convex hull when it is compact.
2. ``find_glyphs``: ink on those regions (vision/glyphs.py: far from the region's body colour),
   cut into connected components, kept when mostly surrounded by tile body, and grouped into
   faces (the two digits of "12", the parts of a joker's face inside its ring; a component far
   bigger than a glyph, such as a rack, encloses nothing). Every face is one tile.
3. Each tile's outline is the part of its region nearer to its face than to any other face.
4. The tile reader (vision/tile_reader.py, the same reader the board uses) reads each face at
   every candidate rotation; a face read as "none" there is read again at every twelfth of a
   turn (its outline may be wrong), its broken strokes joined when its ink is weak, and dropped
   (a logo, a scratch) unless it is then read as a face with confidence >= RETRY_CONFIDENCE.
   Specks beside a surely read face (SPECK_SHARE) are dropped too. The ink colour is the
   likeliest of the learned ink colours (black, blue, orange, red; vision/models/ink_colours.npz).
5. The faces read with confidence >= SEED_CONFIDENCE teach the photo's own body colour
   (``photo_surface``: the cream of this set in this light, not the white table beside it); the
   regions of that surface the table's lacked are searched again (stages 2-4) and the faces
   found there, away from those already read, are added.

Run ``python -m vision.loose_tiles PHOTO`` to print what it finds.
"""

from __future__ import annotations

import functools
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from vision.glyphs import ink_map
from vision.surface import (
    Surface,
    SurfaceTableError,
    new_regions,
    photo_surface,
    surface_lut,
    surface_mask,
    working_image,
)
from vision.tile_reader import NOT_A_FACE, FaceReading, GlyphInput, TileReader

#: Ink map level above which a pixel is ink.
INK_LEVEL = 0.5

#: A component encloses another (a joker's ring its face, a "0" a stain) only when it is at most
#: this many times its size; a bigger one (a rack, a table's edge) groups nothing.
ENCLOSE_RATIO = 8.0

#: Two components that nearly touch are digits of one face only when their centres are less than
#: this many times the smaller one's size apart (digits on neighbouring tiles, or a digit and the
#: long shadow between two tiles, are further apart).
GROUP_REACH = 1.8

#: Ink smaller than SPECK_SHARE times a face near it (within SPECK_REACH times that face's size,
#: in the same region) that reads as a face at least SPECK_BESIDE sure is a speck beside that
#: face (a letter of the maker's logo, a chip of the tile's edge), not a tile of its own.
SPECK_SHARE = 0.5
SPECK_REACH = 2.0
SPECK_BESIDE = 0.8

#: A face whose ink's 90th percentile is under WEAK_INK (pale orange on cream) has its broken
#: strokes joined before it is read again: the ink near it above WEAK_SHARE of that level.
WEAK_INK = 0.8
WEAK_SHARE = 0.6

#: A face the reader calls "none" at its tile's candidate rotations is read again at every
#: twelfth of a turn (its outline may be wrong: touching tiles, a region spilling onto the
#: table); the reading is kept when it is a face at least this sure.
RETRY_CONFIDENCE = 0.7


#: A face read with at least this confidence teaches the photo's own body colour.
SEED_CONFIDENCE = 0.9

#: A face found on the photo's own surface is at the place of a face already read when their
#: ink centres are less than this many times its size apart.
SAME_PLACE = 1.2


class LooseTileError(ValueError):
    """A photo that cannot be searched for tiles (names the input)."""


@dataclass(frozen=True, slots=True)
class LooseTile:
    """One tile found in a photo.

    Attributes:
        face: "1".."13" or "joker" for a Rummikub set (any tile-reader face in general).
        colour: the ink colour name ("black", "blue", "orange", "red"), "" when unknown.
        confidence: the face reading's confidence, 0..1.
        corners: four (x, y) corners of the tile in photo pixels.
        center: (x, y) of the tile's centre in photo pixels.
        up: unit (x, y) vector pointing to the top of the face in the photo.
    """

    face: str
    colour: str
    confidence: float
    corners: tuple[tuple[float, float], ...]
    center: tuple[float, float]
    up: tuple[float, float]

    def __post_init__(self) -> None:
        if len(self.corners) != 4:
            raise ValueError(f"a tile has 4 corners, got {len(self.corners)}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be 0..1, got {self.confidence}")


@dataclass(frozen=True, slots=True)
class _Face:
    """A group of ink components (full-resolution photo pixels)."""

    points: np.ndarray  # float32 [N, 2] (x, y)
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)
    region: int  # index of the surface region holding it
    body: np.ndarray  # float32 [3], the region's body colour (OpenCV 8-bit Lab)
    gain: float = 1.0  # the face's ink is read as ink x gain (weak ink made as strong as black)


@dataclass(frozen=True, slots=True)
class FoundFace:
    """A face read as a tile (full-resolution photo pixels).

    Attributes:
        points: float32 (shape: [N, 2]) the (x, y) of its ink pixels.
        size: the long side of its ink's box, in pixels.
        reading: the tile reader's reading of it.
        outline: float32 (shape: [4, 2]) the (x, y) corners of its tile.
        ink_lab: its ink colour relative to its tile's body (:func:`ink_colour`), float32 [3].
    """

    points: np.ndarray
    size: float
    reading: FaceReading
    outline: np.ndarray
    ink_lab: np.ndarray


def find_glyphs(image: np.ndarray, body: np.ndarray, regions: np.ndarray, body_lab: np.ndarray
                ) -> tuple[np.ndarray, list[_Face]]:
    """Ink on the tile regions, grouped into faces.

    Args:
        image: the photo, BGR uint8, H x W x 3.
        body, regions, body_lab: from :func:`surface_mask` at the small scale.

    Returns:
        (ink, faces): the float32 ink map (H x W, 0 outside the regions) and the faces found.
    """
    h, w = image.shape[:2]
    regions_full = cv2.resize(regions, (w, h), interpolation=cv2.INTER_NEAREST)
    body_full = cv2.resize(body, (w, h), interpolation=cv2.INTER_NEAREST)
    lab_full = cv2.resize(body_lab, (w, h), interpolation=cv2.INTER_NEAREST)
    ink = np.zeros((h, w), np.float32)
    x, y, bw, bh = cv2.boundingRect((regions_full > 0).astype(np.uint8))
    if bw == 0:
        return ink, []
    box = (slice(y, y + bh), slice(x, x + bw))  # the ink map of the regions' box alone: faster
    ink[box] = ink_map(image[box], lab_full[box]) * (regions_full[box] > 0)
    n, labels, stats, _ = cv2.connectedComponentsWithStats((ink > INK_LEVEL).astype(np.uint8))
    body_sum = cv2.integral(body_full)
    region_sum = cv2.integral((regions_full > 0).astype(np.uint8))
    comps = []
    for i in range(1, n):
        x, y, cw, ch, area = (int(v) for v in stats[i])
        if area < 12 or max(cw, ch) < 6 or max(cw, ch) > 8 * min(cw, ch) or area < 0.2 * cw * ch:
            continue
        # the frame around the component must be mostly tile: body, or the face's tinted disc
        r = max(2, int(0.3 * max(cw, ch)))
        outer = (max(0, x - r), max(0, y - r), min(w, x + cw + r), min(h, y + ch + r))
        inner = (x, y, x + cw, y + ch)
        frame = _box_sum(np.ones((1, 1)), outer, inner, count=True)
        if (_box_sum(body_sum, outer, inner) < 0.25 * frame
                or _box_sum(region_sum, outer, inner) < 0.85 * frame):
            continue
        comps.append((x, y, cw, ch, i))
    groups = _group(comps)
    faces = []
    for members in groups:
        x0 = min(c[0] for c in members)
        y0 = min(c[1] for c in members)
        x1 = max(c[0] + c[2] for c in members)
        y1 = max(c[1] + c[3] for c in members)
        ids = [c[4] for c in members]
        ys, xs = np.nonzero(np.isin(labels[y0:y1, x0:x1], ids))
        points = np.stack([xs + x0, ys + y0], axis=1).astype(np.float32)
        cx, cy = points.mean(axis=0)
        faces.append(_Face(points, (x0, y0, x1, y1), int(regions_full[int(cy), int(cx)]),
                           lab_full[int(cy), int(cx)].copy()))
    return ink, faces


def _box_sum(integral: np.ndarray, outer: tuple[int, int, int, int], inner: tuple[int, int, int, int],
             count: bool = False) -> float:
    """Sum of an integral image over ``outer`` less ``inner`` (boxes x0, y0, x1, y1); with
    ``count``, the number of pixels in that frame."""
    def box(b: tuple[int, int, int, int]) -> float:
        x0, y0, x1, y1 = b
        if count:
            return float((x1 - x0) * (y1 - y0))
        return float(integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0])
    return box(outer) - box(inner)


def _group(comps: list[tuple[int, int, int, int, int]]) -> list[list[tuple[int, int, int, int, int]]]:
    """Union components of similar height that nearly touch with their centres near
    (``GROUP_REACH``), or that enclose one another (``ENCLOSE_RATIO``)."""
    parent = list(range(len(comps)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, (xa, ya, wa, ha, _) in enumerate(comps):
        for b in range(a + 1, len(comps)):
            xb, yb, wb, hb, _ = comps[b]
            encloses = ((xa <= xb and ya <= yb and xa + wa >= xb + wb and ya + ha >= yb + hb) or
                        (xb <= xa and yb <= ya and xb + wb >= xa + wa and yb + hb >= ya + ha)) \
                and max(ha, hb, wa, wb) < ENCLOSE_RATIO * min(max(ha, wa), max(hb, wb))
            if not encloses and not 0.55 < hb / ha < 1.8:
                continue
            gap = max(max(xa, xb) - min(xa + wa, xb + wb), max(ya, yb) - min(ya + ha, yb + hb), 0)
            apart = np.hypot(xa + wa / 2 - xb - wb / 2, ya + ha / 2 - yb - hb / 2)
            near = apart < GROUP_REACH * min(max(ha, wa), max(hb, wb))
            if gap < 0.6 * max(ha, hb) and (encloses or near):
                parent[root(a)] = root(b)
    groups: dict[int, list[tuple[int, int, int, int, int]]] = {}
    for i, c in enumerate(comps):
        groups.setdefault(root(i), []).append(c)
    return list(groups.values())


def _strengthen(ink: np.ndarray, face: _Face) -> _Face:
    """A face of weak ink (its 90th percentile under ``WEAK_INK``: pale orange on cream) with
    the broken parts of its strokes joined: the pixels near it above ``WEAK_SHARE`` of its
    level that connect to its ink, read with the gain that makes its level 1."""
    xs, ys = face.points[:, 0].astype(int), face.points[:, 1].astype(int)
    level = float(np.percentile(ink[ys, xs], 90))
    if level >= WEAK_INK:
        return face
    h, w = ink.shape
    x0, y0, x1, y1 = face.box
    m = max(2, int(0.2 * max(x1 - x0, y1 - y0)))
    ox, oy = max(0, x0 - m), max(0, y0 - m)
    window = ink[oy:min(h, y1 + m), ox:min(w, x1 + m)]
    _, labels = cv2.connectedComponents((window > WEAK_SHARE * level).astype(np.uint8))
    seeds = np.unique(labels[ys - oy, xs - ox])
    py, px = np.nonzero(np.isin(labels, seeds[seeds > 0]))
    points = np.stack([px + ox, py + oy], axis=1).astype(np.float32)
    box = (int(px.min()) + ox, int(py.min()) + oy, int(px.max()) + ox + 1, int(py.max()) + oy + 1)
    return _Face(points, box, face.region, face.body, 1.0 / level)


def _specks(faces: list[_Face], readings: list[FaceReading]) -> np.ndarray:
    """Which faces (bool, shape: [len(faces)]) are specks beside a surely read face (sizes are
    the long sides of the ink's rotated boxes; see ``SPECK_SHARE``)."""
    sizes = np.array([max(cv2.minAreaRect(f.points)[1]) for f in faces], np.float32)
    centres = np.array([f.points.mean(axis=0) for f in faces], np.float32)
    regions = np.array([f.region for f in faces])
    real = np.array([r.face != NOT_A_FACE and r.confidence >= SPECK_BESIDE for r in readings])
    dist = np.linalg.norm(centres[:, None] - centres[None], axis=2)  # [i, j]
    return ((regions[:, None] == regions[None]) & (sizes[:, None] < SPECK_SHARE * sizes[None])
            & (dist < SPECK_REACH * sizes[None]) & real[None]).any(axis=1)


def _outlines(faces: list[_Face], regions: np.ndarray, scale: float) -> list[np.ndarray]:
    """Each face's tile outline (4 corners, full-resolution pixels): its share of its region."""
    centres = np.array([f.points.mean(axis=0) for f in faces], np.float32) * scale
    sizes = np.array([max(f.box[2] - f.box[0], f.box[3] - f.box[1]) for f in faces], np.float32) * scale
    outlines: list[np.ndarray] = [np.empty(0)] * len(faces)
    for region in sorted({f.region for f in faces}):
        same = np.array([j for j, f in enumerate(faces) if f.region == region])
        ys, xs = np.nonzero(regions == region)
        pix = np.stack([xs, ys], axis=1).astype(np.float32)
        d = np.linalg.norm(pix[:, None, :] - centres[same][None, :, :], axis=2)
        nearest = np.argmin(d, axis=1)
        for k, i in enumerate(same):
            mine = (nearest == k) & (d[:, k] < 2.6 * sizes[i])
            pts = pix[mine] if mine.sum() >= 5 else faces[i].points * scale
            outlines[i] = cv2.boxPoints(cv2.minAreaRect(pts)) / scale
    return outlines


def glyph_input(ink: np.ndarray, face: _Face, outline: np.ndarray) -> GlyphInput:
    """The tile reader's input for one face: its ink alone in a window around it.

    Args:
        ink: the photo's ink map (H x W float32).
        face: a face from :func:`find_glyphs`.
        outline: float32 (shape: [K, 2]) the tile's outline in photo pixels.
    """
    h, w = ink.shape
    x0, y0, x1, y1 = face.box
    m = max(x1 - x0, y1 - y0)
    ox, oy = max(0, x0 - m), max(0, y0 - m)
    local = np.zeros((min(h, y1 + m) - oy, min(w, x1 + m) - ox), np.float32)
    xs, ys = face.points[:, 0].astype(int), face.points[:, 1].astype(int)
    local[ys - oy, xs - ox] = np.minimum(ink[ys, xs] * face.gain, 1.0)
    return GlyphInput(local, face.points - (ox, oy), (outline - (ox, oy)).astype(np.float32))


def ink_colour(image: np.ndarray, face: _Face, ink: np.ndarray) -> np.ndarray:
    """The face's ink colour relative to its tile's body: median Lab of the strongest ink less the
    body's Lab (float32, shape: [3]); relative, so that warm or cold light shifts both alike."""
    xs, ys = face.points[:, 0].astype(int), face.points[:, 1].astype(int)
    strong = ink[ys, xs] * face.gain > 0.8
    if strong.sum() >= 5:
        xs, ys = xs[strong], ys[strong]
    lab = np.median(cv2.cvtColor(image[ys, xs][None], cv2.COLOR_BGR2Lab)[0].astype(np.float32), axis=0)
    return lab - face.body


@functools.cache
def _colour_model(path: str) -> dict[str, np.ndarray] | None:
    file = Path(path)
    if not file.is_file():
        return None
    with np.load(file) as data:
        return {k: data[k] for k in ("names", "mean", "inverse", "logdet")}


def colour_name(relative_lab: np.ndarray, colours: dict[str, np.ndarray],
                model_path: Path | None = None) -> str:
    """The ink colour name of a face, from its :func:`ink_colour`.

    The likeliest colour of the Gaussian model trained by bench/train_ink_colours.py
    (vision/models/ink_colours.npz, or ``model_path``); without that file, the nearest of
    ``colours`` (name -> relative Lab, float32 [3]); "" when neither is known.
    """
    model = _colour_model(str(model_path or resources.files("vision") / "models" / "ink_colours.npz"))
    if model is not None:
        d = relative_lab.astype(np.float32) - model["mean"]  # [C, 3]
        score = np.einsum("ci,cij,cj->c", d, model["inverse"], d) + model["logdet"]
        return str(model["names"][int(np.argmin(score))])
    if not colours:
        return ""
    return min(colours, key=lambda name: float(np.linalg.norm(colours[name] - relative_lab)))


def _retry_none(reader: TileReader, ink: np.ndarray, faces: list[_Face], readings: list[FaceReading],
                allowed: frozenset[str] | None) -> tuple[list[_Face], list[FaceReading]]:
    """``faces`` and ``readings`` with each "none" read again, its weak ink strengthened
    (:func:`_strengthen`), at every twelfth of a turn (no outline), by the classifier alone (no
    tesseract: a retry must be sure on its own); kept when at least ``RETRY_CONFIDENCE`` sure."""
    redo = [i for i, r in enumerate(readings) if r.face == NOT_A_FACE]
    if not redo or not reader.has_model:  # tesseract alone is never that sure
        return faces, readings
    again = [_strengthen(ink, faces[i]) for i in redo]
    loose = [glyph_input(ink, face, np.empty((0, 2), np.float32)) for face in again]
    faces, readings = list(faces), list(readings)
    for i, face, reading in zip(redo, again, reader.read_glyphs(loose, allowed, second_opinion=False),
                                strict=True):
        lone_stroke = face.gain != 1.0 and reading.face == "1"  # as likely a scratch or an edge
        if reading.face != NOT_A_FACE and reading.confidence >= RETRY_CONFIDENCE and not lone_stroke:
            faces[i], readings[i] = face, reading
    return faces, readings


def _read_surface(image: np.ndarray, surface: Surface, scale: float, reader: TileReader,
                  allowed: frozenset[str] | None, known: list[FoundFace]) -> list[FoundFace]:
    """The faces on one surface (at ``scale`` of the photo) read as tiles, less those at the
    place of a ``known`` face (read on an earlier surface, whose reading they keep)."""
    body, regions, body_lab = surface
    ink, faces = find_glyphs(image, body, regions, body_lab)
    readings = _known_readings(faces, known)
    fresh = [i for i, reading in enumerate(readings) if reading is None]
    if not fresh:
        return []
    outlines = _outlines(faces, regions, scale)
    glyphs = [glyph_input(ink, faces[i], outlines[i]) for i in fresh]
    again, read = _retry_none(reader, ink, [faces[i] for i in fresh], reader.read_glyphs(glyphs, allowed),
                              allowed)
    for i, face, reading in zip(fresh, again, read, strict=True):
        faces[i], readings[i] = face, reading
    every = [r for r in readings if r is not None]
    specks = _specks(faces, every)
    return [FoundFace(faces[i].points, _size(faces[i]), every[i], outlines[i],
                      ink_colour(image, faces[i], ink))
            for i in fresh if every[i].face != NOT_A_FACE and not specks[i]]


def _size(face: _Face) -> float:
    """The long side of a face's box, in pixels."""
    x0, y0, x1, y1 = face.box
    return float(max(x1 - x0, y1 - y0))


def _known_readings(faces: list[_Face], known: list[FoundFace]) -> list[FaceReading | None]:
    """For each face, the reading of the known face at its place (``SAME_PLACE``), if any."""
    if not known:
        return [None] * len(faces)
    centres = np.array([other.points.mean(axis=0) for other in known], np.float32)
    readings: list[FaceReading | None] = []
    for face in faces:
        apart = np.linalg.norm(centres - face.points.mean(axis=0), axis=1)
        nearest = int(np.argmin(apart))
        readings.append(known[nearest].reading if apart[nearest] < SAME_PLACE * _size(face) else None)
    return readings


def _body_samples(found: list[FoundFace], body: np.ndarray, scale: float) -> np.ndarray:
    """Where the photo surely shows tile body (uint8 0/1, the shape of ``body``): body pixels
    within a face's size of a face read at least ``SEED_CONFIDENCE`` sure, less its ink."""
    near = np.zeros(body.shape, np.uint8)
    for f in found:
        if f.reading.confidence >= SEED_CONFIDENCE:
            cx, cy = f.points.mean(axis=0) * scale
            cv2.circle(near, (int(cx), int(cy)), max(2, int(f.size * scale)), 1, -1)
    samples = near & body
    for f in found:
        xs, ys = (f.points * scale).astype(int).T
        samples[ys, xs] = 0
    return samples


def read_faces(image: np.ndarray, reader: TileReader, allowed: frozenset[str] | None = None,
               lut_path: Path | None = None) -> list[FoundFace]:
    """Find and read the face of every tile lying face up in a photo (see the module's stages).

    The faces on the lookup table's surface (``surface_mask``) are read first; those read with
    confidence teach the photo's own body colour (``photo_surface``), and the faces on that
    surface not already read are read and added.

    Args:
        image: the photo, BGR uint8, H x W x 3.
        reader: the tile reader.
        allowed: the faces of the tile set (e.g. "1".."13" and "joker"); None allows all.
        lut_path: a tile surface table other than the shipped one.

    Returns:
        the faces read as tiles, in no particular order.

    Raises:
        LooseTileError: for an image that is not BGR uint8 H x W x 3, or a missing surface table.
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8 or min(image.shape[:2]) < 32:
        raise LooseTileError(f"expected a BGR uint8 H x W x 3 photo (>= 32 px), "
                             f"got {image.dtype} {image.shape}")
    try:
        lut = surface_lut(str(lut_path) if lut_path else None)
    except SurfaceTableError as exc:
        raise LooseTileError(str(exc)) from None
    small, scale = working_image(image)
    surface = surface_mask(small, lut)
    first = _read_surface(image, surface, scale, reader, allowed, [])
    refined = photo_surface(small, _body_samples(first, surface[0], scale))
    fresh = None if refined is None else new_regions(refined, surface)
    if fresh is None:
        return first
    return first + _read_surface(image, fresh, scale, reader, allowed, first)


def find_tiles(image: np.ndarray, reader: TileReader, allowed: frozenset[str] | None = None,
               lut_path: Path | None = None) -> list[LooseTile]:
    """Find and read every tile lying face up in a photo, its ink colour named.

    Takes the arguments of :func:`read_faces` and raises its errors (LooseTileError).

    Returns:
        the tiles, in reading order (top to bottom, then left to right).
    """
    tiles = []
    for found in read_faces(image, reader, allowed, lut_path):
        corners = tuple((float(x), float(y)) for x, y in found.outline)
        cx, cy = found.outline.mean(axis=0)
        tiles.append(LooseTile(found.reading.face, colour_name(found.ink_lab, reader.colours),
                               found.reading.confidence, corners, (float(cx), float(cy)),
                               found.reading.up))
    return sorted(tiles, key=lambda t: (round(t.center[1] / 50), t.center[0]))


def main(argv: list[str] | None = None) -> int:
    """Print the tiles found in each photo given on the command line."""
    reader = TileReader()
    for name in argv if argv is not None else sys.argv[1:]:
        image = cv2.imread(name)
        if image is None:
            print(f"{name}: cannot read image", file=sys.stderr)
            return 1
        start = time.perf_counter()
        tiles = find_tiles(image, reader)
        ms = (time.perf_counter() - start) * 1000
        print(f"{name}: {len(tiles)} tiles in {ms:.0f} ms")
        for t in tiles:
            print(f"  {t.face:>6} {t.colour:<7} {t.confidence:.2f} at ({t.center[0]:.0f}, {t.center[1]:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
