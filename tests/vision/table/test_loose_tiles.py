"""Loose Rummikub tiles found and read in real photos (wood, grey table, touching tiles, racks,
any rotation) as ``read-tiles`` reads them (the learned tile finder and the learned reader), and
nothing found in photos of bare backgrounds. The photos of train/ taught the finder and the
reader: their cases guard against a retrain that loses them; valid/ gives the rates."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.capture.images import load_image
from vision.reader import tile_reader
from vision.sim.crops import LabelledTile, match_labelled, read_class_names, read_labels
from vision.table.finder import FinderError
from vision.table.loose_tiles import LooseTile, find_tiles

RUMMIKUB = frozenset([str(v) for v in range(1, 14)] + ["joker"])

#: Photos of train/ (name prefix): rows of touching tiles on wood, big tiles at any rotation on
#: dark wood, tiles on a grey table, tiles on a rack in front of marble (twice: in rummy3-13 the
#: black rack encloses every tile), and two racks on a white table.
PHOTOS = ("rummy-28_", "rummy2-28_", "rummy4-7_", "rummy3-21_", "rummy3-13_", "rummy4-86_", "rummy4-89_")


def read_tiles(image: np.ndarray, allowed: frozenset[str] | None = None) -> list[LooseTile]:
    """The tiles ``read-tiles`` finds and reads."""
    return find_tiles(image, tile_reader(), allowed)


@pytest.fixture(scope="module")
def read_photo(train_photo) -> Callable[[str], tuple[list[LabelledTile], list[LooseTile]]]:
    """The labelled tiles of the train/ photo named by a prefix and the Rummikub tiles ``read-tiles``
    finds in it, read once per photo."""

    @functools.cache
    def read(prefix: str) -> tuple[list[LabelledTile], list[LooseTile]]:
        image, truth = train_photo(prefix)
        return truth, read_tiles(image, RUMMIKUB)

    return read


def found_once(truth, tiles: list[LooseTile], x: float, y: float, name: str) -> bool:
    """Whether the labelled tile holding photo point (x, y) is ``name`` and has one tile found on it."""
    label, faces = found_at(truth, tiles, x, y)
    return label == name and len(faces) == 1


def read_right(truth, tiles: list[LooseTile], x: float, y: float, name: str) -> bool:
    """Whether the labelled tile ``name`` holding photo point (x, y) is found once with its face (and
    colour: "orange_6" must be read as an orange 6, a joker as a joker)."""
    label = next(t for t in truth if cv2.pointPolygonTest(t.polygon, (x, y), False) >= 0)
    on = [t for t in tiles if cv2.pointPolygonTest(label.polygon, t.center, False) >= 0]
    return (label.name == name and len(on) == 1 and on[0].face == label.face
            and (label.colour == "joker" or on[0].colour == label.colour))


def match(truth, tiles, prefix: str) -> dict[int, LooseTile]:
    """Each found tile's labelled tile (by index), asserting that it lies on exactly one, once."""
    matched: dict[int, LooseTile] = {}
    for tile in tiles:
        hits = [i for i, t in enumerate(truth) if cv2.pointPolygonTest(t.polygon, tile.center, False) >= 0]
        assert len(hits) == 1, f"{prefix}: {tile.face} at {tile.center} lies on {len(hits)} labelled tiles"
        assert hits[0] not in matched, f"{prefix}: tile {truth[hits[0]].name} found twice"
        matched[hits[0]] = tile
    return matched


def found_at(truth, tiles: list[LooseTile], x: float, y: float) -> tuple[str, list[str]]:
    """(labelled name, faces read) of the labelled tile holding photo point (x, y): the faces of
    every tile found with its centre on it."""
    label = next(t for t in truth if cv2.pointPolygonTest(t.polygon, (x, y), False) >= 0)
    return label.name, [t.face for t in tiles if cv2.pointPolygonTest(label.polygon, t.center, False) >= 0]


