"""The surroundings a tile crop is cut from: one tile of a game, drawn at a random size, with its
neighbours, on its board or on a table, as the camera of the board or table stage would see it
from straight above (vision.sim.tile_crops then turns it, adds the camera's faults and cuts it).

- "modlinseq": a pentagon (§1-3) at any angle in its cell of the printed hex sheet (§1-2: faint
  outlines and addresses, as calibration.board_print draws them), tiles in some neighbouring
  cells; the cell's outline says nothing of which way the tile's print points;
- "yushino": a square tile on its board square, facing any of the board's sides, premium squares
  coloured and labelled (3X, 2X, 3*, 2*), tiles on some neighbouring squares;
- "superwild": a portrait tile loose on a table top, neighbours on the grid, sometimes touching;
- "holominoes": one numbered corner of a hexagon loose on the table, edge neighbours sometimes in
  place; the crop is centred on the corner's digit and its size is the tile's radius.

An empty scene ("none") is an empty cell, the corner where board cells meet (parts of the tiles
around it in view), bare table (with a coin, a card printed with letters or a pencil on it
sometimes), the gap between two tiles, or a bitten Holominoes corner.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np

from vision.reader.faces import NO_COLOUR, NOT_A_FACE
from vision.sim.game_tiles import (
    HOLOMINO_BITTEN_DEG,
    HOLOMINO_DIGIT_AT,
    HOLOMINO_DIGITS,
    HOLOMINO_NUMBERED_DEG,
    SUPERWILD_FACES,
    SUPERWILD_INKS,
    YUSHINO_FACES,
    GameStyle,
    holomino_digit_turn,
    render_holomino,
    render_superwild,
    render_yushino,
    sample_game_style,
)
from vision.sim.options import Split
from vision.sim.scene import TILE_MM, table_top
from vision.sim.tiles import TileStyle, render_tile, sample_style, tile_outline

StyleT = TypeVar("StyleT", TileStyle, GameStyle)

#: Tile sizes (circumscribed diameter; a Holominoes tile's radius) in image pixels: from a far
#: 1080p camera's tile to a close phone's.
SIZE_RANGE: tuple[float, float] = (24.0, 140.0)
#: Largest size a tile is drawn at: the 40 px crop keeps no detail finer than this gives (a
#: 100 px tile is already shrunk 2.75 times), and larger drawings only cost time.
DRAW_MAX = 100.0
MODLINSEQ_FACES: tuple[str, ...] = (*(str(v) for v in range(20)), "#", "marker")
#: A pentagon's circumscribed diameter over its canvas side (regular pentagon filling the width).
_PENTAGON_DIAMETER = 1.0 / math.sin(math.radians(72))
_TABLE_SIDE = 320
#: Table surfaces drawn up front by ``table_bank``; scenes take random patches of them.
TABLE_BANK = 12


@dataclass(frozen=True, slots=True)
class Scene:
    """A drawn surrounding and where its crop lies.

    Attributes:
        canvas: BGR uint8, H x W x 3.
        centre: (x, y) of the crop's centre in canvas pixels.
        size: the crop's size (tile_crop's ``size``) in canvas pixels.
        face: the label, a face of vision.reader.faces.FACES.
        colour: the colour label, one of vision.reader.faces.COLOURS.
        up_deg: which way the print's up points: the angle (degrees, counter-clockwise as seen) by
            which the tile's print is turned from upright in the canvas; NaN for "none".
    """

    canvas: np.ndarray
    centre: tuple[float, float]
    size: float
    face: str
    colour: str = NO_COLOUR
    up_deg: float = math.nan


def _draw_size(rng: np.random.Generator) -> float:
    """A tile size, log-uniform over SIZE_RANGE; a tile larger than DRAW_MAX is drawn at DRAW_MAX."""
    return min(DRAW_MAX, float(np.exp(rng.uniform(math.log(SIZE_RANGE[0]), math.log(SIZE_RANGE[1])))))


def table_surface(rng: np.random.Generator, size: tuple[int, int] = (_TABLE_SIDE, _TABLE_SIDE)) -> np.ndarray:
    """A table surface of ``size`` (width, height): wood or cloth (vision.sim.scene.table_top), a
    plain colour, or woven cloth; BGR uint8, H x W x 3."""
    w, h = size
    kind = rng.random()
    if kind < 0.5:
        return table_top(size, rng)
    base = rng.uniform(20, 235, 3).astype(np.float32)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.5)
    if kind < 0.75:
        shade = 1 + 0.03 * noise
    else:
        period = rng.uniform(2, 6)
        xs, ys = np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)
        weave = np.sin(ys[:, None] / period * math.pi) * np.sin(xs[None, :] / period * math.pi)
        shade = 1 + 0.08 * weave + 0.08 * noise
    return np.clip(base * shade[..., None], 0, 255).astype(np.uint8)


def table_bank(rng: np.random.Generator) -> list[np.ndarray]:
    """TABLE_BANK table surfaces (BGR uint8, _TABLE_SIDE square) for the scenes to take patches of."""
    return [table_surface(rng) for _ in range(TABLE_BANK)]


def _table_patch(tables: list[np.ndarray], rng: np.random.Generator, side: int) -> np.ndarray:
    table = tables[int(rng.integers(len(tables)))]
    if side > _TABLE_SIDE:
        table = cv2.resize(table, (side, side), interpolation=cv2.INTER_LINEAR)
    x, y = (int(rng.integers(0, table.shape[0] - side + 1)) for _ in range(2))
    patch = table[y : y + side, x : x + side]
    return np.ascontiguousarray(patch[::-1] if rng.random() < 0.5 else patch)


def place_sprite(canvas: np.ndarray, sprite: np.ndarray, anchor: Sequence[float] | np.ndarray,
                 at: Sequence[float] | np.ndarray, turn_deg: float = 0.0,
                 ids: np.ndarray | None = None, tile_id: int = 0) -> None:
    """Composite a BGRA sprite onto ``canvas`` (in place) with its point ``anchor`` at ``at``, turned
    by ``turn_deg`` about it, with the tile's darker edge and a soft contact shadow.

    ``ids`` (int32, the canvas's H x W), where given, takes ``tile_id`` wherever the sprite covers
    more than half of a pixel: each tile's own pixels, a later tile over an earlier one."""
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
    alpha = turned[..., 3].astype(np.float32) * np.float32(1 / 255)
    body = cv2.cvtColor(turned, cv2.COLOR_BGRA2BGR)
    t = max(1, round(sprite.shape[0] * 0.04))  # the tile's thickness, seen from a little aside
    edge = np.zeros_like(alpha)
    edge[t:, t:] = alpha[:-t, :-t]
    shade = 1 - 0.35 * cv2.blur(edge, (4 * t + 1, 4 * t + 1))  # the contact shadow
    roi = np.ascontiguousarray(canvas[y0:y1, x0:x1])
    out = cv2.blendLinear(roi, np.zeros_like(roi), shade, 1 - shade)
    edge_colour = np.array(cv2.mean(body, mask=turned[..., 3])[:3]) * 0.7
    out = cv2.blendLinear(np.full_like(roi, edge_colour.astype(np.uint8)), out, edge, 1 - edge)
    canvas[y0:y1, x0:x1] = cv2.blendLinear(body, out, alpha, 1 - alpha)
    if ids is not None:
        ids[y0:y1, x0:x1][alpha > 0.5] = tile_id


def _unit(angle_deg: float) -> np.ndarray:
    return np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))])


