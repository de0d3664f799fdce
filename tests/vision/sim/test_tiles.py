"""Tile rendering: every face in every shape, determinism, the font split, 6/9 orientation cues."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest

from vision.sim.tiles import (
    FACES,
    SHAPES,
    TileStyle,
    TileStyleError,
    fonts,
    render_tile,
    sample_style,
)


def _style(split: str, shape: str, seed: int = 0) -> TileStyle:
    return sample_style(np.random.default_rng(seed), split, (shape,))  # type: ignore[arg-type]


@pytest.mark.parametrize("split", ["train", "held_out"])
@pytest.mark.parametrize("shape", SHAPES)
def test_every_supported_face_renders_as_bgra_tile(split: str, shape: str) -> None:
    style = _style(split, shape)
    rng = np.random.default_rng(5)
    shown = [face for face in FACES if style.supports(face)]
    assert len(shown) == (14 if shape == "photo" else len(FACES))
    for face in shown:
        tile = render_tile(face, style, 48, rng)
        assert tile.shape == (48, 48, 4) and tile.dtype == np.uint8
        alpha = tile[..., 3]
        assert alpha[24, 24] == 255 and alpha[0, 0] == 0
        body = tile[..., :3][alpha == 255]
        # a printed face has ink that differs clearly from the body (a blank wild tile has none)
        if not (face == "#" and style.blank_wild):
            assert np.ptp(body.astype(int).sum(axis=1)) > 150, (style.name, face)


def test_same_rng_state_gives_identical_bytes_and_other_seeds_differ() -> None:
    style = _style("train", "rectangle", seed=3)
    a = render_tile("17", style, 64, np.random.default_rng(11))
    b = render_tile("17", style, 64, np.random.default_rng(11))
    c = render_tile("17", style, 64, np.random.default_rng(12))
    assert a.tobytes() == b.tobytes()
    assert a.tobytes() != c.tobytes()


def test_train_and_held_out_fonts_are_disjoint_and_include_both_kinds() -> None:
    train, held = fonts("train"), fonts("held_out")
    assert {f.name for f in train}.isdisjoint({f.name for f in held})
    for split in (train, held):
        assert any(f.path is None for f in split), "a Hershey font"
        assert any(f.path is not None for f in split), "a TrueType/OpenType font from /usr/share/fonts"
    with pytest.raises(ValueError, match="unknown split"):
        fonts("test")  # type: ignore[arg-type]


def test_fonts_are_split_by_whole_families() -> None:
    """No style of a held-out family (URW Gothic, P052, C059, Hershey triplex) trains, and every
    style of a training family (DejaVu Condensed too) does."""
    def family(name: str) -> str:  # "hershey-triplex-italic" -> "triplex"; "URWGothic-Demi" -> "URWG"
        return name.split("-")[1] if name.startswith("hershey-") else name[:4]

    train = {f.name for f in fonts("train")}
    held = {f.name for f in fonts("held_out")}
    assert {family(n) for n in train}.isdisjoint({family(n) for n in held})
    assert {"DejaVuSansCondensed-Bold", "NimbusSansNarrow-Bold", "URWBookman-Light", "FreeSerif"} <= train
    assert {"URWGothic-Demi", "P052-Roman", "C059-Roman", "hershey-triplex", "hershey-triplex-italic"} <= held


def test_photo_style_shows_only_real_rummikub_faces() -> None:
    style = _style("train", "photo")
    with pytest.raises(TileStyleError, match="cannot show face '0'"):
        render_tile("0", style, 48, np.random.default_rng(0))
    with pytest.raises(TileStyleError, match="size_px"):
        render_tile("5", style, 8, np.random.default_rng(0))


def test_pentagon_outline_tells_up_from_down() -> None:
    tile = render_tile("9", _style("train", "pentagon"), 64, np.random.default_rng(0))
    alpha = tile[..., 3].astype(int)
    turned = np.rot90(alpha, 2)
    assert np.abs(alpha - turned).mean() > 20  # no half-turn symmetry (§1-3)
    assert alpha[8, 32] == 255 and alpha[8, 8] == 0  # apex up


@pytest.mark.parametrize("shape", ["rectangle", "photo"])
def test_rectangle_number_sits_in_upper_part(shape: str) -> None:
    for seed in range(4):
        style = _style("held_out", shape, seed)
        tile = render_tile("6", style, 96, np.random.default_rng(seed))
        bgr = tile[..., :3].astype(int)
        inside = tile[..., 3] == 255
        body = np.median(bgr[inside], axis=0)
        ink = inside & (np.abs(bgr - body).sum(axis=2) > 120)
        ys = np.nonzero(ink)[0]
        assert len(ys) > 30 and ys.mean() < 0.5 * 96, style.name


def test_six_and_nine_are_not_half_turns_of_each_other_on_pentagons() -> None:
    style = _style("train", "pentagon", seed=2)
    six = render_tile("6", style, 64, np.random.default_rng(1))
    nine = render_tile("9", style, 64, np.random.default_rng(1))
    assert np.abs(six.astype(int) - np.rot90(nine, 2).astype(int)).mean() > 10


def test_shipped_real_crops_cover_every_class_with_attribution() -> None:
    folder = resources.files("vision.sim.data")
    files = [p for p in folder.iterdir() if p.name.endswith(".jpg")]
    assert len(files) >= 53
    assert sum(len(p.read_bytes()) for p in files) < 3_000_000
    attribution = folder.joinpath("ATTRIBUTION.txt").read_text(encoding="utf-8")
    assert "CC BY 4.0" in attribution and "rummikub-nvypk-8cwem" in attribution


def test_style_invariants_are_checked() -> None:
    with pytest.raises(ValueError, match="photo_colour"):
        TileStyle("x", "photo", "train", None, photo_colour="purple")
    with pytest.raises(ValueError, match="font is needed"):
        TileStyle("x", "pentagon", "train", None)
