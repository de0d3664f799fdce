"""Training crops cut from simulated frames of a MODLINSEQ board and of Yushino's square board, as the
board readers cut them."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.board_print import SheetSpec, design_board
from calibration.square_board import SquareSpec, design_square_board
from vision.board.square_reader import YUSHINO_FACES
from vision.reader.crop import INPUT_PX
from vision.reader.faces import COLOURS, FACES, NOT_A_FACE
from vision.reader.model import TileReader
from vision.sim.board_crops import BOARD_GAME, SQUARE_BOARD_GAME, board_crops, square_board_crops
from vision.sim.recording import SimOptions
from vision.sim.tile_crops import CropSet
from vision.sim.timeline import Pacing, SimPlacement

FAST = Pacing(lead_in=0.4, reach=0.2, move=0.2, rest=0.2, settle=0.4, after=0.8, pause=0.4, pause_chance=0.0)
TURNS = [[SimPlacement("B1", "3"), SimPlacement("B2", "7")],
         [SimPlacement("E3", "12"), SimPlacement("H5", "5")],
         [SimPlacement("A0", "9"), SimPlacement("M7", "6")]]


@pytest.fixture(scope="module")
def crops() -> CropSet:
    options = SimOptions(seed=31, fps=4.0, split="train", any_rotation=True, pacing=FAST, blur_sigma=0.5)
    return board_crops(design_board(SheetSpec(order=5)), TURNS, options, every=2)


def test_every_crop_is_an_occupied_cell_labelled_with_its_face(crops: CropSet) -> None:
    assert len(crops) >= 12  # the still frames of three turns, a few tiles each
    assert crops.images.shape[1:] == (INPUT_PX, INPUT_PX, 3) and crops.images.dtype == np.uint8
    assert {FACES[f] for f in crops.faces} == {p.face for turn in TURNS for p in turn}
    assert set(crops.games) == {BOARD_GAME} and set(crops.colours) == {COLOURS.index("-")}
    assert ((crops.ups >= 0) & (crops.ups < 360)).all()


def test_the_labels_match_what_the_shipped_reader_sees(crops: CropSet) -> None:
    # big tiles of an order-5 board: the crops must show the labelled face turned by the labelled up
    reader = TileReader()
    faces, _ = reader.probabilities(crops.images, ups_deg=crops.ups)
    assert np.mean(faces.argmax(axis=1) == crops.faces) >= 0.9
    found = reader.up_finder.ups(crops.images)
    off = np.abs((found - crops.ups + 180.0) % 360.0 - 180.0)
    assert np.mean(off < 20.0) >= 0.8


def test_every_must_be_positive() -> None:
    with pytest.raises(ValueError, match="every"):
        board_crops(design_board(SheetSpec(order=5)), TURNS, SimOptions(), every=0)


@pytest.fixture(scope="module")
def squares() -> CropSet:
    return square_board_crops(design_square_board(SquareSpec()), "train", 5, 2)


def test_square_board_crops_are_its_tiles_and_as_many_empty_squares(squares: CropSet) -> None:
    none = squares.faces == FACES.index(NOT_A_FACE)
    assert none.sum() == (~none).sum() >= 2
    assert {FACES[f] for f in squares.faces[~none]} <= set(YUSHINO_FACES)
    assert squares.images.shape[1:] == (INPUT_PX, INPUT_PX, 3) and squares.images.dtype == np.uint8
    assert set(squares.games) == {SQUARE_BOARD_GAME} and set(squares.colours) == {COLOURS.index("-")}
    assert np.isnan(squares.ups).all()  # cut square to the frame: the tile's up as seen is not known


def test_square_board_crops_tiles_show_their_labelled_face(squares: CropSet) -> None:
    tiles = squares.faces != FACES.index(NOT_A_FACE)
    faces, _ = TileReader().probabilities(squares.images[tiles], set(YUSHINO_FACES), views=4)
    assert np.mean(faces.argmax(axis=1) == squares.faces[tiles]) >= 0.9


def test_square_board_crops_are_seeded(squares: CropSet) -> None:
    again = square_board_crops(design_square_board(SquareSpec()), "train", 5, 2)
    assert np.array_equal(again.images, squares.images) and np.array_equal(again.faces, squares.faces)
    with pytest.raises(ValueError, match="frames"):
        square_board_crops(design_square_board(SquareSpec()), "train", 5, -1)
