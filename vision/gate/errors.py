"""The gate's errors."""

from vision.errors import VisionError


class GateError(VisionError):
    """The gate cannot use a frame or its settings; the message names which."""
