"""The read pipeline: one camera frame -> which tile is on which cell.

locate the board (vision.board.locate) -> rectify -> presence per cell (vision.board.presence) -> read
the face of every occupied cell with the tile reader on its region of interest -> :class:`BoardReading`.

The engine's legal values for each empty cell are the reader's prior: the faces a cell may show
are re-ranked so that a value the rules forbid there is the first suspect of a misread (a clear
reading of a forbidden value is still reported; the engine flags the turn). The rules also weigh
on the whole board: in a full read, the faces are chosen among the reader's alternatives so that
every line of tiles stays modular-linear where the reader was unsure (vision.board.line_prior, §2-2).
On A0 a number equal to the modulus, which no tile of the game shows, is the modulus marker (§8),
which shows it.

A read may be limited to some cells (``only``): a still frame in which the gate saw only a few
cells change is read in a fraction of the time, warping just those cells from the frame.

Run ``python -m vision.board.board_reader board.json IMAGE [MODULUS]`` to print the reading of one image.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import cv2
import numpy as np

from calibration.geometry import BoardGeometry
from engine.hexgrid import Board, Hex, address_sort_key, format_address, parse_address
from engine.yushino.board import Square, format_square
from vision.board.board_view import BoardView
from vision.board.line_prior import LINE_PENALTY, decode_lines
from vision.board.locate import BoardLocation, BoardLocator, BoardNotFoundError
from vision.board.presence import PresenceConfig, PresenceDetector
from vision.reader.crop import CROP_SCALE, INPUT_PX
from vision.reader.faces import MARKER_FACE, NUMBER_FACES, WILD_FACES

if TYPE_CHECKING:
    from vision.board.square_reader import SquareReadConfig

#: A tile's size (vision.reader.crop: the diameter of the circle through its corners) in
#: millimetres by its shape: the pentagon 25 mm wide (§1-3), a Rummikub-like tile 26 x 19.5 mm.
TILE_SIZE_MM: dict[str, float] = {"pentagon": 25.0 / math.sin(math.radians(72)), "rectangle": 32.5}
KNOWN_FACES: frozenset[str] = frozenset((*NUMBER_FACES, *WILD_FACES, MARKER_FACE))
#: The face reported for an occupied cell whose tile the reader could not read (confidence 0).
UNREADABLE_FACE = "?"
#: Fewest frame pixels between neighbouring cells (BoardView.frame_pitch) at which tiles read
#: reliably; a frame with fewer gets a finding. TRAIN-style order-13 games (bench/sim_games.py,
#: split "train", seed 900, 2 games) at 960x720, 1120x840 and 1280x960 put the cells 21, 24 and
#: 28 px apart, and the glyph reader misread 9.9%, 5.1% and 2.0% of their tiles (an order-9
#: board's 37 px: about 2%); an order-18 board at 1280x960, 21 px apart, read 12.7% of its cells
#: wrong, at 2560x1920 (40 px) 0.2%. The line sits between 24 and 28 px.
MIN_FRAME_PITCH_PX = 26.0


class FaceReadingLike(Protocol):
    """A reader's answer for one tile: the face and a confidence 0..1."""

    @property
    def face(self) -> str: ...  # noqa: D102

    @property
    def confidence(self) -> float: ...  # noqa: D102

    @property
    def alternatives(self) -> Sequence[tuple[str, float]]: ...  # noqa: D102


class FaceReader(Protocol):
    """The tile face reader the pipeline uses (vision.reader.glyph_reader.TileReader, the learned
    vision.reader.model.TileReader)."""

    @property
    def cell_crop(self) -> tuple[float, float] | None:
        """The board cell crops the reader was made for: (distance between cell centres in
        pixels, crop side in pitches); None: the learned reader's tile crops (vision.reader.crop:
        CROP_SCALE times the tile's size, INPUT_PX pixels across)."""
        ...

    def read_batch(self, crops: Sequence[np.ndarray],
                   allowed: Iterable[str] | None = None) -> Sequence[FaceReadingLike]:
        """Read square tile crops (BGR uint8, any rotation); ``allowed`` faces re-rank (a prior)."""
        ...


