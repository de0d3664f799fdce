"""The simulated camera: pose (homography), lens distortion, light, sensor noise.

Coordinates: "board pixels" are board.png pixels of the printed sheet; "ideal" image pixels are
where a pinhole camera would see a point; "image" pixels are where the lens puts it. The lens
model is one radial term around the image centre, written from image to ideal pixels::

    ideal = c + (p - c) * (1 + k1 * r**2),   r = |p - c| / half_diagonal

so k1 > 0 is barrel distortion. ``CameraPose.homography`` maps board pixels to ideal pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board.lens import RadialLens

Size = tuple[int, int]


@dataclass(frozen=True, slots=True)
class CameraPose:
    """Where the camera looks at the sheet.

    Attributes:
        homography: float64 3 x 3, board pixels -> ideal image pixels.
        k1: radial lens distortion (see the module docstring), typically 0..0.1.
        size: image (width, height) in pixels.
    """

    homography: np.ndarray
    k1: float
    size: Size

    def __post_init__(self) -> None:
        if self.homography.shape != (3, 3) or not np.isfinite(self.homography).all():
            raise ValueError(f"homography must be a finite 3 x 3 matrix, got shape {self.homography.shape}")
        if not -0.3 < self.k1 < 0.3 or min(self.size) < 16:
            raise ValueError(
                f"k1 must be within (-0.3, 0.3) and the image >= 16 px, got {self.k1}, {self.size}"
            )

    def to_json(self) -> dict[str, object]:
        """{"homography": 3 x 3 nested list, "k1": float} for frames.json."""
        return {
            "homography": [[round(float(v), 8) for v in row] for row in self.homography],
            "k1": round(self.k1, 6),
        }

    def project(self, points: np.ndarray) -> np.ndarray:
        """Board pixels -> image pixels (shape: [n, 2] float64 both), distortion included."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        ideal = cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)
        return self._distort(ideal)

    def scale_at(self, point: tuple[float, float]) -> float:
        """Image pixels per board pixel near ``point`` (board pixels)."""
        p = np.array([point, (point[0] + 10.0, point[1]), (point[0], point[1] + 10.0)])
        q = self.project(p)
        return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[0])) / 20.0)

    def _distort(self, ideal: np.ndarray) -> np.ndarray:
        """Ideal -> image pixels (the lens model of vision.board.lens)."""
        return RadialLens(self.k1, self.size).distort(ideal)

    def texture_maps(self, texture_scale: float) -> tuple[np.ndarray, np.ndarray]:
        """cv2.remap maps from image pixels to pixels of a texture drawn at ``texture_scale``
        texture pixels per board pixel (fixed-point CV_16SC2 + CV_16UC1, for speed)."""
        w, h = self.size
        pixels = np.mgrid[0:h, 0:w][::-1].transpose(1, 2, 0).reshape(-1, 2)
        ideal = RadialLens(self.k1, self.size).undistort(pixels).reshape(-1, 1, 2)
        board = cv2.perspectiveTransform(ideal, np.linalg.inv(self.homography)).reshape(h, w, 2)
        tex = (board * texture_scale).astype(np.float32)
        return cv2.convertMaps(tex[..., 0], tex[..., 1], cv2.CV_16SC2)


def random_pose(
    board_size: Size,
    image_size: Size,
    rng: np.random.Generator,
    *,
    fill: float = 0.9,
    turn_deg: float = 6.0,
    keystone: float = 0.05,
    k1_max: float = 0.08,
) -> CameraPose:
    """A camera looking down at the sheet from roughly above.

    Args:
        board_size: (width, height) of board.png in pixels.
        image_size: (width, height) of the camera image.
        rng: random generator.
        fill: share of the image's limiting dimension that the sheet spans (before keystone).
        turn_deg: largest turn of the sheet in the image, degrees.
        keystone: largest shift of each sheet corner as a share of the sheet's size (perspective).
        k1_max: largest radial distortion.
    """
    bw, bh = board_size
    w, h = image_size
    scale = fill * min(w / bw, h / bh) * float(rng.uniform(0.95, 1.0))
    angle = math.radians(float(rng.uniform(-turn_deg, turn_deg)))
    corners = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float64) - [bw / 2, bh / 2]
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    placed = corners @ rot.T * scale + [w / 2, h / 2] + rng.uniform(-0.02, 0.02, size=2) * [w, h]
    placed += rng.uniform(-keystone, keystone, size=(4, 2)) * scale * np.array([bw, bh])
    src = (corners + [bw / 2, bh / 2]).astype(np.float32)
    homography = cv2.getPerspectiveTransform(src, placed.astype(np.float32)).astype(np.float64)
    return CameraPose(homography, float(rng.uniform(0.0, k1_max)), image_size)


