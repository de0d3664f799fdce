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
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.reader.crop import INPUT_PX, tile_crop
from vision.reader.faces import COLOUR_NAMES, COLOURS, FACES, NO_COLOUR, NOT_A_FACE
from vision.sim.crops import has_label_errata, read_class_names, read_labels
from vision.sim.game_tiles import (
    HOLOMINO_DIGIT_AT,
    HOLOMINO_DIGITS,
    SUPERWILD_FACES,
    SUPERWILD_INKS,
    YUSHINO_FACES,
    render_holomino,
    render_superwild,
    render_yushino,
    sample_game_style,
)
from vision.sim.options import SPLITS, Split
from vision.sim.scene import table_top
from vision.sim.tiles import render_tile, sample_style, tile_outline

#: The games whose tiles are rendered, and the name of the real Rummikub photos' crops.
ALL_GAMES: tuple[str, ...] = ("modlinseq", "yushino", "superwild", "holominoes")
PHOTO_GAME = "rummikub-photo"
#: Share of "none" crops among the rendered ones (enough to learn "no tile", few enough not to
#: crowd out the ~25 face classes).
NONE_SHARE = 0.08
#: Tile sizes (circumscribed diameter; a Holominoes tile's radius) in image pixels: from a far
#: 1080p camera's tile to a close phone's.
SIZE_RANGE: tuple[float, float] = (24.0, 140.0)
MODLINSEQ_FACES: tuple[str, ...] = (*(str(v) for v in range(20)), "#", "marker")
_NO_COLOUR = COLOURS.index(NO_COLOUR)
_LETTER = {name: letter for letter, name in COLOUR_NAMES.items()}
#: A pentagon's circumscribed diameter over its canvas side (regular pentagon filling the width).
_PENTAGON_DIAMETER = 1.0 / math.sin(math.radians(72))
_TABLE_SIDE = 320
_TABLE_BANK = 12


@dataclass
class CropSet:
    """Labelled crops.

    Attributes:
        images: BGR uint8 [n, INPUT_PX, INPUT_PX, 3].
        faces: int16 [n], indices into vision.reader.faces.FACES.
        colours: int8 [n], indices into vision.reader.faces.COLOURS ("-" for sets without colours).
        games: str [n]: "modlinseq", "yushino", "superwild", "holominoes" or "rummikub-photo".
    """

    images: np.ndarray
    faces: np.ndarray
    colours: np.ndarray
    games: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.images)
        if self.images.shape[1:] != (INPUT_PX, INPUT_PX, 3) or self.images.dtype != np.uint8:
            raise ValueError(f"crop images must be uint8 [n, {INPUT_PX}, {INPUT_PX}, 3], "
                             f"got {self.images.dtype} {self.images.shape}")
        if not len(self.faces) == len(self.colours) == len(self.games) == n:
            raise ValueError("crop images, faces, colours and games differ in length")

    def __len__(self) -> int:
        return len(self.images)

    @staticmethod
    def concatenate(sets: Sequence[CropSet]) -> CropSet:
        """One set holding the crops of ``sets`` in order."""
        return CropSet(
            np.concatenate([s.images for s in sets]).astype(np.uint8),
            np.concatenate([s.faces for s in sets]).astype(np.int16),
            np.concatenate([s.colours for s in sets]).astype(np.int8),
            np.concatenate([s.games for s in sets]).astype(str),
        )


@dataclass(frozen=True, slots=True)
class _Scene:
    """A rendered surrounding (BGR uint8), the crop's centre (x, y) and size in its pixels, the label."""

    canvas: np.ndarray
    centre: tuple[float, float]
    size: float
    face: str
    colour: str = NO_COLOUR


def rendered_crops(split: Split, n: int, seed: int, games: tuple[str, ...] = ALL_GAMES) -> CropSet:
    """Render ``n`` labelled crops of tiles of ``games`` in the fonts of ``split``.

    Each crop draws a game uniformly, then a face of that game uniformly (or "none" with
    probability NONE_SHARE). The same arguments give the same bytes.

    Raises:
        ValueError: for an unknown split or game, or n < 0.
    """
    if split not in SPLITS or not games or any(g not in _SCENES for g in games) or n < 0:
        raise ValueError(f"rendered_crops: need a split of {SPLITS}, games of {ALL_GAMES} and n >= 0")
    rng = np.random.default_rng(seed)
    tables = [_table(rng) for _ in range(_TABLE_BANK)]
    images = np.empty((n, INPUT_PX, INPUT_PX, 3), np.uint8)
    faces, colours, names = np.empty(n, np.int16), np.empty(n, np.int8), []
    for i in range(n):
        game = games[int(rng.integers(len(games)))]
        scene = _SCENES[game](rng, split, tables, bool(rng.random() < NONE_SHARE))
        images[i] = camera_crop(scene.canvas, scene.centre, scene.size, rng)
        faces[i], colours[i] = FACES.index(scene.face), COLOURS.index(scene.colour)
        names.append(game)
    return CropSet(images, faces, colours, np.array(names, dtype=str))


