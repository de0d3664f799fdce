"""Loose tiles' faces as ink: the ink on a photo's tile regions grouped into faces, each face's tile
outline, and the tile reader's input for a face (stages 2-3 of vision/table/loose_tiles.py).

The ink's connected components (vision/table/loose_ink.py: ink far from the region's body colour, or
pale coloured ink rising above its neighbourhood's; the pieces of a weakly printed stroke
joined by weaker ink when together they look like a glyph, ``WHOLE_PIECE``) are kept when mostly
surrounded by tile body (a nearly square one whose frame reaches past its tile, a small joker's
ring with its features, and a thin ring around nothing glyph-shaped are faces of their own that
only a joker may be: ``JOKER_FRAME``, ``RING_MIN``), and grouped into faces (the two digits of
"12", the parts of a joker's face inside its ring, the halves of a glyph cut across by a
highlight: ``CUT_OVERLAP``; a component far bigger than a glyph, such as a rack, encloses
nothing). A tile's outline is the part of its region nearer to its face than to any other face.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.reader.glyphs import GlyphInput
from vision.table.loose_ink import RegionInk, region_ink, union_box
from vision.table.medians import group_medians

#: A component encloses another (a joker's ring its face, a "0" a stain) only when it is at most
#: this many times its size; a bigger one (a rack, a table's edge) groups nothing.
ENCLOSE_RATIO = 8.0

#: Two components that nearly touch are digits of one face only when their centres are less than
#: this many times the smaller one's size apart (digits on neighbouring tiles, or a digit and the
#: long shadow between two tiles, are further apart).
GROUP_REACH = 1.8

#: ... and only when the gap between their boxes is under this share of the taller one's height
#: (the "10"s of two touching tiles, each one component, lie further apart than a face's digits).
#: Chosen on TRAIN: 0.3/0.35/0.4/0.45 -> recall 1765/1767/1767/1766 of 1790, extras 16/15/16/15,
#: right faces 1750/1753/1753/1752 (at 0.45 a "12" and a "13" on touching tiles were one face;
#: at 0.3 the digits of some faces come apart).
GROUP_GAP = 0.35

#: Two components are digits of one face only when their ink colours (mean a*b*, OpenCV 8-bit
#: Lab) are less than this far apart: a face's digits are printed in one colour (an orange 7 and
#: a blue 8 on touching big tiles were one face). Chosen on TRAIN: 10/20/30/45 -> recall
#: 1769/1769/1769/1768 of 1790, extras 16 at each (at 45 the 7 and 8 are one face again).
HUE_APART = 20.0

#: Two components of unlike heights are still one glyph when a thin highlight cut it across: they
#: lie one beyond the other along an axis of the image with nearly the same span across it (their
#: overlap at least CUT_OVERLAP of the wider span), a gap of at most CUT_GAP of their joined length
#: between them, and that length at most CUT_SQUARE times the span (a glyph's box, not a column).
#: A black 12 seen small, a bright line across both digits, had been read as a "1" (its top half)
#: and a "2" (its bottom half). On TRAIN no face changes at CUT_GAP 0.15 or 0.3.
CUT_OVERLAP = 0.85
CUT_GAP = 0.15
CUT_SQUARE = 1.6

#: A face whose ink's 90th percentile is under WEAK_INK (pale orange on cream) has its broken
#: strokes joined before it is read again: the ink near it above WEAK_SHARE of that level.
WEAK_INK = 0.8
WEAK_SHARE = 0.6

#: ... unless one of them is already about as long as them all together (at least WHOLE_PIECE of
#: the joined box's long side: the long shadow between two rows of big tiles, joined by weak ink
#: to the "1" and "2" of a 12 beside it, made one face with them). Chosen on TRAIN: 0.8 and 0.95
#: -> recall 1767 -> 1768 of 1790 (a black 12), extras 15 -> 16 (fibres on a rug read as a 13,
#: once joined with more).
WHOLE_PIECE = 0.8

#: A thin ring (ink filling under a fifth of its box, nearly square, at least this many pixels
#: across, mostly surrounded by tile: a joker's ring) groups every component inside it into one
#: face, though it is no glyph itself (the eyes, nose and mouth of a joker: once read apart, the
#: nose as a "1"). A thin ring around nothing glyph-shaped (its features too faint or small) is a
#: face that only a joker may be, with the specks inside it.
RING_MIN = 12

#: A joker's face (its ring with the features inside, one component) fills more of its tile than
#: a digit: the frame around it reaches past the tile, where a digit's lies on it. A nearly square
#: glyph-shaped component (long side at most JOKER_SQUARE times its short side) whose frame is
#: under the 0.85 share of tile region a glyph needs but at least JOKER_FRAME is a face of its
#: own that only a joker may be (the tile reader or its ring must call it so). The 6 jokers of
#: train/ missed so: frames 0.76..0.82 of tile region, sides 1.0..1.17 (set with that margin).
#: On TRAIN JOKER_FRAME 0.6/0.7/0.75 find the same tiles; JOKER_SQUARE 1.5 one extra more.
JOKER_FRAME = 0.7
JOKER_SQUARE = 1.3

#: A tile's outline is drawn from its region's pixels nearer to its face than to any other face,
#: within OUTLINE_REACH times the face's size of it, and of about the colour of the tile's body
#: near the face (Lab distance, lightness counted at LIGHTNESS_WEIGHT, under BODY_NEAR: a rack's
#: tiles' region spills onto the wall or the marble behind it, and a spilling outline puts the
#: face in the lower part of its tile, upside down). The body near the face: its region's pixels
#: within BODY_SAMPLE times its size.
OUTLINE_REACH = 2.6
BODY_NEAR = 12.0
LIGHTNESS_WEIGHT = 0.5
BODY_SAMPLE = 1.0


@dataclass(frozen=True, slots=True)
class InkFace:
    """A group of ink components: one tile's face (full-resolution photo pixels).

    Attributes:
        points: float32 (shape: [N, 2]) the (x, y) of its ink pixels.
        box: (x0, y0, x1, y1) of its ink, x1 and y1 exclusive.
        region: the index of the surface region holding it.
        body: float32 (shape: [3]) the region's body colour (OpenCV 8-bit Lab).
        gain: its ink is read as ink x gain (weak ink made as strong as black).
        joker_only: only a joker's face may be so: its ink reaches nearly to its tile's edge
            (``JOKER_FRAME``), or it is a thin ring around nothing glyph-shaped (``RING_MIN``).
    """

    points: np.ndarray
    box: tuple[int, int, int, int]
    region: int
    body: np.ndarray
    gain: float = 1.0
    joker_only: bool = False

    @property
    def size(self) -> float:
        """The long side of its ink's box, in pixels."""
        x0, y0, x1, y1 = self.box
        return float(max(x1 - x0, y1 - y0))


