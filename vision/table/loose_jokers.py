"""A joker's ring: the thin circle of ink around a Rummikub joker's face, looked for around each
face the tile reader called "none" (a joker's features are small and drawn in thin lines: 15 of
the 38 jokers of the train/ photos were missed so).

A ring is ink at one distance from a centre near the face's, all around it, with clean tile body
just outside it: the share of the ``RING_SECTORS`` directions of a turn that hold ink within
``RING_WIDTH`` of one radius and none in the ``RING_CLEAR`` band beyond. Its radius is a
``RING_RADIUS`` share of the tile's short side (a digit's "0" is far smaller, a tile's edge
bigger) and fits the face inside it (``RING_FACE``).

A small joker's ring with its features, one ink component, reaches nearly to its tile's edge: a
face that only a joker may be (``InkFace.joker_only``, vision/table/loose_glyphs.py). It is joined with
the faces inside it read "none" (its features read on their own) and read again
(``join_features``), and kept only when read as a joker around no face read as one
(``joker_only``).

``JOKER_RING`` was chosen on TRAIN; the ranges of the ring's geometry hold the rings of the
jokers of train/ (given beside each) with a margin; the widths, steps and sizes of the search
were set by hand and not tuned.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.reader.faces import NOT_A_FACE
from vision.reader.glyph_reader import FaceReading, TileReader
from vision.table.loose_glyphs import InkFace, centres_in_boxes, glyph_input, ink_centres
from vision.table.loose_ink import INK_LEVEL

#: A tile is searched for a ring at most this many pixels across (a bigger one shrunk, its thin
#: ring kept: any ink in a shrunk pixel is ink), RING_WIDTH and the ring's least radius counted
#: in those pixels.
RING_PX = 48.0

#: Sectors of a turn in which the ring's ink is looked for.
RING_SECTORS = 32

#: The ring's radius as a share of its tile outline's short side (low, high; the jokers of train/:
#: 0.24..0.35).
RING_RADIUS = (0.2, 0.45)

#: The face's size (its ink's long side: the features inside the ring, or the ring with them) as
#: a multiple of the ring's radius (low, high; the jokers of train/: 1.0..2.1).
RING_FACE = (0.8, 2.3)

#: Ink lies on the ring when within this many pixels of its radius; a ring is at least four times
#: that in radius (a smaller one cannot be told from a blob).
RING_WIDTH = 1.5

#: Outside the ring lies clean tile body, this share of the tile's short side wide (beyond 2.5
#: RING_WIDTH of the radius).
RING_CLEAR = 0.08

#: The ring's centre is searched within this share of the tile's short side of the face's ink
#: centre (its features weigh more above or below), in at most RING_STEPS steps each way.
RING_SHIFT = 0.12
RING_STEPS = 6

#: A ring's window (the ring, the face inside it and the clean band outside) holds ink on at most
#: this share of its pixels (the jokers of train/: 0.08..0.18; denser: fabric, a rack's edge).
RING_DENSE = 0.25

#: A face read as "none" is a joker when this share of the directions around it show its ring.
#: Chosen on TRAIN: 0.80/0.86/0.95 -> recall 1754/1752/1751 of 1790, right faces 1739/1738/1737
#: (at 0.80 a blue 9 is read as a joker; the best non-joker at 27/32, the jokers found at 28..32).
JOKER_RING = 0.86

#: A joker's ring joined with its features (``join_features``) is a joker when read so at least
#: this sure. Chosen on TRAIN, where 3 faces were joined: a joker read as one 0.67 sure (missed
#: before), the others "none" and "13"; 0.3 and 0.5 find the same tiles.
JOIN_CONFIDENCE = 0.5


def ring_cover(ink: np.ndarray, centre: np.ndarray, size: float, outline: np.ndarray) -> float:
    """The share of directions around the best centre near ``centre`` showing a ring of ink.

    Args:
        ink: float32 (H x W) the photo's ink map (ink above ``INK_LEVEL``).
        centre: float (shape: [2]) the face's ink centre (x, y), photo pixels.
        size: the face's size (its ink's long side), pixels.
        outline: float32 (shape: [4, 2]) its tile's corners, photo pixels.

    Returns:
        0..1: the best share of ``RING_SECTORS`` over centres and radii; 0 when no ring fits.
    """
    short = float(np.linalg.norm(outline - np.roll(outline, 1, axis=0), axis=1).min())
    scale = min(1.0, RING_PX / max(short, 1.0))  # searched at most RING_PX across the tile
    short, size = short * scale, size * scale
    low = max(RING_RADIUS[0] * short, 4 * RING_WIDTH, size / RING_FACE[1])
    high = min(RING_RADIUS[1] * short, size / RING_FACE[0])
    if high < low:
        return 0.0
    shift = RING_SHIFT * short
    reach = int(np.ceil((high + shift + 3 * RING_WIDTH + RING_CLEAR * short) / scale))  # photo pixels
    h, w = ink.shape
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    x0, y0, x1, y1 = max(0, cx - reach), max(0, cy - reach), min(w, cx + reach + 1), min(h, cy + reach + 1)
    window = ink[y0:y1, x0:x1] > INK_LEVEL
    if not RING_SECTORS <= np.count_nonzero(window) <= RING_DENSE * window.size:
        return 0.0
    if scale < 1.0:  # any ink in a shrunk pixel is ink
        window = cv2.resize(255 * window.astype(np.uint8), None, fx=scale, fy=scale,
                            interpolation=cv2.INTER_AREA) > 0
    ys, xs = np.nonzero(window)
    centre = (np.asarray(centre, np.float32) - (x0, y0) + 0.5) * scale - 0.5  # in the window's pixels
    reach = int(np.ceil(reach * scale))
    step = max(1.0, shift / RING_STEPS)
    offsets = np.arange(-shift, shift + 1e-3, step).astype(np.float32)
    centres = np.stack(np.meshgrid(offsets, offsets), axis=-1).reshape(-1, 2) + centre  # [K, 2]
    d = np.stack([xs, ys], axis=1).astype(np.float32)[None] - centres[:, None]  # [K, N, 2]
    # each ink pixel counted per centre, sector and radius (in half pixels); cumulated over radius
    half = np.rint(2 * np.hypot(d[..., 0], d[..., 1])).astype(np.int64)
    sector = ((np.arctan2(d[..., 1], d[..., 0]) + np.pi) * (RING_SECTORS / (2 * np.pi))).astype(np.int64)
    bins = int(2 * np.sqrt(2) * (reach + 1)) + 2  # the window's corners too
    cell = ((np.arange(len(centres))[:, None] * RING_SECTORS + sector % RING_SECTORS) * bins
            + np.minimum(half, bins - 1))
    counts = np.bincount(cell.ravel(), minlength=len(centres) * RING_SECTORS * bins)
    upto = np.cumsum(counts.reshape(len(centres), RING_SECTORS, bins), axis=2)
    upto = np.concatenate([np.zeros((len(centres), RING_SECTORS, 1), upto.dtype), upto], axis=2)

    def any_in(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Whether ink lies in half-pixel radii lo..hi (inclusive): bool [K, sectors, radii]."""
        return upto[:, :, np.clip(hi + 1, 0, bins)] > upto[:, :, np.clip(lo, 0, bins)]

    radii = np.arange(int(np.ceil(2 * low)), int(2 * high) + 1)  # half pixels
    if not len(radii):  # low and high within one half pixel
        return 0.0
    width, clear = int(round(2 * RING_WIDTH)), int(round(2 * RING_CLEAR * short))
    beyond = radii + int(2.5 * width) + 1
    ring = any_in(radii - width, radii + width) & ~any_in(beyond, beyond + clear - 1)
    return float(ring.sum(axis=1).max()) / RING_SECTORS


