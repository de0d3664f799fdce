"""The reader stage: tile crops in, faces and colours out.

Two readers live here. The learned reader (vision.reader.model.TileReader, a small CNN run with
cv2.dnn, one model for the tiles of every game, on crops cut by vision.reader.crop with the face
vocabulary of vision.reader.faces, trained by bench/train_reader.py, figures in
vision/reader/tile_reader.md) reads both printed boards, the Super Wild and Holominoes tables and
``read-tiles``' loose tiles. The glyph reader (vision.reader.glyph_reader: the tile's glyph found,
turned upright by the tile's shape and classified) reads MODLINSEQ's board for a tile set with
learned glyph exemplars or with tesseract asked (:func:`board_face_reader`). The learned
reader's entry is :func:`read_faces`; errors are :class:`~vision.reader.errors.ReaderError`
(VisionError), the glyph reader's its subclass TileReaderError.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.reader.errors import ReaderError
from vision.reader.model import MODEL_PATH, UP_MODEL_PATH, FaceReading, TileReader

if TYPE_CHECKING:
    from calibration.tilesets import TileSet
    from vision.reader import glyph_reader

__all__ = ["FaceReading", "ReaderConfig", "ReaderError", "TileReader", "board_face_reader", "read_faces",
           "tile_reader"]


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """Settings of the reader stage.

    Attributes:
        model_path: the ONNX face network (default: the shipped vision/reader/tile_reader.onnx).
        up_model_path: the ONNX up network (default: the shipped vision/reader/tile_up.onnx).
        allowed: the faces the game's tiles can show (a prior, see TileReader.read); None: every face.
    """

    model_path: Path = MODEL_PATH
    up_model_path: Path = UP_MODEL_PATH
    allowed: frozenset[str] | None = None


@functools.cache
def tile_reader(model_path: Path = MODEL_PATH, up_model_path: Path = UP_MODEL_PATH) -> TileReader:
    """The reader of one pair of model files, loaded once per process.

    Raises:
        ReaderError: a model file is missing or damaged.
    """
    return TileReader(model_path, up_model_path)


def read_faces(
    config: ReaderConfig, crops: np.ndarray, allowed: Collection[str] | None = None
) -> list[FaceReading]:
    """Read a batch of tile crops (one pass of each network).

    Args:
        config: the model and the game's faces.
        crops: BGR uint8 [n, 64, 64, 3] (vision.reader.crop.tile_crops).
        allowed: a narrower prior for this batch (e.g. the faces the rules allow at a cell); it is
            intersected with ``config.allowed``. "none" is always allowed.

    Returns:
        One reading per crop, in order.

    Raises:
        ReaderError: the model file is missing or damaged.
        ValueError: ``crops`` is not uint8 [n, 64, 64, 3], or a prior names an unknown face.
    """
    prior = config.allowed
    if allowed is not None:
        prior = frozenset(allowed) if prior is None else prior & frozenset(allowed)
    return tile_reader(config.model_path, config.up_model_path).read(crops, prior)


def board_face_reader(
    tileset: TileSet | None, tesseract: bool = False
) -> TileReader | glyph_reader.TileReader:
    """The reader of MODLINSEQ's board cells for a tile-set profile: the learned reader; the glyph
    reader where the profile has learned glyph exemplars (``tilescribe tileset learn``) or the
    tesseract second opinion is asked for (``--ocr tesseract``), which only the glyph reader offers.

    Raises:
        ReaderError: the learned reader's model files are missing or damaged.
        vision.reader.glyphs.TileReaderError: the glyph reader's model or exemplar files are missing
            or damaged, or tesseract is asked for and not on PATH.
    """
    if tesseract or (tileset is not None and tileset.exemplars is not None):
        from vision.reader.glyph_reader import reader_for_tileset

        return reader_for_tileset(tileset, tesseract)
    return tile_reader()