#: Tiles that were hard to find or read (prefix, x, y of a point on the tile, its labelled name):
#: pale orange two-digit faces whose strokes break, big jokers whose features lie in a thin ring,
#: faces of touching tiles, tiles on racks before a grey wall or white marble, small tiles in dim
#: light, jokers with thin-lined features, tiles in a shadow on a grey table, blue faces on wood,
#: and single tiles beside a rack, a rug's fibres or a long shadow.
NAMED = (
    ("rummy-12_", 124, 311, "orange_13"), ("rummy-32_", 131, 324, "orange_13"),
    ("rummy4-30_", 423, 139, "orange_12"),
    ("rummy-9_", 437, 151, "orange_12"), ("rummy-17_", 659, 331, "joker"), ("rummy-26_", 361, 502, "joker"),
    ("rummy-27_", 795, 398, "red_10"), ("rummy-27_", 865, 346, "blue_10"),
    ("rummy4-16_", 414, 129, "orange_12"),
    ("rummy2-6_", 409, 401, "black_12"), ("rummy2-32_", 243, 251, "orange_7"),
    ("rummy-7_", 706, 144, "orange_13"),
    ("rummy-40_", 549, 559, "orange_6"), ("rummy-44_", 336, 229, "orange_7"),
    ("rummy-6_", 447, 273, "orange_10"),
    ("rummy-46_", 252, 212, "orange_10"), ("rummy-45_", 65, 402, "blue_8"),
    ("rummy3-20_", 745, 296, "orange_5"),
    ("rummy4-88_", 711, 251, "black_9"), ("rummy3-15_", 323, 270, "orange_6"),
    ("rummy3-16_", 306, 232, "red_9"),
    ("rummy4-16_", 285, 491, "black_9"), ("rummy-47_", 576, 351, "orange_1"),
    ("rummy-47_", 510, 302, "orange_6"),
    ("rummy-47_", 331, 320, "orange_11"), ("rummy-47_", 268, 443, "orange_7"),
    ("rummy-3_", 238, 241, "orange_2"),
    ("rummy-6_", 380, 239, "orange_12"), ("rummy-16_", 705, 402, "joker"), ("rummy-40_", 545, 420, "joker"),
    ("rummy-45_", 344, 499, "joker"), ("rummy-35_", 607, 325, "joker"), ("rummy-3_", 353, 535, "joker"),
    ("rummy-47_", 357, 475, "joker"), ("rummy-6_", 517, 490, "joker"), ("rummy4-16_", 575, 303, "joker"),
    ("rummy-19_", 908, 409, "joker"), ("rummy-47_", 592, 429, "joker"), ("rummy2-32_", 379, 181, "blue_9"),
    ("rummy2-32_", 448, 341, "blue_10"), ("rummy2-32_", 270, 413, "black_13"),
    ("rummy3-20_", 247, 281, "black_4"),
    ("rummy4-5_", 798, 584, "orange_9"), ("rummy4-5_", 883, 562, "orange_11"),
    ("rummy4-9_", 874, 597, "black_5"),
    ("rummy4-2_", 583, 607, "black_8"), ("rummy-4_", 777, 120, "blue_13"), ("rummy-4_", 586, 181, "blue_9"),
    ("rummy-7_", 577, 108, "blue_13"), ("rummy3-4_", 432, 293, "red_6"), ("rummy-6_", 459, 553, "red_3"),
    ("rummy-6_", 613, 302, "red_8"), ("rummy2-3_", 335, 441, "red_9"), ("rummy2-3_", 591, 327, "blue_8"),
    ("rummy4-66_", 378, 545, "black_9"), ("rummy4-71_", 382, 438, "joker"),
    ("rummy2-32_", 621, 413, "blue_3"),
)
#: rummy-47: pale orange 6 and 9 whose strokes break at the ink level, counted with NAMED by their
#: colour (read at every turn, a 6 may read as a 9).
PALE_BROKEN = ((80, 653, "orange_6"), (329, 539, "orange_9"))
#: Most of the 59 not found once or read otherwise. Shipped: none; bound 10: a reader erring 1.25
#: times as often as a retrain of the reader of equal quality did (four tiles of these photos read
#: otherwise, tile_reader.md; 5 expected) exceeds it with probability 1.4%.
MOST_NAMED_WRONG = 10
#: The valid/ photos' labelled tiles.
VALID_TILES = 476
#: Most of them missed, tiles found on none of them, found with a wrong face and found with a wrong
#: colour. Shipped: 0, 0, 0 and 0 (the tile finder was chosen on them between two candidates);
#: bounds 4 each: a finder or reader erring 1.25 times as often as the reading before it (1, 1, 1
#: and 0; 1.25 expected) exceeds each with probability 0.9%.
MOST_MISSED = MOST_EXTRA = MOST_WRONG_FACES = MOST_WRONG_COLOURS = 4