@dataclass(frozen=True, slots=True)
class CellReading:
    """The tile read on one cell.

    Attributes:
        face: what is printed: "0".."19", "#" (wild), "marker" (modulus marker, §8), "joker";
            "?" when a tile is there but its face could not be read (confidence 0, a finding).
        value: the face's value under the modulus, None for a wild tile or a face that is not a
            value under the modulus (see BoardReading.findings).
        confidence: 0..1, the product of the presence and the face confidences.
        alternatives: the reader's likeliest faces with their probabilities (0..1), most
            probable first (vision.reader.glyph_reader.FaceReading.alternatives); empty when unknown.
    """

    face: str
    value: int | None
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be in 0..1, got {self.confidence!r}")


#: A board's cell: a hex cell of MODLINSEQ's board or a square of Yushino's.
Cell = TypeVar("Cell", Hex, Square)


@dataclass(frozen=True, slots=True)
class BoardReading(Generic[Cell]):
    """What one frame shows.

    Attributes:
        board_found: the board was located; when False, ``cells`` is empty.
        cells: occupied cells only (all read cells when the read was limited with ``only``): hex
            cells on MODLINSEQ's board, squares on Yushino's.
        ms: wall time of the read in milliseconds.
        findings: problems found, as data ("P3: face '14' is not a value under modulus 13").
        read_cells: the cells that were looked at (every board cell for a full read).
    """

    board_found: bool
    cells: Mapping[Cell, CellReading]
    ms: float
    findings: tuple[str, ...] = ()
    read_cells: frozenset[Cell] = field(default_factory=frozenset)

    def to_json(self) -> dict:
        """The ``tilescribe read --json`` document: {"board_found", "cells": {address: {...}}, "ms"};
        hex cells by ring and sextant (A0, B1, ...), squares row by row (A1, B1, ..., O15)."""
        return {
            "board_found": self.board_found,
            "cells": {
                cell_address(c): {"face": r.face, "value": r.value, "confidence": round(r.confidence, 4)}
                for c, r in sorted(self.cells.items(), key=lambda item: _reading_order(item[0]))
            },
            "ms": round(self.ms, 2),
            "findings": list(self.findings),
        }


def cell_address(cell: Hex | Square) -> str:
    """A cell's address: "B14" for a hex cell (MSA), "H8" for a square (games.md)."""
    return format_square(cell) if isinstance(cell, Square) else format_address(cell)


def _reading_order(cell: Hex | Square) -> tuple[int, ...]:
    if isinstance(cell, Square):
        return (cell.row, cell.col)
    ring, letter, number = address_sort_key(cell)
    return (ring, ord(letter), number)


@dataclass(frozen=True, slots=True, eq=False)
class ReadConfig:
    """Everything the read pipeline needs besides the frame.

    Attributes:
        geometry: the printed board.
        modulus: the game's modulus (§1-3); faces at or above it have no value.
        reader: the tile face reader.
        face_values: face -> value from a tile-set profile (e.g. Rummikub "13" -> 0, calibration.
            tilesets); its faces are also the reader's prior (a face the set lacks is a suspect).
            When empty, numbers below the modulus are their own value, wild faces None, the
            marker 0, and any face may be read.
        empty_board: the empty board rectified at the presence pitch (from a calibration), or
            None to compare with the board drawing.
        tile_shape: the tiles' shape, "pentagon" (§1-3) or "rectangle" (a Rummikub-like set): with
            the printed pitch it sizes the learned reader's crops (TILE_SIZE_MM).
        presence: presence thresholds.
        line_penalty: log-odds against a full read in which a line of tiles breaks §2-2
            (vision.board.line_prior); 0 turns the line prior off.
    """

    geometry: BoardGeometry
    modulus: int
    reader: FaceReader
    face_values: Mapping[str, int | None] = field(default_factory=dict)
    empty_board: np.ndarray | None = None
    tile_shape: str = "pentagon"
    presence: PresenceConfig = field(default_factory=PresenceConfig)
    line_penalty: float = LINE_PENALTY

    def __post_init__(self) -> None:
        if not 1 <= self.modulus <= 20:
            raise ValueError(f"modulus must be 1..20, got {self.modulus!r}")
        if self.tile_shape not in TILE_SIZE_MM:
            raise ValueError(f"tile shape must be one of {sorted(TILE_SIZE_MM)}, got {self.tile_shape!r}")

    def read_view(self) -> tuple[float, float]:
        """(pitch in pixels, crop side in pitches) of the reader's cell crops: the reader's own
        (FaceReader.cell_crop), or cut as the learned reader's tile crops (CROP_SCALE times the
        tile's size, INPUT_PX pixels across)."""
        if self.reader.cell_crop is not None:
            return self.reader.cell_crop
        return tile_crop_view(self.geometry, self.tile_shape)

    def value_of(self, face: str) -> int | None:
        """The value of a face under this config (§1-3, §7-1 wild, §8 marker = 0); with a tile-set
        profile, a face the set does not have has no value."""
        if self.face_values:
            return self.face_values.get(face)
        if face == MARKER_FACE:
            return 0
        if face in NUMBER_FACES and int(face) < self.modulus:
            return int(face)
        return None


