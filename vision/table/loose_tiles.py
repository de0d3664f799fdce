"""Finding and reading Rummikub-like tiles lying loose anywhere in a photo, at any rotation.

Stages (one function each):

1. ``surface_mask`` (vision/table/surface.py): which pixels look like the tiles' body, from a colour
   lookup table over OpenCV Lab learned on the labelled photos' train/ split
   (vision/models/tile_surface_lut.npz); tiles touching each other make one region, filled to
   its convex hull when it is compact.
2. ``find_glyphs`` (vision/table/loose_glyphs.py): ink on those regions (vision/table/loose_ink.py: far
   from the region's body colour; and pale coloured ink rising above its neighbourhood's
   chroma), cut into connected components, kept when mostly surrounded by tile body, and
   grouped into faces (the two digits of "12", the parts of a joker's face inside its ring; a
   component far bigger than a glyph, such as a rack, encloses nothing). Every face is one tile.
3. ``tile_outlines`` (vision/table/loose_glyphs.py): each tile's outline is the part of its region
   nearer to its face than to any other face and of about the colour of the body beside it
   (not the wall or marble behind a rack that the region spills onto).
4. The tile reader (vision/reader/glyph_reader.py, the same reader the board uses) reads each face at
   every candidate rotation; a face whose ink lies partly outside its outline is read again with
   no outline (vision/table/loose_rereads.py OUTSIDE; kept when surer); a face read as "none" is read
   again at every twelfth of a turn (its outline may be wrong), its broken strokes joined when its
   ink is weak, and dropped (a logo, a scratch) unless it is then read as a face with confidence
   >= RETRY_CONFIDENCE, or the learned reader reads it as a face surely (with ``learned``:
   vision/table/loose_learned.py ``rescued``). A face whose ink reaches nearly to its tile's edge
   (``InkFace.joker_only``: a small joker's ring, vision/table/loose_jokers.py) is kept only when
   read as a joker around no other face read as a face.
   Specks beside a surely read face or inside any face's ink (SPECK_SHARE) are dropped too, ink
   far bigger than the faces read surely or than a face can be in the photo (GIANT, GIANT_SHARE:
   a whole rack), and faces whose tile body is rough (fabric's fibres on its threads,
   vision/table/loose_fabric.py). The ink colour is measured against the tile's own body
   (vision/table/loose_colour.py).
5. The faces read with confidence >= SEED_CONFIDENCE teach the photo's own body colour
   (``photo_surface``: the cream of this set in this light, not the white table beside it); the
   regions of that surface the table's lacked are searched again (stages 2-4) and the faces
   found there, away from those already read, are added.
6. The same body colour, with smooth pixels in shade lit like the body (``shade_regions``,
   SHADE), finds smooth regions mostly outside both earlier surfaces' (SHADE_NEW): a group of
   tiles in a shadow. They are searched (stages 2-4) and their faces added.
7. With the learned reader (``find_tiles``' ``learned``), every tile found is read by it too and
   takes the face and colour of the two readers joined (vision/table/loose_learned.py); without
   it, the glyph reader's face and the likeliest of the learned ink colours (black, blue, orange,
   red; vision/models/ink_colours.npz).

Run ``python -m vision.table.loose_tiles PHOTO`` to print what it finds.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.reader import model, tile_reader
from vision.reader.faces import NOT_A_FACE
from vision.reader.glyph_reader import FaceReading, TileReader
from vision.table.errors import TableError
from vision.table.loose_colour import colour_name, ink_colour
from vision.table.loose_fabric import on_fabric
from vision.table.loose_glyphs import (
    InkFace,
    centres_in_boxes,
    find_glyphs,
    glyph_input,
    ink_centres,
    tile_outlines,
)
from vision.table.loose_jokers import joker_only
from vision.table.loose_learned import joined_readings, rescued
from vision.table.loose_rereads import read_again, retry_none, unheld_glyphs
from vision.table.surface import (
    Surface,
    SurfaceTableError,
    body_sample,
    new_regions,
    photo_surface,
    shade_regions,
    surface_lut,
    surface_mask,
    working_image,
)

#: Ink smaller than SPECK_SHARE times a face near it (within SPECK_REACH times that face's size,
#: in the same region) that reads as a face at least SPECK_BESIDE sure is a speck beside that
#: face (a letter of the maker's logo, a chip of the tile's edge), not a tile of its own; so is
#: such ink inside the box of a face's ink read as a face however sure (a joker's eye).
SPECK_SHARE = 0.5
SPECK_REACH = 2.0
SPECK_BESIDE = 0.8

#: ... unless that face is more than SPECK_ANCHOR times the median size of the faces read at least
#: SPECK_BESIDE sure on the surface: then it is no one tile's face (the digits of two touching
#: tiles grouped, read as an "8"; a rack's divider read as a "1") and the faces beside it stay.
#: Chosen on TRAIN: 1.5/2/3/5 -> recall 1759/1758/1758/1752, extras 43/29/29/27, right faces
#: 1744/1744/1744/1738 (none: as 5).
SPECK_ANCHOR = 3.0

#: Ink more than GIANT times the median size of a surface's faces read at least SPECK_BESIDE
#: sure is no face (a whole rack, its black frame enclosing every tile, read as a "1" or an "8").
GIANT = 10.0

#: ... and so is ink longer than GIANT_SHARE of the photo's short side, however few the faces
#: beside it (a rack's frame read as a sure "1" beside one tile, the median of the two its own
#: half). The faces of TRAIN's tiles are at most 0.21 of it (156 px of 750); its rack 1.23.
GIANT_SHARE = 0.5

#: A face read with at least this confidence teaches the photo's own body colour.
SEED_CONFIDENCE = 0.9

#: A face found on the photo's own surface is at the place of a face already read when their
#: ink centres are less than this many times its size apart.
SAME_PLACE = 1.2

#: The last search allows tiles in shade down to this share of the body's light (see
#: ``shade_regions``). Chosen on train/ (0.6: +1 tile, +9 extras; 0.8: -5 tiles).
SHADE = 0.7

#: ... in the regions of which at least this share lies outside the earlier surfaces' regions.
#: Chosen on train/ (0.2 and 0.3 alike with 1 extra more, 0.5: -3 tiles).
SHADE_NEW = 0.4


class LooseTileError(TableError):
    """A photo that cannot be searched for tiles (names the input)."""


@dataclass(frozen=True, slots=True)
class LooseTile:
    """One tile found in a photo.

    Attributes:
        face: "1".."13" or "joker" for a Rummikub set (any tile-reader face in general).
        colour: the ink colour name ("black", "blue", "orange", "red"), "" when unknown.
        confidence: the face reading's confidence, 0..1.
        corners: four (x, y) corners of the tile in photo pixels.
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


