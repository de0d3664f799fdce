"""The tile reader: one tile's face, at any rotation, with a confidence.

There is one reader for both ways of finding tiles: a square crop around a cell of the rectified
board (``TileReader.read``), and a tile found loose in a photo (vision/loose_tiles.py, which calls
``TileReader.read_glyphs``). Faces are "0".."19", "#" (wild tile, printed "#" or blank, §7-1),
"marker" (the modulus marker, §8) and "joker" (Rummikub).

How a face is read:

1. The tile body and the ink on it are found (vision/glyphs.py); the ink nearest the tile's
   centre, with the ink touching it, is the glyph.
2. The glyph is turned upright for each candidate "up" of the tile: both ways along the tile's
   long axis and both ways across it. Which way is up comes from the tile's shape and printed
   features: the number sits in the upper part of a Rummikub-like tile, the photo is usually
   roughly upright; the classifier scores each candidate, so a "7" lying upside down reads as
   nothing good. A "6" upside down looks like a "9": there only the tile's features decide,
   which is why the offset of the glyph from the tile centre weighs more than the classifier's
   preference between the two.
3. The fast default reader is a small multi-layer perceptron (cv2.ml.ANN_MLP) on HOG features of
   the upright glyph, trained by bench/train_tile_reader.py on glyphs rendered in the TRAIN fonts
   and styles of vision.sim.tiles and on real tiles from the Rummikub photos' train/ split
   (CC BY 4.0, see vision/models/ATTRIBUTION.txt). Its output is turned into class probabilities;
   the best probability is the confidence.
4. When that confidence is below ``second_opinion_below``, tesseract (pytesseract) reads the
   upright glyph; it also serves alone when no trained model is available.
5. An optional prior (the faces allowed, e.g. the engine's legal values at a cell) re-ranks.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from calibration.tilesets import TileSet
from vision.glyphs import glyph_features, glyph_patch

#: Every face the reader can report.
FACES: tuple[str, ...] = tuple(str(v) for v in range(20)) + ("#", "marker", "joker")

#: Board cell crops the reader is trained on: (distance between cell centres in pixels, crop side
#: in pitches). vision.board_reader.ReadConfig cuts 0.9-pitch crops, which read as well.
CELL_CROP: tuple[float, float] = (48.0, 1.0)

#: The classifier's extra class for ink that is no face (a logo, a scratch, a shadow).
NOT_A_FACE = "none"

#: Default model files shipped in vision/models.
MODEL_NAME = "tile_reader"


class TileReaderError(ValueError):
    """A bad tile image or model file (names the input and what is wrong)."""


@dataclass(frozen=True, slots=True)
class FaceReading:
    """What the reader saw on one tile.

    Attributes:
        face: "0".."19", "#", "marker", "joker", or "none" (no face found: not a tile).
        confidence: 0..1.
        up: the tile's up direction in the image it was read from (unit vector x, y).
        reader: "model", "tesseract" or "model+tesseract".
    """

    face: str
    confidence: float
    up: tuple[float, float] = (0.0, -1.0)
    reader: str = "model"

    def __post_init__(self) -> None:
        if self.face not in FACES and self.face != NOT_A_FACE:
            raise ValueError(f"unknown face {self.face!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be 0..1, got {self.confidence}")


@dataclass(frozen=True, slots=True)
class GlyphInput:
    """One glyph to read, as found by a tile finder.

    Attributes:
        ink: float32 ink map (shape: [H, W]) holding the glyph (other glyphs zeroed).
        points: float32 (shape: [N, 2]) (x, y) of the glyph's ink pixels in ``ink``.
        outline: float32 (shape: [K, 2]) the tile's outline in ``ink`` coordinates: 5 corners
            for a pentagon (§1-3: apex up), otherwise any points whose rotated bounding
            rectangle is the tile (4 corners of a rectangle, a contour); empty (shape [0, 2])
            when the tile's outline is unknown (every rotation is then tried).
        outline_is_sure: False when the outline comes from a small blurred crop and may be
            wrong: every twelfth of a turn is then tried as well.
    """

    ink: np.ndarray
    points: np.ndarray
    outline: np.ndarray
    outline_is_sure: bool = True

    def __post_init__(self) -> None:
        if self.ink.ndim != 2 or self.points.ndim != 2 or self.points.shape[1:] != (2,) \
                or not len(self.points):
            raise ValueError(f"GlyphInput needs a 2-D ink map and [N>0, 2] points, got "
                             f"{self.ink.shape} and {self.points.shape}")
        if self.outline.ndim != 2 or self.outline.shape[1:] != (2,) or len(self.outline) in (1, 2):
            raise ValueError(f"GlyphInput outline must be [K>=3, 2] or empty, got {self.outline.shape}")


@dataclass(frozen=True, slots=True)
class _Model:
    mlp: cv2.ml.ANN_MLP
    classes: tuple[str, ...]
    temperature: float
    mean: np.ndarray
    scale: np.ndarray


def _candidate_ups(glyph: GlyphInput) -> list[tuple[np.ndarray, float]]:
    """Candidate up vectors with their log-prior from the tile's shape and the glyph's place.

    A pentagon's up is one of its five corners seen from its centre (§1-3, apex up), so a "6"
    and a "9" (half a turn apart) can never both fit. A rectangle's up is along its long side
    (either way; across it only when the tile is nearly square), and the face sits in its upper
    part. An outline found on a blurred crop may be wrong, so every twelfth of a turn is a
    candidate too, with a lower prior unless it agrees with the shape.
    """
    generic = [np.array([np.sin(t), -np.cos(t)]) for t in np.arange(12) * 2 * np.pi / 12]
    outline = glyph.outline.astype(np.float32)
    if not len(outline):
        return [(up, 0.3 * float(-up[1])) for up in generic]
    shaped = _shape_ups(glyph, outline)
    if glyph.outline_is_sure:
        return shaped
    out = list(shaped)
    for up in generic:
        nearest = max(shaped, key=lambda c: float(c[0] @ up))
        if float(nearest[0] @ up) < np.cos(np.deg2rad(10)):
            out.append((up, min(nearest[1], 0.0) - 1.5 + 0.3 * float(-up[1])))
    return out


def _shape_ups(glyph: GlyphInput, outline: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The ups that the tile's outline allows (see :func:`_candidate_ups`)."""
    centre = outline.mean(axis=0)
    if len(outline) == 5:
        # a regular pentagon's corners lie 72 degrees apart: fit their common phase (angles x 5)
        v = (outline - centre).astype(np.float64)
        phase = np.angle(np.exp(5j * np.arctan2(v[:, 1], v[:, 0])).sum()) / 5
        turns = phase + np.arange(5) * 2 * np.pi / 5
        return [(np.array([np.cos(t), np.sin(t)]), 0.3 * float(-np.sin(t))) for t in turns]
    offset = glyph.points.mean(axis=0) - centre
    extent = max(float(np.ptp(glyph.points, axis=0).max()), 1.0)
    (_, _), (rw, rh), angle = cv2.minAreaRect(outline)
    theta = np.deg2rad(angle)
    axis = np.array([np.cos(theta), np.sin(theta)]) if rw >= rh else np.array([-np.sin(theta), np.cos(theta)])
    across = np.array([-axis[1], axis[0]])
    elongation = max(rw, rh) / max(min(rw, rh), 1.0)
    out = []
    for up, long_side in ((axis, True), (-axis, True), (across, False), (-across, False)):
        prior = 0.0 if long_side else -3.0 * min(max(elongation - 1.05, 0.0) / 0.2, 1.0)
        # the face sits in the upper part of the tile: a glyph above the centre votes for this up
        prior += float(np.clip(6.0 * float(offset @ up) / extent, -4.0, 4.0))
        prior += 0.3 * float(-up[1])  # photos and boards are mostly seen roughly upright
        out.append((up, prior))
    return out


