"""The camera observer: board location, motion/occlusion gate and tile reading on every frame.

:class:`GatedReads` does this on either printed board (MODLINSEQ's here, Yushino's in
tilescribe.yushino_observer); :class:`VisionObserver` is MODLINSEQ's observer.

Built on the read pipeline (vision.board.locate: the board from its fiducial markers; vision.gate.gate: still?
hand over the board?; vision.board.board_reader.BoardReader: presence and the tile reader,
vision.reader.board_face_reader, on every cell). Each frame is located and gated; the board is read
only when it has settled. The engine's legal values at each empty cell are the reader's
prior. The board must stay quiet (located, no hand, no motion in any frame) for ``still_seconds``
(tilescribe.observe.Settle); the whole board is read afresh on a few frames of the end of that
spell and the reads are pooled per cell, so that every settled reading covers every cell anew (an
earlier misread is caught at the next turn).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Generic

import numpy as np

from calibration.geometry import BoardGeometry
from display.view import CameraState
from engine.hexgrid import Hex
from tilescribe.faces import FaceMap
from tilescribe.observe import Observation, Settle
from vision.board.board_reader import (
    BoardReader,
    BoardReading,
    CellReading,
    FaceReader,
    ReadConfig,
    small_frame_findings,
)
from vision.board.board_reader import Cell as C
from vision.board.locate import BoardLocation, BoardLocator, BoardNotFoundError
from vision.capture.sources import Frame
from vision.gate.gate import BoardGate, GateConfig
from vision.reader import board_face_reader

LegalValues = Callable[[], Mapping[Hex, Collection[int]]]

#: Share of the sheet that must change between frames to count as motion. Sensor noise and light
#: flicker move about 2 % of the gate's pixels between frames; a hand or an arm moves 5 to 10 %;
#: a tile put down (about 0.1 %) is seen by the gate's changed cells, not as motion.
MOTION_FRACTION = 0.03

#: Reads of the quiet board in its last VOTE_SECONDS before it counts as settled (one every
#: VOTE_EVERY seconds) are pooled: each cell takes the face with the highest summed confidence
#: (the frames differ in sensor noise and light, and so do the reader's mistakes).
VOTE_SECONDS = 0.25
VOTE_EVERY = 0.09


class GatedReads(Generic[C]):
    """Locate, gate and settle every frame of either printed board; read the board once it has settled,
    pooling the reads of the end of the quiet spell (VOTE_SECONDS).

    Args:
        locator: locates the board in a frame (vision.board.locate).
        gate: the motion/occlusion gate of the same board.
        still_seconds: quiet time needed before a reading counts.
        read: read(image, where, location) -> the board's reading (BGR uint8 frame, its name for
            findings, the board's location in it).
    """

    def __init__(self, locator: BoardLocator, gate: BoardGate, still_seconds: float,
                 read: Callable[[np.ndarray, str, BoardLocation], BoardReading[C]]) -> None:
        self.locator, self.gate = locator, gate
        self.read: Callable[[np.ndarray, str, BoardLocation], BoardReading[C]] = read
        self._settle = Settle(still_seconds)
        self._pool: list[tuple[float, BoardReading[C]]] = []

    def update(self, frame: Frame) -> tuple[CameraState, dict[C, CellReading] | None]:
        """The camera state of one frame, and when the board has settled in it the pooled readings
        of its occupied cells (:func:`_pooled`; else None)."""
        where = f"frame {frame.index}"
        try:
            location: BoardLocation | None = self.locator.locate(frame.image, where)
        except BoardNotFoundError:
            location = None
        gate = self.gate.update(frame.image, location)
        if location is None:
            camera = CameraState.LOST
        elif gate.hand:
            camera = CameraState.HAND
        elif not gate.still:
            camera = CameraState.MOVING
        else:
            camera = CameraState.LOCKED
        quiet = location is not None and not gate.hand and gate.motion <= MOTION_FRACTION
        settled = self._settle.update(frame.t, quiet)
        since = self._settle.quiet_since
        if since is None or location is None:
            self._pool.clear()
            return camera, None
        quiet_for = frame.t - since
        voting = (self._settle.still_seconds - VOTE_SECONDS <= quiet_for < self._settle.still_seconds
                  and (not self._pool or frame.t - self._pool[-1][0] >= VOTE_EVERY))
        if settled or voting:
            # the whole board is read again (an earlier misread is caught)
            self._pool.append((frame.t, self.read(frame.image, where, location)))
        if not settled:
            return camera, None
        self.gate.accept()  # later frames are compared with this one (hands, changed cells)
        cells = _pooled([r for _, r in self._pool])
        self._pool.clear()
        return camera, cells


class VisionObserver:
    """Observations from camera frames of MODLINSEQ's board.

    Args:
        board: the printed board's board.json.
        faces: the table's face map (tile set and modulus).
        still_seconds: quiet time needed before a reading counts.
        legal: returns the engine's legal values per empty cell (the reader's prior), or None.
        reader: the tile reader (when None: vision.reader.board_face_reader of the tile set, without
            the tesseract second opinion).
        warn: told once, in one line, when the frames read put the board's cells too close to
            read tiles (vision.board.board_reader.MIN_FRAME_PITCH_PX).

    Raises:
        calibration.geometry.BoardFileError: board.json cannot be read.
        vision.reader.ReaderError, vision.reader.glyphs.TileReaderError: the reader's model or
            exemplar files are missing or broken.
    """

    def __init__(self, board: Path, faces: FaceMap, still_seconds: float, legal: LegalValues | None = None,
                 reader: FaceReader | None = None, warn: Callable[[str], None] | None = None) -> None:
        config = ReadConfig(
            geometry=BoardGeometry.load(board),
            modulus=faces.modulus,
            # no tesseract second opinion in a session: the pooled reads do its work, and each call
            # (0.1 to 0.3 s) would push the still-to-shown delay past 1 s
            reader=reader or board_face_reader(faces.tileset),
            face_values=faces.face_values(),
        )
        self.reader = BoardReader(config)
        self.gate = BoardGate(config.geometry, GateConfig(motion_fraction=MOTION_FRACTION))
        self.legal = legal
        self.reads = GatedReads(self.reader.locator, self.gate, still_seconds, self._read)
        self._warn = warn

    def _read(self, image: np.ndarray, where: str, location: BoardLocation) -> BoardReading[Hex]:
        legal = self.legal() if self.legal is not None else None
        warn = self._warn
        if warn is not None:
            for line in small_frame_findings(where, self.reader.read_view.frame_pitch(location)):
                warn(line)
                self._warn = None
        return self.reader.read(image, where, legal, location=location)

    def observe(self, frame: Frame) -> Observation:
        """Locate, gate and (when the board has settled) read one frame."""
        camera, cells = self.reads.update(frame)
        if cells is None:
            return Observation(frame.index, frame.t, camera)
        return Observation(frame.index, frame.t, camera, {c: r.face for c, r in cells.items()},
                           {c: r.confidence for c, r in cells.items()})


def _pooled(readings: list[BoardReading[C]]) -> dict[C, CellReading]:
    """The occupied cells of the last reading, each read with the face of highest summed confidence
    over all the readings: the most confident reading of that face (its alternatives with it)."""
    pooled: dict[C, CellReading] = {}
    for cell in readings[-1].cells:
        votes: dict[str, list[CellReading]] = {}
        for reading in readings:
            if cell in reading.cells:
                votes.setdefault(reading.cells[cell].face, []).append(reading.cells[cell])
        face = max(votes, key=lambda f: sum(r.confidence for r in votes[f]))
        pooled[cell] = max(votes[face], key=lambda r: r.confidence)
    return pooled
