"""The camera lens's radial distortion, as the board locator fits it from the fiducial markers.

One radial term around the frame centre, written from frame pixels to "ideal" (pinhole) pixels::

    ideal = c + (p - c) * (1 + k1 * r**2),   r = |p - c| / half_diagonal

so k1 > 0 is barrel distortion (a wide lens bows the sheet's straight edges outwards) and k1 = 0 is
a pinhole camera. The board's homography maps board.png pixels to ideal pixels; the lens then puts
them in the frame. A homography alone fitted to the markers of a sheet seen through a lens of
k1 = 0.08 puts cells near the sheet's margins up to a third of a cell away from where they lie
(an order-13 board in a 1280 x 960 frame), enough to cut them off-centre, so the locator fits k1
with the homography wherever the markers pin it down (vision.board.locate).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: Fixed-point steps of :meth:`RadialLens.distort`: each shrinks the error by about 2 k1 r**2 (under
#: 0.4 for |k1| <= 0.2, r <= 1 in the frame), so 8 steps leave about 0.01 px of a 20 px bend.
DISTORT_STEPS = 8


@dataclass(frozen=True, slots=True)
class RadialLens:
    """A lens with one radial distortion term (module docstring) for frames of one size.

    Attributes:
        k1: the radial term; 0 is no distortion.
        size: (width, height) of the frames in pixels.

    Raises:
        ValueError: k1 not finite or not within (-0.5, 0.5), or an empty frame size.
    """

    k1: float
    size: tuple[int, int]

    def __post_init__(self) -> None:
        if not math.isfinite(self.k1) or abs(self.k1) >= 0.5 or min(self.size) < 1:
            raise ValueError(f"lens: k1 must be finite and within (-0.5, 0.5) and the frame non-empty, "
                             f"got {self.k1}, {self.size}")

    def _centre_and_norm(self) -> tuple[np.ndarray, float]:
        w, h = self.size
        return np.array([(w - 1) / 2, (h - 1) / 2]), math.hypot(w, h) / 2

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Frame pixels -> ideal pixels (closed form).

        Args:
            points: float array (shape: [N, 2]) of frame (x, y).

        Returns:
            float64 array (shape: [N, 2]).
        """
        c, norm = self._centre_and_norm()
        d = np.asarray(points, np.float64).reshape(-1, 2) - c
        return c + d * (1 + self.k1 * (d**2).sum(axis=1, keepdims=True) / norm**2)

    def distort(self, ideal: np.ndarray) -> np.ndarray:
        """Ideal pixels -> frame pixels (fixed-point iteration of :meth:`undistort`).

        Args:
            ideal: float array (shape: [N, 2]) of ideal (x, y).

        Returns:
            float64 array (shape: [N, 2]).
        """
        d = np.asarray(ideal, np.float64).reshape(-1, 2)
        if self.k1 == 0.0:
            return d.copy()
        c, norm = self._centre_and_norm()
        d = d - c
        p = d
        for _ in range(DISTORT_STEPS):
            p = d / (1 + self.k1 * ((p**2).sum(axis=1, keepdims=True) / norm**2))
        return p + c