class TileReader:
    """Reads tile faces: a trained classifier first, tesseract as the second reader.

    Args:
        model_dir: directory with ``tile_reader.yml.gz`` and ``tile_reader.json``; the shipped
            vision/models when None. ``use_model=False`` reads with tesseract alone.
        use_model: whether to use the trained classifier.
        second_opinion_below: confidence under which tesseract is asked too (0 disables it).
        exemplars: learned glyph exemplars of a user's own tile set (``tilescribe tileset learn``).
        none_above: ink found by a tile finder is no face ("none") only when that class has at
            least this probability at every candidate rotation.

    Raises:
        TileReaderError: when the model files are missing or do not match each other.
    """

    def __init__(self, model_dir: Path | None = None, *, use_model: bool = True,
                 second_opinion_below: float = 0.6, exemplars: Path | None = None,
                 none_above: float = 0.5) -> None:
        self.second_opinion_below = second_opinion_below
        self.none_above = none_above
        self._model = _load_model(str(model_dir) if model_dir else None) if use_model else None
        self.colours: dict[str, np.ndarray] = self._load_colours(model_dir) if use_model else {}
        self._exemplars = _load_exemplars(exemplars) if exemplars is not None and use_model else None

    @staticmethod
    def _load_colours(model_dir: Path | None) -> dict[str, np.ndarray]:
        meta = json.loads(_model_path(model_dir, ".json").read_text(encoding="utf-8"))
        return {k: np.asarray(v, np.float32) for k, v in meta.get("colours", {}).items()}

    # -- public API ---------------------------------------------------------------------------

    def read(self, crop: np.ndarray, allowed: Iterable[str] | None = None) -> FaceReading:
        """Read one tile from a square crop centred on it (e.g. a board cell's region of interest).

        Args:
            crop: BGR uint8, S x S x 3, the tile roughly centred, at any rotation.
            allowed: faces allowed here (a prior); None allows all.

        Returns:
            the reading; face "#" with the body's confidence for a tile with no ink (blank wild).

        Raises:
            TileReaderError: for an image that is not BGR uint8 H x W x 3 or is smaller than 8 px.
        """
        return self.read_batch([crop], allowed)[0]

    def read_batch(self, crops: Sequence[np.ndarray],
                   allowed: Iterable[str] | None = None) -> list[FaceReading]:
        """Read many square tile crops at once (one classifier call); see :meth:`read`."""
        allowed_set = frozenset(allowed) if allowed is not None else None
        glyphs: list[GlyphInput | None] = [glyph_in_crop(c, i) for i, c in enumerate(crops)]
        found = [g for g in glyphs if g is not None]
        readings = iter(self.read_glyphs(found, allowed_set, is_tile=True))
        return [next(readings) if g is not None else FaceReading("#", 0.7, reader="model")
                for g in glyphs]

    def read_glyphs(self, glyphs: Sequence[GlyphInput], allowed: frozenset[str] | None = None,
                    is_tile: bool = False) -> list[FaceReading]:
        """Read glyphs found by a tile finder, each at every candidate rotation, in one batch.

        Args:
            glyphs: the glyphs with their tiles' outlines.
            allowed: faces allowed (a prior); None allows all.
            is_tile: the glyphs are known to be on tiles (never read "none").

        Returns:
            one reading per glyph, in order.
        """
        if not glyphs:
            return []
        candidates = [_candidate_ups(g) for g in glyphs]
        starts = np.cumsum([0] + [len(ups) for ups in candidates])
        patches, aspects = [], []
        for g, ups in zip(glyphs, candidates, strict=True):
            for up, _ in ups:
                p, a = glyph_patch(g.ink, g.points, up)
                patches.append(p)
                aspects.append(a)
        patch_arr = np.stack(patches)
        if self._model is None:
            return [self._tesseract_best(patch_arr[starts[i]: starts[i + 1]], ups, allowed)
                    for i, ups in enumerate(candidates)]
        features = glyph_features(patch_arr, np.asarray(aspects))
        probs = self._probabilities(features)
        if self._exemplars is not None:
            probs = 0.5 * probs + 0.5 * self._exemplar_probabilities(features)
        probs = self._apply_prior(probs, allowed)
        faces = np.array([c != NOT_A_FACE for c in self._model.classes])
        keep = faces if is_tile else np.ones(len(faces), bool)
        out = []
        for i, ups in enumerate(candidates):
            block = probs[starts[i]: starts[i + 1]]
            # a candidate turned the wrong way reads as "none" or as nothing clearly
            scores = [np.log(block[k, faces].max() + 1e-6) + prior for k, (_, prior) in enumerate(ups)]
            k = int(np.argmax(scores))
            p = block[k] * keep
            if not is_tile and block[:, ~faces].sum(axis=1).min() < self.none_above:
                p = p * faces  # ink that reads as a face at some rotation is that face
            best = int(np.argmax(p))
            face, conf = self._model.classes[best], float(p[best] / max(p.sum(), 1e-9))
            up_xy = (float(ups[k][0][0]), float(ups[k][0][1]))
            reading = FaceReading(face, min(conf, 1.0), up_xy)
            if conf < self.second_opinion_below and face != NOT_A_FACE:
                reading = self._second_opinion(reading, patch_arr[starts[i] + k], allowed)
            out.append(reading)
        return out

    # -- internals ----------------------------------------------------------------------------

    def _probabilities(self, features: np.ndarray) -> np.ndarray:
        assert self._model is not None
        scaled = (features - self._model.mean) / self._model.scale
        _, raw = self._model.mlp.predict(scaled.astype(np.float32))
        z = raw * self._model.temperature
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def _exemplar_probabilities(self, features: np.ndarray) -> np.ndarray:
        """Class probabilities from the nearest learned exemplar of each face (cosine similarity)."""
        assert self._model is not None and self._exemplars is not None
        ex_features, ex_faces = self._exemplars
        unit = features / (np.linalg.norm(features, axis=1, keepdims=True) + 1e-6)
        similarity = unit @ ex_features.T  # [N, E]
        out = np.full((len(features), len(self._model.classes)), -np.inf, np.float32)
        for k, face in enumerate(self._model.classes):
            columns = ex_faces == face
            if columns.any():
                out[:, k] = similarity[:, columns].max(axis=1) * 25.0
        out = np.exp(out - out.max(axis=1, keepdims=True))
        return out / out.sum(axis=1, keepdims=True)

    def _apply_prior(self, probs: np.ndarray, allowed: frozenset[str] | None) -> np.ndarray:
        assert self._model is not None
        if allowed is None:
            return probs
        mask = np.array([c in allowed or c == NOT_A_FACE for c in self._model.classes], np.float32)
        weighted = probs * (0.02 + 0.98 * mask)  # a forbidden face stays possible, but a suspect
        return weighted / weighted.sum(axis=1, keepdims=True)

    def _second_opinion(self, reading: FaceReading, patch: np.ndarray,
                        allowed: frozenset[str] | None) -> FaceReading:
        text = _tesseract(patch)
        if text is None or text == reading.face:
            boost = 0.25 if text == reading.face else 0.0
            return FaceReading(reading.face, min(1.0, reading.confidence + boost), reading.up,
                               "model+tesseract")
        if allowed is not None and text in allowed and reading.face not in allowed:
            return FaceReading(text, 0.5, reading.up, "model+tesseract")
        return reading

    def _tesseract_best(self, patches: np.ndarray, ups: list[tuple[np.ndarray, float]],
                        allowed: frozenset[str] | None) -> FaceReading:
        order = np.argsort([-prior for _, prior in ups])
        for k in order[:2]:
            text = _tesseract(patches[k])
            if text is not None and (allowed is None or text in allowed):
                up = (float(ups[k][0][0]), float(ups[k][0][1]))
                return FaceReading(text, 0.6, up, "tesseract")
        return FaceReading(NOT_A_FACE, 0.0, reader="tesseract")


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
    patches, aspects, names = [], [], []
    for glyph, face, up in zip(glyphs, faces, ups, strict=True):
        for degrees in (-6, -3, 0, 3, 6):
            t = np.deg2rad(degrees)
            turned = np.array([up[0] * np.cos(t) - up[1] * np.sin(t), up[0] * np.sin(t) + up[1] * np.cos(t)])
            p, a = glyph_patch(glyph.ink, glyph.points, turned)
            patches.append(p)
            aspects.append(a)
            names.append(face)
    features = glyph_features(np.stack(patches), np.asarray(aspects))
    np.savez_compressed(path, features=features, faces=np.asarray(names))
    return len(names)