def bumped(
    pose: CameraPose, rng: np.random.Generator, *, shift: float = 0.03, turn_deg: float = 2.5
) -> CameraPose:
    """The pose after the sheet was knocked: shifted by up to ``shift`` of the image and turned."""
    w, h = pose.size
    angle = math.radians(float(rng.uniform(-turn_deg, turn_deg)))
    c, s = math.cos(angle), math.sin(angle)
    dx, dy = rng.uniform(-shift, shift, size=2) * [w, h]
    cx, cy = w / 2, h / 2
    move = np.array([[c, -s, cx - c * cx + s * cy + dx], [s, c, cy - s * cx - c * cy + dy], [0, 0, 1]])
    return CameraPose(move @ pose.homography, pose.k1, pose.size)


@dataclass(frozen=True, slots=True)
class Lighting:
    """Uneven and slowly changing light, as a gain on the image.

    Attributes:
        direction: unit vector (x, y) in the image along which the light falls off.
        slope: gain change from the image centre to its edge along ``direction``.
        vignette: gain lost in the corners.
        level: mean gain.
        swing: amplitude of the slow change of the mean gain over time.
        period: period of that change, seconds.
        phase: phase of that change, radians.
        tint: per-channel gain (B, G, R) of the light's colour.
        glare: peak extra gain of a soft glare spot (0 for none) at ``glare_at`` (image fractions).
        glare_at: glare centre as fractions of the image size.
        jumps: sudden changes of the light (a lamp switched, a cloud): (time in seconds, gain
            factor) pairs; from each time on the gain is multiplied by its factor.
    """

    direction: tuple[float, float]
    slope: float
    vignette: float
    level: float
    swing: float
    period: float
    phase: float
    tint: tuple[float, float, float]
    glare: float
    glare_at: tuple[float, float]
    jumps: tuple[tuple[float, float], ...] = ()

    def __post_init__(self) -> None:
        if self.period <= 0 or not 0 < self.level < 2 or self.swing < 0:
            raise ValueError(f"lighting needs period > 0, 0 < level < 2, swing >= 0: {self}")

    def gain(self, t: float, size: Size, shadow: np.ndarray | None = None) -> np.ndarray:
        """The gain at time ``t`` on a coarse grid of ``size`` (width, height).

        Args:
            t: seconds.
            size: grid (width, height); upscale the result to the image.
            shadow: optional float32 H x W darkening 0..1 on the same grid (1 = full shadow).

        Returns:
            float32, H x W x 3 (B, G, R gains).
        """
        w, h = size
        xs, ys = np.meshgrid(np.linspace(-1, 1, w, dtype=np.float32), np.linspace(-1, 1, h, dtype=np.float32))
        g = 1 + self.slope * (xs * self.direction[0] + ys * self.direction[1])
        g *= 1 - self.vignette * (xs**2 + ys**2) / 2
        g *= self.level * (1 + self.swing * math.sin(2 * math.pi * t / self.period + self.phase))
        if self.glare > 0:
            gx, gy = self.glare_at[0] * 2 - 1, self.glare_at[1] * 2 - 1
            g += self.glare * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / 0.02)
        for when, factor in self.jumps:
            if t >= when:
                g *= factor
        if shadow is not None:
            g *= 1 - shadow
        return g[..., None] * np.array(self.tint, np.float32)


