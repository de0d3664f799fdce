"""Fit the ink hue model (vision.reader.ink_hue, vision/models/ink_hues.npz) on TRAIN-style Super
Wild tables and print its figures per split. Seeded and deterministic.

Each tile body found on a rendered table (vision.sim.table_shots, seeds ``--seed`` onwards,
``--tables`` of them) on a drawn number tile gives one sample (``drawn_ink_hues``): its ink hue
and the tile's colour. The tables
are drawn twice: tiles rendered in the TRAIN font families, and tiles cut from the Rummikub photos'
train/ split. Each colour's hues are one Gaussian (``FLOOR`` added to its covariance).

Figures: the share of tiles whose likeliest hue colour is not their colour, on the training tables
and on as many tables of seeds 1000 onwards in the HELD-OUT families and with valid/ crops (the
table benchmark's seeds; the reader's colour is not used here: bench/bench_table.py gives the
reading's figures).

Usage: PYTHONPATH=. .venv/bin/python bench/train_ink_hues.py [--tables 300] [--seed 0]
       [--out vision/models/ink_hues.npz]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from tilescribe.progress import add_quiet_option, progress
from vision.reader.ink_hue import INK_COLOURS, MODEL_FILE, InkHues
from vision.sim.options import Split
from vision.sim.table_shots import drawn_ink_hues, random_shot

REPO = Path(__file__).resolve().parent.parent
#: Added to each colour's covariance: a unit hue's components vary by at least about 0.03 (the
#: rendering's own jitter of a shade), so a colour seen in few shades is not fitted to a point.
FLOOR = 1e-3
#: Tables of the held-out figures start here (bench/bench_table.py's default seed).
HELD_OUT_SEED = 1000


def samples(seed: int, tables: int, split: Split, photos: bool, quiet: bool) -> tuple[np.ndarray, np.ndarray]:
    """Hues (float32 [n, 3]) and colours (str [n]) of the number tiles found on seeded tables."""
    hues, colours = [], []
    label = f"{split}{' photos' if photos else ''}"
    for k in progress(range(seed, seed + tables), quiet=quiet, desc=label, unit="table"):
        for hue, colour in drawn_ink_hues(random_shot("superwild", k, split, photos=photos)):
            hues.append(hue)
            colours.append(colour)
    return np.array(hues, np.float32).reshape(-1, 3), np.array(colours)


def error(model: InkHues, hues: np.ndarray, colours: np.ndarray) -> str:
    """The share of hues whose likeliest colour is not theirs, as "x.xx% (wrong / n)"."""
    read = np.array(INK_COLOURS)[model.likelihoods(hues).argmax(axis=1)]
    wrong = int((read != colours).sum())
    return f"{wrong / max(len(colours), 1):.2%} ({wrong} / {len(colours)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300, help="tables of each kind (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="first training table's seed (default 0)")
    parser.add_argument("--out", type=Path, default=REPO / "vision" / "models" / MODEL_FILE)
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    rendered = samples(args.seed, args.tables, "train", False, args.quiet)
    photos = samples(args.seed, args.tables, "train", True, args.quiet)
    hues, colours = np.concatenate([rendered[0], photos[0]]), np.concatenate([rendered[1], photos[1]])
    model = InkHues.fit(hues, colours, FLOOR)
    model.save(str(args.out))
    print(f"ink hue model written to {args.out} ({len(colours)} tiles)")
    print(f"train, rendered:       {error(model, *rendered)}")
    print(f"train, photo crops:    {error(model, *photos)}")
    for name, photo in (("held_out, rendered:   ", False), ("held_out, valid crops:", True)):
        print(f"{name} {error(model, *samples(HELD_OUT_SEED, args.tables, 'held_out', photo, args.quiet))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
