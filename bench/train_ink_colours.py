"""Train the loose-tile finder's ink colour model (seeded by nothing: deterministic) and write it
to vision/models/ink_colours.npz.

Each face that vision/table/loose_tiles.py finds on a labelled tile of the Rummikub photos' train/ split
gives one sample: its ink colour relative to its tile's body (``ink_colour``, OpenCV 8-bit Lab
differences). Each colour (black, blue, orange, red) is modelled as a Gaussian (mean and
covariance, a little widened so that a held-out light is not out of reach); a face's colour is the
likeliest one (``loose_colour.colour_name``). Jokers are left out, and so is the photo whose black
row is labelled blue (the dataset README's known label noise; vision/sim/data/label_errata.txt).
valid/ is never read here.
The photos are CC BY 4.0 (Roboflow Universe, rummikub-nvypk-8cwem; vision/models/ATTRIBUTION.txt).

Usage: .venv/bin/python bench/train_ink_colours.py [--photos ../shared/data/rummikub-photos]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from tilescribe.progress import add_quiet_option, progress
from vision.capture.images import load_image
from vision.sim.crops import has_label_errata, read_class_names, read_labels
from vision.table.loose_colour import ink_colour
from vision.table.loose_glyphs import find_glyphs
from vision.table.surface import surface_lut, surface_mask, working_image

REPO = Path(__file__).resolve().parent.parent
MODELS = REPO / "vision" / "models"
#: Added to each colour's covariance (Lab units squared): a floor on its spread.
WIDEN = 4.0
#: Fewest ink pixels a face needs to give a colour sample.
MIN_POINTS = 30


def colour_samples(train_dir: Path, names: list[str], quiet: bool = False) -> dict[str, list[np.ndarray]]:
    """Relative ink colours (float32 [3]) of the faces found on labelled non-joker tiles."""
    samples: dict[str, list[np.ndarray]] = {}
    lut = surface_lut()
    for path in progress(sorted((train_dir / "images").glob("*.jpg")), unit="photo", quiet=quiet):
        if has_label_errata(path.name):
            continue
        image = load_image(path)
        h, w = image.shape[:2]
        tiles = read_labels(train_dir / "labels" / f"{path.stem}.txt", path, (w, h), names)
        small, _ = working_image(image)
        ink, faces = find_glyphs(image, *surface_mask(small, lut))
        for face in faces:
            cx, cy = face.points.mean(axis=0)
            on = [t for t in tiles if cv2.pointPolygonTest(t.polygon, (float(cx), float(cy)), False) >= 0]
            if len(on) == 1 and on[0].colour != "joker" and len(face.points) >= MIN_POINTS:
                samples.setdefault(on[0].colour, []).append(ink_colour(image, face, ink))
    return samples


def fit(samples: dict[str, list[np.ndarray]]) -> dict[str, np.ndarray]:
    """Per colour (sorted names): mean [C, 3], inverse covariance [C, 3, 3], log determinant [C]."""
    names = sorted(samples)
    means, inverses, logdets = [], [], []
    for name in names:
        x = np.stack(samples[name]).astype(np.float64)
        cov = np.cov(x.T) + WIDEN * np.eye(3)
        means.append(x.mean(axis=0))
        inverses.append(np.linalg.inv(cov))
        logdets.append(np.linalg.slogdet(cov)[1])
    return {"names": np.array(names), "mean": np.array(means, np.float32),
            "inverse": np.array(inverses, np.float32), "logdet": np.array(logdets, np.float32)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=REPO.parent / "shared" / "data" / "rummikub-photos")
    parser.add_argument("--out", type=Path, default=MODELS / "ink_colours.npz")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    samples = colour_samples(args.photos / "train", read_class_names(args.photos / "data.yaml"), args.quiet)
    print("samples:", ", ".join(f"{k} {len(v)}" for k, v in sorted(samples.items())))
    np.savez(args.out, **fit(samples))
    print("ink colour model written to", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
