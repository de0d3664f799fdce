"""Hands and arms over the board: simple shapes (forearm, sleeve, palm, fingers, thumb) and shadows.

A hand is given by its fingertip point and the shoulder point it comes from, both in image pixels,
and the image scale in pixels per millimetre. Sizes are those of an adult hand (about 19 cm long).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

Point = tuple[float, float]

#: Skin tones (BGR), light to dark.
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (170, 190, 235),
    (140, 170, 225),
    (110, 145, 200),
    (80, 115, 170),
    (55, 80, 125),
    (40, 55, 90),
)
#: Sleeve colours (BGR).
SLEEVES: tuple[tuple[int, int, int], ...] = (
    (140, 60, 30),
    (40, 40, 40),
    (200, 200, 200),
    (40, 40, 150),
    (60, 120, 60),
    (150, 120, 90),
)


@dataclass(frozen=True, slots=True)
class HandLook:
    """How one player's hand looks.

    Attributes:
        skin: skin colour, BGR.
        sleeve: sleeve colour, BGR.
        right: a right hand (thumb on the left of the arm as seen from the shoulder) or a left one.
        size: size factor (1.0 = 19 cm from wrist crease to fingertip... roughly).
        sleeve_mm: bare forearm length before the sleeve starts, millimetres.
    """

    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    right: bool = True
    size: float = 1.0
    sleeve_mm: float = 120.0

    def __post_init__(self) -> None:
        if not 0.5 <= self.size <= 1.5 or self.sleeve_mm < 0:
            raise ValueError(
                f"hand size must be 0.5..1.5 and sleeve_mm >= 0, got {self.size}, {self.sleeve_mm}"
            )


def random_look(rng: np.random.Generator) -> HandLook:
    """A random hand look."""
    return HandLook(
        SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
        SLEEVES[int(rng.integers(len(SLEEVES)))],
        bool(rng.random() < 0.85),
        float(rng.uniform(0.85, 1.15)),
        float(rng.uniform(40, 200)),
    )


@dataclass(frozen=True, slots=True)
class Stroke:
    """A round-capped thick line (a capsule) in image pixels; sleeve strokes take the sleeve colour."""

    a: Point
    b: Point
    width: float
    sleeve: bool = False

    def __post_init__(self) -> None:
        if not self.width > 0:
            raise ValueError(f"stroke width must be > 0 pixels, got {self.width!r}")


def hand_strokes(shoulder: Point, tip: Point, px_per_mm: float, look: HandLook) -> list[Stroke]:
    """The capsules making up an arm and hand, back to front.

    Args:
        shoulder: where the arm comes from, image pixels (usually outside the image).
        tip: the fingertips, image pixels.
        px_per_mm: image pixels per millimetre at the hand's height.
        look: size and handedness.

    Returns:
        Strokes in image pixels: sleeve, forearm, wrist, palm, thumb, four fingers.
    """
    sx, sy = shoulder
    tx, ty = tip
    length = math.hypot(tx - sx, ty - sy) or 1.0
    u = np.array([(tx - sx) / length, (ty - sy) / length])
    v = np.array([-u[1], u[0]]) * (-1 if look.right else 1)  # thumb side of a palm-down hand
    k = px_per_mm * look.size
    f = np.array(tip)

    def at(along: float, across: float) -> Point:
        p = f + u * along * k + v * across * k
        return (float(p[0]), float(p[1]))

    strokes = [
        Stroke(shoulder, at(-160 - look.sleeve_mm, 0), 80 * k, sleeve=True),
        Stroke(at(-160 - look.sleeve_mm, 0), at(-150, 0), 62 * k),
        Stroke(at(-150, 0), at(-110, 0), 58 * k),  # wrist
        Stroke(at(-110, -8), at(-85, -8), 80 * k),  # palm
        Stroke(at(-115, 25), at(-60, 45), 24 * k),  # thumb base
        Stroke(at(-60, 45), at(-30, 52), 19 * k),  # thumb tip
    ]
    for across, reach in ((-33, -14), (-12, -3), (9, 0), (29, -6)):
        strokes.append(Stroke(at(-80, across * 0.95), at(reach - 8, across * 0.8), 17 * k))
    return strokes


def _rasterise(
    canvas: np.ndarray, strokes: list[Stroke], origin: Point, scale: float, *, sleeve: bool | None
) -> None:
    """Fill the strokes (optionally only sleeve or only skin ones) with 255 on a uint8 canvas."""
    for s in strokes:
        if sleeve is not None and s.sleeve != sleeve:
            continue
        a = (round((s.a[0] - origin[0]) * scale * 16), round((s.a[1] - origin[1]) * scale * 16))
        b = (round((s.b[0] - origin[0]) * scale * 16), round((s.b[1] - origin[1]) * scale * 16))
        cv2.line(canvas, a, b, 255, max(1, round(s.width * scale)), cv2.LINE_AA, shift=4)


@dataclass(frozen=True, slots=True)
class Cover:
    """Where something painted over the sheet (a hand and arm, a held tile) lies in the image.

    Attributes:
        x0: left of the region of interest holding it, image pixels.
        y0: top of that region, image pixels.
        mask: uint8 h x w, 255 where it covers the image (a hand: at the end of the exposure).
    """

    x0: int
    y0: int
    mask: np.ndarray

    def __post_init__(self) -> None:
        if self.mask.ndim != 2 or self.x0 < 0 or self.y0 < 0:
            raise ValueError(
                f"hand cover needs a 2-D mask at x0, y0 >= 0, got {self.mask.shape} at {self.x0}, {self.y0}"
            )

    def overlaps(self, region: np.ndarray) -> bool:
        """Whether the hand covers any non-zero pixel of ``region`` (uint8, image H x W)."""
        h, w = self.mask.shape
        part = region[self.y0 : self.y0 + h, self.x0 : self.x0 + w]
        return cv2.countNonZero(cv2.bitwise_and(self.mask, part)) > 0

    def covers(self, points: np.ndarray) -> np.ndarray:
        """Which image points (shape: [n, 2], x y) lie under the hand (bool, shape: [n])."""
        h, w = self.mask.shape
        xy = np.round(np.asarray(points) - [self.x0, self.y0]).astype(int)
        inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
        hit = np.zeros(len(xy), bool)
        hit[inside] = self.mask[xy[inside, 1], xy[inside, 0]] > 127
        return hit


def draw_hand(
    image: np.ndarray, strokes: list[Stroke], look: HandLook, motion: Point = (0.0, 0.0)
) -> Cover | None:
    """Paint an arm and hand onto ``image`` in place, smeared over ``motion``.

    Args:
        image: BGR uint8, H x W x 3.
        strokes: from :func:`hand_strokes`.
        look: colours.
        motion: how far (x, y) the hand moved during the exposure, image pixels (motion blur).

    Returns:
        Where the hand lies, or None when it is outside the image.
    """
    h, w = image.shape[:2]
    pts = np.array([p for s in strokes for p in (s.a, s.b)])
    pad = max(s.width for s in strokes) / 2 + 2 + max(abs(motion[0]), abs(motion[1]))
    x0, y0 = (int(max(0, math.floor(v - pad))) for v in pts.min(axis=0))
    x1 = int(min(w, math.ceil(pts[:, 0].max() + pad)))
    y1 = int(min(h, math.ceil(pts[:, 1].max() + pad)))
    if x0 >= x1 or y0 >= y1:
        return None
    roi = image[y0:y1, x0:x1]
    covered = np.zeros(roi.shape[:2], np.uint8)
    _rasterise(covered, strokes, (x0, y0), 1.0, sleeve=None)
    if not covered.any():
        return None
    skin = np.zeros_like(covered)
    _rasterise(skin, strokes, (x0, y0), 1.0, sleeve=False)
    base = np.empty_like(roi)
    base[:] = look.sleeve
    np.copyto(base, np.array(look.skin, np.uint8), where=skin[..., None] > 0)
    # round the shading a little: darker towards the outline (gain 0.78 .. 1.0)
    shade = cv2.blur(covered, (9, 9))
    gain = cv2.addWeighted(shade, 56 / 255, shade, 0, 199)
    alpha = cv2.GaussianBlur(covered, (3, 3), 0)
    paint = cv2.multiply(
        cv2.multiply(base, cv2.merge([gain] * 3), scale=1 / 255), cv2.merge([alpha] * 3), scale=1 / 255
    )  # premultiplied by alpha
    if math.hypot(*motion) >= 1.5:  # a box along the motion: a cheap stand-in for a line kernel
        box = (max(1, round(abs(motion[0]))), max(1, round(abs(motion[1]))))
        paint = cv2.blur(paint, box)
        alpha = cv2.blur(alpha, box)
    keep = cv2.merge([cv2.bitwise_not(alpha)] * 3)
    roi[:] = cv2.add(cv2.multiply(roi, keep, scale=1 / 255), paint)
    return Cover(x0, y0, covered)


def shadow_mask(
    size: tuple[int, int], strokes: list[Stroke], image_size: tuple[int, int], offset: Point, strength: float
) -> np.ndarray:
    """A soft shadow of the strokes on a coarse grid.

    Args:
        size: coarse grid (width, height).
        strokes: from :func:`hand_strokes`, in image pixels.
        image_size: image (width, height).
        offset: shadow offset in image pixels (away from the light).
        strength: darkening in the shadow's core, 0..1.

    Returns:
        float32, H x W on the coarse grid, 0 (lit) .. strength (full shadow).
    """
    w, h = size
    scale = w / image_size[0]
    canvas = np.zeros((h, w), np.uint8)
    _rasterise(canvas, strokes, (-offset[0], -offset[1]), scale, sleeve=None)
    k = max(3, int(w / 40) | 1)
    return cv2.GaussianBlur(canvas, (k, k), 0).astype(np.float32) * (strength / 255)
