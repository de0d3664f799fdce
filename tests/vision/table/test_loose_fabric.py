"""A face's roughness: smooth tile body against textured fabric."""

from __future__ import annotations

import numpy as np

from vision.table.loose_fabric import ROUGH_FABRIC, on_fabric, roughness

#: A tile 40 x 60 pixels, corners (x, y), and a face: a bar of ink 4 x 20 at its centre.
OUTLINE = np.array([[30, 20], [70, 20], [70, 80], [30, 80]], np.float32)
BAR = np.array([(x, y) for x in range(48, 52) for y in range(40, 60)], np.float32)


def photo(threads: bool) -> np.ndarray:
    """A 100 x 100 BGR photo: cream, with the bar in black, woven with dark threads every 3
    pixels when ``threads``."""
    image = np.full((100, 100, 3), 220, np.uint8)
    if threads:
        image[::3] = 90
        image[:, ::3] = 90
    image[40:60, 48:52] = 20
    return image


def test_a_face_on_smooth_body_is_not_on_fabric():
    assert roughness(photo(False), BAR, 20.0, OUTLINE) == 0.0
    assert not on_fabric(photo(False), BAR, 20.0, OUTLINE)


def test_a_face_on_woven_threads_is_on_fabric():
    assert roughness(photo(True), BAR, 20.0, OUTLINE) >= ROUGH_FABRIC
    assert on_fabric(photo(True), BAR, 20.0, OUTLINE)
