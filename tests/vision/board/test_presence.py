"""Presence per cell on simulated frames read back from disk: light changes, shadows, calibration."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board.board_view import BoardView
from vision.board.locate import BoardLocator
from vision.board.locate_calibrate import calibrate
from vision.board.presence import PresenceConfig, PresenceDetector, PresenceModelError


def occupied(detector, locator, image):
    view = detector.view
    scores = detector.measure(view.rectify(image, locator.locate(image)))
    return {view.addresses[i] for i in scores.indices[scores.occupied]}


@pytest.fixture(scope="module")
def tools(recorded_game):
    geometry = recorded_game.geometry
    view = BoardView(geometry, PresenceConfig().pitch_px)
    return BoardLocator(geometry), PresenceDetector(view)


def test_presence_matches_the_truth_on_every_frame_without_a_hand(recorded_game, tools):
    locator, detector = tools
    checked = 0
    for i, frame in enumerate(recorded_game.frames):
        if frame["hand"]:
            continue
        assert occupied(detector, locator, recorded_game.image(i)) == set(frame["cells"]), frame["file"]
        checked += 1
    assert checked >= 20


def relit(image, seed):
    """The frame under another light: a strong gradient, a warm colour cast, a soft shadow."""
    rng = np.random.default_rng(seed)
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gain = 0.55 + 0.45 * xx / w
    cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
    gain *= 1 - 0.4 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (0.12 * w) ** 2))
    cast = np.array([0.85, 0.97, 1.08], np.float32)  # BGR: warmer light
    return np.clip(image * gain[..., None] * cast, 0, 255).astype(np.uint8)


def test_presence_ignores_light_changes_colour_casts_and_soft_shadows(recorded_game, tools, tmp_path):
    locator, detector = tools
    last = len(recorded_game.frames) - 1
    truth = set(recorded_game.frames[last]["cells"])
    for seed in range(3):
        path = tmp_path / f"relit{seed}.jpg"
        cv2.imwrite(str(path), relit(recorded_game.image(last), seed), [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert occupied(detector, locator, cv2.imread(str(path))) == truth


def test_calibrated_empty_board_gives_the_same_answer(recorded_game, tools):
    locator, _ = tools
    geometry = recorded_game.geometry
    empty = [(f["file"], recorded_game.image(i)) for i, f in enumerate(recorded_game.frames[:5])]
    assert all(not f["cells"] and not f["hand"] for f in recorded_game.frames[:5])
    calibration = calibrate(geometry, empty)
    detector = PresenceDetector(BoardView(geometry, calibration.pitch_px), calibration.empty_board)
    last = len(recorded_game.frames) - 1
    assert occupied(detector, locator, recorded_game.image(last)) == set(recorded_game.frames[last]["cells"])


def test_missing_model_file_is_named(recorded_game, tmp_path):
    view = BoardView(recorded_game.geometry, 24)
    with pytest.raises(PresenceModelError, match="nothing.json"):
        PresenceDetector(view, config=PresenceConfig(model=str(tmp_path / "nothing.json")))


def test_real_rummikub_tile_crops_on_the_board_are_found(recorded_game, tools, tmp_path):
    """Tiles cut from the real photos (vision.sim 'photo' style, CC BY 4.0), at any rotation."""
    from vision.sim.recording import SimOptions, simulate
    from vision.sim.timeline import Pacing, SimPlacement

    locator, detector = tools
    faces = ["1", "6", "9", "13", "joker", "11", "4", "8", "12", "2"]
    cells = ["A0", "B1", "B2", "E5", "H9", "M14", "P20", "T27", "B35", "H44"]
    turn = [SimPlacement(a, f) for a, f in zip(cells, faces, strict=True)]
    options = SimOptions(seed=21, fps=1.0, hands=False, split="held_out", shapes=("photo",),
                         per_tile_styles=True, any_rotation=True,
                         pacing=Pacing(lead_in=0.2, reach=0.05, move=0.05, rest=0.05, settle=2.0, after=2.0))
    *_, last = simulate([turn], recorded_game.geometry, options)
    path = tmp_path / "photo_tiles.jpg"
    cv2.imwrite(str(path), last.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert set(last.cells) == set(cells)
    assert occupied(detector, locator, cv2.imread(str(path))) == set(cells)
