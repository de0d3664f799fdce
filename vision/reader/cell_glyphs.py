"""Finding the glyph of the tile in a board cell crop: the tile body, its outline and its ink.

A cell crop is a small square cut from the rectified board around one cell (vision/board_view.py),
the tile roughly centred. The tile body is the commonest colour near the crop's centre; the tile
is the body-coloured region covering the centre, its outline the convex hull (five corners of a
pentagon, §1-3, or the rotated bounding rectangle of a rectangle); the glyph is the ink on the
tile near the centre. :func:`glyphs_in_crops` does the colour work of a whole batch of crops in
array operations, the pixel work on one mosaic of the batch and the shape work crop by crop.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from vision.reader.glyphs import GlyphInput, TileReaderError
from vision.reader.medians import channel_medians

#: A tile body found smaller than this share of the crop is no outline (see ``_glyphs``).
MIN_TILE_SHARE = 0.3

#: Depth from the tile's outline (share of the crop side) within which ink is on the tile's rim.
RIM_ZONE = 0.12

#: Ink components with at least this share of their pixels on the rim are the tile's edge, not its face.
RIM_SHARE = 0.7

#: An ink component joins a face only with at least this share of the ink of the face's largest
#: component: a 6/9 mark's dot does, a speck of noise or board print beside the digits does not.
GROUP_MIN_SHARE = 0.1

#: A glyph of fewer ink pixels than this share of the crop is a speck (a blank wild tile's bevel or
#: shading, §7-1), not a face. On TRAIN-style games the specks on blank tiles reach 18 px and the
#: smallest face has 50 px of a 43 x 43 crop; the threshold (22 px) sits nearer the specks, as a
#: thin "1" of a light font is smaller than any face of the TRAIN fonts.
MIN_GLYPH_SHARE = 0.012


def glyph_in_crop(crop: np.ndarray, index: int = 0) -> GlyphInput | None:
    """The glyph of the tile centred in a square crop, or None for a tile without ink.

    Args:
        crop: BGR uint8, S x S x 3, the tile roughly centred.
        index: the crop's position in a batch, for error messages.

    Raises:
        TileReaderError: for an image that is not BGR uint8 H x W x 3 or is smaller than 8 px.
    """
    _check(crop, index)
    return glyphs_in_crops([crop])[0]


def glyphs_in_crops(crops: Sequence[np.ndarray]) -> list[GlyphInput | None]:
    """:func:`glyph_in_crop` for a batch of crops (crops of one size share the colour work).

    Args:
        crops: BGR uint8 images, S x S x 3 each.

    Returns:
        one glyph (or None) per crop, in order.

    Raises:
        TileReaderError: for a crop that is not BGR uint8 H x W x 3 or is smaller than 8 px
            (named by its position in the batch).
    """
    by_shape: dict[tuple[int, ...], list[int]] = {}
    for i, crop in enumerate(crops):
        _check(crop, i)
        by_shape.setdefault(crop.shape, []).append(i)
    out: list[GlyphInput | None] = [None] * len(crops)
    for (h, w, _), members in by_shape.items():
        r, central_disk, outer_ring = _disks(h, w)
        stacked = np.stack([crops[i] for i in members])
        lab = cv2.cvtColor(stacked.reshape(-1, w, 3), cv2.COLOR_BGR2Lab).reshape(stacked.shape)
        centre = lab[:, central_disk]  # [n, M, 3]
        # the body is the commonest colour near the centre (the ink covers less than half of it)
        median = channel_medians(centre)
        centre = centre.astype(np.float32)
        close = np.linalg.norm(centre - median[:, None], axis=2) < 25
        count = close.sum(axis=1, keepdims=True)
        body = np.where(count > 0, np.einsum("nm,nmc->nc", close.astype(np.float32), centre)
                        / np.maximum(count, 1), median)
        off = lab.astype(np.float32) - body[:, None, None]
        dist = np.sqrt(np.einsum("nhwc,nhwc->nhw", off, off))
        # the board around the tile: the commonest colour of the crop's outer ring
        board = channel_medians(lab[:, outer_ring])
        apart = np.linalg.norm(board - body, axis=1)  # the tile body's colour distance from the board
        # ink is what stands apart from the body near the centre (Otsu on the distance to the body)
        near = np.clip(dist[:, central_disk], 0, 255).astype(np.uint8)
        level = np.array([max(cv2.threshold(near[k], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0], 12.0)
                          for k in range(len(members))], np.float32)
        body_mask = (dist < np.minimum(np.minimum(30.0, 0.7 * level), np.maximum(6.0, 0.5 * apart))
                     .astype(np.float32)[:, None, None]).astype(np.uint8)
        ink = np.minimum(dist / (2.0 * level)[:, None, None], 1.0)  # 0..1, 0.5 the ink threshold
        parts = {i: f for i, f in zip(members, _glyphs(body_mask, ink, r, central_disk), strict=True)
                 if f is not None}
        shaped = {i: (f.hull, f.rect) for i, f in parts.items() if f.hull is not None}
        outlines = dict(zip(shaped, _outlines(list(shaped.values())), strict=True))
        for i, f in parts.items():
            outline = outlines.get(i, _NO_OUTLINE)
            core = _glyph_input(f.ink, f.core, outline) if f.core is not None else None
            out[i] = _glyph_input(f.ink, f.mask, outline, core)
    return out


@functools.cache
def _rim_disk(rim: int) -> np.ndarray:
    """The structuring element that takes a tile's rim (``rim`` px deep) off its inside."""
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rim + 1, 2 * rim + 1))


