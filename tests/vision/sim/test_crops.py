"""Cutting real Rummikub crops from the labelled photos."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from vision.sim.crops import (
    CROP_SIZE,
    CropError,
    deskew,
    ink_colour,
    is_upright,
    read_class_names,
    read_labels,
)

PHOTO = "rummy-10_jpeg.rf.0a898723e59f7bf63f46dff5e938f085"


def test_real_photo_tiles_deskew_upright_with_the_labelled_ink_colour(photos_dir: Path) -> None:
    names = read_class_names(photos_dir / "data.yaml")
    photo = cv2.imread(str(photos_dir / "train" / "images" / f"{PHOTO}.jpg"))
    size = (photo.shape[1], photo.shape[0])
    tiles = read_labels(photos_dir / "train" / "labels" / f"{PHOTO}.txt", Path(PHOTO), size, names)
    assert len(tiles) >= 10
    numbered = [t for t in tiles if t.colour != "joker"]
    crops = [deskew(photo, t.polygon) for t in numbered]
    assert all(c.shape == (CROP_SIZE[1], CROP_SIZE[0], 3) for c in crops)
    agree = sum(ink_colour(c) == t.colour for c, t in zip(crops, numbered, strict=True))
    upright = sum(is_upright(c) for c in crops)
    assert agree >= 0.8 * len(numbered)
    assert upright >= 0.8 * len(numbered)
    # the same crops turned over are no longer upright
    assert sum(is_upright(cv2.rotate(c, cv2.ROTATE_180)) for c in crops) <= 0.2 * len(numbered)


def test_malformed_label_line_names_file_and_line(tmp_path: Path) -> None:
    label = tmp_path / "bad.txt"
    label.write_text("3 0.1 0.1 0.2 0.1 0.2 0.2\nseven 0.1 0.2\n", encoding="utf-8")
    with pytest.raises(CropError, match=r"bad\.txt:2"):
        read_labels(label, tmp_path / "bad.jpg", (100, 100), ["a", "b", "c", "d"])
