"""How strong the line prior should be (vision/line_prior.py LINE_PENALTY), on TRAIN-style games.

Simulates random legal games in the TRAIN tile styles (not the held-out ones that
bench/bench_read.py reports on), reads every fourth still frame in full with each penalty given,
and prints the misread tiles for each (0: no line prior).

    .venv/bin/python bench/tune_line_prior.py [--penalties 0 2.5 4 6] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sim_games import record_games  # noqa: E402

from calibration.board_print import SheetSpec, print_board  # noqa: E402
from calibration.tilesets import load_tileset  # noqa: E402
from engine.hexgrid import format_address  # noqa: E402
from tilescribe.progress import add_quiet_option, progress  # noqa: E402
from vision.board.board_reader import BoardReader, ReadConfig  # noqa: E402
from vision.capture.images import load_image
from vision.reader.glyph_reader import TileReader  # noqa: E402


def main() -> int:
    """Record (or reuse) the games and print the misreads for each penalty."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--penalties", type=float, nargs="+", default=[0.0, 2.5, 4.0, 6.0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--keep", help="keep the recordings in this folder (and reuse them next time)")
    add_quiet_option(parser)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    work = Path(args.keep or tempfile.mkdtemp(prefix="tune_line_prior_"))
    geometry = print_board(SheetSpec(order=9), work / "board")
    frames = []
    for folder in record_games(work / "board" / "board.json", work, args.games, split="train", seed=900,
                               first_turns=30, quiet=args.quiet):
        doc = json.loads((folder / "frames.json").read_text())
        still = [f for f in doc["frames"] if not f["hand"]]
        frames += [(load_image(folder / f["file"]), f["cells"]) for f in still[::4]]
    tiles = sum(len(truth) for _, truth in frames)
    face_reader = TileReader()
    face_values = load_tileset("modlinseq").face_values(13)  # as bench_read.py
    for penalty in args.penalties:
        reader = BoardReader(ReadConfig(geometry, 13, face_reader, face_values, line_penalty=penalty))
        wrong = 0
        bar = progress(frames, desc=f"line penalty {penalty:g}", unit="frame", quiet=args.quiet)
        for image, truth in bar:
            read = {format_address(c): r.face for c, r in reader.read(image).cells.items()}
            wrong += sum(1 for a in set(truth) | set(read) if truth.get(a) != read.get(a))
        print(f"line penalty {penalty:g}: {wrong} misread of {tiles} tiles in {len(frames)} frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
