"""Calibration from frames of the empty board (simulated, read back from disk) and its file."""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest

from calibration.board_calibration import Calibration, CalibrationError, marker_place
from calibration.geometry import BoardGeometry
from tilescribe.commands import calibrate as calibrate_command
from vision.board.locate import BoardLocator
from vision.board.locate_calibrate import calibrate


def empty_frames(recorded_game, n=4):
    frames = [(f["file"], recorded_game.image(i)) for i, f in enumerate(recorded_game.frames[:n])]
    assert all(not f["cells"] for f in recorded_game.frames[:n])
    return frames


def run_cli(argv):
    parser = argparse.ArgumentParser()
    calibrate_command.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.func(args)


def test_calibration_sees_every_marker_and_round_trips_through_its_file(recorded_game, tmp_path, capsys):
    paths = [str(recorded_game.folder / f["file"]) for f in recorded_game.frames[:4]]
    out = tmp_path / "cal.npz"
    assert run_cli(["calibrate", *paths, "--board", str(recorded_game.board_json), "--out", str(out)]) == 0
    assert "markers [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] seen" in capsys.readouterr().out
    cal = Calibration.load(out)
    assert cal.frames == 4 and cal.markers_seen == tuple(range(10))
    assert 0 < cal.reprojection_error < 3.0
    assert cal.findings == ()
    direct = calibrate(BoardGeometry.load(recorded_game.board_json), empty_frames(recorded_game))
    assert np.array_equal(direct.empty_board, cal.empty_board)
    cal.check_board(recorded_game.geometry, str(out))


def covered(image, corners, colour=(60, 80, 120)):
    out = image.copy()
    cv2.fillConvexPoly(out, np.round(corners).astype(np.int32), colour)
    return out


def test_a_marker_never_seen_is_named_with_its_place(recorded_game):
    frames = empty_frames(recorded_game)
    locator = BoardLocator(recorded_game.geometry)
    seen = locator.find_markers(cv2.cvtColor(frames[0][1], cv2.COLOR_BGR2GRAY)).corners
    centre = seen[3].mean(axis=0)
    square = centre + np.array([[-40, -40], [40, -40], [40, 40], [-40, 40]])
    hidden = [(name, covered(image, square)) for name, image in frames]
    place = marker_place(recorded_game.geometry, 3)
    assert place == "top-right corner"
    with pytest.raises(CalibrationError, match="marker 3 not found: is the top-right corner of the sheet"):
        calibrate(recorded_game.geometry, hidden)


def test_cells_out_of_view_and_no_frames_are_errors(recorded_game):
    name, image = empty_frames(recorded_game, 1)[0]
    cropped = np.ascontiguousarray(image[:, : image.shape[1] * 3 // 4])  # right part of the sheet cut off
    with pytest.raises(CalibrationError) as info:
        calibrate(recorded_game.geometry, [(name, cropped)])
    assert "out of view" in str(info.value) or "board not found" in str(info.value)
    with pytest.raises(CalibrationError, match="no frames"):
        calibrate(recorded_game.geometry, [])


def test_a_tile_left_on_the_board_is_a_finding(recorded_game):
    last = len(recorded_game.frames) - 1
    cal = calibrate(recorded_game.geometry, [("last", recorded_game.image(last))])
    assert cal.findings and "A0" in cal.findings[0] and "tile left" in cal.findings[0]


def test_frames_too_small_for_the_board_are_a_finding(recorded_game):
    """Calibrating from frames that give the cells too few pixels says so, naming the frame."""
    half = [(name, cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
            for name, image in empty_frames(recorded_game, 2)]
    cal = calibrate(recorded_game.geometry, half)
    assert len(cal.findings) == 1 and "px apart in the frame" in cal.findings[0], cal.findings
    assert cal.findings[0].split(":")[0] in {name for name, _ in half}


def test_bad_calibration_file(tmp_path, recorded_game):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not an archive")
    with pytest.raises(CalibrationError, match="bad.npz: not a tilescribe calibration"):
        Calibration.load(bad)
    cal = Calibration(5, (10, 10), 1, (0, 1), 0.5, 24.0, np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(CalibrationError, match="made for a board of 5 cells"):
        cal.check_board(recorded_game.geometry, "cal.npz")
