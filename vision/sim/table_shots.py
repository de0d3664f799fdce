"""Whole tables of the two board-less games, rendered as a camera above the table sees them, with
the truth of every tile: what it shows, where its centre lies on the photo and its grid place.

- Super Wild (games.md "Super Wild"): the tiles of a table position (engine.superwild: position
  x,y -> tile) laid on the crisscross grid, one step of x a tile's width and one of y its height,
  each with the small gap players leave, every tile pushed and turned a little;
- Holominoes (games.md "Holominoes"): the placements of a position (engine.holominoes) on the
  axial grid, edge to edge, every tile's numbered corners where its placement puts them.

The tiles are drawn by vision.sim.game_tiles in one style of the chosen font split ("train" or
"held_out"), on a table top (vision.sim.scene.table_top), the whole layout turned by any angle
and seen under a slightly tilted camera (keystone), uneven light (vision.sim.camera), blur and
sensor noise. :func:`superwild_shot` and :func:`holominoes_shot` draw one position;
:func:`random_shot` draws a seeded table of a seeded random game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from engine.holominoes.geometry import centre_xy
from engine.holominoes.randomgame import random_game
from engine.holominoes.tiles import Placement, format_tile
from engine.superwild.randomgame import random_round
from engine.superwild.tiles import Pos, Tile
from engine.superwild.tiles import format_tile as format_superwild
from vision.reader.faces import COLOUR_NAMES, JOKER_FACE, NO_COLOUR, SIX_NINE_FACE
from vision.reader.ink_hue import INK_COLOURS
from vision.sim.camera import still_photo
from vision.sim.game_tiles import render_holomino, render_superwild, sample_game_style
from vision.sim.options import Split
from vision.sim.scene import table_top
from vision.sim.tile_scenes import place_sprite
from vision.sim.tiles import TileStyle, render_tile
from vision.table.finder import tile_finder
from vision.table.superwild_read import tile_axes

#: The photo's size (width, height), pixels: a 1024 x 768 frame of a table camera.
IMAGE_SIZE: tuple[int, int] = (1024, 768)
#: A Super Wild tile's height in photo pixels is drawn from this range (a far camera's 40 px to a
#: close one's 90 px), then shrunk where the layout would not fit in LAYOUT_FILL of the photo.
SUPERWILD_HEIGHT_PX: tuple[float, float] = (40.0, 90.0)
#: A Holominoes tile's radius in photo pixels, drawn and shrunk likewise.
HOLOMINO_RADIUS_PX: tuple[float, float] = (28.0, 60.0)
#: Share of the photo's short side the turned layout may span at most.
LAYOUT_FILL = 0.8
#: Super Wild tiles are 3/4 as wide as tall (vision.sim.game_tiles); the gap players leave
#: between tiles, as a share of the tile, is drawn up to this (about 4 mm of a 36 mm tile).
SUPERWILD_GAP = 0.12
#: Holominoes tiles meet edge to edge: a gap of up to this share of the radius (a hair's breadth).
HOLOMINO_GAP = 0.04
#: Each tile lies pushed by up to this share of its size and turned by up to PUSH_DEG degrees.
PUSH = 0.03
PUSH_DEG = 3.0
#: The camera's keystone: each photo corner moves by up to this share of the photo.
KEYSTONE = 0.03
#: Sensor noise (grey levels) and the lens's blur (Gaussian sigma, pixels), drawn up to these.
NOISE_SIGMA = 4.0
BLUR_SIGMA = 1.0


@dataclass(frozen=True, slots=True)
class ShotTile:
    """One tile as drawn.

    Attributes:
        tile: the tile in the game's notation ("R7", "W"; "132"), a 6/9 as its 6 (``R6``) as a
            reading names it (games.md "Reading a table").
        face: the reader's face (vision.reader.faces.FACES) of a Super Wild tile ("7", "6/9",
            "joker"); a Holominoes tile's digits on E, SW, NW as "352".
        colour: the reader's colour letter ("K", "B", "O", "R"; "-" for the Super Wild and Holominoes).
        centre: (x, y) of the tile's centre, photo pixels.
        size: a Super Wild tile's diagonal, a Holominoes tile's radius, photo pixels.
        place: (x, y) on Super Wild's grid, or (q, r) on Holominoes' axial grid.
        first: the corner holding a Holominoes tile's first number ("E", "SW", "NW"); "" for Super Wild.
    """

    tile: str
    face: str
    colour: str
    centre: tuple[float, float]
    size: float
    place: tuple[int, int]
    first: str = ""


@dataclass(frozen=True, slots=True)
class TableShot:
    """A rendered table and its truth.

    Attributes:
        image: BGR uint8, H x W x 3.
        game: "superwild" or "holominoes".
        split: the font split of the tiles' style.
        tiles: every tile drawn.
        turn_deg: how far the layout is turned on the photo (degrees, counter-clockwise as seen).
        ids: int32, H x W: which tile each pixel shows, k + 1 for ``tiles[k]``, 0 for the table.
    """

    image: np.ndarray
    game: str
    split: Split
    tiles: tuple[ShotTile, ...]
    turn_deg: float
    ids: np.ndarray


def drawn_at(shot: TableShot, centre: tuple[float, float]) -> ShotTile | None:
    """The tile drawn at a point found on the shot (photo pixels): the nearest tile whose centre
    lies within a tenth of its size of it, None where there is none."""
    if not shot.tiles:
        return None
    nearest = min(shot.tiles, key=lambda t: math.dist(t.centre, centre))
    return nearest if math.dist(nearest.centre, centre) <= 0.1 * nearest.size else None


def drawn_ink_hues(shot: TableShot) -> list[tuple[np.ndarray, str]]:
    """(ink hue, drawn colour) of every tile found on a Super Wild shot (vision.table.finder) over a
    drawn number tile: the hue a unit float32 [3] Lab direction, measured as the Super Wild reading
    measures it (vision.table.superwild_read.tile_axes), the colour one of INK_COLOURS."""
    found = []
    for tile in tile_finder().find(shot.image):
        drawn = drawn_at(shot, tile.centre)
        if drawn is not None and drawn.colour in INK_COLOURS:
            found.append((tile_axes(shot.image, tile)[3], drawn.colour))
    return found


def _turn(offsets: np.ndarray, turn_deg: float) -> np.ndarray:
    """Offsets (x, y down; shape [n, 2]) turned counter-clockwise as seen, as cv2 turns a sprite."""
    c, s = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    return offsets @ np.array([[c, -s], [s, c]])


def _lay_out(
    grid: np.ndarray,
    margin: float,
    wanted: tuple[float, float],
    size: tuple[int, int],
    rng: np.random.Generator,
) -> tuple[float, np.ndarray, np.ndarray, float]:
    """The layout (centres in tile units, float [n, 2]) turned by a random angle about its middle,
    where that middle lies on the photo, and the tile unit in pixels: drawn from ``wanted`` and
    shrunk until the turned layout (plus ``margin`` tile units) fits LAYOUT_FILL of the photo.

    Returns:
        (turn in degrees, turned centres in tile units, the middle (x, y) in pixels, unit pixels).
    """
    turn = float(rng.uniform(0, 360))
    turned = _turn(grid - (grid.min(axis=0) + grid.max(axis=0)) / 2, turn)
    span = turned.max(axis=0) - turned.min(axis=0) + margin
    unit = min(float(rng.uniform(*wanted)), LAYOUT_FILL * min(size) / max(float(span.max()), 1.0))
    middle = np.array(size, np.float64) / 2 + rng.uniform(-0.03, 0.03, 2) * min(size)
    return turn, turned, middle, unit


def _camera(
    canvas: np.ndarray, ids: np.ndarray, centres: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The canvas seen by the camera (vision.sim.camera.still_photo: keystone, light, blur and
    noise); the tile ids and the centres moved with it."""
    image, moved_ids, homography = still_photo(canvas, ids, rng, KEYSTONE, BLUR_SIGMA, NOISE_SIGMA)
    seen = cv2.perspectiveTransform(centres.reshape(-1, 1, 2).astype(np.float64),
                                    homography.astype(np.float64))
    return image, moved_ids, seen.reshape(-1, 2)


