"""The root of every error the vision stages raise.

Each stage raises its own subclass of :class:`VisionError`: capture SourceError and ImageError,
board BoardError, table TableError, reader ReaderError, gate GateError. The message names the
input and the place (file, frame, cell), so the command line can report any of them as one line.
"""


class VisionError(Exception):
    """A frame, photo, model or setting the vision stages cannot use; the message says which and where."""
