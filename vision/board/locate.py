"""Locate the printed board in a camera frame from its ArUco fiducial markers.

Every frame is located afresh from the markers it shows, so the locator re-locks at once after the
board is bumped. The homography is fitted by least squares to the corners of every marker seen, dropping the
marker that disagrees most while one disagrees (a misdetection), so a few hidden markers (hands,
tiles, the sheet's edge out of view) do not matter and the result is deterministic; with fewer
than ``min_markers`` markers, or a fit that does not agree with them, the board is reported not
found rather than guessed.

Run ``python -m vision.board.locate board.json IMAGE`` to print what is found.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.square_geometry import load_board
from vision.board.errors import BoardError
from vision.board.sheet import AnyBoard, Sheet, board_sheet


class BoardNotFoundError(BoardError):
    """The board could not be located in a frame; the message says which frame and why."""


@dataclass(frozen=True, slots=True, eq=False)
class BoardLocation:
    """Where the board lies in one frame.

    Attributes:
        homography: 3 x 3 float64 mapping board.png pixels to frame pixels (homogeneous).
        marker_ids: ids of the markers that were seen and agree with the fit, increasing.
        reprojection_error: RMS distance in frame pixels between the seen marker corners and
            the board's marker corners mapped through ``homography``.
    """

    homography: np.ndarray
    marker_ids: tuple[int, ...]
    reprojection_error: float

    def __post_init__(self) -> None:
        if self.homography.shape != (3, 3):
            raise ValueError(f"homography must be 3 x 3, got {self.homography.shape}")
        if not self.marker_ids:
            raise ValueError("a board location needs at least one marker")

    def board_to_frame(self, points: np.ndarray) -> np.ndarray:
        """Map board.png pixels to frame pixels.

        Args:
            points: float array (shape: [N, 2]) of board.png (x, y).

        Returns:
            float64 array (shape: [N, 2]) of frame (x, y).
        """
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)



@dataclass(frozen=True, slots=True)
class MarkerSighting:
    """The fiducial markers of the board seen in one frame.

    Attributes:
        corners: marker id -> float32 array (shape: [4, 2]) of its corners in frame pixels.
    """

    corners: dict[int, np.ndarray]


class BoardLocator:
    """Finds the board's markers and fits the board-to-frame homography.

    Args:
        geometry: the printed board, hex or square (vision.board.sheet).
        min_markers: fewest markers accepted for a location (>= 2: one marker alone is too
            small a base for an accurate homography over the whole sheet).
        detect_width: frames wider than this are searched for markers at this width, then the
            corners are refined at full resolution (speed on the Pi).
        max_error_px: largest accepted RMS reprojection error in frame pixels.
    """

    def __init__(self, geometry: AnyBoard | Sheet, min_markers: int = 2, detect_width: int = 640,
                 max_error_px: float = 4.0) -> None:
        if min_markers < 2:
            raise ValueError(f"min_markers must be >= 2, got {min_markers}")
        self.sheet = geometry if isinstance(geometry, Sheet) else board_sheet(geometry)
        self.geometry = self.sheet.geometry
        self.min_markers = min_markers
        self.detect_width = detect_width
        self.max_error_px = max_error_px
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.sheet.marker_dictionary))
        fast = cv2.aruco.DetectorParameters()
        fast.adaptiveThreshWinSizeMin = fast.adaptiveThreshWinSizeMax = 7  # one thresholding pass
        self._fast = cv2.aruco.ArucoDetector(dictionary, fast)
        self._detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
        self._board_corners = {m.id: np.array(m.corners, np.float64) for m in self.sheet.markers}

    def find_markers(self, gray: np.ndarray) -> MarkerSighting:
        """Detect the board's markers in a grey frame (uint8, H x W); unknown ids are ignored.

        One quick thresholding pass first; OpenCV's default three passes, then full resolution,
        only when that finds fewer than ``min_markers`` markers.
        """
        scale = min(1.0, self.detect_width / gray.shape[1])
        small = gray if scale == 1.0 else cv2.resize(gray, None, fx=scale, fy=scale,
                                                     interpolation=cv2.INTER_AREA)
        corners, ids, _ = self._fast.detectMarkers(small)
        if ids is None or len(ids) < self.min_markers:  # hard light or small markers: try harder
            corners, ids, _ = self._detector.detectMarkers(small)
        if (ids is None or len(ids) < self.min_markers) and scale < 1.0:  # tiny markers: full size
            scale = 1.0
            corners, ids, _ = self._detector.detectMarkers(gray)
        found: dict[int, np.ndarray] = {}
        if ids is None:
            return MarkerSighting(found)
        for c, i in zip(corners, ids.ravel(), strict=True):
            if int(i) in self._board_corners and int(i) not in found:
                found[int(i)] = c.reshape(4, 2).astype(np.float32) / scale
        if scale < 1.0 and found:
            pts = np.concatenate(list(found.values())).reshape(-1, 1, 2)
            win = max(3, round(1.5 / scale))
            cv2.cornerSubPix(gray, pts, (win, win), (-1, -1),
                             (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 10, 0.05))
            for k, marker_id in enumerate(list(found)):
                found[marker_id] = pts[4 * k:4 * k + 4].reshape(4, 2)
        return MarkerSighting(found)

    def locate(self, image: np.ndarray, where: str = "frame") -> BoardLocation:
        """Locate the board in one frame.

        Args:
            image: BGR uint8, H x W x 3 (or grey uint8, H x W).
            where: how to name the frame in error messages ("frame 12", a file name).

        Returns:
            The board's location in ``image``.

        Raises:
            BoardNotFoundError: fewer than ``min_markers`` markers seen, or the seen markers do not
                agree on one homography; the message names ``where`` and the markers seen.
        """
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        return self.fit(self.find_markers(gray), where)

    def fit(self, sighting: MarkerSighting, where: str = "frame") -> BoardLocation:
        """Fit the homography to a marker sighting (see :meth:`locate`).

        Raises:
            BoardNotFoundError: too few markers, or no consistent fit.
        """
        ids = sorted(sighting.corners)
        if len(ids) < self.min_markers:
            missing = [m.id for m in self.sheet.markers if m.id not in sighting.corners]
            raise BoardNotFoundError(
                f"{where}: board not found: {len(ids)} of {len(self.sheet.markers)} fiducial markers seen "
                f"{ids}, need {self.min_markers} (markers {missing} hidden or out of view)"
            )
        kept = list(ids)
        while True:  # least squares, dropping the worst marker while it disagrees (deterministic)
            src = np.concatenate([self._board_corners[i] for i in kept])
            dst = np.concatenate([sighting.corners[i] for i in kept]).astype(np.float64)
            homography, _ = cv2.findHomography(src, dst, 0)
            if homography is None:
                raise BoardNotFoundError(f"{where}: board not found: markers {kept} give no homography")
            projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2), homography).reshape(-1, 2)
            per_marker = np.sqrt(np.mean(np.sum((projected - dst) ** 2, axis=1).reshape(-1, 4), axis=1))
            worst = int(np.argmax(per_marker))
            if per_marker[worst] <= self.max_error_px or len(kept) <= self.min_markers:
                break
            del kept[worst]
        error = float(np.sqrt(np.mean(per_marker ** 2)))
        if error > self.max_error_px:
            raise BoardNotFoundError(
                f"{where}: board not found: markers {kept} disagree (reprojection error {error:.1f} px > "
                f"{self.max_error_px} px)"
            )
        return BoardLocation(homography, tuple(kept), error)


def locate_file(board: str, image_path: str) -> tuple[AnyBoard, np.ndarray, BoardLocation]:
    """Load board.json (either kind) and an image file and locate the board in it (for the modules' mains).

    Raises:
        BoardFileError: board.json bad. OSError: the image cannot be read. BoardNotFoundError.
    """
    geometry = load_board(board)
    image = cv2.imread(image_path)
    if image is None:
        raise OSError(f"cannot read image {image_path}")
    return geometry, image, BoardLocator(geometry).locate(image, image_path)


def main(argv: list[str]) -> int:
    """Print the markers seen and the fit for one image: ``python -m vision.board.locate BOARD IMAGE``."""
    try:
        _, _, location = locate_file(argv[0], argv[1])
    except (OSError, ValueError, BoardNotFoundError) as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"markers {list(location.marker_ids)}, reprojection error {location.reprojection_error:.2f} px")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
