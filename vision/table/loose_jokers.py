"""A small joker's ring: ink that only a joker may be.

A small joker's ring with its features, one ink component, reaches nearly to its tile's edge: a
face that only a joker may be (``InkFace.joker_only``, vision/table/loose_glyphs.py). It is kept
only when read as a joker around no face read as one (``joker_only``); a joker's features read
"none" by the glyph reader are read by the learned reader (vision/table/loose_learned.py).
"""

from __future__ import annotations

import numpy as np

from vision.reader.faces import JOKER_FACE, NOT_A_FACE
from vision.reader.glyph_reader import FaceReading
from vision.table.loose_glyphs import InkFace, centres_in_boxes, ink_centres


def joker_only(faces: list[InkFace], readings: list[FaceReading]) -> list[FaceReading]:
    """``readings`` with each face that only a joker may be (``InkFace.joker_only``: ink
    reaching nearly to its tile's edge) called "none" unless read as a joker around no other
    face read as a face (a joker's ring around its features read on their own)."""
    out = list(readings)
    within = centres_in_boxes(faces, ink_centres(faces))  # [i, j]: face i's centre in face j's box
    read = np.array([r.face != NOT_A_FACE for r in readings])
    for i, (face, reading) in enumerate(zip(faces, readings, strict=True)):
        around = np.flatnonzero(within[:, i] & read)
        if face.joker_only and (reading.face != JOKER_FACE or (around != i).any()):
            out[i] = FaceReading(NOT_A_FACE, 1.0)
    return out
