"""Cut real Rummikub tile crops from the labelled photos, deskewed to upright.

The photos (../shared/data/rummikub-photos/train, CC BY 4.0, Roboflow Universe project
rummikub-nvypk-8cwem) carry one YOLO polygon per tile. Each polygon is fitted with a rotated
rectangle, turned so that the long side is vertical and the tile is as close to the photo's own
upright as possible, and warped to a fixed size; crops whose number does not sit in the upper
part (tiles lying upside down in the photo) or whose ink colour disagrees with the label are left
out. The small set shipped in vision/sim/data was made with::

    .venv/bin/python -m vision.sim.crops ../shared/data/rummikub-photos/train vision/sim/data

Run it again to rebuild the set; it is deterministic.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

#: Size (width, height) in pixels of every shipped crop: the Rummikub tile's portrait aspect.
CROP_SIZE: tuple[int, int] = (72, 96)


#: OpenCV hue ranges (0..180) of the printed ink colours; black is told by low saturation.
_HUE_RANGES: dict[str, tuple[int, int]] = {"blue": (95, 130), "orange": (8, 28), "red": (160, 185)}


class CropError(ValueError):
    """A label file or photo that cannot be cut into crops (names the file and line)."""


@dataclass(frozen=True, slots=True)
class LabelledTile:
    """One labelled tile of a photo.

    Attributes:
        photo: path of the photo.
        line: 1-based line of the label file.
        name: class name from data.yaml, e.g. "red_7" or "joker".
        polygon: float32 array (shape: [n, 2]) of polygon corners in photo pixels (x, y).
    """

    photo: Path
    line: int
    name: str
    polygon: np.ndarray

    def __post_init__(self) -> None:
        if self.polygon.ndim != 2 or self.polygon.shape[1] != 2 or len(self.polygon) < 3:
            raise ValueError(f"{self.photo}:{self.line}: polygon needs >= 3 points, got {self.polygon.shape}")

    @property
    def face(self) -> str:
        """The printed face: "1".."13" or "joker"."""
        return self.name.rsplit("_", 1)[-1] if "_" in self.name else self.name

    @property
    def colour(self) -> str:
        """The ink colour name ("black", "blue", "orange", "red"), or "joker"."""
        return self.name.split("_", 1)[0]


@functools.cache
def _errata() -> tuple[str, ...]:
    text = resources.files("vision.sim.data").joinpath("label_errata.txt").read_text(encoding="utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def has_label_errata(name: str) -> bool:
    """True when the photo (or label file) called ``name`` is one whose labels are known to be
    wrong (vision/sim/data/label_errata.txt, from the photo set's README): leave it out of training
    data."""
    return name.startswith(_errata())


def read_class_names(data_yaml: Path) -> list[str]:
    """The ``names`` list of a Roboflow data.yaml (one ``- name`` a line).

    Raises:
        CropError: when the file has no names list.
    """
    names: list[str] = []
    in_names = False
    for line in data_yaml.read_text(encoding="utf-8").splitlines():
        if line.startswith("names:"):
            in_names = True
        elif in_names and line.startswith("- "):
            names.append(line[2:].strip())
        elif in_names:
            break
    if not names:
        raise CropError(f"{data_yaml}: no 'names:' list found")
    return names


def read_labels(label_file: Path, photo: Path, size: tuple[int, int], names: list[str]) -> list[LabelledTile]:
    """Parse one YOLO polygon label file.

    Args:
        label_file: ``class x1 y1 x2 y2 ...`` per line, coordinates normalised to 0..1.
        photo: the photo the labels belong to.
        size: (width, height) of the photo in pixels.
        names: class names indexed by class id.

    Raises:
        CropError: on a malformed line (names the file and line).
    """
    tiles = []
    for number, line in enumerate(label_file.read_text(encoding="utf-8").splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        try:
            class_id = int(fields[0])
            coords = np.array([float(v) for v in fields[1:]], dtype=np.float32)
        except ValueError as exc:
            raise CropError(f"{label_file}:{number}: not a YOLO polygon line: {line!r}") from exc
        if class_id not in range(len(names)) or len(coords) < 6 or len(coords) % 2:
            raise CropError(f"{label_file}:{number}: bad class id or odd coordinate count: {line!r}")
        polygon = coords.reshape(-1, 2) * np.array(size, dtype=np.float32)
        tiles.append(LabelledTile(photo, number, names[class_id], polygon))
    return tiles


def match_labelled(centres: Sequence[tuple[float, float]], truth: Sequence[LabelledTile]) -> dict[int, int]:
    """Which labelled tile each detection is: a detection matches the first labelled tile not yet
    matched whose polygon holds its centre (x, y photo pixels), in the detections' order.

    Returns:
        detection index -> index into ``truth``, for the detections matched (the rest are extra).
    """
    matched: dict[int, int] = {}
    for i, (x, y) in enumerate(centres):
        hit = next((k for k, t in enumerate(truth) if k not in matched.values()
                    and cv2.pointPolygonTest(t.polygon, (float(x), float(y)), False) >= 0), None)
        if hit is not None:
            matched[i] = hit
    return matched


def deskew(photo: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Warp one tile to an upright portrait crop of CROP_SIZE.

    The polygon's rotated bounding rectangle is turned so that its long side is vertical and its
    top edge is the one nearest the photo's top (the photos show tiles roughly upright).

    Args:
        photo: BGR uint8, H x W x 3.
        polygon: float32 (shape: [n, 2]) corners in photo pixels.

    Returns:
        BGR uint8, CROP_SIZE[1] x CROP_SIZE[0] x 3.
    """
    box = cv2.boxPoints(cv2.minAreaRect(polygon.astype(np.float32)))
    centre = box.mean(axis=0)
    # Order corners as top-left, top-right, bottom-right, bottom-left by angle around the centre.
    angles = np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0])
    box = box[np.argsort(angles)]  # clockwise in image coordinates, starting near the left
    best = None
    for shift in range(4):
        quad = np.roll(box, -shift, axis=0)
        width = np.linalg.norm(quad[1] - quad[0])
        height = np.linalg.norm(quad[3] - quad[0])
        if height < width:
            continue
        top_y = (quad[0][1] + quad[1][1]) / 2
        if best is None or top_y < best[0]:
            best = (top_y, quad)
    quad = best[1] if best is not None else box
    w, h = CROP_SIZE
    target = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    return cv2.warpPerspective(photo, matrix, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _ink_mask(crop: np.ndarray) -> np.ndarray:
    """Pixels darker than the tile body or strongly saturated (bool, H x W)."""
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    sat, val = hsv[..., 1].astype(np.int32), hsv[..., 2].astype(np.int32)
    return (val < np.median(val) - 40) | _saturated(sat)


def _saturated(sat: np.ndarray) -> np.ndarray:
    """Pixels clearly more saturated than the (possibly warm-lit) tile body."""
    return sat > max(90, int(np.median(sat)) + 70)


def is_upright(crop: np.ndarray) -> bool:
    """Whether the strong ink (the number) lies in the upper part of the crop, away from the rim."""
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    sat, val = hsv[..., 1].astype(np.int32), hsv[..., 2].astype(np.int32)
    strong = (val < np.median(val) - 80) | (sat > 130)
    h, w = strong.shape
    inner = strong[h // 10 : h - h // 10, w // 8 : w - w // 8]
    ys = np.nonzero(inner)[0]
    return len(ys) > 0.02 * inner.size and float(ys.mean()) < 0.4 * inner.shape[0]


def ink_colour(crop: np.ndarray) -> str:
    """Name the ink colour of an upright crop ("black", "blue", "orange", "red" or "unknown").

    Looks inside the rim at the upper 60 % of the tile, where Rummikub prints the number.
    """
    h, w = crop.shape[:2]
    upper = crop[h // 10 : int(h * 0.6), w // 8 : w - w // 8]
    hsv = cv2.cvtColor(upper, cv2.COLOR_BGR2HSV)
    hue, sat, val = (hsv[..., i].astype(np.int32) for i in range(3))
    ink = _ink_mask(upper)
    if ink.sum() < 0.02 * ink.size:
        return "unknown"
    dark = val < np.median(val) - 100
    saturated = ink & _saturated(sat) & ~dark
    if dark.sum() > saturated.sum():
        return "black"
    hues = hue[saturated]
    votes = {name: int(((hues >= lo) & (hues <= hi)).sum()) for name, (lo, hi) in _HUE_RANGES.items()}
    votes["red"] += int((hues <= 7).sum())
    return max(votes, key=lambda name: votes[name])


def _is_usable(tile: LabelledTile, size: tuple[int, int], crop: np.ndarray) -> bool:
    x0, y0 = tile.polygon.min(axis=0)
    x1, y1 = tile.polygon.max(axis=0)
    inside = x0 > 3 and y0 > 3 and x1 < size[0] - 4 and y1 < size[1] - 4
    big_enough = min(x1 - x0, y1 - y0) >= 45
    colour_ok = tile.colour == "joker" or ink_colour(crop) == tile.colour
    return inside and big_enough and colour_ok and (tile.colour == "joker" or is_upright(crop))


def cut_crops(photos_dir: Path, out_dir: Path, per_class: int = 2) -> dict[str, list[dict[str, str]]]:
    """Cut up to ``per_class`` crops of every class from different photos and write them.

    The first crop of each class is assigned to the "train" split, the second to "held_out".

    Args:
        photos_dir: a split folder holding images/ and labels/, with data.yaml one level up.
        out_dir: where the JPEG crops and index.json are written.
        per_class: crops per class.

    Returns:
        The index written to out_dir/index.json: class name -> list of {"file", "split", "source"}.

    Raises:
        CropError: on malformed labels or a missing data.yaml.
    """
    names = read_class_names(photos_dir.parent / "data.yaml")
    chosen: dict[str, list[tuple[float, Path, np.ndarray]]] = {}
    for label_file in sorted((photos_dir / "labels").glob("*.txt")):
        photo_path = photos_dir / "images" / (label_file.stem + ".jpg")
        if has_label_errata(label_file.name) or not photo_path.exists():
            continue
        photo = cv2.imread(str(photo_path))
        if photo is None:
            raise CropError(f"{photo_path}: cannot be read as an image")
        size = (photo.shape[1], photo.shape[0])
        for tile in read_labels(label_file, photo_path, size, names):
            crop = deskew(photo, tile.polygon)
            if not _is_usable(tile, size, crop):
                continue
            area = float(cv2.contourArea(tile.polygon))
            chosen.setdefault(tile.name, []).append((area, photo_path, crop))
    out_dir.mkdir(parents=True, exist_ok=True)
    index: dict[str, list[dict[str, str]]] = {}
    splits = ("train", "held_out")
    for name in sorted(chosen):
        used_photos: set[Path] = set()
        for area, photo_path, crop in sorted(chosen[name], key=lambda c: (-c[0], str(c[1]))):
            if photo_path in used_photos or len(used_photos) == per_class:
                continue
            split = splits[min(len(used_photos), 1)]
            file_name = f"{name}_{len(used_photos)}.jpg"
            cv2.imwrite(str(out_dir / file_name), crop, [cv2.IMWRITE_JPEG_QUALITY, 90])
            index.setdefault(name, []).append(
                {"file": file_name, "split": split, "source": photo_path.name, "area": f"{area:.0f}"}
            )
            used_photos.add(photo_path)
    (out_dir / "index.json").write_text(json.dumps(index, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return index


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: ``python -m vision.sim.crops PHOTOS_SPLIT_DIR OUT_DIR``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", type=Path, help="split folder with images/ and labels/")
    parser.add_argument("out", type=Path, help="output folder")
    parser.add_argument("--per-class", type=int, default=2)
    args = parser.parse_args(argv)
    index = cut_crops(args.photos, args.out, args.per_class)
    missing = sorted(set(read_class_names(args.photos.parent / "data.yaml")) - set(index))
    print(f"{sum(len(v) for v in index.values())} crops of {len(index)} classes; missing: {missing}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
