"""The capture stage: frames in, from a camera, a video, a recording or an image file.

Entry: :func:`open_source` (a ``--source`` spec -> a :class:`FrameSource`); one photo:
:func:`load_image`. Errors: :class:`SourceError` and :class:`ImageError`, both VisionError.
"""

from vision.capture.images import ImageError, load_image
from vision.capture.sources import Frame, FrameSource, SourceError, SourceLostError, open_source

__all__ = ["Frame", "FrameSource", "ImageError", "SourceError", "SourceLostError", "load_image",
           "open_source"]