def ink_centres(faces: list[InkFace]) -> np.ndarray:
    """Each face's ink centre: the mean (x, y) of its ink pixels (float32 [len(faces), 2], photo
    pixels)."""
    return np.array([f.points.mean(axis=0) for f in faces], np.float32).reshape(-1, 2)


def centres_in_boxes(faces: list[InkFace], centres: np.ndarray) -> np.ndarray:
    """Whether face i's ink centre (``centres``, from :func:`ink_centres`) lies in the box of
    face j's ink: bool [i, j] (each face's own centre mostly in its own box)."""
    boxes = np.array([f.box for f in faces], np.float32).reshape(-1, 4)
    inside = (centres[:, None] >= boxes[None, :, :2]) & (centres[:, None] < boxes[None, :, 2:])
    return np.all(inside, axis=2)


def find_glyphs(image: np.ndarray, body: np.ndarray, regions: np.ndarray, body_lab: np.ndarray
                ) -> tuple[np.ndarray, list[InkFace]]:
    """Ink on the tile regions, grouped into faces.

    Args:
        image: the photo, BGR uint8, H x W x 3.
        body, regions, body_lab: from :func:`surface_mask` at the small scale.

    Returns:
        (ink, faces): the float32 ink map (H x W, 0 outside the regions) and the faces found.
    """
    ink = region_ink(image, body, regions, body_lab)
    if ink is None:
        return np.zeros(image.shape[:2], np.float32), []
    pieces, lone = _pieces(ink)
    rings = _rings(ink)
    comps, members_of = _candidates(ink, pieces)
    hue = functools.cache(lambda k: ink.hue(members_of[k]))  # by index into comps

    def alike(a: int, b: int) -> bool:
        return float(np.linalg.norm(hue(a) - hue(b))) < HUE_APART

    groups = _group(comps, list(rings.values()), alike)
    plain = len(comps)
    for ids in lone + _empty_rings(ink.stats, comps, rings):  # each a face of its own
        x0, y0, x1, y1 = union_box(ink.stats, ids)
        groups.append([(x0, y0, x1 - x0, y1 - y0, len(members_of))])
        members_of.append(ids)
    return ink.ink, [_face(ink, members, members_of, plain) for members in groups]


