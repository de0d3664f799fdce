"""Byte medians from histograms equal numpy's medians."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reader.medians import channel_medians, group_medians


@pytest.mark.parametrize("count", [1, 2, 5, 520, 521])
def test_channel_medians_equal_numpy_for_odd_and_even_counts(count):
    values = np.random.default_rng(count).integers(0, 256, (7, count, 3), dtype=np.uint8)
    expected = np.median(values.astype(np.float32), axis=1)
    got = channel_medians(values)
    assert got.dtype == np.float32 and got.shape == (7, 3)
    assert np.array_equal(got, expected)


def test_a_constant_row_has_its_value_as_median():
    values = np.full((1, 9, 2), 200, np.uint8)
    values[0, :4, 1] = 0  # 4 of 9 low: the median stays 200
    assert channel_medians(values).tolist() == [[200.0, 200.0]]


def test_group_medians_equal_numpy_for_groups_of_any_size():
    rng = np.random.default_rng(7)
    sizes = [1, 2, 5, 0, 520, 33]
    groups = np.repeat(np.arange(len(sizes)), sizes)
    rng.shuffle(groups)
    values = rng.integers(0, 256, (len(groups), 3), dtype=np.uint8)
    got = group_medians(values, groups, len(sizes))
    for g, size in enumerate(sizes):
        expected = np.median(values[groups == g].astype(np.float32), axis=0) if size else [128.0] * 3
        assert np.array_equal(got[g], expected), g
