"""Image files in: a photo or camera frame from disk, checked whole before it is read.

OpenCV's ``cv2.imread`` returns whatever part of a truncated JPEG it could decode (the rest grey)
and decodes any size it is given. :func:`load_image` reads only complete JPEG and PNG files of a
bounded size and names the file in every refusal:

- the size from the file's header (Pillow reads the header alone) against :data:`MAX_PIXELS`;
- a JPEG is complete when an end-of-image marker (FF D9) follows its last start-of-scan marker
  (FF DA): compressed data never holds an FF byte followed by either (JPEG stuffs FF as FF 00), so
  a file cut anywhere inside its last scan has none;
- a PNG is complete when it ends with the IEND chunk (a little trailing data allowed) and Pillow's
  ``verify`` walks every chunk to it with good checksums;
- OpenCV decodes it without a warning from libjpeg or libpng (captured from standard error): a
  JPEG whose data is damaged inside decodes with grey or garbled blocks and a warning.

Pillow alone is not enough: its ``load()`` (``LOAD_TRUNCATED_IMAGES`` off) refuses a file cut short
but decodes a JPEG with zeros inside its scan, or with the middle of its scan cut out, without a
word, as libjpeg's warnings do not reach it (tests/vision/test_images.py has both).
"""

from __future__ import annotations

import io
import os
import re
import sys
import tempfile
import threading
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from vision.errors import VisionError

#: Largest image file read (bytes): a 48-megapixel camera JPEG is about 20 MB, a 12 MP PNG 30 MB.
MAX_FILE_BYTES = 64 * 1024 * 1024

#: Largest image (width x height): the biggest phone sensors are 48 MP; decoded it is 150 MB of BGR.
MAX_PIXELS = 50_000_000

#: What libjpeg and libpng write to standard error when data is missing or damaged (premature end of
#: a segment, bytes before a marker, a bad Huffman code, too little image data); other lines there
#: (another thread's log) are not the decoder's. libjpeg's "Invalid SOS parameters for sequential
#: JPEG", written for some phone encoders' files that it decodes in full, is not among them.
_DAMAGE = re.compile(r"Corrupt JPEG data|Premature end|Bogus|Huffman|Invalid JPEG|libpng (error|warning)"
                     r"|Not enough image data")

_STDERR_LOCK = threading.Lock()

_JPEG_SIGNATURE = b"\xff\xd8\xff"
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"  # the IEND chunk: length 0, type, checksum


class ImageError(VisionError):
    """An image file cannot be used: missing, unreadable, not JPEG/PNG, truncated or too large.

    The message starts with the file's path.
    """


def load_image(path: str | Path) -> np.ndarray:
    """Read a complete JPEG or PNG file.

    Args:
        path: the image file.

    Returns:
        The picture, BGR uint8, H x W x 3 (as ``cv2.imread`` decodes it, EXIF orientation applied).

    Raises:
        ImageError: the file is missing or unreadable, larger than :data:`MAX_FILE_BYTES`, not a
            JPEG or PNG, truncated or corrupt, or larger than :data:`MAX_PIXELS`.
    """
    path = Path(path)
    where = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageError(f"{where}: file of {size} bytes, larger than the {MAX_FILE_BYTES} accepted")
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError(f"{where}: cannot read image ({exc.strerror or exc})") from exc
    check_image_bytes(data, where)
    image, warnings_text = _decode(data)
    problems = [line for line in warnings_text.splitlines() if _DAMAGE.search(line)]
    if image is None or problems:
        reason = problems[0].strip() if problems else "OpenCV cannot decode it"
        raise ImageError(f"{where}: corrupt image ({reason})")
    return image


def _decode(data: bytes) -> tuple[np.ndarray | None, str]:
    """OpenCV's decoding of ``data`` and what its decoders (libjpeg, libpng) wrote to stderr.

    Standard error is the process's file descriptor 2: one decoding at a time redirects it (two
    threads swapping it at once mix up their warnings and can leave it pointing at a closed
    capture). What another thread writes there during a decoding is captured with it and dropped.
    """
    with _STDERR_LOCK:
        sys.stderr.flush()
        saved = os.dup(2)
        with tempfile.TemporaryFile() as capture:
            os.dup2(capture.fileno(), 2)
            try:
                image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            capture.seek(0)
            return image, capture.read().decode("utf-8", "replace")


def check_image_bytes(data: bytes, where: str) -> tuple[int, int]:
    """Check that ``data`` is a whole JPEG or PNG image of an accepted size.

    Args:
        data: the file's bytes.
        where: the file's name, for messages.

    Returns:
        The image's (width, height) in pixels.

    Raises:
        ImageError: not a JPEG or PNG, truncated or corrupt, or larger than :data:`MAX_PIXELS`.
    """
    if data.startswith(_JPEG_SIGNATURE):
        kind = "JPEG"
    elif data.startswith(_PNG_SIGNATURE):
        kind = "PNG"
    else:
        raise ImageError(f"{where}: not a JPEG or PNG image")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # our own limit follows
            with Image.open(io.BytesIO(data)) as header:
                width, height = header.size
                if width * height > MAX_PIXELS:
                    raise ImageError(f"{where}: {width}x{height} pixels, more than the {MAX_PIXELS} accepted")
                if kind == "PNG":
                    header.verify()
    except ImageError:
        raise
    except Image.DecompressionBombError as exc:
        raise ImageError(f"{where}: more than the {MAX_PIXELS} pixels accepted ({exc})") from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ImageError(f"{where}: corrupt or truncated {kind} ({exc})") from exc
    if kind == "PNG" and _PNG_END not in data[-64:]:
        raise ImageError(f"{where}: truncated PNG (no IEND chunk at its end)")
    last_scan = data.rfind(b"\xff\xda")
    if kind == "JPEG" and (last_scan < 0 or data.rfind(b"\xff\xd9") < last_scan):
        raise ImageError(f"{where}: truncated JPEG (no end-of-image marker after its last scan)")
    if width < 1 or height < 1:
        raise ImageError(f"{where}: empty {kind} ({width}x{height} pixels)")
    return width, height
