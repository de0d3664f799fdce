"""Labelled tile crops cut from simulated camera frames of a printed board, as the board readers cut
them at the table.

The rendered crops of vision.sim.tile_crops draw one tile on a patch of board; a board read cuts its
crops from a whole camera frame instead: the board located by its markers, each occupied cell
warped out of the frame at the learned reader's crop size, after the camera's perspective, lens
blur, noise, light and JPEG compression of vision.sim.recording. :func:`board_crops` simulates a
game and cuts every occupied cell of its still frames so, labelled with the cell's face and the
tile's up (the angle it was laid at: the crops are cut square to the board): the tile reader's
"board cells" figure, and with ``--board-games`` part of its training data (bench/train_reader.py).
:func:`square_board_crops` does the same for Yushino's square board (vision.board.square_reader),
its empty squares, premium labels and all, cut too as "none".
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from calibration.geometry import BoardGeometry
from calibration.square_geometry import SquareBoardGeometry
from vision.board.board_reader import tile_crop_view
from vision.board.board_view import BoardView
from vision.board.locate import BoardLocator, BoardNotFoundError
from vision.board.sheet import board_sheet
from vision.board.square_reader import square_crops
from vision.reader.crop import INPUT_PX
from vision.reader.faces import COLOURS, FACES, NOT_A_FACE
from vision.sim.camera import jpeg_round_trip
from vision.sim.options import Split
from vision.sim.recording import SimOptions, Simulation
from vision.sim.square_scene import game_frame
from vision.sim.tile_crops import CropSet
from vision.sim.timeline import SimPlacement

#: The game name of these crops in a CropSet.
BOARD_GAME = "modlinseq-board"
#: The game name of the square board's crops in a CropSet.
SQUARE_BOARD_GAME = "yushino-board"
#: JPEG quality of the square board's frames (a camera's stills; bench/bench_yushino_read.py's).
JPEG_QUALITY = 90


def board_crops(geometry: BoardGeometry, turns: Sequence[Sequence[SimPlacement]], options: SimOptions,
                every: int = 4) -> CropSet:
    """Simulate a MODLINSEQ game on ``geometry`` and cut its occupied cells from every ``every``-th
    frame without a hand over the board.

    Args:
        geometry: the printed hex board.
        turns: per turn, the placements (vision.sim.recording.Simulation).
        options: the simulation's options (seed, frame size, tile styles and their split, ...).
        every: keep still frames whose index is a multiple of this (> 0): neighbouring frames of a
            still board differ only by sensor noise.

    Returns:
        A CropSet: BGR uint8 [n, INPUT_PX, INPUT_PX, 3], the face of each cell, colour "-", game
        BOARD_GAME, and the tile's up in degrees counter-clockwise as seen. Frames whose board
        the markers do not locate are skipped.

    Raises:
        ValueError: ``every`` < 1, or as for vision.sim.recording.Simulation.
    """
    if every < 1:
        raise ValueError(f"every must be at least 1, got {every!r}")
    sim = Simulation(turns, geometry, options)
    angles = {address: float(tile["angle_deg"]) for address, tile in sim.tiles_json().items()}  # type: ignore[arg-type]
    view = BoardView(geometry, *tile_crop_view(geometry, "pentagon"))
    locator = BoardLocator(geometry)
    images: list[np.ndarray] = []
    faces: list[int] = []
    ups: list[float] = []
    for frame in sim.frames():
        if frame.hand or frame.index % every or not frame.cells:
            continue
        try:
            location = locator.locate(frame.image, f"frame {frame.index}")
        except BoardNotFoundError:
            continue
        addresses = list(frame.cells)
        cells = view.warp_cells(frame.image, location, np.array([view.index(a) for a in addresses]))
        for address, crop in zip(addresses, cells, strict=True):
            shrink = cv2.INTER_AREA if crop.shape[0] > INPUT_PX else cv2.INTER_LINEAR
            images.append(cv2.resize(crop, (INPUT_PX, INPUT_PX), interpolation=shrink))
            faces.append(FACES.index(frame.cells[address]))
            ups.append(angles[address] % 360.0)
    n = len(images)
    return CropSet(np.array(images, np.uint8).reshape(n, INPUT_PX, INPUT_PX, 3), np.array(faces, np.int16),
                   np.full(n, COLOURS.index("-"), np.int8), np.full(n, BOARD_GAME), np.array(ups, np.float32))


def square_board_crops(geometry: SquareBoardGeometry, split: Split, seed: int, frames: int) -> CropSet:
    """Render ``frames`` still frames of Yushino's square board (vision.sim.square_scene.game_frame: a
    seeded random game of 1 to MAX_TURNS turns, its tiles in one set of the ``split`` font families) and cut
    its squares as vision.board.square_reader cuts them: every tile, and as many empty squares
    ("none"; premium squares' labels included), drawn at random.

    Args:
        geometry: the printed square board.
        split: the tiles' font split.
        seed: seeds every frame (frame ``k`` draws from ``[seed, k]``).
        frames: how many frames (>= 0).

    Returns:
        A CropSet: BGR uint8 [n, INPUT_PX, INPUT_PX, 3], faces ("0".."9", "#", "none"), colour "-",
        game SQUARE_BOARD_GAME, and unknown ups (NaN: the crops are cut square to the frame, not to
        the board). Frames whose board the markers do not locate are skipped.

    Raises:
        ValueError: ``frames`` < 0.
    """
    if frames < 0:
        raise ValueError(f"frames must be 0 or more, got {frames!r}")
    sheet = board_sheet(geometry)
    locator = BoardLocator(sheet)
    index = {address: i for i, address in enumerate(sheet.addresses)}
    parts: list[np.ndarray] = []
    faces: list[int] = []
    for k in range(frames):
        rng = np.random.default_rng([seed, k])
        frame = game_frame(geometry, split, rng, seed * 100_000 + k)
        laid, image = frame.faces, jpeg_round_trip(frame.image, JPEG_QUALITY)
        try:
            location = locator.locate(image, f"frame {k}")
        except BoardNotFoundError:
            continue
        empty = [a for a in sheet.addresses if a not in laid]
        chosen = [*laid, *rng.choice(empty, min(len(empty), len(laid)), replace=False)]
        parts.append(square_crops(sheet, image, location, np.array([index[a] for a in chosen])))
        faces += [FACES.index(laid.get(str(a), NOT_A_FACE)) for a in chosen]
    n = len(faces)
    images = np.concatenate(parts) if parts else np.zeros((0, INPUT_PX, INPUT_PX, 3), np.uint8)
    return CropSet(images, np.array(faces, np.int16), np.full(n, COLOURS.index("-"), np.int8),
                   np.full(n, SQUARE_BOARD_GAME), np.full(n, np.nan, np.float32))
