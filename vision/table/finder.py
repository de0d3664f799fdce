"""The learned tile finder: where every tile lies on a photo of the bare table, as its outline.

One small fully convolutional network (vision/table/tile_finder.onnx, run with cv2.dnn; trained by
bench/train_finder.py, card vision/table/tile_finder.md) looks at the photo shrunk so that its
long side is WORK_SIDE pixels and gives, on a grid of STRIDE pixels, two maps:

- ``body``: the probability that a pixel lies on a tile (any game's: rectangles, squares,
  pentagons, hexagons with bites; face up);
- ``core``: how far into its tile a pixel lies, from 0 on the tile's edge to 1 at the point
  furthest from it (the distance to the edge over the tile's largest such distance).

Tiles that touch share no core: a tile's core, the pixels more than halfway in (CORE_AT), is
apart from its neighbours' by half their widths. So each core found is one tile, and the tile is
the body pixels joined to its core and nearer to it than to any other core (:func:`tile_regions`);
its outline is that region's convex hull.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.table.errors import TableError

#: The shipped network.
FINDER_PATH = Path(__file__).resolve().parent / "tile_finder.onnx"
#: The photo is shrunk (or enlarged) so that its long side is this many pixels: a tile of a real
#: photo or a table camera's frame is then 30 to 300 px across, what the network was trained on.
WORK_SIDE = 640
#: The network's maps are one value per STRIDE x STRIDE pixels of its input.
STRIDE = 4
#: Its input is padded to a multiple of this (five stride-2 stages).
PAD_TO = 32
#: The ONNX graph's input and output names (bench/train_finder.py exports them).
INPUT_NAME = "image"
OUTPUT_NAME = "maps"
#: A pixel lies on a tile where ``body`` is above even odds.
BODY_AT = 0.5
#: A tile's core: its pixels more than halfway from its edge to its middle (``core`` above 0.5).
CORE_AT = 0.5
#: A core smaller than this many working pixels is noise, not a tile (the smallest tile trained
#: on, 30 px across at WORK_SIDE, has a core of about 150).
MIN_CORE_PX = 12


class FinderError(TableError):
    """The finder's model cannot be loaded, or a photo it cannot search (names which)."""


