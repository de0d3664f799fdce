"""The learned reader's reading of the loose tiles found, joined with the glyph reader's.

Each tile the finder found (vision.table.loose_tiles) is cut as the learned reader was trained
(vision.reader.crop.tile_crops: centred on its outline, its size the outline's diagonal) and read
at its four quarter turns (vision.reader.model). Its face is the likeliest of the product of the
two readers' probabilities over the tile set's faces, and its colour the likeliest of the product
of the learned reader's colour probability and the learned ink colours' likelihood
(vision.table.loose_colour): the two readers err on different tiles, and each one's probabilities
are its own, so neither is weighted. The finder's choice of which ink is a tile stays the glyph
reader's, whose "none" the learned reader's does not overrule (taken as a third reader, it dropped
25 true tiles with the 13 extra ones on the photos' train/ split); but ink the glyph reader read
as no face is a tile where the learned reader reads it as one surely (``rescued``, LEARNED_SURE).
On train/ (bench/bench_tiles.py --split train, against --glyph-only) the tiles found went from
1763 to 1779 of 1790, the extra ones stayed 13, faces read right from 1750 to 1776 and colours
from 1727 of 1735 to 1740 of 1741.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from vision.reader.crop import tile_crops
from vision.reader.faces import (
    COLOUR_NAMES,
    COLOURS,
    FACES,
    JOKER_FACE,
    MIN_ALTERNATIVE,
    NOT_A_FACE,
    TILE_FACES,
)
from vision.reader.glyph_reader import FaceReading
from vision.reader.model import ALL_VIEWS, GEOMETRIC_FLOOR, TileReader
from vision.table.loose_colour import colour_log_likelihoods
from vision.table.loose_glyphs import InkFace, centres_in_boxes, ink_centres

#: Ink the glyph reader read as "none" is the face the learned reader reads there when at least
#: this sure. Chosen on the photos' train/ split (bench/bench_tiles.py --split train): never / 0.98
#: / 0.9 / 0.7 / 0.5 -> tiles found 1773 / 1777 / 1779 / 1779 / 1779 of 1790, extra 13 / 14 / 14
#: / 15 / 17.
LEARNED_SURE = 0.9

#: The learned colour letters by colour name (vision.reader.faces.COLOUR_NAMES turned round).
_LETTERS = {name: letter for letter, name in COLOUR_NAMES.items()}


def outline_crops(image: np.ndarray, outlines: Sequence[np.ndarray]) -> np.ndarray:
    """The learned reader's crops of tiles with these outlines: BGR uint8 [n, 64, 64, 3].

    Args:
        image: the photo, BGR uint8 H x W x 3.
        outlines: float32 [4, 2] each, a tile's corners (x, y) in photo pixels, in order round it.
    """
    corners = np.array(outlines, np.float64).reshape(-1, 4, 2)
    diagonals = np.maximum(np.linalg.norm(corners[:, 0] - corners[:, 2], axis=1),
                           np.linalg.norm(corners[:, 1] - corners[:, 3], axis=1))
    return tile_crops(image, corners.mean(axis=1), diagonals)


def rescued(image: np.ndarray, faces: Sequence[InkFace], outlines: Sequence[np.ndarray],
            readings: Sequence[FaceReading], learned: TileReader, allowed: Collection[str] | None
            ) -> list[FaceReading]:
    """``readings`` (the glyph reader's) with each "none" that the learned reader reads as a face
    at least LEARNED_SURE sure taken for that face, its up the learned reader's; surest first, save
    ink whose centre lies in the ink's box of a face read as a face, or that holds such a face's
    centre in its own box (a joker's ring and its features are one tile: no tile lies on another's
    face), and ink that only a joker may be (``InkFace.joker_only``) read as another face.

    Args:
        image: the photo, BGR uint8 H x W x 3.
        faces: the faces' ink (vision.table.loose_glyphs.find_glyphs).
        outlines: each face's tile outline, float32 [4, 2] (x, y) in photo pixels.
        readings: the glyph reader's reading of each.
        learned: the learned tile reader.
        allowed: the tile set's faces; None: every printed face.
    """
    nones = [i for i, r in enumerate(readings) if r.face == NOT_A_FACE]
    if not nones:
        return list(readings)
    ink = list(faces)
    inside = centres_in_boxes(ink, ink_centres(ink))
    overlap = (inside | inside.T) & ~np.eye(len(ink), dtype=bool)
    crops = outline_crops(image, [outlines[i] for i in nones])
    p_faces, _ = learned.probabilities(crops, _faces(allowed), ALL_VIEWS)
    ups = np.deg2rad(learned.up_finder.ups(crops))
    out = list(readings)
    read = np.array([r.face != NOT_A_FACE for r in out])
    for k in np.argsort(-p_faces.max(axis=1), kind="stable"):
        i, best = nones[k], int(np.argmax(p_faces[k]))
        if (FACES[best] == NOT_A_FACE or p_faces[k, best] < LEARNED_SURE or (overlap[i] & read).any()
                or (ink[i].joker_only and FACES[best] != JOKER_FACE)):
            continue
        p, up = float(p_faces[k, best]), float(ups[k])
        out[i] = FaceReading(FACES[best], p, (-np.sin(up), -np.cos(up)), alternatives=((FACES[best], p),))
        read[i] = True
    return out


def _faces(allowed: Collection[str] | None) -> list[str]:
    """The faces a tile of the set may show, of the learned reader's vocabulary."""
    return [f for f in (TILE_FACES if allowed is None else allowed) if f in FACES]


def joined_readings(
    image: np.ndarray, outlines: Sequence[np.ndarray], glyph_faces: Sequence[Sequence[tuple[str, float]]],
    ink_labs: Sequence[np.ndarray], learned: TileReader, allowed: Collection[str] | None,
) -> list[tuple[str, float, str]]:
    """Each tile's face, its probability under the joined readers, and its colour name.

    Args:
        image: the photo, BGR uint8 H x W x 3.
        outlines: each tile's corners, float32 [4, 2] (x, y) in photo pixels.
        glyph_faces: each tile's glyph reading, (face, probability) most probable first (a face
            left out is less probable than MIN_ALTERNATIVE, and counts as that).
        ink_labs: each tile's ink colour relative to its body (loose_colour.ink_colour), float32 [3].
        learned: the learned tile reader.
        allowed: the tile set's faces; None: every printed face (vision.reader.faces.TILE_FACES).

    Returns:
        (face, confidence 0..1, colour name) per tile, in order; the colour "" where the learned
        ink colours are not installed.
    """
    if not outlines:
        return []
    faces = _faces(allowed)
    p_faces, p_colours = learned.probabilities(outline_crops(image, outlines), faces, ALL_VIEWS)
    columns = [FACES.index(f) for f in faces]
    out = []
    for glyph, learned_faces, learned_colours, lab in zip(glyph_faces, p_faces, p_colours, ink_labs,
                                                          strict=True):
        said = dict(glyph)
        joint = np.array([max(said.get(f, 0.0), MIN_ALTERNATIVE) for f in faces]) * np.maximum(
            learned_faces[columns], GEOMETRIC_FLOOR)
        joint /= joint.sum()
        best = int(np.argmax(joint))
        out.append((faces[best], float(joint[best]), _colour(lab, learned_colours, faces[best])))
    return out


def _colour(ink_lab: np.ndarray, learned_colours: np.ndarray, face: str) -> str:
    """The likeliest colour name of a tile under the ink colours' likelihood times the learned
    reader's colour probability (float32 [len(COLOURS)]); a joker's is the ink colours' alone."""
    likelihoods = colour_log_likelihoods(ink_lab)
    if face != JOKER_FACE:
        likelihoods = {name: ll + float(np.log(max(learned_colours[COLOURS.index(_LETTERS[name])],
                                                    GEOMETRIC_FLOOR)))
                       for name, ll in likelihoods.items()}
    return max(likelihoods, key=likelihoods.__getitem__) if likelihoods else ""
