"""The light falling on a bare table, learned from the table itself, and the photo relit evenly.

A lamp and the lens light a table unevenly: brighter on one side, darker in the corners
(vignetting). A colour model of the table learned along the photo's border then takes the
brighter middle of the table for something else, and a tile in the dark corner for the table.
Light multiplies each colour channel, so on a log scale it adds a smooth field; the table is the
same material everywhere, so that field is the table's log colour less its mean:

1. The table's pixels start as the photo's border ring (vision.table.tile_bodies.TABLE_RING),
   where the layout does not reach.
2. A quadratic surface in x and y is fitted to the log of each channel (BGR) of those pixels at
   a working scale (``WORK_PX``): the light (a slope, a vignette).
3. The pixels whose colour, less that surface, lies within ``TABLE_SIGMAS`` of the table's
   (a Gaussian over the three log channels) are the table's pixels for the next round
   (``ROUNDS`` in all), so that the middle of the table, seen once the light is known, holds the
   surface there too.

Entry: :func:`table_light`: the light (TableLight.relit divides the photo by it, relit to the
table's mean light, so that every colour model after it, the tiles' bodies', holds over the whole
photo) and the table's colour under it (TableLight.distance: how far each pixel is from it).
Constants were chosen on rendered TRAIN-style tables (vision.sim.table_shots, split "train").
Run ``python -m vision.table.table_light PHOTO OUT.png`` to write a photo relit.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import cv2
import numpy as np

#: The light is learned from every k-th pixel, k such that they span this many along the long side
#: (it changes over a tenth of the photo at least); not averaged, so the table's spread is a pixel's.
WORK_PX = 160
#: Width of the border ring the table is first learned from, as a share of the photo's short side
#: (as vision.table.tile_bodies.TABLE_RING).
RING = 0.05
#: Added to each channel before its log (grey levels): sensor noise on a dark table (a few grey
#: levels) does not swing the log.
LOG_OFFSET = 8.0
#: A pixel within this Mahalanobis distance of the table's colour (less the light) is table.
TABLE_SIGMAS = 3.0
#: Added to the covariance of the table's log colour: a floor on its spread (noise on a plain cloth).
LOG_FLOOR = 0.02**2
#: Rounds of fit and reclassify (the second sees the middle of the table, the third settles it).
ROUNDS = 3


@dataclass(frozen=True, slots=True)
class TableLight:
    """The light on a photo of a bare table and the table's colour under even light.

    Attributes:
        field: float32 H x W x 3, the log of the light's gain per channel (B, G, R), zero on
            average over the table.
        mean: float64 [3], the table's log colour (log of BGR grey levels plus LOG_OFFSET), the
            light taken out.
        inverse: float64 [3, 3], the inverse covariance of that colour over the table's pixels.
    """

    field: np.ndarray
    mean: np.ndarray
    inverse: np.ndarray

    def relit(self, image: np.ndarray) -> np.ndarray:
        """``image`` (BGR uint8, the photo the light was learned on) relit evenly: BGR uint8,
        clipped at 255 where a light tile lay in the dark."""
        relit = (image.astype(np.float32) + LOG_OFFSET) / np.exp(self.field) - LOG_OFFSET
        return np.clip(relit, 0, 255).astype(np.uint8)

    def distance(self, image: np.ndarray) -> np.ndarray:
        """Mahalanobis distance (float32 H x W) of each pixel's colour, the light taken out, to the
        table's."""
        d = cv2.log(image.astype(np.float32) + LOG_OFFSET) - self.field - self.mean.astype(np.float32)
        root = np.linalg.cholesky(self.inverse).T.astype(np.float32)  # d' inverse d = |root d|^2
        turned = cv2.transform(d, root)
        return cv2.sqrt(cv2.transform(turned * turned, np.ones((1, 3), np.float32)))


def table_light(image: np.ndarray) -> TableLight:
    """Learn the light on a photo of a bare table and the table's colour under it.

    Args:
        image: BGR uint8, H x W x 3, the table filling the photo's border.

    Returns:
        the light field (at the photo's size) and the table's colour model.
    """
    h, w = image.shape[:2]
    every = max(1, math.ceil(max(h, w) / WORK_PX))
    small = image[every // 2::every, every // 2::every]  # not averaged: the table's spread at full scale
    sh, sw = small.shape[:2]
    logs = np.log(small.astype(np.float32) + LOG_OFFSET).reshape(-1, 3)
    design = _design(sw, sh)
    b = max(1, round(RING * min(sh, sw)))
    ring = np.ones((sh, sw), bool)
    ring[b:-b, b:-b] = False
    table = ring.ravel()
    field = np.zeros_like(logs)
    mean: np.ndarray = np.zeros(3)
    inverse: np.ndarray = np.eye(3) / LOG_FLOOR
    for _ in range(ROUNDS):
        coef, *_ = np.linalg.lstsq(design[table], logs[table], rcond=None)
        field = design @ coef
        rest = (logs - field).astype(np.float64)
        mean = rest[table].mean(axis=0)
        inverse = np.linalg.inv(np.cov(rest[table].T) + LOG_FLOOR * np.eye(3))
        d = rest - mean
        near = np.einsum("ni,ij,nj->n", d, inverse, d) < TABLE_SIGMAS**2
        if near.sum() < design.shape[1] * 4:
            break
        table = near | ring.ravel()
    level = field[table].mean(axis=0)
    full = cv2.resize((field - level).reshape(sh, sw, 3).astype(np.float32), (w, h),
                      interpolation=cv2.INTER_LINEAR)
    return TableLight(full, mean + level, inverse)


def even_light(image: np.ndarray) -> np.ndarray:
    """The photo relit evenly (TableLight.relit of its own :func:`table_light`): BGR uint8 H x W x 3."""
    return table_light(image).relit(image)


def _design(w: int, h: int) -> np.ndarray:
    """The quadratic surface's terms (1, x, y, x^2, xy, y^2) at every pixel (float32 [h w, 6]),
    x and y in -1..1 across the photo."""
    ys, xs = np.meshgrid(np.linspace(-1, 1, h, dtype=np.float32), np.linspace(-1, 1, w, dtype=np.float32),
                         indexing="ij")
    x, y = xs.ravel(), ys.ravel()
    return np.column_stack([np.ones_like(x), x, y, x * x, x * y, y * y])


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.table.table_light PHOTO OUT.png``: write the photo relit evenly."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m vision.table.table_light PHOTO OUT.png", file=sys.stderr)
        return 2
    image = cv2.imread(args[0], cv2.IMREAD_COLOR)
    if image is None:
        print(f"table_light: {args[0]!r}: not a readable image", file=sys.stderr)
        return 2
    cv2.imwrite(args[1], even_light(image))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
