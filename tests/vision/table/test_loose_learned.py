"""The loose tiles of real photos read by the glyph reader and the learned reader joined
(vision.table.loose_learned), as ``read-tiles`` reads them, against the glyph reader alone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.capture.images import load_image
from vision.reader import model, tile_reader
from vision.reader.faces import FACES
from vision.reader.glyph_reader import TileReader
from vision.sim.crops import match_labelled, read_class_names, read_labels
from vision.table.loose_learned import joined_readings, outline_crops
from vision.table.loose_tiles import find_tiles

RUMMIKUB = frozenset([str(v) for v in range(1, 14)] + ["joker"])
#: The valid/ photos' labelled tiles.
VALID_TILES = 476
#: Most of them missed, found with a wrong face and found with a wrong colour, with the learned
#: reader. Shipped: 1, 1 and 0 (the glyph reader alone 4 missed, 4 wrong faces; a retrain of equal
#: quality 2, 1 and 0: tile_reader.md); bounds 4, 4 and 3: a reader erring 1.25 times as often as
#: the shipped one (1.25 and 0.6 expected) exceeds each with probability 0.9% and 0.4%.
MOST_MISSED = 4
MOST_WRONG_FACES = 4
MOST_WRONG_COLOURS = 3

def _read_split(
    split: Path, reader: TileReader, learned: model.TileReader | None
) -> tuple[int, int, int, int]:
    """(faces right, tiles matched, colours right, non-joker tiles matched) over a split."""
    names = read_class_names(split.parent / "data.yaml")
    faces = matched = colours = numbered = 0
    for path in sorted((split / "images").glob("*.jpg")):
        image = load_image(path)
        truth = read_labels(split / "labels" / f"{path.stem}.txt", path, image.shape[1::-1], names)
        tiles = find_tiles(image, reader, RUMMIKUB, learned=learned)
        for i, k in match_labelled([t.center for t in tiles], truth).items():
            matched += 1
            faces += tiles[i].face == truth[k].face
            if truth[k].colour != "joker":
                numbered += 1
                colours += tiles[i].colour == truth[k].colour
    return faces, matched, colours, numbered


def test_the_learned_reader_finds_and_reads_the_valid_photos_tiles_better_than_the_glyph_reader(
    photos_dir: Path, loose_reader: TileReader
) -> None:
    faces, matched, colours, numbered = _read_split(photos_dir / "valid", loose_reader, tile_reader())
    glyph_faces, glyph_matched, _, _ = _read_split(photos_dir / "valid", loose_reader, None)
    assert VALID_TILES - matched <= MOST_MISSED and matched >= glyph_matched, (matched, glyph_matched)
    assert matched - faces <= MOST_WRONG_FACES and faces > glyph_faces, (faces, glyph_faces, matched)
    assert numbered - colours <= MOST_WRONG_COLOURS, (colours, numbered)


def test_a_tile_is_cut_round_its_outline_and_read_as_the_product_of_both_readers() -> None:
    image = np.full((200, 200, 3), 200, np.uint8)
    outline = np.array([[80, 60], [120, 60], [120, 140], [80, 140]], np.float32)
    crops = outline_crops(image, [outline])
    assert crops.shape == (1, 64, 64, 3) and crops.dtype == np.uint8
    learned = tile_reader()
    p_learned, _ = learned.probabilities(crops, ["3", "8"], 4)
    three, eight = float(p_learned[0, FACES.index("3")]), float(p_learned[0, FACES.index("8")])
    # a glyph reading sure of "3" and one sure of "8" move the joined face each its own way
    (face_3, conf_3, _), = joined_readings(image, [outline], [(("3", 0.99), ("8", 0.01))], [np.zeros(3)],
                                           learned, ["3", "8"])
    (face_8, _, _), = joined_readings(image, [outline], [(("8", 0.99), ("3", 0.01))], [np.zeros(3)],
                                      learned, ["3", "8"])
    assert (face_3, face_8) == ("3", "8")
    assert conf_3 == pytest.approx(0.99 * three / (0.99 * three + 0.01 * eight), rel=1e-4)
    assert joined_readings(image, [], [], [], learned, None) == []