def _pick(rng: np.random.Generator, options: Sequence[str]) -> str:
    return options[int(rng.integers(len(options)))]


def _varied(style: StyleT) -> StyleT:
    """A TRAIN style prints its faces varied beyond its font's design (vision.sim.glyph_variation);
    a held-out style prints its font as it is."""
    return dataclasses.replace(style, vary_glyphs=style.split == "train")


def _modlinseq(rng: np.random.Generator, split: Split, tables: list[np.ndarray], empty: bool) -> Scene:
    """A pentagon (§1-3) or a rectangle (a Rummikub-like set played as MODLINSEQ tiles) in its cell
    of the printed hex sheet (§1-2), neighbours in the next cells."""
    size = _draw_size(rng)
    style = _varied(sample_style(rng, split, ("pentagon", "rectangle")))
    if style.shape == "pentagon":
        s = max(16, round(size / _PENTAGON_DIAMETER))
        ppm = s / 25.0  # the pentagon is 25 mm wide (§1-3)
        anchor = tile_outline("pentagon", s)[:5].mean(axis=0)  # the pentagon's centre
    else:
        s = max(16, round(size / 1.25))  # the 3:4 rectangle's diagonal is 1.25 x its height
        ppm = s / TILE_MM["rectangle"]
        anchor = np.array([s / 2, s / 2])
    pitch = 32.0 * ppm  # calibration.board_print's default distance between cell centres
    side = int(math.ceil(2.2 * size)) + 4
    paper = rng.uniform(225, 255) * rng.uniform(0.95, 1.0, 3)
    canvas = np.empty((side, side, 3), np.uint8)
    canvas[:] = paper.astype(np.uint8)
    middle = np.array([side / 2, side / 2])
    between = empty and rng.random() < 0.4  # the crop on a corner where three cells meet
    r = pitch / math.sqrt(3)
    c = middle - (r * _unit(-90.0 + 60 * int(rng.integers(6))) if between else 0.0)
    around = np.deg2rad(np.arange(0, 360, 60))
    cells = [c] + [c + pitch * np.array([math.cos(a), math.sin(a)]) for a in around]
    grey = int(rng.uniform(150, 215))
    corner_dirs = np.deg2rad(np.arange(-90, 270, 60))
    for cell in cells:
        corners = cell + r * np.stack([np.cos(corner_dirs), np.sin(corner_dirs)], axis=1)
        cv2.polylines(canvas, [np.round(corners * 16).astype(np.int32)], True, (grey,) * 3,
                      max(1, round(0.5 * ppm)), cv2.LINE_AA, shift=4)
        address = f"{chr(65 + int(rng.integers(17)))}{int(rng.integers(1, 18))}"
        scale = 2.4 * ppm / 22.0  # 2.4 mm capitals (board_print); Hershey capitals are 22 units tall
        org = (round(cell[0] - 3 * scale * 11), round(cell[1] + 0.78 * pitch / 2))
        cv2.putText(canvas, address, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (grey - 10,) * 3,
                    max(1, round(0.25 * ppm)), cv2.LINE_AA)
    scene = Scene(canvas, (float(middle[0]), float(middle[1])), size, NOT_A_FACE)
    for k, cell in enumerate(cells):
        # a neighbour shows only at the crop's corners unless the crop is between cells
        if (k == 0 and empty and not between) or (k > 0 and rng.random() < (0.5 if between else 0.7)):
            continue
        face = _pick(rng, MODLINSEQ_FACES)
        at = cell + rng.normal(0, 0.6, 2) * ppm
        sprite = render_tile(face, style, s, rng, modulus=int(rng.integers(5, 20)))
        turn = float(rng.uniform(0, 360))  # players around the table lay tiles at any angle to the cells
        place_sprite(canvas, sprite, anchor, at, turn)
        if k == 0 and not empty:
            scene = Scene(canvas, (float(at[0]), float(at[1])), size, face, up_deg=turn)
    return scene