@pytest.mark.parametrize("prefix", PHOTOS)
def test_every_tile_of_a_real_photo_is_found(read_photo, prefix):
    truth, tiles = read_photo(prefix)
    matched = match(truth, tiles, prefix)
    missed = [t.name for i, t in enumerate(truth) if i not in matched]
    assert not missed, f"{prefix}: missed {missed}"
    for tile in matched.values():
        assert len(tile.corners) == 4 and 0.0 <= tile.confidence <= 1.0
        assert cv2.pointPolygonTest(np.array(tile.corners, np.float32), tile.center, False) >= 0
        assert abs(np.hypot(*tile.up) - 1) < 1e-6


#: Photos of train/ whose tiles lie in dim warm light: orange tiles (rummy3-15) and blue tiles
#: (rummy-46).
DIM_WARM_LIGHT = ("rummy3-15_", "rummy-46_")
#: Most faces (of PHOTOS) and colours (of both) of the tiles found read otherwise. Shipped: none of
#: 157 tiles; bound 4: a reader erring 1.25 times as often as the reading before it (one tile)
#: exceeds it with probability 0.9%.
MOST_PHOTO_TILES_WRONG = 4


@pytest.mark.parametrize("prefix", DIM_WARM_LIGHT)
def test_tiles_in_dim_warm_light_are_found(read_photo, prefix):
    truth, tiles = read_photo(prefix)
    assert len(match(truth, tiles, prefix)) >= 0.9 * len(truth)


def test_the_photos_tiles_are_read_right(read_photo):
    """The faces and colours of every tile found in PHOTOS and DIM_WARM_LIGHT, counted together."""
    wrong, tiles_read = [], 0
    for prefix in (*PHOTOS, *DIM_WARM_LIGHT):
        truth, tiles = read_photo(prefix)
        for i, tile in match(truth, tiles, prefix).items():
            t = truth[i]
            tiles_read += 1
            if tile.face != t.face and prefix in PHOTOS:
                wrong.append(f"{prefix} {t.name} read as {tile.face}")
            if t.colour != "joker" and tile.colour != t.colour:
                wrong.append(f"{prefix} {t.name} colour read as {tile.colour}")
    assert tiles_read > 140 and len(wrong) <= MOST_PHOTO_TILES_WRONG, wrong


@pytest.mark.parametrize(("prefix", "x", "y", "name"), NAMED)
def test_a_named_tile_is_found_once(read_photo, prefix, x, y, name):
    assert found_once(*read_photo(prefix), x, y, name)


def test_the_named_tiles_are_read_right(read_photo):
    """The NAMED tiles and PALE_BROKEN, counted together."""
    wrong = [f"{prefix} {x},{y} {name}" for prefix, x, y, name in NAMED
             if not read_right(*read_photo(prefix), x, y, name)]
    truth, tiles = read_photo("rummy-47_")
    wrong += [name for x, y, name in PALE_BROKEN
              if not found_once(truth, tiles, x, y, name)
              or next(t for t in tiles if found_at(truth, [t], x, y)[1]).colour != "orange"]
    assert len(wrong) <= MOST_NAMED_WRONG, wrong


def test_the_valid_photos_tiles_are_found_and_read(photos_dir: Path) -> None:
    names = read_class_names(photos_dir / "data.yaml")
    split = photos_dir / "valid"
    labelled = matched = found = faces = colours = numbered = 0
    for path in sorted((split / "images").glob("*.jpg")):
        image = load_image(path)
        truth = read_labels(split / "labels" / f"{path.stem}.txt", path, image.shape[1::-1], names)
        tiles = read_tiles(image, RUMMIKUB)
        labelled, found = labelled + len(truth), found + len(tiles)
        for i, k in match_labelled([t.center for t in tiles], truth).items():
            matched += 1
            faces += tiles[i].face == truth[k].face
            if truth[k].colour != "joker":
                numbered += 1
                colours += tiles[i].colour == truth[k].colour
    assert labelled == VALID_TILES
    assert labelled - matched <= MOST_MISSED and found - matched <= MOST_EXTRA, (matched, found)
    assert matched - faces <= MOST_WRONG_FACES and numbered - colours <= MOST_WRONG_COLOURS, (faces, colours)


