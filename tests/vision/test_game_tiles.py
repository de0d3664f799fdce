"""Yushino, Super Wild and Holominoes tiles: shapes, printed marks that tell up, the 6/9, bites."""

from __future__ import annotations

import numpy as np
import pytest

from vision.sim.game_tiles import (
    HOLOMINO_BITTEN_DEG,
    HOLOMINO_NUMBERED_DEG,
    SUPERWILD_FACES,
    YUSHINO_FACES,
    GameStyle,
    render_holomino,
    render_superwild,
    render_yushino,
    sample_game_style,
)
from vision.sim.tiles import TileStyleError, fonts


def _style(game: str, variant: str, font: str = "DejaVuSans-Bold", body=(222, 238, 244), ink=(35, 30, 30)):
    spec = next(f for f in fonts("train") if f.name == font)
    return GameStyle(game, "train", spec, body, ink, variant)


def _ink(tile: np.ndarray) -> np.ndarray:
    bgr = tile[..., :3].astype(int)
    inside = tile[..., 3] == 255
    body = np.median(bgr[inside], axis=0)
    return inside & (np.abs(bgr - body).sum(axis=2) > 300)  # ink, not the darker rim


@pytest.mark.parametrize("variant", ["underline", "bar"])
def test_yushino_tiles_render_every_face_and_their_mark_breaks_the_half_turn(variant: str) -> None:
    style = _style("yushino", variant)
    for face in YUSHINO_FACES:
        tile = render_yushino(face, style, 64, np.random.default_rng(0))
        assert tile.shape == (64, 64, 4) and tile.dtype == np.uint8
        assert tile[32, 32, 3] == 255 and tile[0, 0, 3] == 0
    zero = _ink(render_yushino("0", style, 96, np.random.default_rng(0)))
    rows = np.nonzero(zero.any(axis=1))[0]
    runs = np.split(rows, np.nonzero(np.diff(rows) > 1)[0] + 1)
    assert len(runs) == 2  # the digit, then a thin mark below it: "0" is no longer its own half turn
    assert len(runs[1]) < 0.12 * 96 and runs[1][0] > runs[0][-1]
    assert (zero & np.rot90(zero, 2)).sum() < 0.9 * zero.sum()


def test_superwild_six_nine_is_centred_without_a_mark_and_other_numbers_sit_high() -> None:
    style = _style("superwild", "upper")
    six = _ink(render_superwild("6/9", "R", style, 96, np.random.default_rng(1)))
    ys, xs = np.nonzero(six)
    assert abs(ys.mean() - 48) < 0.06 * 96 and abs(xs.mean() - 48) < 0.06 * 96
    assert ys.max() - ys.min() < 0.5 * 96  # one glyph, no underline or dot beneath it
    seven = _ink(render_superwild("7", "R", style, 96, np.random.default_rng(1)))
    assert np.nonzero(seven)[0].mean() < 0.45 * 96


def test_superwild_colours_and_faces_are_checked() -> None:
    style = _style("superwild", "centre")
    for face in SUPERWILD_FACES:
        colour = "-" if face == "joker" else "B"
        assert render_superwild(face, colour, style, 48, np.random.default_rng(0)).shape == (48, 48, 4)
    for face, colour in (("9", "R"), ("joker", "R"), ("5", "-"), ("5", "G")):
        with pytest.raises(TileStyleError):
            render_superwild(face, colour, style, 48, np.random.default_rng(0))
    with pytest.raises(TileStyleError, match="yushino style"):
        render_superwild("5", "K", _style("yushino", "bar"), 48, np.random.default_rng(0))


@pytest.mark.parametrize("variant", ["upright", "pointing"])
def test_holomino_has_bites_at_three_corners_and_digits_at_the_others(variant: str) -> None:
    tile = render_holomino((1, 4, 6), _style("holominoes", variant), 120, np.random.default_rng(2))
    alpha = tile.image[..., 3]
    c, r = np.array(tile.centre), tile.radius
    for a in HOLOMINO_BITTEN_DEG:
        x, y = np.round(c + 0.9 * r * np.array([np.cos(np.radians(a)), np.sin(np.radians(a))])).astype(int)
        assert alpha[y, x] == 0, a  # bitten
    for a in HOLOMINO_NUMBERED_DEG:
        x, y = np.round(c + 0.9 * r * np.array([np.cos(np.radians(a)), np.sin(np.radians(a))])).astype(int)
        assert alpha[y, x] == 255, a
    ink = _ink(tile.image)
    for x, y in tile.digits:
        assert ink[int(y) - 8 : int(y) + 9, int(x) - 8 : int(x) + 9].sum() > 15
    with pytest.raises(TileStyleError, match="1..6"):
        render_holomino((1, 7, 2), _style("holominoes", variant), 120, np.random.default_rng(2))


def test_pointing_digits_differ_from_upright_ones() -> None:
    up = render_holomino((2, 2, 2), _style("holominoes", "upright"), 120, np.random.default_rng(2)).image
    point = render_holomino((2, 2, 2), _style("holominoes", "pointing"), 120, np.random.default_rng(2)).image
    assert np.abs(up.astype(int) - point.astype(int)).mean() > 1


def test_sampled_styles_render_deterministically() -> None:
    for game in ("yushino", "superwild", "holominoes"):
        style = sample_game_style(np.random.default_rng(4), "held_out", game)
        assert style.split == "held_out" and style.font in fonts("held_out")
    style = sample_game_style(np.random.default_rng(4), "train", "yushino")
    a = render_yushino("7", style, 50, np.random.default_rng(3))
    b = render_yushino("7", style, 50, np.random.default_rng(3))
    assert a.tobytes() == b.tobytes()
    with pytest.raises(ValueError, match="unknown game"):
        sample_game_style(np.random.default_rng(0), "train", "chess")
