"""Loose Rummikub tiles found and read in real photos of the train/ split (wood, grey table,
touching tiles, any rotation) and nothing found in photos of bare backgrounds, read as
``read-tiles`` reads them (the glyph reader and the learned reader joined)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from vision.reader import tile_reader
from vision.reader.glyph_reader import TileReader
from vision.sim.crops import LabelledTile
from vision.table.loose_tiles import LooseTile, LooseTileError, find_tiles, prepare

RUMMIKUB = frozenset([str(v) for v in range(1, 14)] + ["joker"])

#: Photos of train/ (name prefix): rows of touching tiles on wood, big tiles at any rotation on
#: dark wood, tiles on a grey table, tiles on a rack in front of marble (twice: in rummy3-13 the
#: black rack encloses every digit), and two racks on a white table whose cream tiles the surface
#: table half misses (rummy4-86, rummy4-89: 7 and 4 tiles missed before the photo's own body
#: colour was learned).
PHOTOS = ("rummy-28_", "rummy2-28_", "rummy4-7_", "rummy3-21_", "rummy3-13_", "rummy4-86_", "rummy4-89_")


def read_tiles(image: np.ndarray, reader: TileReader, allowed: frozenset[str] | None = None
               ) -> list[LooseTile]:
    """The tiles ``read-tiles`` finds: the glyph reader's, read by it and the learned reader joined."""
    return find_tiles(image, reader, allowed, learned=tile_reader())


@pytest.fixture(scope="module")
def read_photo(train_photo, loose_reader) -> Callable[[str], tuple[list[LabelledTile], list[LooseTile]]]:
    """The labelled tiles of the train/ photo named by a prefix and the Rummikub tiles ``read-tiles``
    finds in it, read once per photo."""

    @functools.cache
    def read(prefix: str) -> tuple[list[LabelledTile], list[LooseTile]]:
        image, truth = train_photo(prefix)
        return truth, read_tiles(image, loose_reader, RUMMIKUB)

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