def tile_crop_view(geometry: BoardGeometry, tile_shape: str) -> tuple[float, float]:
    """(pitch in pixels, crop side in pitches) of board cell crops cut as the learned reader's tile
    crops: CROP_SCALE times the size of a tile of ``tile_shape`` (TILE_SIZE_MM) across, INPUT_PX
    pixels across.

    Raises:
        KeyError: ``tile_shape`` is not in TILE_SIZE_MM.
    """
    roi = CROP_SCALE * TILE_SIZE_MM[tile_shape] / geometry.cell_mm
    return INPUT_PX / roi, roi


def small_frame_findings(where: str, pitch: float) -> list[str]:
    """The finding for a frame whose cells lie ``pitch`` frame pixels apart, when that is too few
    to read tiles (under MIN_FRAME_PITCH_PX); else none."""
    if pitch >= MIN_FRAME_PITCH_PX:
        return []
    return [f"{where}: the board's cells are {pitch:.0f} px apart in the frame, too few to read tiles "
            f"reliably (from {MIN_FRAME_PITCH_PX:.0f} px): use bigger frames (e.g. --source pi:2560x1920) "
            f"or bring the camera closer"]


def locate_frame(locator: BoardLocator, image: np.ndarray, where: str, location: BoardLocation | None
                 ) -> BoardLocation | BoardNotFoundError:
    """Check a frame and locate the board in it, unless its location is given.

    Args:
        locator: the board's locator.
        image: the camera frame, BGR uint8, H x W x 3.
        where: the frame's name for errors.
        location: the board's location when the caller already has it.

    Returns:
        The location, or the error saying why the board was not found (a reading says so).

    Raises:
        ValueError: ``image`` is not a BGR uint8 image.
    """
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"{where}: expected a BGR uint8 H x W x 3 image, got {image.dtype} {image.shape}")
    if location is not None:
        return location
    try:
        return locator.locate(image, where)
    except BoardNotFoundError as exc:
        return exc


