"""Reading every tile of MODLINSEQ's printed board from simulated frames, at orders 9, 13 and 18.

Reads with the table session's default tile-set profile ("modlinseq": faces 0..12, "#", the
modulus marker), whose faces are the reader's prior. Simulates random legal games
(engine.randomgame) on boards of each ``--orders`` with the scene simulator using the HELD-OUT tile
styles and fonts (vision.sim.tiles: the tile reader and the presence model never saw them; with
``--split train`` the TRAIN ones, the frames on which the readers' settings are chosen),
pentagons in one game and pentagons with Rummikub-like rectangles in the next, tiles at any
rotation, hands, light changes and a bump of the sheet, in camera frames of ``--size``; writes the
frames as JPEG and reads them back. On the still frames without a hand it measures, per order and
in all:

- per-cell error rate (a cell is wrong when its occupancy or its face differs from the truth) and
  the share of frames read entirely right, for a full read (vision.board.board_reader.BoardReader)
  with the learned reader (vision.reader.model, MODLINSEQ's default, as ``tilescribe read`` runs
  it), and in the same run with the glyph reader it replaced (vision.reader.glyph_reader,
  ``--old``, without the opt-in tesseract), with the ratio of their medians;
- median and 95th-percentile milliseconds of a full read, and at the first order of a read of a
  still frame in which only a few cells changed (BoardWatcher.observe: locate + gate + read of the
  changed cells), and of the naive baseline, pytesseract on every cell crop, on a few frames.

Runs on one core (sched_setaffinity + cv2.setNumThreads(1)), with glibc keeping freed memory as
the application does (tilescribe/allocator.py).

    .venv/bin/python bench/bench_read.py [--orders 9,13,18] [--games 4] [--size 1280x960] [--old]
        [--baseline-frames 4] [--split held_out|train] [--seed 500]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
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
from tilescribe.options import size_in  # noqa: E402
from tilescribe.progress import add_quiet_option, progress  # noqa: E402
from vision.board.board_reader import BoardReader, ReadConfig  # noqa: E402
from vision.capture.images import load_image  # noqa: E402
from vision.capture.sources import CAMERA_SIZE, LIVE_SIZES  # noqa: E402
from vision.gate.watcher import BoardWatcher  # noqa: E402
from vision.reader.glyph_reader import TileReader as GlyphReader  # noqa: E402
from vision.reader.model import TileReader  # noqa: E402
from vision.sim.options import SPLITS  # noqa: E402

#: The first game's seed of the benchmark's recordings (bench/sim_games.py record_games).
SEED = 500
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


@dataclass
class Tally:
    """One reader's full reads at one order."""

    errors: int = 0
    occupancy: int = 0
    cells: int = 0
    right: int = 0
    frames: int = 0
    ms: list[float] = field(default_factory=list)

    def add(self, truth: dict[str, str], reading_cells: dict[str, str], cells: int, ms: float) -> None:
        """Count one frame's read."""
        wrong = cell_errors(truth, reading_cells)
        self.errors += wrong
        self.occupancy += occupancy_errors(truth, reading_cells)
        self.cells += cells
        self.right += wrong == 0
        self.frames += 1
        self.ms.append(ms)

    def merged(self, other: Tally) -> Tally:
        """The two tallies as one."""
        return Tally(self.errors + other.errors, self.occupancy + other.occupancy, self.cells + other.cells,
                     self.right + other.right, self.frames + other.frames, self.ms + other.ms)

    def line(self) -> str:
        """Its figures on one line."""
        if not self.frames:
            return "no frames"
        return (f"per-cell error {self.errors / self.cells:.4%} ({self.errors} of {self.cells} cells; "
                f"{self.occupancy} occupancy, {self.errors - self.occupancy} faces), frames entirely right "
                f"{self.right / self.frames:.1%} of {self.frames}; {percentiles(self.ms)}")


def percentiles(values: list[float]) -> str:
    """'median X ms, p95 Y ms'."""
    return f"median {np.median(values):.1f} ms, p95 {np.percentile(values, 95):.1f} ms"