def test_bare_backgrounds_give_no_tiles(photos_dir):
    for path in sorted((photos_dir / "train" / "images").glob("rummyBackground*.jpg")):
        assert read_tiles(cv2.imread(str(path)), RUMMIKUB) == [], path.name


@pytest.mark.parametrize("prefix", ["rummy3-2_", "rummy3-5_", "rummy3-14_", "rummy3-17_"])
def test_a_whole_rack_is_no_tile(read_photo, prefix):
    match(*read_photo(prefix), prefix)


def test_a_rack_beside_one_tile_is_no_tile_and_hides_none(read_photo):
    truth, tiles = read_photo("rummy3-4_")
    assert len(tiles) == 1 and found_once(truth, tiles, 432, 293, "red_6")


def test_one_big_tile_on_fabric_is_one_tile(read_photo):
    # rummy4-66: one big 9 on woven fabric with its logo's letters and chips of its edge;
    # rummy4-71: one big black joker on a rug
    for prefix, x, y, name in (("rummy4-66_", 378, 545, "black_9"), ("rummy4-71_", 382, 438, "joker")):
        truth, tiles = read_photo(prefix)
        assert len(tiles) == 1 and found_once(truth, tiles, x, y, name), prefix


@pytest.mark.parametrize(("prefix", "x", "y"), [
    ("rummy4-22_", 948, 524), ("rummy4-32_", 508, 613), ("rummy4-54_", 519, 522), ("rummy4-76_", 363, 360),
    ("rummy-16_", 26, 268),
])
def test_fibres_on_fabric_are_no_tiles(read_photo, prefix, x, y):
    # a woven rug's light threads (rummy4-*) or wood's grain (rummy-16) beside tiles
    _, tiles = read_photo(prefix)
    assert [t.face for t in tiles if np.hypot(t.center[0] - x, t.center[1] - y) < 25] == []


def test_a_joker_is_no_tile_of_a_set_without_jokers(train_photo):
    image, truth = train_photo("rummy-16_")
    digits = RUMMIKUB - {"joker"}
    label, faces = found_at(truth, read_tiles(image, digits), 705, 402)
    assert label == "joker" and "joker" not in faces


#: Small two-digit faces cut across by a thin bright line (prefix, box x0, y0, x1, y1, the row cut,
#: the labelled name).
HIGHLIGHTS = (
    ("rummy-9_", (538, 120, 561, 139), 132, "red_12"), ("rummy-7_", (402, 200, 424, 218), 211, "red_10"),
    ("rummy-7_", (432, 153, 451, 167), 162, "orange_12"),
)


@pytest.mark.parametrize(("prefix", "box", "row", "name"), HIGHLIGHTS)
def test_a_face_cut_across_by_a_highlight_is_one_tile(train_photo, prefix, box, row, name):
    # a thin bright line across a small two-digit face: found once, and read as a face of two
    # digits (which two is the reader's business)
    image, truth = train_photo(prefix)
    x0, y0, x1, y1 = box
    cut = image.copy()
    cut[row, x0:x1] = np.median(image[y0 - 4:y0 - 1, x0:x1].reshape(-1, 3), axis=0)
    label, faces = found_at(truth, read_tiles(cut, RUMMIKUB), (x0 + x1) / 2, (y0 + y1) / 2)
    assert label == name and len(faces) == 1 and len(faces[0]) == 2, faces


def test_bad_photo_is_named():
    with pytest.raises(FinderError, match="expected a BGR uint8"):
        read_tiles(np.zeros((100, 100), np.uint8))


def test_loose_tile_checks_its_invariants():
    with pytest.raises(ValueError, match="4 corners"):
        LooseTile("7", "red", 0.9, ((0.0, 0.0),), (0.0, 0.0), (0.0, -1.0))

