"""The ink on a photo's tile regions and its connected components (stage 2 of
vision/table/loose_tiles.py, before they are grouped into faces by vision/table/loose_glyphs.py).

Ink is far from its region's body colour (:func:`vision.reader.glyphs.ink_map`), or pale coloured ink
whose a*b* distance from the body rises above its neighbourhood's (``FAINT_RISE``). Its
connected components are numbered as over the whole photo; those joined by weaker ink
(``INK_JOIN``) share a weak-ink component. A component's frame tells whether it lies on a tile.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.reader.glyphs import lab_ink_map

#: Ink map level above which a pixel is ink.
INK_LEVEL = 0.5

#: Pale coloured ink (orange on cream, in dim light: far from the body in a*b* but under
#: INK_LEVEL) is ink too where its a*b* distance from the body (/ 70) is above FAINT_CHROMA and
#: FAINT_RISE above that of its neighbourhood (a morphological opening FAINT_REACH times the
#: photo's long side across: wider than a stroke), so that a whole tile's shift of colour (warm
#: light, a region's median body off) or woven fabric's dark threads add none. Chosen on TRAIN
#: (REACH 0.011/0.015/0.021 at CHROMA/RISE 0.25/0.25 -> recall 1739/1744/1745, right faces 1713/1731/1731;
#: at REACH 0.015, CHROMA/RISE 0.25/0.25, 0.3/0.25, 0.35/0.25, 0.3/0.2, 0.3/0.3, 0.35/0.3 ->
#: recall 1744/1746/1747/1746/1745/1746, extras 26/27/31/29/27/27, right faces
#: 1731/1732/1727/1730/1728/1727; the lightness-and-chroma ink map's rise instead: 111 extras).
FAINT_CHROMA = 0.3
FAINT_RISE = 0.25
FAINT_REACH = 0.015

#: Components of ink joined by ink above this level (a weakly printed stroke broken in two: the
#: three pieces of a pale orange "3") are one component when together they look like a glyph.
INK_JOIN = 0.35


@dataclass(frozen=True, slots=True)
class RegionInk:
    """The ink of a photo's tile regions (full-resolution photo pixels; H x W the photo's).

    Attributes:
        image: the photo, BGR uint8, H x W x 3.
        ink: float32 (H x W) ink map, 0 outside the regions.
        labels: int32 (H x W) the ink components (``ink`` above ``INK_LEVEL`` or faint ink), 0
            elsewhere; ``stats`` their cv2.connectedComponentsWithStats stats (int32 [n, 5]).
        joined: int32 the weak-ink components (``INK_JOIN``) over the regions' box, whose
            top-left corner is ``origin`` (x, y).
        regions: int32 (H x W) the surface's regions; ``body_lab`` float32 (H x W x 3) their
            body colours (OpenCV 8-bit Lab).
        body_sum, region_sum: integral images (H + 1 x W + 1) of body and region pixels.
    """

    image: np.ndarray
    ink: np.ndarray
    labels: np.ndarray
    stats: np.ndarray
    joined: np.ndarray
    origin: tuple[int, int]
    regions: np.ndarray
    body_lab: np.ndarray
    body_sum: np.ndarray
    region_sum: np.ndarray

    def on_tile(self, x0: int, y0: int, x1: int, y1: int, share: float = 0.85) -> bool:
        """Whether the frame around a box (x1, y1 exclusive) is mostly tile (at least ``share``
        of it in a tile region): body, or the face's tinted disc."""
        h, w = self.ink.shape
        r = max(2, int(0.3 * max(x1 - x0, y1 - y0)))
        outer = (max(0, x0 - r), max(0, y0 - r), min(w, x1 + r), min(h, y1 + r))
        frame = (outer[2] - outer[0]) * (outer[3] - outer[1]) - (x1 - x0) * (y1 - y0)
        return (_frame_sum(self.body_sum, outer, (x0, y0, x1, y1)) >= 0.25 * frame
                and _frame_sum(self.region_sum, outer, (x0, y0, x1, y1)) >= share * frame)

    def joined_at(self, i: int) -> int:
        """The weak-ink component holding component ``i`` (at a pixel of its top row)."""
        x, y, cw = (int(v) for v in self.stats[i, :3])
        top = x + int(np.argmax(self.labels[y, x:x + cw] == i))
        return int(self.joined[y - self.origin[1], top - self.origin[0]])

    def points(self, box: tuple[int, int, int, int], ids: list[int]) -> np.ndarray:
        """The (x, y) of the pixels of components ``ids`` within ``box`` (x0, y0, x1, y1),
        float32 [N, 2]."""
        x0, y0, x1, y1 = box
        ys, xs = np.nonzero(np.isin(self.labels[y0:y1, x0:x1], ids))
        return np.stack([xs + x0, ys + y0], axis=1).astype(np.float32)

    def hue(self, ids: list[int]) -> np.ndarray:
        """The ink colour of components ``ids``: the mean a*b* of their pixels (float32 [2],
        OpenCV 8-bit Lab)."""
        x0, y0, x1, y1 = union_box(self.stats, ids)
        mine = np.isin(self.labels[y0:y1, x0:x1], ids)
        lab = cv2.cvtColor(self.image[y0:y1, x0:x1][mine][None], cv2.COLOR_BGR2Lab)[0].astype(np.float32)
        return lab[:, 1:].mean(axis=0)