def _pieces(ink: RegionInk) -> tuple[dict[int, list[int]], list[list[int]]]:
    """The glyph-shaped components mostly surrounded by tile, by the weak-ink component holding
    them; and those that only a joker may be (nearly square, ``JOKER_SQUARE``, their frame
    reaching past their tile but at least ``JOKER_FRAME`` on it), each a list of one."""
    stats = ink.stats
    pieces: dict[int, list[int]] = {}
    lone: list[list[int]] = []
    for i in np.flatnonzero(_glyph_shaped(stats[:, 2], stats[:, 3], stats[:, 4])):
        x, y, cw, ch = (int(v) for v in stats[i, :4])
        if i > 0 and ink.on_tile(x, y, x + cw, y + ch):
            pieces.setdefault(ink.joined_at(int(i)), []).append(int(i))
        elif (i > 0 and max(cw, ch) <= JOKER_SQUARE * min(cw, ch)
              and ink.on_tile(x, y, x + cw, y + ch, JOKER_FRAME)):
            lone.append([int(i)])
    return pieces, lone


def _rings(ink: RegionInk) -> dict[int, tuple[int, int, int, int]]:
    """The thin rings (``RING_MIN``) mostly surrounded by tile: their boxes (x0, y0, x1, y1) by
    component."""
    stats = ink.stats
    long, short = stats[:, 2:4].max(axis=1), stats[:, 2:4].min(axis=1)
    thin = (long >= RING_MIN) & (long <= 1.5 * short) & (stats[:, 4] < 0.2 * stats[:, 2] * stats[:, 3])
    thin[0] = False
    boxes = {i: union_box(stats, [i]) for i in np.flatnonzero(thin).tolist()}
    return {i: b for i, b in boxes.items() if ink.on_tile(*b)}


def _candidates(ink: RegionInk, pieces: dict[int, list[int]]
                ) -> tuple[list[tuple[int, int, int, int, int]], list[list[int]]]:
    """The glyph candidates (x, y, w, h, k: box and index into the second list) and the
    components of each: the pieces of one weak-ink component are one candidate when together
    they look like a glyph (a stroke broken by weak ink) and none is already nearly as long
    (``WHOLE_PIECE``), otherwise one each."""
    stats = ink.stats
    comps: list[tuple[int, int, int, int, int]] = []
    members_of: list[list[int]] = []
    for ids in pieces.values():
        x0, y0, x1, y1 = union_box(stats, ids)
        whole = (len(ids) > 1 and bool(_glyph_shaped(x1 - x0, y1 - y0, stats[ids, 4].sum()))
                 and stats[ids, 2:4].max() < WHOLE_PIECE * max(x1 - x0, y1 - y0)
                 and ink.on_tile(x0, y0, x1, y1))
        for part in [ids] if whole else [[i] for i in ids]:
            x0, y0, x1, y1 = union_box(stats, part)
            comps.append((x0, y0, x1 - x0, y1 - y0, len(members_of)))
            members_of.append(part)
    return comps, members_of


def _empty_rings(stats: np.ndarray, comps: list[tuple[int, int, int, int, int]],
                 rings: dict[int, tuple[int, int, int, int]]) -> list[list[int]]:
    """Each joker's ring around no candidate (its features too faint or small) with the specks
    inside it."""
    empty = []
    for ring, (x0, y0, x1, y1) in rings.items():
        if not any(x0 < x and y0 < y and x + cw < x1 and y + ch < y1 for x, y, cw, ch, _ in comps):
            inside = ((stats[:, 0] > x0) & (stats[:, 1] > y0) & (stats[:, 0] + stats[:, 2] < x1)
                      & (stats[:, 1] + stats[:, 3] < y1))
            inside[0] = False
            empty.append([ring, *(int(j) for j in np.flatnonzero(inside))])
    return empty