def _check(crop: np.ndarray, index: int) -> None:
    if crop.ndim != 3 or crop.shape[2] != 3 or crop.dtype != np.uint8 or min(crop.shape[:2]) < 8:
        raise TileReaderError(f"tile crop {index}: expected BGR uint8 H x W x 3 (>= 8 px), got "
                              f"{crop.dtype} {crop.shape}")


@functools.cache
def _disks(h: int, w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distance of each pixel from the crop's centre, the central disk and the outer ring."""
    yy, xx = np.mgrid[0:h, 0:w]
    r = np.hypot(xx - (w - 1) / 2, yy - (h - 1) / 2)
    return r, r <= 0.3 * min(h, w), r >= 0.48 * min(h, w)


_NO_OUTLINE = np.empty((0, 2), np.float32)


class _Found(NamedTuple):
    """What one crop gives before the outlines are fitted (all at once, see ``_outlines``)."""

    ink: np.ndarray  # float32 H x W
    mask: np.ndarray  # bool H x W: the glyph's ink
    core: np.ndarray | None  # bool H x W: its component nearest the centre, when it has several
    hull: np.ndarray | None  # the tile body's convex hull; None when the body leaked
    rect: tuple  # cv2.minAreaRect of the hull


def _glyphs(body_mask: np.ndarray, ink: np.ndarray, r: np.ndarray,
            central_disk: np.ndarray) -> list[_Found | None]:
    """The glyph of each of n crops from its body mask (uint8 [n, H, W]: pixels near the body
    colour) and its ink strength (float32 [n, H, W], 0..1).

    The pixel work (connected components, the rim's erosion and depth) runs once on a mosaic of
    the crops stacked top to bottom, each followed by rows deeper than the rim: rows of 0 keep the
    components of neighbouring crops apart, rows of 1 in the tile masks act as the crop's edge
    does alone (no erosion, no rim depth from it), so each crop gives what it gives alone.
    """
    n, h, w = body_mask.shape
    side = min(h, w)
    rim = max(1, int(round(0.06 * side)))
    rows = h + max(rim, int(np.ceil(RIM_ZONE * side))) + 1  # a crop and its separation
    inside, hulls, leaked = _tiles(body_mask, rows, r, central_disk)
    # how deep inside the tile each pixel lies: ink that keeps to the tile's rim is its edge or
    # corner (a bevel, a shadow), not its face
    depth = cv2.distanceTransform(inside, cv2.DIST_L2, 3)
    ink = _mosaic(ink, rows, 0.0) * cv2.erode(inside, _rim_disk(rim))
    count, labels, stats, cents = cv2.connectedComponentsWithStats((ink > 0.5).astype(np.uint8))
    on_rim = np.bincount(labels[depth < RIM_ZONE * side], minlength=count)
    inked = labels > 0
    mass = np.bincount(labels[inked], weights=ink[inked], minlength=count)
    area = stats[:, cv2.CC_STAT_AREA]
    crop_of = stats[:, cv2.CC_STAT_TOP] // rows
    sizable = (area >= max(3, 0.002 * h * w)) & (leaked[crop_of] | (on_rim < RIM_SHARE * area))
    sizable[0] = False  # the background
    first = _first_labels(stats, rows, n)
    out: list[_Found | None] = [None] * n
    for k, hull in enumerate(hulls):
        if hull is None:
            continue
        keep = [i for i in (first[k] + np.flatnonzero(sizable[first[k]:first[k + 1]])).tolist()
                if not _is_edge_line(labels, i, stats[i], side)]
        if not keep:
            continue
        rect = cv2.minAreaRect(hull)
        centre_xy = ((w - 1) / 2, (h - 1) / 2) if leaked[k] else (float(rect[0][0]), float(rect[0][1]))
        chosen = _glyph_components(keep, stats, cents, (centre_xy[0], centre_xy[1] + k * rows), mass)
        if area[chosen].sum() < MIN_GLYPH_SHARE * h * w:
            continue
        at = slice(k * rows, k * rows + h)
        is_chosen = np.zeros(count, bool)
        is_chosen[chosen] = True
        out[k] = _Found(ink[at], is_chosen[labels[at]], labels[at] == chosen[0] if len(chosen) > 1 else None,
                        None if leaked[k] else hull, rect)
    return out


def _tiles(body_mask: np.ndarray, rows: int, r: np.ndarray, central_disk: np.ndarray
           ) -> tuple[np.ndarray, list[np.ndarray | None], np.ndarray]:
    """Each crop's tile: the body-coloured component covering most of the central disk.

    Returns:
        the tiles' insides as a mosaic (uint8 [n * rows, W], 1 inside a tile's convex hull, or
        inside a disk round the centre where the body leaked, and in the separating rows), each
        crop's hull (None without any body) and whether its body leaked (bool [n]).
    """
    n, h, w = body_mask.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(_mosaic(body_mask, rows, 0))
    counts = np.bincount(labels.reshape(n, rows, w)[:, :h][:, central_disk].ravel(), minlength=count)
    counts[0] = 0
    first = _first_labels(stats, rows, n)
    inside = np.ones((n * rows, w), np.uint8)
    hulls: list[np.ndarray | None] = [None] * n
    leaked = np.zeros(n, bool)
    for k in np.flatnonzero(first[1:] > first[:-1]).tolist():
        own = counts[first[k]:first[k + 1]]
        # label 0 of the crop (its background) when no body component covers any of the disk
        tile_label = first[k] + int(np.argmax(own)) if own.max() > 0 else 0
        at = slice(k * rows, k * rows + h)
        tile = (labels[at] == tile_label).astype(np.uint8)
        contours, _ = cv2.findContours(tile, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hulls[k] = hull = cv2.convexHull(max(contours, key=cv2.contourArea))
        inside[at] = 0
        cv2.fillConvexPoly(inside[at], hull, 1)
        # a body that runs into the board (a pale tile on a pale sheet), or that is cut up (a
        # body hardly apart from the sheet by colour, a modulus marker's ring), gives no outline:
        # then the face is looked for near the centre and every rotation is tried
        leaked[k] = not MIN_TILE_SHARE * h * w <= cv2.contourArea(hull) <= 0.8 * h * w
        if leaked[k]:
            inside[at] = r <= 0.36 * min(h, w)
    return inside, hulls, leaked


def _first_labels(stats: np.ndarray, rows: int, n: int) -> np.ndarray:
    """Where each crop's component labels begin in a mosaic's labelling (int [n + 1]: crop k has
    labels first[k] .. first[k + 1] - 1): components are numbered in raster order, so a crop's
    labels follow one another, and a component's top row tells its crop."""
    crop_of = stats[1:, cv2.CC_STAT_TOP] // rows
    return np.searchsorted(crop_of, np.arange(n + 1)) + 1


def _mosaic(crops: np.ndarray, rows: int, fill: float) -> np.ndarray:
    """Crops [n, H, W] stacked top to bottom, each followed by ``rows - H`` rows of ``fill``:
    [n * rows, W], the crops' dtype."""
    n, h, w = crops.shape
    out = np.full((n, rows, w), fill, crops.dtype)
    out[:, :h] = crops
    return out.reshape(n * rows, w)


def _glyph_input(ink: np.ndarray, mask: np.ndarray, outline: np.ndarray,
                 core: GlyphInput | None = None) -> GlyphInput:
    """The glyph of the ink under ``mask`` (bool, H x W)."""
    ys, xs = np.nonzero(mask)
    return GlyphInput((ink * mask).astype(np.float32), np.stack([xs, ys], axis=1).astype(np.float32),
                      outline, outline_is_sure=False, core=core)


def _is_edge_line(labels: np.ndarray, i: int, stat: np.ndarray, side: int) -> bool:
    """A long thin component at any angle (a tile's edge or shadow, a line of the board), not a
    face: longer than a third of the crop and at least six times as long as it is wide."""
    x, y, cw, ch, area = (int(v) for v in stat[:5])
    # six times as long as wide covers less than a sixth of its length squared (at most its box's
    # diagonal squared): a stouter component needs no moments
    if cw * cw + ch * ch < (0.35 * side) ** 2 or 6 * area >= cw * cw + ch * ch:
        return False
    m = cv2.moments((labels[y:y + ch, x:x + cw] == i).astype(np.uint8), binaryImage=True)
    a, b, c = m["mu20"], m["mu11"], m["mu02"]
    spread = np.sqrt(4 * b * b + (a - c) ** 2)
    major, minor = (a + c + spread) / 2, (a + c - spread) / 2
    return bool(major > 36 * max(minor, 1e-6))


def _glyph_components(keep: list[int], stats: np.ndarray, cents: np.ndarray,
                      centre: tuple[float, float], mass: np.ndarray) -> list[int]:
    """The ink components of one face: the one nearest the tile centre, then every component
    that nearly touches the group so far (the digits of "12", a joker's eyes in its face). Only
    components with at least GROUP_MIN_SHARE of the ink (``mass``, per component label) of the
    largest take part: specks neither seed nor join a face."""
    floor = GROUP_MIN_SHARE * max(mass[i] for i in keep)
    keep = [i for i in keep if mass[i] >= floor]
    nearest = min(keep, key=lambda i: np.hypot(*(cents[i] - centre)))
    chosen = [nearest]
    x0, y0, w0, h0 = (int(v) for v in stats[nearest, :4])
    box = [x0, y0, x0 + w0, y0 + h0]
    grown = True
    while grown:
        grown = False
        for i in keep:
            if i in chosen:
                continue
            x, y, cw, ch = (int(v) for v in stats[i, :4])
            gap = max(box[0] - (x + cw), x - box[2], box[1] - (y + ch), y - box[3], 0)
            if gap <= 0.6 * max(box[3] - box[1], box[2] - box[0], 1):
                chosen.append(i)
                box = [min(box[0], x), min(box[1], y), max(box[2], x + cw), max(box[3], y + ch)]
                grown = True
    return chosen


def _outlines(tiles: list[tuple[np.ndarray, tuple]]) -> list[np.ndarray]:
    """Each tile's outline from its (convex hull, cv2.minAreaRect of the hull): five corners of a
    pentagon, else the four of its rotated bounding rectangle (float32 [5 or 4, 2]), for many
    tiles at once.

    A regular pentagon fills 69% of its smallest bounding rectangle, a rectangle all of it (a
    little less with blurred corners), and the pentagon's radius from its centre varies with a
    five-fold harmonic, the rectangle's with a four-fold one: both decide the shape (weights
    tuned on TRAIN-style board crops). The pentagon's corners are where the hull reaches farthest
    from its centre, the phase of that five-fold harmonic (robust where a blurred corner makes a
    polygon fit miss one).
    """
    if not tiles:
        return []
    points = _resample([h.reshape(-1, 2).astype(np.float64) for h, _ in tiles], 90)  # complex [n, 90]
    centre = points.mean(axis=1, keepdims=True)
    v = points - centre
    radius = np.maximum(np.abs(v), 1e-9)
    unit = v / radius  # e^(i angle)
    wobble = radius / radius.mean(axis=1, keepdims=True) - 1.0
    unit4 = (unit * unit) ** 2
    five, four = (wobble * unit4 * unit).mean(axis=1), (wobble * unit4).mean(axis=1)
    out = []
    for k, (hull, rect) in enumerate(tiles):
        (_, _), (rw, rh), _ = rect
        fill = cv2.contourArea(hull) / max(rw * rh, 1.0)
        if (0.81 - fill) + (abs(five[k]) - abs(four[k])) <= 0.01:
            out.append(cv2.boxPoints(rect).astype(np.float32))
            continue
        corners = centre[k] + radius[k].max() * np.exp(1j * (np.angle(five[k]) / 5 + _FIFTHS))
        out.append(np.stack([corners.real, corners.imag], axis=1).astype(np.float32))
    return out


_FIFTHS = np.arange(5) * 2 * np.pi / 5


def _resample(polygons: list[np.ndarray], n: int) -> np.ndarray:
    """``n`` points evenly spaced along each closed polygon (float [K_i, 2] (x, y) -> complex
    [len(polygons), n], x + iy), all in one interpolation: the polygons laid end to end along one
    axis of arc length, one unit apart."""
    closed = [np.concatenate([p, p[:1]]) for p in polygons]
    sizes = np.array([len(c) for c in closed])
    z = np.concatenate(closed)
    z = z[:, 0] + 1j * z[:, 1]
    step = np.abs(np.diff(z))
    first = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    step[first[1:] - 1] = 1.0  # from one polygon's closing point to the next polygon's start
    run = np.concatenate([[0.0], np.cumsum(step)])
    start, end = run[first], run[first + sizes - 1]
    at = start[:, None] + (end - start)[:, None] * (np.arange(n) / n)[None]
    return np.interp(at.ravel(), run, z).reshape(len(polygons), n)
