"""The tile reader on real Rummikub tiles (cut from the train/ photos) and rendered tiles, at any
rotation; 6 and 9; the prior; tesseract as the reader without a model; bad input."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.board.board_view import BoardView
from vision.board.locate import BoardLocator
from vision.reader.cell_glyphs import glyph_in_crop, glyphs_in_crops
from vision.reader.glyph_reader import (
    CELL_CROP,
    FACES,
    MIN_ALTERNATIVE,
    TileReader,
    TileReaderError,
)
from vision.sim.recording import SimOptions, simulate
from vision.sim.tiles import TileStyle, fonts, render_tile
from vision.sim.timeline import Pacing, SimPlacement

ANGLES = (0, 90, 180, 270, 35, 145, 215, 320)


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader()


def real_crop(name: str) -> np.ndarray:
    """A real tile cut upright from a train/ photo (vision/sim/data, CC BY 4.0), 72 x 96."""
    path = Path(str(resources.files("vision.sim") / "data" / f"{name}.jpg"))
    image = cv2.imread(str(path))
    assert image is not None, path
    return image


def on_table(tile: np.ndarray, angle: float, side: int = 60, table=(60, 90, 140)) -> np.ndarray:
    """An upright BGR tile turned counter-clockwise by ``angle`` on a plain table, scaled to a
    square crop of ``side`` pixels (the tile's height ~80 % of it)."""
    h, w = tile.shape[:2]
    big = int(1.25 * max(h, w))
    canvas = np.full((big, big, 3), table, np.uint8)
    y0, x0 = (big - h) // 2, (big - w) // 2
    if tile.shape[2] == 4:
        alpha = tile[..., 3:] / 255.0
        canvas[y0:y0 + h, x0:x0 + w] = (tile[..., :3] * alpha + canvas[y0:y0 + h, x0:x0 + w] * (1 - alpha))
    else:
        canvas[y0:y0 + h, x0:x0 + w] = tile
    m = cv2.getRotationMatrix2D((big / 2, big / 2), angle, 1.0)
    turned = cv2.warpAffine(canvas, m, (big, big), borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(turned, (side, side), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("name", ["black_6_0", "red_9_1", "blue_6_1", "orange_9_0"])
def test_real_six_and_nine_are_never_confused_at_any_rotation(reader, name):
    face = name.split("_")[1]
    crops = [on_table(real_crop(name), a) for a in ANGLES]
    faces = [r.face for r in reader.read_batch(crops)]
    assert faces == [face] * len(ANGLES), dict(zip(ANGLES, faces, strict=True))


@pytest.mark.parametrize("name", ["black_1_0", "blue_10_0", "red_12_1", "orange_13_0", "black_7_1",
                                  "blue_4_0", "red_2_0", "joker_0"])
def test_real_tiles_read_at_any_rotation(reader, name):
    """Read as a Rummikub set is read: its faces are the prior (a joker upside down is no
    modulus marker, which the set does not have)."""
    face = name.split("_")[-2] if not name.startswith("joker") else "joker"
    rummikub = [str(v) for v in range(1, 14)] + ["joker"]
    readings = reader.read_batch([on_table(real_crop(name), a) for a in ANGLES[:4]], rummikub)
    assert [r.face for r in readings] == [face] * 4
    assert all(0.0 <= r.confidence <= 1.0 for r in readings)


def held_out_pentagon(mark: str) -> TileStyle:
    font = next(f for f in fonts("held_out") if f.name == "URWGothic-Demi")
    return TileStyle("test-pentagon", "pentagon", "held_out", font, mark_69=mark)  # type: ignore[arg-type]


@pytest.mark.parametrize("face", ["6", "9"])
def test_six_and_nine_on_pentagons_in_an_unseen_font(reader, face):
    """§1-3: a pentagon's apex tells up, so a 6 half a turn round is no 9 (no underline here)."""
    rng = np.random.default_rng(5)
    tile = render_tile(face, held_out_pentagon("none"), 96, rng)
    faces = [r.face for r in reader.read_batch([on_table(tile, a, table=(235, 235, 235)) for a in ANGLES])]
    assert faces == [face] * len(ANGLES), dict(zip(ANGLES, faces, strict=True))


def test_up_direction_is_reported(reader):
    reading = reader.read(on_table(real_crop("black_7_1"), 90))
    assert reading.face == "7"
    assert reading.up[0] < -0.9  # turned a quarter counter-clockwise: the top points left


def test_alternatives_rank_the_faces_the_reader_hesitates_between(reader):
    """The alternatives (the line prior's input) start with the face read, hold probabilities and
    leave out no face at least MIN_ALTERNATIVE probable (the line prior may need a face the
    classifier ranked far down)."""
    for name, angle in (("blue_6_1", 35), ("red_12_1", 180), ("black_1_0", 90)):
        reading = reader.read(on_table(real_crop(name), angle))
        faces = [f for f, _ in reading.alternatives]
        probabilities = [p for _, p in reading.alternatives]
        assert faces[0] == reading.face == name.split("_")[1] and len(set(faces)) == len(faces)
        assert all(0.0 < p <= 1.0 for p in probabilities) and sum(probabilities) <= 1.0 + 1e-6
        assert probabilities[1:] == sorted(probabilities[1:], reverse=True)
        assert min(probabilities[1:]) >= MIN_ALTERNATIVE and len(faces) > 5


@pytest.mark.parametrize("angle", [0, 110, 230])
def test_a_speck_beside_the_digits_is_no_part_of_the_face(reader, angle):
    """A speck of ink above a "12" (noise, a crumb) is left out of the face (GROUP_MIN_SHARE):
    joined to it, it stretched the glyph's box and the "12" read "2"."""
    tile = render_tile("12", held_out_pentagon("none"), 96, np.random.default_rng(2))
    clean = glyph_in_crop(on_table(tile, angle, table=(235, 235, 235)))
    h, w = tile.shape[:2]
    cv2.circle(tile, (w // 2, h // 4), 4, (40, 40, 40, 255), -1)
    crop = on_table(tile, angle, table=(235, 235, 235))
    glyph = glyph_in_crop(crop)
    assert clean is not None and glyph is not None
    assert len(glyph.points) == len(clean.points)
    assert reader.read(crop).face == "12"


def test_blank_tile_reads_as_wild_but_unsure(reader):
    """No ink found: a blank wild tile (§7-1), or a number the finder missed, so never a sure '#'."""
    blank = np.full((96, 72, 3), (222, 238, 244), np.uint8)
    reading = reader.read(on_table(blank, 30, table=(235, 235, 235)))
    assert reading.face == "#"
    assert reading.confidence <= 0.3


def test_a_blank_tile_with_a_speck_of_shading_reads_as_blank(reader):
    """A few pixels of shading on a blank wild tile are a speck (MIN_GLYPH_SHARE), not a face:
    read as a glyph, they became whatever number the line prior wanted there."""
    blank = np.full((96, 72, 3), (222, 238, 244), np.uint8)
    cv2.circle(blank, (30, 40), 4, (170, 180, 185), -1)
    crop = on_table(blank, 30, table=(235, 235, 235))
    assert glyph_in_crop(crop) is None
    assert reader.read(crop).face == "#"


def test_prior_reranks(reader):
    crop = on_table(real_crop("red_9_1"), 200)
    free = reader.read(crop)
    assert free.face == "9"
    assert reader.read(crop, allowed={"9", "#"}).confidence >= free.confidence
    forbidden = reader.read(crop, allowed={"3", "4"})
    assert forbidden.face != "9" or forbidden.confidence < free.confidence


def test_the_opt_in_second_reader_reads_the_unsure_faces_too(reader):
    style = held_out_pentagon("underline")
    crop = on_table(render_tile("7", style, 96, np.random.default_rng(1)), 0, side=80, table=(235, 235, 235))
    alone = reader.read(crop)
    assert (alone.face, alone.reader) == ("7", "model")
    asked = TileReader(second_opinion_below=1.01).read(crop)  # every face is "unsure": tesseract too
    assert (asked.face, asked.reader) == ("7", "model+tesseract")
    assert asked.confidence == min(1.0, alone.confidence + 0.25)  # tesseract agreed


def test_bad_input_is_named(reader):
    with pytest.raises(TileReaderError, match="tile crop 1: expected BGR uint8"):
        reader.read_batch([np.zeros((40, 40, 3), np.uint8), np.zeros((40, 40), np.uint8)])
    with pytest.raises(TileReaderError, match="model not found"):
        TileReader(Path("/nonexistent"))


@pytest.mark.parametrize("shape", ["pentagon", "rectangle"])
def test_tile_outline_shape_on_small_blurred_cell_crops(shape):
    """A pentagon keeps its five corners (so its five ups) and a rectangle its four, at any turn,
    on crops of the size the board reader cuts (43 px) with the blur of a camera."""
    font = next(f for f in fonts("held_out") if f.name == "URWGothic-Demi")
    style = TileStyle(f"test-{shape}", shape, "held_out", font)  # type: ignore[arg-type]
    tile = render_tile("5", style, 96, np.random.default_rng(3))
    corners = []
    for a in ANGLES:
        crop = cv2.GaussianBlur(on_table(tile, a, side=43, table=(235, 235, 235)), (0, 0), 0.7)
        glyph = glyph_in_crop(crop)
        assert glyph is not None, a
        corners.append(len(glyph.outline))
    assert corners == [5 if shape == "pentagon" else 4] * len(ANGLES), dict(zip(ANGLES, corners, strict=True))


def test_ink_along_the_tiles_rim_is_no_part_of_the_face():
    """A dark bevel or shadow along a tile's edge stays out of the glyph (it made a '7' read '11')."""
    tile = render_tile("7", held_out_pentagon("none"), 96, np.random.default_rng(2))
    h, w = tile.shape[:2]
    cv2.line(tile, (int(0.3 * w), int(0.86 * h)), (int(0.7 * w), int(0.86 * h)), (60, 60, 60, 255), 3)
    crop = on_table(tile, 0, table=(235, 235, 235))
    glyph = glyph_in_crop(crop)
    assert glyph is not None
    line_y = (1.25 * 96 - 96) / 2 * 60 / 120 + 0.86 * 96 * 60 / 120  # the line's row in the crop
    assert glyph.points[:, 1].max() < line_y - 3


def test_the_face_of_every_printed_tile_of_a_full_board_is_found(printed_board):
    """Every numbered tile and marker of an order-9 board in held-out styles (pale tiles on the pale
    sheet, modulus markers cut up by their ring, two-digit numbers) gives a glyph: none is taken
    for a blank. A joker printed fainter than a blank tile's shading may be (the speck rule,
    MIN_GLYPH_SHARE): it then reads as a blank wild tile, which is what a joker is (§7-1)."""
    _, geometry = printed_board
    view, locator = BoardView(geometry, *CELL_CROP), BoardLocator(geometry)
    rng = np.random.default_rng(1000)
    turn = [SimPlacement(a, FACES[int(rng.integers(len(FACES)))]) for a in geometry.cells]
    pacing = Pacing(lead_in=0.2, reach=0.05, move=0.02, rest=0.02, settle=1.0, after=1.0)
    options = SimOptions(seed=1000, fps=1.0, hands=False, split="held_out", per_tile_styles=True,
                         shapes=("pentagon", "rectangle", "photo"), any_rotation=True, pacing=pacing)
    *_, last = simulate([turn], geometry, options)
    crops = view.patches(view.rectify(last.image, locator.locate(last.image)))
    missed = [a for a, glyph in zip(view.addresses, glyphs_in_crops(list(crops)), strict=True)
              if glyph is None and last.cells[a] != "#"]
    assert not [a for a in missed if last.cells[a] != "joker"], {a: last.cells[a] for a in missed}
    assert len(missed) <= 1, {a: last.cells[a] for a in missed}
