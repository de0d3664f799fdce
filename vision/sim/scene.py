"""The scene: the printed sheet with tiles on a table, seen by the simulated camera.

The sheet and its tiles live in a top-down texture (board pixels times ``texture_scale``); tiles
are drawn into it once, when they land, turned and slightly off-centre, with a soft contact shadow
and a visible edge. The texture is warped into the image through the camera pose and lens (one
cv2.remap with cached maps, redone only when a tile lands or the camera moves) over a table top;
each frame then paints the hands and applies light, shadows, blur and sensor noise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board.sheet import AnyBoard, board_sheet
from vision.board.square_reader import TILE_FILL
from vision.sim.camera import CameraPose, Lighting, NoiseBank
from vision.sim.game_tiles import GameStyle, render_yushino
from vision.sim.hands import Cover, HandLook, draw_hand, hand_strokes, shadow_mask
from vision.sim.tiles import TileStyle, render_tile

#: The style of a tile laid on a printed board: MODLINSEQ's (vision.sim.tiles) or Yushino's
#: (vision.sim.game_tiles; render_yushino refuses the other games' styles).
BoardStyle = TileStyle | GameStyle

#: Tile sizes on paper, millimetres: a pentagon's width (§1-3: 25 mm) and a rectangle's height
#: (3:4 portrait, so that a turned tile stays inside its 32 mm cell).
TILE_MM: dict[str, float] = {"pentagon": 25.0, "rectangle": 26.0, "photo": 26.0}
#: Coarse grid step (image pixels) on which light and shadows are computed.
_LIGHT_STEP = 16


@dataclass(frozen=True, slots=True)
class HandInFrame:
    """A hand to paint: its fingertip and shoulder in image pixels, its look, the tile it holds
    (a BGRA sprite in image pixels, already turned; pinched at the fingertips) if any, and how far
    it moved during the exposure (image pixels, for motion blur)."""

    tip: tuple[float, float]
    shoulder: tuple[float, float]
    look: HandLook
    held: np.ndarray | None = None
    motion: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Shot:
    """One rendered camera frame.

    Attributes:
        image: BGR uint8, H x W x 3.
        hand: a hand or arm covers part of the sheet.
        occluded: addresses of the cells whose centre a hand, an arm or a held tile covers.
    """

    image: np.ndarray
    hand: bool
    occluded: frozenset[str]


@dataclass(frozen=True, slots=True)
class Optics:
    """Per-recording image degradations.

    Attributes:
        blur_sigma: Gaussian defocus blur, image pixels (0 for none).
        noise_sigma: sensor noise, grey levels (0 for none).
        shadow_strength: darkening in the core of a hand's shadow, 0..1.
        shadow_offset: hand shadow offset (x, y), image pixels.
    """

    blur_sigma: float = 0.7
    noise_sigma: float = 3.0
    shadow_strength: float = 0.35
    shadow_offset: tuple[float, float] = (25.0, 30.0)

    def __post_init__(self) -> None:
        if self.blur_sigma < 0 or self.noise_sigma < 0 or not 0 <= self.shadow_strength <= 1:
            raise ValueError(f"optics need blur, noise >= 0 and shadow strength 0..1: {self}")


class Scene:
    """A sheet on a table with tiles, rendered frame by frame.

    Args:
        board: the printed board's geometry, hex or square (vision.board.sheet).
        image_size: camera image (width, height).
        texture_scale: texture pixels per board pixel.
        table: BGR uint8 image of the table top, image_size.
        lighting: light model.
        optics: blur, noise, shadows.
        rng: random generator for the noise bank and the table.
    """

    def __init__(
        self,
        board: AnyBoard,
        image_size: tuple[int, int],
        texture_scale: float,
        table: np.ndarray,
        lighting: Lighting,
        optics: Optics,
        rng: np.random.Generator,
    ) -> None:
        if table.shape != (image_size[1], image_size[0], 3):
            raise ValueError(f"table image must be {image_size[1]} x {image_size[0]} x 3, got {table.shape}")
        self.board = board
        self.sheet = board_sheet(board)
        self.size = image_size
        self.texture_scale = texture_scale
        self._paper = self.sheet.render(texture_scale)
        self.texture = self._paper.copy()
        self._tiles: dict[str, tuple[np.ndarray, tuple[float, float], float, float]] = {}
        self._table = table
        self.lighting = lighting
        self._optics = optics
        self._noise = NoiseBank(image_size, optics.noise_sigma, rng) if optics.noise_sigma > 0 else None
        self._pose: CameraPose | None = None
        self._maps: tuple[np.ndarray, np.ndarray] | None = None
        self._warped: np.ndarray | None = None  # the sheet as the camera sees it, before light and hands
        self._sheet_mask: np.ndarray | None = None
        self._cell_addresses = list(self.sheet.addresses)
        self._cell_index = {a: i for i, a in enumerate(self._cell_addresses)}
        self._cell_centres = np.zeros((0, 2))

    def set_pose(self, pose: CameraPose) -> None:
        """Use this camera pose from now on (recomputes the warp maps)."""
        if pose.size != self.size:
            raise ValueError(f"pose image size {pose.size} differs from the scene's {self.size}")
        self._pose = pose
        self._maps = pose.texture_maps(self.texture_scale)
        self._warped = None
        w, h = self.sheet.image_size
        corners = pose.project(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
        mask = np.zeros((self.size[1], self.size[0]), np.uint8)
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
        self._sheet_mask = mask
        self._cell_centres = pose.project(self.sheet.centres)

    @property
    def pose(self) -> CameraPose:
        """The current camera pose.

        Raises:
            ValueError: before the first :meth:`set_pose`.
        """
        if self._pose is None:
            raise ValueError("scene has no camera pose yet: call set_pose first")
        return self._pose

    def clear(self) -> None:
        """Take every tile off the sheet."""
        self._tiles.clear()
        self.texture = self._paper.copy()
        self._warped = None

    def place_tile(
        self,
        address: str,
        face: str,
        style: BoardStyle,
        angle_deg: float,
        rng: np.random.Generator,
        *,
        modulus: int = 13,
    ) -> None:
        """Draw a tile into the texture on a cell, slightly off-centre, turned by ``angle_deg``
        (counter-clockwise): a MODLINSEQ tile of a TileStyle, or a Yushino tile of a GameStyle.

        A tile put on a cell that holds one replaces it (the hash swap, §7-4).

        Raises:
            KeyError: the address is not a cell of the board.
            vision.sim.tiles.TileStyleError: the style cannot show the face.
        """
        cell = self._cell(address)
        ppm = self.sheet.px_per_mm * self.texture_scale
        sprite = _render(face, style, max(16, round(self.tile_mm(style) * ppm)), rng, modulus)
        pitch = self.sheet.pitch * self.texture_scale
        offset = rng.normal(0, 0.03, size=2) * pitch
        centre = (
            self.sheet.centres[cell, 0] * self.texture_scale + offset[0],
            self.sheet.centres[cell, 1] * self.texture_scale + offset[1],
        )
        replaces = address in self._tiles
        self._warped = None
        self._tiles[address] = (sprite, centre, angle_deg, max(1.0, 1.2 * ppm))
        if replaces:
            self._redraw()
        else:
            _composite_tile(self.texture, *self._tiles[address])

    def tile_mm(self, style: BoardStyle) -> float:
        """A tile's size on paper (millimetres): a MODLINSEQ shape's, or a Yushino tile filling
        vision.board.square_reader.TILE_FILL of its square."""
        if isinstance(style, GameStyle):
            return TILE_FILL * self.sheet.pitch / self.sheet.px_per_mm
        return TILE_MM[style.shape]

    def _cell(self, address: str) -> int:
        """The index of a cell.

        Raises:
            KeyError: the address is not a cell of the board.
        """
        if address not in self._cell_index:
            raise KeyError(f"board has no cell {address!r}")
        return self._cell_index[address]

    def remove_tile(self, address: str) -> None:
        """Take the tile off a cell (nothing happens when the cell is empty)."""
        if self._tiles.pop(address, None) is None:
            return
        self._warped = None
        self._redraw()

    def _redraw(self) -> None:
        """The sheet's texture drawn again from the paper and the tiles on it."""
        self.texture = self._paper.copy()
        for tile in self._tiles.values():
            _composite_tile(self.texture, *tile)

    def held_sprite(
        self, face: str, style: BoardStyle, angle_deg: float, rng: np.random.Generator, *, modulus: int = 13
    ) -> np.ndarray:
        """A tile as a hand holds it above the sheet: BGRA in image pixels (a little larger than on
        the sheet, being nearer the camera), turned by ``angle_deg``.

        Raises:
            ValueError: before the first :meth:`set_pose`.
            vision.sim.tiles.TileStyleError: the style cannot show the face.
        """
        px_per_mm = self.pose.scale_at(self.sheet.middle) * self.sheet.px_per_mm * 1.1
        side = max(16, round(self.tile_mm(style) * px_per_mm))
        return turn_sprite(_render(face, style, side, rng, modulus), angle_deg)

    def render(self, t: float, hands: Sequence[HandInFrame], rng: np.random.Generator) -> Shot:
        """One camera frame.

        Args:
            t: time in seconds (drives the light).
            hands: hands to paint (image pixels).
            rng: per-frame random generator (noise window).

        Returns:
            The image and what the hands cover.

        Raises:
            ValueError: before the first :meth:`set_pose`.
        """
        if self._maps is None or self._sheet_mask is None:
            raise ValueError("scene has no camera pose yet: call set_pose first")
        if self._warped is None:  # the sheet changed or the camera moved
            self._warped = cv2.remap(
                self.texture,
                self._maps[0],
                self._maps[1],
                cv2.INTER_LINEAR,
                dst=self._table.copy(),
                borderMode=cv2.BORDER_TRANSPARENT,
            )
        image = self._warped.copy()
        over_sheet = False
        occluded = np.zeros(len(self._cell_addresses), bool)
        w, h = self.size
        coarse = (math.ceil(w / _LIGHT_STEP), math.ceil(h / _LIGHT_STEP))
        shadow = np.zeros((coarse[1], coarse[0]), np.float32)
        for hand in hands:
            px_per_mm = self.pose.scale_at(self.sheet.middle) * self.sheet.px_per_mm * 1.15
            strokes = hand_strokes(hand.shoulder, hand.tip, px_per_mm, hand.look)
            shadow = np.maximum(
                shadow,
                shadow_mask(
                    coarse, strokes, self.size, self._optics.shadow_offset, self._optics.shadow_strength
                ),
            )
            if hand.held is not None:
                tx, ty = hand.tip
                sx, sy = hand.shoulder
                back = -6 * px_per_mm / max(1e-6, math.hypot(tx - sx, ty - sy))  # pinched at the tips
                held = _paste(image, hand.held, (tx + (sx - tx) * back, ty + (sy - ty) * back))
                if held is not None:
                    occluded |= held.covers(self._cell_centres)
            cover = draw_hand(image, strokes, hand.look, hand.motion)
            if cover is not None:
                over_sheet |= cover.overlaps(self._sheet_mask)
                occluded |= cover.covers(self._cell_centres)
        gain = self.lighting.gain(t, coarse, shadow)
        gain_u8 = np.clip(gain * 128, 0, 255).astype(np.uint8)
        gain_full = cv2.resize(gain_u8, (w, h), interpolation=cv2.INTER_LINEAR)
        image = cv2.multiply(image, gain_full, scale=1 / 128)
        if self._optics.blur_sigma > 0:
            image = cv2.GaussianBlur(image, (0, 0), self._optics.blur_sigma)
        if self._noise is not None:
            image = self._noise.add(image, rng)
        hidden = frozenset(a for a, h in zip(self._cell_addresses, occluded, strict=True) if h)
        return Shot(image, over_sheet, hidden)


