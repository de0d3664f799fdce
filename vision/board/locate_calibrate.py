"""Calibrate from frames of the empty board.

Checks that every fiducial marker and every cell is seen, measures the reprojection error of the
marker corners (pixels), learns the empty-board appearance of every cell (the per-pixel median of
the rectified frames, at the presence pitch) and returns a calibration.board_calibration.Calibration.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from calibration.board_calibration import Calibration, CalibrationError, marker_place
from calibration.geometry import BoardGeometry
from vision.board.board_reader import small_frame_findings
from vision.board.board_view import BoardView
from vision.board.locate import BoardLocator, BoardNotFoundError
from vision.board.presence import PresenceConfig, PresenceDetector


def calibrate(geometry: BoardGeometry, frames: Iterable[tuple[str, np.ndarray]],
              pitch_px: float = 24.0) -> Calibration:
    """Calibrate from frames of the empty board.

    Args:
        geometry: the printed board.
        frames: (name, BGR uint8 H x W x 3 image) pairs, the empty board seen by the camera.
        pitch_px: distance between cell centres of the learned empty-board image (the presence
            pitch, vision.board.presence.PresenceConfig.pitch_px).

    Returns:
        The calibration; ``findings`` lists cells that looked occupied (a tile left on the board)
        and says when the frames give the cells too few pixels to read tiles
        (vision.board.board_reader.MIN_FRAME_PITCH_PX).

    Raises:
        CalibrationError: no frames; a marker never seen ("marker 3 not found: is the top-right
            corner of the sheet covered?"); the board not located in a frame; cells out of view.
    """
    locator = BoardLocator(geometry)
    view = BoardView(geometry, pitch_px)
    corners = np.array([p for c in geometry.cells.values() for p in c.corners])
    seen: set[int] = set()
    squared_errors: list[float] = []
    rectified: list[np.ndarray] = []
    pitches: list[tuple[float, str]] = []
    for name, image in frames:
        try:
            location = locator.locate(image, name)
        except BoardNotFoundError as exc:
            raise CalibrationError(f"{exc}: is the sheet in view and uncovered?") from exc
        seen.update(location.marker_ids)
        squared_errors.append(location.reprojection_error ** 2)
        h, w = image.shape[:2]
        projected = location.board_to_frame(corners).reshape(-1, 6, 2)
        outside = [bool(v) for v in ((projected < 0) | (projected >= (w, h))).any(axis=(1, 2)).ravel()]
        if any(outside):
            out_of_view = [a for a, o in zip(geometry.cells, outside, strict=True) if o]
            raise CalibrationError(f"{name}: cells {', '.join(out_of_view[:8])}"
                                   f"{' ...' if len(out_of_view) > 8 else ''} out of view: move the camera "
                                   f"so that the whole sheet is in the picture")
        rectified.append(view.rectify(image, location))
        pitches.append((view.frame_pitch(location), name))
    if not rectified:
        raise CalibrationError("no frames to calibrate from")
    for m in geometry.markers:
        if m.id not in seen:
            raise CalibrationError(f"marker {m.id} not found: is the {marker_place(geometry, m.id)} of the "
                                   f"sheet covered or out of view?")
    empty = np.median(np.stack(rectified), axis=0).astype(np.uint8)
    scores = PresenceDetector(view, None, PresenceConfig(pitch_px=pitch_px)).measure(empty)
    occupied = [view.addresses[i] for i in scores.indices[scores.occupied]]
    pitch, name = min(pitches)
    findings = small_frame_findings(name, pitch)
    if occupied:
        findings.append(f"cells {', '.join(occupied)} do not look empty: was a tile left on the board?")
    return Calibration(len(geometry.cells), geometry.image_size, len(rectified), tuple(sorted(seen)),
                       float(np.sqrt(np.mean(squared_errors))), pitch_px, empty, tuple(findings))
