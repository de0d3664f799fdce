"""A face read again against the body colour beside it, when its region's body colour is not its
tile's.

A surface region's body colour is the median of the whole region (vision/table/surface.py): touching
tiles in uneven light, or a tile lit apart from the others, can be of another colour. On such a
tile the ink map (vision/reader/glyphs.py) is high everywhere, the body around the face as well as the
holes of its digits, blurred shut: a blue 8 whose holes are 0.55..0.65 ink on a body at 0.45
reads as a "6". Where the ink around a face (``SURROUND``) is that high, its ink is found again
against the median colour of a window around it (``WINDOW``), its broken strokes joined when
that ink is weak (:func:`vision.table.loose_glyphs.strengthen`: an orange 5 on a tan tile, whose body
around it was ink too and made a blob over it read as "13"), and the face is read again
(vision/table/loose_tiles.py).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.reader.faces import NOT_A_FACE
from vision.reader.glyph_reader import FaceReading
from vision.reader.glyphs import GlyphInput, ink_map
from vision.table.loose_glyphs import InkFace, connected_to, glyph_input, strengthen, window
from vision.table.loose_ink import INK_LEVEL
from vision.table.medians import channel_medians

#: A face's window: its ink's box and this many times its size beyond it on each side; the
#: face's ink covers a small share of it, so that its median colour is its tile's body.
WINDOW = 0.5

#: A face is read again against its window's body when the median ink of the window beside its
#: own ink is at least this (0..1). Chosen on TRAIN: 0.1/0.2/0.25/0.3/0.35/0.4/0.45 -> right
#: faces 1760/1760/1760/1760/1760/1760/1758 of 1769 matched, the same tiles found (the two faces
#: that change, with 0.44 and 0.40 ink around them, are read right up to 0.4).
SURROUND = 0.3


def _window(face: InkFace, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A face's window (``WINDOW``) in an image of ``shape``: see :func:`vision.table.loose_glyphs.window`."""
    return window(face, max(2, int(WINDOW * face.size)), shape)


def surround(ink: np.ndarray, face: InkFace) -> float:
    """The median ink (0..1) of a face's window less its ink pixels.

    Args:
        ink: float32 (H x W) the photo's ink map; face: one of its faces.
    """
    x0, y0, x1, y1 = _window(face, ink.shape)
    beside = np.ones((y1 - y0, x1 - x0), bool)
    beside[face.points[:, 1].astype(int) - y0, face.points[:, 0].astype(int) - x0] = False
    around = ink[y0:y1, x0:x1][beside]
    return float(np.median(around)) if len(around) else 0.0


def local_glyph(image: np.ndarray, face: InkFace, outline: np.ndarray) -> GlyphInput | None:
    """A face's glyph against its window's body: the ink (``ink_map`` from the window's median
    colour, above ``INK_LEVEL``) connected to the face's own ink pixels, its broken strokes
    joined when it is weak (:func:`vision.table.loose_glyphs.strengthen`).

    Args:
        image: the photo, BGR uint8, H x W x 3.
        face: a face found on it (photo pixels).
        outline: float32 (shape: [K, 2]) its tile's outline in photo pixels.

    Returns:
        the reader's input, or None when none of the face's pixels is ink against that body.
    """
    x0, y0, x1, y1 = _window(face, image.shape)
    pixels = image[y0:y1, x0:x1]
    body = channel_medians(cv2.cvtColor(pixels, cv2.COLOR_BGR2Lab).reshape(1, -1, 3))[0]
    local = ink_map(pixels, body)
    shift = (x0, y0)
    grown = connected_to(local > INK_LEVEL, shift, face)
    if grown is None:
        return None
    points, (bx0, by0, bx1, by1) = grown  # in the window's own pixels
    own = InkFace(points - shift, (bx0 - x0, by0 - y0, bx1 - x0, by1 - y0), face.region, body)
    return glyph_input(local, strengthen(local, own), outline - np.array(shift, np.float32))


def local_glyphs(image: np.ndarray, ink: np.ndarray, faces: list[InkFace], outlines: list[np.ndarray],
                 readings: list[FaceReading]) -> dict[int, GlyphInput]:
    """The glyphs against their windows' body (:func:`local_glyph`) of the faces read as a face
    whose window's ink is high (``SURROUND``), by the faces' indices.

    Args:
        image: the photo (BGR uint8, H x W x 3); ink: float32 (H x W) its ink map; faces,
            outlines, readings: the faces, their tiles' outlines (float32 [4, 2], photo pixels)
            and their readings, in order.
    """
    return {i: glyph for i, (face, reading) in enumerate(zip(faces, readings, strict=True))
            if reading.face != NOT_A_FACE and surround(ink, face) >= SURROUND
            and (glyph := local_glyph(image, face, outlines[i])) is not None}