def _face(ink: RegionInk, members: list[tuple[int, int, int, int, int]], members_of: list[list[int]],
          plain: int) -> InkFace:
    """The face of one group of candidates (those from ``plain`` on only a joker may be)."""
    x0 = min(c[0] for c in members)
    y0 = min(c[1] for c in members)
    x1 = max(c[0] + c[2] for c in members)
    y1 = max(c[1] + c[3] for c in members)
    points = ink.points((x0, y0, x1, y1), [i for c in members for i in members_of[c[4]]])
    cx, cy = points.mean(axis=0)
    return InkFace(points, (x0, y0, x1, y1), int(ink.regions[int(cy), int(cx)]),
                   ink.body_lab[int(cy), int(cx)].copy(), joker_only=any(c[4] >= plain for c in members))


def _glyph_shaped(width: np.ndarray | int, height: np.ndarray | int, area: np.ndarray | int) -> np.ndarray:
    """Whether ink components (boxes width x height pixels holding ``area`` ink pixels; arrays
    of one shape, or numbers) are shaped like a glyph or a part of one: not a speck, a long line
    or a thin ring (bool, their shape)."""
    long, short = np.maximum(width, height), np.minimum(width, height)
    return (area >= 12) & (long >= 6) & (long <= 8 * short) & (area >= 0.2 * width * height)


