"""Which pixels of a photo are the body of a tile (the cream plastic around the ink).

Two models of the body's colour, both over OpenCV 8-bit Lab:

- ``surface_mask``: a lookup table P(tile body | colour) learned on the labelled photos' train/
  split (vision/models/tile_surface_lut.npz, made by bench/train_tile_reader.py). It knows tiles
  in general, so in one photo it may take a white or grey table for body and miss tiles whose
  cream, in that light, it rarely saw.
- ``photo_surface``: a Gaussian fitted to this photo's own body pixels around faces already read
  with confidence, which knows this set in this light (the body of every other tile of the
  photo) and not the table beside it. ``shade_regions`` is the same with smooth pixels in shade
  lit like the body first (a group of tiles in a shadow), and keeps only its new regions.

Each gives the body pixels and the regions they make: tiles touching each other make one region,
filled to its convex hull when it is compact.

Run ``python -m vision.table.surface PHOTO OUT.png`` to write the LUT's body mask of a photo.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision.table.errors import TableError
from vision.table.medians import channel_medians, group_medians

#: The long side of the image the surfaces are computed on, in pixels.
WORK_PX = 500

#: A region smaller than this many pixels (at the working scale) is no tile.
MIN_REGION_PX = 40

#: A body pixel of ``photo_surface`` lies within this many standard deviations (Mahalanobis
#: distance) of the photo's body colour.
BODY_SIGMAS = 3.0

#: Added to the photo body colour's covariance (Lab units squared): a floor on its spread.
BODY_WIDEN = 4.0

#: A region of ``photo_surface`` is searched for tiles again when at least this share of it
#: lies outside the regions of ``surface_mask`` (see ``new_regions``).
NEW_SHARE = 0.05

#: ... or when it lies mostly in a region of ``surface_mask`` this many times its size.
SPLIT_RATIO = 1.5

#: In shade (``shade_regions``), OpenCV 8-bit L plus this is taken as proportional
#: to the light falling on a pixel (L* + 16 is about the cube root of luminance, 41 = 16 x 2.55).
SHADE_OFFSET = 41.0

#: In shade, a pixel is raised to the body's light only where its lightness is smooth: its
#: standard deviation over SHADE_SMOOTH_PX x SHADE_SMOOTH_PX working pixels under SHADE_SMOOTH
#: (8-bit L; a rug's threads and their gaps are not). Chosen on train/ (8, 10, 12, 14: +6 tiles
#: with 0 extra at 10, +10 extras at 12).
SHADE_SMOOTH = 10.0
SHADE_SMOOTH_PX = 5

#: A region of tiles in shade is smooth: the standard deviation of its lightness over
#: SHADE_SMOOTH_PX x SHADE_SMOOTH_PX working pixels is at most this on average (8-bit L; a rug
#: in warm light is 15-20). Chosen on train/ (8: 1 tile fewer; 10 and 12 alike).
SHADE_ROUGH = 10.0

#: ... and covers at most this share of the photo (not the table; the tiles found in shade on
#: train/ covered up to 0.12, the table 0.4-0.85).
SHADE_LARGEST = 0.25

#: In shade, the body mask is closed over a disc this many working pixels across (the thin
#: edge of a tile above its digits, lost in the blurred ink, closes the tile's outline).
SHADE_CLOSE_PX = 5

#: Fewest sample pixels ``body_sample`` learns a body colour from.
MIN_SAMPLES = 50

#: The regions of a body mask: (body uint8 0/1 h x w; regions int32 h x w, 0 outside, i > 0 for
#: region i; body_lab float32 h x w x 3, each region's median body colour in OpenCV 8-bit Lab).
Surface = tuple[np.ndarray, np.ndarray, np.ndarray]


class SurfaceTableError(TableError):
    """The surface lookup table is missing (names the file)."""


@functools.cache
def surface_lut(path: str | None = None) -> np.ndarray:
    """The surface lookup table (float32 [B, B, B] over OpenCV 8-bit Lab): the shipped one
    (vision/models/tile_surface_lut.npz) when ``path`` is None; loaded once per path.

    Raises:
        SurfaceTableError: the file does not exist.
    """
    file = Path(path) if path else Path(str(resources.files("vision") / "models" / "tile_surface_lut.npz"))
    if not file.is_file():
        raise SurfaceTableError(f"tile surface table not found: {file} "
                                "(train it with bench/train_tile_reader.py)")
    return np.load(file)["lut"].astype(np.float32)


def working_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo at the working scale (long side WORK_PX, INTER_AREA) in OpenCV 8-bit Lab, and
    that scale: what the surfaces are computed on.

    Args:
        image: BGR uint8, H x W x 3.

    Returns:
        (small: uint8 h x w x 3, OpenCV 8-bit Lab (L, a, b); scale = small pixels per photo pixel).
    """
    h, w = image.shape[:2]
    scale = WORK_PX / max(h, w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2Lab), scale


