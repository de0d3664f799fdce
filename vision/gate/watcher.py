"""The per-frame API for the table session: locate, gate (still, no hand), and read only what changed.

The gate (vision.gate.gate) decides when a frame may be read; the board stage
(vision.board.board_reader) reads it. A watcher keeps the last whole-board reading and merges the
reading of the changed cells into it.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np

from engine.hexgrid import Hex, parse_address
from vision.board.board_reader import BoardReader, BoardReading
from vision.board.locate import BoardNotFoundError
from vision.gate.gate import BoardGate, GateState


@dataclass(frozen=True, slots=True)
class WatchResult:
    """One frame seen by a :class:`BoardWatcher`.

    Attributes:
        gate: the gate's state for the frame.
        reading: the whole board's reading when this frame was read (the gate was ready and
            cells had changed, or a read was forced); None otherwise.
    """

    gate: GateState
    reading: BoardReading | None


class BoardWatcher:
    """The per-frame API for the table session: locate, gate, and read only what changed.

    Each frame is located and gated (about 5 ms at 1280 x 960). When the gate is ready (board found,
    still, no hand) and some cells look different from the last read frame, only those cells are
    read and merged into the last reading, so that ``reading`` always covers the whole board. The
    first ready frame is read in full.

    Args:
        reader: the read pipeline.
        gate: the motion/occlusion gate (a default gate for the reader's board when None).
    """

    def __init__(self, reader: BoardReader, gate: BoardGate | None = None) -> None:
        self.reader = reader
        self.gate = gate or BoardGate(reader.config.geometry)
        self.last: BoardReading | None = None

    def observe(self, image: np.ndarray, where: str = "frame",
                legal: Mapping[Hex, Collection[int]] | None = None, force: bool = False) -> WatchResult:
        """Gate one frame and read it when it is ready and something changed.

        Args:
            image: BGR uint8, H x W x 3.
            where: the frame's name for findings ("frame 12").
            legal: the engine's legal values per empty cell (the reader's prior).
            force: read every cell when the gate is ready, changed or not.

        Returns:
            The gate's state and, when the frame was read, the whole board's reading.
        """
        start = time.perf_counter()
        try:
            location = self.reader.locator.locate(image, where)
        except BoardNotFoundError:
            return WatchResult(self.gate.update(image, None), None)
        state = self.gate.update(image, location)
        if not state.is_ready or not (state.changed or force or self.last is None):
            return WatchResult(state, None)
        full = force or self.last is None
        only = None if full else [parse_address(a) for a in state.changed]
        part = self.reader.read(image, where, legal, only, location)
        self.gate.accept()
        if full or self.last is None:
            merged = part
        else:
            cells = {c: r for c, r in self.last.cells.items() if c not in part.read_cells}
            cells.update(part.cells)
            merged = BoardReading(True, cells, (time.perf_counter() - start) * 1e3, part.findings,
                                  part.read_cells)
        self.last = merged
        return WatchResult(state, merged)
