"""A coloured tile set's ink told by its hue against the tile's own body (games.md "Super Wild":
black, blue, orange, red).

The learned reader (vision.reader.model) sees a crop's colours as the camera gave them, so a tinted
body (cream, pale green, a pink cast of the light) moves its ink towards another colour: orange on
a pinkish body reads red, black on cream reads blue. The print's difference from its own body
does not move with the body's tint, and not with how thin the strokes are either (a stroke blended
into its body keeps the direction of that difference, only shorter). So each tile's ink is taken
as that direction (:func:`ink_hue`: a unit vector in OpenCV 8-bit Lab), and each colour's hues as
a Gaussian (:class:`InkHues`, fitted by bench/train_ink_hues.py on TRAIN-style rendered tables
and the Rummikub photos' train/ tiles; vision/models/ink_hues.npz). A tile's colour is then the
reader's colour probability times the Gaussian's likelihood of its hue to the power HUE_WEIGHT.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

import cv2
import numpy as np

from vision.reader.faces import COLOURS, NO_COLOUR

#: A print pixel is this far (OpenCV 8-bit Lab distance) from the median colour of its body: well
#: above a body's own shading and grain, well below any ink's contrast with a pale body.
INK_DISTANCE = 30.0
#: The hue's likelihood counts to this power beside the reader's probability (the hue alone was
#: wrong on about 2% of real crops with the model of the time, where the reader is seldom wrong;
#: vision/reader/ink_hues.md has today's figures). Chosen between 1, 0.5 and
#: 0.25 by the colour errors of the reading on TRAIN-style tables (seeds 6000..6299, 3515 tiles:
#: 2 / 2 / 1, the reader alone 9; with train/ crops 0 / 0 / 0 of 1734) and with valid/ crops
#: (seeds 1000..1199, 2466 tiles: 4 / 1 / 0, the reader alone 1), with the tile bodies of the
#: time; not swept again for the tile finder's outlines.
HUE_WEIGHT = 0.25
#: The model's colours, in the order of :data:`vision.reader.faces.COLOURS`.
INK_COLOURS: tuple[str, ...] = tuple(c for c in COLOURS if c != NO_COLOUR)
#: The shipped model's file under vision/models.
MODEL_FILE = "ink_hues.npz"


def body_ink(image: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A tile body's print: which of its pixels are ink, and their hue.

    Args:
        image: the photo, BGR uint8 H x W x 3.
        points: the body's pixels, float [n, 2] (x, y), print included.

    Returns:
        (ink, hue): bool [n], the pixels farther than INK_DISTANCE from the body's median colour;
        float32 [3], :func:`ink_hue` of those pixels (zeros where there are none).
    """
    xs, ys = points[:, 0].astype(int), points[:, 1].astype(int)
    lab = cv2.cvtColor(image[ys, xs][None], cv2.COLOR_BGR2Lab)[0].astype(np.float32)
    difference = lab - np.median(lab, axis=0)
    ink = np.linalg.norm(difference, axis=1) > INK_DISTANCE
    return ink, ink_hue(difference[ink])


def ink_hue(differences: np.ndarray) -> np.ndarray:
    """The direction of a print's colour from its body's: the mean of its pixels' Lab differences
    from the body (float [n, 3], OpenCV 8-bit Lab), at unit length; float32 [3], zeros for no
    pixels."""
    if len(differences) == 0:
        return np.zeros(3, np.float32)
    mean = differences.mean(axis=0)
    return (mean / max(float(np.linalg.norm(mean)), 1e-6)).astype(np.float32)


@dataclass(frozen=True, slots=True)
class InkHues:
    """One Gaussian per ink colour over :func:`ink_hue` directions.

    Attributes:
        mean: float [4, 3], per colour of INK_COLOURS.
        inverse: float [4, 3, 3], the inverse covariances.
        logdet: float [4], the covariances' log determinants.
    """

    mean: np.ndarray
    inverse: np.ndarray
    logdet: np.ndarray

    def likelihoods(self, hues: np.ndarray) -> np.ndarray:
        """Each hue's likelihood under each colour, over the likeliest colour's (float [n, 4],
        INK_COLOURS order, the largest of each row 1); a zero hue (no print found) is as likely
        under every colour. ``hues``: float [n, 3]."""
        d = hues[:, None, :].astype(np.float64) - self.mean[None]
        log = -0.5 * (np.einsum("nci,cij,ncj->nc", d, self.inverse, d) + self.logdet[None])
        out = np.exp(log - log.max(axis=1, keepdims=True))
        out[~np.any(hues != 0, axis=1)] = 1.0
        return out

    def colour_probabilities(self, colours: np.ndarray, hues: np.ndarray) -> np.ndarray:
        """The reader's colour probabilities (float [n, len(COLOURS)]) with each ink colour's
        multiplied by its hue's likelihood (``hues``: float [n, 3]) to the power HUE_WEIGHT,
        rescaled so that the ink colours keep their share."""
        columns = [COLOURS.index(c) for c in INK_COLOURS]
        inks = colours[:, columns]
        weighted = inks * self.likelihoods(hues) ** HUE_WEIGHT
        share = inks.sum(axis=1, keepdims=True) / np.maximum(weighted.sum(axis=1, keepdims=True), 1e-12)
        out = colours.astype(np.float64, copy=True)
        out[:, columns] = weighted * share
        return out

    @staticmethod
    def fit(hues: np.ndarray, colours: np.ndarray, floor: float) -> InkHues:
        """The Gaussians of hues (float [n, 3]) labelled with colours (str [n], of INK_COLOURS),
        ``floor`` added to each covariance's diagonal.

        Raises:
            ValueError: a colour with fewer than 4 hues.
        """
        means, inverses, logdets = [], [], []
        for colour in INK_COLOURS:
            x = hues[colours == colour].astype(np.float64)
            if len(x) < 4:
                raise ValueError(f"ink colour {colour}: {len(x)} samples, 4 at least are needed")
            cov = np.cov(x.T) + floor * np.eye(3)
            means.append(x.mean(axis=0))
            inverses.append(np.linalg.inv(cov))
            logdets.append(np.linalg.slogdet(cov)[1])
        return InkHues(np.array(means), np.array(inverses), np.array(logdets))

    def save(self, path: str) -> None:
        """Write the model as .npz (mean, inverse, logdet, colours)."""
        np.savez(path, mean=self.mean, inverse=self.inverse, logdet=self.logdet,
                 colours=np.array(INK_COLOURS))


@functools.cache
def shipped_ink_hues() -> InkHues:
    """The shipped model (vision/models/ink_hues.npz).

    Raises:
        FileNotFoundError: the file is missing from the installed package.
    """
    with resources.as_file(resources.files("vision") / "models" / MODEL_FILE) as path, np.load(path) as data:
        return InkHues(data["mean"], data["inverse"], data["logdet"])
