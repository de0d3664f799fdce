"""A loose face read again when its first reading may be wrong (vision/table/loose_tiles.py stage 4).

Each takes the faces of one surface, their outlines and first readings, and reads some of them
again by the classifier alone (no tesseract: a second reading must be sure on its own):

- ``read_weak_again``: a face of weak ink, its broken strokes joined (WEAK_CONFIDENCE);
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

#: A face of weak ink read as a face is read again with its broken strokes joined; the new
#: reading replaces the first when at least this sure (and surer than the first). Chosen on
#: TRAIN: 0.3/0.35/0.4/0.45/0.5 -> right faces 1757/1757/1757/1757/1755 of 1769 matched, extras
#: 17/16/16/16/16 (at 0.5 two blurred pale orange 10s whose joined strokes read "10" 0.48 and
#: 0.49 sure stayed the "13" of their first reading, 0.25 and 0.20 sure).
WEAK_CONFIDENCE = 0.4

#: A face whose ink lies more than this share outside its tile's outline has a wrong outline (its
#: region cut in two by the light, or spilling over the tile beside it), whose lean votes for the
#: wrong up (rummy4-16: a black 9 at the lower edge of a slab along the tiles' tops read as a "6",
#: 0.52): it is read again with no outline. Chosen on TRAIN: 0/0.05/0.1/0.15/0.2/0.3 -> right faces
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


def read_weak_again(reader: TileReader, ink: np.ndarray, faces: list[InkFace], outlines: list[np.ndarray],
                    readings: list[FaceReading], allowed: frozenset[str] | None
                    ) -> tuple[list[InkFace], list[FaceReading]]:
    """``faces`` and ``readings`` with each face of weak ink read as a face read again, its broken
    strokes joined (:func:`vision.table.loose_glyphs.strengthen`: the rest of a pale orange "10" of
    which only pieces were ink), by the classifier alone; the new reading is kept when it is a
    face at least ``WEAK_CONFIDENCE`` sure and surer than the first."""
    again = {i: stronger for i, (face, reading) in enumerate(zip(faces, readings, strict=True))
             if reading.face != NOT_A_FACE and (stronger := strengthen(ink, face)).gain != 1.0}
    kept = _surer(reader, {i: glyph_input(ink, face, outlines[i]) for i, face in again.items()},
                  readings, allowed, WEAK_CONFIDENCE)
    if not kept:
        return faces, readings
    faces, readings = list(faces), list(readings)
    for i, reading in kept.items():
        faces[i], readings[i] = again[i], reading
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
           allowed: frozenset[str] | None, least: float = 0.0) -> dict[int, FaceReading]:
    """The new readings of ``glyphs`` (by face index; classifier alone) that are a face, at least
    ``least`` sure and surer than the face's reading in ``readings``."""
    if not glyphs:
        return {}
    read = reader.read_glyphs(list(glyphs.values()), allowed, second_opinion=False)
    return {i: reading for i, reading in zip(glyphs, read, strict=True)
            if reading.face != NOT_A_FACE and reading.confidence >= least
            and reading.confidence > readings[i].confidence}
