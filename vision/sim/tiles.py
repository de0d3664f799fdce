"""Tile styles and ``render_tile``: upright images of one tile face, for the scene and for training.

A tile style fixes the tile's shape, the font of its face, and its colours:

- "pentagon": the MODLINSEQ tile of §1-3, a pentagon with its apex up (no rotational symmetry, so
  the apex tells which way is up);
- "rectangle": a Rummikub-like portrait tile, the number in a tinted disc in the upper part and a
  small bar near the foot (the printed feature that tells up from down);
- "photo": a real Rummikub tile cut from the labelled photos (vision/sim/data, CC BY 4.0;
  faces "1".."13" and "joker" only).

Fonts are OpenCV Hershey fonts and TrueType/OpenType fonts from /usr/share/fonts rendered with
pygame.freetype. Fonts and real crops are split into a TRAIN set (for the tile reader's training
data) and a HELD-OUT set (for figures on styles the reader never saw), by whole font families
(train: DejaVu, Liberation, Nimbus Sans/Roman/Mono PS, FreeFont, URW Bookman, Noto where
installed, Hershey simplex/duplex/complex/plain and italics; held out: URW Gothic, P052, C059, Hershey
triplex): see ``fonts`` and ``sample_style``. Some styles underline 6 and 9 or put a dot after
them, as real tile sets do; a wild tile is printed "#" or left blank (§7-1); the modulus marker
(§8) shows the modulus in contrasting colours inside a ring.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import cv2
import numpy as np

from vision.reader.faces import TILE_FACES
from vision.sim.glyph_variation import vary_glyph
from vision.sim.options import SHAPES, SPLITS, Shape, Split

if TYPE_CHECKING:
    import pygame.freetype

#: Every face a tile can show: numbers, the wild tile, the modulus marker (§8), the Rummikub joker.
FACES: tuple[str, ...] = TILE_FACES

#: Where TrueType/OpenType fonts are searched (recursively) by file stem.
FONT_ROOT = Path("/usr/share/fonts")

#: Font families of each split, as patterns on font file stems. Whole families are split, never
#: styles of one family, so that no held-out design leaks into training: train has DejaVu,
#: Liberation, Nimbus Sans (and Narrow), Nimbus Roman, Nimbus Mono PS, FreeFont, URW Bookman and
#: Noto (fonts-noto-core: NotoSans, NotoSerif, NotoSansMono, where installed); held out are URW
#: Gothic, P052 and C059.
_TTF_FAMILIES: dict[Split, tuple[str, ...]] = {
    "train": (
        r"DejaVu(Sans|Serif)(Condensed|Mono)?(-\w+)?",
        r"Liberation(Sans|Serif|Mono)-\w+",
        r"Nimbus(Sans|SansNarrow|Roman|MonoPS)-\w+",
        r"Free(Sans|Serif|Mono)\w*",
        r"URWBookman-\w+",
        r"Noto(Sans|Serif|SansMono|SansDisplay|SerifDisplay|KufiArabic|NastaliqUrdu)-\w+",
    ),
    "held_out": (r"URWGothic-\w+", r"P052-\w+", r"C059-\w+"),
}

#: Hershey fonts of each split: (name, cv2 font id, stroke thickness per 30 px of glyph height).
_HERSHEY_FONTS: dict[Split, tuple[tuple[str, int, float], ...]] = {
    "train": (
        ("hershey-simplex", cv2.FONT_HERSHEY_SIMPLEX, 2.0),
        ("hershey-duplex", cv2.FONT_HERSHEY_DUPLEX, 2.0),
        ("hershey-complex", cv2.FONT_HERSHEY_COMPLEX, 2.5),
        ("hershey-plain-bold", cv2.FONT_HERSHEY_PLAIN, 4.0),
        ("hershey-simplex-italic", cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC, 2.5),
        ("hershey-duplex-italic", cv2.FONT_HERSHEY_DUPLEX | cv2.FONT_ITALIC, 2.0),
        ("hershey-complex-italic", cv2.FONT_HERSHEY_COMPLEX | cv2.FONT_ITALIC, 2.5),
    ),
    "held_out": (
        ("hershey-triplex", cv2.FONT_HERSHEY_TRIPLEX, 2.0),
        ("hershey-triplex-italic", cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC, 2.0),
    ),
}

#: Tile body colours (BGR): ivory, white, cream, light grey, pale yellow, pale green.
_BODY_COLOURS: tuple[tuple[int, int, int], ...] = (
    (222, 238, 244),
    (245, 245, 245),
    (200, 228, 240),
    (212, 214, 210),
    (170, 228, 242),
    (205, 232, 210),
)
#: Ink colours (BGR) with the names of the real Rummikub colours where they match.
_INK_COLOURS: dict[str, tuple[int, int, int]] = {
    "black": (35, 30, 30),
    "blue": (165, 75, 20),
    "orange": (30, 135, 235),
    "red": (45, 40, 195),
    "green": (60, 115, 30),
}
#: Modulus marker bodies (BGR): dark contrasting colours (§8 "must contrast").
_MARKER_BODIES: tuple[tuple[int, int, int], ...] = ((95, 45, 20), (35, 35, 120), (40, 80, 30), (60, 60, 60))
_PHOTO_COLOURS: tuple[str, ...] = ("black", "blue", "orange", "red")
_GLYPH_REF_PX = 96


class TileStyleError(ValueError):
    """A face that a tile style cannot show, or an invalid style."""


@dataclass(frozen=True, slots=True)
class FontSpec:
    """One font for tile faces.

    Attributes:
        name: a stable name ("hershey-duplex" or a font file stem such as "DejaVuSans-Bold").
        path: the font file for TrueType/OpenType fonts, None for Hershey fonts.
        hershey_id: the cv2 Hershey font id (with cv2.FONT_ITALIC possibly or'ed in), or -1.
        stroke: Hershey stroke thickness per 30 px of glyph height (0 for file fonts).
    """

    name: str
    path: Path | None = None
    hershey_id: int = -1
    stroke: float = 0.0

    def __post_init__(self) -> None:
        if (self.path is None) == (self.hershey_id < 0):
            raise ValueError(f"font {self.name!r} needs exactly one of a path or a Hershey id")


@dataclass(frozen=True, slots=True)
class TileStyle:
    """How a tile looks.

    Attributes:
        name: a readable name, unique enough for file names and logs.
        shape: "pentagon", "rectangle" or "photo" (a real Rummikub crop).
        split: "train" or "held_out": which set the font (or real crop) belongs to.
        font: the face font; None for "photo".
        body: tile body colour, BGR.
        ink: ink colour, BGR; for "photo" the real ink colour is the one named in ``photo_colour``.
        mark_69: "underline", "dot" or "none": how 6 and 9 are told apart besides the tile shape.
        blank_wild: the wild tile is blank rather than printed "#" (§7-1).
        photo_colour: for "photo", the real ink colour: "black", "blue", "orange" or "red".
        vary_glyphs: print each face varied in weight, width, slant and shape beyond the font's
            own design (vision.sim.glyph_variation; the reader's training crops only).
    """

    name: str
    shape: Shape
    split: Split
    font: FontSpec | None
    body: tuple[int, int, int] = (222, 238, 244)
    ink: tuple[int, int, int] = (35, 30, 30)
    mark_69: Literal["underline", "dot", "none"] = "none"
    blank_wild: bool = False
    photo_colour: str = ""
    vary_glyphs: bool = False

    def __post_init__(self) -> None:
        if self.shape not in SHAPES or self.split not in SPLITS:
            raise ValueError(f"style {self.name!r}: bad shape {self.shape!r} or split {self.split!r}")
        if (self.shape == "photo") != (self.font is None):
            raise ValueError(f"style {self.name!r}: a font is needed for every shape but 'photo'")
        if self.shape == "photo" and self.photo_colour not in _PHOTO_COLOURS:
            raise ValueError(f"style {self.name!r}: photo_colour must be one of {_PHOTO_COLOURS}")
        if self.mark_69 not in ("underline", "dot", "none"):
            raise ValueError(f"style {self.name!r}: bad mark_69 {self.mark_69!r}")

    def supports(self, face: str) -> bool:
        """Whether this style can show ``face`` (see :func:`shape_shows`)."""
        return shape_shows(self.shape, face)


def shape_shows(shape: Shape, face: str) -> bool:
    """Whether tiles of ``shape`` can show ``face``: every face but on "photo" tiles, whose real
    crops exist for "1".."13" and "joker" only."""
    if shape == "photo":
        return face == "joker" or (face.isdigit() and 1 <= int(face) <= 13)
    return face in FACES


def fonts(split: Split) -> list[FontSpec]:
    """The fonts of one split that are installed here: Hershey fonts, then font files (sorted by stem).

    Raises:
        ValueError: for an unknown split.
    """
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    return list(_split_fonts(split))


@functools.lru_cache(maxsize=len(SPLITS))
def _split_fonts(split: Split) -> tuple[FontSpec, ...]:
    specs = [FontSpec(name, hershey_id=fid, stroke=stroke) for name, fid, stroke in _HERSHEY_FONTS[split]]
    patterns = [re.compile(p) for p in _TTF_FAMILIES[split]]
    found = sorted(_installed_font_files().items())
    specs += [FontSpec(stem, path=path) for stem, path in found if any(p.fullmatch(stem) for p in patterns)]
    return tuple(specs)


def sample_style(rng: np.random.Generator, split: Split, shapes: tuple[Shape, ...] = SHAPES) -> TileStyle:
    """Draw a random tile style of one split.

    Args:
        rng: the random generator (seeded by the caller).
        split: "train" or "held_out".
        shapes: the shapes to choose from.

    Raises:
        ValueError: for an unknown split or shape, or an empty ``shapes``.
    """
    if not shapes or any(s not in SHAPES for s in shapes):
        raise ValueError(f"shapes must be a non-empty subset of {SHAPES}, got {shapes!r}")
    shape = shapes[int(rng.integers(len(shapes)))]
    if shape == "photo":
        colour = _PHOTO_COLOURS[int(rng.integers(len(_PHOTO_COLOURS)))]
        return TileStyle(f"photo-{colour}-{split}", "photo", split, None, photo_colour=colour)
    font_list = fonts(split)
    font = font_list[int(rng.integers(len(font_list)))]
    ink_name = list(_INK_COLOURS)[int(rng.integers(len(_INK_COLOURS)))]
    body = _BODY_COLOURS[int(rng.integers(len(_BODY_COLOURS)))]
    marks: tuple[Literal["underline", "dot", "none"], ...] = ("underline", "dot", "none")
    mark = marks[int(rng.integers(3))]
    blank_wild = bool(rng.random() < 0.3)
    return TileStyle(
        f"{shape}-{font.name}-{ink_name}", shape, split, font, body, _INK_COLOURS[ink_name], mark, blank_wild
    )


def render_tile(
    face: str, style: TileStyle, size_px: int, rng: np.random.Generator, *, modulus: int = 13
) -> np.ndarray:
    """Render one tile, upright, on a transparent square canvas.

    The tile's bounding box fills the canvas height (pentagon: width too); a rectangle or photo
    tile is 3/4 as wide as it is tall. Small random variations (glyph size and position, ink and
    body shade) come from ``rng``; the same rng state gives the same image.

    Args:
        face: "0".."19", "#" (wild tile, §7-1), "marker" (modulus marker, §8) or "joker".
        style: the tile style.
        size_px: canvas side in pixels (>= 16).
        rng: the random generator.
        modulus: the number shown on a modulus marker (§8).

    Returns:
        BGRA uint8, size_px x size_px x 4; alpha 255 on the tile, 0 outside, anti-aliased edge.

    Raises:
        TileStyleError: when the style cannot show ``face`` or ``size_px`` < 16.
    """
    if not style.supports(face):
        raise TileStyleError(f"style {style.name!r} cannot show face {face!r}")
    if size_px < 16:
        raise TileStyleError(f"size_px must be >= 16, got {size_px}")
    s = size_px
    if style.shape == "photo":
        return _render_photo(face, style, s, rng)
    jitter = rng.integers(-8, 9, size=3)
    body = _shade(style.body, jitter)
    ink = _shade(style.ink, jitter // 2)
    polygon = tile_outline(style.shape, s)
    alpha = np.zeros((s, s), np.uint8)
    cv2.fillPoly(alpha, [_fixed(polygon)], 255, cv2.LINE_AA, shift=4)
    if face == "marker":
        body, ink = _MARKER_BODIES[int(rng.integers(len(_MARKER_BODIES)))], style.body
    image = np.empty((s, s, 3), np.uint8)
    image[:] = body
    # a faint top-left light on the body and a darker rim, like a moulded tile
    ramp = np.linspace(6, -6, s, dtype=np.float32)
    image = np.clip(image + (ramp[:, None] + ramp[None, :])[..., None] / 2, 0, 255).astype(np.uint8)
    rim = tuple(int(c * 0.78) for c in body)
    cv2.polylines(image, [_fixed(polygon)], True, rim, max(1, s // 32), cv2.LINE_AA, shift=4)
    centre, box = _face_box(style.shape, s)
    centre = centre + rng.uniform(-0.02, 0.02, size=2) * s
    if style.shape == "rectangle":
        tint = tuple(int(c * 0.93) for c in body)
        cv2.circle(image, _pt(centre), int(box[0] * 0.62), tint, -1, cv2.LINE_AA)
        foot = (int(0.3 * s), int(0.86 * s)), (int(0.45 * s), int(0.86 * s))
        cv2.line(image, foot[0], foot[1], tint, max(1, s // 28), cv2.LINE_AA)
    _draw_face(image, face, style, centre, box * rng.uniform(0.9, 1.04), ink, modulus, rng)
    return np.dstack([image, alpha])


def _render_photo(face: str, style: TileStyle, s: int, rng: np.random.Generator) -> np.ndarray:
    crop = _photo_crop(face, style.photo_colour, style.split)
    w = int(round(s * 0.75))
    x0 = (s - w) // 2
    image = np.zeros((s, s, 4), np.uint8)
    scaled = cv2.resize(crop, (w, s), interpolation=cv2.INTER_AREA)
    gain = rng.uniform(0.94, 1.06)
    image[:, x0 : x0 + w, :3] = np.clip(scaled * gain, 0, 255).astype(np.uint8)
    alpha = np.zeros((s, s), np.uint8)
    cv2.fillPoly(alpha, [_fixed(tile_outline("rectangle", s))], 255, cv2.LINE_AA, shift=4)
    image[..., 3] = alpha
    return image


@functools.lru_cache(maxsize=512)
def tile_outline(shape: Shape, s: int) -> np.ndarray:
    """The outline (float64 [n, 2], (x, y) canvas pixels, read-only) of a tile of ``shape`` on an
    s x s canvas, as :func:`render_tile` draws it."""
    outline = _outline(shape, s)
    outline.flags.writeable = False
    return outline


def _outline(shape: Shape, s: int) -> np.ndarray:
    if shape == "pentagon":
        # a regular pentagon, apex up, scaled to fill the canvas
        angles = np.deg2rad(-90 + 72 * np.arange(5))
        pts = np.stack([np.cos(angles), np.sin(angles)], axis=1)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        scaled = (pts - lo) / (hi - lo).max() * (s - 2)
        return scaled + (np.array([s, s]) - scaled.max(axis=0)) / 2
    w = s * 0.75
    x0, x1, y0, y1 = (s - w) / 2 + 1, (s + w) / 2 - 1, 1, s - 1
    r = s * 0.07
    corners = []
    arcs = ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180))
    for cx, cy, a0 in arcs:
        for a in np.deg2rad(np.linspace(a0, a0 + 90, 5)):
            corners.append((cx + r * np.cos(a), cy + r * np.sin(a)))
    return np.array(corners, dtype=np.float64)


def _face_box(shape: Shape, s: int) -> tuple[np.ndarray, np.ndarray]:
    """Centre (x, y) and size (w, h) in pixels of the box the face glyph is fitted into."""
    if shape == "pentagon":
        return np.array([0.5, 0.56]) * s, np.array([0.62, 0.40]) * s
    return np.array([0.5, 0.40]) * s, np.array([0.60, 0.36]) * s


def _draw_face(
    image: np.ndarray,
    face: str,
    style: TileStyle,
    centre: np.ndarray,
    box: np.ndarray,
    ink: tuple[int, int, int],
    modulus: int,
    rng: np.random.Generator,
) -> None:
    s = image.shape[0]
    if face == "joker":
        r = int(min(box) * 0.55)
        c = _pt(centre)
        t = max(1, s // 40)
        cv2.circle(image, c, r, ink, t, cv2.LINE_AA)
        for dx in (-0.38, 0.38):
            cv2.circle(image, _pt(centre + np.array([dx, -0.25]) * r), max(1, r // 7), ink, -1, cv2.LINE_AA)
        cv2.ellipse(image, c, (int(r * 0.55), int(r * 0.45)), 0, 20, 160, ink, t, cv2.LINE_AA)
        return
    if face == "#" and style.blank_wild:
        return
    text = str(modulus) if face == "marker" else face
    if face == "marker":
        ring = int(max(box) * 0.56)
        cv2.circle(image, _pt(centre), ring, ink, max(1, s // 30), cv2.LINE_AA)
        box = box * 0.72
    if style.font is None:
        raise TileStyleError(f"style {style.name!r} has no font to print {text!r}")
    mask = printed_glyph(style.font, text, rng if style.vary_glyphs else None)
    scale = min(box[0] / mask.shape[1], box[1] / mask.shape[0])
    gw, gh = max(1, int(mask.shape[1] * scale)), max(1, int(mask.shape[0] * scale))
    glyph = cv2.resize(mask, (gw, gh), interpolation=cv2.INTER_AREA)
    x0, y0 = int(centre[0] - gw / 2), int(centre[1] - gh / 2)
    blend_ink(image, glyph, x0, y0, ink)
    if face in ("6", "9") and style.mark_69 != "none":
        t = max(1, int(gh * 0.09))
        if style.mark_69 == "underline":
            y = y0 + gh + 2 * t
            cv2.line(image, (x0 + gw // 8, y), (x0 + gw - gw // 8, y), ink, t, cv2.LINE_AA)
        else:
            cv2.circle(image, (x0 + gw + 2 * t, y0 + gh - t), t, ink, -1, cv2.LINE_AA)


def blend_ink(image: np.ndarray, glyph: np.ndarray, x0: int, y0: int, ink: tuple[int, int, int]) -> None:
    """Alpha-blend a coverage mask (uint8, h x w) in ``ink`` (BGR) onto ``image`` (BGR uint8, in place)
    with its top-left corner at pixel (x0, y0), clipped to the image."""
    h, w = glyph.shape
    ix0, iy0 = max(0, x0), max(0, y0)
    ix1, iy1 = min(image.shape[1], x0 + w), min(image.shape[0], y0 + h)
    if ix0 >= ix1 or iy0 >= iy1:
        return
    a = glyph[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0, None].astype(np.float32) / 255
    region = image[iy0:iy1, ix0:ix1].astype(np.float32)
    image[iy0:iy1, ix0:ix1] = (region * (1 - a) + np.array(ink, np.float32) * a).astype(np.uint8)


def printed_glyph(font: FontSpec, text: str, vary: np.random.Generator | None = None) -> np.ndarray:
    """The coverage mask of ``text`` in ``font`` (:func:`glyph_mask`), varied beyond the font's
    design by :func:`vision.sim.glyph_variation.vary_glyph` when ``vary`` gives a generator."""
    mask = glyph_mask(font, text)
    return mask if vary is None else vary_glyph(mask, vary)


@functools.lru_cache(maxsize=512)
def glyph_mask(font: FontSpec, text: str) -> np.ndarray:
    """Coverage mask (uint8 0..255, h x w, tight bounding box) of ``text`` at a reference size of ~96 px.

    Raises:
        TileStyleError: when the font draws nothing for ``text``.
    """
    if font.path is not None:
        import pygame.freetype

        pygame.freetype.init()
        raw, (w, h) = _freetype_font(str(font.path)).render_raw(text, size=_GLYPH_REF_PX)
        mask = np.frombuffer(raw, np.uint8).reshape(h, w).copy()
    else:
        scale = _GLYPH_REF_PX / 30
        thick = max(1, int(round(font.stroke * scale)))
        (tw, th), base = cv2.getTextSize(text, font.hershey_id, scale, thick)
        pad = thick * 2 + 4
        mask = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
        cv2.putText(mask, text, (pad, pad + th), font.hershey_id, scale, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(mask > 16)
    if len(ys) == 0:
        raise TileStyleError(f"font {font.name!r} draws nothing for {text!r}")
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


@functools.lru_cache(maxsize=64)
def _freetype_font(path: str) -> pygame.freetype.Font:
    import pygame.freetype

    return pygame.freetype.Font(path)


@functools.lru_cache(maxsize=1)
def _installed_font_files() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(FONT_ROOT.rglob("*")):
        if path.suffix.lower() in (".ttf", ".otf"):
            found.setdefault(path.stem, path)
    return found


@functools.lru_cache(maxsize=1)
def _photo_index() -> dict[str, list[dict[str, str]]]:
    text = resources.files("vision.sim.data").joinpath("index.json").read_text(encoding="utf-8")
    index: dict[str, list[dict[str, str]]] = json.loads(text)
    return index


@functools.lru_cache(maxsize=256)
def _photo_crop(face: str, colour: str, split: Split) -> np.ndarray:
    """The real crop (BGR uint8, 96 x 72 x 3) of a face in one colour and split."""
    name = "joker" if face == "joker" else f"{colour}_{face}"
    entries = _photo_index().get(name, [])
    entry = next((e for e in entries if e["split"] == split), entries[0] if entries else None)
    if entry is None:
        raise TileStyleError(f"no real Rummikub crop of {name!r} in vision/sim/data")
    data = resources.files("vision.sim.data").joinpath(entry["file"]).read_bytes()
    crop = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if crop is None:
        raise TileStyleError(f"vision/sim/data/{entry['file']} is not a readable image")
    return crop


def _shade(colour: tuple[int, int, int], delta: np.ndarray) -> tuple[int, int, int]:
    return tuple(int(np.clip(c + d, 0, 255)) for c, d in zip(colour, delta, strict=True))  # type: ignore[return-value]


def _fixed(points: np.ndarray) -> np.ndarray:
    """Points as int32 fixed-point with 4 fractional bits, for cv2 drawing with shift=4."""
    return np.round(np.asarray(points) * 16).astype(np.int32)


def _pt(p: np.ndarray) -> tuple[int, int]:
    return int(round(float(p[0]))), int(round(float(p[1])))