def _group(comps: list[tuple[int, int, int, int, int]], rings: list[tuple[int, int, int, int]],
           alike: Callable[[int, int], bool]) -> list[list[tuple[int, int, int, int, int]]]:
    """Union components of similar height that nearly touch with their centres near
    (``GROUP_REACH``), that enclose one another (``ENCLOSE_RATIO``), that are the halves of a
    glyph cut across (``CUT_OVERLAP``), or that lie inside one ring (boxes x0, y0, x1, y1: a
    joker's thin ring, no glyph itself)."""
    parent = list(range(len(comps)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, (xa, ya, wa, ha, _) in enumerate(comps):
        for b in range(a + 1, len(comps)):
            xb, yb, wb, hb, _ = comps[b]
            encloses = ((xa <= xb and ya <= yb and xa + wa >= xb + wb and ya + ha >= yb + hb) or
                        (xb <= xa and yb <= ya and xb + wb >= xa + wa and yb + hb >= ya + ha)) \
                and max(ha, hb, wa, wb) < ENCLOSE_RATIO * min(max(ha, wa), max(hb, wb))
            cut = (_cut_across((xa, wa, ya, ha), (xb, wb, yb, hb))
                   or _cut_across((ya, ha, xa, wa), (yb, hb, xb, wb)))
            if not encloses and not cut and not 0.55 < hb / ha < 1.8:
                continue
            gap = max(max(xa, xb) - min(xa + wa, xb + wb), max(ya, yb) - min(ya + ha, yb + hb), 0)
            apart = np.hypot(xa + wa / 2 - xb - wb / 2, ya + ha / 2 - yb - hb / 2)
            near = apart < GROUP_REACH * min(max(ha, wa), max(hb, wb))
            if (cut or gap < GROUP_GAP * max(ha, hb) and (encloses or near)) and alike(a, b):
                parent[root(a)] = root(b)
    for x0, y0, x1, y1 in rings:
        inside = [i for i, (x, y, w, h, _) in enumerate(comps)
                  if x0 < x and y0 < y and x + w < x1 and y + h < y1]
        for i in inside[1:]:
            parent[root(i)] = root(inside[0])
    groups: dict[int, list[tuple[int, int, int, int, int]]] = {}
    for i, c in enumerate(comps):
        groups.setdefault(root(i), []).append(c)
    return list(groups.values())


def _cut_across(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two components' boxes, each (start, length) across then (start, length) along one
    axis of the image, are the halves of one glyph cut across that axis (``CUT_OVERLAP``,
    ``CUT_GAP``, ``CUT_SQUARE``)."""
    start_a, span_a, at_a, length_a = a
    start_b, span_b, at_b, length_b = b
    overlap = min(start_a + span_a, start_b + span_b) - max(start_a, start_b)
    gap = max(at_a, at_b) - min(at_a + length_a, at_b + length_b)
    whole = max(at_a + length_a, at_b + length_b) - min(at_a, at_b)
    return (overlap >= CUT_OVERLAP * max(span_a, span_b) and 0 <= gap <= CUT_GAP * whole
            and whole <= CUT_SQUARE * max(span_a, span_b))


def strengthen(ink: np.ndarray, face: InkFace) -> InkFace:
    """A face of weak ink (its 90th percentile under ``WEAK_INK``: pale orange on cream) with
    the broken parts of its strokes joined: the pixels near it above ``WEAK_SHARE`` of its
    level that connect to its ink, read with the gain that makes its level 1.

    Args:
        ink: the photo's ink map (float32, H x W, 0..1) from :func:`find_glyphs`.
        face: one of its faces; returned as it is when its ink is not weak.
    """
    xs, ys = face.points[:, 0].astype(int), face.points[:, 1].astype(int)
    level = float(np.percentile(ink[ys, xs], 90))
    if level >= WEAK_INK:
        return face
    x0, y0, x1, y1 = window(face, max(2, int(0.2 * face.size)), ink.shape)
    grown = connected_to(ink[y0:y1, x0:x1] > WEAK_SHARE * level, (x0, y0), face)
    assert grown is not None  # the face's own strongest pixels are above that share
    return InkFace(*grown, face.region, face.body, 1.0 / level, face.joker_only)


def window(face: InkFace, margin: int, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A face's ink box grown by ``margin`` pixels on each side, within an image of ``shape``
    (x0, y0, x1, y1; x1 and y1 exclusive)."""
    x0, y0, x1, y1 = face.box
    return max(0, x0 - margin), max(0, y0 - margin), min(shape[1], x1 + margin), min(shape[0], y1 + margin)


def connected_to(mask: np.ndarray, origin: tuple[int, int], face: InkFace
                 ) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """The pixels of the connected components of ``mask`` (bool, a window whose top-left corner
    is photo pixel ``origin``) that hold any of the face's ink pixels: their (x, y) (float32
    [N, 2]) and box (x0, y0, x1, y1, exclusive), in the window's pixels shifted by ``origin``;
    None when no face pixel is in ``mask``."""
    ox, oy = origin
    _, labels = cv2.connectedComponents(mask.astype(np.uint8))
    seeds = np.unique(labels[face.points[:, 1].astype(int) - oy, face.points[:, 0].astype(int) - ox])
    py, px = np.nonzero(np.isin(labels, seeds[seeds > 0]))
    if not len(py):
        return None
    points = np.stack([px + ox, py + oy], axis=1).astype(np.float32)
    return points, (int(px.min()) + ox, int(py.min()) + oy, int(px.max()) + ox + 1, int(py.max()) + oy + 1)


def tile_outlines(faces: list[InkFace], regions: np.ndarray, scale: float, lab: np.ndarray,
                  of: list[int] | None = None) -> list[np.ndarray]:
    """Each face's tile outline: the minimum-area rectangle of its share of its region (the
    region's pixels nearer to it than to any other face of that region, within
    ``OUTLINE_REACH`` of it and of about its tile's body colour: ``BODY_NEAR``).

    Args:
        faces: faces from :func:`find_glyphs`.
        regions: int32 region labels (h x w) at ``scale`` of the photo, from ``surface_mask``.
        scale: the working scale (small pixels per photo pixel).
        lab: float32 (h x w x 3) the photo at ``scale`` in OpenCV 8-bit Lab (L, a, b).
        of: the indices of the faces whose outlines are wanted (every face's when None); the
            others still take their share of their regions.

    Returns:
        one float32 (shape: [4, 2]) array of (x, y) corners in photo pixels per face wanted, in
        the order of ``of``.
    """
    centres = ink_centres(faces) * scale
    sizes = np.array([f.size for f in faces], np.float32) * scale
    reach = OUTLINE_REACH * sizes
    h, w = regions.shape
    wanted = list(range(len(faces))) if of is None else of
    wanted_set = set(wanted)
    outlines: dict[int, np.ndarray] = {}
    for region in sorted({faces[i].region for i in wanted}):
        same = np.array([j for j, f in enumerate(faces) if f.region == region])
        # only the region's pixels within reach of one of its faces can be a face's: a window
        # around the faces, and a disc around each
        x0, y0 = np.maximum(0, (centres[same] - reach[same, None]).min(axis=0).astype(int))
        x1, y1 = np.minimum((w, h), (centres[same] + reach[same, None]).max(axis=0).astype(int) + 2)
        discs = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for i in same.tolist():
            centre = (int(round(centres[i][0])) - x0, int(round(centres[i][1])) - y0)
            cv2.circle(discs, centre, int(reach[i]) + 2, 1, -1)
        ys, xs = np.nonzero((regions[y0:y1, x0:x1] == region) & (discs > 0))
        pix = np.stack([xs + x0, ys + y0], axis=1).astype(np.float32)
        raw = lab.reshape(-1, 3).take((ys + y0) * w + xs + x0, axis=0)
        colour = raw * _COLOUR_WEIGHTS
        dx, dy = (pix[:, None, c] - centres[same][None, :, c] for c in (0, 1))
        d = np.sqrt(dx * dx + dy * dy)  # [pixels, faces]
        nearest = np.argmin(d, axis=1)
        # each face's nearest pixels, in raster order: one stable sort, then a slice per face
        order = np.argsort(nearest, kind="stable")
        bounds = np.searchsorted(nearest[order], np.arange(len(same) + 1))
        shares, nears = [], []
        for k, i in enumerate(same.tolist()):
            if i in wanted_set:
                nearer = order[bounds[k]:bounds[k + 1]]
                mine = nearer[d[nearer, k] < OUTLINE_REACH * sizes[i]]
                shares.append((i, mine))
                nears.append(mine[d[mine, k] < BODY_SAMPLE * sizes[i]])
        # each tile's body colour: the median of its pixels near its face (8-bit Lab values)
        bodies = group_medians(raw.take(np.concatenate(nears), axis=0).astype(np.uint8),
                               np.repeat(np.arange(len(nears)), [len(n) for n in nears]), len(nears))
        for (i, mine), near, body in zip(shares, nears, bodies, strict=True):
            if len(near):
                off = colour[mine] - body * _COLOUR_WEIGHTS
                mine = mine[np.sqrt((off * off).sum(axis=1)) < BODY_NEAR]
            # the pixels' convex hull lies on each row's first and last pixel (rows in order)
            pts = pix[mine[_row_ends(pix[mine, 1])]] if len(mine) >= 5 else faces[i].points * scale
            outlines[i] = cv2.boxPoints(cv2.minAreaRect(pts)) / scale
    return [outlines[i] for i in wanted]


#: Lab weights of the body colour distance in ``tile_outlines`` (lightness at LIGHTNESS_WEIGHT).
_COLOUR_WEIGHTS = np.array([LIGHTNESS_WEIGHT, 1.0, 1.0])


def _row_ends(ys: np.ndarray) -> np.ndarray:
    """Indices of each row's first and last pixel, in order, for pixels in raster order (``ys``
    int or float [N > 0], nondecreasing)."""
    ends = np.zeros(len(ys), bool)
    ends[[0, -1]] = True
    change = np.flatnonzero(np.diff(ys))
    ends[change] = ends[change + 1] = True
    return np.flatnonzero(ends)


def glyph_input(ink: np.ndarray, face: InkFace, outline: np.ndarray) -> GlyphInput:
    """The tile reader's input for one face: its ink alone in a window around it.

    Args:
        ink: the photo's ink map (H x W float32).
        face: a face from :func:`find_glyphs`.
        outline: float32 (shape: [K, 2]) the tile's outline in photo pixels.
    """
    ox, oy, x1, y1 = window(face, int(face.size), ink.shape)
    local = np.zeros((y1 - oy, x1 - ox), np.float32)
    xs, ys = face.points[:, 0].astype(int), face.points[:, 1].astype(int)
    local[ys - oy, xs - ox] = np.minimum(ink[ys, xs] * face.gain, 1.0)
    return GlyphInput(local, face.points - (ox, oy), (outline - (ox, oy)).astype(np.float32))
