"""The learned tile reader: two small CNNs run with cv2.dnn, which way is up, then the face.

Tile crops (vision.reader.crop: 64 x 64 BGR, the tile at any rotation) pass two networks:

1. the up network (vision/reader/tile_up.onnx) finds which way the print's up points, from the
   tile's shape and print (a pentagon's apex, Yushino's underline or bar, where the number sits on
   a Rummikub tile, a Holominoes digit's own up), as one of ``UP_BINS`` directions, on the crop
   shrunk to 32 x 32 (vision.reader.crop.up_view);
2. each crop is turned upright and its centre cut at full resolution (vision.reader.crop.face_view,
   48 x 48), and the face network (vision/reader/tile_reader.onnx) gives a probability for every
   face of the vocabulary (vision.reader.faces.FACES), one for every colour (COLOURS) and an
   embedding (its penultimate layer) for a user's own tile-set exemplars.

Reading upright crops lets the face network spend itself on type designs rather than turns, and
keeps 6 and 9 apart wherever the tile shows its up. Both are trained by bench/train_reader.py
(PyTorch, seeded) and exported to ONNX; no PyTorch at run time. The model card is
vision/reader/tile_reader.md.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.reader.crop import FACE_PX, INPUT_PX, UP_PX, face_view, up_view
from vision.reader.errors import ReaderError
from vision.reader.faces import COLOURS, FACES, MIN_ALTERNATIVE, NOT_A_FACE

#: The shipped face network.
MODEL_PATH = Path(__file__).resolve().parent / "tile_reader.onnx"
#: The shipped up network.
UP_MODEL_PATH = MODEL_PATH.with_name("tile_up.onnx")
#: The up network's classes: the print's up in this many directions, bin k centred on k * 360 /
#: UP_BINS degrees counter-clockwise from upright (10 degrees: the face network reads a print
#: turned up to half a bin either way).
UP_BINS = 36

#: A network's input is its view's BGR values times this (0..1), channels first (N x 3 x side x side).
INPUT_SCALE = 1.0 / 255.0

#: The ONNX graph's input and output names (bench/train_reader.py exports them).
INPUT_NAME = "crops"
FACE_OUTPUT = "face"
COLOUR_OUTPUT = "colour"
EMBEDDING_OUTPUT = "embedding"
UP_OUTPUT = "up"
#: Floor of a probability in the geometric mean over quarter turns (TileReader.probabilities).
GEOMETRIC_FLOOR = 1e-6
#: Every quarter turn: the ``views`` of the steadiest reading.
ALL_VIEWS = 4
#: A board's cells are read at ALL_VIEWS turns only where one view's likeliest face is less probable
#: than this (TileReader.read_batch). Swept with the shipped model on TRAIN-style frames
#: (the frames of bench/bench_read.py --orders 9,13 --games 3 --split train --seed 900; one core):
#: cells wrong of 76,422 / 154,254 at order 9 / 13 and median full read, every cell at four turns
#: 22 / 382 and 72 / 70 ms, one turn 35 / 457 and 33 / 37 ms; below 0.6: 36 / 394, 0.7 and 0.8:
#: 36 / 392 and 32 / 39 ms, 0.9: 34 / 387 and 32 / 39 ms, 0.95: 34 / 384 and 35 / 43 ms. 0.8 kept
#: (the same sweep's choice with the model before): 0.7 and 0.8 read alike; 0.9 and 0.95 mend 2 to 8
#: more of 230,676 cells by reading more crops four times, which costs most on tiles read unsurely.
BOARD_MORE_VIEWS_BELOW = 0.8


def _load(path: Path, outputs: list[str], side: int) -> tuple[cv2.dnn.Net, list[np.ndarray]]:
    """Load an ONNX network and run it on one blank view of ``side`` pixels: (net, its outputs, each
    [1, k]).

    Raises:
        ReaderError: the file is missing or is not a network with ``outputs`` cv2.dnn can run.
    """
    if not path.is_file():
        raise ReaderError(f"{path}: tile reader model not found")
    try:
        net = cv2.dnn.readNetFromONNX(str(path))
        net.setInput(np.zeros((1, 3, side, side), np.float32), INPUT_NAME)
        values = [v.reshape(1, -1) for v in net.forward(outputs)]
    except cv2.error as exc:
        first = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise ReaderError(f"{path}: not a tile reader model cv2.dnn can run ({first})") from exc
    return net, values


def _blob(crops: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) * np.float32(INPUT_SCALE)


class UpFinder:
    """The up network, loaded once: which way each crop's print points.

    Args:
        model_path: the ONNX up network (default: the shipped vision/reader/tile_up.onnx).

    Raises:
        ReaderError: the file is missing, is not a network cv2.dnn can load, or does not give
            UP_BINS directions.
    """

    def __init__(self, model_path: Path | str = UP_MODEL_PATH) -> None:
        self.model_path = Path(model_path)
        # every output is asked for: OpenCV 5's dnn runs a network only for all its outputs
        self._net, (up, _) = _load(self.model_path, [UP_OUTPUT, EMBEDDING_OUTPUT], UP_PX)
        if up.shape != (1, UP_BINS):
            raise ReaderError(f"{self.model_path}: output {up.shape} is not {UP_BINS} directions")

    def ups(self, crops: np.ndarray) -> np.ndarray:
        """Which way each crop's print points (one forward pass).

        Args:
            crops: BGR uint8 [n, 64, 64, 3].

        Returns:
            float32 [n], degrees counter-clockwise as seen from upright, 0..360: the likeliest
            direction, refined by the circular mean of it and its two neighbouring bins.

        Raises:
            ValueError: ``crops`` is not uint8 [n, 64, 64, 3].
        """
        if len(_checked(crops)) == 0:
            return np.zeros(0, np.float32)
        p = self.probabilities(crops)
        best = p.argmax(axis=1)
        near = (best[:, None] + np.arange(-1, 2)[None, :]) % UP_BINS
        weights = np.take_along_axis(p, near, axis=1)
        angles = np.deg2rad(near * (360.0 / UP_BINS))
        mean = np.arctan2((weights * np.sin(angles)).sum(axis=1), (weights * np.cos(angles)).sum(axis=1))
        return (np.rad2deg(mean) % 360.0).astype(np.float32)

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """How likely each crop's print points each of the UP_BINS ways (one forward pass).

        Args:
            crops: BGR uint8 [n, 64, 64, 3].

        Returns:
            float32 [n, UP_BINS], rows summing to 1; bin k is k * 360 / UP_BINS degrees
            counter-clockwise as seen from upright.

        Raises:
            ValueError: ``crops`` is not uint8 [n, 64, 64, 3].
        """
        if len(_checked(crops)) == 0:
            return np.zeros((0, UP_BINS), np.float32)
        self._net.setInput(_blob(up_view(crops)), INPUT_NAME)
        up, _ = self._net.forward([UP_OUTPUT, EMBEDDING_OUTPUT])
        return _softmax(up.reshape(len(crops), UP_BINS))


def up_likelihood(p: np.ndarray, ups_deg: np.ndarray) -> np.ndarray:
    """The up network's probability density at given directions: each crop's bins interpolated
    linearly (circularly) at each of its candidate ups, for choosing among the few ways a tile's
    geometry lets its print point.

    Args:
        p: float [n, UP_BINS], :meth:`UpFinder.probabilities`.
        ups_deg: float [n, k], candidate directions of each crop, degrees counter-clockwise as seen
            from upright (any real value; taken modulo 360).

    Returns:
        float64 [n, k], each >= 0.
    """
    at = (np.asarray(ups_deg, np.float64) % 360.0) / (360.0 / UP_BINS)
    low = np.floor(at).astype(int) % UP_BINS
    share = at - np.floor(at)
    rows = np.arange(len(p))[:, None]
    return (1.0 - share) * p[rows, low] + share * p[rows, (low + 1) % UP_BINS]


@dataclass(frozen=True, slots=True)
class FaceReading:
    """What the reader saw on one crop.

    Attributes:
        face: the most probable face (one of FACES; "none": no tile face).
        confidence: its probability, 0..1.
        alternatives: (face, probability) of every face at least ``MIN_ALTERNATIVE`` probable, most
            probable first; ``face`` is the first.
        colour: the most probable colour (one of COLOURS; "-": a tile without colours).
        colour_confidence: its probability, 0..1.
    """

    face: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    colour: str
    colour_confidence: float

    def __post_init__(self) -> None:
        if self.face not in FACES:
            raise ValueError(f"unknown face {self.face!r}")
        if self.colour not in COLOURS:
            raise ValueError(f"unknown colour {self.colour!r}")
        for p in (self.confidence, self.colour_confidence):
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"a probability must be 0..1, got {p!r}")


class TileReader:
    """The tile reader, with its network loaded once.

    Args:
        model_path: the ONNX face network (default: the shipped vision/reader/tile_reader.onnx).
        up_model_path: the ONNX up network (default: the shipped vision/reader/tile_up.onnx).

    Raises:
        ReaderError: a file is missing, is not a network cv2.dnn can load, or its outputs do not
            match the face and colour vocabularies or the UP_BINS directions.
    """

    def __init__(
        self, model_path: Path | str = MODEL_PATH, up_model_path: Path | str = UP_MODEL_PATH
    ) -> None:
        self.model_path = Path(model_path)
        self.up_finder = UpFinder(up_model_path)
        self._net, (face, colour, embedding) = _load(
            self.model_path, [FACE_OUTPUT, COLOUR_OUTPUT, EMBEDDING_OUTPUT], FACE_PX)
        if face.shape != (1, len(FACES)) or colour.shape != (1, len(COLOURS)) or embedding.ndim != 2:
            raise ReaderError(
                f"{self.model_path}: outputs {face.shape}, {colour.shape}, {embedding.shape} do not match "
                f"{len(FACES)} faces and {len(COLOURS)} colours"
            )
        #: Length of the embedding (:meth:`embed`).
        self.embedding_size = int(embedding.shape[1])
        #: Board cell crops are cut as tiles are (vision.board.board_reader.FaceReader).
        self.cell_crop: tuple[float, float] | None = None

    def read(
        self, crops: np.ndarray, allowed: Collection[str] | None = None, views: int = 1,
        more_views_below: float | None = None,
    ) -> list[FaceReading]:
        """Read a batch of crops (one pass of each network).

        Args:
            crops: BGR uint8 [n, 64, 64, 3] (vision.reader.crop.tile_crops), n >= 0.
            allowed: the faces that may be there (a prior, e.g. from the rules or a tile set):
                every other face gets probability 0 and the rest are renormalised; "none" is always
                allowed. None: every face.
            views: how many quarter turns of each crop to read, 1 to 4 (:meth:`probabilities`).
            more_views_below: read only the crops unsure in one view at ``views`` turns
                (:meth:`probabilities`); None: every crop.

        Returns:
            One reading per crop, in order.

        Raises:
            ValueError: ``crops`` is not uint8 [n, 64, 64, 3], ``allowed`` names an unknown face,
                or ``views`` is not 1 to 4.
        """
        faces, colours = self.probabilities(crops, allowed, views, more_views_below=more_views_below)
        order = np.argsort(-faces, axis=1, kind="stable")
        ranked = np.take_along_axis(faces, order, axis=1).tolist()
        colour = colours.argmax(axis=1)
        colour_p = colours[np.arange(len(colours)), colour].tolist()
        readings = []
        for i, (faces_i, probs) in enumerate(zip(order.tolist(), ranked, strict=True)):
            alternatives = tuple((FACES[f], min(p, 1.0)) for f, p in zip(faces_i, probs, strict=True)
                                 if p >= MIN_ALTERNATIVE)
            readings.append(FaceReading(alternatives[0][0], alternatives[0][1], alternatives,
                                        COLOURS[colour[i]], min(colour_p[i], 1.0)))
        return readings

    def read_batch(
        self, crops: Sequence[np.ndarray], allowed: Iterable[str] | None = None, views: int = ALL_VIEWS,
        more_views_below: float | None = BOARD_MORE_VIEWS_BELOW,
    ) -> list[FaceReading]:
        """Read square crops of any side, each cut as :func:`vision.reader.crop.tile_crop` cuts a
        tile (CROP_SCALE times its size, centred on it; the board stage's cell crops), in one batch.

        A board's cells are read at every quarter turn by default where one view is unsure
        (BOARD_MORE_VIEWS_BELOW), as the Yushino squares and the table games' tiles are at every
        turn: on simulated MODLINSEQ frames of TRAIN-style tiles four views against one cut the
        cells read wrong by about a fifth (the model card's limits).

        Args:
            crops: BGR uint8 [side, side, 3] each, any side >= 8; resized to INPUT_PX first.
            allowed: the prior, as for :meth:`read`.
            views: how many quarter turns of each crop to read, 1 to 4 (:meth:`probabilities`).
            more_views_below: as for :meth:`read` (None: every crop at ``views`` turns).

        Returns:
            One reading per crop, in order.

        Raises:
            ValueError: a crop is not a square BGR uint8 image, or as for :meth:`read`.
        """
        sized = np.empty((len(crops), INPUT_PX, INPUT_PX, 3), np.uint8)
        for i, crop in enumerate(crops):
            side = crop.shape[0]
            if crop.dtype != np.uint8 or crop.ndim != 3 or crop.shape[1:] != (side, 3) or side < 8:
                raise ValueError(f"crop {i}: expected a square BGR uint8 image, got {crop.dtype} "
                                 f"{crop.shape}")
            shrink = cv2.INTER_AREA if side > INPUT_PX else cv2.INTER_LINEAR
            sized[i] = crop if side == INPUT_PX else cv2.resize(crop, (INPUT_PX,) * 2, interpolation=shrink)
        return self.read(sized, None if allowed is None else frozenset(allowed), views, more_views_below)

    def probabilities(
        self, crops: np.ndarray, allowed: Collection[str] | None = None, views: int = 1,
        ups_deg: np.ndarray | None = None, more_views_below: float | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The face and colour probabilities of a batch of crops (one pass of each network).

        With ``views`` > 1 each crop is also read turned by each further quarter turn (exact turns,
        no resampling) and its probabilities are the normalised geometric mean over the turns: the
        up network sees the tile afresh at each, so the mean is steadier than any one reading, for
        ``views`` times the time (figures: bench/bench_yushino_read.py --views). With
        ``more_views_below`` only the crops whose likeliest face (under the prior) is less probable
        than it in the first view are read at the further turns: the same readings as every crop at
        every turn for those, the first view's for the rest.

        Args:
            crops: BGR uint8 [n, 64, 64, 3].
            allowed: the prior, as for :meth:`read`.
            views: how many quarter turns of each crop to read, 1 to 4.
            ups_deg: float [n], which way each crop's print points where the tile's geometry
                tells (degrees counter-clockwise as seen from upright): each crop is read turned so,
                and the up network is not run. Only with ``views`` 1.
            more_views_below: 0..1, the first view's top probability under which a crop is read
                at the further turns; None: every crop at every turn.

        Returns:
            (faces, colours): float32 [n, len(FACES)] and [n, len(COLOURS)], rows summing to 1,
            columns in the order of FACES and COLOURS.

        Raises:
            ValueError: as for :meth:`read`, ``ups_deg`` with ``views`` > 1, or ``ups_deg`` not one
                per crop.
        """
        mask = _prior_mask(allowed)
        if views not in (1, 2, 3, 4):
            raise ValueError(f"views must be 1 to 4 quarter turns, got {views!r}")
        n = len(_checked(crops))
        if ups_deg is not None and (views != 1 or np.shape(ups_deg) != (n,)):
            raise ValueError(f"ups_deg: one direction per crop ({n}) with views 1, got shape "
                             f"{np.shape(ups_deg)} with views {views}")
        if n == 0:
            return np.zeros((0, len(FACES)), np.float32), np.zeros((0, len(COLOURS)), np.float32)
        if views == 1 or more_views_below is None:
            faces, colours = self._turned(crops, range(views), mask, ups_deg)
            if views == 1:
                return faces / faces.sum(axis=1, keepdims=True), colours
            return geometric_mean(faces, views), geometric_mean(colours, views)
        faces, colours = self._turned(crops, range(1), mask)
        read = faces / faces.sum(axis=1, keepdims=True)
        unsure = np.flatnonzero(read.max(axis=1) < more_views_below)
        if len(unsure):
            more_faces, more_colours = self._turned(crops[unsure], range(1, views), mask)
            read[unsure] = geometric_mean(np.concatenate([faces[unsure], more_faces]), views)
            colours[unsure] = geometric_mean(np.concatenate([colours[unsure], more_colours]), views)
        return read, colours

    def _turned(self, crops: np.ndarray, turns: range, mask: np.ndarray, ups_deg: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
        """Face (times the prior's ``mask``) and colour probabilities of the crops at each of
        ``turns`` quarter turns, stacked turn by turn: float32 [len(turns) n, k]."""
        turned = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in turns])
        face_logits, colour_logits, _ = self._forward(np.ascontiguousarray(turned), ups_deg)
        return _softmax(face_logits) * mask, _softmax(colour_logits)

    def embed(self, crops: np.ndarray) -> np.ndarray:
        """The face network's penultimate layer for each crop turned upright, for comparing a
        user's own tile set with exemplars of its faces.

        Args:
            crops: BGR uint8 [n, 64, 64, 3].

        Returns:
            float32 [n, embedding_size], each row of unit length (all zero rows stay zero).

        Raises:
            ValueError: ``crops`` is not uint8 [n, 64, 64, 3].
        """
        if len(_checked(crops)) == 0:
            return np.zeros((0, self.embedding_size), np.float32)
        embedding = self._forward(crops)[2]
        norms = np.linalg.norm(embedding, axis=1, keepdims=True)
        return (embedding / np.maximum(norms, 1e-12)).astype(np.float32)

    def _forward(
        self, crops: np.ndarray, ups_deg: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Both networks: the crops turned upright (by ``ups_deg`` where given, else as the up
        network finds), then the face network."""
        ups = self.up_finder.ups(crops) if ups_deg is None else np.asarray(ups_deg, np.float32)
        self._net.setInput(_blob(face_view(crops, ups)), INPUT_NAME)
        face, colour, embedding = self._net.forward([FACE_OUTPUT, COLOUR_OUTPUT, EMBEDDING_OUTPUT])
        n = len(crops)
        return face.reshape(n, -1), colour.reshape(n, -1), embedding.reshape(n, -1)


def _checked(crops: np.ndarray) -> np.ndarray:
    is_crops = isinstance(crops, np.ndarray) and crops.shape[1:] == (INPUT_PX, INPUT_PX, 3)
    if not is_crops or crops.dtype != np.uint8:
        shape = getattr(crops, "shape", None)
        raise ValueError(f"crops must be BGR uint8 [n, {INPUT_PX}, {INPUT_PX}, 3], got {shape} "
                         f"{getattr(crops, 'dtype', type(crops).__name__)}")
    return crops


def _prior_mask(allowed: Collection[str] | None) -> np.ndarray:
    if allowed is None:
        return np.ones(len(FACES), np.float32)
    unknown = sorted(set(allowed) - set(FACES))
    if unknown:
        raise ValueError(f"allowed faces: unknown {unknown!r}; faces are {FACES}")
    return np.array([f in allowed or f == NOT_A_FACE for f in FACES], np.float32)


def geometric_mean(p: np.ndarray, views: int) -> np.ndarray:
    """Several readings of the same crops as one: rows of ``views`` stacked blocks (float32
    [views n, k], each row summing to at most 1) -> their normalised geometric mean per crop
    (float32 [n, k], rows summing to 1). A probability is
    floored at GEOMETRIC_FLOOR before its logarithm (one view ruling a face out does not rule it
    out alone); a face the prior forbids (0 in every view) stays 0."""
    blocks = p.reshape(views, len(p) // views, -1)
    logs = np.log(np.maximum(blocks, GEOMETRIC_FLOOR)).mean(axis=0)
    mean = np.exp(logs - logs.max(axis=1, keepdims=True)) * (blocks.max(axis=0) > 0)
    return (mean / mean.sum(axis=1, keepdims=True)).astype(np.float32)


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

