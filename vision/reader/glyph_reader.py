"""The tile reader: one tile's face, at any rotation, with a confidence.

There is one reader for both ways of finding tiles: a square crop around a cell of the rectified
board (``TileReader.read``), and a tile found loose in a photo (vision/table/loose_tiles.py, which calls
``TileReader.read_glyphs``). Faces are "0".."19", "#" (wild tile, printed "#" or blank, §7-1),
"marker" (the modulus marker, §8) and "joker" (Rummikub).

How a face is read:

1. The tile body and the ink on it are found (vision/reader/cell_glyphs.py for a cell crop,
   vision/table/loose_tiles.py in a photo); the ink nearest the tile's
   centre, with the ink touching it, is the glyph.
2. The glyph is turned upright for each candidate "up" of the tile (vision/reader/tile_ups.py): a
   pentagon's corners, both ways along a rectangle's long axis and both ways across it. Which way
   is up comes from the tile's shape and printed features: the number sits in the upper part of a
   Rummikub-like tile, the photo is usually roughly upright; the classifier scores each candidate,
   so a "7" lying upside down reads as nothing good. A "6" upside down looks like a "9": there
   only the tile's features decide, which is why the offset of the glyph from the tile centre
   weighs more than the classifier's preference between the two.
3. The fast default reader is a small multi-layer perceptron (cv2.ml.ANN_MLP) on HOG features of
   the upright glyph, trained by bench/train_tile_reader.py on glyphs rendered in the TRAIN fonts
   and styles of vision.sim.tiles and on real tiles from the Rummikub photos' train/ split
   (CC BY 4.0, see vision/models/ATTRIBUTION.txt). Its output is turned into class probabilities;
   the best probability is the confidence.
4. A glyph of several ink components that reads unsure may have a tile's bevel or shadow
   joined to its face: its core (the component nearest the centre) is read alone and the two
   readings are averaged (CORE_READ_BELOW, chosen on TRAIN-style games).
5. Opt-in (``--ocr tesseract``; off by default, each call costs 0.1 to 0.3 s): when the
   confidence is below ``second_opinion_below``, tesseract (pytesseract) reads the upright glyph
   too.
6. An optional prior (the faces allowed: the tile set's faces, the engine's legal values at a
   cell) re-ranks.
"""

from __future__ import annotations

import functools
import json
import shutil
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from calibration.tilesets import TileSet
from vision.reader.cell_glyphs import glyphs_in_crops
from vision.reader.faces import MIN_ALTERNATIVE, NOT_A_FACE, TILE_FACES
from vision.reader.glyphs import GlyphInput, TileReaderError, glyph_features, glyphs_patches
from vision.reader.tile_ups import candidate_ups

#: Every face the reader can report.
FACES: tuple[str, ...] = TILE_FACES

#: With the opt-in second reader (``--ocr tesseract``), tesseract is asked too for a face read less
#: sure than this. Chosen on TRAIN, where it changed no reading at any threshold: on the train/
#: photos (0/0.3/0.6 and 0.1/0.2/0.3: the same tiles on every photo; median 109/115/122 ms a photo
#: at 0.1/0.2/0.3) and on TRAIN-style board frames (bench/sim_games.py, split "train", seed 900, 3
#: games an order: 198 of 76,422 cells wrong at order 9 and 594 of 154,254 at order 13, at 0, 0.2
#: and 0.6 alike; median full read 116/122/298 ms and 145/161/967 ms); 0.2 still asks it for the
#: faces the classifier is least sure of.
SECOND_OPINION_BELOW = 0.2

#: Board cell crops the classifier is trained on: (distance between cell centres in pixels, crop
#: side in pitches).
CELL_CROP: tuple[float, float] = (48.0, 1.0)

#: Board cell crops the reader reads (vision.board.board_reader.FaceReader.cell_crop). Swept on
#: TRAIN-style frames (bench/sim_games.py, split "train", seed 900, 3 games an order, 1280 x 960),
#: cells wrong at 40 / 48 / 56 / 64 px a pitch and 0.9 pitch across, and at the learned reader's
#: crops (71 px, 0.9): order 9 (76,422 cells) 203 / 195 / 186 / 194 and 198; order 13 (154,254
#: cells, the tiles fewer frame pixels) - / 716 / 648 / 585 and 594; order 18 (2 games, 189,995
#: cells, the tiles too small to read at this frame size) at 64 px 24,210 and 24,191; 1.0 pitch
#: across (more of the sheet round the tile) at 48 px: 278 at order 9. Median full read of every
#: 6th still order-9 frame on one core: 27.0 / 30.7 / 32.0 ms at 48 / 56 / 64 px against 35.3 ms
#: at 71 px. 64 px reads as well as 71 at every order for less time; fewer pixels lose tiles at
#: order 13.
READ_CROP: tuple[float, float] = (64.0, 0.9)


