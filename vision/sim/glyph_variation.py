"""Type designs beyond the installed fonts: a glyph's coverage mask varied in weight, width, slant and
shape, so that the tile reader learns digits rather than the few designs it was shown.

A user's tiles are printed in type designs the training fonts do not have. What separates designs of
a digit is mostly the weight and contrast of its strokes, its proportions and slant, and the exact
curve of its bowls, tails and terminals. :func:`vary_glyph` draws each of these at random:

- weight: the mask's outline moved in or out by a share of its stroke width (signed distance
  transform), from a hairline to a black weight;
- width and slant: an affine stretch and shear;
- shape: a smooth random displacement field (elastic distortion) of a few per cent of the glyph's
  height, which bends curves and moves junctions as designs do.

Only the TRAIN split's training crops are varied (vision.sim.tile_scenes); the simulator's recordings
and every held-out render print the fonts as they are.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Weight change as a share of the stroke width: from lighter (negative) to bolder (positive). Below
#: -0.35 the thin strokes of a light design break; above 0.5 a bold design's counters close.
WEIGHT_RANGE: tuple[float, float] = (-0.35, 0.5)
#: Horizontal stretch (condensed to extended designs) and shear (slant, right-leaning positive).
STRETCH_RANGE: tuple[float, float] = (0.8, 1.2)
SHEAR_RANGE: tuple[float, float] = (-0.2, 0.25)
#: Elastic distortion: displacement amplitude and the field's smoothness, as shares of the glyph's
#: height (a bowl's curve moves by a few per cent without the digit turning into another).
ELASTIC_AMPLITUDE = 0.035
ELASTIC_SMOOTHNESS = 0.12
#: Share of glyphs left as the font draws them.
KEEP_SHARE = 0.2


def stroke_width(mask: np.ndarray) -> float:
    """The mean stroke width of a coverage mask (uint8 h x w), in pixels: twice its inked area over its
    outline's length (a stroke of length L and width w has area L w and outline about 2 L)."""
    ink = (mask > 127).astype(np.uint8)
    area = float(ink.sum())
    if area == 0:
        return 0.0
    contours, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    outline = sum(cv2.arcLength(c, True) for c in contours)
    return 2.0 * area / max(outline, 1.0)


def vary_glyph(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random variation of a glyph's coverage mask in weight, width, slant and shape.

    Args:
        mask: uint8 h x w coverage (0..255), the glyph's tight box (vision.sim.tiles.glyph_mask).
        rng: draws the variation.

    Returns:
        uint8 coverage mask of the varied glyph, cut to its tight box (at least 1 x 1).
    """
    if rng.random() < KEEP_SHARE:
        return mask
    h, w = mask.shape
    pad = int(0.35 * h) + 4
    canvas = cv2.copyMakeBorder(mask, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    canvas = _reweight(canvas, rng.uniform(*WEIGHT_RANGE) * stroke_width(mask))
    canvas = _warp(canvas, h, rng)
    ys, xs = np.nonzero(canvas > 16)
    if len(ys) == 0:  # a variation that erased the glyph: keep the font's own
        return mask
    return canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _reweight(mask: np.ndarray, delta_px: float) -> np.ndarray:
    """Move the outline of a coverage mask outwards by ``delta_px`` (inwards when negative), keeping
    an anti-aliased edge a pixel wide."""
    if abs(delta_px) < 0.25:
        return mask
    ink = (mask > 127).astype(np.uint8)
    inside = cv2.distanceTransform(ink, cv2.DIST_L2, 5)
    outside = cv2.distanceTransform(1 - ink, cv2.DIST_L2, 5)
    signed = inside - outside + 0.5  # > 0 inside, about 0 on the outline
    return np.clip((signed + delta_px + 0.5) * 255, 0, 255).astype(np.uint8)


def _warp(mask: np.ndarray, glyph_h: int, rng: np.random.Generator) -> np.ndarray:
    """Stretch, shear and elastically distort a mask about its centre (one remap)."""
    h, w = mask.shape
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = (w - 1) / 2, (h - 1) / 2
    stretch, shear = rng.uniform(*STRETCH_RANGE), rng.uniform(*SHEAR_RANGE)
    sigma = ELASTIC_SMOOTHNESS * glyph_h
    field = rng.standard_normal((2, h, w)).astype(np.float32)
    field = np.stack([cv2.GaussianBlur(f, (0, 0), sigma) for f in field])
    field *= ELASTIC_AMPLITUDE * glyph_h / max(float(np.abs(field).max()), 1e-6)
    # output pixel (x, y) samples the input at the inverse of the stretch and shear, moved by the field
    src_y = ys + field[1]
    src_x = (xs - cx + shear * (ys - cy)) / stretch + cx + field[0]
    return cv2.remap(mask, src_x, src_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
