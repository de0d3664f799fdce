"""The read pipeline on Yushino's printed square board: one camera frame -> which tile is on which square.

locate the board by its fiducial markers (vision.board.locate) -> every square's centre and size in
the frame through the homography (board.json's corners) -> presence per square on the rectified
board (vision.board.presence with the square board's model, vision/board/presence_square.json,
trained by bench/train_square_presence.py; where it is unsure, the reader's "none" decides, and
where it finds a square empty, the reader's "none" read surely low overrules it, each "none" weighed
against the frame's own empty squares, which read less surely empty in some frames than in others:
``SquareRule``) -> one tile crop per occupied square (vision.reader.crop.tile_crops, as the reader
was trained) -> the learned reader (vision.reader.model.TileReader) on each crop at the four
quarter turns, its faces limited to Yushino's -> the rules' prior on the whole board: every line of
tiles a Yushino sequence where the reader was unsure (vision.board.square_lines, §2) ->
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
#: The square board's presence model (bench/train_square_presence.py writes it).
SQUARE_PRESENCE_MODEL = Path(__file__).resolve().parent / "presence_square.json"
#: Presence on the square board: its own model, at 48 px a square, and a tile's outline ring from
#: 0.38 to 0.47 pitch from the centre, around a ``TILE_FILL`` tile's edges' middles (0.45) and short
#: of the printed square's (0.5), which is 2.4 px beyond a tile's edge at this pitch (1.2 px at the
#: hex board's 24, where the two blur into one). The blur for the local light level is scaled with
#: the pitch (the hex board's 2.5 px at 24).
SQUARE_PRESENCE = PresenceConfig(pitch_px=48.0, blur_sigma=5.0, model=str(SQUARE_PRESENCE_MODEL),
                                 ring=(0.38, 0.47))


@dataclass(frozen=True, slots=True)
class SquareRule:
    """Which squares hold tiles, from presence and the reader's "none" (the probability of no tile).

    Presence at or under ``low`` finds a square empty, at or over ``high`` occupied, and between them
    unsure. The reader's "none" of a square is weighed against the frame's empty_none
    (:meth:`empty_none`); an unsure square holds a tile where its "none" is under ``none_below``; an
    empty one is read at one view, again at every view where that "none" is under ``maybe_tile``, and
    holds a tile where the "none" at every view is under ``sure_tile``.

    Attributes:
        low, high: presence probabilities (0..1) bounding the unsure band.
        none_below, maybe_tile, sure_tile: "none" thresholds, as shares of empty_none.
    """

    low: float
    high: float
    none_below: float
    maybe_tile: float
    sure_tile: float

    @staticmethod
    def empty_none(none_one: np.ndarray) -> float:
        """The frame's empty_none: the median one-view "none" (float64 [k]) over the squares presence
        finds empty; 1.0 when there are none."""
        return float(np.median(none_one)) if len(none_one) else 1.0

    def unsure_holds_tile(self, none: np.ndarray, empty_none: float) -> np.ndarray:
        """Which unsure squares hold tiles (bool [k]), from their "none" at every view (float64 [k])."""
        return none < self.none_below * empty_none

    def empty_may_hold_tile(self, none_one: np.ndarray, empty_none: float) -> np.ndarray:
        """Which squares presence finds empty are read at every view (bool [k]), from their one-view
        "none" (float64 [k])."""
        return none_one < self.maybe_tile * empty_none

    def empty_holds_tile(self, none: np.ndarray, empty_none: float) -> np.ndarray:
        """Which of those hold tiles all the same (bool [k]), from their "none" at every view."""
        return none < self.sure_tile * empty_none


#: The rule the reader reads by, chosen by bench/sweep_square_thresholds.py among the 405 settings
#: of its grid on TRAIN-font frames of the board (located through the lens), counting tiles missed
#: and squares taken for tiles: none on 80 game frames (3,093 tiles), 5 and 14 on 40 frames blurred
#: by 2.5 px (1,587 tiles), 23 missed of 1,440 blanks (24 frames), none on 25 empty boards; 42 in all,
#: the fewest (two more settings alike). The "none" is weighed by empty_none since an empty square
#: reads less surely empty in some frames than in others (a median one-view "none" of 0.19 to 0.97
#: over the empty squares of the sharp game frames, 0.08 to 0.57 blurred): not weighed, the best of
#: 240 settings errs 102 times (3 and 0, 2 and 28, 69 and 0). With presence at the hex board's 24 px
#: and the ring 0.40 to 0.50 (its model trained so), the best setting erred 62 times (1 and 11, 4 and
#: 15, 31).
RULE = SquareRule(0.05, 0.9, 0.15, 0.05, 0.02)


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
        missed, missed_given, missed_none, empty_none = self._missed_tiles(
            image, located, (p <= RULE.low) & ~asked)
        unsure = ((p > RULE.low) | asked) & (p < RULE.high)
        looked = np.flatnonzero(unsure | (p >= RULE.high))
        given, none = self.face_probabilities(self.crops(image, located, looked))
        kept = np.where(unsure[looked], RULE.unsure_holds_tile(none, empty_none), True)
        present = np.where(unsure[looked], 1.0 - none, scores.confidence[looked])[kept]
        occupied, given = looked[kept], given[kept]
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
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        """The squares presence finds ``empty`` (bool [squares]) that hold a tile all the same, by
        RULE (SquareRule.empty_may_hold_tile, then SquareRule.empty_holds_tile at the config's views).

        Returns:
            (squares, given, none, empty_none): their indices (int [k]), the faces given a tile
            (float64 [k, len(faces)]) and "none" (float64 [k]) of the reading at the config's views,
            and the frame's empty_none (SquareRule.empty_none).
        """
        squares = np.flatnonzero(empty)
        crops = self.crops(image, location, squares)
        given, none = self.face_probabilities(crops, 1)
        empty_none = RULE.empty_none(none)
        maybe = RULE.empty_may_hold_tile(none, empty_none)
        squares, crops, given, none = squares[maybe], crops[maybe], given[maybe], none[maybe]
        if self.config.views > 1:
            given, none = self.face_probabilities(crops)
        tile = RULE.empty_holds_tile(none, empty_none)
        return squares[tile], given[tile], none[tile], empty_none


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