def _load_exemplars(path: Path) -> tuple[np.ndarray, np.ndarray]:
    try:
        data = np.load(path)
        features, faces = data["features"].astype(np.float32), data["faces"].astype(str)
    except (OSError, KeyError, ValueError) as exc:
        raise TileReaderError(f"{path}: not a glyph exemplar file ({exc})") from exc
    return features / (np.linalg.norm(features, axis=1, keepdims=True) + 1e-6), faces


def reader_for_tileset(tileset: TileSet | None, second_opinion_below: float = 0.6) -> TileReader:
    """The tile reader for a tile-set profile: the trained model, plus the profile's learned
    glyph exemplars when it has them (``tilescribe tileset learn``).

    Raises:
        TileReaderError: missing or broken model or exemplar files.
    """
    exemplars = tileset.exemplars if tileset is not None else None
    return TileReader(exemplars=exemplars, second_opinion_below=second_opinion_below)


def _tesseract(patch: np.ndarray) -> str | None:
    """Tesseract's reading of an upright glyph patch as a face "0".."19" or "#", or None."""
    import pytesseract

    big = cv2.resize(np.clip(patch * 255, 0, 255).astype(np.uint8), (96, 96), interpolation=cv2.INTER_CUBIC)
    page = cv2.copyMakeBorder(255 - big, 24, 24, 24, 24, cv2.BORDER_CONSTANT, value=255)
    _, page = cv2.threshold(page, 160, 255, cv2.THRESH_BINARY)
    text = pytesseract.image_to_string(page, config="--psm 8 -c tessedit_char_whitelist=0123456789#").strip()
    if text == "#" or (text.isdigit() and 0 <= int(text) <= 19 and text == str(int(text))):
        return text
    return None


