"""Locating the printed board from its fiducial markers, on frames written to disk and read back."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.board_print import SheetSpec, print_board, render_board
from vision.board.board_view import BoardView
from vision.board.locate import BoardLocator, BoardNotFoundError, MarkerSighting
from vision.sim.camera import CameraPose


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    out = tmp_path_factory.mktemp("board")
    geometry = print_board(SheetSpec(order=9, dpi=60), out)
    return geometry, cv2.imread(str(out / "board.png")), out


def camera_frame(board_png, corners_in_frame, path, occluders=(), seed=0):
    """Warp board.png into a 1280x960 frame (perspective, grey table, light gradient, noise,
    dark discs over some regions), write it as JPEG and read it back. Returns (frame, H)."""
    h, w = board_png.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    homography = cv2.getPerspectiveTransform(src, np.float32(corners_in_frame))
    frame = cv2.warpPerspective(board_png, homography, (1280, 960), flags=cv2.INTER_AREA,
                                borderValue=(70, 90, 110)).astype(np.float32)
    xx = np.linspace(0.65, 1.0, 1280, dtype=np.float32)[None, :, None]
    rng = np.random.default_rng(seed)
    frame = frame * xx + rng.normal(0, 3, frame.shape)
    for (x, y, r) in occluders:
        cv2.circle(frame, (x, y), r, (80, 110, 150), -1)
    cv2.imwrite(str(path), np.clip(frame, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imread(str(path)), homography


POSE_A = [[140, 70], [1150, 100], [1200, 900], [90, 870]]
POSE_B = [[200, 40], [1210, 60], [1150, 930], [60, 880]]


def cell_error(geometry, location, homography):
    centres = np.array([c.center for c in geometry.cells.values()])
    truth = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return np.abs(location.board_to_frame(centres) - truth).max()


def test_board_found_with_every_marker_and_cells_map_accurately(board, tmp_path):
    geometry, png, _ = board
    frame, homography = camera_frame(png, POSE_A, tmp_path / "a.jpg")
    location = BoardLocator(geometry).locate(frame)
    assert location.marker_ids == tuple(range(10))
    assert location.reprojection_error < 1.5
    assert cell_error(geometry, location, homography) < 1.5


def test_markers_hidden_by_hands_still_locate_the_board(board, tmp_path):
    geometry, png, _ = board
    locator = BoardLocator(geometry)
    clean, _ = camera_frame(png, POSE_A, tmp_path / "clean.jpg")
    seen = locator.find_markers(cv2.cvtColor(clean, cv2.COLOR_BGR2GRAY)).corners
    hide = [0, 1, 2, 4, 5, 6, 8]  # seven of ten markers under discs
    occluders = [(int(seen[i][:, 0].mean()), int(seen[i][:, 1].mean()), 45) for i in hide]
    frame, homography = camera_frame(png, POSE_A, tmp_path / "hidden.jpg", occluders)
    location = locator.locate(frame)
    assert set(location.marker_ids) == {3, 7, 9}
    assert cell_error(geometry, location, homography) < 2.5


def test_one_marker_is_not_enough_and_the_error_names_the_frame(board, tmp_path):
    geometry, png, _ = board
    locator = BoardLocator(geometry)
    clean, _ = camera_frame(png, POSE_A, tmp_path / "clean.jpg")
    seen = locator.find_markers(cv2.cvtColor(clean, cv2.COLOR_BGR2GRAY)).corners
    occluders = [(int(c[:, 0].mean()), int(c[:, 1].mean()), 45) for i, c in seen.items() if i != 3]
    frame, _ = camera_frame(png, POSE_A, tmp_path / "one.jpg", occluders)
    with pytest.raises(BoardNotFoundError, match=r"frame 7: board not found: 1 of 10 .*\[3\]"):
        locator.locate(frame, "frame 7")
    table = np.full((960, 1280, 3), 90, np.uint8)
    with pytest.raises(BoardNotFoundError, match="0 of 10"):
        locator.locate(table, "frame 8")


def test_relocks_at_once_after_the_board_is_bumped(board, tmp_path):
    geometry, png, _ = board
    locator = BoardLocator(geometry)
    for name, pose in (("a", POSE_A), ("b", POSE_B), ("a2", POSE_A)):
        frame, homography = camera_frame(png, pose, tmp_path / f"{name}.jpg")
        assert cell_error(geometry, locator.locate(frame), homography) < 1.5


def test_rectified_frame_matches_the_board_drawing_and_cell_warps_agree(board, tmp_path):
    geometry, png, _ = board
    frame, _ = camera_frame(png, POSE_B, tmp_path / "b.jpg")
    location = BoardLocator(geometry).locate(frame)
    view = BoardView(geometry, pitch_px=48)
    rectified = view.rectify(frame, location)
    drawn = render_board(geometry, view.scale)
    assert rectified.shape == drawn.shape
    a = cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY).astype(np.float32)
    b = cv2.cvtColor(drawn, cv2.COLOR_BGR2GRAY).astype(np.float32)
    # the drawing matches best with no shift: the rectification is aligned to the pixel
    scores = {(dx, dy): np.corrcoef(np.roll(a, (dy, dx), axis=(0, 1)).ravel(), b.ravel())[0, 1]
              for dx in (-2, 0, 2) for dy in (-2, 0, 2)}
    assert max(scores, key=scores.get) == (0, 0)
    assert scores[(0, 0)] > 0.7
    some = np.array([view.index(a) for a in ("A0", "B14", "M37", "P1")])
    whole = view.patches(rectified, some).astype(np.float32)
    direct = view.warp_cells(frame, location, some).astype(np.float32)
    assert np.abs(whole - direct).mean() < 2.0


def test_a_misplaced_marker_is_dropped_from_the_fit(board, tmp_path):
    geometry, png, _ = board
    locator = BoardLocator(geometry)
    frame, homography = camera_frame(png, POSE_A, tmp_path / "a.jpg")
    seen = dict(locator.find_markers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)).corners)
    seen[5] = seen[5] + np.float32([60, -40])  # a marker detected in the wrong place (a printout nearby)
    location = locator.fit(MarkerSighting(seen), "frame 3")
    assert 5 not in location.marker_ids and len(location.marker_ids) == 9
    assert cell_error(geometry, location, homography) < 1.5


def test_rectification_follows_a_bump_but_not_the_markers_jitter(board, tmp_path):
    geometry, png, _ = board
    frame_a, _ = camera_frame(png, POSE_A, tmp_path / "a.jpg")
    frame_b, _ = camera_frame(png, POSE_B, tmp_path / "b.jpg")
    locator = BoardLocator(geometry)
    at_a, at_b = locator.locate(frame_a), locator.locate(frame_b)
    view, fresh = BoardView(geometry, pitch_px=24), BoardView(geometry, pitch_px=24)
    first = view.rectify(frame_a, at_a)  # a new place: warped directly
    steady = view.rectify(frame_a, at_a)  # the board stayed: remapped with the maps of its place
    off = np.abs(steady.astype(int) - first)
    assert off.mean() < 0.05 and off.max() <= 8  # the same warp up to the subpixel rounding
    # a location 0.03 frame px off (less than MAP_REUSE_PX): the same maps, the same image
    jitter = np.array([[1.0, 0, 0.03], [0, 1.0, 0], [0, 0, 1.0]]) @ at_a.homography
    assert np.array_equal(view.rectify(frame_a, replace(at_a, homography=jitter)), steady)
    # the board bumped to another pose: warped there, as by a view that never saw pose A
    assert np.array_equal(view.rectify(frame_b, at_b), fresh.rectify(frame_b, at_b))
    # and back again: a new place once more
    assert np.array_equal(view.rectify(frame_a, at_a), first)


def lens_frame(board_png, corners_in_frame, k1, path):
    """board.png seen through a lens of radial term ``k1`` (vision.sim.camera), written as JPEG and
    read back. Returns (frame, the camera pose)."""
    h, w = board_png.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    pose = CameraPose(cv2.getPerspectiveTransform(src, np.float32(corners_in_frame)), k1, (1280, 960))
    frame = cv2.remap(board_png, *pose.texture_maps(1.0), cv2.INTER_LINEAR, borderValue=(70, 90, 110))
    cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imread(str(path)), pose


def test_a_barrel_lens_is_fitted_and_the_cells_follow_it(board, tmp_path):
    """A strong barrel lens bends the sheet's edges: the locator fits it from the markers and maps
    every cell within a pixel, where a pinhole fit to the same markers is off by several."""
    geometry, png, _ = board
    frame, pose = lens_frame(png, POSE_A, 0.08, tmp_path / "lens.jpg")
    locator = BoardLocator(geometry)
    location = locator.locate(frame)
    assert location.lens is not None and abs(location.lens.k1 - 0.08) < 0.01
    centres = np.array([c.center for c in geometry.cells.values()])
    assert np.abs(location.board_to_frame(centres) - pose.project(centres)).max() < 1.0
    sighting = locator.find_markers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    pinhole = locator.fit(MarkerSighting(sighting.corners, None))
    assert pinhole.lens is None
    assert np.abs(pinhole.board_to_frame(centres) - pose.project(centres)).max() > 3.0
    # the cells cut straight from the frame agree with the rectified board's, through the lens
    view = BoardView(geometry, pitch_px=48)
    some = np.array([view.index(a) for a in ("A0", "B14", "M37", "P1")])
    whole = view.patches(view.rectify(frame, location), some).astype(np.float32)
    direct = view.warp_cells(frame, location, some).astype(np.float32)
    assert np.abs(whole - direct).mean() < 2.0


def test_a_pinhole_camera_is_fitted_as_one(board, tmp_path):
    """Without a lens the fitted radial term stays near 0."""
    geometry, png, _ = board
    frame, _ = camera_frame(png, POSE_B, tmp_path / "b.jpg")
    location = BoardLocator(geometry).locate(frame)
    assert location.lens is not None and abs(location.lens.k1) < 0.01
