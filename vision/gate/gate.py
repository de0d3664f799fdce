"""Motion/occlusion gate: is the board still, and is a hand over it?

The gate works on a small top-down board image (``pitch_px`` pixels between cell centres, 12 by
default: about 330 x 300 pixels for an order-9 board), so it costs a few milliseconds a frame.

- still: no more than ``motion_fraction`` of the sheet moved by more than ``motion_level`` grey
  levels (after the change of light is taken out) for ``still_frames`` frames in a row; measured
  in the downscaled frame itself, so that the homography's small jitter is no motion;
- hand: the white band around the cells, where tiles never lie, differs from the band of the last
  accepted frame over more than ``hand_fraction`` of its area. An arm reaching over the board must
  cross that band; so must the shadow of a hand over the board's edge, which makes the gate wait
  rather than read a half-covered board;
- changed cells: the cells whose look changed since the last accepted frame, so that the read
  pipeline reads only those.

The caller accepts a frame (``accept``) after reading it; later frames are compared with it.
Run ``python -m vision.gate.gate board.json FRAME...`` to print the state of frames in order.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import BoardGeometry
from vision.board.board_view import BoardView
from vision.board.locate import BoardLocation
from vision.board.sheet import AnyBoard, Sheet
from vision.gate.errors import GateError


@dataclass(frozen=True, slots=True)
class GateConfig:
    """Gate thresholds.

    Attributes:
        pitch_px: distance between cell centres in the gate's small board image (pixels).
        still_frames: frames without motion before the board counts as still.
        motion_level: grey-level change (0..255, light change removed) that counts as motion.
        motion_fraction: share of the sheet's pixels that must move for a frame to count as moving.
        hand_level: relative brightness change of the white band that counts as covered.
        hand_fraction: share of the white band that must be covered for a hand to be reported.
        cell_level: mean relative change over a cell that counts as a changed cell.
        light_sigma_pitches: scale (in cell pitches) above which a change of brightness counts as a
            change of light, not as something on the sheet.
        raw_width: width of the downscaled frame in which motion is measured (pixels).
    """

    pitch_px: float = 12.0
    still_frames: int = 3
    motion_level: float = 18.0
    motion_fraction: float = 0.0015
    hand_level: float = 0.12
    hand_fraction: float = 0.004
    cell_level: float = 0.025
    light_sigma_pitches: float = 1.5
    raw_width: int = 320

    def __post_init__(self) -> None:
        if self.pitch_px < 6 or self.still_frames < 1 or not 0 < self.motion_fraction < 1:
            raise GateError(f"bad gate config {self}")
        if not 0 < self.hand_fraction < 1 or self.hand_level <= 0 or self.cell_level <= 0:
            raise GateError(f"bad gate config {self}")


@dataclass(frozen=True, slots=True)
class GateState:
    """What the gate says about one frame.

    Attributes:
        board_found: the board was located in the frame.
        still: nothing moved over the sheet for ``still_frames`` frames.
        hand: a hand, arm or its shadow is over the white band around the cells.
        changed: addresses of cells that look different from the last accepted frame (all cells
            before the first accepted frame).
        motion: share of the sheet's pixels that moved since the previous frame.
        cover: share of the white band that differs from the last accepted frame.
    """

    board_found: bool
    still: bool
    hand: bool
    changed: tuple[str, ...]
    motion: float
    cover: float

    @property
    def is_ready(self) -> bool:
        """The frame may be read: board found, still, and no hand over the board."""
        return self.board_found and self.still and not self.hand


class BoardGate:
    """Per-frame motion/occlusion gate (stateful: remembers the previous and the accepted frame).

    Args:
        geometry: the printed board, hex or square (vision.board.sheet).
        config: thresholds.
    """

    def __init__(self, geometry: AnyBoard | Sheet, config: GateConfig | None = None) -> None:
        self.config = config or GateConfig()
        self.view = BoardView(geometry, self.config.pitch_px)
        sheet = self.view.sheet
        w, h = self.view.size
        inside = np.zeros((h, w), np.uint8)
        for corners in sheet.corners:
            cv2.fillConvexPoly(inside, np.round(corners * self.view.scale).astype(np.int32), 255)
        grow = max(1, round(0.35 * self.config.pitch_px))
        near_cells = cv2.dilate(inside, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)) > 0
        marker_map = np.zeros((h, w), np.uint8)
        for m in sheet.markers:
            poly = np.round(np.array(m.corners) * self.view.scale).astype(np.int32)
            cv2.fillConvexPoly(marker_map, poly, 255)
        markers = cv2.dilate(marker_map, np.ones((5, 5), np.uint8)) > 0
        edge = np.zeros((h, w), bool)
        edge[3:-3, 3:-3] = True
        self._band = ~near_cells & ~markers & edge
        self._sigma = self.config.light_sigma_pitches * self.config.pitch_px
        self._sheet = edge
        bw, bh = sheet.image_size
        self._outline = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float64)
        self._raw_scale = 1.0
        self._previous_raw: np.ndarray | None = None
        self._previous: np.ndarray | None = None
        self._accepted: np.ndarray | None = None
        self._quiet_frames = 0

    def _raw_small(self, gray: np.ndarray, location: BoardLocation) -> tuple[np.ndarray, np.ndarray]:
        """The grey frame at the gate's scale (float32) and the sheet's mask in it (bool)."""
        h, w = gray.shape
        self._raw_scale = self.config.raw_width / w
        size = (self.config.raw_width, max(1, round(h * self._raw_scale)))
        raw = cv2.resize(gray, size, interpolation=cv2.INTER_AREA).astype(np.float32)
        outline = location.board_to_frame(self._outline) * self._raw_scale
        mask = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillConvexPoly(mask, np.round(outline).astype(np.int32), 1)
        return raw, mask.astype(bool)

    def small(self, image: np.ndarray, location: BoardLocation) -> np.ndarray:
        """The gate's small grey top-down board image (float32, H x W) of a BGR or grey frame."""
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        return self.view.rectify(gray, location).astype(np.float32)

    def update(self, image: np.ndarray, location: BoardLocation | None) -> GateState:
        """Judge one frame.

        Args:
            image: BGR uint8, H x W x 3.
            location: the board's location in ``image``; None when it was not found.

        Returns:
            The gate's state for this frame.
        """
        if location is None:
            self._previous = self._previous_raw = None
            self._quiet_frames = 0
            return GateState(False, False, True, (), 1.0, 1.0)
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        small = self.small(gray, location)
        raw, sheet = self._raw_small(gray, location)
        motion = 1.0
        if self._previous_raw is not None and self._previous_raw.shape == raw.shape:
            # in frame coordinates, so that the homography's jitter from frame to frame is no motion
            change = relative_change(raw, self._previous_raw, sheet, self._sigma * self._raw_scale)
            change *= np.maximum(raw, 1.0)
            motion = float((change[sheet] > self.config.motion_level).mean())
        self._previous, self._previous_raw = small, raw
        self._quiet_frames = self._quiet_frames + 1 if motion <= self.config.motion_fraction else 0
        still = self._quiet_frames >= self.config.still_frames
        if self._accepted is None:
            return GateState(True, still, False, self.view.addresses, motion, 0.0)
        change = relative_change(small, self._accepted, self._band, self._sigma)
        cover = float((change[self._band] > self.config.hand_level).mean())
        change = relative_change(small, self._accepted, self._sheet, self._sigma)
        per_cell = self.view.patches(change)[:, self.view.cell_mask].mean(axis=1)
        changed = tuple(a for a, v in zip(self.view.addresses, per_cell, strict=True)
                        if v > self.config.cell_level)
        return GateState(True, still, cover > self.config.hand_fraction, changed, motion, cover)

    def accept(self) -> None:
        """Take the last frame given to :meth:`update` as the reference for later frames."""
        if self._previous is not None:
            self._accepted = self._previous