def superwild_shot(
    layout: Mapping[Pos, Tile],
    split: Split,
    rng: np.random.Generator,
    size: tuple[int, int] = IMAGE_SIZE,
    photos: bool = False,
) -> TableShot:
    """Draw a Super Wild table position.

    Args:
        layout: position -> tile (engine.superwild), the Super Wild among them.
        split: the font split of the tiles' style ("train" or "held_out"), or of the real crops.
        rng: every random choice (style, turn, scale, pushes, light, noise).
        size: the photo's (width, height), pixels.
        photos: draw every tile from a real Rummikub crop of ``split`` (vision.sim.tiles' "photo"
            tiles: the held-out crops come from the labelled photos' valid/): a number in its
            colour, a 6/9 as that colour's 6, the Super Wild as the joker.

    Returns:
        the photo and the truth of every tile.

    Raises:
        ValueError: an empty layout.
    """
    if not layout:
        raise ValueError("a Super Wild table needs at least one tile")
    places = sorted(layout, key=lambda p: (p.y, p.x))
    style = sample_game_style(rng, split, "superwild")
    gap = 1 + float(rng.uniform(0.0, SUPERWILD_GAP))
    grid = np.array([[p.x * 0.75 * gap, p.y * gap] for p in places], np.float64)  # in tile heights
    turn, turned, middle, height = _lay_out(grid, 1.25, SUPERWILD_HEIGHT_PX, size, rng)
    s = max(16, round(height))
    canvas = table_top(size, rng)
    ids = np.zeros(canvas.shape[:2], np.int32)
    centres = middle + turned * s + rng.uniform(-PUSH, PUSH, (len(places), 2)) * s
    faces = []
    for k, (place, at) in enumerate(zip(places, centres, strict=True)):
        tile = layout[place]
        face = JOKER_FACE if tile.is_wild else SIX_NINE_FACE if tile.is_six_nine else str(tile.number)
        colour = NO_COLOUR if tile.is_wild else tile.colour
        upside = 180.0 if face == SIX_NINE_FACE and rng.random() < 0.5 else 0.0  # a 6/9 lies either way
        if photos:
            sprite = _real_tile(face, colour, split, s, rng)
        else:
            sprite = render_superwild(face, colour, style, s, rng)
        pushed = turn + upside + float(rng.uniform(-PUSH_DEG, PUSH_DEG))
        place_sprite(canvas, sprite, (s / 2, s / 2), at, pushed, ids, k + 1)
        faces.append((tile, face, colour))
    image, ids, seen = _camera(canvas, ids, centres, rng)
    tiles = tuple(
        ShotTile(format_superwild(Tile(t.colour, 6) if t.is_six_nine else t), face, colour,
                 (float(c[0]), float(c[1])), 1.25 * s, (p.x, p.y))
        for (t, face, colour), c, p in zip(faces, seen, places, strict=True)
    )
    return TableShot(image, "superwild", split, tiles, turn, ids)


