"""``tileset learn``: a set printed in a font the reader never saw, learned from one photo of the
board with one tile of each face laid upright, is then read at any rotation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.board_print import SheetSpec, print_board
from calibration.tilesets import TileSetError, load_tileset
from vision.board.board_view import BoardView
from vision.board.locate import BoardLocator
from vision.reader import board_face_reader, model
from vision.reader import glyph_reader as glyph
from vision.reader.glyph_reader import CELL_CROP
from vision.reader.tileset_learn import learn_tileset
from vision.sim.tiles import TileStyle, fonts, render_tile

FACES = tuple(str(v) for v in range(13))


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    folder = tmp_path_factory.mktemp("board3")
    geometry = print_board(SheetSpec(order=3), folder)
    return geometry, cv2.imread(str(folder / "board.png"))


def unusual_style() -> TileStyle:
    font = next(f for f in fonts("held_out") if f.name == "URWGothic-Demi")
    return TileStyle("own-set", "rectangle", "held_out", font, body=(200, 228, 240), ink=(40, 40, 160))


def lay_tiles(board, faces, cells, angles, seed):
    geometry, sheet = board
    image = sheet.copy()
    rng = np.random.default_rng(seed)
    side = int(0.8 * geometry.layout.pitch)
    for face, cell, angle in zip(faces, cells, angles, strict=True):
        tile = render_tile(face, unusual_style(), side, rng)
        m = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
        tile = cv2.warpAffine(tile, m, (side, side))
        cx, cy = (round(v) for v in geometry.cells[cell].center)
        y0, x0 = cy - side // 2, cx - side // 2
        alpha = tile[..., 3:] / 255.0
        patch = image[y0:y0 + side, x0:x0 + side]
        image[y0:y0 + side, x0:x0 + side] = (tile[..., :3] * alpha + patch * (1 - alpha)).astype(np.uint8)
    return cv2.GaussianBlur(image, (0, 0), 0.8)


def test_a_learned_set_is_read_at_any_rotation(board, tmp_path):
    geometry, _ = board
    view = BoardView(geometry, *CELL_CROP)
    photo = lay_tiles(board, FACES, view.addresses[:13], [0.0] * 13, seed=1)
    learned = learn_tileset(photo, geometry, load_tileset("modlinseq"), "own", tmp_path, faces=FACES)
    assert (tmp_path / "own.toml").is_file() and (tmp_path / "own.npz").is_file()
    assert load_tileset(tmp_path / "own.toml") == learned
    rng = np.random.default_rng(2)
    cells = list(view.addresses[13:26])
    angles = rng.uniform(0, 360, size=13).tolist()
    game = lay_tiles(board, FACES, cells, angles, seed=3)
    index = {a: i for i, a in enumerate(view.addresses)}
    location = BoardLocator(geometry).locate(game, "game photo")
    crops = view.patches(view.rectify(game, location), np.array([index[c] for c in cells]))
    reader = board_face_reader(learned)
    assert isinstance(reader, glyph.TileReader)  # the board reads a learned set with its exemplars
    readings = reader.read_batch(list(crops))
    faces = [r.face for r in readings]
    assert faces == list(FACES), dict(zip(cells, faces, strict=True))


def test_a_board_reads_with_the_learned_reader_unless_a_set_was_learned_or_tesseract_asked():
    assert isinstance(board_face_reader(None), model.TileReader)
    assert isinstance(board_face_reader(load_tileset("modlinseq")), model.TileReader)
    asked = board_face_reader(load_tileset("modlinseq"), tesseract=True)
    assert isinstance(asked, glyph.TileReader) and asked.second_opinion_below > 0


def test_learning_names_bad_faces_and_cells(board, tmp_path):
    geometry, sheet = board
    with pytest.raises(TileSetError, match="faces \\['joker'\\] are not in tile set 'modlinseq'"):
        learn_tileset(sheet, geometry, load_tileset("modlinseq"), "x", tmp_path, faces=("joker",))
    with pytest.raises(TileSetError, match="cell A0: no tile glyph found for face '1'"):
        learn_tileset(sheet, geometry, load_tileset("modlinseq"), "x", tmp_path, faces=("1",))
