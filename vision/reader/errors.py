"""The reader stage's errors: every one is a :class:`ReaderError`, a VisionError."""

from vision.errors import VisionError


class ReaderError(VisionError):
    """A reader's model file is missing or damaged, or a crop it cannot read (the message names
    the file or the crop)."""