def holominoes_shot(
    placements: Iterable[Placement],
    split: Split,
    rng: np.random.Generator,
    size: tuple[int, int] = IMAGE_SIZE,
) -> TableShot:
    """Draw a Holominoes table position.

    Args:
        placements: the tiles on the table (engine.holominoes), each on its cell with its first corner.
        split: the font split of the tiles' style ("train" or "held_out").
        rng: every random choice (style, turn, scale, pushes, light, noise).
        size: the photo's (width, height), pixels.

    Returns:
        the photo and the truth of every tile.

    Raises:
        ValueError: no placements.
    """
    laid = list(placements)
    if not laid:
        raise ValueError("a Holominoes table needs at least one tile")
    style = sample_game_style(rng, split, "holominoes")
    gap = 1 + float(rng.uniform(0.0, HOLOMINO_GAP))
    grid = np.array([centre_xy(p.cell.key) for p in laid], np.float64) * gap  # in tile radii
    turn, turned, middle, radius = _lay_out(grid, 2.0, HOLOMINO_RADIUS_PX, size, rng)
    s = max(16, round(2 * radius) + 2)
    r = s / 2 - 1  # render_holomino's radius on an s-pixel canvas
    canvas = table_top(size, rng)
    ids = np.zeros(canvas.shape[:2], np.int32)
    centres = middle + turned * r + rng.uniform(-PUSH, PUSH, (len(laid), 2)) * r
    for k, (p, at) in enumerate(zip(laid, centres, strict=True)):
        drawn = render_holomino(p.tile.oriented(p.first), style, s, rng)
        pushed = turn + float(rng.uniform(-PUSH_DEG / 3, PUSH_DEG / 3))
        place_sprite(canvas, drawn.image, drawn.centre, at, pushed, ids, k + 1)
    image, ids, seen = _camera(canvas, ids, centres, rng)
    tiles = tuple(
        ShotTile(format_tile(p.tile), "".join(str(d) for d in p.tile.oriented(p.first)), NO_COLOUR,
                 (float(c[0]), float(c[1])), r, p.cell.key, p.first)
        for p, c in zip(laid, seen, strict=True)
    )
    return TableShot(image, "holominoes", split, tiles, turn, ids)


def _real_tile(face: str, colour: str, split: Split, s: int, rng: np.random.Generator) -> np.ndarray:
    """A Super Wild tile drawn from a real Rummikub crop (BGRA uint8, s x s x 4)."""
    shown = "6" if face == SIX_NINE_FACE else face
    name = COLOUR_NAMES.get(colour, "black")  # the joker's crop is one, whatever the colour
    style = TileStyle(f"photo-{name}-{split}", "photo", split, None, photo_colour=name)
    return render_tile(shown, style, s, rng)


def random_shot(
    game: str, seed: int, split: Split, size: tuple[int, int] = IMAGE_SIZE, photos: bool = False
) -> TableShot:
    """A seeded table of a seeded random game: the table after some turns of a random round
    (engine.superwild.randomgame) or game (engine.holominoes.randomgame), drawn by the same seed;
    ``photos``: Super Wild tiles from real crops (:func:`superwild_shot`).

    Raises:
        ValueError: an unknown game.
    """
    rng = np.random.default_rng(seed)
    if game == "superwild":
        _, _, played = random_round(seed, players=2, turns=int(rng.integers(4, 30)))
        return superwild_shot(played.table.tiles, split, rng, size, photos)
    if game == "holominoes":
        position, _ = random_game(seed, players=2, turns=int(rng.integers(3, 25)))
        return holominoes_shot(position.position.placements, split, rng, size)
    raise ValueError(f"unknown table game {game!r}; expected superwild or holominoes")
