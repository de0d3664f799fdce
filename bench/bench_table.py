"""Tables of the board-less games read from one photo: per-tile errors and time.

For each game (Super Wild, Holominoes) it renders ``--tables`` seeded tables of seeded random
games (vision.sim.table_shots.random_shot, seeds ``--seed`` onwards) in the ``--split`` font split
(default the HELD-OUT families; with ``--photos`` Super Wild also with every tile drawn from a
real Rummikub crop, the held-out crops coming from the labelled photos' valid/), reads each with
vision.table.table_reading.read_table (what ``tilescribe read IMAGE --game NAME --json`` prints)
and compares the reading with the truth as tools compare layouts (vision.sim.table_errors).
Prints per game the tiles, the tiles missed, extra, read as another tile (wrong face) and read at
another place (wrong place), their sum over the tiles (the per-tile error), tables where no
Super Wild was seen, and the median milliseconds per table on one core (the process pinned to
one CPU, OpenCV single-threaded, the model loaded), with glibc keeping freed memory as the
application does (tilescribe/allocator.py; ``--glibc-defaults`` to measure without).

Usage: PYTHONPATH=. .venv/bin/python bench/bench_table.py [--tables 20] [--seed 1000]
       [--split held_out] [--game superwild|holominoes] [--photos] [--glibc-defaults] [--quiet]
"""

from __future__ import annotations

import argparse
import os
import statistics

import cv2

from tilescribe.allocator import keep_freed_memory
from tilescribe.progress import add_quiet_option, progress
from vision.errors import VisionError
from vision.reader.model import TileReader
from vision.sim.options import SPLITS
from vision.sim.table_errors import TableErrors, table_errors
from vision.sim.table_shots import random_shot
from vision.table.table_reading import TableConfig, read_table

GAMES = {"superwild": "Super Wild", "holominoes": "Holominoes"}


def bench_game(
    game: str, tables: int, seed: int, split: str, reader: TileReader, quiet: bool, photos: bool = False
) -> None:
    """Read ``tables`` rendered tables of ``game`` (``photos``: Super Wild tiles from real crops)
    and print its line of figures."""
    total = TableErrors(0, 0, 0, 0, 0)
    times, unread = [], 0
    config = TableConfig(GAMES[game], reader)
    for k in progress(range(seed, seed + tables), quiet=quiet, desc=game, unit="table"):
        shot = random_shot(game, k, split, photos=photos)  # type: ignore[arg-type]
        try:
            reading = read_table(config, shot.image)
            tiles, ms = list(reading.tiles), reading.ms
        except VisionError:  # no Super Wild seen: nothing placed
            tiles, ms, unread = [], float("nan"), unread + 1
        total += table_errors(shot, tiles)
        times.append(ms)
    rate = total.errors / max(total.tiles, 1)
    timed = [t for t in times if t == t]
    median = statistics.median(timed) if timed else float("nan")
    name = game + (" (real crops)" if photos else "")
    print(f"{name:<24} tables {tables:>3}  tiles {total.tiles:>4}  missed {total.missed:>3}"
          f"  extra {total.extra:>3}  wrong face {total.wrong_face:>3}  wrong place {total.wrong_place:>3}"
          f"  per-tile error {rate:6.1%}  unread tables {unread}  median {median:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="tables per game (default 20)")
    parser.add_argument("--seed", type=int, default=1000, help="first table's seed (default 1000)")
    parser.add_argument("--split", choices=SPLITS, default="held_out", help="font split (default held_out)")
    parser.add_argument("--game", choices=sorted(GAMES), help="one game only")
    parser.add_argument("--photos", action="store_true",
                        help="Super Wild also with its tiles drawn from real Rummikub crops of the split")
    parser.add_argument("--glibc-defaults", action="store_true",
                        help="leave glibc's malloc settings as they are (see tilescribe/allocator.py)")
    add_quiet_option(parser)
    args = parser.parse_args()
    kept = not args.glibc_defaults and keep_freed_memory()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)
    reader = TileReader()
    print(f"split {args.split}, seeds {args.seed}..{args.seed + args.tables - 1}, one core, "
          f"{'freed memory kept' if kept else 'glibc malloc defaults'}")
    for game in [args.game] if args.game else list(GAMES):
        bench_game(game, args.tables, args.seed, args.split, reader, args.quiet)
        if game == "superwild" and args.photos:
            bench_game(game, args.tables, args.seed, args.split, reader, args.quiet, photos=True)


if __name__ == "__main__":
    main()