@dataclass(frozen=True, slots=True)
class FoundFace:
    """A face read as a tile (full-resolution photo pixels).

    Attributes:
        points: float32 (shape: [N, 2]) the (x, y) of its ink pixels.
        size: the long side of its ink's box, in pixels.
        reading: the tile reader's reading of it.
        outline: float32 (shape: [4, 2]) the (x, y) corners of its tile.
        ink_lab: its ink colour relative to its tile's body (:func:`ink_colour`), float32 [3].
    """

    points: np.ndarray
    size: float
    reading: FaceReading
    outline: np.ndarray
    ink_lab: np.ndarray


def _specks(faces: list[InkFace], readings: list[FaceReading]) -> np.ndarray:
    """Which faces (bool, shape: [len(faces)]) are specks beside a surely read face, or inside
    the ink's box of a face read as a face however sure (a joker's eyes read on their own: no
    tile lies on another's face); sizes are the long sides of the ink's rotated boxes; see
    ``SPECK_SHARE``."""
    sizes = np.array([max(cv2.minAreaRect(f.points)[1]) for f in faces], np.float32)
    centres = ink_centres(faces)
    regions = np.array([f.region for f in faces])
    faced = np.array([r.face != NOT_A_FACE for r in readings])
    real = faced & np.array([r.confidence >= SPECK_BESIDE for r in readings])
    if real.any():  # a face far bigger than the others read surely is no anchor (SPECK_ANCHOR)
        anchor = sizes <= SPECK_ANCHOR * float(np.median(sizes[real]))
        real &= anchor
        faced &= anchor
    dist = np.linalg.norm(centres[:, None] - centres[None], axis=2)  # [i, j]
    inside = centres_in_boxes(faces, centres)
    return ((regions[:, None] == regions[None]) & (sizes[:, None] < SPECK_SHARE * sizes[None])
            & (((dist < SPECK_REACH * sizes[None]) & real[None]) | (inside & faced[None]))).any(axis=1)


def _outlines(faces: list[InkFace], regions: np.ndarray, scale: float, lab: np.ndarray) -> list[np.ndarray]:
    """Each face's tile outline (:func:`vision.table.loose_glyphs.tile_outlines`, which takes the same
    arguments), those of the faces that only a joker may be (``InkFace.joker_only``) drawn beside
    every face, the others' beside the others alone (ink at a tile's edge, mostly no joker, does
    not take a share of its neighbours' tiles)."""
    plain = [i for i, f in enumerate(faces) if not f.joker_only]
    if len(plain) in (0, len(faces)):
        return tile_outlines(faces, regions, scale, lab)
    jokers = [i for i, f in enumerate(faces) if f.joker_only]
    outlines = dict(zip(jokers, tile_outlines(faces, regions, scale, lab, of=jokers), strict=True))
    outlines.update(zip(plain, tile_outlines([faces[i] for i in plain], regions, scale, lab), strict=True))
    return [outlines[i] for i in range(len(faces))]