def surface_probability(lab: np.ndarray, lut: np.ndarray) -> np.ndarray:
    """Per-pixel probability of being tile body, from the Lab lookup table.

    Args:
        lab: uint8, H x W x 3, OpenCV 8-bit Lab.
        lut: float32 (shape: [B, B, B]) over OpenCV 8-bit Lab, B a power of two.

    Returns:
        float32 (shape: [H, W]) in 0..1, smoothed over 3 x 3 pixels.
    """
    bins = lut.shape[0]
    q = np.right_shift(lab, 8 - int(np.log2(bins))).astype(np.intp)
    return cv2.blur(lut.ravel().take((q[..., 0] * bins + q[..., 1]) * bins + q[..., 2]), (3, 3))


def surface_mask(small: np.ndarray, lut: np.ndarray, threshold: float = 0.1) -> Surface:
    """Tile body pixels by the lookup table, the filled tile regions and each region's body colour.

    Args:
        small: uint8, h x w x 3 (the photo at the working scale in Lab, see :func:`working_image`).
        lut: the surface lookup table (see :func:`surface_probability`).
        threshold: surface probability above which a pixel is tile body.

    Returns:
        (body, regions, body_lab), see ``Surface``.
    """
    return body_regions(small, (surface_probability(small, lut) > threshold).astype(np.uint8))


class BodySample(NamedTuple):
    """Where a photo surely shows tile body, and that body's colour.

    Attributes:
        mask: bool or uint8 (h x w, the working scale), nonzero where a pixel surely is tile body
            (body pixels near faces read with confidence, their ink left out).
        colour: float32 (shape: [3]) the median OpenCV 8-bit Lab of those pixels.
    """

    mask: np.ndarray
    colour: np.ndarray


def body_sample(small: np.ndarray, samples: np.ndarray) -> BodySample | None:
    """The sample of a photo's own body that ``photo_surface`` and ``shade_regions`` fit.

    Args:
        small: uint8, h x w x 3 (the photo at the working scale in Lab, see :func:`working_image`).
        samples: bool or uint8 (h x w), nonzero where a pixel surely is tile body.

    Returns:
        the sample with its median colour; None for fewer than ``MIN_SAMPLES`` sample pixels.
    """
    at = np.flatnonzero(samples)
    if len(at) < MIN_SAMPLES:
        return None
    pixels = small.reshape(-1, 3).take(at, axis=0)
    return BodySample(samples, channel_medians(pixels[None])[0].astype(np.float32))


def photo_surface(small: np.ndarray, sample: BodySample) -> Surface:
    """Tile body pixels by this photo's own body colour, learned from ``sample``.

    A Gaussian over Lab (the sample's median colour as centre, covariance widened by
    ``BODY_WIDEN``) is fitted to the sample pixels; a pixel is body within ``BODY_SIGMAS`` of it.

    Args:
        small: uint8, h x w x 3 (the photo at the working scale in Lab, see :func:`working_image`).
        sample: from :func:`body_sample`.

    Returns:
        (body, regions, body_lab), see ``Surface``.
    """
    return body_regions(small, _near_body(_shifted(small, -sample.colour), sample.mask))


def _shifted(lab: np.ndarray, by: np.ndarray) -> np.ndarray:
    """``lab`` (h x w x 3) plus ``by`` (shape: [3]) per channel, float32 h x w x 3: numpy's sum
    over a last axis of 3 is many times slower than OpenCV's, and equal to it."""
    return cv2.add(lab, np.append(by, 0.0).astype(np.float64), dtype=cv2.CV_32F)  # an OpenCV scalar


