"""The Yushino camera observer on simulated recordings of whole games: settled readings against the truth.

For each seed a random legal two-player Yushino game (engine.games rules_for("Yushino")
.random_transcript) is rendered with vision.sim.recording.record_yushino_game (tile fonts of the
chosen split, hands, slow light drift, ``--light-jumps`` sudden changes of light, a mid-turn pause in
30 % of the turns of two or more tiles) and every frame is given to
tilescribe.yushino_observer.YushinoObserver. A settled reading in a mid-turn pause counts as right
only when it shows every tile laid so far (tiles not yet joined to the centre's group are not shown).
Printed figures:

- settled readings, and how many equal the frame's true layout (frames.json "layout");
- phantom settles: settled readings on a frame where a hand is over the board (frames.json "hand");
- phantom changes: settled readings that differ from the one before while the board's truth did not
  change between them (what a session would take for a change on the table);
- turns seen right: end-of-turn signals whose last settled reading before them equals the true layout
  at the signal (what a session would record for that turn);
- milliseconds per frame (median and 95th percentile) of the observer, reads included.

Run ``python bench/bench_yushino_session.py --games 3 --turns 12`` (held-out fonts by default).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from engine.games import rules_for
from tilescribe.yushino_observer import YushinoObserver
from vision.capture.sources import RecordingSource
from vision.reader.model import TileReader
from vision.sim.options import SPLITS, Split
from vision.sim.recording import record_yushino_game
from vision.sim.timeline import Pacing

#: The session's default quiet time before a read (tilescribe.settings.TableSettings.still_seconds).
STILL_SECONDS = 0.5


def bench_game(seed: int, turns: int, split: Split, size: tuple[int, int], folder: Path, reader: TileReader,
               light_jumps: int) -> dict[str, object]:
    """Record one seeded game and observe it; the counts of the module docstring, and the misreads."""
    text = rules_for("Yushino").random_transcript(seed, 2, turns)
    out = record_yushino_game(text, folder / f"game{seed}", seed, split, size=size, light_jumps=light_jumps,
                              pacing=Pacing(pause_chance=0.3))
    source = RecordingSource(out)
    truth = source.recording.frames
    observer = YushinoObserver(out / "board.json", reader, STILL_SECONDS)
    ms: list[float] = []
    settled = right = phantom = changes = turns_right = turn_ends = 0
    last: frozenset[str] | None = None
    last_truth: frozenset[str] | None = None
    wrong: list[str] = []
    for frame in source:
        start = time.perf_counter()
        observation = observer.observe(frame)
        ms.append((time.perf_counter() - start) * 1e3)
        entry = truth[frame.index]
        true_layout = frozenset(entry.layout or ())
        if observation.layout is not None:
            settled += 1
            changes += last is not None and observation.layout != last and true_layout == last_truth
            last, last_truth = observation.layout, true_layout
            right += last == true_layout
            phantom += entry.hand
            if last != true_layout:
                wrong.append(f"frame {frame.index}: read-only {sorted(last - true_layout)} "
                             f"missed {sorted(true_layout - last)}")
        for _ in frame.events:
            turn_ends += 1
            turns_right += last == true_layout
    return {"settled": settled, "right": right, "phantom": phantom, "phantom_changes": changes,
            "turn_ends": turn_ends,
            "turns_right": turns_right, "ms": ms, "wrong": wrong}


def main(argv: list[str] | None = None) -> int:
    """Print the figures over ``--games`` seeded games."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--split", choices=SPLITS, default="held_out")
    parser.add_argument("--size", default="1280x960", help="frame WIDTHxHEIGHT")
    parser.add_argument("--light-jumps", type=int, default=1, help="sudden changes of light per game")
    parser.add_argument("--keep", type=Path, help="write the recordings here (else a temporary folder)")
    args = parser.parse_args(argv)
    size = tuple(int(v) for v in args.size.split("x"))
    reader = TileReader()
    totals: dict[str, int] = {}
    ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        for seed in range(args.first_seed, args.first_seed + args.games):
            result = bench_game(seed, args.turns, args.split, (size[0], size[1]), folder, reader,
                                args.light_jumps)
            ms += result.pop("ms")  # type: ignore[arg-type]
            for line in result.pop("wrong"):  # type: ignore[attr-defined]
                print(f"  seed {seed}: {line}")
            print(f"seed {seed}: " + ", ".join(f"{k} {v}" for k, v in result.items()))
            for k, v in result.items():
                totals[k] = totals.get(k, 0) + int(v)  # type: ignore[call-overload]
    print(f"{args.games} games of {args.turns} turns, {args.split} fonts, {args.size}, "
          f"still {STILL_SECONDS} s, seeds from {args.first_seed}:")
    print(f"  settled readings right: {totals['right']}/{totals['settled']}")
    print(f"  phantom settles (hand over the board): {totals['phantom']}")
    print(f"  phantom changes (reading changed, board did not): {totals['phantom_changes']}")
    print(f"  turns seen right at their end signal: {totals['turns_right']}/{totals['turn_ends']}")
    print(f"  ms per frame: median {np.median(ms):.1f}, p95 {np.percentile(ms, 95):.1f} "
          f"over {len(ms)} frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
