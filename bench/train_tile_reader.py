"""Train the tile reader's models (seeded, deterministic) and write them to vision/models.

Writes:
- tile_surface_lut.npz: P(tile body | Lab colour) over 32^3 Lab bins, from the labelled polygons
  of the Rummikub photos' train/ split (used by vision/table/loose_tiles.py);
- tile_reader.yml.gz + tile_reader.json: the glyph classifier (cv2.ml.ANN_MLP on HOG features,
  vision/reader/glyphs.py), its classes, softmax temperature and the learned ink colours.

Training data: the cell crops of simulated boards (vision.sim: every face in the TRAIN fonts and
styles, at any rotation, through the camera model, located and rectified like the read pipeline
does), and the real tiles of train/ as found by vision/table/loose_glyphs.py (faces matched to the
labelled polygons; ink found on no labelled tile is the "none" class). valid/ is never read
here. The photos are CC BY 4.0 (Roboflow Universe, rummikub-nvypk-8cwem);
vision/models/ATTRIBUTION.txt carries the attribution.

Usage: .venv/bin/python bench/train_tile_reader.py [--photos ../shared/data/rummikub-photos]
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
from vision.capture.images import load_image
from vision.reader.cell_glyphs import glyph_in_crop
from vision.reader.glyph_reader import CELL_CROP, FACES, NOT_A_FACE
from vision.reader.glyphs import glyph_features, glyph_patch, turned
from vision.reader.tile_ups import candidate_ups
from vision.sim.crops import has_label_errata, read_class_names, read_labels
from vision.sim.recording import SimOptions, Simulation
from vision.sim.tiles import Shape
from vision.sim.timeline import Pacing, SimPlacement
from vision.table.loose_colour import ink_colour
from vision.table.loose_glyphs import find_glyphs, glyph_input
from vision.table.surface import surface_mask, working_image

REPO = Path(__file__).resolve().parent.parent
MODELS = REPO / "vision" / "models"
CLASSES = (*FACES, NOT_A_FACE)
LUT_BINS = 32
#: Turns (degrees) of a face that read as no face, whatever the tile's shape.
TILTS = (30.0, 60.0, 120.0, 150.0, 210.0, 240.0, 300.0, 330.0)


def photos(split_dir: Path, names: list[str], quiet: bool = False):
    """(path, image, labelled tiles) of every photo in one split (a progress bar unless ``quiet``)."""
    for path in progress(sorted((split_dir / "images").glob("*.jpg")), unit="photo", quiet=quiet):
        image = load_image(path)
        h, w = image.shape[:2]
        yield path, image, read_labels(split_dir / "labels" / f"{path.stem}.txt", path, (w, h), names)


def train_lut(train_dir: Path, names: list[str], quiet: bool = False) -> np.ndarray:
    """P(tile | Lab bin), smoothed over neighbouring bins."""
    tile = np.zeros((LUT_BINS,) * 3, np.float32)
    every = np.zeros_like(tile)
    for _, image, tiles in photos(train_dir, names, quiet):
        h, w = image.shape[:2]
        mask = np.zeros((h, w), np.uint8)
        for t in tiles:
            cv2.fillPoly(mask, [t.polygon.astype(np.int32)], 255)
        mask = cv2.erode(mask, np.ones((5, 5), np.uint8))
        small = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        small_mask = cv2.resize(mask, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_NEAREST)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
        tile += cv2.calcHist([lab], [0, 1, 2], small_mask, [LUT_BINS] * 3, [0, 256] * 3)
        every += cv2.calcHist([lab], [0, 1, 2], None, [LUT_BINS] * 3, [0, 256] * 3)
    for axis in range(3):
        tile = tile + 0.3 * (np.roll(tile, 1, axis) + np.roll(tile, -1, axis))
        every = every + 0.3 * (np.roll(every, 1, axis) + np.roll(every, -1, axis))
    return (tile + 0.5) / (every + 5.0)


def real_samples(train_dir: Path, names: list[str], lut: np.ndarray, rng: np.random.Generator,
                 quiet: bool = False):
    """Glyph patches of the real tiles in train/ (with jittered copies), their classes, ink colours."""
    patches, aspects, labels = [], [], []
    colour_lab: dict[str, list[np.ndarray]] = {}
    for path, image, tiles in photos(train_dir, names, quiet):
        small, _ = working_image(image)
        body, regions, body_lab = surface_mask(small, lut)
        ink, faces = find_glyphs(image, body, regions, body_lab)
        owners: list[list[int]] = [[] for _ in faces]
        for ti, t in enumerate(tiles):
            for fi, face in enumerate(faces):
                cx, cy = face.points.mean(axis=0)
                if cv2.pointPolygonTest(t.polygon, (float(cx), float(cy)), False) >= 0:
                    owners[fi].append(ti)
        faces_of_tile = [sum(ti in o for o in owners) for ti in range(len(tiles))]
        for fi, face in enumerate(faces):
            glyph = glyph_input(ink, face, face.points)
            if not owners[fi]:
                up = rng.normal(size=2)
                copies = [(up, NOT_A_FACE)]
            elif faces_of_tile[owners[fi][0]] == 1:
                tile = tiles[owners[fi][0]]
                glyph = glyph_input(ink, face, tile.polygon.astype(np.float32))
                best = candidate_ups([glyph])[0][0][0]  # the up of the best prior
                copies = [(turned(best, rng.normal(0, 4)) if k else best, tile.face) for k in range(3)]
                copies += [(turned(best, w + rng.normal(0, 4)), NOT_A_FACE) for w in (90.0, 270.0)]
                if tile.colour != "joker" and not has_label_errata(path.name):
                    colour_lab.setdefault(tile.colour, []).append(ink_colour(image, face, ink))
            else:
                continue  # a tile with its face split in two: no clean sample
            for up, face_name in copies:
                p, a = glyph_patch(glyph.ink, glyph.points, np.asarray(up))
                patches.append(p)
                aspects.append(a)
                labels.append(CLASSES.index(face_name))
    colours = {k: np.median(np.stack(v), axis=0).tolist() for k, v in sorted(colour_lab.items())}
    return patches, aspects, labels, colours


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
    parser.add_argument("--photos", type=Path, default=REPO.parent / "shared" / "data" / "rummikub-photos")
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--boards", type=int, default=20, help="simulated full boards for cell crops")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--refit", action="store_true",
                        help="refit on all samples after measuring (the shipped model is not refitted)")
    parser.add_argument("--cache", type=Path, help="also save the samples (features, classes) here")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    names = read_class_names(args.photos / "data.yaml")
    train_dir = args.photos / "train"
    args.out.mkdir(parents=True, exist_ok=True)

    lut = train_lut(train_dir, names, args.quiet)
    np.savez_compressed(args.out / "tile_surface_lut.npz", lut=lut.astype(np.float16))
    print("surface table written")
    rp, ra, rl, colours = real_samples(train_dir, names, lut.astype(np.float16).astype(np.float32), rng,
                                          args.quiet)
    print(f"real samples: {len(rl)} ({sum(c == CLASSES.index(NOT_A_FACE) for c in rl)} 'none')")
    sp, sa, sl = board_samples(args.boards, args.seed, rng, args.quiet)
    print(f"board cell samples: {len(sl)}")
    x = glyph_features(np.stack(rp + sp), np.asarray(ra + sa))
    y = np.asarray(rl + sl)
    if args.cache:
        np.savez_compressed(args.cache, x=x, y=y, real=len(rl), patches=np.stack(rp + sp))
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
        "colours": colours,
        "trained_on": {"real_samples": len(rl), "board_cell_samples": len(sl), "seed": args.seed,
                       "held_back_accuracy": held_acc},
        "attribution": "Rummikub photos: Roboflow Universe project rummikub-nvypk-8cwem v1, CC BY 4.0",
    }
    (args.out / "tile_reader.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print("model written to", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