def photo_crops(photos_dir: Path, seed: int, per_tile: int = 4) -> CropSet:
    """Crops of every labelled tile of the Rummikub photos in ``photos_dir``, each at ``per_tile``
    random turns through :func:`camera_crop`.

    ``photos_dir`` holds images/ and labels/ (YOLO polygons); data.yaml (class names such as
    "black_7", "joker") lies in it or its parent. A tile's centre and size are those of the rotated
    rectangle fitted to its polygon (size = its diagonal, the diameter of the circle through its
    corners). Photos listed by vision.sim.crops.has_label_errata are left out. Labels: "black_7"
    -> face "7", colour "K"; "joker" -> face "joker", colour "-".

    Raises:
        ValueError: when the folder has no images/, labels/ or data.yaml, or per_tile < 1.
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
        if has_label_errata(photo_path.name) or not label_file.is_file():
            continue
        photo = cv2.imread(str(photo_path), cv2.IMREAD_COLOR)
        if photo is None:
            continue
        for tile in read_labels(label_file, photo_path, (photo.shape[1], photo.shape[0]), names):
            (cx, cy), (w, h), _ = cv2.minAreaRect(tile.polygon.astype(np.float32))
            face, colour = ("joker", NO_COLOUR) if tile.name == "joker" else (tile.face, _LETTER[tile.colour])
            for _ in range(per_tile):
                crops.append(camera_crop(photo, (cx, cy), math.hypot(w, h), rng))
                faces.append(FACES.index(face))
                colours.append(COLOURS.index(colour))
    images = np.array(crops, np.uint8).reshape(-1, INPUT_PX, INPUT_PX, 3)
    return CropSet(images, np.array(faces, np.int16), np.array(colours, np.int8),
                   np.full(len(crops), PHOTO_GAME))


def camera_crop(
    image: np.ndarray, centre: Sequence[float], size: float, rng: np.random.Generator
) -> np.ndarray:
    """One training crop of the tile at ``centre`` (x, y) with ``size`` (pixels) in ``image`` (BGR
    uint8): turned by a uniform random angle with mild perspective, degraded like a camera frame
    (light, shadow, glare, colour cast, blur, noise, JPEG), and cut by tile_crop with the finder's
    error. Returns BGR uint8 [INPUT_PX, INPUT_PX, 3]."""
    side = int(math.ceil(1.6 * size)) + 2  # holds the crop at the largest size and centre errors
    half = side / 2
    turn = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(turn), math.sin(turn)
    tilt = rng.uniform(-0.1, 0.1, 2) / size  # up to 10 % scale change across a tile's size
    skew = np.array([[1 + rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), 0], [0, 1, 0], [*tilt, 1]])
    matrix = np.array([[c, -s, half], [s, c, half], [0, 0, 1]]) @ skew @ np.array(
        [[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]])
    view = cv2.warpPerspective(image, matrix, (side, side), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
    view = _photometric(view, size, rng)
    if rng.random() < 0.85:
        ok, jpeg = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 96))])
        decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
        view = view if decoded is None else decoded
    offset = rng.uniform(-0.08, 0.08, 2) * size
    return tile_crop(view, (half + offset[0], half + offset[1]), size * rng.uniform(0.9, 1.1))


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
    gain = rng.uniform(0.55, 1.3) * rng.uniform(0.85, 1.15, 3).astype(np.float32)
    image = view.astype(np.float32) * field[..., None] * gain
    if rng.random() < 0.2:  # a glare spot of the lamp on the glossy tile
        gx, gy, r = rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7), rng.uniform(0.08, 0.4)
        image += (rng.uniform(60, 220) * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * r * r)))[..., None]
    contrast = rng.uniform(0.7, 1.15)
    image = (image - image.mean()) * contrast + image.mean()
    roll = rng.random()
    if roll < 0.45:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 0.6 + size / 80))
    elif roll < 0.6:
        image = _motion_blur(image, rng.uniform(2, 3 + size / 15), rng.uniform(0, 180))
    image += rng.normal(0, rng.uniform(0, 8), image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def _motion_blur(image: np.ndarray, length: float, angle_deg: float) -> np.ndarray:
    k = int(math.ceil(length)) | 1
    line = np.zeros((k, k), np.float32)
    line[k // 2, :] = 1
    kernel = cv2.warpAffine(line, cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle_deg, 1.0), (k, k))
    return cv2.filter2D(image, -1, np.asarray(kernel, np.float32) / max(float(kernel.sum()), 1e-6))


def _draw_size(rng: np.random.Generator) -> float:
    """A tile size, log-uniform over SIZE_RANGE."""
    return float(np.exp(rng.uniform(math.log(SIZE_RANGE[0]), math.log(SIZE_RANGE[1]))))


def _table(rng: np.random.Generator) -> np.ndarray:
    """A table surface: wood or cloth (vision.sim.scene.table_top), a plain colour, or woven cloth."""
    kind = rng.random()
    if kind < 0.5:
        return table_top((_TABLE_SIDE, _TABLE_SIDE), rng)
    base = rng.uniform(20, 235, 3).astype(np.float32)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (_TABLE_SIDE, _TABLE_SIDE)).astype(np.float32), (0, 0), 1.5)
    if kind < 0.75:
        shade = 1 + 0.03 * noise
    else:
        period = rng.uniform(2, 6)
        i = np.arange(_TABLE_SIDE, dtype=np.float32)
        weave = np.sin(i[:, None] / period * math.pi) * np.sin(i[None, :] / period * math.pi)
        shade = 1 + 0.08 * weave + 0.08 * noise
    return np.clip(base * shade[..., None], 0, 255).astype(np.uint8)


def _table_patch(tables: list[np.ndarray], rng: np.random.Generator, side: int) -> np.ndarray:
    table = tables[int(rng.integers(len(tables)))]
    if side > _TABLE_SIDE:
        table = cv2.resize(table, (side, side), interpolation=cv2.INTER_LINEAR)
    x, y = (int(rng.integers(0, table.shape[0] - side + 1)) for _ in range(2))
    patch = table[y : y + side, x : x + side]
    return np.ascontiguousarray(patch[::-1] if rng.random() < 0.5 else patch)


def _place(canvas: np.ndarray, sprite: np.ndarray, anchor: Sequence[float] | np.ndarray,
           at: Sequence[float] | np.ndarray, turn_deg: float = 0.0) -> None:
    """Composite a BGRA sprite onto ``canvas`` (in place) with its point ``anchor`` at ``at``, turned
    by ``turn_deg`` about it, with the tile's darker edge and a soft contact shadow."""
    matrix = cv2.getRotationMatrix2D((float(anchor[0]), float(anchor[1])), turn_deg, 1.0)
    matrix[:, 2] += np.array([at[0] - anchor[0], at[1] - anchor[1]])
    reach = math.hypot(*sprite.shape[:2]) / 2 + 4
    mid = matrix @ np.array([sprite.shape[1] / 2, sprite.shape[0] / 2, 1.0])
    x0, y0 = max(0, int(mid[0] - reach)), max(0, int(mid[1] - reach))
    x1, y1 = min(canvas.shape[1], int(mid[0] + reach) + 1), min(canvas.shape[0], int(mid[1] + reach) + 1)
    if x0 >= x1 or y0 >= y1:
        return
    matrix[:, 2] -= np.array([x0, y0])
    turned = cv2.warpAffine(sprite, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = turned[..., 3:].astype(np.float32) / 255
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    thick = max(1.0, sprite.shape[0] * 0.04)
    shift = np.array([[1, 0, thick * 0.8], [0, 1, thick]], np.float32)
    far = np.array([[1, 0, thick * 1.6], [0, 1, thick * 2.5]], np.float32)
    edge = cv2.warpAffine(alpha, shift, (x1 - x0, y1 - y0))[..., None]
    shadow = cv2.GaussianBlur(cv2.warpAffine(alpha, far, (x1 - x0, y1 - y0)), (0, 0), thick * 1.5)[..., None]
    roi *= 1 - 0.35 * shadow
    body = turned[..., :3].astype(np.float32)
    roi = roi * (1 - edge) + body.mean(axis=(0, 1)) / max(float(alpha.mean()), 1e-3) * 0.7 * edge
    canvas[y0:y1, x0:x1] = np.clip(roi * (1 - alpha) + body * alpha, 0, 255).astype(np.uint8)


def _pick(rng: np.random.Generator, options: Sequence[str]) -> str:
    return options[int(rng.integers(len(options)))]


def _modlinseq(rng: np.random.Generator, split: Split, tables: list[np.ndarray], empty: bool) -> _Scene:
    """A pentagon (§1-3) in its cell of the printed hex sheet (§1-2), neighbours in the next cells."""
    size = _draw_size(rng)
    s = max(16, round(size / _PENTAGON_DIAMETER))
    ppm = s / 25.0  # the pentagon is 25 mm wide (§1-3)
    pitch = 32.0 * ppm  # calibration.board_print's default distance between cell centres
    side = int(math.ceil(2.2 * size)) + 4
    paper = rng.uniform(225, 255) * rng.uniform(0.95, 1.0, 3)
    canvas = np.empty((side, side, 3), np.uint8)
    canvas[:] = paper.astype(np.uint8)
    c = np.array([side / 2, side / 2])
    around = np.deg2rad(np.arange(0, 360, 60))
    cells = [c] + [c + pitch * np.array([math.cos(a), math.sin(a)]) for a in around]
    grey = int(rng.uniform(150, 215))
    corner_dirs = np.deg2rad(np.arange(-90, 270, 60))
    r = pitch / math.sqrt(3)
    for cell in cells:
        corners = cell + r * np.stack([np.cos(corner_dirs), np.sin(corner_dirs)], axis=1)
        cv2.polylines(canvas, [np.round(corners * 16).astype(np.int32)], True, (grey,) * 3,
                      max(1, round(0.5 * ppm)), cv2.LINE_AA, shift=4)
        address = f"{chr(65 + int(rng.integers(17)))}{int(rng.integers(1, 18))}"
        scale = 2.4 * ppm / 22.0  # 2.4 mm capitals (board_print); Hershey capitals are 22 units tall
        org = (round(cell[0] - 3 * scale * 11), round(cell[1] + 0.78 * pitch / 2))
        cv2.putText(canvas, address, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (grey - 10,) * 3,
                    max(1, round(0.25 * ppm)), cv2.LINE_AA)
    style = sample_style(rng, split, ("pentagon",))
    anchor = tile_outline("pentagon", s)[:5].mean(axis=0)  # the pentagon's centre
    scene = _Scene(canvas, (float(c[0]), float(c[1])), size, NOT_A_FACE)
    for k, cell in enumerate(cells):
        if (k == 0 and empty) or (k > 0 and rng.random() < 0.5):
            continue
        face = _pick(rng, MODLINSEQ_FACES)
        at = cell + rng.normal(0, 0.6, 2) * ppm
        _place(canvas, render_tile(face, style, s, rng, modulus=int(rng.integers(5, 20))), anchor, at,
               rng.normal(0, 8))
        if k == 0:
            scene = _Scene(canvas, (float(at[0]), float(at[1])), size, face)
    return scene


def _yushino(rng: np.random.Generator, split: Split, tables: list[np.ndarray], empty: bool) -> _Scene:
    """A Yushino tile in its square of the board (premium squares coloured and labelled), neighbours
    in the next squares."""
    size = _draw_size(rng)
    s = max(16, round(size / math.sqrt(2)) + 2)
    pitch = (s - 2) * rng.uniform(1.05, 1.18)
    side = int(math.ceil(2.2 * size)) + 4
    board = rng.uniform(150, 245) * rng.uniform(0.85, 1.0, 3)
    canvas = np.empty((side, side, 3), np.uint8)
    canvas[:] = board.astype(np.uint8)
    c = np.array([side / 2, side / 2]) + rng.uniform(-0.5, 0.5, 2)
    line = tuple(int(v * rng.uniform(0.5, 0.8)) for v in board)
    style = sample_game_style(rng, split, "yushino")
    cells = [c + pitch * np.array([i, j]) for j in (0, -1, 1) for i in (0, -1, 1)]
    scene = _Scene(canvas, (float(c[0]), float(c[1])), size, NOT_A_FACE)
    for cell in cells:
        x0, y0 = cell - pitch / 2
        if rng.random() < 0.35:
            premium = int(rng.integers(len(_PREMIUMS)))
            colour, label = _PREMIUMS[premium]
            cv2.rectangle(canvas, (round(x0), round(y0)), (round(x0 + pitch), round(y0 + pitch)), colour, -1)
            scale = pitch / 70
            org = (round(cell[0] - pitch * 0.22), round(cell[1] + pitch * 0.12))
            cv2.putText(canvas, label, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (245, 245, 245),
                        max(1, round(pitch / 30)), cv2.LINE_AA)
        cv2.rectangle(canvas, (round(x0), round(y0)), (round(x0 + pitch), round(y0 + pitch)), line,
                      max(1, round(pitch / 40)))
    for k, cell in enumerate(cells):
        if (k == 0 and empty) or (k > 0 and rng.random() < 0.5):
            continue
        face = _pick(rng, YUSHINO_FACES)
        at = cell + rng.normal(0, 0.03, 2) * s
        _place(canvas, render_yushino(face, style, s, rng), (s / 2, s / 2), at, rng.normal(0, 4))
        if k == 0:
            scene = _Scene(canvas, (float(at[0]), float(at[1])), size, face)
    return scene


#: Yushino premium squares: colour (BGR) and label (games.md: 3X, 2X, 3*, 2*).
_PREMIUMS: tuple[tuple[tuple[int, int, int], str], ...] = (
    ((50, 50, 190), "3X"), ((150, 140, 235), "2X"), ((170, 90, 30), "3*"), ((230, 200, 150), "2*"),
)


def _superwild(rng: np.random.Generator, split: Split, tables: list[np.ndarray], empty: bool) -> _Scene:
    """A Super Wild tile loose on the table; neighbours on the grid beside it, sometimes touching.
    "none": the bare table, or the gap between two tiles."""
    size = _draw_size(rng)
    s = max(16, round(size / 1.25) + 2)  # the tile is 3/4 as wide as tall: its diagonal is 1.25 x its height
    side = int(math.ceil(2.2 * size)) + 4
    canvas = _table_patch(tables, rng, side)
    c = np.array([side / 2, side / 2])
    style = sample_game_style(rng, split, "superwild")
    step = np.array([0.75 * s, s]) * rng.uniform(1.0, 1.3, 2)
    gap = empty and rng.random() < 0.5  # the crop between two tiles
    where = [np.array([-0.5, 0.0]), np.array([0.5, 0.0])] if gap else [np.zeros(2)] + [
        np.array(d, float) for d in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    scene = _Scene(canvas, (float(c[0]), float(c[1])), size, NOT_A_FACE)
    for k, d in enumerate(where):
        if not gap and ((k == 0 and empty) or (k > 0 and rng.random() < 0.4)):
            continue
        face = _pick(rng, SUPERWILD_FACES)
        colour = NO_COLOUR if face == "joker" else _pick(rng, tuple(SUPERWILD_INKS))
        at = c + d * step + rng.normal(0, 0.02, 2) * s
        _place(canvas, render_superwild(face, colour, style, s, rng), (s / 2, s / 2), at,
               rng.normal(0, 6) + (180 if rng.random() < 0.5 else 0))
        if k == 0 and not gap:
            scene = _Scene(canvas, (float(at[0]), float(at[1])), size, face, colour)
    return scene


def _holominoes(rng: np.random.Generator, split: Split, tables: list[np.ndarray], empty: bool) -> _Scene:
    """One numbered corner of a Holominoes tile loose on the table, its edge neighbours sometimes in
    place. "none": a bitten corner, or the bare table."""
    radius = _draw_size(rng)
    s = max(16, round(2 * radius) + 2)
    side = int(math.ceil(2 * (HOLOMINO_DIGIT_AT + 1.1) * radius)) + 4
    canvas = _table_patch(tables, rng, side)
    c = np.array([side / 2, side / 2])
    style = sample_game_style(rng, split, "holominoes")
    bare = empty and rng.random() < 0.3
    neighbours = [c + math.sqrt(3) * radius * np.array([math.cos(a), math.sin(a)])
                  for a in np.deg2rad(np.arange(30, 390, 60))]
    turn = rng.normal(0, 3)
    scene = _Scene(canvas, (float(c[0]), float(c[1])), radius, NOT_A_FACE)
    for k, at in enumerate([c, *neighbours]):
        if (k == 0 and bare) or (k > 0 and rng.random() < 0.5):
            continue
        digits = tuple(int(v) for v in rng.choice(HOLOMINO_DIGITS, 3))
        tile = render_holomino(digits, style, s, rng)  # type: ignore[arg-type]
        _place(canvas, tile.image, tile.centre, at, turn)
        if k == 0:
            corner = int(rng.integers(3))
            rot = cv2.getRotationMatrix2D(tile.centre, turn, 1.0)
            rot[:, 2] += at - np.array(tile.centre)
            point = (tile.bites if empty else tile.digits)[corner]
            if empty:  # where a digit would be at a bitten corner
                point = np.array(tile.centre) + HOLOMINO_DIGIT_AT * (point - np.array(tile.centre))
            x, y = rot @ np.array([point[0], point[1], 1.0])
            scene = _Scene(canvas, (float(x), float(y)), radius, NOT_A_FACE if empty else str(digits[corner]))
    return scene


_SCENES: dict[str, Callable[[np.random.Generator, Split, list[np.ndarray], bool], _Scene]] = {
    "modlinseq": _modlinseq,
    "yushino": _yushino,
    "superwild": _superwild,
    "holominoes": _holominoes,
}
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
