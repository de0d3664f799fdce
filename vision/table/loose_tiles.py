"""Loose tiles lying face up anywhere in a photo, found and read (``read-tiles``).

1. The tile finder (vision.table.finder) gives every tile's outline; the outline's least-area
   rectangle gives the tile's four corners, their centre and diagonal the reader's crop
   (vision.reader.crop).
2. The learned reader (vision.reader.model) reads each crop at its four quarter turns, the faces
   limited to the tile set's; its up network gives which way the print points.
3. A tile's colour is the reader's colour probability times how likely the hue of its print
   against its own body is under each ink colour (vision.reader.ink_hue, as on the Super Wild
   table: a tinted body or a warm light moves the reader's view of the colour, not the hue), the
   print measured off the tile's rim and shadow (vision.table.superwild_read.tile_print).
4. A tile read as "none" (a coin, a card, a patch of table the finder took for a tile) is left out.
5. With tesseract asked (``--ocr tesseract``), a tile read less surely than
   vision.reader.glyph_reader.SECOND_OPINION_BELOW is read by tesseract too, on its print turned
   upright; where tesseract reads one of the set's faces, its reading stands.

Run ``python -m vision.table.loose_tiles PHOTO`` to print what it finds.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.reader import tile_reader
from vision.reader.crop import face_view, tile_crops
from vision.reader.faces import COLOUR_NAMES, COLOURS, FACES, NO_COLOUR, NOT_A_FACE, TILE_FACES
from vision.reader.glyph_reader import SECOND_OPINION_BELOW, require_tesseract, tesseract_face
from vision.reader.ink_hue import shipped_ink_hues
from vision.reader.model import ALL_VIEWS, TileReader
from vision.table.finder import TileFinder, tile_finder
from vision.table.superwild_read import tile_print

#: The ink colours' columns of the reader's colour probabilities.
_INKS = [COLOURS.index(c) for c in COLOURS if c != NO_COLOUR]
#: A pixel of a print turned upright is ink as far as this (OpenCV 8-bit Lab distance from the
#: view's median, its body) is from its body: tesseract's page is ink where it is over a third of it.
INK_CONTRAST = 60.0


@dataclass(frozen=True, slots=True)
class LooseTile:
    """One tile found in a photo.

    Attributes:
        face: "1".."13" or "joker" for a Rummikub set (any tile-reader face in general).
        colour: the ink colour name ("black", "blue", "orange", "red").
        confidence: the face reading's probability, 0..1.
        corners: four (x, y) corners of the tile in photo pixels, in order round it.
        center: (x, y) of the tile's centre in photo pixels.
        up: unit (x, y) vector pointing to the top of the face in the photo.
    """

    face: str
    colour: str
    confidence: float
    corners: tuple[tuple[float, float], ...]
    center: tuple[float, float]
    up: tuple[float, float]

    def __post_init__(self) -> None:
        if len(self.corners) != 4:
            raise ValueError(f"a tile has 4 corners, got {len(self.corners)}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be 0..1, got {self.confidence}")


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


def find_tiles(image: np.ndarray, reader: TileReader, allowed: Collection[str] | None = None,
               finder: TileFinder | None = None, tesseract: bool = False) -> list[LooseTile]:
    """Find and read every tile lying face up in a photo (see the module's steps).

    Args:
        image: the photo, BGR uint8 H x W x 3.
        reader: the learned tile reader.
        allowed: the faces of the tile set (e.g. "1".."13" and "joker"); None: every printed face.
        finder: the tile finder (default: the shipped one, vision.table.finder.tile_finder()).
        tesseract: ask tesseract too for the faces read unsure.

    Returns:
        the tiles, in reading order (top to bottom, then left to right).

    Raises:
        FinderError: ``image`` is not a BGR uint8 photo of at least 32 px a side, or the finder's
            model is missing or damaged.
        TileReaderError: tesseract is asked for and not on PATH.
    """
    if tesseract:
        require_tesseract()
    found = (finder or tile_finder()).find(image)
    if not found:
        return []
    corners = [t.quad() for t in found]
    crops = outline_crops(image, corners)
    faces = [f for f in (TILE_FACES if allowed is None else allowed) if f in FACES]
    p_faces, p_colours = reader.probabilities(crops, faces, ALL_VIEWS)
    hues = np.array([tile_print(image, t)[2] for t in found])
    p_colours = shipped_ink_hues().colour_probabilities(p_colours, hues)
    ups = reader.up_finder.ups(crops)
    picks = [(FACES[int(np.argmax(p))], float(min(1.0, p.max()))) for p in p_faces]
    if tesseract:
        picks = _asked_tesseract(crops, ups, picks, faces)
    tiles = []
    for tile, quad, (face, confidence), colour_p, up in zip(found, corners, picks, p_colours, ups,
                                                           strict=True):
        if face == NOT_A_FACE:
            continue
        colour = COLOUR_NAMES[COLOURS[_INKS[int(np.argmax(colour_p[_INKS]))]]]
        turn = np.deg2rad(up)
        tiles.append(LooseTile(face, colour, confidence, tuple((float(x), float(y)) for x, y in quad),
                               tile.centre, (float(-np.sin(turn)), float(-np.cos(turn)))))
    return sorted(tiles, key=lambda t: (round(t.center[1] / 50), t.center[0]))


def _asked_tesseract(crops: np.ndarray, ups: np.ndarray, picks: list[tuple[str, float]],
                     faces: Sequence[str]) -> list[tuple[str, float]]:
    """``picks`` with tesseract's reading, where it reads one of ``faces``, for each tile read less
    surely than SECOND_OPINION_BELOW (its print turned upright by ``ups``, degrees)."""
    unsure = [i for i, (_, p) in enumerate(picks) if p < SECOND_OPINION_BELOW]
    if not unsure:
        return picks
    views = face_view(crops[unsure], ups[unsure])
    out = list(picks)
    for i, view in zip(unsure, views, strict=True):
        lab = cv2.cvtColor(view, cv2.COLOR_BGR2Lab).astype(np.float32)
        ink = np.linalg.norm(lab - np.median(lab.reshape(-1, 3), axis=0), axis=2) / INK_CONTRAST
        text = tesseract_face(np.clip(ink, 0.0, 1.0))
        if text is not None and text in faces:
            out[i] = (text, picks[i][1] if text == picks[i][0] else SECOND_OPINION_BELOW)
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the tiles found in each photo given on the command line."""
    reader, finder = tile_reader(), tile_finder()
    for name in argv if argv is not None else sys.argv[1:]:
        image = cv2.imread(name)
        if image is None:
            print(f"{name}: cannot read image", file=sys.stderr)
            return 1
        start = time.perf_counter()
        tiles = find_tiles(image, reader, finder=finder)
        ms = (time.perf_counter() - start) * 1000
        print(f"{name}: {len(tiles)} tiles in {ms:.0f} ms")
        for t in tiles:
            print(f"  {t.face:>6} {t.colour:<7} {t.confidence:.2f} at ({t.center[0]:.0f}, {t.center[1]:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