def _render(face: str, style: BoardStyle, side: int, rng: np.random.Generator, modulus: int) -> np.ndarray:
    """A tile of a board game drawn upright on a side x side BGRA canvas.

    Raises:
        vision.sim.tiles.TileStyleError: the style cannot show the face, or is no board game's.
    """
    if isinstance(style, GameStyle):
        return render_yushino(face, style, side, rng)
    return render_tile(face, style, side, rng, modulus=modulus)


def turn_sprite(sprite: np.ndarray, angle_deg: float, margin: int = 2) -> np.ndarray:
    """A square BGRA sprite turned by ``angle_deg`` (counter-clockwise) on a larger transparent canvas
    (its side grows by sqrt 2 plus ``margin`` pixels)."""
    side = sprite.shape[0]
    out = int(math.ceil(side * 1.45)) + margin
    matrix = cv2.getRotationMatrix2D((side / 2, side / 2), angle_deg, 1.0)
    matrix[:, 2] += (out - side) / 2
    return cv2.warpAffine(
        sprite,
        matrix,
        (out, out),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )


def _paste(image: np.ndarray, sprite: np.ndarray, centre: tuple[float, float]) -> Cover | None:
    """Alpha-composite a BGRA sprite onto a BGR image, centred at ``centre``, clipped to the image;
    returns where it lies (None when outside the image)."""
    h, w = image.shape[:2]
    sh, sw = sprite.shape[:2]
    x0, y0 = int(round(centre[0] - sw / 2)), int(round(centre[1] - sh / 2))
    ix0, iy0, ix1, iy1 = max(0, x0), max(0, y0), min(w, x0 + sw), min(h, y0 + sh)
    if ix0 >= ix1 or iy0 >= iy1:
        return None
    part = sprite[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0].astype(np.float32)
    alpha = part[..., 3:] / 255
    roi = image[iy0:iy1, ix0:ix1].astype(np.float32)
    image[iy0:iy1, ix0:ix1] = (roi * (1 - alpha) + part[..., :3] * alpha).astype(np.uint8)
    return Cover(ix0, iy0, np.where(part[..., 3] > 127, 255, 0).astype(np.uint8))