#: Tiles the finder once missed, split, joined with another or misread (prefix, x, y of a point on
#: the tile, its labelled name), each named for the way it was mended by a test below; each is
#: found there once, and the learned reader joined to the glyph reader reads most of them right.
#: Pale orange 12s and 13s whose second digit breaks into pieces at the ink level, too small beside
#: the first to be grouped with it: once read as "1", "3" or "2" (rummy4-30: "2", 1.00 sure); their
#: pieces joined by weaker ink make the whole digit.
TWO_DIGITS_BROKEN = (
    ("rummy-12_", 124, 311, "orange_13"), ("rummy-32_", 131, 324, "orange_13"),
    ("rummy4-30_", 423, 139, "orange_12"), ("rummy-9_", 437, 151, "orange_12"),
)
#: Big black jokers whose thin ring is no glyph: their eyes, nose and mouth were faces of their own,
#: the nose read as a "1" (rummy-17) or a "7" (rummy-26) beside a second tile "joker".
JOKER_RINGS = (("rummy-17_", 659, 331, "joker"), ("rummy-26_", 361, 502, "joker"))
#: Whole faces of touching tiles once grouped into one face.
TOUCHING = (
    # rummy-27: a red 10 and a blue 10 on touching tiles, each "10" one ink component, once
    # grouped into one face through the gap between them (both tiles missed)
    ("rummy-27_", 795, 398, "red_10"), ("rummy-27_", 865, 346, "blue_10"),
    # rummy4-16: a pale orange "12" and "13" on touching tiles, each one component, their boxes
    # 10 px apart (0.42 of the taller's height), once one face
    ("rummy4-16_", 414, 129, "orange_12"),
    # rummy2-6: the "1" and "2" of a big black 12 joined by weak ink to the long shadow between
    # two rows of tiles, once one piece-joined face with it
    ("rummy2-6_", 409, 401, "black_12"),
    # rummy2-32: an orange 7 and a blue 8 on touching big tiles, once one face read as an "8"
    ("rummy2-32_", 243, 251, "orange_7"),
)
ONCE_MISREAD = (
    # pale orange faces of which only pieces were ink, once read unsure as another face (a 13 as
    # an 11, a 6 as a 5, a 7 as an 8): read again with their strokes joined
    ("rummy-7_", 706, 144, "orange_13"), ("rummy-40_", 549, 559, "orange_6"),
    ("rummy-44_", 336, 229, "orange_7"),
    # blurred pale orange 10s whose "1" and "0" run together, read unsure as "13" (0.25 and 0.20)
    # and as "10" a little surer (0.48 and 0.49) once their strokes are joined
    ("rummy-6_", 447, 273, "orange_10"), ("rummy-46_", 252, 212, "orange_10"),
    # a blurred blue 8 on a tile whose body is 0.45 ink against its region's colour: the holes
    # of the 8, 0.55..0.65, were ink too and it read "6" (0.38); read against the body beside it
    ("rummy-45_", 65, 402, "blue_8"),
    # an orange 5 on a tan tile of a rack, 0.40 ink around it: a blob of that body joined to it
    # read as "13" (0.92); against the body beside it the 5 is weak ink, its strokes joined
    ("rummy3-20_", 745, 296, "orange_5"),
    # racks in front of a grey wall or white marble: the tiles' region spills onto the wall
    # above, and an outline taking that in put the face in its tile's lower part, upside down
    # (a 9 read as a 6); the outline keeps to the colour of the body beside the face
    ("rummy4-88_", 711, 251, "black_9"), ("rummy3-15_", 323, 270, "orange_6"),
    ("rummy3-16_", 306, 232, "red_9"),
    # a rack whose tiles' region is cut along them by the light: a black 9's outline, a slab
    # along the tiles' tops, leaves part of its ink outside and puts it low, upside down (a "6",
    # 0.52); read with no outline
    ("rummy4-16_", 285, 491, "black_9"),
)
#: Small tiles in dim light whose pale orange ink lies under the ink level nearly everywhere (its
#: contrast with the cream body is in a*b*, not lightness): once missed, no piece of them
#: glyph-shaped; now ink where its chroma rises above its neighbourhood's.
PALE_UNDER_INK = (
    ("rummy-47_", 576, 351, "orange_1"), ("rummy-47_", 510, 302, "orange_6"),
    ("rummy-47_", 331, 320, "orange_11"), ("rummy-47_", 268, 443, "orange_7"),
    ("rummy-3_", 238, 241, "orange_2"), ("rummy-6_", 380, 239, "orange_12"),
)
#: Jokers whose thin-lined features the glyph reader calls "none" at every turn, and small red
#: jokers whose ring and features, one component, fill so much of the tile that the frame around
#: them reaches past it (0.76..0.82 of it on tile region, under a glyph's 0.85); a ring around
#: features read apart; a ring broken in two around features too small to be glyphs: the learned
#: reader reads each as a joker, once.
JOKERS_OF_NO_GLYPH = tuple((prefix, x, y, "joker") for prefix, x, y in (
    ("rummy-16_", 705, 402), ("rummy-40_", 545, 420), ("rummy-45_", 344, 499), ("rummy-35_", 607, 325),
    ("rummy-3_", 353, 535), ("rummy-47_", 357, 475), ("rummy-6_", 517, 490), ("rummy4-16_", 575, 303),
    ("rummy-19_", 908, 409), ("rummy-47_", 592, 429),
))
#: rummy2-32: the digits of a blue 8 and an orange 7 on touching tiles grouped into one face read as
#: a sure "8"; rummy3-20: a rack's divider read as a sure "1". Each, far bigger than the photo's
#: other faces, made the whole faces near it specks beside it.
BESIDE_A_GIANT = (
    ("rummy2-32_", 379, 181, "blue_9"), ("rummy2-32_", 448, 341, "blue_10"),
    ("rummy2-32_", 270, 413, "black_13"), ("rummy3-20_", 247, 281, "black_4"),
)
#: A group of tiles in a shadow on a grey table: their body is darker than the lookup table's cream
#: and more than three deviations from the photo's own body colour, so no surface held them; lit
#: like the body, their colour is the body's and the table's stays grey.
IN_A_SHADOW = (
    ("rummy4-5_", 798, 584, "orange_9"), ("rummy4-5_", 883, 562, "orange_11"),
    ("rummy4-9_", 874, 597, "black_5"), ("rummy4-2_", 583, 607, "black_8"),
)
#: Blue faces on tiles lying on wood, clear to the eye, that the glyph reader reads as "none" at
#: every turn: the glyph reader alone misses them.
GLYPH_READER_CALLS_NO_FACE = (
    ("rummy-4_", 777, 120, "blue_13"), ("rummy-4_", 586, 181, "blue_9"), ("rummy-7_", 577, 108, "blue_13"),
)
#: rummy-47: pale orange 6 and 9 whose strokes break at the ink level.
PALE_BROKEN = ((80, 653, "orange_6"), (329, 539, "orange_9"))
#: Single tiles of the tests below that stand alone (prefix, x, y, name).
SINGLES = (
    ("rummy3-4_", 432, 293, "red_6"), ("rummy-6_", 459, 553, "red_3"), ("rummy-6_", 613, 302, "red_8"),
    ("rummy2-3_", 335, 441, "red_9"), ("rummy2-3_", 591, 327, "blue_8"), ("rummy4-66_", 378, 545, "black_9"),
    ("rummy4-71_", 382, 438, "joker"), ("rummy2-32_", 621, 413, "blue_3"),
)
#: Every tile named above; the pale orange 6 and 9 of PALE_BROKEN are counted with them by their
#: colour (read at every turn, a 6 may read as a 9).
NAMED = (*TWO_DIGITS_BROKEN, *JOKER_RINGS, *TOUCHING, *ONCE_MISREAD, *PALE_UNDER_INK, *JOKERS_OF_NO_GLYPH,
         *BESIDE_A_GIANT, *IN_A_SHADOW, *GLYPH_READER_CALLS_NO_FACE, *SINGLES)