def read_order(order: int, args: argparse.Namespace, work: Path) -> dict[str, Tally]:
    """Record ``args.games`` games on a board of ``order`` and read their still frames with each
    reader; at the first order also time the watcher and the naive baseline."""
    geometry = print_board(SheetSpec(order=order), work / f"board{order}")
    size = "" if args.size == CAMERA_SIZE else "-{}x{}".format(*args.size)
    games = "" if (args.split, args.seed) == ("held_out", SEED) else f"-{args.split}-{args.seed}"
    folders = record_games(work / f"board{order}" / "board.json", work / f"order{order}{size}{games}",
                           args.games, args.split, args.seed, quiet=args.quiet, size=args.size)
    # the table session's default tile set (tilescribe.settings): the held-out tiles are MODLINSEQ tiles
    face_values = load_tileset("modlinseq").face_values(13)
    readers = {"learned": BoardReader(ReadConfig(geometry, 13, TileReader(), face_values))}
    if args.old:
        readers["glyph"] = BoardReader(ReadConfig(geometry, 13, GlyphReader(), face_values))
    tallies = {name: Tally() for name in readers}
    first = order == args.orders[0]
    watch_ms: list[float] = []
    few_ms: list[float] = []
    board_ms: list[float] = []
    still: list[tuple[np.ndarray, dict[str, str]]] = []
    docs = [json.loads((folder / "frames.json").read_text()) for folder in folders]
    bar = progress(total=sum(len(doc["frames"]) for doc in docs), unit="frame", desc=f"order {order}",
                   quiet=args.quiet)
    for folder, doc in zip(folders, docs, strict=True):
        watcher = BoardWatcher(readers["learned"]) if first else None
        for i, frame in enumerate(doc["frames"]):
            bar.update()
            image = load_image(folder / frame["file"])
            if watcher is not None:
                start = time.perf_counter()
                result = watcher.observe(image, frame["file"])
                elapsed = (time.perf_counter() - start) * 1e3
                watch_ms.append(elapsed)
                if result.reading is not None and len(result.reading.read_cells) < len(geometry.cells):
                    few_ms.append(elapsed)
            if frame["hand"] or i % 2:
                continue
            still.append((image, frame["cells"]))
            for name, reader in readers.items():
                reading = reader.read(image, frame["file"])
                faces = {format_address(c): r.face for c, r in reading.cells.items()}
                tallies[name].add(frame["cells"], faces, len(geometry.cells), reading.ms)
            if first:
                board_ms.append(board_part_ms(readers["learned"], image))
    bar.close()
    tiles = [len(cells) for _, cells in still]
    print(f"order {order} ({len(geometry.cells)} cells): {len(still)} still frames of {len(folders)} games, "
          f"{min(tiles)}..{max(tiles)} tiles")
    for name, tally in tallies.items():
        print(f"  {name:<8} {tally.line()}")
    if first:
        print(f"  board part alone (locate, rectify, presence, crops; no face reading): "
              f"{percentiles(board_ms)}")
        print(f"  few cells changed (locate + gate + read of changed cells): {len(few_ms)} reads, "
              f"{percentiles(few_ms)}")
        print(f"  every frame through BoardWatcher.observe (gate; reads when ready and changed): "
              f"{len(watch_ms)} frames, {percentiles(watch_ms)}, {1000 / np.mean(watch_ms):.0f} frames/s")
        baseline(readers["learned"], still, tallies["learned"], geometry.cells, args)
    return tallies


def baseline(reader: BoardReader, still: list[tuple[np.ndarray, dict[str, str]]], learned: Tally,
             cells: object, args: argparse.Namespace) -> None:
    """The naive baseline (pytesseract on every cell crop) on a few of the still frames."""
    if args.baseline_frames <= 0:
        return
    base = Tally()
    step = max(1, len(still) // args.baseline_frames)
    for image, truth in progress(still[::step][: args.baseline_frames], desc="naive baseline", unit="frame",
                                 quiet=args.quiet):
        faces, ms = naive_read(reader, image)
        base.add(truth, faces, len(cells), ms)  # type: ignore[arg-type]
    print(f"  naive baseline (pytesseract on every cell crop): {base.line()}; the full read is "
          f"{np.median(base.ms) / np.median(learned.ms):.0f}x faster (medians)")


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=lambda text: [int(o) for o in text.split(",")], default=[9, 13, 18],
                        help="board orders, comma-separated (default 9,13,18)")
    parser.add_argument("--games", type=int, default=4, help="games per order")
    parser.add_argument("--size", type=size_in(*LIVE_SIZES), default=CAMERA_SIZE,
                        help="camera frame WIDTHxHEIGHT (default: a live camera's, {}x{})".format(
                            *CAMERA_SIZE))
    parser.add_argument("--old", action=argparse.BooleanOptionalAction, default=True,
                        help="also read with the glyph reader the learned reader replaced (default on)")
    parser.add_argument("--baseline-frames", type=int, default=4, help="frames read by the naive baseline")
    parser.add_argument("--split", choices=SPLITS, default="held_out",
                        help="the tiles' font split (default held_out; train: the frames the reader's "
                        "settings are chosen on)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"first game's seed (default {SEED})")
    parser.add_argument("--keep", help="keep the recordings in this folder (and reuse them next time)")
    add_quiet_option(parser)
    args = parser.parse_args()
    keep_freed_memory()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cv2.setNumThreads(1)
    work = Path(args.keep or tempfile.mkdtemp(prefix="bench_read_"))
    print(f"{args.split} tile styles, games from seed {args.seed}, any rotation, "
          f"{args.size[0]}x{args.size[1]} JPEG, one core; orders {args.orders}, {args.games} games each")
    totals: dict[str, Tally] = {}
    for order in args.orders:
        for name, tally in read_order(order, args, work).items():
            totals[name] = totals[name].merged(tally) if name in totals else tally
    print("all orders:")
    for name, tally in totals.items():
        print(f"  {name:<8} {tally.line()}")
    if "glyph" in totals:
        ratio = np.median(totals["learned"].ms) / np.median(totals["glyph"].ms)
        print(f"  learned / glyph median full read: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