def _read_surface(image: np.ndarray, lab: np.ndarray, surface: Surface, scale: float, reader: TileReader,
                  allowed: frozenset[str] | None, known: list[FoundFace],
                  learned: model.TileReader | None) -> list[FoundFace]:
    """The faces on one surface (at ``scale`` of the photo, whose OpenCV Lab there is ``lab``,
    float32 h x w x 3) read as tiles, less those at the place of a ``known`` face (read on an
    earlier surface, whose reading they keep); with ``learned``, ink read as no face that it reads
    surely is a tile (vision.table.loose_learned.rescued)."""
    body, regions, body_lab = surface
    ink, faces = find_glyphs(image, body, regions, body_lab)
    readings = _known_readings(faces, known)
    fresh = [i for i, reading in enumerate(readings) if reading is None]
    if not fresh:
        return []
    outlines = _outlines(faces, regions, scale, lab)
    fresh_outlines = [outlines[i] for i in fresh]
    glyphs = [glyph_input(ink, faces[i], outlines[i]) for i in fresh]
    again, read = [faces[i] for i in fresh], reader.read_glyphs(glyphs, allowed)
    read = read_again(reader, unheld_glyphs(ink, again, fresh_outlines, read), read, allowed)
    again, read = retry_none(reader, ink, again, read, allowed)
    read = joker_only(again, read)
    if learned is not None:
        read = rescued(image, again, fresh_outlines, read, learned, allowed)
    for i, face, reading in zip(fresh, again, read, strict=True):
        faces[i], readings[i] = face, reading
    every = [r for r in readings if r is not None]
    sizes = np.array([f.size for f in faces])
    sure = np.array([r.face != NOT_A_FACE and r.confidence >= SPECK_BESIDE for r in every])
    giant = sizes > GIANT_SHARE * min(image.shape[:2])  # a whole rack (GIANT, GIANT_SHARE)
    if sure.any():  # ink far bigger than the faces read surely
        giant |= sizes > GIANT * float(np.median(sizes[sure]))
    every = [FaceReading(NOT_A_FACE, 1.0) if big else r for r, big in zip(every, giant, strict=True)]
    specks = _specks(faces, every)
    return [FoundFace(faces[i].points, faces[i].size, every[i], outlines[i],
                      ink_colour(image, faces[i], ink))
            for i in fresh if every[i].face != NOT_A_FACE and not specks[i]
            and not on_fabric(image, faces[i].points, faces[i].size, outlines[i])]


def _known_readings(faces: list[InkFace], known: list[FoundFace]) -> list[FaceReading | None]:
    """For each face, the reading of the known face at its place (``SAME_PLACE``), if any."""
    if not known:
        return [None] * len(faces)
    centres = np.array([other.points.mean(axis=0) for other in known], np.float32)
    readings: list[FaceReading | None] = []
    for face in faces:
        apart = np.linalg.norm(centres - face.points.mean(axis=0), axis=1)
        nearest = int(np.argmin(apart))
        readings.append(known[nearest].reading if apart[nearest] < SAME_PLACE * face.size else None)
    return readings


def _body_samples(found: list[FoundFace], body: np.ndarray, scale: float) -> np.ndarray:
    """Where the photo surely shows tile body (uint8 0/1, the shape of ``body``): body pixels
    within a face's size of a face read at least ``SEED_CONFIDENCE`` sure, less its ink."""
    near = np.zeros(body.shape, np.uint8)
    for f in found:
        if f.reading.confidence >= SEED_CONFIDENCE:
            cx, cy = f.points.mean(axis=0) * scale
            cv2.circle(near, (int(cx), int(cy)), max(2, int(f.size * scale)), 1, -1)
    samples = near & body
    for f in found:
        xs, ys = (f.points * scale).astype(int).T
        samples[ys, xs] = 0
    return samples


def prepare(lut_path: Path | None = None) -> None:
    """Load what the first photo in a process would otherwise load: the surface table and
    OpenCV's Lab conversion tables (built on its first BGR-to-Lab conversion, about 60 ms on
    one core here), so that a photo's time is its own.

    Raises:
        LooseTileError: a missing surface table (names the file).
    """
    _surface_table(lut_path)
    cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2Lab)


def _surface_table(lut_path: Path | None) -> np.ndarray:
    """The surface lookup table (the shipped one when ``lut_path`` is None), loaded once.

    Raises:
        LooseTileError: a missing surface table (names the file).
    """
    try:
        return surface_lut(str(lut_path) if lut_path else None)
    except SurfaceTableError as exc:
        raise LooseTileError(str(exc)) from None


