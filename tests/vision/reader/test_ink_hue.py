"""The shipped ink hue model (vision.reader.ink_hue) on Super Wild tables in the HELD-OUT font
families and with real held-out Rummikub crops (vision.sim.table_shots; the model was fitted on
TRAIN-style tables of seeds 0..299): the colour its hue tells alone, and the colours of a whole
reading (vision.table.superwild_read), which weighs the reader's by it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.reader.ink_hue import INK_COLOURS, ink_hue, shipped_ink_hues
from vision.reader.model import TileReader
from vision.sim.table_shots import drawn_at, drawn_ink_hues, random_shot
from vision.table.finder import tile_finder
from vision.table.superwild_read import read_superwild

#: bench/bench_table.py's held-out seeds. The reading gets every colour of these tables right,
#: with the hue and without it (over 300 such tables: 4 of 3,596 wrong without it, none with it;
#: vision/reader/ink_hues.md).
SEEDS = range(1000, 1050)
#: Most of the hues of the first 20 of those tables' number tiles (257) telling another colour
#: alone. Shipped: 3 (0.81% on 300 such tables, bench/train_ink_hues.py); bound 7: a model erring
#: 1.25 times as often (2.6 expected) exceeds it with probability 0.5%.
MOST_HUES_WRONG = 7


def _reading_colours(photos: bool) -> tuple[int, int]:
    """(tiles whose colour was read wrong, number tiles read) over SEEDS's tables."""
    reader, wrong, read = TileReader(), 0, 0
    for seed in SEEDS:
        shot = random_shot("superwild", seed, "held_out", photos=photos)
        for seen in read_superwild(shot.image, reader, tile_finder()).seen:
            drawn = drawn_at(shot, seen.centre)
            if drawn is not None and drawn.colour in INK_COLOURS and seen.face == drawn.face:
                read += 1
                wrong += seen.colour != drawn.colour
    return wrong, read


def test_the_hue_alone_tells_the_colour_of_held_out_rendered_tiles() -> None:
    found = [
        pair for seed in SEEDS[:20] for pair in drawn_ink_hues(random_shot("superwild", seed, "held_out"))
    ]
    hues, colours = zip(*found, strict=True)
    told = np.array(INK_COLOURS)[shipped_ink_hues().likelihoods(np.array(hues)).argmax(axis=1)]
    assert len(colours) > 200
    assert np.sum(told != np.array(colours)) <= MOST_HUES_WRONG


def test_a_reading_tells_the_colours_of_held_out_rendered_tiles() -> None:
    wrong, read = _reading_colours(photos=False)
    assert read > 600
    assert wrong <= 1, f"{wrong} of {read} colours wrong"


def test_a_reading_tells_the_colours_of_real_held_out_crops(photos_dir: Path) -> None:
    wrong, read = _reading_colours(photos=True)
    assert read > 600
    assert wrong <= 1, f"{wrong} of {read} colours wrong"


def test_a_print_as_faint_as_its_body_tells_no_colour() -> None:
    hues = shipped_ink_hues()
    faint = ink_hue(np.zeros((0, 3)))
    assert not faint.any()
    assert np.allclose(hues.likelihoods(faint[None]), 1.0)
    colours = np.array([[0.1, 0.2, 0.3, 0.35, 0.05]])  # K B O R -
    assert np.allclose(hues.colour_probabilities(colours, faint[None]), colours)


@pytest.mark.parametrize("colour", INK_COLOURS)
def test_each_colour_is_likeliest_at_its_own_mean(colour: str) -> None:
    hues = shipped_ink_hues()
    at_mean = hues.mean[INK_COLOURS.index(colour)][None]
    assert INK_COLOURS[int(hues.likelihoods(at_mean).argmax())] == colour
