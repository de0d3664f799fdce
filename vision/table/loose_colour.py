"""A loose tile's ink colour: measured against its own body, named by the learned ink colours.

``ink_colour`` measures a face's ink relative to its tile's body (so that warm or cold light
shifts both alike); ``colour_log_likelihoods`` scores it under each colour of the Gaussian model
trained by bench/train_ink_colours.py on the photos' train/ split (vision/models/ink_colours.npz:
black, blue, orange, red); ``colour_name`` names the likeliest.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from vision.table.loose_glyphs import InkFace


def ink_colour(image: np.ndarray, face: InkFace, ink: np.ndarray) -> np.ndarray:
    """The face's ink colour relative to its tile's body: median OpenCV 8-bit Lab of the strongest
    ink less the body's Lab (float32, shape: [3]).

    Args:
        image: the photo, BGR uint8 H x W x 3.
        face: the face's ink (vision.table.loose_glyphs.find_glyphs).
        ink: float32 H x W, the ink map the face was found on.
    """
    xs, ys = face.points[:, 0].astype(int), face.points[:, 1].astype(int)
    strong = ink[ys, xs] * face.gain > 0.8
    if strong.sum() >= 5:
        xs, ys = xs[strong], ys[strong]
    lab = np.median(cv2.cvtColor(image[ys, xs][None], cv2.COLOR_BGR2Lab)[0].astype(np.float32), axis=0)
    return lab - face.body


@functools.cache
def _colour_model(path: str) -> dict[str, np.ndarray] | None:
    file = Path(path)
    if not file.is_file():
        return None
    with np.load(file) as data:
        return {k: data[k] for k in ("names", "mean", "inverse", "logdet")}


def colour_log_likelihoods(relative_lab: np.ndarray, model_path: Path | None = None) -> dict[str, float]:
    """The log-likelihood (natural log, up to one constant) of a face's :func:`ink_colour` under
    each colour of the learned ink colours (vision/models/ink_colours.npz, or ``model_path``):
    colour name ("black", "blue", "orange", "red") -> float; empty without that file."""
    model = _colour_model(str(model_path or resources.files("vision") / "models" / "ink_colours.npz"))
    if model is None:
        return {}
    d = relative_lab.astype(np.float32) - model["mean"]  # [C, 3]
    score = np.einsum("ci,cij,cj->c", d, model["inverse"], d) + model["logdet"]
    return {str(name): -0.5 * float(s) for name, s in zip(model["names"], score, strict=True)}


def colour_name(relative_lab: np.ndarray, colours: dict[str, np.ndarray],
                model_path: Path | None = None) -> str:
    """The ink colour name of a face, from its :func:`ink_colour`.

    The likeliest colour of :func:`colour_log_likelihoods`; without the model file, the nearest of
    ``colours`` (name -> relative Lab, float32 [3]); "" when neither is known.
    """
    likelihoods = colour_log_likelihoods(relative_lab, model_path)
    if likelihoods:
        return max(likelihoods, key=likelihoods.__getitem__)
    if not colours:
        return ""
    return min(colours, key=lambda name: float(np.linalg.norm(colours[name] - relative_lab)))