#: Most of the 61 not found once or read otherwise. Shipped: none; a retrain of equal quality read
#: up to four single tiles of these photos otherwise (tile_reader.md), so bound 10: a reader erring
#: 1.25 times as often as that (5 expected) exceeds it with probability 1.4%, one erring three
#: times as often (12) stays within it with 35%.
MOST_NAMED_WRONG = 10


@pytest.mark.parametrize("prefix", PHOTOS)
def test_every_tile_of_a_real_photo_is_found(read_photo, prefix):
    truth, tiles = read_photo(prefix)
    matched = match(truth, tiles, prefix)
    missed = [t.name for i, t in enumerate(truth) if i not in matched]
    assert not missed, f"{prefix}: missed {missed}"
    for tile in matched.values():
        assert len(tile.corners) == 4 and 0.0 <= tile.confidence <= 1.0
        assert cv2.pointPolygonTest(np.array(tile.corners, np.float32), tile.center, False) >= 0


#: Photos of train/ whose tiles lie in dim warm light: orange tiles (rummy3-15) and blue tiles
#: (rummy-46), once named red and black by the nearest mean colour.
DIM_WARM_LIGHT = ("rummy3-15_", "rummy-46_")
#: Most faces (of PHOTOS) and colours (of both) of the tiles found read otherwise. Shipped: 1 (a red 7
#: among touching tiles read "1", the neighbours' 10 and 0 in its crop) of 157 tiles; bound 4: a
#: reader erring 1.25 times as often exceeds it with probability 0.9%.
MOST_PHOTO_TILES_WRONG = 4


@pytest.mark.parametrize("prefix", DIM_WARM_LIGHT)
def test_tiles_in_dim_warm_light_are_found(read_photo, prefix):
    truth, tiles = read_photo(prefix)
    assert len(match(truth, tiles, prefix)) >= 0.9 * len(truth)


def test_the_photos_tiles_are_read_right(read_photo):
    """The faces and colours of every tile found in PHOTOS and DIM_WARM_LIGHT, counted together: a
    retrain reads a tile or two of them otherwise."""
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


def test_the_named_tiles_are_found_once_and_read_right(read_photo):
    """The NAMED tiles and PALE_BROKEN, counted together: each is the finder's case (found there once:
    its test below), and reading most of them right is the joined readers'."""
    wrong = [f"{prefix} {x},{y} {name}" for prefix, x, y, name in NAMED
             if not read_right(*read_photo(prefix), x, y, name)]
    truth, tiles = read_photo("rummy-47_")
    wrong += [name for x, y, name in PALE_BROKEN
              if not found_once(truth, tiles, x, y, name)
              or next(t for t in tiles if found_at(truth, [t], x, y)[1]).colour != "orange"]
    assert len(wrong) <= MOST_NAMED_WRONG, wrong


def test_bare_backgrounds_give_no_tiles(photos_dir, loose_reader):
    for path in sorted((photos_dir / "train" / "images").glob("rummyBackground*.jpg")):
        assert read_tiles(cv2.imread(str(path)), loose_reader, RUMMIKUB) == [], path.name


@pytest.mark.parametrize("prefix", ["rummy3-2_", "rummy3-5_", "rummy3-14_", "rummy3-17_"])
def test_a_whole_rack_is_no_tile(read_photo, prefix):
    # racks whose black frame, one ink component around every tile, was read as a "1" or an "8"
    match(*read_photo(prefix), prefix)


