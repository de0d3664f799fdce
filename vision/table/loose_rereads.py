"""A loose face read again when its first reading may be wrong (vision/table/loose_tiles.py stage 4).

Each takes the faces of one surface, their outlines and first readings, and reads some of them
again by the classifier alone (no tesseract: a second reading must be sure on its own):

- ``unheld_glyphs`` with ``read_again``: a face whose ink lies partly outside its outline, with
  no outline (OUTSIDE);
- ``retry_none``: a face read as "none", at every twelfth of a turn (RETRY_CONFIDENCE).
"""

from __future__ import annotations

import numpy as np

from vision.reader.faces import NOT_A_FACE
from vision.reader.glyph_reader import FaceReading, TileReader
from vision.reader.glyphs import GlyphInput
from vision.table.loose_glyphs import InkFace, glyph_input, strengthen

#: A face the reader calls "none" at its tile's candidate rotations is read again at every
#: twelfth of a turn (its outline may be wrong: touching tiles, a region spilling onto the
#: table); the reading is kept when it is a face at least this sure.
RETRY_CONFIDENCE = 0.7

#: A face whose ink lies more than this share outside its tile's outline has a wrong outline (its
#: region cut in two by the light, or spilling over the tile beside it), whose lean votes for the
#: wrong up (a black 9 at the lower edge of a slab along the tiles' tops read as a "6", 0.52): it
#: is read again with no outline. Chosen on TRAIN: 0/0.05/0.1/0.15/0.2/0.3 -> right faces
#: 1761/1761/1761/1761/1760/1760 of 1769 matched, detections 1782 at each (before: 1760, 1783).
OUTSIDE = 0.05


def retry_none(reader: TileReader, ink: np.ndarray, faces: list[InkFace], readings: list[FaceReading],
               allowed: frozenset[str] | None) -> tuple[list[InkFace], list[FaceReading]]:
    """``faces`` and ``readings`` with each "none" read again, its weak ink strengthened
    (:func:`vision.table.loose_glyphs.strengthen`), at every twelfth of a turn (no outline), by the
    classifier alone (no tesseract: a retry must be sure on its own); kept when at least
    ``RETRY_CONFIDENCE`` sure."""
    redo = [i for i, r in enumerate(readings) if r.face == NOT_A_FACE]
    if not redo:
        return faces, readings
    again = [strengthen(ink, faces[i]) for i in redo]
    loose = [glyph_input(ink, face, np.empty((0, 2), np.float32)) for face in again]
    faces, readings = list(faces), list(readings)
    for i, face, reading in zip(redo, again, reader.read_glyphs(loose, allowed, second_opinion=False),
                                strict=True):
        lone_stroke = face.gain != 1.0 and reading.face == "1"  # as likely a scratch or an edge
        if reading.face != NOT_A_FACE and reading.confidence >= RETRY_CONFIDENCE and not lone_stroke:
            faces[i], readings[i] = face, reading
    return faces, readings


def _outside_share(face: InkFace, outline: np.ndarray) -> float:
    """The share (0..1) of a face's ink pixels outside its tile's outline (float32 [4, 2] corners
    in order, photo pixels: a convex polygon)."""
    edges = np.roll(outline, -1, axis=0) - outline  # [4, 2]
    rel = face.points[:, None] - outline[None]  # [N, 4, 2]
    cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]  # [N, 4]
    inside = (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)
    return 1.0 - float(inside.mean())


def unheld_glyphs(ink: np.ndarray, faces: list[InkFace], outlines: list[np.ndarray],
                  readings: list[FaceReading]) -> dict[int, GlyphInput]:
    """The glyphs with no outline (every twelfth of a turn, the photo's upright preferred) of the
    faces read as a face whose ink lies partly outside their tiles' outlines (``OUTSIDE``), by
    the faces' indices."""
    return {i: glyph_input(ink, face, np.empty((0, 2), np.float32))
            for i, (face, reading) in enumerate(zip(faces, readings, strict=True))
            if reading.face != NOT_A_FACE and _outside_share(face, outlines[i]) > OUTSIDE}


def read_again(reader: TileReader, glyphs: dict[int, GlyphInput], readings: list[FaceReading],
               allowed: frozenset[str] | None) -> list[FaceReading]:
    """``readings`` with the faces of ``glyphs`` (a face's index -> its glyph seen another way)
    read again by the classifier alone; a new reading is kept when it is a face surer than the
    first."""
    kept = _surer(reader, glyphs, readings, allowed)
    return [kept.get(i, reading) for i, reading in enumerate(readings)] if kept else readings


def _surer(reader: TileReader, glyphs: dict[int, GlyphInput], readings: list[FaceReading],
           allowed: frozenset[str] | None) -> dict[int, FaceReading]:
    """The new readings of ``glyphs`` (by face index; classifier alone) that are a face surer
    than the face's reading in ``readings``."""
    if not glyphs:
        return {}
    read = reader.read_glyphs(list(glyphs.values()), allowed, second_opinion=False)
    return {i: reading for i, reading in zip(glyphs, read, strict=True)
            if reading.face != NOT_A_FACE and reading.confidence > readings[i].confidence}