def read_rings(ink: np.ndarray, faces: list[InkFace], outlines: list[np.ndarray],
               readings: list[FaceReading], allowed: frozenset[str] | None) -> list[FaceReading]:
    """``readings`` with each "none" whose face lies inside a joker's ring read as "joker"
    (``JOKER_RING``), its confidence the ring's cover.

    Args:
        ink: float32 (H x W) the photo's ink map; faces, outlines: the faces and their tiles'
            outlines (float32 [4, 2], photo pixels); readings: their readings, in order.
        allowed: the faces of the tile set; without "joker" (None allows it) nothing changes.
    """
    if not _jokers_allowed(allowed):
        return readings
    out = list(readings)
    for i, (face, outline, reading) in enumerate(zip(faces, outlines, readings, strict=True)):
        if reading.face == NOT_A_FACE:
            cover = ring_cover(ink, face.points.mean(axis=0), face.size, outline)
            if cover >= JOKER_RING:
                out[i] = FaceReading("joker", cover)
    return out


def _inside(within: np.ndarray, i: int) -> list[int]:
    """The indices of the faces other than face ``i`` whose ink centre lies in its ink's box
    (``within``: :func:`vision.table.loose_glyphs.centres_in_boxes`)."""
    return [int(j) for j in np.flatnonzero(within[:, i]) if j != i]


