"""A calibration of the camera's view of the empty board, as a value and a file.

vision.board.locate_calibrate.calibrate makes one from frames of the empty board: every fiducial marker
and every cell seen, the reprojection error of the marker corners (pixels), the empty-board
appearance of every cell. It is saved in one ``.npz`` file that ``tilescribe read --calibration``
and the session load.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from calibration.geometry import BoardGeometry

FORMAT_VERSION = 1


class CalibrationError(ValueError):
    """Calibration failed or a calibration file is bad; the message says what and where."""


@dataclass(frozen=True, slots=True, eq=False)
class Calibration:
    """What a calibration learned.

    Attributes:
        board_cells: number of cells of the calibrated board (a check against the board used later).
        image_size: board.png size of the calibrated board.
        frames: number of frames used.
        markers_seen: ids of the markers seen in at least one frame.
        reprojection_error: RMS marker-corner reprojection error over all frames, frame pixels.
        pitch_px: distance between cell centres in ``empty_board``.
        empty_board: the empty board rectified at ``pitch_px`` (BGR uint8, H x W x 3).
        findings: warnings that did not stop the calibration (as text).
    """

    board_cells: int
    image_size: tuple[int, int]
    frames: int
    markers_seen: tuple[int, ...]
    reprojection_error: float
    pitch_px: float
    empty_board: np.ndarray
    findings: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.frames < 1 or self.reprojection_error < 0 or self.pitch_px <= 0:
            raise ValueError(f"bad calibration: frames {self.frames}, error {self.reprojection_error}, "
                             f"pitch {self.pitch_px}")
        if self.empty_board.dtype != np.uint8 or self.empty_board.ndim != 3:
            raise ValueError(f"empty_board must be BGR uint8 H x W x 3, got {self.empty_board.dtype} "
                             f"{self.empty_board.shape}")

    def check_board(self, geometry: BoardGeometry, where: str) -> None:
        """Raise CalibrationError when this calibration was made for another board."""
        if len(geometry.cells) != self.board_cells or tuple(geometry.image_size) != self.image_size:
            raise CalibrationError(
                f"{where}: calibration was made for a board of {self.board_cells} cells and size "
                f"{self.image_size}, not this one ({len(geometry.cells)} cells, {geometry.image_size})"
            )

    def save(self, path: str | Path) -> None:
        """Write the calibration as ``.npz`` (numpy archive: the image and a JSON summary)."""
        summary = {
            "version": FORMAT_VERSION, "board_cells": self.board_cells, "image_size": list(self.image_size),
            "frames": self.frames, "markers_seen": list(self.markers_seen),
            "reprojection_error": self.reprojection_error, "pitch_px": self.pitch_px,
            "findings": list(self.findings),
        }
        with open(path, "wb") as f:
            np.savez_compressed(f, empty_board=self.empty_board, summary=np.array(json.dumps(summary)))

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a calibration file written by :meth:`save`.

        Raises:
            CalibrationError: the file is missing, not a calibration, or of another version.
        """
        try:
            with np.load(path, allow_pickle=False) as archive:
                summary = json.loads(str(archive["summary"]))
                empty = archive["empty_board"]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise CalibrationError(f"{path}: not a tilescribe calibration file ({exc})") from exc
        if not isinstance(summary, dict):
            raise CalibrationError(f"{path}: not a tilescribe calibration file (summary is not an object)")
        if summary.get("version") != FORMAT_VERSION:
            raise CalibrationError(f"{path}: calibration version {summary.get('version')!r}, "
                                   f"expected {FORMAT_VERSION}")
        try:
            return cls(int(summary["board_cells"]), tuple(summary["image_size"]), int(summary["frames"]),
                       tuple(summary["markers_seen"]), float(summary["reprojection_error"]),
                       float(summary["pitch_px"]), empty, tuple(summary.get("findings", ())))
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            raise CalibrationError(f"{path}: bad calibration summary ({exc})") from exc


def marker_place(geometry: BoardGeometry, marker_id: int) -> str:
    """Where a marker sits on the sheet, in words ("top-left corner", "right edge")."""
    (x0, y0), _, (x1, y1), _ = geometry.marker(marker_id).corners
    w, h = geometry.image_size
    cx, cy = (x0 + x1) / 2 / w, (y0 + y1) / 2 / h
    vertical = "top" if cy < 0.25 else "bottom" if cy > 0.75 else ""
    horizontal = "left" if cx < 0.25 else "right" if cx > 0.75 else ""
    if vertical and horizontal:
        return f"{vertical}-{horizontal} corner"
    return f"{vertical or horizontal} edge"
