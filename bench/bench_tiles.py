"""Issue-4 figures: loose Rummikub tiles found and read in the real photos of valid/.

A detection matches a labelled tile when its centre lies inside the labelled polygon (each
labelled tile is matched at most once). Prints tile recall and precision, face accuracy and
colour accuracy over matched tiles (colour over non-joker tiles), and the median and 95th
percentile milliseconds per photo (``find_tiles`` on one core, model already loaded).

Usage: .venv/bin/python bench/bench_tiles.py [--split valid] [--photos DIR] [--errors]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.loose_tiles import find_tiles
from vision.sim.crops import read_class_names, read_labels
from vision.tile_reader import TileReader

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=REPO.parent / "shared" / "data" / "rummikub-photos")
    parser.add_argument("--split", default="valid")
    parser.add_argument("--errors", action="store_true", help="list every miss and misread")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    names = read_class_names(args.photos / "data.yaml")
    reader = TileReader()
    allowed = frozenset([str(v) for v in range(1, 14)] + ["joker"])
    split = args.photos / args.split
    labelled = found = matched = face_ok = colour_n = colour_ok = 0
    times = []
    confusions: Counter[tuple[str, str]] = Counter()
    for path in sorted((split / "images").glob("*.jpg")):
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        truth = read_labels(split / "labels" / f"{path.stem}.txt", path, (w, h), names)
        start = time.perf_counter()
        tiles = find_tiles(image, reader, allowed)
        times.append((time.perf_counter() - start) * 1000)
        labelled += len(truth)
        found += len(tiles)
        taken: set[int] = set()
        for tile in tiles:
            hit = next((i for i, t in enumerate(truth) if i not in taken
                        and cv2.pointPolygonTest(t.polygon, tile.center, False) >= 0), None)
            if hit is None:
                if args.errors:
                    print(f"{path.name[:16]}: extra {tile.face} at {tile.center[0]:.0f},{tile.center[1]:.0f}")
                continue
            taken.add(hit)
            matched += 1
            t = truth[hit]
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
                if i not in taken:
                    c = t.polygon.mean(axis=0)
                    print(f"{path.name[:16]}: missed {t.name} at {c[0]:.0f},{c[1]:.0f}")
    print(f"split {args.split}: {len(times)} photos, {labelled} labelled tiles, {found} detections")
    print(f"recall     {matched / max(labelled, 1):.4f}  ({matched}/{labelled})")
    print(f"precision  {matched / max(found, 1):.4f}  ({matched}/{found})")
    print(f"face acc.  {face_ok / max(matched, 1):.4f}  ({face_ok}/{matched} matched tiles)")
    print(f"colour acc.{colour_ok / max(colour_n, 1):.4f}  ({colour_ok}/{colour_n} matched non-joker tiles)")
    print(f"ms/photo   median {np.median(times):.1f}  p95 {np.percentile(times, 95):.1f}  (one core)")
    if confusions:
        print("commonest misreads (true -> read):",
              ", ".join(f"{a}->{b} x{n}" for (a, b), n in confusions.most_common(8)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
