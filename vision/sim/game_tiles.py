"""Tiles of Yushino, Super Wild and Holominoes, rendered upright on a transparent canvas.

Like :func:`vision.sim.tiles.render_tile` (the MODLINSEQ pentagon), each function draws one tile
as BGRA uint8 on a square canvas, alpha 255 on the tile and 0 outside. The games (games.md):

- Yushino: square tiles "0".."9" and a blank ("#"); a printed mark tells up from down, an
  underline below the digit or a bar at the tile's foot (the style's ``variant``).
- Super Wild: Rummikub-like portrait tiles 1..13 in four colours (K, B, O, R) and the Super Wild
  ("W", face "joker"). The 6 and the 9 of a colour are one tile, printed the same either way up:
  a "6" centred with no up mark, face "6/9". The other numbers sit in the upper part
  (``variant`` "upper") or in the middle ("centre").
- Holominoes: flat-topped hexagons with three digits 1..6 at alternate corners (E, SW, NW of the
  upright tile) and bites (notches) at the other three (NE, W, SE); the digits are printed
  upright (``variant`` "upright") or pointing at their corner ("pointing").

Fonts come from :func:`vision.sim.tiles.fonts` of the style's split, so held-out font families
stay out of training renders.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.sim.options import Split
from vision.sim.tiles import FontSpec, TileStyleError, blend_ink, fonts, printed_glyph, tile_outline

#: The games drawn here.
GAMES: tuple[str, ...] = ("yushino", "superwild", "holominoes")
#: Faces of each game's tiles ("#" is Yushino's blank, "joker" the Super Wild).
YUSHINO_FACES: tuple[str, ...] = (*(str(v) for v in range(10)), "#")
SUPERWILD_FACES: tuple[str, ...] = (*(str(v) for v in range(1, 14) if v not in (6, 9)), "6/9", "joker")
HOLOMINO_DIGITS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
#: Super Wild ink colours (BGR) by colour letter: shades that printed sets use.
SUPERWILD_INKS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "K": ((35, 30, 30), (60, 50, 50), (20, 20, 20)),
    "B": ((165, 75, 20), (140, 60, 10), (190, 110, 40)),
    "O": ((30, 135, 235), (40, 160, 245), (20, 110, 220)),
    "R": ((45, 40, 195), (60, 40, 170), (40, 30, 220)),
}
#: Tile bodies (BGR) and the inks that contrast with them: ivory, white, cream, pale wood, pale
#: green, then dark bodies printed in light ink.
_BODY_INKS: tuple[tuple[tuple[int, int, int], tuple[tuple[int, int, int], ...]], ...] = (
    ((222, 238, 244), ((35, 30, 30), (120, 50, 20), (40, 40, 160), (50, 100, 30))),
    ((245, 245, 245), ((35, 30, 30), (150, 60, 20), (40, 40, 170))),
    ((200, 228, 240), ((35, 30, 30), (30, 60, 120), (90, 40, 40))),
    ((150, 190, 215), ((20, 20, 20), (30, 40, 90))),
    ((205, 232, 210), ((35, 30, 30), (40, 40, 150))),
    ((40, 35, 35), ((240, 240, 240), (120, 215, 240))),
    ((110, 50, 25), ((240, 240, 240), (150, 230, 250))),
    ((40, 40, 130), ((240, 240, 240),)),
)
_VARIANTS: dict[str, tuple[str, ...]] = {
    "yushino": ("underline", "bar"),
    "superwild": ("upper", "centre"),
    "holominoes": ("upright", "pointing"),
}
#: Corner angles (degrees, y down the picture) of an upright Holominoes tile: numbered E, SW, NW;
#: bitten SE, W, NE.
HOLOMINO_NUMBERED_DEG: tuple[float, ...] = (0.0, 120.0, 240.0)
HOLOMINO_BITTEN_DEG: tuple[float, ...] = (60.0, 180.0, 300.0)
#: A digit's centre lies this fraction of the radius from the tile's centre towards its corner.
HOLOMINO_DIGIT_AT = 0.58
def _unit(angles_deg: np.ndarray) -> np.ndarray:
    rad = np.deg2rad(angles_deg)
    return np.stack([np.cos(rad), np.sin(rad)], axis=-1)


_HEX_CORNERS = _unit(np.arange(6) * 60.0)
_NUMBERED = _unit(np.array(HOLOMINO_NUMBERED_DEG))
_BITTEN = _unit(np.array(HOLOMINO_BITTEN_DEG))
#: A bite's radius, a fraction of the tile's radius.
_BITE = 0.24


@dataclass(frozen=True, slots=True)
class GameStyle:
    """How the tiles of one set look.

    Attributes:
        game: "yushino", "superwild" or "holominoes".
        split: "train" or "held_out": which set the font belongs to.
        font: the face font.
        body: tile body colour, BGR.
        ink: ink colour, BGR (Super Wild numbers use their colour's ink instead).
        variant: Yushino "underline" or "bar"; Super Wild "upper" or "centre"; Holominoes
            "upright" or "pointing".
        vary_glyphs: print each face varied beyond the font's own design (vision.sim.tiles.TileStyle).
    """

    game: str
    split: Split
    font: FontSpec
    body: tuple[int, int, int]
    ink: tuple[int, int, int]
    variant: str
    vary_glyphs: bool = False

    def __post_init__(self) -> None:
        if self.game not in GAMES or self.variant not in _VARIANTS[self.game]:
            raise ValueError(f"game style: bad game {self.game!r} or variant {self.variant!r}")


@dataclass(frozen=True, slots=True)
class HolominoTile:
    """A rendered Holominoes tile.

    Attributes:
        image: BGRA uint8, s x s x 4, the tile upright (flat top).
        centre: (x, y) of the hexagon's centre, canvas pixels.
        radius: the hexagon's radius (centre to corner), canvas pixels.
        digits: float [3, 2], (x, y) of the three digits' centres (E, SW, NW corners).
        bites: float [3, 2], (x, y) of the three bitten corners' vertices (SE, W, NE).
    """

    image: np.ndarray
    centre: tuple[float, float]
    radius: float
    digits: np.ndarray
    bites: np.ndarray


def sample_game_style(rng: np.random.Generator, split: Split, game: str) -> GameStyle:
    """Draw a random tile style of ``game`` with a font of ``split``.

    Raises:
        ValueError: for an unknown game or split.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {GAMES}")
    font_list = fonts(split)
    font = font_list[int(rng.integers(len(font_list)))]
    body, inks = _BODY_INKS[int(rng.integers(len(_BODY_INKS)))]
    if game == "superwild":  # coloured inks need a pale body: ivory, white, cream or pale green
        body, inks = _BODY_INKS[(0, 1, 2, 4)[int(rng.integers(4))]]
    ink = inks[int(rng.integers(len(inks)))]
    variants = _VARIANTS[game]
    return GameStyle(game, split, font, body, ink, variants[int(rng.integers(len(variants)))])


def render_yushino(face: str, style: GameStyle, size_px: int, rng: np.random.Generator) -> np.ndarray:
    """Render a Yushino tile (a rounded square filling the canvas).

    Args:
        face: "0".."9" or "#" (the blank).
        style: a "yushino" style.
        size_px: canvas side in pixels (>= 16).
        rng: small variations (shade, glyph size and position).

    Returns:
        BGRA uint8, size_px x size_px x 4.

    Raises:
        TileStyleError: for a face Yushino does not have, another game's style or size_px < 16.
    """
    _check(style, "yushino", face, YUSHINO_FACES, size_px)
    s = size_px
    image, alpha, body, ink = _blank(style, _rounded_square(s), s, rng)
    centre = np.array([0.5, 0.45]) * s + rng.uniform(-0.02, 0.02, 2) * s
    t = max(1, round(s * 0.045))
    if face != "#":
        box = np.array([0.5, 0.5]) * s * rng.uniform(0.75, 1.1)  # small to bold prints
        _, y0, _, gh = _print(image, style, face, centre, box, ink, rng=rng)
        if style.variant == "underline":
            y = y0 + gh + 2 * t
            cv2.line(image, (round(0.36 * s), y), (round(0.64 * s), y), ink, t, cv2.LINE_AA)
    if style.variant == "bar":
        foot = round(0.86 * s)
        cv2.line(image, (round(0.32 * s), foot), (round(0.68 * s), foot), ink, t, cv2.LINE_AA)
    return _finish(image, alpha)


def render_superwild(
    face: str, colour: str, style: GameStyle, size_px: int, rng: np.random.Generator
) -> np.ndarray:
    """Render a Super Wild tile (a portrait rectangle 3/4 as wide as the canvas, full height).

    Args:
        face: "1".."13" but "6" and "9", "6/9" (printed as a centred "6" with no up mark), or
            "joker" (the Super Wild, printed "W" in a ring).
        colour: "K", "B", "O" or "R" for numbers; "-" for the Super Wild.
        style: a "superwild" style.
        size_px: canvas side in pixels (>= 16).
        rng: small variations.

    Returns:
        BGRA uint8, size_px x size_px x 4.

    Raises:
        TileStyleError: for a face or colour the set does not have, another game's style or size_px < 16.
    """
    _check(style, "superwild", face, SUPERWILD_FACES, size_px)
    if (face == "joker") != (colour == "-") or (colour != "-" and colour not in SUPERWILD_INKS):
        raise TileStyleError(f"Super Wild tile {face!r} cannot have colour {colour!r}")
    s = size_px
    image, alpha, body, _ = _blank(style, tile_outline("rectangle", s), s, rng)
    shades = SUPERWILD_INKS.get(colour, (style.ink,))
    base = shades[int(rng.integers(len(shades)))]
    ink = tuple(min(255, max(0, c + d)) for c, d in zip(base, rng.integers(-12, 13, 3).tolist(), strict=True))
    upper = style.variant == "upper" and face not in ("6/9", "joker")
    centre = np.array([0.5, 0.40 if upper else 0.5]) * s + rng.uniform(-0.02, 0.02, 2) * s
    box = np.array([0.58, 0.36 if upper else 0.42]) * s * rng.uniform(0.8, 1.08)
    if upper:  # the Rummikub-like tinted disc, and a foot bar or a faint maker's name at the foot
        tint = tuple(int(c * 0.9) for c in body)
        cv2.circle(image, _pt(centre), int(box[0] * 0.62), tint, -1, cv2.LINE_AA)
        if rng.random() < 0.5:
            foot = int(0.86 * s)
            cv2.line(image, (int(0.3 * s), foot), (int(0.45 * s), foot), tint, max(1, s // 28))
        else:
            _print(image, style, "Super Wild", np.array([0.5, 0.8]) * s, np.array([0.5, 0.08]) * s, tint)
    if face == "joker":
        ring = SUPERWILD_INKS["RKBO"[int(rng.integers(4))]][0]
        cv2.circle(image, _pt(centre), int(0.3 * s), ring, max(1, s // 24), cv2.LINE_AA)
        _print(image, style, "W", centre, box * 0.7, ink, rng=rng)
    else:
        _print(image, style, "6" if face == "6/9" else face, centre, box, ink, rng=rng)
    return _finish(image, alpha)


def render_holomino(
    digits: tuple[int, int, int], style: GameStyle, size_px: int, rng: np.random.Generator
) -> HolominoTile:
    """Render a Holominoes tile: a flat-topped hexagon as wide as the canvas, bitten at NE, W, SE.

    Args:
        digits: the numbers 1..6 at the E, SW and NW corners.
        style: a "holominoes" style ("upright" digits, or "pointing" at their corner).
        size_px: canvas side in pixels (>= 16).
        rng: small variations.

    Returns:
        The tile (BGRA uint8, size_px x size_px x 4) with its centre, radius, digits and bites.

    Raises:
        TileStyleError: for digits outside 1..6, another game's style or size_px < 16.
    """
    if len(digits) != 3 or any(d not in HOLOMINO_DIGITS for d in digits):
        raise TileStyleError(f"a Holominoes tile has three digits 1..6, got {digits!r}")
    _check(style, "holominoes", str(digits[0]), tuple(str(d) for d in HOLOMINO_DIGITS), size_px)
    s = size_px
    c = np.array([s / 2, s / 2])
    r = s / 2 - 1
    corners = c + r * _HEX_CORNERS
    image, alpha, _, ink = _blank(style, corners, s, rng)
    bites = c + r * _BITTEN
    rim = tuple(int(v * 0.78) for v in image[_pt(c)[1], _pt(c)[0]])
    for b in bites:
        cv2.circle(alpha, _pt(b), round(_BITE * r), 0, -1, cv2.LINE_AA)
        cv2.circle(image, _pt(b), round(_BITE * r) + 1, rim, max(1, s // 48), cv2.LINE_AA)
    at = c + HOLOMINO_DIGIT_AT * r * _NUMBERED + rng.uniform(-0.015, 0.015, (3, 2)) * s
    box = np.array([0.30, 0.30]) * r * rng.uniform(0.8, 1.2)
    for corner, (digit, centre) in enumerate(zip(digits, at, strict=True)):
        _print(image, style, str(digit), centre, box, ink, holomino_digit_turn(style, corner), rng)
    return HolominoTile(_finish(image, alpha), (float(c[0]), float(c[1])), float(r), at,
                        bites)


def holomino_digit_turn(style: GameStyle, corner: int) -> float:
    """How far a Holominoes digit is turned on its tile (degrees, counter-clockwise as seen): 0 for
    "upright" digits; a "pointing" digit's foot faces the tile's centre, its top the ``corner``
    (0, 1, 2: E, SW, NW, HOLOMINO_NUMBERED_DEG)."""
    return -(HOLOMINO_NUMBERED_DEG[corner] + 90.0) if style.variant == "pointing" else 0.0


def _check(style: GameStyle, game: str, face: str, faces: tuple[str, ...], size_px: int) -> None:
    if style.game != game:
        raise TileStyleError(f"a {style.game} style cannot draw a {game} tile")
    if face not in faces:
        raise TileStyleError(f"{game} has no face {face!r}; expected one of {faces}")
    if size_px < 16:
        raise TileStyleError(f"size_px must be >= 16, got {size_px}")


def _blank(
    style: GameStyle, outline: np.ndarray, s: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int], tuple[int, int, int]]:
    """A tile body (BGRA, to be drawn on in BGR), its alpha, and this tile's body and ink colours."""
    jitter = rng.integers(-8, 9, size=3).tolist()
    body = tuple(min(255, max(0, c + d)) for c, d in zip(style.body, jitter, strict=True))
    ink = tuple(min(255, max(0, c + d // 2)) for c, d in zip(style.ink, jitter, strict=True))
    fixed = np.round(outline * 16).astype(np.int32)
    alpha = np.zeros((s, s), np.uint8)
    cv2.fillPoly(alpha, [fixed], 255, cv2.LINE_AA, shift=4)
    image = np.empty((s, s, 4), np.uint8)  # drawn in BGR; the alpha channel is set last (_finish)
    image[:] = (*body, 0)
    rim = tuple(int(v * 0.78) for v in body)
    cv2.polylines(image, [fixed], True, rim, max(1, s // 32), cv2.LINE_AA, shift=4)
    return image, alpha, body, ink


def _finish(image: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    image[..., 3] = alpha
    return image


def _print(
    image: np.ndarray,
    style: GameStyle,
    text: str,
    centre: np.ndarray,
    box: np.ndarray,
    ink: tuple[int, ...],
    turn_deg: float = 0.0,
    rng: np.random.Generator | None = None,
) -> tuple[int, int, int, int]:
    """Print ``text`` fitted into ``box`` (w, h) centred at ``centre``, turned by ``turn_deg``
    (counter-clockwise), in ``style``'s font, varied by ``rng`` where the style varies its glyphs;
    returns the upright glyph's (x0, y0, w, h)."""
    mask = printed_glyph(style.font, text, rng if style.vary_glyphs else None)
    scale = min(box[0] / mask.shape[1], box[1] / mask.shape[0])
    gw, gh = max(1, int(mask.shape[1] * scale)), max(1, int(mask.shape[0] * scale))
    glyph = cv2.resize(mask, (gw, gh), interpolation=cv2.INTER_AREA)
    if turn_deg:
        side = int(math.ceil(math.hypot(gw, gh))) + 2
        matrix = np.asarray(cv2.getRotationMatrix2D((gw / 2, gh / 2), turn_deg, 1.0), np.float64)
        matrix[:, 2] += np.array([side - gw, side - gh]) / 2
        glyph = cv2.warpAffine(glyph, matrix, (side, side), flags=cv2.INTER_LINEAR)
    x0, y0 = int(centre[0] - glyph.shape[1] / 2), int(centre[1] - glyph.shape[0] / 2)
    blend_ink(image[..., :3], glyph, x0, y0, (ink[0], ink[1], ink[2]))
    return int(centre[0] - gw / 2), int(centre[1] - gh / 2), gw, gh


@functools.lru_cache(maxsize=256)
def _rounded_square(s: int) -> np.ndarray:
    """The outline (float [n, 2]) of a square filling an s x s canvas, its corners rounded."""
    polygon = np.array([[1.0, 1.0], [s - 1.0, 1.0], [s - 1.0, s - 1.0], [1.0, s - 1.0]])
    r = 0.09 * s
    points = []
    n = len(polygon)
    for i in range(n):
        p, prev, nxt = polygon[i], polygon[i - 1], polygon[(i + 1) % n]
        a, b = prev - p, nxt - p
        a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
        centre = p + (a + b) / np.linalg.norm(a + b) * r * math.sqrt(2)
        start = math.atan2(-a[1] - b[1], -a[0] - b[0])  # the corner's outward direction
        for da in np.linspace(-math.pi / 4, math.pi / 4, 5):
            points.append(centre + r * np.array([math.cos(start + da), math.sin(start + da)]))
    return np.array(points)


def _pt(p: np.ndarray) -> tuple[int, int]:
    return int(round(float(p[0]))), int(round(float(p[1])))