def _near_body(d: np.ndarray, samples: np.ndarray) -> np.ndarray:
    """Where the photo lies within ``BODY_SIGMAS`` of the Gaussian of its sample pixels, given
    its Lab less the body colour (``d``, float32 h x w x 3) (uint8 0/1, h x w)."""
    x = d.reshape(-1, 3).take(np.flatnonzero(samples), axis=0)
    inverse = np.linalg.inv(np.cov(x.T) + BODY_WIDEN * np.eye(3)).astype(np.float32)
    # d' S^-1 d per pixel; cv2.transform, not a numpy product (BLAS threads fight over one core)
    # nor a numpy sum over the channels (slow over the last axis)
    distance = cv2.transform(cv2.multiply(cv2.transform(d, inverse), d), np.ones((1, 3), np.float32))
    return (distance < BODY_SIGMAS ** 2).astype(np.uint8)


def shade_regions(small: np.ndarray, sample: BodySample, searched: np.ndarray, shade: float,
                  share: float) -> Surface | None:
    """Tiles in a shadow, away from the regions searched already: :func:`photo_surface` with
    shade allowed, its regions of which at least ``share`` lies outside ``searched``, smooth and
    not most of the photo (``SHADE_ROUGH``, ``SHADE_LARGEST``).

    A smooth pixel (``SHADE_SMOOTH``) darker than the body colour by a factor down to ``shade``
    in light (L + ``SHADE_OFFSET``) is first lit like the body: its light and its a*, b* (about
    128) multiplied by the same factor. A tile in a hand's or a rack's shadow is then body, and
    a grey table in the same shadow stays grey. The mask is closed over ``SHADE_CLOSE_PX``.

    Args:
        small: uint8, h x w x 3 (the photo at the working scale in Lab, see :func:`working_image`).
        sample: from :func:`body_sample`.
        searched: bool (h x w), the pixels of the regions searched already.
        shade: the least light (0..1] of the body colour a pixel in shade may have.
        share: the least share (0..1) of a region's pixels outside ``searched``.

    Returns:
        the surface with its other regions cleared (0 in regions), or None when none is left.
    """
    centre = sample.colour
    light = cv2.extractChannel(small, 0).astype(np.float32)
    square = (SHADE_SMOOTH_PX, SHADE_SMOOTH_PX)
    mean = cv2.blur(light, square)
    spread = np.sqrt(np.maximum(cv2.blur(light * light, square) - mean * mean, 0.0))
    factor = np.clip(float(centre[0] + SHADE_OFFSET) / (light + SHADE_OFFSET), 1.0, 1.0 / shade)
    factor[spread > SHADE_SMOOTH] = 1.0
    offset = np.array([SHADE_OFFSET, -128.0, -128.0], np.float32)
    d = _shifted(small, offset)
    cv2.multiply(d, cv2.merge([factor, factor, factor]), dst=d)
    d = _shifted(d, -(offset + centre))  # the lit Lab less the body colour
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (SHADE_CLOSE_PX, SHADE_CLOSE_PX))
    body = cv2.morphologyEx(_near_body(d, sample.mask), cv2.MORPH_CLOSE, disc)

    def wanted(regions: np.ndarray) -> np.ndarray:
        size = np.bincount(regions.ravel())
        outside = np.bincount(regions[~searched], minlength=len(size))
        rough = np.bincount(regions.ravel(), spread.ravel()) / np.maximum(size, 1)
        keep = (outside >= share * size) & (rough <= SHADE_ROUGH) & (size <= SHADE_LARGEST * regions.size)
        keep[0] = False
        return keep

    surface = body_regions(small, body, wanted)
    return surface if surface[1].any() else None


