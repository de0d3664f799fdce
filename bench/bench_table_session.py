"""The bare table's observer (tilescribe.table_observer) on simulated recordings of whole games.

For each game (Super Wild, Holominoes) it renders ``--games`` seeded recordings
(vision.sim.table_recording: a seeded random transcript of ``--turns`` turns, hands, pushes, layout
shifts, light drift; tile styles of ``--split``, the HELD-OUT font families by default; seeds
``--seed`` onwards) and runs the observer over every frame. Prints per game:

- settled readings, and how many equal the frame's true layout up to the frame alignment (the
  engine's ``aligned`` of the game: Super Wild a quarter turn and a shift, Holominoes a turn by a
  third and a shift), their share;
- phantom settles: readings made on a frame with a hand in the picture;
- turns whose end found a reading of the finished table (a settled reading after the turn's
  hand left and before the next hand came), and how many of those were right;
- hand frames reported as HAND or MOVING (not LOCKED);
- median milliseconds per frame of the observer (all frames; the settling frames alone), on
  one core (OpenCV single-threaded, the model loaded once).

Usage: PYTHONPATH=. .venv/bin/python bench/bench_table_session.py [--games 3] [--seed 7000]
       [--turns 12] [--split held_out] [--still 0.5] [--game superwild|holominoes] [--size 960x720]
       [--quiet]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2

from display.view import CameraState
from engine.games import rules_for
from tilescribe.options import size_in
from tilescribe.progress import add_quiet_option, progress
from tilescribe.table_observer import TableObserver, aligned_layout
from vision.capture.sources import Recording, RecordingSource
from vision.reader.model import TileReader
from vision.sim.options import SPLITS
from vision.sim.table_recording import record_table_game

GAMES = {"superwild": "Super Wild", "holominoes": "Holominoes"}


def bench_recording(game: str, folder: Path, reader: TileReader, still: float) -> dict[str, list[float]]:
    """Run the observer over one recording; the per-recording tallies (lists to be summed)."""
    recording = Recording.load(folder)
    truth = recording.frames
    observer = TableObserver(game, reader, still)
    tally: dict[str, list[float]] = {k: [] for k in ("read", "right", "phantom", "hand", "hand_seen",
                                                     "ms", "settle_ms", "turns", "turns_read",
                                                     "turns_right")}
    readings: dict[int, bool] = {}
    for frame in RecordingSource(folder):
        start = time.perf_counter()
        seen = observer.observe(frame)
        ms = (time.perf_counter() - start) * 1000
        tally["ms"].append(ms)
        entry = truth[frame.index]
        if entry.hand:
            tally["hand"].append(1)
            tally["hand_seen"].append(float(seen.camera is not CameraState.LOCKED))
        if seen.layout is None:
            continue
        tally["settle_ms"].append(ms)
        truth_layout = set(entry.layout or ())
        right = entry.layout is not None and aligned_layout(game, truth_layout, seen.layout) == truth_layout
        readings[frame.index] = right
        tally["read"].append(1)
        tally["right"].append(float(right))
        tally["phantom"].append(float(entry.hand))
    ends = [e.frame for e in recording.events if e.type == "end_turn"]
    for end in ends:
        left = max((i for i in range(end + 1) if truth[i].hand), default=-1)
        back = next((i for i in range(end, len(truth)) if truth[i].hand), len(truth))
        found = [readings[i] for i in range(left + 1, back) if i in readings]
        tally["turns"].append(1)
        tally["turns_read"].append(float(bool(found)))
        tally["turns_right"].append(float(bool(found) and found[-1]))
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="recordings per game")
    parser.add_argument("--seed", type=int, default=7000, help="first seed (transcript and rendering)")
    parser.add_argument("--turns", type=int, default=12, help="turns per game")
    parser.add_argument("--split", choices=SPLITS, default="held_out", help="tile styles' font split")
    parser.add_argument("--still", type=float, default=0.5, help="seconds of quiet before a reading")
    parser.add_argument("--game", choices=sorted(GAMES), help="one game only")
    parser.add_argument("--size", type=size_in(64, 4096), default=(960, 720), help="WIDTHxHEIGHT (960x720)")
    add_quiet_option(parser)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    reader = TileReader()
    for key in [args.game] if args.game else list(GAMES):
        name = GAMES[key]
        totals: dict[str, list[float]] = {}
        with tempfile.TemporaryDirectory() as tmp:
            seeds = range(args.seed, args.seed + args.games)
            for seed in progress(seeds, quiet=args.quiet, desc=key, unit="game"):
                text = rules_for(name).random_transcript(seed, 2, args.turns)
                folder = record_table_game(text, Path(tmp) / str(seed), seed, args.split, size=args.size)
                for k, v in bench_recording(name, folder, reader, args.still).items():
                    totals.setdefault(k, []).extend(v)
        read, right = len(totals["read"]), int(sum(totals["right"]))
        turns, turns_read, turns_right = (int(sum(totals[k])) for k in ("turns", "turns_read", "turns_right"))
        hand, hand_seen = len(totals["hand"]), int(sum(totals["hand_seen"]))
        print(f"{name:<11} {args.size[0]}x{args.size[1]} games {args.games}"
              f" ({args.split}, seeds {args.seed}..{args.seed + args.games - 1})"
              f"  settled readings {read}, right {right} ({right / max(read, 1):.0%})"
              f"  phantom settles {int(sum(totals['phantom']))}"
              f"  turns {turns}: read {turns_read}, read right {turns_right}"
              f" ({turns_right / max(turns, 1):.0%})"
              f"  hand frames {hand}: not LOCKED {hand_seen}"
              f"  median ms/frame {statistics.median(totals['ms']):.1f}"
              f" (settling frames {statistics.median(totals['settle_ms'] or [float('nan')]):.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