#: Confidence of "#" read from a tile with no ink found: a blank wild tile (§7-1), or a number
#: that the glyph finder missed (which is as likely on held-out tile styles).
NO_INK_CONFIDENCE = 0.3

#: Candidate ups of a tile on the board classified at first (the likeliest by their prior).
FIRST_CANDIDATES = 5

#: A glyph of several ink components read less sure than this is read again as its core
#: (GlyphInput.core), and the two readings are averaged: a bevel joined to a face makes the whole
#: unreadable, while the digits of a "12" make its core a wrong "2" that the line prior can still
#: overrule. On TRAIN-style games (bench/tune_line_prior.py) no core reading left 87 misreads, the
#: core's sure reading (>= 0.9) taking the place of the whole's below 0.3 left 117, the average
#: below 0.2 / 0.5 / 0.7 / 0.9 left 86 / 73 / 74 / 136.
CORE_READ_BELOW = 0.5


#: Default model files shipped in vision/models.
MODEL_NAME = "tile_reader"


@dataclass(frozen=True, slots=True)
class FaceReading:
    """What the reader saw on one tile.

    Attributes:
        face: "0".."19", "#", "marker", "joker", or "none" (no face found: not a tile).
        confidence: 0..1.
        up: the tile's up direction in the image it was read from (unit vector x, y).
        reader: "model", or "model+tesseract" where the opt-in second reader was asked.
        alternatives: every face at least ``MIN_ALTERNATIVE`` probable with its probability (0..1,
            at the rotation that suits each face best), most probable first; ``face`` first unless the second
            reader changed it. Empty for a crop in which no ink was found.
    """

    face: str
    confidence: float
    up: tuple[float, float] = (0.0, -1.0)
    reader: str = "model"
    alternatives: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        if self.face not in FACES and self.face != NOT_A_FACE:
            raise ValueError(f"unknown face {self.face!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be 0..1, got {self.confidence}")


@dataclass(frozen=True, slots=True)
class _Model:
    mlp: cv2.ml.ANN_MLP
    classes: tuple[str, ...]
    temperature: float
    mean: np.ndarray
    scale: np.ndarray


class _Rows(NamedTuple):
    """Every classified candidate of a batch as one row, each glyph's rows together in the order
    tried: the glyph (int [N]), the up ([N, 2]), its log-prior ([N]), the upright patch ([N,
    GLYPH_PX, GLYPH_PX]), the class probabilities ([N, classes]) and the score (the best face's
    log-probability plus the prior, [N])."""

    owner: np.ndarray
    ups: np.ndarray
    prior: np.ndarray
    patches: np.ndarray
    probs: np.ndarray
    score: np.ndarray


def _merged(rows: _Rows, more: _Rows) -> _Rows:
    """Two sets of rows as one, each glyph's rows together (``rows``' first)."""
    joined = [np.concatenate([a, b]) for a, b in zip(rows, more, strict=True)]
    order = np.argsort(joined[0], kind="stable")
    return _Rows(*(a[order] for a in joined))


def _starts(owner: np.ndarray) -> np.ndarray:
    """Where each glyph's rows begin (``owner`` sorted, every glyph present)."""
    return np.flatnonzero(np.diff(owner, prepend=-1))


