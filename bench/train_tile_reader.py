"""Train the glyph reader's classifier (seeded, deterministic) and write it to vision/models.

Writes tile_reader.yml.gz + tile_reader.json: the glyph classifier (cv2.ml.ANN_MLP on HOG features,
vision/reader/glyphs.py), its classes and softmax temperature. The glyph reader reads MODLINSEQ's
board for a tile set with learned glyph exemplars or with tesseract asked
(vision.reader.board_face_reader).

Training data: the cell crops of simulated boards (vision.sim: every face in the TRAIN fonts and
styles, Rummikub tiles cut from the photos' train/ split among them, at any rotation, through the
camera model, located and rectified like the read pipeline does). Those crops are CC BY 4.0
(Roboflow Universe, rummikub-nvypk-8cwem); vision/models/ATTRIBUTION.txt carries the attribution.

Usage: .venv/bin/python bench/train_tile_reader.py [--boards 20] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from calibration.board_print import SheetSpec, print_board
from tilescribe.progress import add_quiet_option, progress
from vision.board.board_view import BoardView
from vision.board.locate import BoardLocator
from vision.reader.cell_glyphs import glyph_in_crop
from vision.reader.glyph_reader import CELL_CROP, FACES, NOT_A_FACE
from vision.reader.glyphs import glyph_features, glyph_patch, turned
from vision.sim.recording import SimOptions, Simulation
from vision.sim.tiles import Shape
from vision.sim.timeline import Pacing, SimPlacement

REPO = Path(__file__).resolve().parent.parent
MODELS = REPO / "vision" / "models"
CLASSES = (*FACES, NOT_A_FACE)
#: Turns (degrees) of a face that read as no face, whatever the tile's shape.
TILTS = (30.0, 60.0, 120.0, 150.0, 210.0, 240.0, 300.0, 330.0)


def board_samples(boards: int, seed: int, rng: np.random.Generator, quiet: bool = False):
    """Glyph patches of every cell of simulated order-9 boards filled with TRAIN-style tiles.

    Each board is rendered by the scene simulator (camera pose, lens, light, blur, noise, JPEG),
    located by its fiducial markers and cut into the same cell crops the read pipeline uses; the
    simulator's tile angles give the true up of every crop.
    """
    patches, aspects, labels = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        geometry = print_board(SheetSpec(order=9), Path(folder))
    view = BoardView(geometry, *CELL_CROP)
    locator = BoardLocator(geometry)
    pacing = Pacing(lead_in=0.2, reach=0.05, move=0.02, rest=0.02, settle=1.0, after=1.0)
    for b in progress(range(boards), unit="board", quiet=quiet):
        faces = [FACES[int(rng.integers(len(FACES)))] for _ in geometry.cells]
        turn = [SimPlacement(a, f) for a, f in zip(geometry.cells, faces, strict=True)]
        shapes: tuple[Shape, ...] = ("pentagon", "rectangle", "photo")
        options = SimOptions(seed=seed * 100 + b, fps=1.0, hands=False, split="train", shapes=shapes,
                             per_tile_styles=True, any_rotation=True, pacing=pacing)
        simulation = Simulation([turn], geometry, options)
        *_, last = simulation.frames()
        crops = view.patches(view.rectify(last.image, locator.locate(last.image, f"board {b}")))
        tiles = simulation.tiles_json()
        for address, crop in zip(view.addresses, crops, strict=True):
            tile = tiles[address]
            glyph = glyph_in_crop(crop)
            if glyph is None:
                continue
            t = np.deg2rad(float(tile["angle_deg"]))  # counter-clockwise as seen
            up = np.array([-np.sin(t), -np.cos(t)])
            # the true up, and the tile shape's wrong ups as "none" (how a misturned glyph looks)
            wrong = [72.0, 144.0, 216.0, 288.0] if len(glyph.outline) == 5 else [90.0, 270.0]
            wrong += list(rng.choice(TILTS, 2, replace=False))
            tilts = [(rng.normal(0, 3), str(tile["face"]))]
            tilts += [(w + rng.normal(0, 3), NOT_A_FACE) for w in wrong]
            for tilt, name in tilts:
                p, a = glyph_patch(glyph.ink, glyph.points, turned(up, tilt))
                patches.append(p)
                aspects.append(a)
                labels.append(CLASSES.index(name))
    return patches, aspects, labels


def train_mlp(x: np.ndarray, y: np.ndarray, seed: int) -> cv2.ml.ANN_MLP:
    """A 128-unit perceptron trained by back-propagation on standardised features."""
    cv2.setRNGSeed(seed)
    mlp = cv2.ml.ANN_MLP_create()
    mlp.setLayerSizes(np.array([x.shape[1], 128, len(CLASSES)]))
    mlp.setActivationFunction(cv2.ml.ANN_MLP_SIGMOID_SYM, 0, 0)
    mlp.setTrainMethod(cv2.ml.ANN_MLP_BACKPROP, 0.001, 0.1)
    mlp.setTermCriteria((cv2.TERM_CRITERIA_MAX_ITER + cv2.TERM_CRITERIA_EPS, 300, 1e-6))
    targets = np.full((len(y), len(CLASSES)), -1.0, np.float32)
    targets[np.arange(len(y)), y] = 1.0
    mlp.train(x, cv2.ml.ROW_SAMPLE, targets)
    return mlp


def fit_temperature(raw: np.ndarray, y: np.ndarray) -> float:
    """The softmax temperature with the lowest negative log-likelihood on held-back samples."""
    best, best_nll = 1.0, np.inf
    for t in np.linspace(1, 20, 39):
        z = raw * t
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        nll = float(-logp[np.arange(len(y)), y].mean())
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--boards", type=int, default=20, help="simulated full boards for cell crops")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--refit", action="store_true",
                        help="refit on all samples after measuring (the shipped model is not refitted)")
    parser.add_argument("--cache", type=Path, help="also save the samples (features, classes) here")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    patches, aspects, labels = board_samples(args.boards, args.seed, rng, args.quiet)
    print(f"board cell samples: {len(labels)}")
    x = glyph_features(np.stack(patches), np.asarray(aspects))
    y = np.asarray(labels)
    if args.cache:
        np.savez_compressed(args.cache, x=x, y=y, patches=np.stack(patches))
    order = rng.permutation(len(y))
    x, y = x[order], y[order]
    mean, spread = x.mean(axis=0), x.std(axis=0) + 1e-3
    x = ((x - mean) / spread).astype(np.float32)
    cut = int(0.9 * len(y))
    mlp = train_mlp(x[:cut], y[:cut], args.seed)
    _, raw = mlp.predict(x[cut:])
    temperature = fit_temperature(raw, y[cut:])
    held_acc = float((raw.argmax(axis=1) == y[cut:]).mean())
    print(f"held-back accuracy (10% of train samples): {held_acc:.4f}, temperature {temperature:.2f}")
    if args.refit:
        mlp = train_mlp(x, y, args.seed)
    mlp.save(str(args.out / "tile_reader.yml.gz"))
    meta = {
        "classes": list(CLASSES),
        "temperature": temperature,
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in spread],
        "trained_on": {"board_cell_samples": len(labels), "seed": args.seed,
                       "held_back_accuracy": held_acc},
        "attribution": "Rummikub tile crops on the simulated boards: Roboflow Universe project "
                       "rummikub-nvypk-8cwem v1, CC BY 4.0",
    }
    (args.out / "tile_reader.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print("model written to", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
