"""The board stage's errors."""

from vision.errors import VisionError


class BoardError(VisionError):
    """The board stage cannot work with a frame, a board file or a model; the message names which."""
