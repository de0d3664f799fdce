"""The table stage's errors: every one is a :class:`TableError`, a VisionError."""

from vision.errors import VisionError


class TableError(VisionError):
    """A photo, table model or tile layout the table stage cannot use; the message says which."""
