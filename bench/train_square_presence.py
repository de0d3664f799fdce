"""Train the square board's presence model (vision/board/presence_square.json) on simulated frames.

Renders still frames of Yushino's printed board (calibration.square_board's default sheet) with the
tiles of seeded random legal games (vision.sim.square_scene) in the TRAIN font families only (the
figures of bench/bench_yushino_read.py use the HELD-OUT ones), computes the presence features of
every square (vision.board.presence.PresenceFeatures, against the board drawing) and fits the same
logistic regression as the hex board's model (bench/train_presence.py). Seeded: two runs give the
same weights to about 1e-10 (not bit for bit).

    .venv/bin/python bench/train_square_presence.py [--frames 40] [--out vision/board/presence_square.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_presence import train  # noqa: E402

from calibration.square_board import SquareSpec, design_square_board  # noqa: E402
from tilescribe.progress import add_quiet_option, progress  # noqa: E402
from vision.board.board_view import BoardView  # noqa: E402
from vision.board.locate import BoardLocator  # noqa: E402
from vision.board.presence import PresenceFeatures  # noqa: E402
from vision.board.square_reader import SQUARE_PRESENCE, SQUARE_PRESENCE_MODEL  # noqa: E402
from vision.sim.square_scene import game_frame  # noqa: E402


def collect(frames: int, seed: int, quiet: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Features (shape: [N, len(FEATURES)]) and 0/1 labels (shape: [N]) of every square of
    ``frames`` simulated frames."""
    geometry = design_square_board(SquareSpec())
    view = BoardView(geometry, SQUARE_PRESENCE.pitch_px)
    features = PresenceFeatures(view, config=SQUARE_PRESENCE)
    locator = BoardLocator(geometry)
    xs, ys = [], []
    for k in progress(range(frames), quiet=quiet, desc="frames", unit="frame"):
        rng = np.random.default_rng([seed, k])
        frame = game_frame(geometry, "train", rng, seed * 1000 + k)
        location = locator.locate(frame.image, f"frame {k}")
        xs.append(features.features(view.rectify(frame.image, location)))
        ys.append(np.array([a in frame.faces for a in view.addresses], np.float64))
    return np.concatenate(xs), np.concatenate(ys)


def main() -> int:
    """Collect, train, report the training error, save."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ridge", type=float, default=30.0, help="ridge penalty (as the hex board's model)")
    parser.add_argument("--out", default=str(SQUARE_PRESENCE_MODEL))
    add_quiet_option(parser)
    args = parser.parse_args()
    start = time.perf_counter()
    x, y = collect(args.frames, args.seed, args.quiet)
    model = train(x, y, args.ridge)
    Path(args.out).write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    wrong = int(((model.probability(x) > 0.5) != (y > 0.5)).sum())
    print(f"wrote {args.out}: {len(y)} squares ({int(y.sum())} occupied) of {args.frames} simulated frames "
          f"(train fonts), {wrong} wrong in training, {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