@dataclass(frozen=True, slots=True)
class FoundTile:
    """One tile found.

    Attributes:
        outline: float32 [n, 2], (x, y) photo pixels: the convex hull of the tile's region.
        centre: (x, y) photo pixels, the region's centroid.
        area: the region's area, photo pixels squared.
        score: the network's mean ``body`` probability over the region's core, 0..1.
    """

    outline: np.ndarray
    centre: tuple[float, float]
    area: float
    score: float

    def quad(self) -> np.ndarray:
        """The outline's least-area enclosing rectangle: float32 [4, 2] corners, (x, y) photo pixels."""
        return cv2.boxPoints(cv2.minAreaRect(self.outline)).astype(np.float32)

    def pixels(self, shape: tuple[int, ...], scale: float = 1.0) -> np.ndarray:
        """The pixels inside the outline, scaled by ``scale`` about the centre, of a photo of
        ``shape`` (H, W, ...): float32 [n, 2], (x, y) (at least the centre's)."""
        outline = (self.outline - self.centre) * scale + self.centre
        x, y, w, h = cv2.boundingRect(np.round(outline).astype(np.int32))
        mask = np.zeros((h + 1, w + 1), np.uint8)
        cv2.fillPoly(mask, [np.round((outline - (x, y)) * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
        ys, xs = np.nonzero(mask)
        xs, ys = xs + x, ys + y
        inside = (xs >= 0) & (ys >= 0) & (xs < shape[1]) & (ys < shape[0])
        xs, ys = xs[inside], ys[inside]
        if not len(xs):
            return np.array([self.centre], np.float32)
        return np.column_stack([xs, ys]).astype(np.float32)


class TileFinder:
    """The finder network, loaded once.

    Args:
        model_path: the ONNX network (default: the shipped vision/table/tile_finder.onnx).

    Raises:
        FinderError: the file is missing or is not a network cv2.dnn can run that gives two maps.
    """

    def __init__(self, model_path: Path | str = FINDER_PATH) -> None:
        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise FinderError(f"{self.model_path}: tile finder model not found")
        try:
            self._net = cv2.dnn.readNetFromONNX(str(self.model_path))
            probe = self._forward(np.zeros((1, 3, PAD_TO, PAD_TO), np.float32))
        except cv2.error as exc:
            first = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
            raise FinderError(f"{self.model_path}: not a tile finder model cv2.dnn can run "
                              f"({first})") from exc
        if probe.shape != (1, 2, PAD_TO // STRIDE, PAD_TO // STRIDE):
            raise FinderError(f"{self.model_path}: output {probe.shape} is not two maps at stride {STRIDE}")

    def _forward(self, blob: np.ndarray) -> np.ndarray:
        self._net.setInput(blob, INPUT_NAME)
        return self._net.forward(OUTPUT_NAME)

    def maps(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """The network's maps of a photo.

        Args:
            image: BGR uint8, H x W x 3.

        Returns:
            (body, core, scale): float32 probabilities, each (working H / STRIDE) x (working W /
            STRIDE) rounded up, and the working image's size over the photo's.

        Raises:
            FinderError: ``image`` is not BGR uint8 H x W x 3 of at least 32 px a side.
        """
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8 or min(image.shape[:2]) < 32:
            raise FinderError(f"expected a BGR uint8 H x W x 3 photo of at least 32 px a side, "
                              f"got {image.dtype} {image.shape}")
        scale = WORK_SIDE / max(image.shape[:2])
        h, w = (round(v * scale) for v in image.shape[:2])
        work = cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        ph, pw = (-(-v // PAD_TO) * PAD_TO for v in (h, w))
        work = cv2.copyMakeBorder(work, 0, ph - h, 0, pw - w, cv2.BORDER_REPLICATE)
        blob = work.transpose(2, 0, 1)[None].astype(np.float32) * np.float32(1 / 255)
        out = self._forward(blob)[0]
        probs = 1 / (1 + np.exp(-out[:, : -(-h // STRIDE), : -(-w // STRIDE)]))
        return probs[0].astype(np.float32), probs[1].astype(np.float32), scale

    def find(self, image: np.ndarray) -> list[FoundTile]:
        """Every tile lying face up on a photo of the table.

        Args:
            image: BGR uint8, H x W x 3, the table seen from above or at a slant.

        Returns:
            the tiles found, in no particular order.

        Raises:
            FinderError: ``image`` is not BGR uint8 H x W x 3 of at least 32 px a side.
        """
        body, core, scale = self.maps(image)
        return tile_regions(body, core, scale)


def tile_regions(body: np.ndarray, core: np.ndarray, scale: float) -> list[FoundTile]:
    """The tiles in a pair of maps: each core one tile, the body pixels joined to it and nearest to
    it its region.

    Args:
        body, core: float32 probabilities, the same H x W (TileFinder.maps), one per STRIDE x
            STRIDE working pixels.
        scale: the working image's size over the photo's.

    Returns:
        one FoundTile per core of at least MIN_CORE_PX working pixels, in photo pixels.
    """
    size = (body.shape[1] * STRIDE, body.shape[0] * STRIDE)
    body_up = cv2.resize(body, size, interpolation=cv2.INTER_LINEAR)
    core_up = cv2.resize(core, size, interpolation=cv2.INTER_LINEAR)
    cores = ((core_up > CORE_AT) & (body_up > BODY_AT)).astype(np.uint8)
    count, core_ids, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=8)
    if count <= 1:
        return []
    # every pixel takes the label of its nearest core: the body split between the cores
    _, nearest = cv2.distanceTransformWithLabels(1 - cores, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_CCOMP)
    regions = np.where(body_up > BODY_AT, nearest, 0)
    found = []
    for k in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[k])
        if area < MIN_CORE_PX:
            continue
        # a region reaches past its core by a quarter of the tile's width: well within a core's size
        reach = max(w, h)
        x0, y0 = max(0, x - reach), max(0, y - reach)
        x1, y1 = min(size[0], x + w + reach), min(size[1], y + h + reach)
        own = core_ids[y:y + h, x:x + w] == k
        label = nearest[y:y + h, x:x + w][own][0]
        mask = (regions[y0:y1, x0:x1] == label).astype(np.uint8)
        # only the body joined to the core: not a speck of body that no core of its own holds
        _, parts = cv2.connectedComponents(mask, connectivity=4)
        oy, ox = np.argwhere(own)[0]
        mask = (parts == parts[y - y0 + oy, x - x0 + ox]).astype(np.uint8)
        hull = cv2.convexHull(cv2.findNonZero(mask)).reshape(-1, 2).astype(np.float32) + (x0, y0)
        moments = cv2.moments(mask, binaryImage=True)
        centre = np.array([moments["m10"], moments["m01"]]) / moments["m00"] + (x0, y0)
        score = float(body_up[y:y + h, x:x + w][own].mean())
        at = (centre + 0.5) / scale - 0.5
        found.append(FoundTile(((hull + 0.5) / scale - 0.5).astype(np.float32), (float(at[0]), float(at[1])),
                               float(moments["m00"]) / scale**2, score))
    return found


@functools.cache
def tile_finder(model_path: Path = FINDER_PATH) -> TileFinder:
    """The finder of one model file, loaded once per process.

    Raises:
        FinderError: the model file is missing or damaged.
    """
    return TileFinder(model_path)