class BoardReader:
    """The read pipeline with its per-board set-up done once (views, empty-board reference).

    Args:
        config: what to read with.
    """

    def __init__(self, config: ReadConfig) -> None:
        self.config = config
        self.locator = BoardLocator(config.geometry)
        self.read_view = BoardView(config.geometry, *config.read_view())
        self.presence_view = BoardView(config.geometry, config.presence.pitch_px)
        self.presence = PresenceDetector(self.presence_view, config.empty_board, config.presence)
        self._cells = tuple(parse_address(a) for a in self.read_view.addresses)  # by cell index
        self._index = {c: i for i, c in enumerate(self._cells)}
        self._board = Board(config.geometry.order, frozenset(self._index))
        faces_by_value: dict[int, set[str]] = {}
        for face in (*NUMBER_FACES, MARKER_FACE):
            value = config.value_of(face)
            if value is not None:
                faces_by_value.setdefault(value, set()).add(face)
        self._faces_by_value = faces_by_value
        # the tile set's faces (None: no set): on A0, and elsewhere without the modulus marker (§8)
        self._set_faces = frozenset(config.face_values) or None
        self._set_faces_off_a0 = None if self._set_faces is None else self._set_faces - {MARKER_FACE}

    def read(self, image: np.ndarray, where: str = "frame",
             legal: Mapping[Hex, Collection[int]] | None = None, only: Collection[Hex] | None = None,
             location: BoardLocation | None = None) -> BoardReading[Hex]:
        """Read the tiles on the board in one frame.

        Args:
            image: the camera frame, BGR uint8, H x W x 3.
            where: the frame's name for findings and errors ("frame 12", a file name).
            legal: the engine's legal values per empty cell (engine Game.legal_values()), the
                reader's prior; None for no prior.
            only: read just these cells (the cells the gate saw change); None for every cell.
            location: the board's location when the caller already has it (skips locating).

        Returns:
            The reading; ``board_found`` is False (and ``cells`` empty) when the markers do not
            locate the board.

        Raises:
            ValueError: ``image`` is not a BGR uint8 image, or ``only`` names a cell not on the board.
        """
        start = time.perf_counter()
        located = locate_frame(self.locator, image, where, location)
        if isinstance(located, BoardNotFoundError):
            return BoardReading(False, {}, (time.perf_counter() - start) * 1e3, (str(located),))
        indices = None
        if only is not None:
            try:
                indices = np.array(sorted(self._index[c] for c in only), np.int64)
            except KeyError as exc:
                raise ValueError(f"{where}: cell {exc.args[0]} is not on this board") from None
        scores = self.presence.measure(self.presence_view.rectify(image, located), indices)
        occupied = scores.indices[scores.occupied]
        crops = self.read_view.warp_cells(image, located, occupied)  # cheaper than a full rectification
        presence_conf = dict(zip(scores.indices.tolist(), scores.confidence.tolist(), strict=True))
        cells_hex = [self._cells[i] for i in occupied]
        readings = self._read_faces(crops, [self._prior(c, legal) for c in cells_hex])
        decoded = self._line_prior(cells_hex, readings) if only is None else {}
        cells: dict[Hex, CellReading] = {}
        findings = small_frame_findings(where, self.read_view.frame_pitch(located)) if only is None else []
        for i, cell, reading in zip(occupied.tolist(), cells_hex, readings, strict=True):
            address = self.read_view.addresses[i]
            if reading.face not in KNOWN_FACES:
                findings.append(f"{where}: {address}: tile face unreadable (reader said {reading.face!r})")
                cells[cell] = CellReading(UNREADABLE_FACE, None, 0.0)
                continue
            face, face_confidence = decoded.get(cell, (reading.face, reading.confidence))
            face = self._face_on(cell, face)
            value = self.config.value_of(face)
            if value is None and face not in WILD_FACES:
                findings.append(f"{where}: {address}: face {face!r} is not a value under "
                                f"modulus {self.config.modulus}")
            elif legal is not None and cell in legal and value is not None and value not in legal[cell]:
                findings.append(f"{where}: {address}: value {value} is not legal there")
            confidence = float(np.clip(face_confidence * presence_conf[i], 0.0, 1.0))
            cells[cell] = CellReading(face, value, confidence, tuple(reading.alternatives))
        read_cells = frozenset(self._cells[i] for i in scores.indices)
        return BoardReading(True, cells, (time.perf_counter() - start) * 1e3, tuple(findings), read_cells)

    def _line_prior(self, cells: Sequence[Hex], readings: Sequence[FaceReadingLike]
                    ) -> dict[Hex, tuple[str, float]]:
        """The faces of a whole-board read chosen under the line rule (vision.board.line_prior, §2-2):
        cell -> (face, probability), for the cells whose reader gave alternatives."""
        offered = {c: r.alternatives for c, r in zip(cells, readings, strict=True)
                   if r.alternatives and r.face in KNOWN_FACES}
        a0 = offered.get(Hex(0, 0))
        if a0 and self._face_on(Hex(0, 0), a0[0][0]) == MARKER_FACE:
            # §8: the modulus marker is installed on A0 before play and stays; its dark body is
            # unlike any number tile, so the lines do not re-read it as a number
            offered[Hex(0, 0)] = a0[:1]
        if not offered or self.config.line_penalty <= 0:
            return {}
        return decode_lines(offered, self._board, self.config.modulus, self._value_at,
                            WILD_FACES.__contains__, self.config.line_penalty)

    def _face_on(self, cell: Hex, face: str) -> str:
        """§8: on A0 a number equal to the modulus, which no tile of the game shows, is the
        modulus marker, which shows it."""
        if cell == Hex(0, 0) and face == str(self.config.modulus) and self.config.value_of(face) is None:
            return MARKER_FACE
        return face

    def _value_at(self, cell: Hex, face: str) -> int | None:
        """The value of ``face`` on ``cell``: the modulus marker counts as 0 on A0 and as no value
        elsewhere (§8: it is installed on A0 only)."""
        face = self._face_on(cell, face)
        if face == MARKER_FACE and cell != Hex(0, 0):
            return None
        return self.config.value_of(face)

    def _read_faces(self, crops: np.ndarray, priors: list[frozenset[str] | None]) -> list[FaceReadingLike]:
        """Read crops in one reader batch per distinct prior (most cells share None)."""
        groups: dict[frozenset[str] | None, list[int]] = {}
        for k, prior in enumerate(priors):
            groups.setdefault(prior, []).append(k)
        out: list[FaceReadingLike | None] = [None] * len(priors)
        for prior, members in groups.items():
            for k, reading in zip(members, self.config.reader.read_batch([crops[k] for k in members], prior),
                                  strict=True):
                out[k] = reading
        return [r for r in out if r is not None]

    def _prior(self, cell: Hex, legal: Mapping[Hex, Collection[int]] | None) -> frozenset[str] | None:
        """Faces allowed on ``cell``: the tile set's faces (a set without jokers shows none), the
        modulus marker on A0 only (§8); with the engine's legal values, only faces of those
        values and wild faces. None: no prior (no tile set and no legal values)."""
        if legal is None or not legal.get(cell):  # a blocked cell: nothing is legal, no rule prior
            return self._set_faces if cell == Hex(0, 0) else self._set_faces_off_a0
        faces = set(WILD_FACES)
        for value in legal[cell]:
            faces |= self._faces_by_value.get(value, set())
        if self._set_faces is not None:
            faces &= self._set_faces
        if cell != Hex(0, 0):
            faces.discard(MARKER_FACE)
        return frozenset(faces)


