"""Loose Rummikub tiles found and read in the real photos of valid/: recall, precision, face and colour.

A detection matches a labelled tile when its centre lies inside the labelled polygon (each labelled
tile is matched at most once). Prints tile recall and precision, face accuracy and colour accuracy
over matched tiles (colour over non-joker tiles), and the median and 95th percentile milliseconds
per photo (``find_tiles`` pinned to one core with OpenCV single-threaded, models already loaded;
the tiles found by the learned tile finder and read by the learned reader, as ``read-tiles`` reads
them), with glibc keeping freed
memory as the application does (tilescribe/allocator.py; ``--glibc-defaults`` to measure without).
Each photo is read, fresh from its file, in each of ``--passes`` passes over the split (never twice
in a row, as a camera's frames differ) and its time is the median of its passes': one pass's times
swing by a tenth from run to run on a shared machine.

With ``--boards N`` it also reads the cell crops of N simulated order-9 boards filled with tiles in
the HELD-OUT styles and fonts of vision.sim.tiles (pentagons, rectangles and real Rummikub crops,
any rotation), as the read pipeline cuts them, and prints the reader's face accuracy per cell and
milliseconds per crop (the board benchmark proper is bench/bench_read.py).

``--set NAME`` keeps the photos of one photo set (the name before the number: "rummy4") and
``--finder PATH`` finds with another tile finder: a finder trained without that set
(bench/train_finder.py --hold-out-set NAME) reads what a user's own photos may get.

Usage: .venv/bin/python bench/bench_tiles.py [--split valid] [--photos DIR] [--errors] [--boards 3]
       [--passes 3] [--ocr none|tesseract] [--glibc-defaults] [--set NAME] [--finder PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from calibration.board_print import SheetSpec, print_board
from tilescribe.allocator import keep_freed_memory
from tilescribe.options import SECOND_READERS
from tilescribe.progress import add_quiet_option, progress
from vision.board.board_view import BoardView
from vision.board.locate import BoardLocator
from vision.capture.images import load_image
from vision.reader import tile_reader
from vision.reader.glyph_reader import CELL_CROP, FACES, TileReader
from vision.sim.crops import match_labelled, read_class_names, read_labels
from vision.sim.recording import SimOptions, simulate
from vision.sim.timeline import Pacing, SimPlacement
from vision.table.finder import FINDER_PATH, TileFinder
from vision.table.loose_tiles import LooseTile, find_tiles

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_finder import photo_set  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def board_cells(boards: int, reader: TileReader, quiet: bool = False) -> None:
    """Face accuracy and speed of the reader on simulated board cell crops (held-out styles)."""
    with tempfile.TemporaryDirectory() as folder:
        geometry = print_board(SheetSpec(order=9), Path(folder))
    view = BoardView(geometry, *CELL_CROP)
    locator = BoardLocator(geometry)
    pacing = Pacing(lead_in=0.2, reach=0.05, move=0.02, rest=0.02, settle=1.0, after=1.0)
    right = total = 0
    per_crop = []
    confusions: Counter[tuple[str, str]] = Counter()
    for b in progress(range(boards), desc="boards", unit="board", quiet=quiet):
        rng = np.random.default_rng(1000 + b)
        turn = [SimPlacement(a, FACES[int(rng.integers(len(FACES)))]) for a in geometry.cells]
        options = SimOptions(seed=1000 + b, fps=1.0, hands=False, split="held_out",
                             shapes=("pentagon", "rectangle", "photo"), per_tile_styles=True,
                             any_rotation=True, pacing=pacing)
        *_, last = simulate([turn], geometry, options)
        crops = view.patches(view.rectify(last.image, locator.locate(last.image, f"board {b}")))
        start = time.perf_counter()
        readings = reader.read_batch(list(crops))
        per_crop.append((time.perf_counter() - start) * 1000 / len(crops))
        for address, reading in zip(view.addresses, readings, strict=True):
            truth = last.cells[address]
            total += 1
            right += reading.face == truth
            if reading.face != truth:
                confusions[(truth, reading.face)] += 1
    print(f"board cells: {boards} simulated order-9 boards, {total} tiles in held-out styles")
    print(f"face acc.  {right / total:.4f}  ({right}/{total})   ms/crop median {np.median(per_crop):.2f}")
    print("commonest misreads (true -> read):",
          ", ".join(f"{a}->{b} x{n}" for (a, b), n in confusions.most_common(8)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=REPO.parent / "shared" / "data" / "rummikub-photos")
    parser.add_argument("--split", default="valid")
    parser.add_argument("--errors", action="store_true", help="list every miss and misread")
    parser.add_argument("--boards", type=int, default=0, help="also read cells of N simulated boards")
    parser.add_argument("--passes", type=int, default=3,
                        help="time every photo in this many passes over the split (each pass reads the "
                             "same tiles, checked)")
    parser.add_argument("--ocr", choices=SECOND_READERS, default="none",
                        help="the second reader, as read-tiles' --ocr (default none)")
    parser.add_argument("--glibc-defaults", action="store_true",
                        help="leave glibc's malloc settings as they are (see tilescribe/allocator.py)")
    parser.add_argument("--set", default=None, help="only the photos of this photo set")
    parser.add_argument("--finder", type=Path, default=FINDER_PATH, help="the tile finder's ONNX file")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    kept = not args.glibc_defaults and keep_freed_memory()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cv2.setNumThreads(1)
    names = read_class_names(args.photos / "data.yaml")
    reader, finder = tile_reader(), TileFinder(args.finder)
    allowed = frozenset([str(v) for v in range(1, 14)] + ["joker"])
    split = args.photos / args.split
    paths = [p for p in sorted((split / "images").glob("*.jpg")) if args.set in (None, photo_set(p.name))]
    times: dict[Path, list[float]] = {path: [] for path in paths}
    read: dict[Path, list[LooseTile]] = {}
    shapes: dict[Path, tuple[int, int]] = {}
    bar = progress(total=args.passes * len(paths), unit="photo", quiet=args.quiet)
    for _ in range(args.passes):  # never the same photo twice in a row
        for path in paths:
            bar.update()
            image = load_image(path)
            shapes[path] = image.shape[:2]
            start = time.perf_counter()
            tiles = find_tiles(image, reader, allowed, finder, tesseract=args.ocr == "tesseract")
            times[path].append((time.perf_counter() - start) * 1000)
            if read.setdefault(path, tiles) != tiles:
                raise SystemExit(f"{path}: pass {len(times[path])} read other tiles than pass 1")
    labelled = found = matched = face_ok = colour_n = colour_ok = 0
    confusions: Counter[tuple[str, str]] = Counter()
    for path, tiles in read.items():
        h, w = shapes[path]
        truth = read_labels(split / "labels" / f"{path.stem}.txt", path, (w, h), names)
        labelled += len(truth)
        found += len(tiles)
        matches = match_labelled([tile.center for tile in tiles], truth)
        for j, tile in enumerate(tiles):
            if j not in matches:
                if args.errors:
                    print(f"{path.name[:16]}: extra {tile.face} at {tile.center[0]:.0f},{tile.center[1]:.0f}")
                continue
            matched += 1
            t = truth[matches[j]]
            face_ok += tile.face == t.face
            if tile.face != t.face:
                confusions[(t.face, tile.face)] += 1
                if args.errors:
                    print(f"{path.name[:16]}: {t.name} read as {tile.face} ({tile.confidence:.2f})")
            if t.colour != "joker":
                colour_n += 1
                colour_ok += tile.colour == t.colour
                if args.errors and tile.colour != t.colour:
                    print(f"{path.name[:16]}: {t.name} colour read as {tile.colour}")
        if args.errors:
            for i, t in enumerate(truth):
                if i not in matches.values():
                    c = t.polygon.mean(axis=0)
                    print(f"{path.name[:16]}: missed {t.name} at {c[0]:.0f},{c[1]:.0f}")
    print(f"split {args.split}: {len(paths)} photos, {labelled} labelled tiles, {found} detections")
    print(f"recall     {matched / max(labelled, 1):.4f}  ({matched}/{labelled})")
    print(f"precision  {matched / max(found, 1):.4f}  ({matched}/{found})")
    print(f"face acc.  {face_ok / max(matched, 1):.4f}  ({face_ok}/{matched} matched tiles)")
    print(f"colour acc.{colour_ok / max(colour_n, 1):.4f}  ({colour_ok}/{colour_n} matched non-joker tiles)")
    per_photo = [float(np.median(t)) for t in times.values()]
    print(f"ms/photo   median {np.median(per_photo):.1f}  p95 {np.percentile(per_photo, 95):.1f}  "
          f"(each photo's median of {args.passes} pass{'es' if args.passes > 1 else ''}; one core; "
          f"{'freed memory kept' if kept else 'glibc malloc defaults'})")
    if confusions:
        print("commonest misreads (true -> read):",
              ", ".join(f"{a}->{b} x{n}" for (a, b), n in confusions.most_common(8)))
    if args.boards:
        board_cells(args.boards, TileReader(), args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