def _yushino(rng: np.random.Generator, split: Split, tables: list[np.ndarray], empty: bool) -> Scene:
    """A Yushino tile in its square of the board (premium squares coloured and labelled), neighbours
    in the next squares."""
    size = _draw_size(rng)
    s = max(16, round(size / math.sqrt(2)) + 2)
    pitch = (s - 2) * rng.uniform(1.05, 1.18)
    side = int(math.ceil(2.2 * size)) + 4
    board = rng.uniform(150, 245) * rng.uniform(0.85, 1.0, 3)
    canvas = np.empty((side, side, 3), np.uint8)
    canvas[:] = board.astype(np.uint8)
    middle = np.array([side / 2, side / 2])
    between = empty and rng.random() < 0.4  # the crop on a corner where four squares meet
    c = middle + rng.uniform(-0.5, 0.5, 2) - (rng.choice([-0.5, 0.5], 2) * pitch if between else 0.0)
    line = tuple(int(v * rng.uniform(0.5, 0.8)) for v in board)
    style = _varied(sample_game_style(rng, split, "yushino"))
    cells = [c + pitch * np.array([i, j]) for j in (0, -1, 1) for i in (0, -1, 1)]
    scene = Scene(canvas, (float(middle[0]), float(middle[1])), size, NOT_A_FACE)
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
        diagonal = k > 0 and np.all(cell != c)  # only a corner of it shows in the crop
        if (k == 0 and empty and not between) or (k > 0 and rng.random() < (0.75 if diagonal else 0.5)):
            continue
        face = _pick(rng, YUSHINO_FACES)
        at = cell + rng.normal(0, 0.03, 2) * s
        sprite = render_yushino(face, style, s, rng)
        turn = float(rng.normal(0, 4) + 90 * int(rng.integers(4)))  # square to the board, facing a side
        place_sprite(canvas, sprite, (s / 2, s / 2), at, turn)
        if k == 0 and not empty:
            scene = Scene(canvas, (float(at[0]), float(at[1])), size, face, up_deg=turn)
    return scene