def random_lighting(
    rng: np.random.Generator,
    *,
    change: float = 0.1,
    glare: bool = True,
    jumps: int = 0,
    duration: float = 60.0,
) -> Lighting:
    """Random uneven light; ``change`` is the amplitude of its slow change over time, ``jumps``
    the number of sudden changes (by 15..30 %, up or down) within ``duration`` seconds."""
    angle = float(rng.uniform(0, 2 * math.pi))
    warm = float(rng.uniform(-0.06, 0.06))
    return Lighting(
        direction=(math.cos(angle), math.sin(angle)),
        slope=float(rng.uniform(0.05, 0.25)),
        vignette=float(rng.uniform(0.05, 0.3)),
        level=float(rng.uniform(0.85, 1.05)),
        swing=change * float(rng.uniform(0.5, 1.0)),
        period=float(rng.uniform(20, 60)),
        phase=float(rng.uniform(0, 2 * math.pi)),
        tint=(1 - warm, 1.0, 1 + warm),
        glare=float(rng.uniform(0.1, 0.35)) if glare and rng.random() < 0.5 else 0.0,
        glare_at=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))),
        jumps=tuple(
            sorted(
                (float(rng.uniform(0, duration)), float(rng.choice([0.8, 1.2]) * rng.uniform(0.9, 1.1)))
                for _ in range(jumps)
            )
        ),
    )


class NoiseBank:
    """Pre-drawn sensor noise; each frame takes a randomly shifted window (cheap and seeded).

    Args:
        size: image (width, height).
        sigma: standard deviation of the noise in grey levels.
        rng: random generator.
        count: number of noise images drawn up front.
    """

    _MARGIN = 32

    def __init__(self, size: Size, sigma: float, rng: np.random.Generator, count: int = 3) -> None:
        w, h = size
        m = self._MARGIN
        self._size = size
        self._images = [
            np.clip(128 + rng.normal(0, sigma, size=(h + m, w + m, 3)), 0, 255).astype(np.uint8)
            for _ in range(count)
        ]

    def add(self, image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Return ``image`` (BGR uint8) plus a window of noise."""
        w, h = self._size
        bank = self._images[int(rng.integers(len(self._images)))]
        x, y = (int(v) for v in rng.integers(0, self._MARGIN, size=2))
        return cv2.addWeighted(image, 1.0, bank[y : y + h, x : x + w], 1.0, -128.0)


def still_photo(
    canvas: np.ndarray, ids: np.ndarray, rng: np.random.Generator, keystone: float, blur_max: float,
    noise_max: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A drawn table as a camera held still above it sees it: each photo corner moved by up to
    ``keystone`` of the photo (a slant), uneven light (:func:`random_lighting`), a Gaussian blur of
    sigma 0.3..``blur_max`` pixels and sensor noise of 1..``noise_max`` grey levels.

    Args:
        canvas: the table drawn, BGR uint8 H x W x 3.
        ids: int32 H x W, which tile each pixel shows (0: none).
        rng: every random choice follows it.

    Returns:
        (photo BGR uint8 H x W x 3, ``ids`` moved with it, the 3 x 3 homography from canvas to
        photo pixels).
    """
    h, w = canvas.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    moved = corners + (rng.uniform(-keystone, keystone, (4, 2)) * [w, h]).astype(np.float32)
    homography = cv2.getPerspectiveTransform(corners, moved)
    image = cv2.warpPerspective(canvas, homography, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    gain = cv2.resize(random_lighting(rng).gain(0.0, (32, 24)), (w, h), interpolation=cv2.INTER_LINEAR)
    image = np.clip(image * gain, 0, 255).astype(np.uint8)
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.3, blur_max)))
    image = NoiseBank((w, h), float(rng.uniform(1.0, noise_max)), rng, count=1).add(image, rng)
    moved_ids = cv2.warpPerspective(ids, homography, (w, h), flags=cv2.INTER_NEAREST,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return image, moved_ids, homography


def jpeg_round_trip(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` (BGR uint8) as a camera's JPEG of ``quality`` (0..100) decodes it: its blocks and
    ringing; the image itself where OpenCV cannot encode it."""
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
    return image if decoded is None else decoded