def read_faces(image: np.ndarray, reader: TileReader, allowed: frozenset[str] | None = None,
               lut_path: Path | None = None, learned: model.TileReader | None = None) -> list[FoundFace]:
    """Find and read the face of every tile lying face up in a photo (see the module's stages).

    The faces on the lookup table's surface (``surface_mask``) are read first; those read with
    confidence teach the photo's own body colour (``photo_surface``), and the faces on that
    surface not already read are read and added; then those in regions of tiles in shade mostly
    outside both surfaces' (``shade_regions``, SHADE, SHADE_NEW).

    Args:
        image: the photo, BGR uint8, H x W x 3.
        reader: the tile reader.
        allowed: the faces of the tile set (e.g. "1".."13" and "joker"); None allows all.
        lut_path: a tile surface table other than the shipped one.
        learned: the learned tile reader, which finds a tile in ink the glyph reader read as no face
            where it reads a face surely (vision.table.loose_learned.rescued); None: the glyph
            reader alone.

    Returns:
        the faces read as tiles, in no particular order.

    Raises:
        LooseTileError: for an image that is not BGR uint8 H x W x 3, or a missing surface table.
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8 or min(image.shape[:2]) < 32:
        raise LooseTileError(f"expected a BGR uint8 H x W x 3 photo (>= 32 px), "
                             f"got {image.dtype} {image.shape}")
    lut = _surface_table(lut_path)
    small, scale = working_image(image)  # in Lab
    lab = small.astype(np.float32)
    surface = surface_mask(small, lut)
    first = _read_surface(image, lab, surface, scale, reader, allowed, [], learned)
    sample = body_sample(small, _body_samples(first, surface[0], scale))
    if sample is None:
        return first
    refined = photo_surface(small, sample)
    fresh = new_regions(refined, surface)
    found = first
    if fresh is not None:
        found = first + _read_surface(image, lab, fresh, scale, reader, allowed, first, learned)
    dark = shade_regions(small, sample, (surface[1] > 0) | (refined[1] > 0), SHADE, SHADE_NEW)
    if dark is None:
        return found
    return found + _read_surface(image, lab, dark, scale, reader, allowed, found, learned)


def find_tiles(image: np.ndarray, reader: TileReader, allowed: frozenset[str] | None = None,
               lut_path: Path | None = None, learned: model.TileReader | None = None) -> list[LooseTile]:
    """Find and read every tile lying face up in a photo, its ink colour named.

    Takes the arguments of :func:`read_faces` and raises its errors (LooseTileError); with
    ``learned`` (the learned tile reader) each tile's face and colour are those of the two readers
    joined (vision.table.loose_learned), save where tesseract read the face (``--ocr tesseract``:
    its reading stands).

    Returns:
        the tiles, in reading order (top to bottom, then left to right).
    """
    found = read_faces(image, reader, allowed, lut_path, learned)
    joined: list[tuple[str, float, str] | None] = [None] * len(found)
    if learned is not None:
        glyph = [i for i, f in enumerate(found) if f.reading.reader == "model"]
        for i, reading in zip(glyph, joined_readings(
                image, [found[i].outline for i in glyph],
                [found[i].reading.alternatives or ((found[i].reading.face, 1.0),) for i in glyph],
                [found[i].ink_lab for i in glyph], learned, allowed), strict=True):
            joined[i] = reading
    tiles = []
    for f, both in zip(found, joined, strict=True):
        face, confidence, colour = both or (f.reading.face, f.reading.confidence, "")
        corners = tuple((float(x), float(y)) for x, y in f.outline)
        cx, cy = f.outline.mean(axis=0)
        tiles.append(LooseTile(face, colour or colour_name(f.ink_lab, reader.colours), confidence, corners,
                               (float(cx), float(cy)), f.reading.up))
    return sorted(tiles, key=lambda t: (round(t.center[1] / 50), t.center[0]))


def main(argv: list[str] | None = None) -> int:
    """Print the tiles found in each photo given on the command line."""
    reader, learned = TileReader(), tile_reader()
    for name in argv if argv is not None else sys.argv[1:]:
        image = cv2.imread(name)
        if image is None:
            print(f"{name}: cannot read image", file=sys.stderr)
            return 1
        start = time.perf_counter()
        tiles = find_tiles(image, reader, learned=learned)
        ms = (time.perf_counter() - start) * 1000
        print(f"{name}: {len(tiles)} tiles in {ms:.0f} ms")
        for t in tiles:
            print(f"  {t.face:>6} {t.colour:<7} {t.confidence:.2f} at ({t.center[0]:.0f}, {t.center[1]:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