#: Yushino premium squares: colour (BGR) and label (games.md: 3X, 2X, 3*, 2*).
_PREMIUMS: tuple[tuple[tuple[int, int, int], str], ...] = (
    ((50, 50, 190), "3X"), ((150, 140, 235), "2X"), ((170, 90, 30), "3*"), ((230, 200, 150), "2*"),
)


def _superwild(rng: np.random.Generator, split: Split, tables: list[np.ndarray], empty: bool) -> Scene:
    """A Super Wild tile loose on the table; neighbours on the grid beside it, sometimes touching.
    "none": the bare table (things on it sometimes), or the gap between two tiles."""
    size = _draw_size(rng)
    s = max(16, round(size / 1.25) + 2)  # the tile is 3/4 as wide as tall: its diagonal is 1.25 x its height
    side = int(math.ceil(2.2 * size)) + 4
    canvas = _table_patch(tables, rng, side)
    c = np.array([side / 2, side / 2])
    style = _varied(sample_game_style(rng, split, "superwild"))
    step = np.array([0.75 * s, s]) * rng.uniform(1.0, 1.3, 2)
    gap = empty and rng.random() < 0.5  # the crop between two tiles
    where = [np.array([-0.5, 0.0]), np.array([0.5, 0.0])] if gap else [np.zeros(2)] + [
        np.array(d, float) for d in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    scene = Scene(canvas, (float(c[0]), float(c[1])), size, NOT_A_FACE)
    for k, d in enumerate(where):
        if not gap and ((k == 0 and empty) or (k > 0 and rng.random() < 0.4)):
            continue
        face = _pick(rng, SUPERWILD_FACES)
        colour = NO_COLOUR if face == "joker" else _pick(rng, tuple(SUPERWILD_INKS))
        at = c + d * step + rng.normal(0, 0.02, 2) * s
        sprite = render_superwild(face, colour, style, s, rng)
        turn = float(rng.normal(0, 6) + (180 if rng.random() < 0.5 else 0))
        place_sprite(canvas, sprite, (s / 2, s / 2), at, turn)
        if k == 0 and not gap:
            scene = Scene(canvas, (float(at[0]), float(at[1])), size, face, colour, up_deg=turn)
    if empty and not gap and rng.random() < 0.6:
        clutter(canvas, c, size, rng)
    return scene


def _holominoes(rng: np.random.Generator, split: Split, tables: list[np.ndarray], empty: bool) -> Scene:
    """One numbered corner of a Holominoes tile loose on the table, its edge neighbours sometimes in
    place. "none": a bitten corner, or the bare table (things on it sometimes)."""
    radius = _draw_size(rng)
    s = max(16, round(2 * radius) + 2)
    side = int(math.ceil(2 * (HOLOMINO_DIGIT_AT + 1.1) * radius)) + 4
    canvas = _table_patch(tables, rng, side)
    c = np.array([side / 2, side / 2])
    style = _varied(sample_game_style(rng, split, "holominoes"))
    bare = empty and rng.random() < 0.3
    neighbours = [c + math.sqrt(3) * radius * np.array([math.cos(a), math.sin(a)])
                  for a in np.deg2rad(np.arange(30, 390, 60))]
    turn = float(rng.normal(0, 3))
    scene = Scene(canvas, (float(c[0]), float(c[1])), radius, NOT_A_FACE)
    corner = int(rng.integers(3))
    towards = c + HOLOMINO_DIGIT_AT * radius * _unit(HOLOMINO_BITTEN_DEG[corner] if empty
                                                     else HOLOMINO_NUMBERED_DEG[corner])
    for k, at in enumerate([c, *neighbours]):
        if (k == 0 and bare) or (k > 0 and (rng.random() < 0.5 or np.hypot(*(at - towards)) > 2.1 * radius)):
            continue  # a neighbour not there, or out of the crop's view
        first, second, third = (int(v) for v in rng.choice(HOLOMINO_DIGITS, 3))
        digits = (first, second, third)
        tile = render_holomino(digits, style, s, rng)
        place_sprite(canvas, tile.image, tile.centre, at, turn)
        if k == 0:
            rot = cv2.getRotationMatrix2D(tile.centre, turn, 1.0)
            rot[:, 2] += at - np.array(tile.centre)
            point = (tile.bites if empty else tile.digits)[corner]
            if empty:  # where a digit would be at a bitten corner
                point = np.array(tile.centre) + HOLOMINO_DIGIT_AT * (point - np.array(tile.centre))
            x, y = rot @ np.array([point[0], point[1], 1.0])
            up = math.nan if empty else turn + holomino_digit_turn(style, corner)
            scene = Scene(canvas, (float(x), float(y)), radius, NOT_A_FACE if empty else str(digits[corner]),
                          up_deg=up)
    if bare and rng.random() < 0.6:
        clutter(canvas, c, radius, rng)
    return scene


#: Capitals printed on clutter: none that looks like a digit (O, I, S, B, Z, G) or the Super Wild's W.
_CLUTTER_LETTERS = "ACEFHKLMNPRTUVXY"


def clutter(canvas: np.ndarray, at: np.ndarray, size: float, rng: np.random.Generator) -> None:
    """Draw a thing that is no tile where a finder might take it for one: a coin or cap, a card or
    box corner printed with letters, or a pencil."""
    kind = int(rng.integers(3))
    colour = tuple(int(v) for v in rng.integers(0, 256, 3))
    centre = (round(float(at[0])), round(float(at[1])))
    if kind == 0:
        r = size * rng.uniform(0.2, 0.45)  # a round disc seen from above: no narrow ring like a "0"
        axes = (round(r), round(r * rng.uniform(0.9, 1.0)))
        turn = float(rng.uniform(0, 180))
        rim = tuple(int(v * 0.85) for v in colour)
        cv2.ellipse(canvas, centre, axes, turn, 0, 360, colour, -1, cv2.LINE_AA)
        cv2.ellipse(canvas, centre, axes, turn, 0, 360, rim, max(1, round(size / 30)), cv2.LINE_AA)
    elif kind == 1:
        half = size * rng.uniform(0.25, 0.6, 2)
        box = cv2.boxPoints(((at[0], at[1]), (2 * half[0], 2 * half[1]), float(rng.uniform(0, 180))))
        cv2.fillPoly(canvas, [np.round(box).astype(np.int32)], colour, cv2.LINE_AA)
        text = "".join(rng.choice(list(_CLUTTER_LETTERS), int(rng.integers(1, 5))))
        ink = (20, 20, 20) if sum(colour) > 380 else (235, 235, 235)
        cv2.putText(canvas, text, (round(at[0] - half[0] * 0.8), round(at[1] + size * 0.1)),
                    cv2.FONT_HERSHEY_SIMPLEX, size / 60, ink, max(1, round(size / 25)), cv2.LINE_AA)
    else:
        a = rng.uniform(0, math.pi)
        d = size * np.array([math.cos(a), math.sin(a)])
        start, end = at - d, at + d
        cv2.line(canvas, (round(start[0]), round(start[1])), (round(end[0]), round(end[1])), colour,
                 max(2, round(size * rng.uniform(0.06, 0.14))), cv2.LINE_AA)


#: Each game's scene: f(rng, split, tables from table_bank, empty) -> Scene; ``empty`` asks for a
#: "none" scene.
SCENES: dict[str, Callable[[np.random.Generator, Split, list[np.ndarray], bool], Scene]] = {
    "modlinseq": _modlinseq,
    "yushino": _yushino,
    "superwild": _superwild,
    "holominoes": _holominoes,
}
