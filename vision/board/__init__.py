"""The board stage: the printed board's markers, its homography, the rectified cells, which cells
hold a tile, and the faces the reader reads on them.

Entry: :func:`read_board` (a :class:`ReadConfig` and a BGR frame -> a :class:`BoardReading`); for a
stream of frames, one :class:`BoardReader`. Errors: :class:`BoardError` (VisionError) and its
subclasses :class:`BoardNotFoundError` and :class:`PresenceModelError`.
"""

from vision.board.board_reader import BoardReader, BoardReading, CellReading, ReadConfig, read_board
from vision.board.errors import BoardError
from vision.board.locate import BoardLocation, BoardLocator, BoardNotFoundError
from vision.board.presence import PresenceModelError

__all__ = ["BoardError", "BoardLocation", "BoardLocator", "BoardNotFoundError", "BoardReader", "BoardReading",
           "CellReading", "PresenceModelError", "ReadConfig", "read_board"]
