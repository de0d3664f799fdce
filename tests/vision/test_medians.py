"""Byte medians from histograms equal numpy's medians."""

from __future__ import annotations

import numpy as np
import pytest

from vision.medians import channel_medians


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