def relative_change(current: np.ndarray, reference: np.ndarray, region: np.ndarray,
                     sigma: float) -> np.ndarray:
    """|r / light - 1| per pixel for r = current / reference, where ``light`` is the change of light.

    The light's change is the median ratio over ``region`` (a lamp, a cloud) times a smooth local
    correction (a glare spot): the ratio clipped to +-15 % of the median (so that a tile or a hand
    weighs little), blurred with ``sigma`` pixels over ``region`` (on a 4x smaller grid, for speed).
    """
    ratio = (current + 4.0) / (reference + 4.0)
    ratio /= float(np.median(ratio[region][::7]))
    weight = region.astype(np.float32)
    h, w = ratio.shape
    coarse = (max(1, w // 4), max(1, h // 4))
    clipped = cv2.resize(np.clip(ratio, 0.85, 1.15) * weight, coarse, interpolation=cv2.INTER_AREA)
    norm = cv2.resize(weight, coarse, interpolation=cv2.INTER_AREA)
    clipped = cv2.GaussianBlur(clipped, (0, 0), sigma / 4)
    norm = cv2.GaussianBlur(norm, (0, 0), sigma / 4)
    coarse_light = np.where(norm > 1e-2, clipped / np.maximum(norm, 1e-3), 1.0).astype(np.float32)
    light = cv2.resize(coarse_light, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.abs(ratio / light - 1.0)


def main(argv: list[str]) -> int:
    """Print the gate's state for frames in order: ``python -m vision.gate.gate BOARD FRAME...``."""
    from vision.board.locate import BoardLocator, BoardNotFoundError

    geometry = BoardGeometry.load(argv[0])
    locator, gate = BoardLocator(geometry), BoardGate(geometry)
    for path in argv[1:]:
        image = cv2.imread(path)
        if image is None:
            print(f"cannot read image {path}", file=sys.stderr)
            return 2
        try:
            location: BoardLocation | None = locator.locate(image, path)
        except BoardNotFoundError:
            location = None
        state = gate.update(image, location)
        print(f"{path}: found {state.board_found} still {state.still} hand {state.hand} "
              f"motion {state.motion:.4f} cover {state.cover:.4f} changed {' '.join(state.changed[:12])}")
        if state.is_ready:
            gate.accept()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
