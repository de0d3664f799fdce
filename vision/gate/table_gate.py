"""Motion/occlusion gate for a bare table (Super Wild, Holominoes): is the picture still, and is a
hand or arm in it?

There is no board to locate: the gate looks at the whole frame, downscaled to ``width`` pixels
(a few milliseconds a frame).

- still: no more than ``motion_fraction`` of the frame changed by more than ``motion_level`` of
  its brightness in some colour channel since the previous frame (a hand may be as bright as
  the table, rarely of its colour) (the change of light taken out, vision.gate.gate's
  relative_change) for ``still_frames`` frames in a row;
- hand: the band along the frame's edges, where the layout does not reach, differs from the band
  of the last accepted frame over more than ``hand_fraction`` of its area. Players sit around the
  table, so an arm reaching over the tiles must cross that band; so does its shadow.

The caller accepts a frame (:meth:`TableGate.accept`) after reading it; later frames' bands are
compared with it. Before the first accepted frame only motion counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.gate.errors import GateError
from vision.gate.gate import relative_change


@dataclass(frozen=True, slots=True)
class TableGateConfig:
    """Thresholds of the bare table's gate.

    Attributes:
        width: width of the downscaled frame the gate works on, pixels.
        band: the edge band's depth, a share of the frame's short side.
        still_frames: frames without motion before the picture counts as still.
        motion_level: change of a pixel in a colour channel that counts as motion, grey levels.
        motion_fraction: share of the frame that must change for a frame to count as moving.
        hand_level: change of a band pixel in a colour channel that counts as covered, grey levels.
        hand_fraction: share of the band that must be covered for a hand to be reported.
        light_sigma: scale (share of the downscaled frame's width) above which a change of
            brightness counts as a change of light.
    """

    #: 160 pixels wide: a tile is still several pixels, a frame costs about 2 ms.
    width: int = 160
    #: A camera framing the layout leaves about a tenth of its short side free on each side
    #: (vision.sim.table_shots.LAYOUT_FILL: the layout spans at most 0.8 of it).
    band: float = 0.06
    #: Two quiet frames in a row: a hand resting still for one frame is not enough.
    still_frames: int = 2
    #: Sensor noise changes a pixel of the downscaled frame by a few grey levels; a hand or a tile
    #: by tens of them in some channel.
    motion_level: float = 12.0
    #: A hand or a tile carried over the table changes 1 % of the frame or more; noise 0.1 %.
    motion_fraction: float = 0.004
    hand_level: float = 12.0
    #: On TRAIN-style recordings (vision.sim.table_recording, seeds 101 and 102, 960 x 720) a
    #: hand in the picture covers 2.2 % of the band or more in 99 % of its frames (less only as it
    #: comes in), a quiet table at most 0.6 %.
    hand_fraction: float = 0.01
    #: Light changes over a tenth of the frame or more; a tile is smaller.
    light_sigma: float = 0.1

    def __post_init__(self) -> None:
        if self.width < 32 or not 0 < self.band < 0.5 or self.still_frames < 1:
            raise GateError(f"bad table gate config {self}")
        if not 0 < self.motion_fraction < 1 or not 0 < self.hand_fraction < 1:
            raise GateError(f"bad table gate config {self}")
        if min(self.motion_level, self.hand_level, self.light_sigma) <= 0:
            raise GateError(f"bad table gate config {self}")


@dataclass(frozen=True, slots=True)
class TableGateState:
    """What the gate says about one frame.

    Attributes:
        still: nothing moved for ``still_frames`` frames.
        hand: a hand, arm or its shadow is in the edge band.
        motion: share of the frame that changed since the previous frame (1.0 for the first).
        cover: share of the edge band that differs from the last accepted frame (0.0 before one).
    """

    still: bool
    hand: bool
    motion: float
    cover: float

    @property
    def is_ready(self) -> bool:
        """The frame may be read: still and no hand."""
        return self.still and not self.hand


class TableGate:
    """Per-frame gate of a bare table (stateful: remembers the previous and the accepted frame).

    Args:
        config: thresholds.
    """

    def __init__(self, config: TableGateConfig | None = None) -> None:
        self.config = config or TableGateConfig()
        self._shape: tuple[int, int] | None = None
        self._band = np.zeros((1, 1), bool)
        self._all = np.ones((1, 1), bool)
        self._previous: np.ndarray | None = None
        self._accepted: np.ndarray | None = None
        self._quiet = 0

    def _small(self, image: np.ndarray) -> np.ndarray:
        """The downscaled frame (float32, h x w x channels), the band's mask made for its size."""
        h, w = image.shape[:2]
        size = (self.config.width, max(8, round(h * self.config.width / w)))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32)
        small = small.reshape(small.shape[0], small.shape[1], -1)
        if self._shape != small.shape[:2]:
            self._shape = (small.shape[0], small.shape[1])
            depth = max(1, round(self.config.band * min(self._shape)))
            self._band = np.ones(self._shape, bool)
            self._band[depth:-depth, depth:-depth] = False
            self._all = np.ones(self._shape, bool)
            self._previous = self._accepted = None
        return small

    def _change(self, small: np.ndarray, reference: np.ndarray, region: np.ndarray) -> np.ndarray:
        """The largest change over the colour channels, grey levels (float32, h x w), the change of
        light taken out."""
        sigma = self.config.light_sigma * small.shape[1]
        return np.max([relative_change(small[..., c], reference[..., c], region, sigma)
                       * np.maximum(small[..., c], 1)
                       for c in range(small.shape[2])], axis=0)

    def update(self, image: np.ndarray) -> TableGateState:
        """Judge one frame (BGR uint8 H x W x 3, or grey H x W)."""
        small = self._small(image)
        motion = 1.0
        if self._previous is not None:
            change = self._change(small, self._previous, self._all)
            motion = float((change > self.config.motion_level).mean())
        self._previous = small
        self._quiet = self._quiet + 1 if motion <= self.config.motion_fraction else 0
        still = self._quiet >= self.config.still_frames
        cover = 0.0
        if self._accepted is not None:
            change = self._change(small, self._accepted, self._band)
            cover = float((change[self._band] > self.config.hand_level).mean())
        return TableGateState(still, cover > self.config.hand_fraction, motion, cover)

    def accept(self) -> None:
        """Take the last frame given to :meth:`update` as the reference for the band."""
        if self._previous is not None:
            self._accepted = self._previous
