"""The joker's ring measure on drawn rings."""

from __future__ import annotations

import cv2
import numpy as np

from vision.table.loose_jokers import ring_cover

#: A tile 31 pixels across (its outline's short side), corners (x, y).
TILE = np.array([[20, 20], [51, 20], [51, 70], [20, 70]], np.float32)


def ink_with_ring(radius: int) -> np.ndarray:
    """An ink map (float32, 90 x 70) holding one thin ring of ``radius`` pixels around (35, 45)."""
    ink = np.zeros((90, 70), np.float32)
    cv2.circle(ink, (35, 45), radius, 1.0, 1)
    return ink


def test_a_thin_ring_around_a_face_covers_every_direction():
    assert ring_cover(ink_with_ring(8), np.array([35.0, 45.0]), 12.0, TILE) == 1.0


def test_a_face_whose_ring_radii_fall_within_one_half_pixel_has_none():
    # a face 5.04 pixels across on a tile 31 across: its ring's radius could lie only between
    # 6.2 (a fifth of the tile) and 6.3 (the face's size / 0.8), no half pixel between them;
    # once a crash (the best of no radii)
    assert ring_cover(ink_with_ring(6), np.array([35.0, 45.0]), 5.04, TILE) == 0.0
