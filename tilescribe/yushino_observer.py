"""The camera observer of Yushino's printed square board: its layout once the board has settled.

Every frame is located by the sheet's fiducial markers and gated (vision.gate.gate on the square
sheet: still? a hand over the board?) through tilescribe.vision_observer.GatedReads, as on
MODLINSEQ's board; once the board has been quiet for ``still_seconds`` it is read
(vision.board.square_reader.SquareBoardReader: presence per square, the learned tile reader, the
rules' prior on lines of tiles, §2) on a few frames of the end of the quiet spell, the reads pooled
per square. The settled reading is the board's layout in games.md's notation: ``7H8`` for a tile,
``#H9`` for a blank (the camera cannot know what a blank stands for).

The rules' prior on the whole board (§2): the first sequence touches the centre and every later
one shares a tile with those on the board, so the tiles of a position always form one group joined
side to side through the centre square. Tiles read apart from that group are left out of the
layout: they are mostly premium squares taken for tiles (a dark ``3*`` square with its white label
looks like a dark tile). On training-font renders (bench/bench_yushino_session.py --split train,
3 games of 12 turns) this took the turns seen right from 25/36 to 28/36. A tile truly laid apart
from the others (an illegal play) is therefore not seen until it is joined to the group, and a
tile missed on the way from the centre would hide the tiles beyond it: so the plain squares (no
premium: they show no digit, only a blank's look) beside the group are read again whatever presence
said, and a digit read there is taken as a tile (training-font renders, the same bench, seeds 1000
to 1005: turns seen right 55/72 without this, 62/72 with it).

Each tile of the layout carries the reader's other readings of its square (Observation.alternatives):
other faces, and no tile at all where presence was unsure (a premium square's print under a passing
shadow read as a blank), for the rules' prior of tilescribe.game_table.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from pathlib import Path

import numpy as np

from calibration.square_geometry import SquareBoardGeometry, load_board
from engine.yushino.board import CENTRE, SIZE, Square, format_square, parse_square, square_at
from engine.yushino.tiles import BLANK
from tilescribe.observe import Observation
from tilescribe.vision_observer import MOTION_FRACTION, GatedReads
from vision.board.board_reader import BoardReading, CellReading
from vision.board.locate import BoardLocation
from vision.board.square_reader import YUSHINO_FACES, SquareBoardReader, SquareReadConfig
from vision.capture.sources import Frame
from vision.gate.gate import BoardGate, GateConfig
from vision.reader.faces import NOT_A_FACE
from vision.reader.model import TileReader

#: Reads of a settled frame at most: the whole board, then again with the plain squares beside the
#: centre's group (each read adds the tiles beside the last ones found: two reads more bridge a gap
#: of two missed tiles in a line).
FRONTIER_READS = 3


class YushinoObserver:
    """Observations of a Yushino table from camera frames of the printed square board.

    Args:
        board_json: the square board's board.json (``tilescribe board print --game yushino``).
        reader: the learned tile reader; None loads the shipped model.
        still_seconds: quiet time (located, still, no hand) needed before a reading counts.
        faces: the faces the reader may choose from (its prior); Yushino's digits and the blank by
            default. A caller may narrow them, e.g. to the faces still in the bag.

    Raises:
        calibration.geometry.BoardFileError: board.json cannot be read.
        ValueError: board.json is a hex board, or ``faces`` names a face the reader does not know.
        vision.reader.model.ReaderError: the reader's model files are missing or broken.
        vision.board.presence.PresenceModelError: the square board's presence model is missing or bad.
    """

    def __init__(self, board_json: Path, reader: TileReader | None, still_seconds: float,
                 faces: tuple[str, ...] = YUSHINO_FACES) -> None:
        geometry = load_board(board_json)
        if not isinstance(geometry, SquareBoardGeometry):
            raise ValueError(f"{board_json}: a hex board; Yushino is played on the square board")
        self.reader = SquareBoardReader(SquareReadConfig(geometry, reader or TileReader(), faces))
        gate = BoardGate(self.reader.sheet, GateConfig(motion_fraction=MOTION_FRACTION))
        self._plain = frozenset(parse_square(a) for a, sq in geometry.squares.items() if sq.premium is None)
        self.reads: GatedReads[Square] = GatedReads(self.reader.locator, gate, still_seconds, self._read)

    def _read(self, image: np.ndarray, where: str, location: BoardLocation) -> BoardReading[Square]:
        """The board, read again with the reader on the plain squares beside the centre's group until
        it stops growing (at most FRONTIER_READS reads in all): a tile lies beside another (§2), and a
        plain square never shows a digit, so a digit read there is a tile that presence missed."""
        reading = self.reader.read(image, where, location)
        for _ in range(FRONTIER_READS - 1):
            joined = joined_to_centre(reading.cells)
            frontier = {n for sq in joined for n in _beside(sq)} & self._plain - set(reading.cells)
            again = self.reader.read(image, where, location, look_at=frontier)
            found = {sq: c for sq, c in again.cells.items() if sq in frontier and c.face != BLANK}
            if not found:
                break
            reading = replace(reading, cells={**reading.cells, **found})
        return reading

    def observe(self, frame: Frame) -> Observation:
        """The camera state of one frame (BGR uint8), with the settled layout when the board has
        settled in it: every tile seen as ``7H8``, a blank as ``#H9``."""
        camera, cells = self.reads.update(frame)
        if cells is None:
            return Observation(frame.index, frame.t, camera)
        joined = {sq: cells[sq] for sq in joined_to_centre(cells)}
        layout = frozenset(cell.face + format_square(sq) for sq, cell in joined.items())
        alternatives = {cell.face + format_square(sq): _runner_ups(sq, cell) for sq, cell in joined.items()}
        return Observation(frame.index, frame.t, camera, layout=layout,
                           alternatives={t: a for t, a in alternatives.items() if a})


def _runner_ups(square: Square, cell: CellReading) -> tuple[tuple[str, float], ...]:
    """A square's other readings as placements ("" for no tile), each with its probability over
    the face taken's, likeliest first; none when the reader did not weigh the face taken."""
    taken = dict(cell.alternatives).get(cell.face, 0.0)
    if taken <= 0.0:
        return ()
    return tuple(("" if other == NOT_A_FACE else other + format_square(square), p / taken)
                 for other, p in cell.alternatives if other != cell.face)


def joined_to_centre(tiles: Collection[Square]) -> set[Square]:
    """The squares of ``tiles`` joined to the centre square (H8) through tiles side by side (§2);
    empty when no tile lies on the centre."""
    occupied = set(tiles)
    joined: set[Square] = set()
    todo = [CENTRE] if CENTRE in occupied else []
    while todo:
        square = todo.pop()
        if square in joined:
            continue
        joined.add(square)
        todo += [n for n in _beside(square) if n in occupied]
    return joined


def _beside(square: Square) -> list[Square]:
    """The squares of the board side by side with ``square``."""
    return [square_at(c, r) for c, r in ((square.col + 1, square.row), (square.col - 1, square.row),
                                         (square.col, square.row + 1), (square.col, square.row - 1))
            if 0 <= c < SIZE and 0 <= r < SIZE]
