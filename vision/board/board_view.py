"""The top-down board view at a fixed scale and the per-cell regions of interest in it.

A :class:`BoardView` fixes a rectified scale (pixels per board.png pixel, chosen by the wanted
distance between cell centres) and precomputes, for every cell, a square region of interest
centred on the cell and the mask of its inner hexagon or square. ``patches``
gathers every cell's region of interest from a rectified image in one numpy indexing step, and
``warp_cells`` warps only some cells straight from the camera frame (a still frame where only a
few cells changed need not be rectified whole).

``rectify`` warps a frame directly where the board has just moved; where it stays within
MAP_REUSE_PX frame pixels of where it was, it makes the pixel maps of that place once and remaps
with them (cheaper than a perspective warp): with the camera fixed above the table, the markers'
small frame-to-frame jitter does not cost a new perspective warp. Where the location has a lens
(vision.board.lens), every rectification goes through the pixel maps, which follow the lens, and
each cell that ``warp_cells`` cuts is warped by the homography through its region's four corners,
which the lens bends by far less than a pixel within a cell.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.locate import BoardLocation
from vision.board.sheet import AnyBoard, Sheet, board_sheet

#: The board stays put while its corners and centre lie within this many frame pixels of where
#: they were; the rectification maps of that place are then made once and reused. The located
#: board jitters by 0.02-0.04 px (median) from one frame of a fixed camera to the next in
#: bench_read's recordings; 0.1 px of shift is far below what the presence and glyph stages can tell.
MAP_REUSE_PX = 0.1
#: Through a lens the rectification maps are computed on every this many rectified pixels and
#: interpolated between: within 0.035 px of maps computed at every pixel, the maps' own 1/32 px
#: steps included (k1 up to 0.2, an order-13 and a Yushino board, a tilted view).
LENS_MAP_STEP = 8


class BoardView:
    """Cells' regions of interest in the rectified board image at one scale.

    Args:
        geometry: the printed board, hex or square (vision.board.sheet).
        pitch_px: wanted distance between neighbouring cell centres in rectified pixels.
        roi_factor: side of each cell's square region of interest, in pitches.

    Attributes:
        scale: rectified pixels per board.png pixel.
        size: (width, height) of the rectified board image.
        addresses: cell addresses in board.json order; cell indices refer to this tuple.
        origins: int32 array (shape: [N, 2]) of each region of interest's top-left (x, y).
        roi: side of the square regions of interest in pixels (odd).
        cell_mask: bool (shape: [roi, roi]), the cell's hexagon or square shrunk to 82 % (no outline).

    Raises:
        ValueError: pitch_px outside 4..400 or roi_factor outside 0.5..2.
    """

    def __init__(self, geometry: AnyBoard | Sheet, pitch_px: float = 48.0, roi_factor: float = 1.0) -> None:
        if not 4 <= pitch_px <= 400 or not 0.5 <= roi_factor <= 2.0:
            raise ValueError(f"pitch_px must be 4..400 and roi_factor 0.5..2, got {pitch_px}, {roi_factor}")
        self.sheet = geometry if isinstance(geometry, Sheet) else board_sheet(geometry)
        self.geometry = self.sheet.geometry
        self.pitch_px = pitch_px
        self.scale = pitch_px / self.sheet.pitch
        w, h = self.sheet.image_size
        self.size = (round(w * self.scale), round(h * self.scale))
        self.roi = int(round(pitch_px * roi_factor)) | 1  # odd, so the centre is a pixel
        self.addresses = self.sheet.addresses
        centres = self.sheet.centres * self.scale
        self.origins = np.round(centres).astype(np.int32) - self.roi // 2
        inner = np.zeros((self.roi, self.roi), np.uint8)
        corners = self.sheet.corners[0] - self.sheet.centres[0]
        cv2.fillConvexPoly(inner, np.round(corners * self.scale * 0.82 + self.roi // 2).astype(np.int32), 1)
        self.cell_mask = inner.astype(bool)
        r = np.arange(self.roi)
        ys = np.clip(self.origins[:, 1, None, None] + r[None, :, None], 0, self.size[1] - 1)
        xs = np.clip(self.origins[:, 0, None, None] + r[None, None, :], 0, self.size[0] - 1)
        self._flat = (ys * self.size[0] + xs).astype(np.intp)  # (N, roi, roi) into a rectified image
        w, h = self.size
        self._probes = np.array([[0, 0], [w, 0], [w, h], [0, h], [w / 2, h / 2]], np.float64) / self.scale
        # the board's last place and, once it stays there (or through a lens), its fixed-point maps
        self._place: tuple[BoardLocation, tuple[np.ndarray, np.ndarray] | None] | None = None

    def rectify(self, image: np.ndarray, location: BoardLocation) -> np.ndarray:
        """Warp a frame to the top-down board view: board.png pixel space times ``scale``.

        Args:
            image: the frame, BGR uint8, H x W x 3 (or grey uint8, H x W).
            location: the board's location in ``image``.

        Returns:
            The rectified board, same dtype and channels as ``image``, size[1] x size[0]
            (bilinear, the frame's edge pixels repeated outside it).
        """
        if self._place is None or _moved(self._place[0], location, self._probes) > MAP_REUSE_PX:
            self._place = (location, None)
            if location.lens is None:  # moved: warp directly
                to_frame = location.homography @ np.diag([1.0 / self.scale, 1.0 / self.scale, 1.0])
                return cv2.warpPerspective(image, to_frame, self.size, borderMode=cv2.BORDER_REPLICATE,
                                           flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        place, maps = self._place
        if maps is None:  # stayed put: the maps of this place, made once
            maps = self._frame_maps(place)
            self._place = (place, maps)
        return cv2.remap(image, *maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def _frame_maps(self, location: BoardLocation) -> tuple[np.ndarray, np.ndarray]:
        """Where each rectified pixel lies in the frame, as cv2.remap's fixed-point maps."""
        w, h = self.size
        if location.lens is None:
            grid = np.mgrid[0:h, 0:w][::-1].transpose(1, 2, 0).reshape(-1, 1, 2).astype(np.float32)
            where = cv2.perspectiveTransform(grid / self.scale, location.homography).reshape(h, w, 2)
            xs, ys = (np.ascontiguousarray(where[..., k]) for k in (0, 1))
        else:  # through the lens on every LENS_MAP_STEP-th pixel, bilinear between (smooth maps)
            cw, ch = -(-(w - 1) // LENS_MAP_STEP) + 1, -(-(h - 1) // LENS_MAP_STEP) + 1
            coarse = np.mgrid[0:ch, 0:cw][::-1].transpose(1, 2, 0).reshape(-1, 2) * float(LENS_MAP_STEP)
            bent = location.board_to_frame(coarse / self.scale).reshape(ch, cw, 2).astype(np.float32)
            at_x, at_y = np.meshgrid(np.arange(w, dtype=np.float32) / LENS_MAP_STEP,
                                     np.arange(h, dtype=np.float32) / LENS_MAP_STEP)
            xs, ys = (cv2.remap(np.ascontiguousarray(bent[..., k]), at_x, at_y, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE) for k in (0, 1))
        fixed, fraction = cv2.convertMaps(xs, ys, cv2.CV_16SC2)
        return np.asarray(fixed), np.asarray(fraction)

    def patches(self, rectified: np.ndarray, indices: np.ndarray | None = None) -> np.ndarray:
        """Every (or some) cell's region of interest from a rectified image.

        Args:
            rectified: output of :meth:`rectify` (H x W or H x W x C).
            indices: cell indices (into ``addresses``) to gather; all cells when None.

        Returns:
            array (shape: [N, roi, roi] or [N, roi, roi, C]), same dtype as ``rectified``.
        """
        h, w = rectified.shape[:2]
        if (w, h) == self.size:
            return _gather(rectified, self._flat if indices is None else self._flat[indices])
        origins = self.origins if indices is None else self.origins[indices]
        r = np.arange(self.roi)
        ys = np.clip(origins[:, 1, None, None] + r[None, :, None], 0, h - 1)
        xs = np.clip(origins[:, 0, None, None] + r[None, None, :], 0, w - 1)
        return rectified[ys, xs]

    def pixels(self, rectified: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Every cell's pixels under one mask of its region of interest.

        Args:
            rectified: output of :meth:`rectify` (H x W or H x W x C, exactly ``size``).
            mask: bool (shape: [roi, roi]).

        Returns:
            array (shape: [cells, mask.sum()] or [cells, mask.sum(), C]), same dtype as
            ``rectified``, pixels in row-major order of the mask.

        Raises:
            ValueError: ``rectified`` is not ``size`` or ``mask`` is not [roi, roi].
        """
        h, w = rectified.shape[:2]
        if (w, h) != self.size or mask.shape != (self.roi, self.roi):
            raise ValueError(f"pixels: expected a {self.size[0]}x{self.size[1]} image and a "
                             f"{self.roi}x{self.roi} mask, got {w}x{h} and {mask.shape}")
        return _gather(rectified, self._flat[:, mask])

    def warp_cells(self, image: np.ndarray, location: BoardLocation, indices: np.ndarray) -> np.ndarray:
        """Some cells' regions of interest warped straight from the frame (no full rectification).

        Args:
            image: the camera frame, BGR uint8, H x W x 3.
            location: the board's location in ``image``.
            indices: cell indices (into ``addresses``).

        Returns:
            BGR uint8 (shape: [N, roi, roi, 3]), equal to ``patches(rectify(image), indices)``
            up to interpolation.
        """
        out = np.empty((len(indices), self.roi, self.roi, 3), np.uint8)
        unscale = np.diag([1.0 / self.scale, 1.0 / self.scale, 1.0])
        if location.lens is not None and len(indices):  # each region's corners, bent by the lens
            edge = float(self.roi - 1)
            square = np.array([[0.0, 0.0], [edge, 0.0], [edge, edge], [0.0, edge]], np.float32)
            board = (self.origins[np.asarray(indices)][:, None, :] + square[None]) / self.scale
            bent = location.board_to_frame(board.reshape(-1, 2)).reshape(-1, 4, 2).astype(np.float32)
        for k, i in enumerate(indices):
            if location.lens is None:
                shift = np.array([[1.0, 0, self.origins[i, 0]], [0, 1.0, self.origins[i, 1]], [0, 0, 1.0]])
                to_frame = location.homography @ unscale @ shift
            else:
                to_frame = cv2.getPerspectiveTransform(square, bent[k])
            out[k] = cv2.warpPerspective(image, to_frame, (self.roi, self.roi),
                                         flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                         borderMode=cv2.BORDER_REPLICATE)
        return out

    def frame_pitch(self, location: BoardLocation) -> float:
        """How far apart neighbouring cells lie in the frame where they lie closest (the far side
        of a tilted board): the least, over the cells, of one pitch across or down mapped into
        the frame, in frame pixels."""
        centres = self.sheet.centres.astype(np.float64)
        at = location.board_to_frame(centres)
        return float(min(np.linalg.norm(location.board_to_frame(centres + step) - at, axis=1).min()
                         for step in ((self.sheet.pitch, 0.0), (0.0, self.sheet.pitch))))

    def index(self, address: str) -> int:
        """Index of a cell address in ``addresses``.

        Raises:
            KeyError: the board has no such cell.
        """
        try:
            return self.addresses.index(address)
        except ValueError:
            raise KeyError(f"board has no cell {address!r}") from None


def _moved(before: BoardLocation, after: BoardLocation, points: np.ndarray) -> float:
    """Largest distance in frame pixels between ``points`` (float [K, 2], board.png pixels) mapped
    into the frame by two locations."""
    return float(np.abs(before.board_to_frame(points) - after.board_to_frame(points)).max())


def _gather(image: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """``image``'s pixels at flat (row-major) indices: shape flat.shape (+ channels), image's dtype."""
    h, w = image.shape[:2]
    return np.take(image.reshape(h * w, -1), flat.ravel(), axis=0).reshape(flat.shape + image.shape[2:])
