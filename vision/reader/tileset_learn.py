"""Teach the tile reader a user's own tile set from one photo on the printed board.

The user lays one tile of each face upright on the printed board, on given cells (by default the
first cells in address order: A0, B1, B2, ...), and takes one photo. ``learn_tileset`` locates
the board (fiducial markers -> homography), cuts each cell's crop from the rectified board, finds
the glyph on it (vision.reader.cell_glyphs.glyph_in_crop), and stores the glyphs as exemplars
(``learn_exemplars``) next to a new tile-set profile. The reader then weighs the nearest
exemplar of each face as much as its trained model (vision.reader.glyph_reader.reader_for_tileset), so a
set printed in an unusual font is read as well as the built-in ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from calibration.geometry import BoardGeometry
from calibration.tilesets import TileSet, TileSetError, format_tileset
from vision.board.board_view import BoardView
from vision.board.locate import BoardLocator
from vision.reader.cell_glyphs import glyph_in_crop
from vision.reader.glyph_reader import CELL_CROP, FACES, TileReaderError
from vision.reader.glyphs import GlyphInput, glyph_features, glyphs_patches, turned

#: Smallest glyph accepted while learning, as a share of the cell crop's side.
MIN_GLYPH = 0.15


def learn_tileset(image: np.ndarray, geometry: BoardGeometry, base: TileSet, name: str,
                  out_dir: Path, faces: tuple[str, ...] | None = None,
                  cells: tuple[str, ...] | None = None, where: str = "photo") -> TileSet:
    """Learn a tile set from one photo of one tile of each face on the board.

    Args:
        image: the photo, BGR uint8, H x W x 3, with the board's markers in view.
        geometry: the printed board.
        base: the profile whose values, counts and wild faces the new set shares.
        name: the new set's name (file stem of its profile and exemplars).
        out_dir: where to write NAME.toml and NAME.npz.
        faces: the faces laid out, in cell order; ``base.faces`` when None.
        cells: the cells (addresses) holding them; the first cells in address order when None.
        where: names the photo in error messages.

    Returns:
        the new profile (also written to out_dir/NAME.toml).

    Raises:
        BoardNotFoundError: the board's markers are not seen.
        TileSetError: a face not in ``base``, fewer cells than faces, an unknown cell, or a cell
            with no tile glyph on it.
    """
    faces = tuple(faces or base.faces)
    unknown = [f for f in faces if f not in base.faces]
    if unknown:
        raise TileSetError(f"{where}: faces {unknown} are not in tile set {base.name!r}")
    view = BoardView(geometry, *CELL_CROP)
    cells = tuple(cells or view.addresses[:len(faces)])
    if len(cells) != len(faces):
        raise TileSetError(f"{where}: {len(faces)} faces but {len(cells)} cells")
    index = {a: i for i, a in enumerate(view.addresses)}
    missing = [c for c in cells if c not in index]
    if missing:
        raise TileSetError(f"{where}: cells {missing} are not on this board")
    location = BoardLocator(geometry).locate(image, where)
    crops = view.patches(view.rectify(image, location), np.array([index[c] for c in cells]))
    glyphs, learned, ups = [], [], []
    for cell, face, crop in zip(cells, faces, crops, strict=True):
        glyph = glyph_in_crop(crop)
        if glyph is not None and np.ptp(glyph.points, axis=0).max() < MIN_GLYPH * crop.shape[0]:
            glyph = None  # a speck or the cell's faint printed address: no tile there
        if glyph is None:
            if face in base.wild_faces:
                continue  # a blank wild tile: nothing to learn, it reads as "#" already
            raise TileSetError(f"{where}: cell {cell}: no tile glyph found for face {face!r}")
        glyphs.append(glyph)
        learned.append(face)
        ups.append(np.array([0.0, -1.0]))  # tiles laid upright on the printed sheet
    out_dir.mkdir(parents=True, exist_ok=True)
    exemplars = out_dir / f"{name}.npz"
    learn_exemplars(glyphs, learned, ups, exemplars)
    tileset = replace(base, name=name, description=f"learned from {where} (based on {base.name})",
                      faces=faces, counts=tuple((f, n) for f, n in base.counts if f in faces),
                      wild_faces=base.wild_faces & set(faces), exemplars=exemplars)
    (out_dir / f"{name}.toml").write_text(format_tileset(tileset), encoding="utf-8")
    return tileset


def learn_exemplars(glyphs: Sequence[GlyphInput], faces: Sequence[str], ups: Sequence[np.ndarray],
                    path: Path) -> int:
    """Save glyph exemplars of a user's own tile set (``tilescribe tileset learn``).

    Each glyph is stored upright (its tile's ``up`` given) and turned by -6..6 degrees.

    Args:
        glyphs: one glyph per face, as seen on the board.
        faces: the face of each glyph ("0".."19", "#", "marker", "joker").
        ups: the up direction (x, y) of each tile in its image.
        path: the .npz file to write.

    Returns:
        the number of exemplars written.

    Raises:
        TileReaderError: for unknown faces or lengths that differ.
    """
    if not len(glyphs) == len(faces) == len(ups):
        raise TileReaderError(f"{len(glyphs)} glyphs, {len(faces)} faces and {len(ups)} up directions differ")
    bad = [f for f in faces if f not in FACES]
    if bad:
        raise TileReaderError(f"unknown faces {bad}")
    turns = (-6, -3, 0, 3, 6)
    patches, aspects = glyphs_patches([g.ink for g in glyphs], [g.points for g in glyphs],
                                      [np.stack([turned(up, d) for d in turns]) for up in ups])
    features = glyph_features(patches, aspects)
    np.savez_compressed(path, features=features, faces=np.repeat(np.asarray(faces), len(turns)))
    return len(features)
