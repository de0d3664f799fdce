"""Sweep the square reader's thresholds (vision/board/square_reader.py) on TRAIN-font frames.

Renders frames of Yushino's printed board (calibration.square_board's default sheet) in the TRAIN
font families (vision.sim.square_scene; the held-out figures of bench/bench_yushino_read.py use the
HELD-OUT ones): seeded random games (seeds 3 and 4, 40 frames each), the same kind blurred by
2.5 px as by a camera out of focus (seed 5, 40), frames with 60 blank tiles each (seed 6, 24) and
empty boards (seed 7, 25). Each goes through JPEG (quality 90) in memory; every square's
presence probability and the reader's "none" at one view and at the reader's views are recorded
once, then the square reader's rule (``SquareRule``, as ``SquareBoardReader.read`` applies it) is
applied at every setting of the grid, with the "none" weighed by the frame's empty_none and without
(an empty_none of 1). It prints the tiles missed and the squares taken for tiles per kind of frame,
for the shipped setting and the best ones (fewest errors in all; ties by fewest on the game frames).

    .venv/bin/python bench/sweep_square_thresholds.py [--best 8]
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.square_board import SquareSpec, design_square_board
from tilescribe.progress import add_quiet_option, progress
from vision.board.square_reader import RULE, SquareBoardReader, SquareReadConfig, SquareRule
from vision.reader.model import TileReader
from vision.sim.board_crops import JPEG_QUALITY
from vision.sim.camera import jpeg_round_trip
from vision.sim.square_scene import game_frame, render_square_frame

#: The frames: (kind, seed, frames).
FRAME_SETS: tuple[tuple[str, int, int], ...] = (
    ("game", 3, 40), ("game", 4, 40), ("blurred", 5, 40), ("blanks", 6, 24), ("empty", 7, 25))
#: Gaussian blur (sigma, px) of the blurred frames.
BLUR_SIGMA = 2.5
#: Blank tiles on each frame of the "blanks" kind.
BLANKS = 60
#: The grid: presence's unsure band (low, high), none_below, maybe_tile, sure_tile (SquareRule).
GRID = ((0.03, 0.05, 0.1), (0.7, 0.8, 0.9), (0.1, 0.15, 0.2), (0.05, 0.1, 0.2),
        (0.01, 0.015, 0.02, 0.03, 0.05))
#: The grid without the weighing (absolute "none" thresholds, as the reader had them before).
ABSOLUTE_GRID = ((0.05, 0.1), (0.7, 0.8), (0.02, 0.05, 0.1, 0.2), (0.05, 0.1, 0.2),
                 (0.01, 0.015, 0.02, 0.03, 0.05))


@dataclass(frozen=True)
class Squares:
    """One frame's squares: truth (True where a tile lies), presence probability, the reader's
    "none" at one view and at the reader's views (float64 [225] each)."""

    kind: str
    tile: np.ndarray
    presence: np.ndarray
    none_one: np.ndarray
    none_all: np.ndarray


def record(quiet: bool) -> list[Squares]:
    """Render, write, read back and measure every frame of FRAME_SETS."""
    geometry = design_square_board(SquareSpec())
    reader = SquareBoardReader(SquareReadConfig(geometry, TileReader()))
    addresses = reader.sheet.addresses
    every = np.arange(len(addresses))
    frames = []
    for kind, seed, count in FRAME_SETS:
        for k in progress(range(count), quiet=quiet, desc=f"{kind} {seed}", unit="frame"):
            rng = np.random.default_rng([seed, k])
            if kind == "blanks":
                faces = {addresses[i]: "#" for i in rng.choice(len(addresses), BLANKS, replace=False)}
                frame = render_square_frame(geometry, faces, "train", rng)
            elif kind == "empty":
                frame = render_square_frame(geometry, {}, "train", rng)
            else:
                frame = game_frame(geometry, "train", rng, seed * 100_000 + k)
            image = frame.image
            if kind == "blurred":
                image = cv2.GaussianBlur(image, (0, 0), BLUR_SIGMA)
            image = jpeg_round_trip(image, JPEG_QUALITY)
            location = reader.locator.locate(image, f"{kind} frame {k}")
            presence = reader.presence.measure(reader.presence_view.rectify(image, location)).probability
            crops = reader.crops(image, location, every)
            _, none_one = reader.face_probabilities(crops, 1)
            _, none_all = reader.face_probabilities(crops)
            tile = np.array([a in frame.faces for a in addresses])
            frames.append(Squares(kind, tile, presence.astype(np.float64), none_one, none_all))
    return frames


def occupied(squares: Squares, rule: SquareRule, weighed: bool) -> np.ndarray:
    """The squares ``rule`` takes for tiles (bool [225]), as SquareBoardReader.read applies it, with
    the "none" weighed by the frame's empty_none or not (an empty_none of 1)."""
    p, one, every = squares.presence, squares.none_one, squares.none_all
    empty = p <= rule.low
    scale = rule.empty_none(one[empty]) if weighed else 1.0
    read_empty = rule.empty_may_hold_tile(one, scale) & rule.empty_holds_tile(every, scale)
    return np.where(p >= rule.high, True, np.where(empty, read_empty, rule.unsure_holds_tile(every, scale)))


def errors(frames: list[Squares], rule: SquareRule, weighed: bool) -> dict[str, tuple[int, int]]:
    """(tiles missed, squares taken for tiles) per kind of frame."""
    out: dict[str, tuple[int, int]] = {}
    for squares in frames:
        taken = occupied(squares, rule, weighed)
        missed, extra = out.get(squares.kind, (0, 0))
        out[squares.kind] = (missed + int((squares.tile & ~taken).sum()),
                             extra + int((~squares.tile & taken).sum()))
    return out


def line(rule: SquareRule, counts: dict[str, tuple[int, int]]) -> str:
    """One setting's figures."""
    total = sum(m + e for m, e in counts.values())
    kinds = ", ".join(f"{k} {m} missed {e} taken" for k, (m, e) in counts.items())
    return (f"{total:4d}  unsure ({rule.low:g}, {rule.high:g}) none {rule.none_below:g} "
            f"maybe {rule.maybe_tile:g} sure {rule.sure_tile:g}: {kinds}")


def main() -> int:
    """Record the frames, sweep both grids, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--best", type=int, default=8, help="settings printed per grid")
    add_quiet_option(parser)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cv2.setNumThreads(1)
    frames = record(args.quiet)
    tiles = {kind: sum(int(s.tile.sum()) for s in frames if s.kind == kind) for kind, _, _ in FRAME_SETS}
    print("TRAIN-font frames: " + ", ".join(f"{kind} {sum(s.kind == kind for s in frames)} frames, {n} tiles"
                                            for kind, n in tiles.items()))
    print("shipped, weighed by empty_none:\n" + line(RULE, errors(frames, RULE, True)))
    for weighed, grid in ((True, GRID), (False, ABSOLUTE_GRID)):
        settings = [SquareRule(*s) for s in itertools.product(*grid) if s[4] <= s[3]]
        scored = []
        for rule in settings:
            counts = errors(frames, rule, weighed)
            game = sum(counts["game"])
            scored.append((sum(m + e for m, e in counts.values()), game, rule, counts))
        scored.sort(key=lambda s: (s[0], s[1]))
        print(f"best of {len(settings)} settings, {'weighed by empty_none' if weighed else 'not weighed'}:")
        for _, _, rule, counts in scored[:args.best]:
            print(line(rule, counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
