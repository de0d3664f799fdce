"""The learned reader asked four times per crop, the crop turned by each quarter turn.

The reader (vision.reader.model) reads a tile at any rotation, and its errors at one rotation
are partly its own: the geometric mean of its probabilities over the four quarter turns of a crop
(exact turns, no resampling) is surer than any one of them. On rendered TRAIN-style tables
(bench/bench_table.py --split train --seed 0 --tables 30) it took Super Wild's per-tile error from
21.9% to 8.8% and Holominoes' from 7.7% to 5.7%.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from vision.reader.model import TileReader

#: Probabilities are floored at this before their logarithm (a face the reader rules out at one
#: turn is not ruled out by that alone).
FLOOR = 1e-6


def turned_probabilities(
    reader: TileReader, crops: np.ndarray, allowed: Collection[str] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The face and colour probabilities of a batch of crops, each the normalised geometric mean
    over the crop's four quarter turns (one forward pass of 4 n crops).

    Args:
        reader: the learned tile reader.
        crops: BGR uint8 [n, 40, 40, 3] (vision.reader.crop.tile_crops).
        allowed: the faces that may be there (TileReader.probabilities' prior).

    Returns:
        (faces, colours): float32 [n, len(FACES)] and [n, len(COLOURS)], rows summing to 1.

    Raises:
        ValueError: as TileReader.probabilities.
    """
    n = len(crops)
    turned = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in range(4)]) if n else crops
    faces, colours = reader.probabilities(np.ascontiguousarray(turned), allowed)
    return _mean(faces, n), _mean(colours, n)


def _mean(p: np.ndarray, n: int) -> np.ndarray:
    """The normalised geometric mean of the four turns' rows (float32 [4 n, k] -> [n, k])."""
    if n == 0:
        return p
    logs = np.log(np.maximum(p, FLOOR)).reshape(4, n, -1).mean(axis=0)
    mean = np.exp(logs - logs.max(axis=1, keepdims=True))
    mean *= p.reshape(4, n, -1).max(axis=0) > 0  # a face the prior forbids stays forbidden
    return (mean / mean.sum(axis=1, keepdims=True)).astype(np.float32)
