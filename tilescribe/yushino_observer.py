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
tile missed on the way from the centre hides the tiles beyond it.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from calibration.square_geometry import SquareBoardGeometry, load_board
from engine.yushino.board import CENTRE, SIZE, Square, format_square, square_at
from tilescribe.observe import Observation
from tilescribe.vision_observer import MOTION_FRACTION, GatedReads
from vision.board.square_reader import YUSHINO_FACES, SquareBoardReader, SquareReadConfig
from vision.capture.sources import Frame
from vision.gate.gate import BoardGate, GateConfig
from vision.reader.model import TileReader


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
        self.reads: GatedReads[Square] = GatedReads(
            self.reader.locator, gate, still_seconds,
            lambda image, where, location: self.reader.read(image, where, location))

    def observe(self, frame: Frame) -> Observation:
        """The camera state of one frame (BGR uint8), with the settled layout when the board has
        settled in it: every tile seen as ``7H8``, a blank as ``#H9``."""
        camera, faces, _ = self.reads.update(frame)
        if faces is None:
            return Observation(frame.index, frame.t, camera)
        joined = joined_to_centre(faces)
        layout = frozenset(face + format_square(sq) for sq, face in faces.items() if sq in joined)
        return Observation(frame.index, frame.t, camera, layout=layout)


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
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c, r = square.col + dc, square.row + dr
            if 0 <= c < SIZE and 0 <= r < SIZE and square_at(c, r) in occupied:
                todo.append(square_at(c, r))
    return joined
