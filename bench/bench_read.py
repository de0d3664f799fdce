"""Issue-3 benchmark: reading every tile of an order-9 board (271 cells) from simulated frames.

Reads with the table session's default tile-set profile ("modlinseq": faces 0..12, "#", the
modulus marker), whose faces are the reader's prior. Simulates random legal games
(engine.randomgame) with the scene simulator using the HELD-OUT tile styles and fonts
(vision.sim.tiles: the tile reader and the presence model never saw them), tiles at any rotation,
hands, light changes and a bump of the sheet; writes the frames as JPEG and reads them back. On
the still frames without a hand it measures:

- per-cell error rate (a cell is wrong when its occupancy or its face differs from the truth) and
  the share of frames read entirely right, for a full read (vision.board.board_reader.BoardReader);
- median and 95th-percentile milliseconds of a full read, and of a read of a still frame in which
  only a few cells changed (BoardWatcher.observe: locate + gate + read of the changed cells);
- the same for the naive baseline, pytesseract on every cell crop, on a subset of the frames in
  the same run, and the ratio of the medians.

Runs on one core (sched_setaffinity + cv2.setNumThreads(1)), with glibc keeping freed memory as
the application does (tilescribe/allocator.py).

    .venv/bin/python bench/bench_read.py [--games 4] [--frames 200] [--baseline-frames 4]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
import pytesseract

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sim_games import record_games  # noqa: E402

from calibration.board_print import SheetSpec, print_board  # noqa: E402
from calibration.tilesets import load_tileset  # noqa: E402
from engine.hexgrid import format_address  # noqa: E402
from tilescribe.allocator import keep_freed_memory  # noqa: E402
from tilescribe.progress import add_quiet_option, progress  # noqa: E402
from vision.board.board_reader import BoardReader, ReadConfig  # noqa: E402
from vision.gate.watcher import BoardWatcher  # noqa: E402
from vision.reader.glyph_reader import TileReader  # noqa: E402

TESSERACT_CONFIG = "--psm 7 -c tessedit_char_whitelist=0123456789#"


def cell_errors(truth: dict[str, str], read: dict[str, str]) -> int:
    """Cells whose occupancy or face differs."""
    return sum(1 for a in set(truth) | set(read) if truth.get(a) != read.get(a))


def occupancy_errors(truth: dict[str, str], read: dict[str, str]) -> int:
    """Cells occupied in one but not the other (phantom or missed tiles)."""
    return len(set(truth) ^ set(read))


def board_part_ms(reader: BoardReader, image: np.ndarray) -> float:
    """Milliseconds of the pipeline without the face reader: locate, rectify, presence, crops."""
    start = time.perf_counter()
    location = reader.locator.locate(image)
    scores = reader.presence.measure(reader.presence_view.rectify(image, location))
    occupied = np.nonzero(scores.occupied)[0]
    reader.read_view.warp_cells(image, location, occupied)
    return (time.perf_counter() - start) * 1e3


def naive_read(reader: BoardReader, image: np.ndarray) -> tuple[dict[str, str], float]:
    """Baseline: locate + rectify, then pytesseract on every cell crop (no presence, no model)."""
    start = time.perf_counter()
    location = reader.locator.locate(image)
    view = reader.read_view
    crops = view.patches(view.rectify(image, location))
    faces = {}
    for address, crop in zip(view.addresses, crops, strict=True):
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        big = cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        text = pytesseract.image_to_string(big, config=TESSERACT_CONFIG).strip()
        if text == "#" or (text.isdigit() and int(text) < 20):
            faces[address] = text
    return faces, (time.perf_counter() - start) * 1e3


def percentiles(values: list[float]) -> str:
    """'median X ms, p95 Y ms'."""
    return f"median {np.median(values):.1f} ms, p95 {np.percentile(values, 95):.1f} ms"


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--frames", type=int, default=200, help="still frames to read in full (at least)")
    parser.add_argument("--baseline-frames", type=int, default=4, help="frames read by the naive baseline")
    parser.add_argument("--second-opinion", type=float, default=None,
                        help="TileReader second_opinion_below (default: the reader's own)")
    parser.add_argument("--keep", help="keep the recordings in this folder (and reuse them next time)")
    add_quiet_option(parser)
    args = parser.parse_args()
    keep_freed_memory()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cv2.setNumThreads(1)
    work = Path(args.keep or tempfile.mkdtemp(prefix="bench_read_"))
    geometry = print_board(SheetSpec(order=9), work / "board")
    folders = record_games(work / "board" / "board.json", work, args.games, quiet=args.quiet)
    kwargs = {} if args.second_opinion is None else {"second_opinion_below": args.second_opinion}
    # the table session's default tile set (tilescribe.settings): the held-out tiles are MODLINSEQ tiles
    face_values = load_tileset("modlinseq").face_values(13)
    reader = BoardReader(ReadConfig(geometry, 13, TileReader(**kwargs), face_values))
    full_ms, errors, right_frames, read_frames, tiles = [], 0, 0, 0, []
    board_ms, occupancy = [], 0
    few_ms: list[float] = []
    watch_ms: list[float] = []
    still: list[tuple[np.ndarray, dict[str, str]]] = []
    docs = [json.loads((folder / "frames.json").read_text()) for folder in folders]
    frames = sum(len(doc["frames"]) for doc in docs)
    bar = progress(total=frames, unit="frame", desc="reading", quiet=args.quiet)
    for folder, doc in zip(folders, docs, strict=True):
        watcher = BoardWatcher(reader)
        for i, frame in enumerate(doc["frames"]):
            bar.update()
            image = cv2.imread(str(folder / frame["file"]))
            start = time.perf_counter()
            result = watcher.observe(image, frame["file"])
            elapsed = (time.perf_counter() - start) * 1e3
            watch_ms.append(elapsed)
            if result.reading is not None and len(result.reading.read_cells) < len(geometry.cells):
                few_ms.append(elapsed)
            if frame["hand"] or i % 2:
                continue
            still.append((image, frame["cells"]))
            reading = reader.read(image, frame["file"])
            full_ms.append(reading.ms)
            faces = {format_address(c): r.face for c, r in reading.cells.items()}
            wrong = cell_errors(frame["cells"], faces)
            occupancy += occupancy_errors(frame["cells"], faces)
            board_ms.append(board_part_ms(reader, image))
            errors += wrong
            right_frames += wrong == 0
            read_frames += 1
            tiles.append(len(frame["cells"]))
    bar.close()
    cells = read_frames * len(geometry.cells)
    print(f"order-9 board, 271 cells; {read_frames} still frames from {len(folders)} simulated games "
          f"(held-out tile styles, any rotation, {min(tiles)}..{max(tiles)} tiles, 1280x960 JPEG), one core")
    if read_frames < args.frames:
        print(f"WARNING: only {read_frames} frames, fewer than the {args.frames} asked for")
    print(f"full read:  per-cell error {errors / cells:.4%} ({errors} of {cells} cells), "
          f"frames entirely right {right_frames / read_frames:.1%}; {percentiles(full_ms)}")
    print(f"  of which occupancy (phantom or missed tiles): {occupancy} cells, {occupancy / cells:.4%}; "
          f"face misreads: {errors - occupancy} cells")
    print(f"  board part alone (locate, rectify, presence, crops; no face reading): {percentiles(board_ms)}")
    print(f"few cells changed (locate + gate + read of changed cells): {len(few_ms)} reads, "
          f"{percentiles(few_ms)}")
    print(f"every frame through BoardWatcher.observe (gate; reads when ready and changed): "
          f"{len(watch_ms)} frames, {percentiles(watch_ms)}, "
          f"{1000 / np.mean(watch_ms):.0f} frames/s on average")
    base_ms, base_errors, base_right = [], 0, 0
    step = max(1, len(still) // max(1, args.baseline_frames))
    for image, truth in progress(still[::step][: args.baseline_frames], desc="naive baseline", unit="frame",
                                 quiet=args.quiet):
        faces, ms = naive_read(reader, image)
        base_ms.append(ms)
        wrong = cell_errors(truth, faces)
        base_errors += wrong
        base_right += wrong == 0
    n = len(base_ms)
    print(f"naive baseline (pytesseract on all 271 cell crops), {n} frames: per-cell error "
          f"{base_errors / (n * len(geometry.cells)):.4%}, frames entirely right {base_right / n:.1%}; "
          f"{percentiles(base_ms)}")
    print(f"speed-up: full read {np.median(base_ms) / np.median(full_ms):.0f}x, "
          f"few-changed read {np.median(base_ms) / np.median(few_ms):.0f}x faster than the baseline "
          f"(medians)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
