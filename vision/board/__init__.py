"""The board stage: the printed board's markers, its homography and the camera lens's distortion,
the rectified cells, which cells hold a tile, and the faces the reader reads on them.

Entry: :func:`read_board` (a :class:`ReadConfig` for MODLINSEQ's hex board or a
:class:`SquareReadConfig` for Yushino's square board, and a BGR frame -> a :class:`BoardReading`);
for a stream of frames, one :class:`BoardReader` or :class:`SquareBoardReader`. Both boards are
seen through :mod:`vision.board.sheet`. Errors: :class:`BoardError` (VisionError) and its
subclasses :class:`BoardNotFoundError` and :class:`PresenceModelError`.
"""

from vision.board.board_reader import BoardReader, BoardReading, CellReading, ReadConfig, read_board
from vision.board.errors import BoardError
from vision.board.locate import BoardLocation, BoardLocator, BoardNotFoundError
from vision.board.presence import PresenceModelError
from vision.board.square_reader import SquareBoardReader, SquareReadConfig

__all__ = ["BoardError", "BoardLocation", "BoardLocator", "BoardNotFoundError", "BoardReader", "BoardReading",
           "CellReading", "PresenceModelError", "ReadConfig", "SquareBoardReader", "SquareReadConfig",
           "read_board"]