def _model_path(model_dir: Path | None, suffix: str) -> Path:
    if model_dir is not None:
        return Path(model_dir) / f"{MODEL_NAME}{suffix}"
    return Path(str(resources.files("vision") / "models" / f"{MODEL_NAME}{suffix}"))


@functools.cache
def _load_model(model_dir: str | None) -> _Model:
    directory = Path(model_dir) if model_dir else None
    weights, meta_path = _model_path(directory, ".yml.gz"), _model_path(directory, ".json")
    if not weights.is_file() or not meta_path.is_file():
        raise TileReaderError(f"tile reader model not found: {weights} and {meta_path} are needed "
                              "(train one with bench/train_tile_reader.py)")
    mlp = cv2.ml.ANN_MLP_load(str(weights))  # type: ignore[attr-defined]
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    classes = tuple(meta["classes"])
    if int(mlp.getLayerSizes()[-1, 0]) != len(classes):
        raise TileReaderError(f"{weights}: {int(mlp.getLayerSizes()[-1, 0])} outputs but {meta_path} "
                              f"names {len(classes)} classes")
    mean, scale = np.asarray(meta["mean"], np.float32), np.asarray(meta["scale"], np.float32)
    return _Model(mlp, classes, float(meta["temperature"]), mean, scale)


def _is_edge_line(labels: np.ndarray, i: int, stat: np.ndarray, side: int) -> bool:
    """A long thin component at any angle (a tile's edge or shadow, a line of the board), not a
    face: longer than a third of the crop and at least six times as long as it is wide."""
    x, y, cw, ch = (int(v) for v in stat[:4])
    if np.hypot(cw, ch) < 0.35 * side:
        return False
    m = cv2.moments((labels[y:y + ch, x:x + cw] == i).astype(np.uint8), binaryImage=True)
    a, b, c = m["mu20"], m["mu11"], m["mu02"]
    spread = np.sqrt(4 * b * b + (a - c) ** 2)
    major, minor = (a + c + spread) / 2, (a + c - spread) / 2
    return bool(major > 36 * max(minor, 1e-6))