def read_board(config: ReadConfig | SquareReadConfig, image: np.ndarray) -> BoardReading:
    """Read one frame with a one-off reader (use BoardReader or SquareBoardReader for a stream of frames).

    Args:
        config: MODLINSEQ's hex board (board, modulus, reader) or Yushino's square board
            (vision.board.square_reader.SquareReadConfig).
        image: BGR uint8, H x W x 3.

    Returns:
        The reading, cells keyed by hex cell or by square (board_found False when the board is not
        located).

    Raises:
        ValueError: ``image`` is not a BGR uint8 image.
        PresenceModelError: the presence model file is missing or bad.
    """
    if isinstance(config, ReadConfig):
        return BoardReader(config).read(image)
    from vision.board.square_reader import SquareBoardReader

    return SquareBoardReader(config).read(image)


def main(argv: list[str]) -> int:
    """Print the reading of one image: ``python -m vision.board.board_reader BOARD IMAGE [MODULUS]``."""
    import json

    from vision.reader.glyph_reader import TileReader

    image = cv2.imread(argv[1])
    if image is None:
        print(f"cannot read image {argv[1]}", file=sys.stderr)
        return 2
    config = ReadConfig(BoardGeometry.load(argv[0]), int(argv[2]) if len(argv) > 2 else 13, TileReader())
    print(json.dumps(read_board(config, image).to_json(), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
