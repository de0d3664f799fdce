"""The learned tile finder (vision.table.finder) with the shipped model: the tiles of rendered
tables and loose scenes in the HELD-OUT font families and of the valid/ photos found once each
(rates, so that a retrain that finds worse fails), tables that were hard, bare tables, the
outline's geometry, bad input and a missing or damaged model."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.capture.images import load_image
from vision.sim.crops import match_labelled, read_class_names, read_labels
from vision.sim.finder_scenes import finder_scene, matched_overlaps
from vision.sim.table_shots import drawn_at, random_shot
from vision.sim.tile_scenes import table_surface
from vision.table import TableError
from vision.table.finder import FinderError, TileFinder, tile_finder

#: Held-out photos of each kind read here (seeds apart from bench/bench_finder.py's and training's).
SEED = 60_000_000
TABLES = 12
SCENES = 40
#: Most true tiles not found once plus tiles found that are none, over those photos per kind.
#: Shipped: 0 of 160 Super Wild tiles, 0 of 169 Holominoes tiles (under 0.1% on 300 such tables,
#: bench/bench_finder.py), 61 with 553 loose tiles (most cut by the photo's edge); a finder erring
#: 1.25 times as often exceeds each bound with probability about 2% or less, one erring twice as
#: often passes the loose bound with probability 0.5%.
MOST_WRONG = {"superwild": 3, "holominoes": 3, "loose": 94}
#: The valid/ photos' labelled tiles, and most of them missed and most tiles found on none of them.
#: Shipped: 0 and 0 (the finder was chosen on them between two candidates; the other missed 2 and
#: found 2 extra); bound 4 each: a finder erring 1.25 times as often as the other (2.5 expected)
#: exceeds it with probability 11%, one erring three times as often (6) passes with probability 29%.
VALID_TILES = 476
MOST_VALID_WRONG = 4


@pytest.mark.parametrize("game", ["superwild", "holominoes"])
def test_every_tile_of_held_out_tables_is_found_once(game: str) -> None:
    missed = extra = tiles = 0
    for seed in range(SEED, SEED + TABLES):
        shot = random_shot(game, seed, "held_out")
        drawn = [drawn_at(shot, t.centre) for t in tile_finder().find(shot.image)]
        on = [t for t in drawn if t is not None]
        tiles += len(shot.tiles)
        missed += len(shot.tiles) - len(set(on))
        extra += drawn.count(None) + len(on) - len(set(on))
    assert tiles > 100 and missed + extra <= MOST_WRONG[game], (missed, extra, tiles)


def test_loose_tiles_of_held_out_scenes_are_found() -> None:
    tiles = found = matched = 0
    for seed in range(SEED, SEED + SCENES):
        scene = finder_scene(seed, "held_out")
        outlines = tile_finder().find(scene.image)
        tiles += len(np.unique(scene.ids)) - 1
        found += len(outlines)
        matched += len(matched_overlaps(outlines, scene.ids))
    wrong = (tiles - matched) + (found - matched)
    assert tiles > 300 and wrong <= MOST_WRONG["loose"], (tiles, found, matched)


def test_the_valid_photos_tiles_are_found(photos_dir: Path) -> None:
    names = read_class_names(photos_dir / "data.yaml")
    split = photos_dir / "valid"
    labelled = matched = found = 0
    for path in sorted((split / "images").glob("*.jpg")):
        image = load_image(path)
        truth = read_labels(split / "labels" / f"{path.stem}.txt", path, image.shape[1::-1], names)
        tiles = tile_finder().find(image)
        labelled, found = labelled + len(truth), found + len(tiles)
        matched += len(match_labelled([t.centre for t in tiles], truth))
    assert labelled == VALID_TILES
    assert labelled - matched <= MOST_VALID_WRONG and found - matched <= MOST_VALID_WRONG, (matched, found)


#: TRAIN-style Super Wild tables that were hard: light blotches of a cloth like the tiles' bodies
#: (6006, 6064, 6698), and tiles whose rims and sides ring a group of them (6062).
HARD_TABLES = (6006, 6064, 6698, 6062)


@pytest.mark.parametrize("seed", HARD_TABLES)
def test_each_tile_of_a_hard_table_is_found_once_and_nothing_else(seed: int) -> None:
    shot = random_shot("superwild", seed, "train")
    found = [drawn_at(shot, t.centre) for t in tile_finder().find(shot.image)]
    assert None not in found
    assert sorted(t.place for t in found if t is not None) == sorted(t.place for t in shot.tiles)


def test_a_bare_table_has_no_tiles() -> None:
    rng = np.random.default_rng(4)
    for _ in range(6):
        assert tile_finder().find(table_surface(rng, (1024, 768))) == []
    assert tile_finder().find(np.full((200, 300, 3), 120, np.uint8)) == []


def test_a_tile_s_outline_quad_and_pixels_hold_it() -> None:
    shot = random_shot("superwild", 7, "held_out")
    tiles = tile_finder().find(shot.image)
    assert tiles
    for tile in tiles:
        assert tile.outline.dtype == np.float32 and tile.outline.shape[1] == 2
        quad = tile.quad()
        assert quad.shape == (4, 2) and cv2.pointPolygonTest(quad, tile.centre, False) >= 0
        pixels = tile.pixels(shot.image.shape)
        assert len(pixels) == pytest.approx(tile.area, rel=0.1)
        inner = tile.pixels(shot.image.shape, 0.9)
        assert 0.7 * len(pixels) < len(inner) < 0.9 * len(pixels)
        assert 0 < tile.score <= 1


def test_what_is_no_photo_is_refused_in_one_line() -> None:
    for bad in (np.zeros((100, 100), np.uint8), np.zeros((20, 20, 3), np.uint8),
                np.zeros((64, 64, 3), np.float32)):
        with pytest.raises(FinderError, match="expected a BGR uint8") as raised:
            tile_finder().find(bad)
        assert isinstance(raised.value, TableError) and "\n" not in str(raised.value)


def test_a_missing_or_damaged_model_is_a_finder_error(tmp_path: Path) -> None:
    with pytest.raises(FinderError, match="not found"):
        TileFinder(tmp_path / "none.onnx")
    damaged = tmp_path / "tile_finder.onnx"
    shipped = Path(tile_finder().model_path).read_bytes()
    damaged.write_bytes(shipped[: len(shipped) // 3])
    with pytest.raises(FinderError, match="tile_finder.onnx"):
        TileFinder(damaged)