def _glyph_components(keep: list[int], stats: np.ndarray, cents: np.ndarray,
                      centre: tuple[float, float]) -> list[int]:
    """The ink components of one face: the one nearest the tile centre, then every component
    that nearly touches the group so far (the digits of "12", a joker's eyes in its face)."""
    nearest = min(keep, key=lambda i: np.hypot(*(cents[i] - centre)))
    chosen = [nearest]
    x0, y0, w0, h0 = (int(v) for v in stats[nearest, :4])
    box = [x0, y0, x0 + w0, y0 + h0]
    grown = True
    while grown:
        grown = False
        for i in keep:
            if i in chosen:
                continue
            x, y, cw, ch = (int(v) for v in stats[i, :4])
            gap = max(box[0] - (x + cw), x - box[2], box[1] - (y + ch), y - box[3], 0)
            if gap <= 0.6 * max(box[3] - box[1], 1):
                chosen.append(i)
                box = [min(box[0], x), min(box[1], y), max(box[2], x + cw), max(box[3], y + ch)]
                grown = True
    return chosen


def glyph_in_crop(crop: np.ndarray, index: int = 0) -> GlyphInput | None:
    """The glyph of the tile centred in a square crop, or None for a tile without ink.

    The tile body is the commonest colour near the crop's centre; the tile is the body-coloured
    region covering the centre, its outline the convex hull (a pentagon when the hull has five
    corners, else its rotated bounding rectangle); the glyph is the ink on the tile near the
    centre.

    Args:
        crop: BGR uint8, S x S x 3, the tile roughly centred.
        index: the crop's position in a batch, for error messages.

    Raises:
        TileReaderError: for an image that is not BGR uint8 H x W x 3 or is smaller than 8 px.
    """
    if crop.ndim != 3 or crop.shape[2] != 3 or crop.dtype != np.uint8 or min(crop.shape[:2]) < 8:
        raise TileReaderError(f"tile crop {index}: expected BGR uint8 H x W x 3 (>= 8 px), got "
                              f"{crop.dtype} {crop.shape}")
    h, w = crop.shape[:2]
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab)
    yy, xx = np.mgrid[0:h, 0:w]
    r = np.hypot(xx - (w - 1) / 2, yy - (h - 1) / 2)
    centre = lab[r <= 0.3 * min(h, w)].reshape(-1, 3).astype(np.float32)
    # the body is the commonest colour near the centre (the ink covers less than half of it)
    body = np.median(centre, axis=0)
    close = np.linalg.norm(centre - body, axis=1) < 25
    if close.any():
        body = centre[close].mean(axis=0)
    dist = np.linalg.norm(lab.astype(np.float32) - body, axis=2)
    # ink is what stands apart from the body near the centre (Otsu on the distance to the body)
    central_dist = dist[r <= 0.3 * min(h, w)]
    ink_level, _ = cv2.threshold(np.clip(central_dist, 0, 255).astype(np.uint8), 0, 255,
                                 cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink_level = max(float(ink_level), 12.0)
    # the board around the tile: the commonest colour of the crop's outer ring
    board = np.median(lab[r >= 0.48 * min(h, w)].reshape(-1, 3).astype(np.float32), axis=0)
    apart = float(np.linalg.norm(board - body))
    body_mask = (dist < min(30.0, 0.7 * ink_level, max(6.0, 0.5 * apart))).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(body_mask)
    if n <= 1:
        return None
    # the tile: the body-coloured component covering most of the central disk
    central = labels[r <= 0.3 * min(h, w)]
    counts = np.bincount(central.ravel(), minlength=n)
    counts[0] = 0
    tile_id = int(np.argmax(counts))
    tile = (labels == tile_id).astype(np.uint8)
    contours, _ = cv2.findContours(tile, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    inside = np.zeros_like(tile)
    cv2.fillConvexPoly(inside, hull, 1)
    # a body that runs into the board (a pale tile on a pale sheet) gives no outline: then the
    # face is looked for near the centre and every rotation is tried
    leaked = cv2.contourArea(hull) > 0.8 * h * w
    if leaked:
        inside = (r <= 0.36 * min(h, w)).astype(np.uint8)
    rim = max(1, int(round(0.06 * min(h, w))))
    inside = cv2.erode(inside, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rim + 1, 2 * rim + 1)))
    ink = np.clip(dist / (2.0 * ink_level), 0.0, 1.0) * inside
    binary = (ink > 0.5).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(binary)
    side = min(h, w)
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= max(3, 0.002 * h * w)
            and not _is_edge_line(labels, i, stats[i], side)]
    if not keep:
        return None
    rect = cv2.minAreaRect(hull)
    centre_xy = ((w - 1) / 2, (h - 1) / 2) if leaked else (float(rect[0][0]), float(rect[0][1]))
    chosen = _glyph_components(keep, stats, cents, centre_xy)
    mask = np.isin(labels, chosen)
    ys, xs = np.nonzero(mask)
    corners = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    outline = np.empty((0, 2)) if leaked else corners if len(corners) == 5 else cv2.boxPoints(rect)
    return GlyphInput((ink * mask).astype(np.float32), np.stack([xs, ys], axis=1).astype(np.float32),
                      outline.astype(np.float32), outline_is_sure=False)


def main(argv: list[str] | None = None) -> int:
    """Read each tile crop image given on the command line (``python -m vision.tile_reader``)."""
    reader = TileReader()
    for name in argv if argv is not None else sys.argv[1:]:
        crop = cv2.imread(name)
        if crop is None:
            print(f"{name}: cannot read image", file=sys.stderr)
            return 1
        r = reader.read(crop)
        print(f"{name}: {r.face} ({r.confidence:.2f}, {r.reader}, up {r.up[0]:+.2f} {r.up[1]:+.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