def _within(faces: list[InkFace]) -> np.ndarray:
    """:func:`vision.table.loose_glyphs.centres_in_boxes` of ``faces``."""
    return centres_in_boxes(faces, ink_centres(faces))


def _jokers_allowed(allowed: frozenset[str] | None) -> bool:
    """Whether the tile set has jokers (None allows every face)."""
    return allowed is None or "joker" in allowed


def join_features(reader: TileReader, ink: np.ndarray, faces: list[InkFace], outlines: list[np.ndarray],
                  readings: list[FaceReading], allowed: frozenset[str] | None
                  ) -> tuple[list[InkFace], list[FaceReading]]:
    """``faces`` and ``readings`` with each face that only a joker may be (``InkFace.joker_only``)
    not read as a joker, around faces read "none" (its features, read on their own), joined with
    them into one face and read again (at every twelfth of a turn, by the classifier alone); the
    joined face is kept when read as a joker at least ``JOIN_CONFIDENCE`` sure or inside its ring
    (``JOKER_RING``).

    Args:
        reader: the tile reader; ink: float32 (H x W) the photo's ink map; faces, outlines,
            readings: the faces, their tiles' outlines (float32 [4, 2], photo pixels) and their
            readings, in order; allowed: the faces of the tile set (without "joker" nothing
            changes).
    """
    if not _jokers_allowed(allowed):
        return faces, readings
    joined: list[tuple[int, InkFace]] = []
    within = _within(faces)
    for i, (face, reading) in enumerate(zip(faces, readings, strict=True)):
        if not face.joker_only or reading.face == "joker":
            continue
        inside = [faces[j] for j in _inside(within, i)
                  if readings[j].face == NOT_A_FACE and not faces[j].joker_only]
        if inside:
            boxes = np.array([face.box, *(f.box for f in inside)])
            (x0, y0), (x1, y1) = boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)
            box = (int(x0), int(y0), int(x1), int(y1))
            points = np.concatenate([face.points, *(f.points for f in inside)])
            joined.append((i, InkFace(points, box, face.region, face.body, face.gain, joker_only=True)))
    if not joined:
        return faces, readings
    faces, readings = list(faces), list(readings)
    loose = [glyph_input(ink, face, np.empty((0, 2), np.float32)) for _, face in joined]
    read = reader.read_glyphs(loose, allowed, second_opinion=False)
    for (i, face), reading in zip(joined, read, strict=True):
        if reading.face == "joker" and reading.confidence >= JOIN_CONFIDENCE:
            faces[i], readings[i] = face, reading
        elif (cover := ring_cover(ink, face.points.mean(axis=0), face.size, outlines[i])) >= JOKER_RING:
            faces[i], readings[i] = face, FaceReading("joker", cover)
    return faces, readings


def joker_only(faces: list[InkFace], readings: list[FaceReading]) -> list[FaceReading]:
    """``readings`` with each face that only a joker may be (``InkFace.joker_only``: ink
    reaching nearly to its tile's edge) called "none" unless read as a joker around no other
    face read as a face (a joker's ring around its features read on their own)."""
    out = list(readings)
    within = _within(faces)
    for i, (face, reading) in enumerate(zip(faces, readings, strict=True)):
        if face.joker_only and (reading.face != "joker"
                                or any(readings[j].face != NOT_A_FACE for j in _inside(within, i))):
            out[i] = FaceReading(NOT_A_FACE, 1.0)
    return out
