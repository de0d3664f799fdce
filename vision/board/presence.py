"""Which cells hold a tile: presence from light-independent cell features.

Every measure is blind to the overall brightness and to slow, smooth changes of light:

- structure: the cell's local contrast (grey minus its blur, divided by the blur) compared with the
  empty cell's, over the central disk (a tile's printed face), a wider disk, and the inner hexagon
  or square (a tile's edges, its small shadow, and the hidden faint address);
- surround: the edge strength (gradient over local brightness) in six sectors of a ring where a
  tile's outline lies (``PresenceConfig.ring``); a tile surrounds the centre with edges in every
  sector, a neighbour's tile reaching into the cell only in one or two, so the second-weakest
  sector is used;
- colour: the central disk's chromaticity against the paper's (the board's median) and against
  the median of the cells around it (a local colour cast cancels);
- brightness: the central disk's grey level over the empty cell's (a coloured square is not a
  tile) against the same of the cells around it (a soft shadow darkens them all alike).

A logistic regression on the logarithms of the features (vision/board/presence_model.json, trained by
bench/train_presence.py on simulated frames with the TRAIN tile styles only; the square board's
vision/board/presence_square.json by bench/train_square_presence.py) turns them into a
probability; being linear in the log-features it stays monotonic outside its training range (a far
stronger colour or edge than any seen in training still means a tile). The empty board's
appearance (the reference for structure) comes from a calibration or, without one, from the board
drawing (vision.board.sheet: the hex or the square sheet).

Run ``python -m vision.board.presence board.json IMAGE`` to print the occupied cells of one frame.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from vision.board.board_view import BoardView
from vision.board.errors import BoardError
from vision.board.sheet import board_sheet

#: Feature names, in the order of :meth:`PresenceDetector.features` columns.
FEATURES: tuple[str, ...] = ("structure_centre", "structure_disk", "structure_hex", "surround",
                             "colour_paper", "colour_local", "brightness", "brightness_abs")
MODEL_FILE = "presence_model.json"


@dataclass(frozen=True, slots=True)
class PresenceConfig:
    """Presence settings.

    Attributes:
        pitch_px: distance between cell centres in the images presence works on (pixels).
        blur_sigma: sigma of the blur that local contrast is taken against, in pixels.
        threshold: probability above which a cell holds a tile.
        model: path of a trained model; the shipped vision/board/presence_model.json when None.
        ring: inner and outer radius, in pitches, of the ring where a tile's outline lies (the
            surround feature): a 25 mm pentagon on the hex board's 32 mm cells by default.
    """

    pitch_px: float = 24.0
    blur_sigma: float = 2.5
    threshold: float = 0.5
    model: str | None = None
    ring: tuple[float, float] = (0.28, 0.40)

    def __post_init__(self) -> None:
        if (self.pitch_px < 8 or self.blur_sigma <= 0 or not 0 < self.threshold < 1
                or not 0 < self.ring[0] < self.ring[1] <= 0.5):
            raise ValueError(f"bad presence config {self}")


@dataclass(frozen=True, slots=True, eq=False)
class PresenceScores:
    """Presence of some cells.

    Attributes:
        indices: int array (shape: [N]) of cell indices into the view's addresses.
        probability: float32 (shape: [N]), probability that the cell holds a tile.
        occupied: bool (shape: [N]).
        confidence: float32 (shape: [N]) in 0.5..1: max(p, 1 - p).
    """

    indices: np.ndarray
    probability: np.ndarray
    occupied: np.ndarray
    confidence: np.ndarray


class PresenceModelError(BoardError):
    """The presence model file is missing or unreadable (names the file)."""


def local_maps(gray: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """Local contrast and edge strength of a grey image, both blind to the light's level.

    Args:
        gray: grey uint8 (or float), H x W.
        sigma: sigma of the blur that stands for the local light level, pixels.

    Returns:
        (contrast, edges), float32 H x W: (grey - blur) / (blur + 8) and |gradient| / (blur + 8).
    """
    g = gray.astype(np.float32)
    level = cv2.GaussianBlur(g, (0, 0), sigma) + 8.0
    contrast = (cv2.GaussianBlur(g, (0, 0), 0.7) + 8.0 - level) / level
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    return contrast, cv2.magnitude(gx, gy) / level


def mean_chromaticity(bgr: np.ndarray) -> np.ndarray:
    """Mean chromaticity ((B - G), (R - G)) / (B + G + R + 1) of each row of pixels.

    Args:
        bgr: BGR pixels (shape: [N, K, 3]), any numeric dtype.

    Returns:
        float32 (shape: [N, 2]): the mean over each row's K pixels.
    """
    b, g, r = np.moveaxis(bgr, -1, 0).astype(np.float32)  # channel planes: fast row means
    inv = 1.0 / (b + g + r + 1.0)
    return np.stack([((b - g) * inv).mean(axis=1), ((r - g) * inv).mean(axis=1)], axis=1)


@dataclass(frozen=True, slots=True, eq=False)
class PresenceModel:
    """Logistic regression on log-features: p = 1 / (1 + exp(-(bias + weights . z))).

    Attributes:
        mean: float64 (shape: [F]) mean of the transformed features in training.
        scale: float64 (shape: [F]) their standard deviation (z = (t - mean) / scale).
        weights: float64 (shape: [F]).
        bias: intercept.
    """

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def __post_init__(self) -> None:
        n = len(FEATURES)
        if self.mean.shape != (n,) or self.scale.shape != (n,) or self.weights.shape != (n,):
            raise ValueError(f"presence model needs {n} means, scales and weights")
        if not (self.scale > 0).all():
            raise ValueError("presence model scales must be > 0")

    @staticmethod
    def transform(features: np.ndarray) -> np.ndarray:
        """The log-features (shape: [N, F]) the regression works on, from raw features."""
        f = features.astype(np.float64)
        out = f.copy()
        out[:, :4] = np.log(f[:, :4] + 1e-3)
        out[:, 4:6] = np.log(f[:, 4:6] + 0.1)
        return out

    def probability(self, features: np.ndarray) -> np.ndarray:
        """Probability of a tile per row of raw features (shape: [N, F]) -> float32 (shape: [N])."""
        z = (self.transform(features) - self.mean) / self.scale
        return (1.0 / (1.0 + np.exp(-(self.bias + z @ self.weights)))).astype(np.float32)

    def to_json(self) -> dict[str, object]:
        """{"features": [...], "mean": [...], "scale": [...], "weights": [...], "bias": b}."""
        return {"features": list(FEATURES), "mean": self.mean.tolist(), "scale": self.scale.tolist(),
                "weights": self.weights.tolist(), "bias": self.bias}


def load_model(path: str | None) -> PresenceModel:
    """The presence model from ``path`` (or the shipped vision/board/presence_model.json).

    Raises:
        PresenceModelError: the file is missing, not JSON, or for other features.
    """
    try:
        if path is None:
            text = resources.files("vision.board").joinpath(MODEL_FILE).read_text(encoding="utf-8")
            path = MODEL_FILE
        else:
            text = Path(path).read_text(encoding="utf-8")
        doc = json.loads(text)
        if doc.get("features") != list(FEATURES):
            raise ValueError(f"features {doc.get('features')} differ from {list(FEATURES)}")
        return PresenceModel(np.array(doc["mean"], np.float64), np.array(doc["scale"], np.float64),
                             np.array(doc["weights"], np.float64), float(doc["bias"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PresenceModelError(f"presence model {path}: {exc} (train it with bench/train_presence.py)") \
            from exc


class PresenceFeatures:
    """Computes presence features of every cell of rectified board images.

    Args:
        view: cells' regions of interest at ``config.pitch_px``.
        empty: the empty board, rectified at ``view``'s scale (BGR uint8, H x W x 3); None to use
            the board drawing.
        config: settings.

    Raises:
        ValueError: ``view``'s pitch differs from ``config.pitch_px``, or ``empty`` has the wrong
            size.
    """

    def __init__(self, view: BoardView, empty: np.ndarray | None = None,
                 config: PresenceConfig | None = None) -> None:
        self.config = config or PresenceConfig()
        if abs(view.pitch_px - self.config.pitch_px) > 1e-6:
            raise ValueError(f"view pitch {view.pitch_px} != presence pitch {self.config.pitch_px}")
        self.view = view
        if empty is None:
            empty = view.sheet.render(view.scale)
        if empty.shape[:2] != (view.size[1], view.size[0]):
            raise ValueError(f"empty board image is {empty.shape[1]}x{empty.shape[0]}, expected "
                             f"{view.size[0]}x{view.size[1]}")
        yy, xx = np.mgrid[0:view.roi, 0:view.roi] - view.roi // 2
        radius = np.hypot(xx, yy) / view.pitch_px
        angle = (np.degrees(np.arctan2(yy, xx)) + 360.0) % 360.0
        self._centre = radius <= 0.30
        ring = (radius >= self.config.ring[0]) & (radius <= self.config.ring[1])
        sectors = [ring & (angle >= 60 * k) & (angle < 60 * (k + 1)) for k in range(6)]
        # masked means as one matrix product: a column per mask, each mask's pixels weighted 1/count
        self._diff_means = _mean_weights([self._centre, radius <= 0.38, view.cell_mask])
        self._sector_means = _mean_weights(sectors)
        near = view.sheet.near(2)
        width = max(len(n) for n in near)
        self._near = np.array([n + [-1] * (width - len(n)) for n in near], np.int64)
        self._ref_contrast = view.patches(local_maps(cv2.cvtColor(empty, cv2.COLOR_BGR2GRAY),
                                                     self.config.blur_sigma)[0])
        self._ref_chroma = mean_chromaticity(view.pixels(empty, self._centre))
        self._ref_level = _log_level(view.pixels(cv2.cvtColor(empty, cv2.COLOR_BGR2GRAY), self._centre))

    def features(self, rectified: np.ndarray) -> np.ndarray:
        """Presence features of every cell (columns named by FEATURES).

        Args:
            rectified: the board top-down at the view's scale, BGR uint8, H x W x 3.

        Returns:
            float32 (shape: [cells, len(FEATURES)]).
        """
        view, sigma = self.view, self.config.blur_sigma
        gray = cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY)
        contrast, edge_map = local_maps(gray, sigma)
        diff = _means(np.abs(view.patches(contrast) - self._ref_contrast), self._diff_means)
        surround = np.sort(_means(view.patches(edge_map), self._sector_means), axis=1)[:, 1]
        chroma = mean_chromaticity(view.pixels(rectified, self._centre)) - self._ref_chroma
        paper = np.median(chroma, axis=0)
        local = _nanmedian_rows(np.where(self._near[..., None] >= 0, chroma[self._near], np.nan))
        level = _log_level(view.pixels(gray, self._centre)) - self._ref_level
        brightness = level - _nanmedian_rows(np.where(self._near >= 0, level[self._near], np.nan))
        columns = [diff[:, 0], diff[:, 1], diff[:, 2], surround,
                   np.linalg.norm(chroma - paper, axis=1) * 100, np.linalg.norm(chroma - local, axis=1) * 100,
                   brightness, np.abs(brightness)]
        return np.stack(columns, axis=1).astype(np.float32)


def _log_level(pixels: np.ndarray) -> np.ndarray:
    """log(1 + mean grey) of each row of grey pixels ([N, K]) -> float32 [N]."""
    return np.log(pixels.mean(axis=1).astype(np.float32) + 1.0)


def _mean_weights(masks: list[np.ndarray]) -> np.ndarray:
    """float32 (shape: [roi * roi, len(masks)]): each mask weighted 1 / its pixel count."""
    return np.stack([m.ravel() / m.sum() for m in masks], axis=1).astype(np.float32)


#: An empty matrix: cv2.gemm's third operand when it is not added (beta 0).
_NO_MATRIX = np.empty((0, 0), np.float32)


def _means(patches: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Mean of each float32 patch ([N, roi, roi]) under each mask of ``_mean_weights`` ([N, masks]):
    OpenCV's product, which keeps to cv2.setNumThreads (numpy's BLAS threads fight over the one
    core the reader may get)."""
    return np.asarray(cv2.gemm(patches.reshape(len(patches), -1), weights, 1.0, _NO_MATRIX, 0.0))


