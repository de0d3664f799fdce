"""The read pipeline on Yushino's printed square board: one camera frame -> which tile is on which square.

locate the board by its fiducial markers (vision.board.locate) -> every square's centre and size in
the frame through the homography (board.json's corners) -> presence per square on the rectified
board (vision.board.presence with the square board's model, vision/board/presence_square.json,
trained by bench/train_square_presence.py; where it is unsure, the reader's "none" decides, and
where it finds a square empty, the reader's "none" read surely low overrules it) -> one tile crop
per occupied square (vision.reader.crop.tile_crops, as the reader was trained) -> the learned reader
(vision.reader.model.TileReader) on each crop at the four quarter turns, its faces limited to
Yushino's -> the rules' prior on the whole board: every line of tiles a Yushino sequence
where the reader was unsure (vision.board.square_lines, §2) ->
:class:`vision.board.board_reader.BoardReading` with squares as cells.

Tiles lie at any quarter turn: the reader finds up from the digit's underline or the tile's foot bar.

Run ``python -m vision.board.square_reader board.json IMAGE`` to print the reading of one image.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from calibration.square_geometry import SquareBoardGeometry
from engine.yushino.board import Square, parse_square
from engine.yushino.rules import EITHER, FORWARD
from vision.board.board_reader import BoardReading, CellReading, locate_frame
from vision.board.board_view import BoardView
from vision.board.locate import BoardLocation, BoardLocator, BoardNotFoundError
from vision.board.presence import PresenceConfig, PresenceDetector
from vision.board.sheet import Sheet, board_sheet
from vision.board.square_lines import SEQUENCE_PENALTY, broken_lines, decode_sequences
from vision.reader.crop import INPUT_PX, tile_crops
from vision.reader.faces import FACES, MIN_ALTERNATIVE, NOT_A_FACE, NUMBER_FACES, WILD_FACE
from vision.reader.model import ALL_VIEWS, TileReader

#: Yushino's faces (games.md): the digits 0..9 and the blank, read "#".
YUSHINO_FACES: tuple[str, ...] = (*NUMBER_FACES[:10], WILD_FACE)
#: A Yushino tile's side over its printed square's side: 22.5 mm tiles on the 25 mm squares that
#: ``tilescribe board print --game yushino`` draws (the reader's training scenes draw a square
#: 1.05 to 1.18 times the tile's side, and allow the size 10 % off).
TILE_FILL = 0.9
#: Quarter turns of each crop the reader reads (TileReader.probabilities' views): on held-out
#: renders of the board (bench/bench_yushino_read.py --views) 4 views against 1 cut the tiles
#: misread or missed from 1.81% to 1.02% and the squares wrongly taken for tiles from 48 to 14 of
#: 9,000, for about twice the read time.
VIEWS = ALL_VIEWS
#: Presence probabilities the reader's "none" decides between, and the "none" below which such a
#: square holds a tile: chosen among 60 settings (low 0.02..0.2, high 0.7..0.9, none 0.02..0.2) on
#: 80 TRAIN-font frames, the board located as a pinhole (bench/bench_yushino_read.py --split train,
#: seeds 1 and 2; 2,937 tiles):
#: (0.1, 0.8, 0.05) missed 4 and added 2, reading 4,374 crops; (0.2, 0.7, 0.05), the choice with
#: the model before, missed 13 (presence 0.12..0.18 sure, the reader's "none" under 0.01) and
#: added 2, reading 3,537. Checked again with the board located through the lens and the presence
#: model trained so (27 settings: low 0.05 / 0.1 / 0.2, high 0.7 / 0.8 / 0.9, none 0.02 / 0.05 /
#: 0.1; same frames): (0.1, 0.8, 0.05) missed 2 and added 1, tied with eight others, none fewer.
UNSURE: tuple[float, float] = (0.1, 0.8)
NONE_BELOW = 0.05
#: The squares presence finds empty are read too, at one view: where that reading's "none" is
#: under MAYBE_TILE the square is read at every view, and holds a tile where the "none" of that is
#: under SURE_TILE (a blank tile, white on a white square, is what presence misses: 9 of the 11
#: tiles it missed on 80 TRAIN-font frames, each read "none" under 0.014). Chosen among MAYBE_TILE
#: 0.05 / 0.1 / 0.2 and SURE_TILE 0.01 / 0.015 / 0.02 / 0.03 on 80 TRAIN-font frames, the board
#: located through the lens (bench/bench_yushino_read.py --split train, seeds 3 and 4; 3,093
#: tiles): at every MAYBE_TILE, 4 missed and none added at SURE_TILE 0.01, 3 missed and 1 added at
#: 0.015, 3 and 3 at 0.02, 2 and 16 to 18 at 0.03. MAYBE_TILE 0.1 as chosen with the board
#: located as a pinhole (2,869 tiles; SURE_TILE 0.015 and 0.02 alike, 1 missed and 2 added), where
#: it read 6.6 squares a frame at every view and 0.05 read 1.6, missing tiles 0.1 took. The one-view
#: reads cost most of a read's time (--split train --seed 9 --frames 20, one core: a median 186
#: against 102 ms a frame).
MAYBE_TILE = 0.1
SURE_TILE = 0.015
#: The square board's presence model (bench/train_square_presence.py writes it).
SQUARE_PRESENCE_MODEL = Path(__file__).resolve().parent / "presence_square.json"
#: Presence on the square board: its own model, and a tile's outline ring around 0.45 pitch from
#: the centre, where a tile of ``TILE_FILL`` of the square has its edges' middles.
SQUARE_PRESENCE = PresenceConfig(model=str(SQUARE_PRESENCE_MODEL), ring=(0.40, 0.50))


@dataclass(frozen=True, slots=True, eq=False)
class SquareReadConfig:
    """Everything the square-board read needs besides the frame.

    Attributes:
        geometry: the printed square board (calibration.square_geometry).
        reader: the learned tile reader.
        faces: the faces a tile may show (the reader's prior); Yushino's by default.
        tile_fill: a tile's side over a square's side.
        empty_board: the empty board rectified at the presence pitch (a calibration), or None
            to compare with the board drawing.
        presence: presence settings; the square board's model by default.
        views: how many quarter turns of each crop the reader reads (1 to 4).
        direction: the game's reading of sequences, "forward" or "either" (engine.yushino.rules).
        sequence_penalty: log-odds against a read in which a line of tiles breaks §2
            (vision.board.square_lines); 0 turns the rules' prior off.

    Raises:
        ValueError: an unknown face, tile_fill outside (0, 1], views outside 1..4, a negative
            sequence_penalty or an unknown direction.
    """

    geometry: SquareBoardGeometry
    reader: TileReader
    faces: tuple[str, ...] = YUSHINO_FACES
    tile_fill: float = TILE_FILL
    empty_board: np.ndarray | None = None
    presence: PresenceConfig = field(default_factory=lambda: SQUARE_PRESENCE)
    views: int = VIEWS
    direction: str = FORWARD
    sequence_penalty: float = SEQUENCE_PENALTY

    def __post_init__(self) -> None:
        unknown = sorted(set(self.faces) - set(FACES) | ({NOT_A_FACE} & set(self.faces)))
        if unknown or not self.faces:
            raise ValueError(f"faces {unknown!r}: need tile faces of {FACES[:-1]}")
        if not 0 < self.tile_fill <= 1 or self.views not in (1, 2, 3, 4) or self.sequence_penalty < 0:
            raise ValueError(f"tile_fill must be in (0, 1], views 1 to 4 and sequence_penalty >= 0, got "
                             f"{self.tile_fill}, {self.views}, {self.sequence_penalty}")
        if self.direction not in (FORWARD, EITHER):
            raise ValueError(f"direction must be {FORWARD!r} or {EITHER!r}, got {self.direction!r}")


class SquareBoardReader:
    """The read pipeline on a square board, set up once for a stream of frames.

    Args:
        config: what to read with.

    Raises:
        PresenceModelError: the presence model file is missing or bad.
    """

    def __init__(self, config: SquareReadConfig) -> None:
        self.config = config
        self.sheet = board_sheet(config.geometry)
        self.locator = BoardLocator(self.sheet)
        self.presence_view = BoardView(self.sheet, config.presence.pitch_px)
        self.presence = PresenceDetector(self.presence_view, config.empty_board, config.presence)
        self.squares = tuple(parse_square(a) for a in self.sheet.addresses)
        self._index = {sq: i for i, sq in enumerate(self.squares)}
        self._allowed = frozenset(config.faces)
        self._columns = np.array([FACES.index(f) for f in config.faces])
        self._columns_and_none = np.array([*self._columns, FACES.index(NOT_A_FACE)])

    def crops(self, image: np.ndarray, location: BoardLocation, indices: np.ndarray) -> np.ndarray:
        """Some squares' tile crops (:func:`square_crops` with the config's ``tile_fill``)."""
        return square_crops(self.sheet, image, location, indices, self.config.tile_fill)

    def face_probabilities(self, crops: np.ndarray, views: int | None = None
                           ) -> tuple[np.ndarray, np.ndarray]:
        """The probability of each of the config's faces on each crop, given that it shows a tile,
        and the probability that it shows none.

        The reader reads every crop at ``views`` quarter turns (the config's by default); the
        probabilities are the geometric mean over the views, renormalised over the config's faces
        and "none".

        Args:
            crops: BGR uint8 (shape: [n, 40, 40, 3]).
            views: quarter turns read, 1 to 4; None for the config's.

        Returns:
            (given, none): float64 (shape: [n, len(faces)]), rows summing to 1, columns in the
            order of ``faces``; and float64 (shape: [n]), the probability of no tile.
        """
        faces, _ = self.config.reader.probabilities(crops, self._allowed, views or self.config.views)
        mean = faces[:, self._columns_and_none].astype(np.float64)
        mean /= mean.sum(axis=1, keepdims=True)
        given = mean[:, :-1] / np.maximum(mean[:, :-1].sum(axis=1, keepdims=True), 1e-12)
        return given, mean[:, -1]

    def read(self, image: np.ndarray, where: str = "frame", location: BoardLocation | None = None,
             look_at: Collection[Square] = ()) -> BoardReading[Square]:
        """Read the tiles on the board in one frame.

        Args:
            image: the camera frame, BGR uint8, H x W x 3.
            where: the frame's name for findings ("frame 12", a file name).
            location: the board's location when the caller already has it (skips locating).
            look_at: squares the reader reads whatever presence says: where presence is not sure
                of a tile, the reader's "none" decides, as on the squares presence is unsure of.

        Returns:
            The reading of every square: the occupied ones in ``cells`` (face "0".."9" or "#",
            value the digit or None for a blank, confidence the product of the presence and the
            face confidences; alternatives the likeliest faces and "none", no tile there, as one
            distribution), and a finding for each line of tiles that is not a Yushino sequence
            ("frame 3: G8-I8: 2 8 5 is not a Yushino sequence (§2)"); ``board_found`` False (and no
            cells) when the markers do not locate the board.

        Raises:
            ValueError: ``image`` is not a BGR uint8 image.
        """
        start = time.perf_counter()
        located = locate_frame(self.locator, image, where, location)
        if isinstance(located, BoardNotFoundError):
            return BoardReading(False, {}, (time.perf_counter() - start) * 1e3, (str(located),))
        scores = self.presence.measure(self.presence_view.rectify(image, located))
        # the squares presence is unsure of, and those it finds occupied, are read; the reader's
        # "none" decides the unsure ones
        p = scores.probability
        asked = np.zeros(len(self.squares), bool)
        asked[[self._index[sq] for sq in look_at]] = True
        unsure = ((p > UNSURE[0]) | asked) & (p < UNSURE[1])
        looked = np.flatnonzero(unsure | (p >= UNSURE[1]))
        given, none = self.face_probabilities(self.crops(image, located, looked))
        kept = np.where(unsure[looked], none < NONE_BELOW, True)
        present = np.where(unsure[looked], 1.0 - none, scores.confidence[looked])[kept]
        occupied, given = looked[kept], given[kept]
        missed, missed_given, missed_none = self._missed_tiles(image, located, (p <= UNSURE[0]) & ~asked)
        occupied = np.concatenate([occupied, missed])
        given = np.concatenate([given, missed_given])
        present = np.concatenate([present, 1.0 - missed_none])
        squares = [self.squares[i] for i in occupied.tolist()]
        faces = self.config.faces
        decoded: dict[Square, str] = {}
        if self.config.sequence_penalty > 0:
            log_p = {sq: np.log(given[k] + 1e-6) for k, sq in enumerate(squares)}
            decoded = decode_sequences(faces, log_p, self.config.direction, self.config.sequence_penalty)
        cells: dict[Square, CellReading] = {}
        for k, square in enumerate(squares):
            # each face with the tile there, and no tile at all, as one distribution
            joint = [*zip(faces, (given[k] * present[k]).tolist(), strict=True),
                     (NOT_A_FACE, 1.0 - float(present[k]))]
            alternatives = tuple(sorted(((f, p) for f, p in joint if p >= MIN_ALTERNATIVE),
                                        key=lambda fp: -fp[1]))
            face = decoded.get(square, faces[int(np.argmax(given[k]))])
            value = int(face) if face in NUMBER_FACES else None
            confidence = float(np.clip(given[k, faces.index(face)] * present[k], 0.0, 1.0))
            cells[square] = CellReading(face, value, confidence, alternatives)
        broken = broken_lines({sq: c.face for sq, c in cells.items()}, self.config.direction)
        findings = tuple(f"{where}: {line[0]}-{line[-1]}: {' '.join(cells[sq].face for sq in line)} is not a "
                         f"Yushino sequence (§2)" for line in broken)
        ms = (time.perf_counter() - start) * 1e3
        return BoardReading(True, cells, ms, findings, frozenset(self.squares))

    def _missed_tiles(self, image: np.ndarray, location: BoardLocation, empty: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The squares presence finds ``empty`` (bool [squares]) that hold a tile all the same: read
        at one view, those read "none" under MAYBE_TILE read again at the config's views (where
        that is more than one), and kept where that reading's "none" is under SURE_TILE.

        Returns:
            (squares, given, none): their indices (int [k]), the faces given a tile (float64
            [k, len(faces)]) and "none" (float64 [k]) of the reading at the config's views.
        """
        squares = np.flatnonzero(empty)
        crops = self.crops(image, location, squares)
        given, none = self.face_probabilities(crops, 1)
        maybe = none < MAYBE_TILE
        squares, crops, given, none = squares[maybe], crops[maybe], given[maybe], none[maybe]
        if self.config.views > 1:
            given, none = self.face_probabilities(crops)
        tile = none < SURE_TILE
        return squares[tile], given[tile], none[tile]


def square_crops(sheet: Sheet, image: np.ndarray, location: BoardLocation, indices: np.ndarray,
                 tile_fill: float = TILE_FILL) -> np.ndarray:
    """Some squares' tile crops, as the reader reads them.

    Args:
        sheet: the board's sheet (vision.board.sheet.board_sheet).
        image: the camera frame, BGR uint8, H x W x 3.
        location: the board's location in ``image``.
        indices: square indices (into board.json's order), int [n].
        tile_fill: a tile's side over its square's side.

    Returns:
        BGR uint8 (shape: [n, INPUT_PX, INPUT_PX, 3]): centred on each square, side 1.1 x the
        diameter of a tile of ``tile_fill`` of the square in the frame.
    """
    if len(indices) == 0:
        return np.zeros((0, INPUT_PX, INPUT_PX, 3), np.uint8)
    squares = sheet.corners[indices]
    corners = location.board_to_frame(squares.reshape(-1, 2)).reshape(-1, 4, 2)
    diagonals = (np.linalg.norm(corners[:, 0] - corners[:, 2], axis=1)
                 + np.linalg.norm(corners[:, 1] - corners[:, 3], axis=1)) / 2
    return tile_crops(image, corners.mean(axis=1), diagonals * tile_fill)


def main(argv: list[str]) -> int:
    """Print the reading of one image: ``python -m vision.board.square_reader BOARD IMAGE``."""
    import json

    from calibration.square_geometry import load_board
    from vision.capture.images import load_image
    from vision.errors import VisionError

    try:
        geometry = load_board(argv[0])
        if not isinstance(geometry, SquareBoardGeometry):
            raise ValueError(f"{argv[0]}: a hex board; this reads square boards")
        reader = SquareBoardReader(SquareReadConfig(geometry, TileReader()))
        reading = reader.read(load_image(argv[1]), argv[1])
    except (ValueError, VisionError) as exc:
        print(exc, file=sys.stderr)
        return 2
    print(json.dumps(reading.to_json(), indent=1))
    return 0 if reading.board_found else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
