"""The tile reader's training and evaluation data: labelled 40 x 40 crops of every tile of the four
games, cut with :func:`vision.reader.crop.tile_crop` as the board and table stages cut them.

- :func:`rendered_crops`: rendered tiles (vision.sim.tiles, vision.sim.game_tiles) at a random size
  (24..140 px) and turn (0..360 degrees) on their real surroundings: MODLINSEQ pentagons on a patch
  of the printed hex sheet (§1-2: faint cell outlines and addresses, neighbours in view), Yushino
  squares on a square board (premium squares with their labels), Super Wild and Holominoes tiles
  loose on table tops with neighbours that sometimes touch. A Holominoes crop is centred on one
  numbered corner's digit and its size is the tile's radius. About ``NONE_SHARE`` of the crops
  are "none": an empty cell, bare table, a gap between tiles, a bitten Holominoes corner.
- :func:`photo_crops`: every labelled tile of the Rummikub photos, at random turns.

Both then pass the same camera: mild perspective, light gradients, shadows, glare, colour casts,
contrast, Gaussian and motion blur, sensor noise, JPEG (quality 40..95), and a finder's error
(centre off by up to 8 % of the size, size off by up to 10 %).

Look at samples with ``python -m vision.sim.tile_crops --split train --n 400 --out mosaic.png``.
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.reader.crop import INPUT_PX, tile_crop
from vision.reader.faces import COLOUR_NAMES, COLOURS, FACES, NO_COLOUR
from vision.sim.camera import jpeg_round_trip
from vision.sim.crops import has_label_errata, read_class_names, read_labels
from vision.sim.options import SPLITS, Split
from vision.sim.tile_scenes import DRAW_MAX, SCENES, table_bank

#: The games whose tiles are rendered, and the name of the real Rummikub photos' crops.
ALL_GAMES: tuple[str, ...] = tuple(SCENES)
PHOTO_GAME = "rummikub-photo"
#: Share of "none" crops among the rendered ones (enough to learn "no tile", few enough not to
#: crowd out the ~25 face classes).
NONE_SHARE = 0.08
_PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
_LETTER = {name: letter for letter, name in COLOUR_NAMES.items()}
_NOISE_SIDE = 2 * int(DRAW_MAX)  # holds camera_crop's largest view


@dataclass(eq=False)
class CropSet:
    """Labelled crops.

    Attributes:
        images: BGR uint8 [n, INPUT_PX, INPUT_PX, 3].
        faces: int16 [n], indices into vision.reader.faces.FACES.
        colours: int8 [n], indices into vision.reader.faces.COLOURS ("-" for sets without colours).
        games: str [n]: "modlinseq", "yushino", "superwild", "holominoes" or "rummikub-photo".
        ups: float32 [n]: which way the print's up points in the crop, degrees counter-clockwise
            as seen (vision.reader.crop.upright turns it upright); NaN where unknown (photos,
            "none").
    """

    images: np.ndarray
    faces: np.ndarray
    colours: np.ndarray
    games: np.ndarray
    ups: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.images)
        if self.images.shape[1:] != (INPUT_PX, INPUT_PX, 3) or self.images.dtype != np.uint8:
            raise ValueError(f"crop images must be uint8 [n, {INPUT_PX}, {INPUT_PX}, 3], "
                             f"got {self.images.dtype} {self.images.shape}")
        if not len(self.faces) == len(self.colours) == len(self.games) == len(self.ups) == n:
            raise ValueError("crop images, faces, colours, games and ups differ in length")

    def __len__(self) -> int:
        return len(self.images)

    @staticmethod
    def concatenate(sets: Sequence[CropSet]) -> CropSet:
        """One set holding the crops of ``sets`` in order."""
        return CropSet(
            np.concatenate([s.images for s in sets]).astype(np.uint8, copy=False),  # no second copy
            np.concatenate([s.faces for s in sets]).astype(np.int16),
            np.concatenate([s.colours for s in sets]).astype(np.int8),
            np.concatenate([s.games for s in sets]).astype(str),
            np.concatenate([s.ups for s in sets]).astype(np.float32),
        )


def rendered_crops(split: Split, n: int, seed: int, games: tuple[str, ...] = ALL_GAMES) -> CropSet:
    """Render ``n`` labelled crops of tiles of ``games`` in the fonts of ``split``.

    Each crop draws a game uniformly, then a face of that game uniformly (or "none" with
    probability NONE_SHARE): MODLINSEQ "0".."19", "#", "marker"; Yushino "0".."9", "#"; Super Wild
    "1".."13" but 6 and 9, "6/9", "joker" (colours K, B, O, R; the Super Wild "-"); Holominoes
    "1".."6". Faces shared by games are therefore more frequent (about 8.6 % each for "1".."5",
    1 % for "14".."19"). Colour is "-" but on Super Wild numbers. The same arguments give the
    same bytes.

    Args:
        split: the font split, "train" or "held_out" (held-out fonts are for figures only).
        n: number of crops.
        seed: seeds everything drawn.
        games: the games to draw from (ALL_GAMES by default).

    Returns:
        A CropSet of n crops (BGR uint8 [n, 40, 40, 3]) with their labels.

    Raises:
        ValueError: for an unknown split or game, or n < 0.
    """
    if split not in SPLITS or not games or any(g not in SCENES for g in games) or n < 0:
        raise ValueError(f"rendered_crops: need a split of {SPLITS}, games of {ALL_GAMES} and n >= 0")
    rng = np.random.default_rng(seed)
    tables = table_bank(rng)
    images = np.empty((n, INPUT_PX, INPUT_PX, 3), np.uint8)
    faces, colours, ups, names = np.empty(n, np.int16), np.empty(n, np.int8), np.empty(n, np.float32), []
    for i in range(n):
        game = games[int(rng.integers(len(games)))]
        scene = SCENES[game](rng, split, tables, bool(rng.random() < NONE_SHARE))
        images[i], turn = camera_crop(scene.canvas, scene.centre, scene.size, rng)
        faces[i], colours[i] = FACES.index(scene.face), COLOURS.index(scene.colour)
        ups[i] = (scene.up_deg - turn) % 360.0
        names.append(game)
    return CropSet(images, faces, colours, np.array(names, dtype=str), ups)


def photo_crops(photos_dir: Path, seed: int, per_tile: int = 4) -> CropSet:
    """Crops of every labelled tile of the Rummikub photos in ``photos_dir``, each at ``per_tile``
    random turns through :func:`camera_crop`.

    ``photos_dir`` holds images/ and labels/ (YOLO polygons); data.yaml (class names such as
    "black_7", "joker") lies in it or its parent. A tile's centre and size are those of the rotated
    rectangle fitted to its polygon (size = its diagonal, the diameter of the circle through its
    corners). Photos listed by vision.sim.crops.has_label_errata are left out. Labels: "black_7"
    -> face "7", colour "K"; "joker" -> face "joker", colour "-".

    Raises:
        ValueError: when the folder has no images/, labels/ or data.yaml, a photo (.jpg, .jpeg,
            .png) has no label file or cannot be read, or per_tile < 1.
        vision.sim.crops.CropError: on a malformed label line (names the file and line).
    """
    yaml = next((p for p in (photos_dir / "data.yaml", photos_dir.parent / "data.yaml") if p.is_file()), None)
    if yaml is None or not (photos_dir / "images").is_dir() or not (photos_dir / "labels").is_dir():
        raise ValueError(f"{photos_dir}: expected images/, labels/ and data.yaml (here or in the parent)")
    if per_tile < 1:
        raise ValueError(f"per_tile must be >= 1, got {per_tile}")
    names = read_class_names(yaml)
    rng = np.random.default_rng(seed)
    crops, faces, colours = [], [], []
    for photo_path in sorted((photos_dir / "images").iterdir()):
        label_file = photos_dir / "labels" / f"{photo_path.stem}.txt"
        if photo_path.suffix.lower() not in _PHOTO_SUFFIXES or has_label_errata(photo_path.name):
            continue
        if not label_file.is_file():
            raise ValueError(f"{photo_path}: no label file {label_file.name} in labels/")
        photo = cv2.imread(str(photo_path), cv2.IMREAD_COLOR)
        if photo is None:
            raise ValueError(f"{photo_path}: not a readable image")
        for tile in read_labels(label_file, photo_path, (photo.shape[1], photo.shape[0]), names):
            (cx, cy), (w, h), _ = cv2.minAreaRect(tile.polygon.astype(np.float32))
            face, colour = ("joker", NO_COLOUR) if tile.name == "joker" else (tile.face, _LETTER[tile.colour])
            for _ in range(per_tile):
                crops.append(camera_crop(photo, (cx, cy), math.hypot(w, h), rng)[0])
                faces.append(FACES.index(face))
                colours.append(COLOURS.index(colour))
    images = np.array(crops, np.uint8).reshape(-1, INPUT_PX, INPUT_PX, 3)
    return CropSet(images, np.array(faces, np.int16), np.array(colours, np.int8),
                   np.full(len(crops), PHOTO_GAME), np.full(len(crops), np.nan, np.float32))


def camera_crop(
    image: np.ndarray, centre: Sequence[float], size: float, rng: np.random.Generator
) -> tuple[np.ndarray, float]:
    """One training crop of the tile at ``centre`` (x, y) with ``size`` (pixels) in ``image`` (BGR
    uint8): turned by a uniform random angle with mild perspective, degraded like a camera frame
    (light, shadow, glare, colour cast, blur, noise, JPEG), and cut by tile_crop with the finder's
    error. A tile larger than DRAW_MAX is shrunk to it first (INTER_AREA).

    Returns:
        (crop, turn): the crop, BGR uint8 [INPUT_PX, INPUT_PX, 3], and the turn it was given, in
        degrees clockwise as seen (what was up in ``image`` points ``-turn`` counter-clockwise).

    Raises:
        ValueError: ``size`` is not positive or ``image`` is not BGR uint8.
    """
    if size <= 0 or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"camera_crop needs a BGR uint8 image and a positive size, got "
                         f"{image.dtype} {image.shape} and {size!r}")
    side = int(math.ceil(1.45 * size)) + 2  # holds the crop (1.1 x 1.1 x size) and the centre's error
    half = side / 2
    turn = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(turn), math.sin(turn)
    tilt = rng.uniform(-0.1, 0.1, 2) / size  # up to 10 % scale change across a tile's size
    # width and slant beyond the fonts' own (condensed, extended, oblique type designs)
    skew = np.array([[1 + rng.uniform(-0.15, 0.15), rng.uniform(-0.15, 0.15), 0], [0, 1, 0], [*tilt, 1]])
    matrix = np.array([[c, -s, half], [s, c, half], [0, 0, 1]]) @ skew @ np.array(
        [[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]])
    view = cv2.warpPerspective(image, matrix, (side, side), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
    if size > DRAW_MAX:  # a large tile (a photo's): shrink the view, as the crop would
        side = int(math.ceil(1.45 * DRAW_MAX)) + 2
        size *= side / view.shape[0]
        view = cv2.resize(view, (side, side), interpolation=cv2.INTER_AREA)
        half = side / 2
    view = _photometric(_ink_weight(view, size, rng), size, rng)
    view = jpeg_round_trip(view, int(rng.integers(40, 96)))
    offset = rng.uniform(-0.08, 0.08, 2) * size
    crop = tile_crop(view, (half + offset[0], half + offset[1]), size * rng.uniform(0.9, 1.1))
    return crop, math.degrees(turn)


def _ink_weight(view: np.ndarray, size: float, rng: np.random.Generator) -> np.ndarray:
    """Strokes a little bolder or lighter than the font's own, on four crops in ten: a grey-level
    erosion or dilation of the BGR uint8 view by a pixel or two (what separates a type design's
    weights at the sizes tiles are drawn)."""
    roll = rng.random()
    if roll >= 0.4:
        return view
    k = 3 if size > 50 else 2
    kernel = np.ones((k, k), np.uint8)
    return cv2.erode(view, kernel) if roll < 0.2 else cv2.dilate(view, kernel)


def _photometric(view: np.ndarray, size: float, rng: np.random.Generator) -> np.ndarray:
    """Light gradient, shadow, glare, colour cast, contrast, blur and noise on a BGR uint8 view."""
    h, w = view.shape[:2]
    ys = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    xs = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    field = 1 + rng.uniform(-0.3, 0.3) * xs + rng.uniform(-0.3, 0.3) * ys
    if rng.random() < 0.3:  # a soft shadow edge (a hand, the camera) across the view
        a = rng.uniform(0, 2 * math.pi)
        edge = (xs * math.cos(a) + ys * math.sin(a) - rng.uniform(-0.8, 0.8)) / rng.uniform(0.03, 0.3)
        field = field * (1 - rng.uniform(0.2, 0.6) / (1 + np.exp(-np.clip(edge, -30, 30))))
    contrast = rng.uniform(0.7, 1.15)  # about the view's mean grey
    gain = (rng.uniform(0.55, 1.3) * contrast * rng.uniform(0.85, 1.15, 3)).astype(np.float32)
    image = view.astype(np.float32) * (field[..., None] * gain)
    image += np.float32((1 - contrast) * np.mean(cv2.mean(view)[:3]) * float(gain.mean()) / contrast)
    if rng.random() < 0.2:  # a glare spot of the lamp on the glossy tile
        gx, gy, r = rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7), rng.uniform(0.08, 0.4)
        image += (rng.uniform(60, 180) * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * r * r)))[..., None]
    roll = rng.random()
    if roll < 0.45:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 0.6 + size / 80)), np.float32)
    elif roll < 0.6:
        image = _motion_blur(image, rng.uniform(2, 2 + size / 20), rng.uniform(0, 180))
    y, x = (int(rng.integers(0, _NOISE_SIDE - n + 1)) for n in (h, w))
    image += _noise()[y : y + h, x : x + w] * np.float32(rng.uniform(0, 8))
    return np.clip(image, 0, 255).astype(np.uint8)


@functools.cache
def _noise() -> np.ndarray:
    """Unit Gaussian sensor noise (float32 [_NOISE_SIDE, _NOISE_SIDE, 3]) to take random windows of."""
    return np.random.default_rng(0).standard_normal((_NOISE_SIDE, _NOISE_SIDE, 3), dtype=np.float32)


def _motion_blur(image: np.ndarray, length: float, angle_deg: float) -> np.ndarray:
    k = int(math.ceil(length)) | 1
    line = np.zeros((k, k), np.float32)
    line[k // 2, :] = 1
    kernel = cv2.warpAffine(line, cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle_deg, 1.0), (k, k))
    return cv2.filter2D(image, -1, np.asarray(kernel, np.float32) / max(float(kernel.sum()), 1e-6))




def mosaic(crops: CropSet, columns: int = 20, scale: int = 2) -> np.ndarray:
    """A labelled grid of crops (BGR uint8): each crop enlarged ``scale`` times over its face, colour
    and game initial."""
    cell_w, cell_h = INPUT_PX * scale, INPUT_PX * scale + 14
    rows = max(1, math.ceil(len(crops) / columns))
    sheet = np.full((rows * cell_h, columns * cell_w, 3), 255, np.uint8)
    for i in range(len(crops)):
        y, x = (i // columns) * cell_h, (i % columns) * cell_w
        sheet[y : y + INPUT_PX * scale, x : x + cell_w] = cv2.resize(
            crops.images[i], (cell_w, INPUT_PX * scale), interpolation=cv2.INTER_NEAREST)
        colour = COLOURS[crops.colours[i]]
        shown = "" if colour == NO_COLOUR else f" {colour}"
        label = f"{FACES[crops.faces[i]]}{shown} {str(crops.games[i])[0]}"
        cv2.putText(sheet, label, (x + 2, y + cell_h - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 0, 0), 1,
                    cv2.LINE_AA)
    return sheet


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.sim.tile_crops``: write a labelled mosaic of sample crops."""
    parser = argparse.ArgumentParser(prog="python -m vision.sim.tile_crops", description=main.__doc__)
    parser.add_argument("--split", choices=SPLITS, default="train", help="font split of the rendered tiles")
    parser.add_argument("--n", type=int, default=400, help="number of rendered crops")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", nargs="+", choices=ALL_GAMES, default=list(ALL_GAMES))
    parser.add_argument("--photos", type=Path, help="also crops of the labelled photos in this folder")
    parser.add_argument("--out", type=Path, required=True, help="mosaic image file (.png)")
    args = parser.parse_args(argv)
    if args.n < 0:
        parser.error("--n must be >= 0")
    try:
        crops = rendered_crops(args.split, args.n, args.seed, tuple(args.games))
        if args.photos is not None:
            crops = CropSet.concatenate([crops, photo_crops(args.photos, args.seed, per_tile=1)])
    except (ValueError, OSError) as exc:
        print(f"tile_crops: {exc}", file=sys.stderr)
        return 2
    if not cv2.imwrite(str(args.out), mosaic(crops)):
        print(f"tile_crops: cannot write {args.out}", file=sys.stderr)
        return 2
    print(f"{len(crops)} crops -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