def _nanmedian_rows(values: np.ndarray) -> np.ndarray:
    """np.nanmedian(values, axis=1) for rows that each hold at least one number (a sort, far
    cheaper than numpy's masked-array nanmedian on small rows)."""
    ordered = np.sort(values, axis=1)  # NaNs last
    count = (~np.isnan(values)).sum(axis=1)
    low = np.take_along_axis(ordered, ((count - 1) // 2)[:, None, ...], axis=1)[:, 0]
    high = np.take_along_axis(ordered, (count // 2)[:, None, ...], axis=1)[:, 0]
    return (low + high) / 2


class PresenceDetector:
    """Tells occupied cells from empty ones in rectified board images (features + logistic regression).

    Args:
        view: cells' regions of interest at ``config.pitch_px``.
        empty: the empty board rectified at ``view``'s scale, or None (see PresenceFeatures).
        config: settings.

    Raises:
        ValueError: see :class:`PresenceFeatures`.
        PresenceModelError: the model file is missing or bad.
    """

    def __init__(self, view: BoardView, empty: np.ndarray | None = None,
                 config: PresenceConfig | None = None) -> None:
        self.config = config or PresenceConfig()
        self.view = view
        self.features = PresenceFeatures(view, empty, self.config)
        self.model = load_model(self.config.model)

    def measure(self, rectified: np.ndarray, indices: np.ndarray | None = None) -> PresenceScores:
        """Presence of some (or all) cells in a rectified frame.

        Args:
            rectified: the board top-down at the view's scale, BGR uint8, H x W x 3.
            indices: cell indices to report; all cells when None.

        Returns:
            The probability and the decision per cell.
        """
        idx = np.arange(len(self.view.addresses)) if indices is None else np.asarray(indices, np.int64)
        features = self.features.features(rectified)[idx]
        p = np.zeros(0, np.float32)
        if len(idx):
            p = self.model.probability(features)
        return PresenceScores(idx, p, p > self.config.threshold, np.maximum(p, 1.0 - p))


def main(argv: list[str]) -> int:
    """Print the occupied cells of one image: ``python -m vision.board.presence BOARD IMAGE`` (the hex
    board; ``python -m vision.board.square_reader`` reads the square one)."""
    from vision.board.locate import BoardNotFoundError, locate_file

    try:
        geometry, image, location = locate_file(argv[0], argv[1])
        kind = board_sheet(geometry).kind
        if kind != "hex":
            raise ValueError(f"{argv[0]}: a {kind} board; python -m vision.board.square_reader reads it")
    except (OSError, ValueError, BoardNotFoundError) as exc:
        print(exc, file=sys.stderr)
        return 1
    view = BoardView(geometry, PresenceConfig().pitch_px)
    scores = PresenceDetector(view).measure(view.rectify(image, location))
    print(" ".join(view.addresses[i] for i in scores.indices[scores.occupied]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