def test_a_rack_beside_one_tile_is_no_tile_and_hides_none(read_photo):
    # rummy3-4: a rack's frame read as a sure "1" beside a single red 6, the median of the two
    # faces half its own size: it was a tile, and the 6 a speck beside it
    truth, tiles = read_photo("rummy3-4_")
    assert len(tiles) == 1 and found_once(truth, tiles, 432, 293, "red_6")


def test_bad_photo_is_named(loose_reader):
    with pytest.raises(LooseTileError, match="expected a BGR uint8"):
        read_tiles(np.zeros((100, 100), np.uint8), loose_reader)


def test_loose_tile_checks_its_invariants():
    with pytest.raises(ValueError, match="4 corners"):
        LooseTile("7", "red", 0.9, ((0.0, 0.0),), (0.0, 0.0), (0.0, -1.0))


def test_a_face_read_as_none_on_touching_tiles_is_read_again_at_every_turn(read_photo):
    # rummy-6: a red 3 and a red 8 on tiles touching others, whose shared region gives them a
    # wrong outline: read as "none" at the outline's rotations, found when read at every turn
    truth, tiles = read_photo("rummy-6_")
    assert found_once(truth, tiles, 459, 553, "red_3") and found_once(truth, tiles, 613, 302, "red_8")


def test_specks_beside_a_big_tile_on_fabric_are_no_tiles(read_photo):
    # rummy4-66: one big 9 on woven fabric; letters of its logo and chips of its edge once read
    # as an 8 and a 10 beside it
    truth, tiles = read_photo("rummy4-66_")
    assert len(tiles) == 1 and found_once(truth, tiles, 378, 545, "black_9")


def test_digits_of_neighbouring_tiles_are_not_one_face(read_photo):
    # rummy2-3: a red 9, a black 11 and a blue 8 on touching tiles, once chained into one face
    # through the long shadow between two tiles
    truth, tiles = read_photo("rummy2-3_")
    assert found_once(truth, tiles, 335, 441, "red_9") and found_once(truth, tiles, 591, 327, "blue_8")
    assert len(found_at(truth, tiles, 492, 486)[1]) == 1


def test_pale_orange_faces_with_broken_strokes_are_read(read_photo):
    # rummy-47: small tiles whose pale orange 6 and 9 break into pieces at the ink level, read
    # as "none" until their strokes are joined (which digit they read as is the classifier's
    # business: read at every turn, a 6 may read as a 9)
    truth, tiles = read_photo("rummy-47_")
    for x, y, name in PALE_BROKEN:
        assert found_once(truth, tiles, x, y, name), name


@pytest.mark.parametrize("prefix, x, y, name", TWO_DIGITS_BROKEN)
def test_a_pale_two_digit_face_whose_strokes_break_is_one_face(read_photo, prefix, x, y, name):
    assert found_once(*read_photo(prefix), x, y, name)


@pytest.mark.parametrize("prefix, x, y, name", JOKER_RINGS)
def test_a_jokers_features_inside_its_thin_ring_are_one_face(read_photo, prefix, x, y, name):
    assert found_once(*read_photo(prefix), x, y, name)


@pytest.mark.parametrize("prefix, x, y, name", TOUCHING)
def test_whole_faces_of_touching_tiles_are_not_one_face(read_photo, prefix, x, y, name):
    assert found_once(*read_photo(prefix), x, y, name)


@pytest.mark.parametrize("prefix, x, y, name", ONCE_MISREAD)
def test_a_face_once_misread_is_found_once(read_photo, prefix, x, y, name):
    assert found_once(*read_photo(prefix), x, y, name)


@pytest.mark.parametrize("prefix, x, y, name", PALE_UNDER_INK)
def test_pale_orange_ink_under_the_ink_level_is_found(read_photo, prefix, x, y, name):
    assert found_once(*read_photo(prefix), x, y, name)


@pytest.mark.parametrize("prefix, x, y, name", JOKERS_OF_NO_GLYPH)
def test_a_joker_the_glyph_reader_reads_as_no_face_is_no_more_than_one_tile(read_photo, prefix, x, y, name):
    # found at all only where the learned reader reads it as a joker surely: counted with the
    # NAMED tiles; here its ring and features are never two tiles
    truth, tiles = read_photo(prefix)
    label, faces = found_at(truth, tiles, x, y)
    assert label == name and len(faces) <= 1


