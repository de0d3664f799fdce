"""The tile finder on labelled photos and rendered tables: recall, precision and outline overlap.

A tile found matches a true tile when their regions overlap by at least half their union
(vision.sim.finder_scenes.matched_overlaps). Prints, per split:
recall (true tiles matched), precision (tiles found that match), the mean overlap of the matches,
and the median milliseconds a photo (one core, OpenCV single-threaded, the model loaded).

Splits: ``valid`` / ``train`` (the labelled Rummikub photos: polygons drawn into regions; valid/
chooses between finished finders, train/ fitted them), ``held_out`` (photos of
vision.sim.finder_scenes in the HELD-OUT font families, from a seed range no training used, per
kind of photo). ``--set NAME`` keeps only the photos of one photo set (the name before the number:
"rummy3"), for a finder trained without that set.

Usage: PYTHONPATH=. .venv/bin/python bench/bench_finder.py [--splits valid,held_out] [--scenes 150]
       [--model PATH] [--set NAME]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tilescribe.progress import add_quiet_option, progress
from vision.capture.images import load_image
from vision.sim.crops import read_class_names, read_labels
from vision.sim.finder_scenes import KINDS, finder_scene, matched_overlaps
from vision.table.finder import FINDER_PATH, FoundTile, TileFinder

REPO = Path(__file__).resolve().parent.parent
PHOTOS = REPO.parent / "shared" / "data" / "rummikub-photos"
#: The held-out photos' seeds start here (training scenes use seeds below 10,000,000).
HELD_OUT_SEED = 50_000_000


@dataclass(frozen=True, slots=True)
class Truth:
    """A photo and its true tiles: ``ids`` int32 H x W, 0 where no tile is, k on the k-th tile."""

    name: str
    image: np.ndarray
    ids: np.ndarray
    group: str


def photo_set(name: str) -> str:
    """The set a labelled photo belongs to: its name up to the number ("rummy3-12_jpeg..." -> "rummy3")."""
    match = re.match(r"([A-Za-z]+\d*?)-\d+", name)
    return match.group(1) if match else name


def polygon_ids(shape: tuple[int, int], polygons: Sequence[np.ndarray]) -> np.ndarray:
    """Polygons ((x, y) pixels, float [n, 2] each) drawn into an int32 region map of ``shape`` (H, W),
    k on the k-th polygon (a later one over an earlier one)."""
    ids = np.zeros(shape, np.int32)
    for k, polygon in enumerate(polygons, start=1):
        cv2.fillPoly(ids, [np.round(polygon * 16).astype(np.int32)], k, cv2.LINE_8, shift=4)
    return ids


def labelled_photos(folder: Path, only_set: str | None = None) -> Iterator[Truth]:
    """The photos of one split of the labelled photos (``folder``/images, ``folder``/labels: YOLO
    polygons), each with its tiles' regions.

    Raises:
        ImageError, CropError: a photo or label file that cannot be read (named).
    """
    names = read_class_names(folder.parent / "data.yaml")
    for photo in sorted((folder / "images").glob("*.jpg")):
        if only_set is not None and photo_set(photo.name) != only_set:
            continue
        image = load_image(photo)
        h, w = image.shape[:2]
        labels = read_labels(folder / "labels" / (photo.stem + ".txt"), photo, (w, h), names)
        polygons = [label.polygon.astype(np.float64) for label in labels]
        yield Truth(photo.name, image, polygon_ids((h, w), polygons), photo_set(photo.name))


def held_out_scenes(count: int, seed: int = HELD_OUT_SEED) -> Iterator[Truth]:
    """``count`` photos of vision.sim.finder_scenes in the HELD-OUT families, seeds from ``seed``."""
    for k in range(count):
        scene = finder_scene(seed + k, "held_out")
        yield Truth(f"scene {seed + k}", scene.image, scene.ids, scene.kind)


@dataclass
class Tally:
    """Counts over photos."""

    truth: int = 0
    found: int = 0
    matched: int = 0
    overlap: float = 0.0
    photos: int = 0

    def add(self, found: Sequence[FoundTile], ids: np.ndarray) -> None:
        overlaps = matched_overlaps(found, ids)
        self.truth += len(np.unique(ids)) - (1 if (ids == 0).any() else 0)
        self.found += len(found)
        self.matched += len(overlaps)
        self.overlap += sum(overlaps)
        self.photos += 1

    def __iadd__(self, other: Tally) -> Tally:
        self.truth += other.truth
        self.found += other.found
        self.matched += other.matched
        self.overlap += other.overlap
        self.photos += other.photos
        return self

    def row(self, name: str) -> dict[str, object]:
        return {"split": name, "photos": self.photos, "tiles": self.truth, "found": self.found,
                "recall": self.matched / max(1, self.truth), "precision": self.matched / max(1, self.found),
                "overlap": self.overlap / max(1, self.matched)}


def measure(finder: TileFinder, items: Iterable[Truth], quiet: bool = True
            ) -> tuple[dict[str, Tally], list[float]]:
    """The finder over ``items``: a tally per item group and the milliseconds of each find."""
    tallies: dict[str, Tally] = {}
    times = []
    for item in progress(items, desc="photos", quiet=quiet):
        start = time.perf_counter()
        found = finder.find(item.image)
        times.append((time.perf_counter() - start) * 1000)
        tallies.setdefault(item.group, Tally()).add(found, item.ids)
    return tallies, times


def split_rows(finder: TileFinder, name: str, items: Iterable[Truth], per_group: bool,
               quiet: bool = True) -> tuple[list[dict[str, object]], list[float]]:
    """The figures of one split (``per_group``: a row per group of KINDS first, then the total
    row) and the milliseconds of each find."""
    tallies, times = measure(finder, items, quiet)
    rows, total = [], Tally()
    for group, tally in sorted(tallies.items()):
        if per_group and group in KINDS:
            rows.append(tally.row(f"{name} {group}"))
        total += tally
    return rows + [total.row(name)], times


#: The figures' header line (format_row's columns).
HEADER = (f"{'split':<24} {'photos':>6} {'tiles':>6} {'found':>6} {'recall':>8} {'precision':>8} "
          f"{'overlap':>7}")


def format_row(row: dict[str, object]) -> str:
    return (f"{row['split']:<24} {row['photos']:>6} {row['tiles']:>6} {row['found']:>6} "
            f"{100 * float(row['recall']):>7.2f}% {100 * float(row['precision']):>7.2f}% "  # type: ignore[arg-type]
            f"{float(row['overlap']):>7.3f}")  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", default="valid,held_out", help="comma-separated: valid, train, held_out")
    parser.add_argument("--scenes", type=int, default=150, help="held-out photos rendered")
    parser.add_argument("--model", type=Path, default=FINDER_PATH)
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--set", dest="only_set", default=None, help="only the photos of this photo set")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    finder = TileFinder(args.model)
    print(HEADER)
    for split in args.splits.split(","):
        if split == "held_out":
            items: Iterable[Truth] = held_out_scenes(args.scenes)
        else:
            items = labelled_photos(args.photos / split, args.only_set)
        rows, times = split_rows(finder, split, items, split == "held_out", args.quiet)
        for row in rows[:-1]:
            print(format_row(row))
        print(format_row(rows[-1]) + f"   median {np.median(times):.1f} ms a photo")
    return 0


if __name__ == "__main__":
    sys.exit(main())
