"""Benchmark of the scene simulator: milliseconds per simulated camera frame.

Plays a seeded random legal game (engine.randomgame) on an order-9 board (271 cells) and renders it
at 1280 x 960 with hands, mid-turn pauses and a board bump, timing each frame (rendering and the
JPEG round trip every simulated frame goes through). Prints the median and 95th percentile.
Target: about 20 ms per frame.

    .venv/bin/python bench/bench_sim.py [--turns 30] [--max-frames 600] [--shapes pentagon,photo]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from calibration.board_print import SheetSpec, design_board
from engine.randomgame import random_game
from engine.settings import Settings
from engine.transcript import transcript_of
from tilescribe.progress import add_quiet_option, progress
from vision.sim.recording import SimOptions, Simulation
from vision.sim.timeline import Pacing
from vision.sim.transcripts import plan_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--max-frames", type=int, default=600)
    parser.add_argument("--shapes", default="pentagon")
    parser.add_argument("--split", default="held_out")
    add_quiet_option(parser)
    args = parser.parse_args()

    board = design_board(SheetSpec(order=9))
    game, _ = random_game(Settings(modulus=13), args.turns, seed=1)
    plan = plan_game(transcript_of(game))
    options = SimOptions(
        seed=1,
        pacing=Pacing(pause_chance=0.3),
        bumps=1,
        split=args.split,
        shapes=tuple(args.shapes.split(",")),
        per_tile_styles=True,
    )
    start = time.perf_counter()
    sim = Simulation(plan.turns, board, options, plan.initial)
    setup_s = time.perf_counter() - start
    frame_ms, hands = [], 0
    frames = sim.frames()
    last = None
    for _ in progress(range(min(args.max_frames, sim.frame_count)), unit="frame", quiet=args.quiet):
        t0 = time.perf_counter()
        frame = next(frames)
        frame_ms.append((time.perf_counter() - t0) * 1000)
        hands += frame.hand
        last = frame
    tiles = len(last.cells) if last else 0
    size = f"{options.size[0]}x{options.size[1]}"
    print(f"board order 9 (271 cells), {size}, shapes {args.shapes}, {args.split} styles")
    print(
        f"game: {len(plan.turns)} turns, {sim.frame_count} frames in all; rendered {len(frame_ms)}, "
        f"{hands} with a hand over the sheet, {tiles} tiles on the last one"
    )
    print(f"setup (sheet texture, styles, poses): {setup_s * 1000:.0f} ms")
    print(
        f"ms/frame (render + JPEG encode/decode): median {np.median(frame_ms):.1f}, "
        f"p95 {np.percentile(frame_ms, 95):.1f}"
    )

if __name__ == "__main__":
    main()