def region_ink(image: np.ndarray, body: np.ndarray, regions: np.ndarray, body_lab: np.ndarray
               ) -> RegionInk | None:
    """The ink on a surface's regions and its components.

    Args:
        image: the photo, BGR uint8, H x W x 3.
        body, regions, body_lab: a surface (vision/table/surface.py) at the working scale.

    Returns:
        the ink, or None when the surface has no region.
    """
    h, w = image.shape[:2]
    regions_full = cv2.resize(regions, (w, h), interpolation=cv2.INTER_NEAREST)
    body_full = cv2.resize(body, (w, h), interpolation=cv2.INTER_NEAREST)
    lab_full = cv2.resize(body_lab, (w, h), interpolation=cv2.INTER_NEAREST)
    inside = regions_full > 0
    x, y, bw, bh = cv2.boundingRect(inside.astype(np.uint8))
    if bw == 0:
        return None
    box = (slice(y, y + bh), slice(x, x + bw))  # the regions' box: connected components there alone
    # the regions' pixels alone (tiles cover a small part of a photo), as one row of N pixels
    # (1 x N x 3: OpenCV converts N rows of one pixel several times slower)
    at = np.flatnonzero(inside)
    lab = cv2.cvtColor(image.reshape(-1, 3).take(at, axis=0)[None], cv2.COLOR_BGR2Lab).astype(np.float32)[0]
    bodies = lab_full.reshape(-1, 3).take(at, axis=0)
    levels = lab_ink_map(lab, bodies)
    ink = np.zeros((h, w), np.float32)
    ink.reshape(-1)[at] = levels
    found = ink > INK_LEVEL
    found[box] |= _faint_ink(lab, bodies, levels, inside[box], max(h, w))
    # components within the regions' box alone (found nowhere else): numbered as in the photo
    _, boxed, stats, _ = cv2.connectedComponentsWithStats(found[box].astype(np.uint8))
    stats[:, :2] += (x, y)
    labels = np.zeros((h, w), np.int32)
    labels[box] = boxed
    _, joined = cv2.connectedComponents((ink[box] > INK_JOIN).astype(np.uint8))
    return RegionInk(image, ink, labels, stats, joined, (x, y), regions_full, lab_full,
                     cv2.integral(body_full), cv2.integral(inside.astype(np.uint8)))


def _faint_ink(lab: np.ndarray, bodies: np.ndarray, levels: np.ndarray, inside: np.ndarray,
               long_side: int) -> np.ndarray:
    """Pale coloured ink under ``INK_LEVEL`` (bool, the shape of ``inside``): pixels whose a*b*
    distance from the body (/ 70, as in :func:`vision.reader.glyphs.ink_map`) is above ``FAINT_CHROMA``
    and rises ``FAINT_RISE`` above its neighbourhood's (a morphological opening ``FAINT_REACH``
    times the photo's long side across).

    Args:
        lab: float32 (shape: [N, 3]) the pixels of ``inside`` in OpenCV 8-bit Lab, in row-major
            order.
        bodies: float32 (shape: [N, 3]) their body colours (OpenCV 8-bit Lab).
        levels: float32 (shape: [N]) their ink levels (:func:`vision.reader.glyphs.ink_map`), at least
            their a*b* distance: that is measured where they are above ``FAINT_CHROMA`` alone,
            and the level stands for it elsewhere (faster).
        inside: bool (H x W) the tile regions, N of them true.
        long_side: the photo's long side in pixels.
    """
    values = levels.copy()
    near = np.flatnonzero(levels > FAINT_CHROMA)
    if len(near):
        diff = lab[near] - bodies[near]
        values[near] = np.hypot(diff[:, 1], diff[:, 2]) / 70.0
    chroma = np.zeros(inside.shape, np.float32)
    chroma.reshape(-1)[np.flatnonzero(inside)] = values
    reach = max(3, int(FAINT_REACH * long_side))
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach))
    ground = cv2.morphologyEx(chroma, cv2.MORPH_OPEN, square)
    return (chroma > FAINT_CHROMA) & (chroma - ground > FAINT_RISE)


def _frame_sum(integral: np.ndarray, outer: tuple[int, int, int, int], inner: tuple[int, int, int, int]
               ) -> float:
    """Sum of an integral image over ``outer`` less ``inner`` (boxes x0, y0, x1, y1)."""
    def box(b: tuple[int, int, int, int]) -> float:
        x0, y0, x1, y1 = b
        return float(integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0])
    return box(outer) - box(inner)


def union_box(stats: np.ndarray, ids: list[int]) -> tuple[int, int, int, int]:
    """The box (x0, y0, x1, y1; x1 and y1 exclusive) holding the components ``ids`` of
    ``cv2.connectedComponentsWithStats`` stats (int32, [N, 5])."""
    x0, y0 = (int(v) for v in stats[ids, :2].min(axis=0))
    x1, y1 = (int(v) for v in (stats[ids, :2] + stats[ids, 2:4]).max(axis=0))
    return x0, y0, x1, y1
