"""Benchmark: reading Yushino's printed square board (225 squares) from simulated camera frames.

Renders still frames of the default square board (``tilescribe board print --game yushino``) with
the tiles of seeded random legal games (vision.sim.square_scene: 1 to 30 turns, tiles at a quarter
turn either way or upright plus a small turn, camera pose, lens, light, blur, noise) in the
HELD-OUT font families by default (URW Gothic, P052, C059, Hershey triplex: neither the reader nor
the presence model saw them), writes each as JPEG (quality 90), reads it back and reads it with
vision.board.square_reader.SquareBoardReader. It prints:

- per-square error: a square is wrong when its occupancy or its face differs from the truth
  (missed tiles, extra tiles, wrong faces counted apart), and per-tile error (missed or wrong);
- the share of frames read entirely right;
- median and 95th-percentile milliseconds of a read (locate, presence, reader) on one core
  (sched_setaffinity + cv2.setNumThreads(1)), after one read to warm up;
- the commonest confusions (true -> read).

    .venv/bin/python bench/bench_yushino_read.py [--frames 40] [--split held_out] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from calibration.square_board import SquareSpec, design_square_board
from tilescribe.progress import add_quiet_option, progress
from vision.board.board_reader import cell_address
from vision.board.square_lines import SEQUENCE_PENALTY
from vision.board.square_reader import VIEWS, SquareBoardReader, SquareReadConfig
from vision.capture.images import load_image
from vision.reader.model import TileReader
from vision.sim.options import SPLITS
from vision.sim.square_scene import game_frame


def main() -> int:
    """Render, read, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--split", choices=SPLITS, default="held_out", help="the tiles' font split")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--penalty", type=float, default=SEQUENCE_PENALTY,
                        help="log-odds against a broken line (vision.board.square_lines); 0: no rules' prior")
    parser.add_argument("--views", type=int, choices=(1, 2, 3, 4), default=VIEWS,
                        help=f"quarter turns of each crop the reader reads (default {VIEWS})")
    add_quiet_option(parser)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cv2.setNumThreads(1)
    geometry = design_square_board(SquareSpec())
    reader = SquareBoardReader(SquareReadConfig(geometry, TileReader(), sequence_penalty=args.penalty,
                                                    views=args.views))
    missed = extra = wrong = tiles = right = 0
    ms: list[float] = []
    confusions: Counter[tuple[str, str]] = Counter()
    fonts: set[str] = set()
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "frame.jpg")
        for k in progress(range(args.frames), quiet=args.quiet, desc="frames", unit="frame"):
            rng = np.random.default_rng([args.seed, k])
            frame = game_frame(geometry, args.split, rng, args.seed * 100_000 + k)
            faces = frame.faces
            fonts.add(frame.style)
            cv2.imwrite(path, frame.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            image = load_image(path)
            if k == 0:
                reader.read(image)  # warm up: the network's first pass allocates
            reading = reader.read(image, path)
            ms.append(reading.ms)
            read = {cell_address(c): r.face for c, r in reading.cells.items()}
            m = sum(a not in read for a in faces)
            e = sum(a not in faces for a in read)
            w = 0
            for a, face in faces.items():
                if a in read and read[a] != face:
                    w += 1
                    confusions[(face, read[a])] += 1
            missed, extra, wrong, tiles = missed + m, extra + e, wrong + w, tiles + len(faces)
            right += m + e + w == 0
    squares = args.frames * len(geometry.squares)
    print(f"{args.frames} frames of the {len(geometry.squares)}-square board, {tiles} tiles, {args.split} "
          f"fonts ({', '.join(sorted(fonts))}), 1280x960 JPEG, seed {args.seed}, "
          f"line penalty {args.penalty:g}, {args.views} views")
    print(f"per-square error {(missed + extra + wrong) / squares:.2%} ({missed} missed, {extra} extra, "
          f"{wrong} wrong faces of {squares} squares); per-tile error {(missed + wrong) / tiles:.2%}; "
          f"frames entirely right {right / args.frames:.1%}")
    print(f"read time on one core: median {np.median(ms):.1f} ms, "
          f"95th percentile {np.percentile(ms, 95):.1f} ms")
    print("commonest confusions (true -> read): "
          + ", ".join(f"{t}->{r} {n}" for (t, r), n in confusions.most_common(10)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
