"""Which pixels of a photo are the body of a tile (the cream plastic around the ink).

Two models of the body's colour, both over OpenCV 8-bit Lab:

- ``surface_mask``: a lookup table P(tile body | colour) learned on the labelled photos' train/
  split (vision/models/tile_surface_lut.npz, made by bench/train_tile_reader.py). It knows tiles
  in general, so in one photo it may take a white or grey table for body and miss tiles whose
  cream, in that light, it rarely saw.
- ``photo_surface``: a Gaussian fitted to this photo's own body pixels around faces already read
  with confidence, which knows this set in this light (the body of every other tile of the
  photo) and not the table beside it.

Each gives the body pixels and the regions they make: tiles touching each other make one region,
filled to its convex hull when it is compact.

Run ``python -m vision.surface PHOTO OUT.png`` to write the LUT's body mask of a photo.
"""

from __future__ import annotations

import functools
import sys
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from vision.medians import channel_medians

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

#: Fewest sample pixels ``photo_surface`` fits a body colour to.
MIN_SAMPLES = 50

#: The regions of a body mask: (body uint8 0/1 h x w; regions int32 h x w, 0 outside, i > 0 for
#: region i; body_lab float32 h x w x 3, each region's median body colour in OpenCV 8-bit Lab).
Surface = tuple[np.ndarray, np.ndarray, np.ndarray]


class SurfaceTableError(ValueError):
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
    shift = 8 - int(np.log2(lut.shape[0]))
    q = np.right_shift(lab, shift)
    return cv2.blur(lut[q[..., 0], q[..., 1], q[..., 2]], (3, 3))


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


def photo_surface(small: np.ndarray, samples: np.ndarray) -> Surface | None:
    """Tile body pixels by this photo's own body colour, learned from ``samples``.

    A Gaussian over Lab (median centre, covariance widened by ``BODY_WIDEN``) is fitted to the
    sample pixels; a pixel is body within ``BODY_SIGMAS`` of it.

    Args:
        small: uint8, h x w x 3 (the photo at the working scale in Lab, see :func:`working_image`).
        samples: bool or uint8 (h x w), nonzero where a pixel surely is tile body (body pixels
            near faces read with confidence, their ink left out).

    Returns:
        (body, regions, body_lab), see ``Surface``; None for fewer than ``MIN_SAMPLES`` samples.
    """
    x = small[samples > 0]
    if len(x) < MIN_SAMPLES:
        return None
    centre = channel_medians(x[None])[0]
    inverse = np.linalg.inv(np.cov(x.T) + BODY_WIDEN * np.eye(3)).astype(np.float32)
    d = small.astype(np.float32) - centre
    # d' S^-1 d per pixel; cv2.transform, not a numpy product (BLAS threads fight over one core)
    distance = (cv2.transform(d, inverse) * d).sum(axis=2)
    return body_regions(small, (distance < BODY_SIGMAS ** 2).astype(np.uint8))


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


def body_regions(small: np.ndarray, body: np.ndarray) -> Surface:
    """The regions of a body mask (opened over 3 x 3 pixels first) and their body colours.

    Args:
        small: uint8, h x w x 3, OpenCV 8-bit Lab (see :func:`working_image`).
        body: uint8 0/1 (h x w).

    Returns:
        (body, regions, body_lab), see ``Surface``; body is the opened mask.
    """
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    body = cv2.morphologyEx(body, cv2.MORPH_OPEN, ellipse)
    contours, _ = cv2.findContours(body, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    regions = np.zeros(body.shape, np.int32)
    body_lab = np.zeros(small.shape, np.float32)
    index = 0
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < MIN_REGION_PX:
            continue
        hull = cv2.convexHull(contour)
        x, y, cw, ch = cv2.boundingRect(contour)
        one = np.zeros((ch, cw), np.uint8)
        cv2.drawContours(one, [hull if area > 0.75 * cv2.contourArea(hull) else contour], -1, 1, -1,
                         offset=(-x, -y))
        index += 1
        inside = one > 0
        box = (slice(y, y + ch), slice(x, x + cw))
        free = regions[box] == 0
        regions[box][inside & free] = index
        body_lab[box][inside] = channel_medians(small[box][inside & (body[box] > 0)][None])[0]
    return body, regions, body_lab


def main(argv: list[str] | None = None) -> int:
    """Write the LUT's body mask of a photo (white body on black) to an image file."""
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 2:
        print("usage: python -m vision.surface PHOTO OUT.png", file=sys.stderr)
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