class TileReader:
    """Reads tile faces: a trained classifier first, tesseract as the second reader.

    Args:
        model_dir: directory with ``tile_reader.yml.gz`` and ``tile_reader.json``; the shipped
            vision/models when None.
        second_opinion_below: confidence under which tesseract is asked too (0, the default:
            never).
        exemplars: learned glyph exemplars of a user's own tile set (``tilescribe tileset learn``).
        none_above: ink found by a tile finder is no face ("none") only when that class has at
            least this probability at every candidate rotation.

    Raises:
        TileReaderError: when the model files are missing or do not match each other, or tesseract
            is asked for and not on PATH.
    """

    def __init__(self, model_dir: Path | None = None, *, second_opinion_below: float = 0.0,
                 exemplars: Path | None = None, none_above: float = 0.5) -> None:
        if second_opinion_below > 0:
            require_tesseract()
        self.second_opinion_below = second_opinion_below
        self.none_above = none_above
        self._model = _load_model(str(model_dir) if model_dir else None)
        self._exemplars = _load_exemplars(exemplars) if exemplars is not None else None
        #: bool [classes]: the classes that are faces (all but NOT_A_FACE)
        self._faces = np.array([c != NOT_A_FACE for c in self._model.classes], bool)
        #: The board cell crops read (vision.board.board_reader.FaceReader).
        self.cell_crop: tuple[float, float] | None = READ_CROP

    # -- public API ---------------------------------------------------------------------------

    def read(self, crop: np.ndarray, allowed: Iterable[str] | None = None) -> FaceReading:
        """Read one tile from a square crop centred on it (e.g. a board cell's region of interest).

        Args:
            crop: BGR uint8, S x S x 3, the tile roughly centred, at any rotation.
            allowed: faces allowed here (a prior); None allows all.

        Returns:
            the reading; for a tile on which no ink was found, face "#" (a blank wild tile, §7-1)
            with the low confidence ``NO_INK_CONFIDENCE``: a glyph the finder missed looks the
            same, so such a reading is a suspect, never a sure wild tile.

        Raises:
            TileReaderError: for an image that is not BGR uint8 H x W x 3 or is smaller than 8 px.
        """
        return self.read_batch([crop], allowed)[0]

    def read_batch(self, crops: Sequence[np.ndarray],
                   allowed: Iterable[str] | None = None) -> list[FaceReading]:
        """Read many square tile crops at once (one classifier call); see :meth:`read`."""
        allowed_set = frozenset(allowed) if allowed is not None else None
        glyphs = glyphs_in_crops(crops)
        found = [g for g in glyphs if g is not None]
        readings = iter(self.read_glyphs(found, allowed_set, is_tile=True))
        return [next(readings) if g is not None else FaceReading("#", NO_INK_CONFIDENCE, reader="model")
                for g in glyphs]

    def read_glyphs(self, glyphs: Sequence[GlyphInput], allowed: frozenset[str] | None = None,
                    is_tile: bool = False, second_opinion: bool = True) -> list[FaceReading]:
        """Read glyphs found by a tile finder, each at every candidate rotation, in one batch.

        Args:
            glyphs: the glyphs with their tiles' outlines.
            allowed: faces allowed (a prior); None allows all.
            is_tile: the glyphs are known to be on tiles (never read "none").
            second_opinion: ask tesseract when the classifier is unsure (``second_opinion_below``);
                False: the classifier alone.

        Returns:
            one reading per glyph, in order.
        """
        if not glyphs:
            return []
        # candidates best prior first; on a tile, the likeliest few are classified first and the
        # others only where their prior could still beat the best score so far (a score is a
        # log-probability, at most 0, plus the prior): the same answer for less work
        ranked = candidate_ups(glyphs)
        first = FIRST_CANDIDATES if is_tile else None
        tried = [(ups[:first], prior[:first]) for ups, prior in ranked]
        patches, probs = self._classify(glyphs, [ups for ups, _ in tried], allowed)
        rows = self._rows(range(len(glyphs)), tried, patches, probs)
        best_so_far = np.maximum.reduceat(rows.score, _starts(rows.owner)).tolist()
        # on a tile, the candidates past the first few whose prior could still beat the best score
        extra: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for i, ((all_ups, all_prior), top) in enumerate(zip(ranked, best_so_far, strict=True)):
            done = len(tried[i][0])
            n = int((all_prior[done:] + 1e-5 > top).sum())  # a prefix: the candidates are ranked
            if n:
                extra[i] = (all_ups[done:done + n], all_prior[done:done + n])
        if extra:
            more = list(extra.values())
            rows = _merged(rows, self._rows(extra, more, *self._classify([glyphs[i] for i in extra],
                                                                         [u for u, _ in more], allowed)))
        owner, ups, prior, patches, probs, score = rows
        starts = _starts(owner)
        # a candidate turned the wrong way reads as "none" or as nothing clearly
        top_score = np.maximum.reduceat(score, starts)
        at_top = np.flatnonzero(score == top_score[owner])
        chosen = at_top[np.unique(owner[at_top], return_index=True)[1]]  # each glyph's first best row
        keep = self._faces if is_tile else np.ones(len(self._faces), bool)
        p = probs[chosen] * keep
        if not is_tile:
            # ink that reads as a face at some rotation is that face
            faced = np.minimum.reduceat(probs[:, ~self._faces].sum(axis=1), starts) < self.none_above
            p[faced] *= self._faces
        best = p.argmax(axis=1)
        confidence = p[np.arange(len(glyphs)), best] / np.maximum(p.sum(axis=1), 1e-9)
        alternatives = self._alternatives(probs, prior, starts, keep, best)
        out = [FaceReading(self._model.classes[b], min(c, 1.0), (float(x), float(y)), alternatives=a)
               for b, c, (x, y), a in zip(best.tolist(), confidence.tolist(), ups[chosen].tolist(),
                                          alternatives, strict=True)]
        picked = patches[chosen]  # each reading's upright patch, for the second reader
        self._read_cores(glyphs, out, allowed, is_tile)
        if second_opinion:
            out = [self._second_opinion(r, patch, allowed)
                   if r.confidence < self.second_opinion_below and r.face != NOT_A_FACE else r
                   for r, patch in zip(out, picked, strict=True)]
        return out

    def _rows(self, owners: Iterable[int], candidates: list[tuple[np.ndarray, np.ndarray]],
              patches: np.ndarray, probs: np.ndarray) -> _Rows:
        """Classified candidates as rows: ``candidates`` (ups [K_i, 2], priors [K_i]) of the
        glyphs ``owners``, with their patches and class probabilities from :meth:`_classify`."""
        counts = [len(ups) for ups, _ in candidates]
        prior = np.concatenate([prior for _, prior in candidates])
        score = np.log(probs[:, self._faces].max(axis=1) + 1e-6) + prior
        owner = np.repeat(np.fromiter(owners, np.int64), counts)
        return _Rows(owner, np.concatenate([u for u, _ in candidates]), prior, patches, probs, score)

    def _read_cores(self, glyphs: Sequence[GlyphInput], readings: list[FaceReading],
                    allowed: frozenset[str] | None, is_tile: bool) -> None:
        """Where a glyph of several ink components reads less sure than CORE_READ_BELOW, read its
        core alone and replace the reading (in ``readings``, in place) by the average of the two
        readings' alternatives."""
        unsure = [(i, g.core) for i, g in enumerate(glyphs)
                  if g.core is not None and readings[i].confidence < CORE_READ_BELOW]
        if not unsure:
            return
        cores = self.read_glyphs([core for _, core in unsure], allowed, is_tile, second_opinion=False)
        for (i, _), core in zip(unsure, cores, strict=True):
            mixed: dict[str, float] = {}
            for face, p in (*readings[i].alternatives, *core.alternatives):
                mixed[face] = mixed.get(face, 0.0) + 0.5 * p
            alternatives = tuple(sorted(mixed.items(), key=lambda fp: -fp[1]))
            readings[i] = FaceReading(*alternatives[0], core.up, core.reader, alternatives)

    def _alternatives(self, probs: np.ndarray, prior: np.ndarray, starts: np.ndarray, keep: np.ndarray,
                      best: np.ndarray) -> list[tuple[tuple[str, float], ...]]:
        """Each glyph's likeliest faces: each class scored at its best candidate up
        (log-probability plus the up's prior), normalised over the classes kept (bool [C]); the
        read face (class index ``best``) first. ``probs`` [N, C] and ``prior`` [N] hold every
        candidate row, each glyph's rows together from ``starts``."""
        score = np.maximum.reduceat(np.log(probs + 1e-6) + prior[:, None], starts, axis=0)
        score = np.where(keep, score, -np.inf)
        p = np.exp(score - score.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        classes = self._model.classes
        out = []
        for row, face in zip(p, best.tolist(), strict=True):
            order = np.argsort(-row)
            order = order[row[order] >= MIN_ALTERNATIVE].tolist()
            values = row.tolist()
            out.append(((classes[face], values[face]),
                        *((classes[c], values[c]) for c in order if c != face)))
        return out

    def _classify(self, glyphs: Sequence[GlyphInput], candidates: list[np.ndarray],
                  allowed: frozenset[str] | None) -> tuple[np.ndarray, np.ndarray]:
        """Upright patches (float32 [N, GLYPH_PX, GLYPH_PX]) of each glyph at its candidate ups
        (float [K_i, 2] each; N = sum of K_i, glyph by glyph) and, with a model, their class
        probabilities after the prior ([N, classes]), in one classifier call."""
        patches, aspects = glyphs_patches([g.ink for g in glyphs], [g.points for g in glyphs], candidates)
        features = glyph_features(patches, aspects)
        probs = self._probabilities(features)
        if self._exemplars is not None:
            probs = 0.5 * probs + 0.5 * self._exemplar_probabilities(features)
        return patches, self._apply_prior(probs, allowed)

    # -- internals ----------------------------------------------------------------------------

    def _probabilities(self, features: np.ndarray) -> np.ndarray:
        scaled = (features - self._model.mean) / self._model.scale
        _, raw = self._model.mlp.predict(scaled.astype(np.float32))
        z = raw * self._model.temperature
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def _exemplar_probabilities(self, features: np.ndarray) -> np.ndarray:
        """Class probabilities from the nearest learned exemplar of each face (cosine similarity)."""
        assert self._exemplars is not None
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
        if allowed is None:
            return probs
        mask = np.array([c in allowed or c == NOT_A_FACE for c in self._model.classes], np.float32)
        weighted = probs * (0.02 + 0.98 * mask)  # a forbidden face stays possible, but a suspect
        return weighted / weighted.sum(axis=1, keepdims=True)

    def _second_opinion(self, reading: FaceReading, patch: np.ndarray,
                        allowed: frozenset[str] | None) -> FaceReading:
        text = tesseract_face(patch)
        if text is None or text == reading.face:
            boost = 0.25 if text == reading.face else 0.0
            return FaceReading(reading.face, min(1.0, reading.confidence + boost), reading.up,
                               "model+tesseract", reading.alternatives)
        if allowed is not None and text in allowed and reading.face not in allowed:
            others = tuple(fp for fp in reading.alternatives if fp[0] != text)
            return FaceReading(text, 0.5, reading.up, "model+tesseract", ((text, 0.5), *others))
        return reading


def _load_exemplars(path: Path) -> tuple[np.ndarray, np.ndarray]:
    try:
        data = np.load(path)
        features, faces = data["features"].astype(np.float32), data["faces"].astype(str)
    except (OSError, KeyError, ValueError) as exc:
        raise TileReaderError(f"{path}: not a glyph exemplar file ({exc})") from exc
    return features / (np.linalg.norm(features, axis=1, keepdims=True) + 1e-6), faces


def reader_for_tileset(tileset: TileSet | None, tesseract: bool = False) -> TileReader:
    """The tile reader for a tile-set profile: the trained model, plus the profile's learned
    glyph exemplars when it has them (``tilescribe tileset learn``).

    Args:
        tileset: the profile, or None for the plain reader.
        tesseract: ask the second reader too, below SECOND_OPINION_BELOW (``--ocr tesseract``).

    Raises:
        TileReaderError: missing or broken model or exemplar files, or tesseract asked for and not
            on PATH.
    """
    exemplars = tileset.exemplars if tileset is not None else None
    return TileReader(exemplars=exemplars, second_opinion_below=SECOND_OPINION_BELOW if tesseract else 0.0)


def require_tesseract() -> None:
    """Check that tesseract, the opt-in second reader, can be run.

    Raises:
        TileReaderError: tesseract is not on PATH (the message says how to install it).
    """
    if shutil.which("tesseract") is None:
        raise TileReaderError("tesseract (the second reader asked for) is not on PATH: "
                              "apt install tesseract-ocr tesseract-ocr-eng")


def tesseract_face(patch: np.ndarray) -> str | None:
    """Tesseract's reading of an upright print as a face "0".."19" or "#", or None.

    Args:
        patch: float, H x W, the print's ink 0..1 (1 = ink), upright.
    """
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
    try:
        mlp = cv2.ml.ANN_MLP_load(str(weights))  # type: ignore[attr-defined]
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        classes, temperature = tuple(meta["classes"]), float(meta["temperature"])
        mean, scale = np.asarray(meta["mean"], np.float32), np.asarray(meta["scale"], np.float32)
        outputs = int(mlp.getLayerSizes()[-1, 0])
    except (cv2.error, OSError, KeyError, TypeError, ValueError) as exc:
        raise TileReaderError(f"{weights} or {meta_path}: not a tile reader model ({exc})") from exc
    if outputs != len(classes):
        raise TileReaderError(f"{weights}: {outputs} outputs but {meta_path} names {len(classes)} classes")
    return _Model(mlp, classes, temperature, mean, scale)


def main(argv: list[str] | None = None) -> int:
    """Read each tile crop image given on the command line (``python -m vision.reader.glyph_reader``)."""
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
