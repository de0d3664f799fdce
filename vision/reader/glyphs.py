"""Glyphs: the printed face of a tile as ink, normalised upright into a small patch, and its features.

A tile's face is found as *ink*: pixels that differ from the tile body (darker, or of another
colour). The ink of one face (one or two digits, "#", the modulus marker's ring and number, the
joker's face) is a *glyph*. ``glyph_patch`` turns a glyph seen at any rotation into an upright,
size-normalised ``GLYPH_PX`` x ``GLYPH_PX`` patch, given which way is up on the tile;
``glyph_features`` turns patches into the vectors the tile reader's classifier was trained on.
The same functions serve the board reader's cell crops, the loose-tile finder and training
(bench/train_tile_reader.py), so that all three see glyphs the same way.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.reader.errors import ReaderError

#: Side of a normalised glyph patch in pixels.
GLYPH_PX = 32

#: Margin around the glyph's bounding box in a patch, as a share of the box's longer side.
_MARGIN = 0.12


class TileReaderError(ReaderError):
    """A bad tile image or model file (names the input and what is wrong)."""


@dataclass(frozen=True, slots=True)
class GlyphInput:
    """One glyph to read, as found by a tile finder.

    Attributes:
        ink: float32 ink map (shape: [H, W]) holding the glyph (other glyphs zeroed).
        points: float32 (shape: [N, 2]) (x, y) of the glyph's ink pixels in ``ink``.
        outline: float32 (shape: [K, 2]) the tile's outline in ``ink`` coordinates: 5 corners
            for a pentagon (§1-3: apex up), otherwise any points whose rotated bounding
            rectangle is the tile (4 corners of a rectangle, a contour); empty (shape [0, 2])
            when the tile's outline is unknown (every rotation is then tried).
        outline_is_sure: False when the outline comes from a small blurred crop and may be
            wrong: every twelfth of a turn is then tried as well.
        core: when the glyph joins several ink components, its component nearest the tile's
            centre alone (same ink map and outline): a tile's bevel or shadow may have been
            joined to the face, so the reader reads the core when the whole reads unsure.
    """

    ink: np.ndarray
    points: np.ndarray
    outline: np.ndarray
    outline_is_sure: bool = True
    core: GlyphInput | None = None

    def __post_init__(self) -> None:
        if self.ink.ndim != 2 or self.points.ndim != 2 or self.points.shape[1:] != (2,) \
                or not len(self.points):
            raise ValueError(f"GlyphInput needs a 2-D ink map and [N>0, 2] points, got "
                             f"{self.ink.shape} and {self.points.shape}")
        if self.outline.ndim != 2 or self.outline.shape[1:] != (2,) or len(self.outline) in (1, 2):
            raise ValueError(f"GlyphInput outline must be [K>=3, 2] or empty, got {self.outline.shape}")


@functools.cache
def _hog() -> cv2.HOGDescriptor:
    return cv2.HOGDescriptor((GLYPH_PX, GLYPH_PX), (16, 16), (8, 8), (8, 8), 9)


def feature_length() -> int:
    """Length of one feature vector from :func:`glyph_features`."""
    return int(_hog().getDescriptorSize()) + 1


def ink_map(region_bgr: np.ndarray, body_lab: np.ndarray) -> np.ndarray:
    """How strongly each pixel looks like ink on a tile body of colour ``body_lab``.

    Ink is any colour far from the body in a*b* (coloured ink) or much darker than it (black ink),
    or, on a dark body (a modulus marker), much lighter than it.

    Args:
        region_bgr: BGR uint8, H x W x 3.
        body_lab: the body colour in OpenCV 8-bit Lab (shape: [3]) or per pixel (H x W x 3).

    Returns:
        float32 (shape: [H, W]) in 0..1; 0.5 is the ink threshold.
    """
    return lab_ink_map(cv2.cvtColor(region_bgr, cv2.COLOR_BGR2Lab).astype(np.float32), body_lab)


def lab_ink_map(lab: np.ndarray, body_lab: np.ndarray) -> np.ndarray:
    """:func:`ink_map` of pixels already in OpenCV 8-bit Lab.

    Args:
        lab: float32 (shape: [..., 3]), e.g. H x W x 3 or N x 3.
        body_lab: the body colour in OpenCV 8-bit Lab (shape: [3]) or per pixel (the shape of
            ``lab``).

    Returns:
        float32 (shape: ``lab``'s less its last axis) in 0..1; 0.5 is the ink threshold.
    """
    diff = lab - np.asarray(body_lab, np.float32)
    chroma = np.sqrt(diff[..., 1] ** 2 + diff[..., 2] ** 2) / 70.0
    body_l = np.maximum(np.asarray(body_lab, np.float32)[..., 0], 40.0)
    lightness = np.abs(diff[..., 0]) / (0.8 * body_l)
    return np.clip(np.maximum(chroma, lightness), 0.0, 1.0)


def turned(up: np.ndarray, degrees: float) -> np.ndarray:
    """An up direction (shape: [2], x right, y down) turned by ``degrees`` (clockwise as seen, the
    y axis pointing down), float64 (shape: [2])."""
    t = np.deg2rad(degrees)
    return np.array([up[0] * np.cos(t) - up[1] * np.sin(t), up[0] * np.sin(t) + up[1] * np.cos(t)])


def glyph_patch(ink: np.ndarray, points: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, float]:
    """Cut one glyph out of an ink map, turned upright and scaled into a square patch.

    Args:
        ink: float32 ink map (shape: [H, W]), from :func:`ink_map`, with other glyphs' ink
            already zeroed if they could fall into the patch.
        points: float32 (shape: [N, 2]) (x, y) pixel positions of the glyph's ink in ``ink``.
        up: the tile's up direction in image coordinates (shape: [2], x right, y down).

    Returns:
        (patch, aspect): float32 patch (shape: [GLYPH_PX, GLYPH_PX]) with the glyph upright and
        centred, its longer side filling the patch less a margin; aspect is the glyph's
        width / height in the upright frame.

    Raises:
        ValueError: when ``points`` is empty or ``up`` is zero.
    """
    patches, aspects = glyph_patches(ink, points, np.asarray(up, np.float64)[None])
    return patches[0], float(aspects[0])


def glyph_patches(ink: np.ndarray, points: np.ndarray, ups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`glyph_patch` for several candidate ups of one glyph at once.

    Args:
        ink: float32 ink map (shape: [H, W]).
        points: float32 (shape: [N, 2]) (x, y) of the glyph's ink in ``ink``.
        ups: float (shape: [K, 2]) up directions (x right, y down).

    Returns:
        (patches, aspects): float32 (shape: [K, GLYPH_PX, GLYPH_PX]) and float64 (shape: [K]).

    Raises:
        ValueError: when ``points`` is empty or an up is zero.
    """
    return glyphs_patches([ink], [points], [ups])


def glyphs_patches(inks: Sequence[np.ndarray], points: Sequence[np.ndarray],
                   ups: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`glyph_patch` for several glyphs, each at several candidate ups, the geometry of all
    of them in one array operation.

    Args:
        inks: float32 ink maps, one per glyph (shape: [H_i, W_i]).
        points: float32 (shape: [N_i > 0, 2]) (x, y) of each glyph's ink in its ink map.
        ups: float (shape: [K_i, 2]) each glyph's candidate up directions (x right, y down).

    Returns:
        (patches, aspects): float32 (shape: [sum K_i, GLYPH_PX, GLYPH_PX]) and float64 (shape:
        [sum K_i]), glyph by glyph in order.

    Raises:
        ValueError: when a glyph's points are empty or an up is zero.
    """
    sizes = np.array([len(p) for p in points])
    if not sizes.all():
        raise ValueError("glyph_patch: no ink points")
    counts = np.array([len(u) for u in ups])
    every_up = np.concatenate([np.asarray(u, np.float64).reshape(-1, 2) for u in ups])
    norm = np.hypot(every_up[:, 0], every_up[:, 1])
    if not norm.all():
        raise ValueError("glyph_patch: zero up vector")
    d = -every_up / norm[:, None]  # tile "down" in the image
    rows = np.stack([np.stack([d[:, 1], -d[:, 0]], axis=1), d], axis=1)  # [C, 2 (right, down), 2]
    xy = np.concatenate(points).astype(np.float64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    mean = np.add.reduceat(xy, starts) / sizes[:, None]  # [G, 2]
    # a glyph's extent along any axis is that of the vertices of its convex hull: those alone
    hulls = [cv2.convexHull(np.asarray(p, np.float32), returnPoints=False)[:, 0] if len(p) >= 3
             else np.arange(len(p)) for p in points]
    hull_sizes = np.array([len(h) for h in hulls])
    hull_at = np.concatenate([start + h for start, h in zip(starts, hulls, strict=True)])
    centred = xy[hull_at] - np.repeat(mean, hull_sizes, axis=0)
    # every candidate's hull projected on its (right, down) axes, candidates end to end
    glyph_of = np.repeat(np.arange(len(sizes)), counts)  # [C]
    per = hull_sizes[glyph_of]
    first = np.concatenate([[0], np.cumsum(per)[:-1]])
    hull_starts = np.concatenate([[0], np.cumsum(hull_sizes)[:-1]])
    at = np.repeat(hull_starts[glyph_of] - first, per) + np.arange(per.sum())
    local = np.einsum("pj,pkj->pk", centred[at], np.repeat(rows, per, axis=0))
    lo, hi = np.minimum.reduceat(local, first), np.maximum.reduceat(local, first)
    size = hi - lo + 1.0  # (width, height) per candidate
    scale = GLYPH_PX / (size.max(axis=1) * (1 + 2 * _MARGIN) + 2.0)
    a = rows * scale[:, None, None]
    b = GLYPH_PX / 2 - scale[:, None] * (lo + hi) / 2 - np.einsum("ckj,cj->ck", a, mean[glyph_of])
    affine = np.concatenate([a, b[:, :, None]], axis=2).astype(np.float32)  # [C, 2, 3]
    out = np.empty((len(d), GLYPH_PX, GLYPH_PX), np.float32)
    # shrinking a lot: smooth first so thin strokes survive; a glyph's ups mostly share one scale
    keys = list(zip(glyph_of.tolist(), np.where(scale < 0.5, 0.4 / scale, 0.0).tolist(), strict=True))
    # the rows of its ink map each candidate's patch samples: those of its corners' sources
    corners = np.array([[0, 0], [GLYPH_PX, 0], [0, GLYPH_PX], [GLYPH_PX, GLYPH_PX]], np.float64)
    source_y = np.einsum("cqk,ck->cq", corners[None] - b[:, None], rows[:, :, 1]) / scale[:, None]
    rows_of: dict[tuple[int, float], tuple[float, float]] = {}
    for key, y0, y1 in zip(keys, source_y.min(axis=1).tolist(), source_y.max(axis=1).tolist(), strict=True):
        if key[1]:
            seen = rows_of.get(key, (y0, y1))
            rows_of[key] = (min(seen[0], y0), max(seen[1], y1))
    smoothed = {key: _smoothed(inks[key[0]], key[1], *span) for key, span in rows_of.items()}
    for c, key in enumerate(keys):
        cv2.warpAffine(smoothed[key] if key[1] else inks[key[0]], affine[c], (GLYPH_PX, GLYPH_PX),
                       dst=out[c], flags=cv2.INTER_LINEAR, borderValue=0)
    return out, size[:, 0] / size[:, 1]


def _smoothed(ink: np.ndarray, sigma: float, top: float, bottom: float) -> np.ndarray:
    """``cv2.GaussianBlur(ink, (0, 0), sigma)`` in the rows ``top``..``bottom`` (where patches
    sample the ink map), zero elsewhere: the blur of those rows widened by the kernel's reach,
    equal to the whole map's blur there to the bit (whole rows: OpenCV's row filter rounds a
    pixel by its place in the row)."""
    reach = (int(round(sigma * 8 + 1)) | 1) // 2 + 2  # OpenCV's kernel radius for float32, + bilinear
    y0 = max(0, int(np.floor(top)) - reach)
    y1 = min(ink.shape[0], int(np.ceil(bottom)) + reach + 1)
    out = np.zeros_like(ink)
    if y0 < y1:
        out[y0:y1] = cv2.GaussianBlur(ink[y0:y1], (0, 0), sigma)
    return out


def glyph_features(patches: np.ndarray, aspects: np.ndarray) -> np.ndarray:
    """Feature vectors of upright glyph patches: HOG of the patch plus the glyph's aspect.

    Args:
        patches: float32 (shape: [N, GLYPH_PX, GLYPH_PX]) in 0..1 from :func:`glyph_patch`.
        aspects: float (shape: [N]) glyph width / height.

    Returns:
        float32 (shape: [N, feature_length()]).
    """
    out = np.empty((len(patches), feature_length()), np.float32)
    if len(patches):
        out[:, :-1] = _hog_batch(np.clip(np.asarray(patches) * 255, 0, 255).astype(np.uint8))
    out[:, -1] = np.log(np.clip(np.asarray(aspects, np.float32), 0.1, 10.0))
    return out


#: Patches per row of the mosaic that :func:`_hog_batch` describes in one call.
_MOSAIC_COLUMNS = 20


def _hog_batch(patches: np.ndarray) -> np.ndarray:
    """HOG of many uint8 patches ([N, GLYPH_PX, GLYPH_PX]) in one OpenCV call: the patches laid
    out in a mosaic, each with a 1-pixel mirrored border (BORDER_REFLECT_101, what HOG assumes
    beyond a lone image's edge, so the descriptors equal those of the patches one by one).
    Returns float32 [N, descriptor size]."""
    n, side = len(patches), GLYPH_PX + 2
    columns = min(n, _MOSAIC_COLUMNS)
    rows = -(-n // columns)
    tiles = np.zeros((rows * columns, side, side), np.uint8)
    tiles[:n] = np.pad(patches, ((0, 0), (1, 1), (1, 1)), mode="reflect")
    mosaic = np.ascontiguousarray(tiles.reshape(rows, columns, side, side).transpose(0, 2, 1, 3)
                                  .reshape(rows * side, columns * side))
    at = [(side * (k % columns) + 1, side * (k // columns) + 1) for k in range(n)]
    return np.asarray(_hog().compute(mosaic, (8, 8), (0, 0), at), np.float32).reshape(n, -1)