def new_regions(surface: Surface, before: Surface, share: float = NEW_SHARE) -> Surface | None:
    """The regions of ``surface`` that ``before`` did not have: those of which at least ``share``
    lies outside every region of ``before``, or which lie mostly in a region of ``before`` at
    least ``SPLIT_RATIO`` times their size (one region there, several tiles' regions here).

    Args:
        surface, before: surfaces of the same photo at the same scale.
        share: the least share (0..1) of a region's pixels outside ``before``.

    Returns:
        ``surface`` with its other regions cleared (0 in regions), or None when none is left.
    """
    body, regions, body_lab = surface
    n, m = int(regions.max()) + 1, int(before[1].max()) + 1
    pairs = np.bincount((regions * m + before[1]).ravel(), minlength=n * m).reshape(n, m)
    count = pairs.sum(axis=1)
    host = np.argmax(pairs[:, 1:], axis=1) + 1 if m > 1 else np.zeros(n, np.int64)
    host_size = np.bincount(before[1].ravel(), minlength=m)[host]
    keep = (pairs[:, 0] >= share * count) | ((host > 0) & (host_size >= SPLIT_RATIO * count))
    keep[0] = False
    if not keep.any():
        return None
    return body, np.where(keep[regions], regions, 0).astype(np.int32), body_lab


def body_regions(small: np.ndarray, body: np.ndarray,
                 wanted: Callable[[np.ndarray], np.ndarray] | None = None) -> Surface:
    """The regions of a body mask (opened over 3 x 3 pixels first) and their body colours.

    Args:
        small: uint8, h x w x 3, OpenCV 8-bit Lab (see :func:`working_image`).
        body: uint8 0/1 (h x w).
        wanted: given the regions (int32 h x w), which to keep (bool, one per id and 0); the
            others are cleared before their colours are measured. None keeps all.

    Returns:
        (body, regions, body_lab), see ``Surface``; body is the opened mask.
    """
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    body = cv2.morphologyEx(body, cv2.MORPH_OPEN, ellipse)
    contours, _ = cv2.findContours(body, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    regions = np.zeros(body.shape, np.int32)
    drawn: list[tuple[tuple[slice, slice], np.ndarray]] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < MIN_REGION_PX:
            continue
        hull = cv2.convexHull(contour)
        x, y, cw, ch = cv2.boundingRect(contour)
        one = np.zeros((ch, cw), np.uint8)
        cv2.drawContours(one, [hull if area > 0.75 * cv2.contourArea(hull) else contour], -1, 1, -1,
                         offset=(-x, -y))
        inside = one > 0
        box = (slice(y, y + ch), slice(x, x + cw))
        regions[box][inside & (regions[box] == 0)] = len(drawn) + 1
        drawn.append((box, inside))
    keep = wanted(regions) if wanted is not None else np.ones(len(drawn) + 1, bool)
    if not keep[1:].all():
        regions = np.where(keep[regions], regions, 0).astype(np.int32)
    kept = [(box, inside) for (box, inside), wanted_one in zip(drawn, keep[1:], strict=True) if wanted_one]
    body_lab = np.zeros(small.shape, np.float32)
    if kept:  # each region's median body colour, from one histogram
        values = [small[box][inside & (body[box] > 0)] for box, inside in kept]
        groups = np.repeat(np.arange(len(kept)), [len(v) for v in values])
        colours = np.zeros((len(kept) + 1, 3), np.float32)  # row 0: no region
        colours[1:] = group_medians(np.concatenate(values), groups, len(kept))
        painted = np.zeros(body.shape, np.int32)  # a pixel of overlapping hulls takes the last one's
        for k, (box, inside) in enumerate(kept, start=1):
            painted[box][inside] = k
        body_lab = colours.take(painted, axis=0)
    return body, regions, body_lab


def main(argv: list[str] | None = None) -> int:
    """Write the LUT's body mask of a photo (white body on black) to an image file."""
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 2:
        print("usage: python -m vision.table.surface PHOTO OUT.png", file=sys.stderr)
        return 2
    image = cv2.imread(args[0])
    if image is None:
        print(f"{args[0]}: cannot read image", file=sys.stderr)
        return 1
    small, _ = working_image(image)
    body, regions, _ = surface_mask(small, surface_lut())
    cv2.imwrite(args[1], np.where(regions > 0, 128, 0).astype(np.uint8) + 127 * body)
    print(f"{args[0]}: {int(regions.max())} regions, body {body.mean():.1%} of the photo")
    return 0


if __name__ == "__main__":
    sys.exit(main())
