"""engine.solver.assignment against every assignment tried by brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine.solver import assignment

FINITE = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
WEIGHTS = st.integers(1, 5).flatmap(
    lambda n: st.integers(n, 6).flatmap(lambda k: arrays(np.float64, (n, k), elements=FINITE))
)


@settings(max_examples=60, deadline=None)
@given(WEIGHTS)
def test_assignment_is_the_best_of_all_assignments(weights: np.ndarray) -> None:
    n, k = weights.shape
    taken = assignment(weights)
    best = max(sum(weights[r, c] for r, c in enumerate(cols)) for cols in itertools.permutations(range(k), n))
    assert len(set(taken.tolist())) == n
    assert weights[np.arange(n), taken].sum() == pytest.approx(best, abs=1e-6)


def test_a_column_a_row_may_not_take_is_never_taken() -> None:
    weights = np.array([[5.0, -np.inf], [4.0, 0.0]])
    assert assignment(weights).tolist() == [0, 1]
    assert assignment(np.array([[-np.inf, 1.0], [3.0, 2.0]])).tolist() == [1, 0]


def test_more_rows_than_columns_is_refused() -> None:
    with pytest.raises(ValueError, match="3 rows to 2 columns"):
        assignment(np.zeros((3, 2)))