def test_a_joker_is_no_tile_of_a_set_without_jokers(train_photo, loose_reader):
    # a joker that only the learned reader reads: a tile set without jokers never asks it for one
    image, truth = train_photo("rummy-16_")
    digits = RUMMIKUB - {"joker"}
    assert found_at(truth, read_tiles(image, loose_reader, digits), 705, 402) == ("joker", [])


@pytest.mark.parametrize("prefix, x, y, name", BESIDE_A_GIANT)
def test_faces_beside_a_giant_face_read_surely_are_no_specks(read_photo, prefix, x, y, name):
    assert found_once(*read_photo(prefix), x, y, name)


def test_specks_inside_a_face_read_unsure_are_no_tiles(read_photo):
    # rummy4-71: one big black joker on a rug, read as one only 0.61 sure; two 7-pixel specks
    # inside its face's box (its eyes) were tiles of their own, read "6" and "8"
    truth, tiles = read_photo("rummy4-71_")
    assert len(tiles) == 1 and found_once(truth, tiles, 382, 438, "joker")


def test_ink_at_a_tiles_edge_read_as_no_joker_takes_nothing_from_its_neighbours(read_photo):
    # rummy2-32: the shadow along a big blue 3's tile, nearly square and enclosing the "3", may
    # only be a joker's face: it neither swallows the "3" nor is a tile
    assert found_once(*read_photo("rummy2-32_"), 621, 413, "blue_3")


@pytest.mark.parametrize("prefix, x, y", [
    ("rummy4-22_", 948, 524), ("rummy4-32_", 508, 613), ("rummy4-54_", 519, 522), ("rummy4-76_", 363, 360),
    ("rummy-16_", 26, 268),
])
def test_fibres_on_fabric_are_no_tiles(read_photo, prefix, x, y):
    # a woven rug's light threads (rummy4-*) or wood's grain (rummy-16) beside tiles taken for
    # tile body: a dark fibre on them was read as a "1", "4" or "7"; around it the photo is rough
    _, tiles = read_photo(prefix)
    assert [t.face for t in tiles if np.hypot(t.center[0] - x, t.center[1] - y) < 25] == []


@pytest.mark.parametrize("prefix, x, y, name", IN_A_SHADOW)
def test_tiles_in_a_shadow_are_found(read_photo, prefix, x, y, name):
    assert found_once(*read_photo(prefix), x, y, name)


#: Small two-digit faces cut across by a thin bright line (prefix, box x0, y0, x1, y1, the row cut,
#: the labelled name).
HIGHLIGHTS = (
    ("rummy-9_", (538, 120, 561, 139), 132, "red_12"), ("rummy-7_", (402, 200, 424, 218), 211, "red_10"),
    ("rummy-7_", (432, 153, 451, 167), 162, "orange_12"),
)


@pytest.mark.parametrize("prefix, box, row, name", HIGHLIGHTS)
def test_a_face_cut_across_by_a_highlight_is_one_face(train_photo, loose_reader, prefix, box, row, name):
    # a thin bright line across a small two-digit face cuts it into a tall and a short half, each
    # read on its own ("1" and "2", or nothing) until they are one glyph: found once, and read as
    # a face of two digits (which two is the readers' business)
    image, truth = train_photo(prefix)
    x0, y0, x1, y1 = box
    cut = image.copy()
    cut[row, x0:x1] = np.median(image[y0 - 4:y0 - 1, x0:x1].reshape(-1, 3), axis=0)
    tiles = read_tiles(cut, loose_reader, RUMMIKUB)
    label, faces = found_at(truth, tiles, (x0 + x1) / 2, (y0 + y1) / 2)
    assert label == name and len(faces) == 1 and len(faces[0]) == 2, faces


def test_prepare_names_a_missing_surface_table(tmp_path):
    with pytest.raises(LooseTileError, match="none.npz"):
        prepare(tmp_path / "none.npz")


@pytest.mark.parametrize("prefix, x, y, name", GLYPH_READER_CALLS_NO_FACE)
def test_ink_the_glyph_reader_calls_no_face_is_a_tile_with_the_learned_reader(
    read_photo, train_photo, loose_reader, prefix, x, y, name
):
    # the glyph reader alone misses them; with the learned reader (which must read them surely:
    # counted with the NAMED tiles) they are found, once at most
    image, truth = train_photo(prefix)
    assert found_at(truth, find_tiles(image, loose_reader, RUMMIKUB), x, y) == (name, [])
    label, faces = found_at(*read_photo(prefix), x, y)
    assert label == name and len(faces) <= 1
