"""The tile body's surface in real photos of the train/ split: the lookup table's, and the one
learned from the photo's own confidently read tiles (vision/table/surface.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.table.loose_tiles import SHADE, SHADE_NEW, _body_samples, _read_surface
from vision.table.surface import (
    body_sample,
    new_regions,
    photo_surface,
    shade_regions,
    surface_lut,
    surface_mask,
    working_image,
)

RUMMIKUB = frozenset([str(v) for v in range(1, 14)] + ["joker"])


def small_photo(train_photo, prefix: str):
    """(photo, photo at the working scale, scale, bool mask of its labelled tiles at that scale
    less a 2-pixel rim)."""
    image, labelled = train_photo(prefix)
    small, scale = working_image(image)
    tiles = np.zeros(small.shape[:2], np.uint8)
    for t in labelled:
        cv2.fillPoly(tiles, [np.round(t.polygon * scale).astype(np.int32)], 1)
    return image, small, scale, cv2.erode(tiles, np.ones((5, 5), np.uint8)) > 0


def first_surfaces(image, small, scale, reader):
    """The lookup table's surface, the body sample of the faces read on it surely, and the
    photo's own surface from that sample (as vision.table.loose_tiles.read_faces makes them)."""
    lut_surface = surface_mask(small, surface_lut())
    first = _read_surface(image, small.astype(np.float32), lut_surface, scale, reader, RUMMIKUB, [], None)
    sample = body_sample(small, _body_samples(first, lut_surface[0], scale))
    assert sample is not None
    return lut_surface, sample, photo_surface(small, sample)


@pytest.mark.parametrize("prefix", ["rummy4-86_", "rummy4-90_"])
def test_the_photos_own_body_colour_finds_cream_tiles_on_a_white_table(train_photo, loose_reader, prefix):
    # racks on a white table in neutral light: the lookup table's regions leave out a sixth to a
    # third of the tiles and its body takes in half of the table; the regions of the body colour
    # learned from the tiles read with confidence cover nearly all of every tile, and that body
    # hardly any of the table
    image, small, scale, tiles = small_photo(train_photo, prefix)
    lut_surface, sample, own = first_surfaces(image, small, scale, loose_reader)
    assert (lut_surface[1][tiles] > 0).mean() < 0.9
    assert (own[1][tiles] > 0).mean() > 0.98
    assert (lut_surface[0][~tiles] > 0).mean() > 0.3
    assert (own[0][~tiles] > 0).mean() < 0.1
    assert new_regions(own, lut_surface) is not None


def test_too_few_samples_learn_no_body_colour(train_photo):
    _, small, _, _ = small_photo(train_photo, "rummy4-86_")
    samples = np.zeros(small.shape[:2], np.uint8)
    samples[100:105, 100:105] = 1
    assert body_sample(small, samples) is None


def test_a_surface_has_no_regions_new_to_itself(train_photo):
    _, small, _, _ = small_photo(train_photo, "rummy-28_")
    surface = surface_mask(small, surface_lut())
    assert surface[1].max() > 0
    assert new_regions(surface, surface) is None


@pytest.mark.parametrize("prefix, found", [("rummy4-9_", True), ("rummy4-30_", False)])
def test_shade_finds_a_shadowed_group_and_no_rug(train_photo, loose_reader, prefix, found):
    # rummy4-9: two tiles in a shadow, away from both earlier surfaces, make a new smooth region;
    # rummy4-30: a rug in warm light, lit like the body, takes in a third of the photo, rough
    # with threads: no region of it is searched
    image, small, scale, tiles = small_photo(train_photo, prefix)
    lut_surface, sample, own = first_surfaces(image, small, scale, loose_reader)
    searched = (lut_surface[1] > 0) | (own[1] > 0)
    dark = shade_regions(small, sample, searched, SHADE, SHADE_NEW)
    assert (dark is not None) == found
    if dark is not None:  # the black 5 in it, and mostly tile where it is new
        assert dark[1][round(597 * scale), round(874 * scale)] > 0
        new = (dark[1] > 0) & ~searched
        assert (new & tiles).sum() > 0.7 * new.sum()
