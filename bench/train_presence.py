"""Train the presence model (vision/board/presence_model.json) on simulated frames.

Renders random legal games with the scene simulator using the TRAIN tile styles only (the read
benchmark uses the HELD-OUT styles), takes still frames with no hand over the board, computes the
presence features of every cell (vision.board.presence.PresenceFeatures, uncalibrated: against the board
drawing) and fits a logistic regression on the log-features (Newton's method with a small ridge).
Seeded: two runs give the same weights to about 1e-10 (not bit for bit).

    .venv/bin/python bench/train_presence.py [--games 6] [--out vision/board/presence_model.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sim_games import QUICK, game_turns, still_frames  # noqa: E402

from calibration.board_print import SheetSpec, design_board  # noqa: E402
from tilescribe.progress import add_quiet_option, progress  # noqa: E402
from vision.board.board_view import BoardView  # noqa: E402
from vision.board.locate import BoardLocator, BoardNotFoundError  # noqa: E402
from vision.board.presence import PresenceConfig, PresenceFeatures, PresenceModel  # noqa: E402
from vision.sim.recording import SimOptions  # noqa: E402


def collect(games: int, every: int, quiet: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Features (shape: [N, len(FEATURES)]) and 0/1 labels (shape: [N]) from simulated games."""
    geometry = design_board(SheetSpec(order=9))
    view = BoardView(geometry, PresenceConfig().pitch_px)
    features = PresenceFeatures(view)
    locator = BoardLocator(geometry)
    xs, ys = [], []
    for g in progress(range(games), unit="game", quiet=quiet):
        turns = game_turns(9, 30 + 5 * g, seed=1000 + g, wild_share=0.15)
        mixed = g % 2 == 0  # a new style per tile, real Rummikub crops among them; else one tile set
        shapes = ("pentagon", "rectangle", "photo") if mixed else (("pentagon",), ("rectangle",))[g % 4 // 2]
        options = SimOptions(seed=2000 + g, split="train", shapes=shapes, per_tile_styles=mixed,
                             any_rotation=g % 3 != 0, bumps=1, pacing=QUICK,
                             fps=5.0)
        for frame in still_frames(geometry, turns, options, every):
            try:
                location = locator.locate(frame.image)
            except BoardNotFoundError:
                continue
            xs.append(features.features(view.rectify(frame.image, location)))
            ys.append(np.array([a in frame.cells for a in view.addresses], np.float32))
        print(f"game {g}: {len(xs)} frames so far", flush=True)
    return np.concatenate(xs), np.concatenate(ys)


def train(x: np.ndarray, y: np.ndarray, ridge: float = 1e-2) -> PresenceModel:
    """Logistic regression of 0/1 labels (shape: [N]) on raw features (shape: [N, F])."""
    t = PresenceModel.transform(x)
    mean, scale = t.mean(axis=0), t.std(axis=0) + 1e-9
    z = np.column_stack([np.ones(len(t)), (t - mean) / scale])
    w = np.zeros(z.shape[1])
    for _ in range(60):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) + ridge * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + ridge * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return PresenceModel(mean, scale, w[1:], float(w[0]))


def main() -> int:
    """Collect, train, report the training error, save."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--every", type=int, default=3, help="use every n-th still frame")
    parser.add_argument("--ridge", type=float, default=30.0, help="ridge penalty of the regression")
    parser.add_argument("--cache", help="npz file keeping the features between runs")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "vision" /
                                             "presence_model.json"))
    add_quiet_option(parser)
    args = parser.parse_args()
    start = time.perf_counter()
    if args.cache and Path(args.cache).is_file():
        with np.load(args.cache) as cached:
            x, y = cached["x"], cached["y"]
    else:
        x, y = collect(args.games, args.every, args.quiet)
        if args.cache:
            np.savez_compressed(args.cache, x=x, y=y)
    model = train(x, y, args.ridge)
    p = model.probability(x)
    wrong = int(((p > 0.5) != (y > 0.5)).sum())
    print(f"{len(y)} cells ({int(y.sum())} occupied) from simulated frames; training errors {wrong}; "
          f"{time.perf_counter() - start:.0f} s")
    Path(args.out).write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({Path(args.out).stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
