"""Hexagonal tiles laid edge to edge on a bare table, found as a lattice: every tile's centre and
the tiles' radius, whatever their colour (a dark set whose rims hardly part one tile from the next
included).

Tiles that meet edge to edge are cells of one hexagonal lattice, so the layout is found whole:

1. ``layout_mask``: the pixels that are not table: far from the table's colour (vision.table.
   tile_bodies' colour model) as it is around each pixel, so that a mottled cloth does not hide
   tiles of the shades it has elsewhere. Its holes smaller than a tile are then filled
   (``holes_filled``, once step 3's least radius is known): a print in the table's colour is no
   table.
2. The lattice's turn: the mask's outline runs along the hexagons' edges, which all point the
   same three ways; their mean direction modulo 60 degrees (weighted by length) is one corner's.
3. The lattice's step: every tile carries the same print (digits at the same corners, rims,
   bites), so the print's autocorrelation peaks at the step from one tile to the next, along the
   three directions between neighbours (30 degrees off the corners'). No straight run of the
   mask's outline is longer than a hexagon's side (its radius), so the step is a peak at sqrt(3)
   times that run or further (nearer peaks are two digits of one tile; STEP_RANGE). The random
   digits blur the repeats, so a few peaks are offered (``lattice_steps``), likeliest first, and
   the highest peak of the edges' autocorrelation (``edge_signal``: rims, grooves and bites repeat
   whatever the digits) where no print peak is near it; which holds tiles is for their reading to
   tell (vision.table.holominoes_read).
4. The lattice's phase: of PHASES x PHASES shifts within one cell, the one whose hexagons are
   most nearly all in or all out of the mask (a hexagon's coverage is the mask filtered by a
   hexagon); every cell covered at least COVERED is a tile.
5. ``_refined``: each tile's centre moved to where its print best matches the mean print of all
   the tiles (the camera's perspective and the gaps between tiles stretch the layout away from
   one lattice), then all by the offset of the mean print's centre of 3-fold symmetry
   (REFINE_ROUNDS times).

Entries: :class:`HexFinder` (the layout at any of the likely radii), :func:`find_hexes` (at the
likeliest). Constants were chosen on rendered TRAIN-style tables
(vision.sim.table_shots, split "train").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.table.lattice import angle_mean
from vision.table.tile_bodies import TABLE_SIGMAS, TableFindError, colour_model, light_gradient, table_model

#: The photo is searched at this long side (pixels): the lattice needs no finer detail.
WORK_PX = 640
#: Tile radii searched, as shares of the working photo's short side (a far camera's tile to a
#: close phone's).
STEP_RANGE: tuple[float, float] = (0.02, 0.2)
#: The table's colour around each pixel: its pixels under a Gaussian of this share of the working
#: photo's short side (wider than a tile, narrower than a cloth's mottling), in MASK_ROUNDS rounds
#: (the first sees the middle of a large layout as table; the later ones fill it in), the table's
#: pixels kept MASK_GAP_PX from what is not. FAR: the weight of the table's mean, where no table
#: pixel is near. Chosen on the masks of TRAIN-style tables (vision.sim.table_shots seeds
#: 6000..6199, split "train"; the reading's figures are under holominoes_read.STRETCHED).
TABLE_SCALE = 0.05
#: That colour is smooth: it is averaged on the photo shrunk this many times (a tenth of the time).
BLUR_SHRINK = 4
#: The table's spread about that colour is taken from every this-many-th pixel each way.
SPREAD_STRIDE = 3
MASK_ROUNDS = 4
MASK_GAP_PX = 2
FAR = 0.01
#: Print is what differs from the median of the lightness over this many working pixels.
PRINT_PX = 7
#: The lattice's step is taken from the edges within this many working pixels of the mask (the
#: layout's outline against the table included).
EDGE_REACH_PX = 4
#: The mask is eroded by this many working pixels before the print is taken (the layout's outer
#: edge against the table is no print).
EDGE_PX = 2
#: Outline directions are measured between contour points this many points apart.
OUTLINE_STEP = 4
#: Regions of the mask smaller than this many working pixels are specks.
MIN_REGION_PX = 30
#: The outline's polygon keeps within this many working pixels of it (blur and noise).
SIDE_EPSILON = 1.0
#: The outline's long straight runs are this quantile of its polygon's sides.
SIDE_SHARE = 0.9
#: Each tile's centre is refined this many times, within this share of the radius of the lattice's.
REFINE_ROUNDS = 2
REFINE_REACH = 0.3
#: Lattice steps offered: the autocorrelation's highest peaks (on TRAIN-style tables the true step
#: was among the four highest, or sqrt(3) times the highest: a peak within STEP_MATCH of it).
STEP_PEAKS = 4
STEP_MATCH = 0.08
#: The edges' highest autocorrelation peaks offered too, where no print peak is within STEP_MATCH.
EDGE_PEAKS = 1
#: Phase candidates per lattice axis.
PHASES = 12
#: A cell whose hexagon is covered by the mask at least this much is a tile (a tile's bites and
#: the gaps at its rim leave about 0.9 covered).
COVERED = 0.6


@dataclass(frozen=True, slots=True)
class HexLayout:
    """Hexagonal tiles found on a photo (photo pixels, x right, y down).

    Attributes:
        centres: float64 [n, 2] (x, y) of each tile's centre.
        radius: the tiles' radius (centre to corner), pixels.
        turn: direction of one corner of every tile, radians (atan2 on the photo) in (-pi/6, pi/6].
    """

    centres: np.ndarray
    radius: float
    turn: float


def layout_mask(lab: np.ndarray) -> np.ndarray:
    """The pixels (uint8 0/1, H x W) of ``lab`` (float32 H x W x 3 OpenCV Lab) that are not table,
    specks removed.

    First those far from the table's colour along the photo's border; then, MASK_ROUNDS times, those
    far from the table's colour around them: the table's pixels (the mask's complement, less
    MASK_GAP_PX beside it) averaged under a Gaussian of TABLE_SCALE times the photo's short side
    (where none are near, the table's mean), and the table's spread taken about that local colour.
    A mottled cloth or a pool of light then no longer hides a tile of a colour the table has
    elsewhere."""
    mask = table_model(lab).distance(lab) > TABLE_SIGMAS
    h, w = lab.shape[:2]
    sigma = TABLE_SCALE * min(h, w) / BLUR_SHRINK
    gap = np.ones((2 * MASK_GAP_PX + 1, 2 * MASK_GAP_PX + 1), np.uint8)
    for _ in range(MASK_ROUNDS):
        table = cv2.dilate(mask.astype(np.uint8), gap) == 0
        if table.sum() < MIN_REGION_PX:
            break
        weight = table.astype(np.float32)
        sums = cv2.resize(np.dstack([lab * weight[..., None], weight]), None, fx=1 / BLUR_SHRINK,
                          fy=1 / BLUR_SHRINK, interpolation=cv2.INTER_AREA)
        mean = sums[..., :3].sum(axis=(0, 1)) / sums[..., 3].sum()
        sums = cv2.GaussianBlur(sums, (0, 0), sigma)
        local = (sums[..., :3] + FAR * mean) / (sums[..., 3:] + FAR)
        off = lab - cv2.resize(local, (w, h), interpolation=cv2.INTER_LINEAR)
        sample = off[::SPREAD_STRIDE, ::SPREAD_STRIDE][table[::SPREAD_STRIDE, ::SPREAD_STRIDE]]
        mask = colour_model(sample).distance(off) > TABLE_SIGMAS
    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def outline_turn(mask: np.ndarray) -> float | None:
    """The mean direction of the mask's outline modulo 60 degrees (radians), None for no outline."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    angles, weights = [], []
    for contour in contours:
        if cv2.contourArea(contour) < MIN_REGION_PX:
            continue
        c = contour.reshape(-1, 2).astype(np.float64)
        step = np.roll(c, -OUTLINE_STEP, axis=0) - c
        angles.append(np.arctan2(step[:, 1], step[:, 0]))
        weights.append(np.hypot(step[:, 0], step[:, 1]))
    if not angles:
        return None
    return angle_mean(np.concatenate(angles), np.concatenate(weights), 6)


def holes_filled(mask: np.ndarray, radius: float) -> np.ndarray:
    """The mask (uint8 0/1, H x W) with every hole smaller than a hexagon of ``radius`` (working
    pixels) filled: a print in the table's colour is a hole in the mask, and it is the print the
    lattice is found by; a gap the size of a tile or larger stays table."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    filled = mask.copy()
    if hierarchy is None:
        return filled
    hexagon = 1.5 * math.sqrt(3) * radius**2
    holes = [c for c, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True)
             if parent >= 0 and cv2.contourArea(c) < hexagon]
    cv2.drawContours(filled, holes, -1, 1, cv2.FILLED)
    return filled


def print_signal(lab: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The tiles' print (float32 H x W): how far the lightness of ``lab`` (float32 OpenCV Lab)
    differs from its median over PRINT_PX pixels, less its mean, inside the mask eroded by
    EDGE_PX; 0 elsewhere."""
    light = lab[..., 0]
    detail = np.abs(light - cv2.medianBlur(np.clip(light, 0, 255).astype(np.uint8), PRINT_PX))
    return _centred(detail, cv2.erode(mask, np.ones((2 * EDGE_PX + 1, 2 * EDGE_PX + 1), np.uint8)) > 0)


def edge_signal(lab: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The tiles' edges and print (float32 H x W): the lightness gradient of ``lab`` (float32 OpenCV
    Lab; Sobel magnitude) within EDGE_REACH_PX of the mask, less its mean there; 0 elsewhere. The
    rims, the grooves between tiles and the bites repeat at every tile, whatever its digits."""
    side = 2 * EDGE_REACH_PX + 1
    return _centred(light_gradient(lab), cv2.dilate(mask, np.ones((side, side), np.uint8)) > 0)


def _centred(values: np.ndarray, region: np.ndarray) -> np.ndarray:
    """``values`` (float H x W) less their mean over ``region`` (bool H x W) there, 0 elsewhere
    (float32)."""
    centred = values - float(values[region].mean()) if region.any() else values
    return np.where(region, centred, 0.0).astype(np.float32)


def lattice_steps(signal: np.ndarray, turn: float, least: float) -> list[float]:
    """Likely distances between neighbouring tiles' centres (working pixels, likeliest first): the
    STEP_PEAKS highest peaks of the print's autocorrelation (``signal``: :func:`print_signal`)
    along the three neighbour directions, for tiles of radius at least ``least`` (working pixels;
    nearer peaks are the distances between the digits of one tile), then the highest peak at
    sqrt(3) times the highest, within STEP_MATCH, if it is not among them (the digits of one tile
    lie a radius apart along the same directions: where the outline's runs are short, the highest
    peak may be a radius, not a step). The random digits on the tiles blur the print's repeats,
    so which step holds tiles is for their reading to tell.
    """
    h, w = signal.shape
    image = signal.astype(np.float32)
    auto = _correlation(image, image, (2 * h, 2 * w))
    short = min(h, w)
    low = max(STEP_RANGE[0] * short, least) * math.sqrt(3)
    steps = np.arange(low, max(STEP_RANGE[1] * short * math.sqrt(3), low + 2), 0.5)
    ways = turn + np.radians(30 + 60 * np.arange(6))
    xs = (w + np.outer(np.cos(ways), steps)).astype(np.float32)
    ys = (h + np.outer(np.sin(ways), steps)).astype(np.float32)
    p = cv2.remap(auto, xs, ys, cv2.INTER_LINEAR).mean(axis=0)
    peaks = sorted((k for k in range(1, len(p) - 1) if p[k] > p[k - 1] and p[k] >= p[k + 1]),
                   key=lambda k: -p[k])
    if not peaks:
        return [float(steps[int(np.argmax(p))])]
    chosen = peaks[:STEP_PEAKS]
    wider = [k for k in peaks if abs(steps[k] / (math.sqrt(3) * steps[peaks[0]]) - 1) < STEP_MATCH]
    if wider and wider[0] not in chosen:
        chosen.append(wider[0])
    return [float(steps[k]) for k in chosen]


def longest_side(mask: np.ndarray) -> float:
    """The mask outline's long straight runs (working pixels): the SIDE_SHARE quantile of the
    lengths of its polygon's sides (cv2.approxPolyDP within SIDE_EPSILON). No straight run of a
    layout of hexagons is longer than one hexagon's side (its radius)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    lengths = []
    for contour in contours:
        if cv2.contourArea(contour) >= MIN_REGION_PX:
            poly = cv2.approxPolyDP(contour, SIDE_EPSILON, True).reshape(-1, 2).astype(np.float64)
            lengths.extend(np.hypot(*(np.roll(poly, -1, axis=0) - poly).T).tolist())
    return float(np.quantile(lengths, SIDE_SHARE)) if lengths else 0.0


def _hexagon_kernel(radius: float, turn: float) -> np.ndarray:
    side = 2 * math.ceil(radius) + 1
    ways = turn + np.radians(60 * np.arange(6))
    corners = side // 2 + radius * np.column_stack([np.cos(ways), np.sin(ways)])
    kernel = np.zeros((side, side), np.float32)
    cv2.fillPoly(kernel, [np.round(corners * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    return kernel / kernel.sum()


def find_hexes(image: np.ndarray) -> HexLayout:
    """Find the hexagonal tiles of a layout lying on a bare table at the likeliest lattice step
    (:class:`HexFinder`).

    Args:
        image: BGR uint8, H x W x 3 (at least 64 px each way), the table filling the photo's border.

    Returns:
        every tile's centre, their radius and turn (no centres when nothing lies on the table).

    Raises:
        TableFindError: not a BGR uint8 photo of at least 64 x 64 px.
    """
    finder = HexFinder(image)
    return finder.layout(finder.radii[0]) if finder.radii else HexLayout(np.zeros((0, 2)), 1.0, 0.0)


class HexFinder:
    """A photo of hexagonal tiles laid edge to edge on a bare table, prepared for finding them:
    the layout's turn and its likely tile radii found once, a layout laid out at any radius.

    Args:
        image: BGR uint8, H x W x 3 (at least 64 px each way), the table filling the photo's border.

    Attributes:
        turn: direction of one corner of every tile, radians (atan2 on the photo) in (-pi/6, pi/6].
        radii: the tiles' likely radii (photo pixels, from :func:`lattice_steps`), likeliest first;
            empty when nothing lies on the table.

    Raises:
        TableFindError: not a BGR uint8 photo of at least 64 x 64 px.
    """

    def __init__(self, image: np.ndarray) -> None:
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8 or min(image.shape[:2]) < 64:
            raise TableFindError(f"expected a BGR uint8 H x W x 3 photo of at least 64 px, "
                                 f"got {image.dtype} {image.shape}")
        self._scale = min(1.0, WORK_PX / max(image.shape[:2]))
        small = (cv2.resize(image, None, fx=self._scale, fy=self._scale, interpolation=cv2.INTER_AREA)
                 if self._scale < 1 else image)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
        mask = layout_mask(lab)
        least = longest_side(mask)  # 0 where no region is large enough: no hole is filled
        self._mask = holes_filled(mask, least)  # its outer outline stays as it was
        turn = outline_turn(self._mask)
        self.turn = 0.0 if turn is None else turn
        self._signal = print_signal(lab, self._mask)
        steps = []
        if turn is not None:
            steps = lattice_steps(self._signal, turn, least)
            edge_steps = lattice_steps(edge_signal(lab, self._mask), turn, least)[:EDGE_PEAKS]
            steps += [e for e in edge_steps if all(abs(e / s - 1) >= STEP_MATCH for s in steps)]
        self.radii = [step / math.sqrt(3) / self._scale for step in steps]

    def layout(self, radius: float) -> HexLayout:
        """The tiles of the lattice of this radius (photo pixels, > 0) laid on the layout.

        Returns:
            every tile's centre, the radius and the turn.
        """
        working = radius * self._scale
        centres = _phase(self._mask, working * math.sqrt(3), self.turn)
        for _ in range(REFINE_ROUNDS):
            centres = _refined(self._signal, centres, working)
        return HexLayout(centres / self._scale, radius, self.turn)


def _phase(mask: np.ndarray, step: float, turn: float) -> np.ndarray:
    """The lattice of this step and turn shifted to fit the mask best (its hexagons most nearly all
    in or all out of it): the centres (working pixels, float64 [n, 2]) of the cells covered."""
    radius = step / math.sqrt(3)
    coverage = cv2.filter2D(mask.astype(np.float32), -1, _hexagon_kernel(radius, turn),
                            borderType=cv2.BORDER_CONSTANT)
    ways = turn + np.radians([30.0, 90.0])
    basis = step * np.column_stack([np.cos(ways), np.sin(ways)])  # rows: the two lattice steps
    h, w = mask.shape
    span = int(math.ceil(math.hypot(h, w) / step)) + 1
    i, j = np.meshgrid(np.arange(-span, span + 1), np.arange(-span, span + 1))
    cells = np.column_stack([i.ravel(), j.ravel()]).astype(np.float64) @ basis + [w / 2, h / 2]
    best, best_mixed = cells[:0], math.inf
    for a in np.arange(PHASES) / PHASES:
        for b in np.arange(PHASES) / PHASES:
            points = cells + a * basis[0] + b * basis[1]
            inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
            points = points[inside]
            cover = coverage[points[:, 1].astype(int), points[:, 0].astype(int)]
            mixed = float(np.sum(cover * (1 - cover)))  # 0 when every hexagon is all in or all out
            if mixed < best_mixed:
                best_mixed, best = mixed, points[cover >= COVERED]
    return best


def _refined(signal: np.ndarray, centres: np.ndarray, radius: float) -> np.ndarray:
    """Each centre moved to where its tile's print best matches the mean print of all the tiles
    (within REFINE_REACH of the radius; the lattice's cells drift from the tiles where the camera's
    perspective or the gaps between tiles stretch the layout), then all by the offset of the mean
    print's centre of symmetry (a tile's print, digits at three corners 120 degrees apart, its
    bites between them, is the same turned by 120 degrees about the tile's centre)."""
    half = int(math.ceil(radius))
    reach = max(1, int(math.ceil(REFINE_REACH * radius)))
    padded = cv2.copyMakeBorder(signal, half + reach, half + reach, half + reach, half + reach,
                                cv2.BORDER_CONSTANT, value=0)
    at = np.round(centres).astype(int) + half + reach
    patches = [padded[y - half: y + half + 1, x - half: x + half + 1] for x, y in at]
    if len(patches) < 2:
        return centres
    template = np.mean(patches, axis=0).astype(np.float32)
    middle = _symmetry_centre(template, reach) - half
    out = centres.copy()
    for k, (x, y) in enumerate(at):
        window = padded[y - half - reach: y + half + reach + 1, x - half - reach: x + half + reach + 1]
        match = cv2.matchTemplate(window, template, cv2.TM_CCORR_NORMED)
        _, _, _, (dx, dy) = cv2.minMaxLoc(match)
        out[k] = np.round(centres[k]) + [dx - reach, dy - reach]
    return out + middle


def _symmetry_centre(template: np.ndarray, reach: int) -> np.ndarray:
    """The point (x, y) within ``reach`` pixels of the template's middle about which turning it by
    120 degrees changes it least (highest correlation).

    Turning about a point c is turning about the middle m and then shifting by (I - R)(c - m), R
    the turn, so every c's correlation is read off one cross-correlation of the template with
    itself turned about its middle (at that shift, interpolated)."""
    side = template.shape[0]
    mid = side // 2
    turn = cv2.getRotationMatrix2D((float(mid), float(mid)), 120.0, 1.0)
    turned = cv2.warpAffine(template, turn, (side, side))
    size = 2 * side
    correlation = _correlation(template, turned, (size, size))
    offsets = np.arange(-reach, reach + 1, dtype=np.float64)
    dx, dy = np.meshgrid(offsets, offsets)
    offset = np.stack([dx.ravel(), dy.ravel()])  # [2, k]: c - m
    shift = offset - turn[:, :2] @ offset
    xs = (shift[0] + size // 2).reshape(dx.shape).astype(np.float32)
    ys = (shift[1] + size // 2).reshape(dx.shape).astype(np.float32)
    score = cv2.remap(correlation, xs, ys, cv2.INTER_LINEAR)
    k = int(np.argmax(score))
    return np.array([mid + offset[0, k], mid + offset[1, k]])


def _correlation(a: np.ndarray, b: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The cross-correlation of two images (float H x W each) zero-padded to ``shape``, float32
    ``shape``: element (shape // 2 + d) is sum over p of a(p + d) b(p) (shift d, (y, x))."""
    spectrum = np.fft.rfft2(a, s=shape) * np.conj(np.fft.rfft2(b, s=shape))
    return np.fft.fftshift(np.fft.irfft2(spectrum, s=shape)).astype(np.float32)
