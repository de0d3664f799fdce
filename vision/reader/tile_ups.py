"""Which way is up on a tile: the candidate up directions of each glyph, from its tile's shape.

A pentagon's up is one of its five corners seen from its centre (§1-3, apex up), so a "6" and a
"9" (half a turn apart) can never both fit. A rectangle's up is along its long side (either way;
across it only when the tile is nearly square), and the face sits in its upper part. An outline
found on a blurred crop may be wrong (``GlyphInput.outline_is_sure`` False), so every twelfth of a
turn is a candidate too, with a lower prior unless it agrees with the shape. A glyph without an
outline gets every twelfth of a turn.

The tile reader (vision/reader/glyph_reader.py) classifies the glyph turned upright at each candidate
and adds the candidate's log-prior to the classifier's log-probability.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.reader.glyphs import GlyphInput

#: Every twelfth of a turn as an up vector (x, y) in image coordinates (y down): [12, 2] float64.
GENERIC_UPS = np.stack([np.sin(np.arange(12) * np.pi / 6), -np.cos(np.arange(12) * np.pi / 6)], axis=1)

#: A glyph off its tile's centre votes for the ups that put it in the tile's upper part: its offset
#: along an up, in glyph sizes, times LEAN_WEIGHT, at most LEAN_CAP either way (a log-prior). A
#: wrong outline (touching tiles' shares cut midway between their faces) makes that vote wrong,
#: and the cap is how far a sure classifier can still overrule it. Checked on TRAIN: LEAN_CAP
#: 1/2/4 -> right faces 1763/1765/1765 of 1773 matched (at 1 two 9s read as 6s).
LEAN_WEIGHT = 6.0
LEAN_CAP = 4.0

_TEN_DEGREES = float(np.cos(np.deg2rad(10)))
_FIFTHS = np.arange(5) * 2 * np.pi / 5


def candidate_ups(glyphs: Sequence[GlyphInput]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each glyph's candidate ups with their log-priors, best prior first.

    Args:
        glyphs: glyphs with their tiles' outlines (float32 [5 or 4, 2] corners (x, y) in the
            glyph's ink pixels, or [0, 2] for none).

    Returns:
        per glyph: unit up vectors (float64 [K, 2], (x, y), y down) and their log-priors
        (float64 [K], at most about 4), sorted by prior, best first (ties in candidate order).
    """
    out: list[tuple[np.ndarray, np.ndarray]] = [_GENERIC_RANKED] * len(glyphs)
    pentagons = [i for i, g in enumerate(glyphs) if len(g.outline) == 5]
    rectangles = [i for i, g in enumerate(glyphs) if len(g.outline) == 4]
    for members, shape in ((pentagons, _pentagon_ups), (rectangles, _rectangle_ups)):
        if not members:
            continue
        ups, prior = shape([glyphs[i] for i in members])
        sure = np.array([glyphs[i].outline_is_sure for i in members])
        ups, prior = _ranked(*_with_generic(ups, prior, sure))
        for k, (i, n) in enumerate(zip(members, np.isfinite(prior).sum(axis=1).tolist(), strict=True)):
            out[i] = (ups[k, :n], prior[k, :n])
    return out


def _ranked(ups: np.ndarray, prior: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Candidates ([..., K, 2], [..., K]) sorted by prior, best first (stable: ties keep order)."""
    order = np.argsort(-prior, axis=-1, kind="stable")
    return np.take_along_axis(ups, order[..., None], axis=-2), np.take_along_axis(prior, order, axis=-1)


def _pentagon_ups(glyphs: Sequence[GlyphInput]) -> tuple[np.ndarray, np.ndarray]:
    """Ups ([P, 5, 2]) and priors ([P, 5]) of P glyphs on pentagons (five-corner outlines): a
    regular pentagon's corners lie 72 degrees apart, so their common phase (angles x 5) is fitted."""
    outline = np.stack([g.outline for g in glyphs]).astype(np.float32)
    v = (outline - outline.mean(axis=1, keepdims=True)).astype(np.float64)
    phase = np.angle(np.exp(5j * np.arctan2(v[..., 1], v[..., 0])).sum(axis=1)) / 5
    turns = phase[:, None] + _FIFTHS[None]
    ups = np.stack([np.cos(turns), np.sin(turns)], axis=2)
    return ups, 0.3 * -ups[..., 1]


def _rectangle_ups(glyphs: Sequence[GlyphInput]) -> tuple[np.ndarray, np.ndarray]:
    """Ups ([R, 4, 2]) and priors ([R, 4]) of R glyphs on rectangles (four-corner outlines)."""
    ups = np.empty((len(glyphs), 4, 2))
    prior = np.empty((len(glyphs), 4))
    for k, glyph in enumerate(glyphs):
        outline = glyph.outline.astype(np.float32)
        offset = glyph.points.mean(axis=0) - outline.mean(axis=0)
        extent = max(float(np.ptp(glyph.points, axis=0).max()), 1.0)
        (_, _), (rw, rh), angle = cv2.minAreaRect(outline)
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        ax, ay = (c, s) if rw >= rh else (-s, c)
        ups[k] = [[ax, ay], [-ax, -ay], [-ay, ax], [ay, -ax]]  # along the long side, then across
        elongation = max(rw, rh) / max(min(rw, rh), 1.0)
        across = -3.0 * min(max(elongation - 1.05, 0.0) / 0.2, 1.0)
        # the face sits in the upper part of the tile: a glyph above the centre votes for this up
        lean = np.clip(LEAN_WEIGHT * (ups[k] @ offset.astype(np.float64)) / extent, -LEAN_CAP, LEAN_CAP)
        prior[k] = np.array([0.0, 0.0, across, across]) + lean
    prior += 0.3 * -ups[..., 1]  # photos and boards are mostly seen roughly upright
    return ups, prior


def _with_generic(ups: np.ndarray, prior: np.ndarray, sure: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Shape ups ([G, S, 2], priors [G, S]) followed by every twelfth of a turn ([G, S + 12, 2],
    [G, S + 12]). Where the outline is not ``sure`` (bool [G]), a twelfth more than ten degrees
    from every shape up gets 1.5 under the prior of the nearest shape up (capped at 0) plus the
    upright preference; the others get -inf (no candidate)."""
    agree = np.einsum("tj,gsj->gts", GENERIC_UPS, ups)  # cosines [G, 12, S]
    nearest = agree.argmax(axis=2)
    apart = (np.take_along_axis(agree, nearest[..., None], axis=2)[..., 0] < _TEN_DEGREES) & ~sure[:, None]
    generic = np.minimum(np.take_along_axis(prior, nearest, axis=1), 0.0) - 1.5 + 0.3 * -GENERIC_UPS[:, 1]
    generic = np.where(apart, generic, -np.inf)
    every = np.broadcast_to(GENERIC_UPS, (len(ups), *GENERIC_UPS.shape))
    return np.concatenate([ups, every], axis=1), np.concatenate([prior, generic], axis=1)


#: A glyph without an outline: every twelfth of a turn, the upright ones first.
_GENERIC_RANKED = _ranked(GENERIC_UPS, 0.3 * -GENERIC_UPS[:, 1])
