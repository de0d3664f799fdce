"""Locate the printed board in a camera frame from its ArUco fiducial markers.

Every frame is located afresh from the markers it shows, so the locator re-locks at once after the
board is bumped. The homography is fitted by least squares to the corners of every marker seen, dropping the
marker that disagrees most while one disagrees (a misdetection), so a few hidden markers (hands,
tiles, the sheet's edge out of view) do not matter and the result is deterministic; with fewer
than ``min_markers`` markers, or a fit that does not agree with them, the board is reported not
found rather than guessed. Where at least ``LENS_MARKERS`` markers are seen, the lens's radial
distortion (vision.board.lens) is fitted with the homography: each radial term of ``LENS_GRID``
is scored by the median marker error of a fit through it; the best is refined by Gauss-Newton
steps on the corners of the markers its fit agrees with, and the fit above is made through it.

Run ``python -m vision.board.locate board.json IMAGE`` to print what is found.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.square_geometry import load_board
from vision.board.errors import BoardError
from vision.board.lens import RadialLens
from vision.board.sheet import AnyBoard, Sheet, board_sheet

#: Fewest markers (4 corners each) from which the lens's distortion is fitted: with 2 to 4 markers
#: a homography alone nearly fits their corners whatever the lens, and the radial term would fit noise.
LENS_MARKERS = 5
#: The radial terms tried (vision.board.lens): pincushion to strong barrel, a step of 0.04 (the
#: scene simulator's lenses lie in 0 to 0.08).
LENS_GRID = tuple(round(-0.08 + 0.04 * k, 2) for k in range(8))
#: Gauss-Newton steps from the grid's best term, and the change of k1 that measures the slope:
#: the corners move nearly linearly with k1, so two steps settle it to about 0.0001.
LENS_STEPS = 2
LENS_DELTA = 0.001


class BoardNotFoundError(BoardError):
    """The board could not be located in a frame; the message says which frame and why."""


@dataclass(frozen=True, slots=True, eq=False)
class BoardLocation:
    """Where the board lies in one frame.

    Attributes:
        homography: 3 x 3 float64 mapping board.png pixels to ideal frame pixels (homogeneous):
            to frame pixels where ``lens`` is None.
        marker_ids: ids of the markers that were seen and agree with the fit, increasing.
        reprojection_error: RMS distance in frame pixels between the seen marker corners and
            the board's marker corners mapped through :meth:`board_to_frame`.
        lens: the lens's radial distortion (vision.board.lens); None: a pinhole camera.
    """

    homography: np.ndarray
    marker_ids: tuple[int, ...]
    reprojection_error: float
    lens: RadialLens | None = None

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
        ideal = cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)
        return ideal if self.lens is None else self.lens.distort(ideal)



@dataclass(frozen=True, slots=True)
class MarkerSighting:
    """The fiducial markers of the board seen in one frame.

    Attributes:
        corners: marker id -> float32 array (shape: [4, 2]) of its corners in frame pixels.
        size: the frame's (width, height) in pixels, for fitting the lens; None: no lens is fitted.
    """

    corners: dict[int, np.ndarray]
    size: tuple[int, int] | None = None


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
        size = (gray.shape[1], gray.shape[0])
        if ids is None:
            return MarkerSighting(found, size)
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
        return MarkerSighting(found, size)

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
        """Fit the homography, and the lens where enough markers are seen, to a marker sighting
        (see :meth:`locate` and the module docstring).

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
        lens = self._fit_lens(sighting, where) if len(ids) >= LENS_MARKERS else None
        location = self._fit_with(sighting, lens, where)
        if location.reprojection_error > self.max_error_px:
            raise BoardNotFoundError(
                f"{where}: board not found: markers {list(location.marker_ids)} disagree (reprojection error "
                f"{location.reprojection_error:.1f} px > {self.max_error_px} px)"
            )
        return location

    def _fit_lens(self, sighting: MarkerSighting, where: str) -> RadialLens | None:
        """The lens of a sighting of enough markers (None without the frame's size): the grid's
        radial term whose fit has the least median marker error (a misdetected marker does not sway
        it), then Gauss-Newton steps on the corners of the markers that fit agrees with.

        Raises:
            BoardNotFoundError: the markers give no homography.
        """
        if sighting.size is None:
            return None
        size, corners = sighting.size, sighting.corners
        ids = sorted(corners)
        scores = [float(np.median(self._errors(corners, ids, RadialLens(k1, size))[1])) for k1 in LENS_GRID]
        k1 = LENS_GRID[int(np.argmin(scores))]
        agree = list(self._fit_with(sighting, RadialLens(k1, size), where).marker_ids)
        for _ in range(LENS_STEPS):
            here = self._fit_residuals(corners, agree, RadialLens(k1, size))[1].ravel()
            slope = (self._fit_residuals(corners, agree, RadialLens(k1 + LENS_DELTA, size))[1].ravel()
                     - here) / LENS_DELTA
            if not np.isfinite(here).all() or not (slope**2).sum() > 0:
                break
            k1 = float(np.clip(k1 - (slope * here).sum() / (slope**2).sum(), LENS_GRID[0], LENS_GRID[-1]))
        return RadialLens(k1, size)

    def _fit_with(self, sighting: MarkerSighting, lens: RadialLens | None, where: str) -> BoardLocation:
        """The least-squares homography through ``lens`` to the sighting's markers, dropping the worst
        marker while it disagrees by more than ``max_error_px`` (its error may still exceed that).

        Raises:
            BoardNotFoundError: the markers give no homography.
        """
        kept = sorted(sighting.corners)
        while True:  # least squares, dropping the worst marker while it disagrees (deterministic)
            homography, per_marker = self._errors(sighting.corners, kept, lens)
            if homography is None:
                raise BoardNotFoundError(f"{where}: board not found: markers {kept} give no homography")
            worst = int(np.argmax(per_marker))
            if per_marker[worst] <= self.max_error_px or len(kept) <= self.min_markers:
                break
            del kept[worst]
        return BoardLocation(homography, tuple(kept), float(np.sqrt(np.mean(per_marker ** 2))), lens)

    def _errors(self, corners: dict[int, np.ndarray], ids: list[int], lens: RadialLens | None
                ) -> tuple[np.ndarray | None, np.ndarray]:
        """The least-squares homography through ``lens`` to the markers ``ids`` and each marker's RMS
        error in frame pixels (float64 [len(ids)]); (None, infinite errors) where there is no fit."""
        homography, residuals = self._fit_residuals(corners, ids, lens)
        if homography is None:
            return None, np.full(len(ids), np.inf)
        return homography, np.sqrt(np.mean(np.sum(residuals ** 2, axis=1).reshape(-1, 4), axis=1))

    def _fit_residuals(self, corners: dict[int, np.ndarray], ids: list[int], lens: RadialLens | None
                       ) -> tuple[np.ndarray | None, np.ndarray]:
        """The least-squares homography through ``lens`` to the markers ``ids`` (None where there is
        none) and their corners as fitted less as seen (float64 [4 len(ids), 2], frame pixels)."""
        src = np.concatenate([self._board_corners[i] for i in ids])
        dst = np.concatenate([corners[i] for i in ids]).astype(np.float64)
        homography, _ = cv2.findHomography(src, dst if lens is None else lens.undistort(dst), 0)
        if homography is None:
            return None, np.full(dst.shape, np.inf)
        return homography, BoardLocation(homography, tuple(ids), 0.0, lens).board_to_frame(src) - dst


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
    lens = "none fitted" if location.lens is None else f"radial term {location.lens.k1:.3f}"
    print(f"markers {list(location.marker_ids)}, reprojection error {location.reprojection_error:.2f} px, "
          f"lens {lens}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
