"""The learned tile reader: a small CNN (vision/reader/tile_reader.onnx) run with cv2.dnn.

The network reads tile crops (vision.reader.crop: 40 x 40 BGR, the tile at any rotation) and gives,
for each crop, a probability for every face of the vocabulary (vision.reader.faces.FACES), one for
every colour (COLOURS) and an embedding (the penultimate layer) for a user's own tile-set exemplars.
It is trained by bench/train_reader.py (PyTorch, seeded) and exported to ONNX; no PyTorch at run
time. The model card is vision/reader/tile_reader.md.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError
from vision.reader.crop import INPUT_PX
from vision.reader.faces import COLOURS, FACES, MIN_ALTERNATIVE, NOT_A_FACE

#: The shipped model.
MODEL_PATH = Path(__file__).resolve().parent / "tile_reader.onnx"

#: The network's input is the crop's BGR values times this (0..1), channels first (N x 3 x 40 x 40).
INPUT_SCALE = 1.0 / 255.0

#: The ONNX graph's input and output names (bench/train_reader.py exports them).
INPUT_NAME = "crops"
FACE_OUTPUT = "face"
COLOUR_OUTPUT = "colour"
EMBEDDING_OUTPUT = "embedding"



class ReaderError(VisionError):
    """The reader's model file is missing or damaged (the message names the file)."""


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
        model_path: the ONNX model (default: the shipped vision/reader/tile_reader.onnx).

    Raises:
        ReaderError: the file is missing, is not a network cv2.dnn can load, or its outputs do not
            match the face and colour vocabularies.
    """

    def __init__(self, model_path: Path | str = MODEL_PATH) -> None:
        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise ReaderError(f"{self.model_path}: tile reader model not found")
        try:
            self._net = cv2.dnn.readNetFromONNX(str(self.model_path))
            face, colour, embedding = self._forward(np.zeros((1, INPUT_PX, INPUT_PX, 3), np.uint8))
        except cv2.error as exc:
            first = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
            message = f"{self.model_path}: not a tile reader model cv2.dnn can run ({first})"
            raise ReaderError(message) from exc
        if face.shape != (1, len(FACES)) or colour.shape != (1, len(COLOURS)) or embedding.ndim != 2:
            raise ReaderError(
                f"{self.model_path}: outputs {face.shape}, {colour.shape}, {embedding.shape} do not match "
                f"{len(FACES)} faces and {len(COLOURS)} colours"
            )
        #: Length of the embedding (:meth:`embed`).
        self.embedding_size = int(embedding.shape[1])

    def read(self, crops: np.ndarray, allowed: Collection[str] | None = None) -> list[FaceReading]:
        """Read a batch of crops in one forward pass.

        Args:
            crops: BGR uint8 [n, 40, 40, 3] (vision.reader.crop.tile_crops), n >= 0.
            allowed: the faces that may be there (a prior, e.g. from the rules or a tile set):
                every other face gets probability 0 and the rest are renormalised; "none" is always
                allowed. None: every face.

        Returns:
            One reading per crop, in order.

        Raises:
            ValueError: ``crops`` is not uint8 [n, 40, 40, 3], or ``allowed`` names an unknown face.
        """
        faces, colours = self.probabilities(crops, allowed)
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

    def probabilities(
        self, crops: np.ndarray, allowed: Collection[str] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The face and colour probabilities of a batch of crops (one forward pass).

        Args:
            crops: BGR uint8 [n, 40, 40, 3].
            allowed: the prior, as for :meth:`read`.

        Returns:
            (faces, colours): float32 [n, len(FACES)] and [n, len(COLOURS)], rows summing to 1,
            columns in the order of FACES and COLOURS.

        Raises:
            ValueError: as for :meth:`read`.
        """
        mask = _prior_mask(allowed)
        if len(_checked(crops)) == 0:
            return np.zeros((0, len(FACES)), np.float32), np.zeros((0, len(COLOURS)), np.float32)
        face_logits, colour_logits, _ = self._forward(crops)
        faces = _softmax(face_logits) * mask
        faces /= faces.sum(axis=1, keepdims=True)
        return faces, _softmax(colour_logits)

    def embed(self, crops: np.ndarray) -> np.ndarray:
        """The network's penultimate layer for each crop (one forward pass), for comparing a user's
        own tile set with exemplars of its faces.

        Args:
            crops: BGR uint8 [n, 40, 40, 3].

        Returns:
            float32 [n, embedding_size], each row of unit length (all zero rows stay zero).

        Raises:
            ValueError: ``crops`` is not uint8 [n, 40, 40, 3].
        """
        if len(_checked(crops)) == 0:
            return np.zeros((0, self.embedding_size), np.float32)
        embedding = self._forward(crops)[2]
        norms = np.linalg.norm(embedding, axis=1, keepdims=True)
        return (embedding / np.maximum(norms, 1e-12)).astype(np.float32)

    def _forward(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        blob = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) * np.float32(INPUT_SCALE)
        self._net.setInput(blob, INPUT_NAME)
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


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