def _composite_tile(
    texture: np.ndarray, sprite: np.ndarray, centre: tuple[float, float], angle_deg: float, thickness: float
) -> None:
    """Alpha-composite a BGRA tile sprite, turned, centred at ``centre``, with edge and shadow."""
    turned = turn_sprite(sprite, angle_deg, int(math.ceil(thickness)) * 2 + 4)
    out = turned.shape[0]
    x0 = int(round(centre[0] - out / 2))
    y0 = int(round(centre[1] - out / 2))
    h, w = texture.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + out > w or y0 + out > h:
        raise ValueError(f"tile at {centre} lies outside the sheet texture {w} x {h}")
    roi = texture[y0 : y0 + out, x0 : x0 + out].astype(np.float32)
    alpha = turned[..., 3].astype(np.float32) / 255
    shift = np.array([[1, 0, thickness * 0.8], [0, 1, thickness]], np.float32)
    edge = cv2.warpAffine(alpha, shift, (out, out))
    far = np.array([[1, 0, thickness * 2.0], [0, 1, thickness * 2.5]], np.float32)
    soft = cv2.GaussianBlur(cv2.warpAffine(alpha, far, (out, out)), (0, 0), max(1.0, thickness * 1.5))
    roi *= (1 - 0.35 * soft)[..., None]  # contact shadow on the paper
    solid = alpha > 0.9
    edge_colour = np.median(turned[..., :3][solid], axis=0) * 0.7 if solid.any() else (90, 90, 90)
    edged = roi * (1 - edge[..., None]) + np.asarray(edge_colour, np.float32) * edge[..., None]
    result = edged * (1 - alpha[..., None]) + turned[..., :3].astype(np.float32) * alpha[..., None]
    texture[y0 : y0 + out, x0 : x0 + out] = np.clip(result, 0, 255).astype(np.uint8)


def table_top(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table top around the sheet: wood grain, cloth or felt in a random colour.

    Returns:
        BGR uint8, size[1] x size[0] x 3.
    """
    w, h = size
    base = np.array(
        ((60, 100, 150), (45, 75, 110), (110, 110, 105), (60, 95, 50), (120, 140, 160))[int(rng.integers(5))],
        np.float32,
    )
    coarse = cv2.resize(
        rng.normal(0, 1, size=(12, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
    )
    fine = cv2.resize(rng.normal(0, 1, size=(h // 4, w // 4)).astype(np.float32), (w, h))
    ys = np.arange(h, dtype=np.float32)[:, None]
    grain = np.sin(ys / float(rng.uniform(3, 9)) + coarse * 4) * float(rng.uniform(0.0, 1.0))
    shade = 1 + 0.08 * coarse + 0.04 * fine + 0.06 * grain
    return np.clip(base * shade[..., None], 0, 255).astype(np.uint8)
